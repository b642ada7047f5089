"""The SQLite file: connections, pragmas and write transactions (its schema: storage.migrate).

One writer connection; every write transaction holds an asyncio lock from `BEGIN IMMEDIATE`
to `COMMIT`, so writers queue in the process instead of meeting "database is locked". Reads go
through a second connection (WAL lets them run beside a write), except inside a transaction,
where they see what the transaction wrote so far.

A transaction opened inside another one (in the same task) joins it: a flow calls several
repository functions and they commit together. Hooks run inside the outermost transaction
just before its commit (`before_commit`): the inbox marks the update being handled done
there, so the update and its effect are one fact.
"""

from __future__ import annotations

import asyncio
import fcntl
import logging
import os
import sqlite3
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, NamedTuple, Protocol, TypeVar

import aiosqlite

from storage.errors import StoreError, StoreProblem
from storage.migrate import SqliteTarget, upgrade
from storage.sql import POSTGRES_SCHEMES, Connection, Link

log = logging.getLogger(__name__)

T = TypeVar("T")

BUSY_TIMEOUT_MS = 10_000
PRIVATE_FILE = 0o600
PRIVATE_DIR = 0o700

CommitHook = Callable[[Link], Awaitable[None]]


def storage_problem(exc: BaseException) -> StoreProblem | None:
    """What an SQLite failure means for the club, if it is one we can name."""
    if not isinstance(exc, sqlite3.Error):
        return None
    text = str(exc).lower()
    if "readonly" in text or "read-only" in text:
        return StoreProblem.READ_ONLY
    if "disk is full" in text or "disk full" in text:
        return StoreProblem.DISK_FULL
    if "not a database" in text or "malformed" in text or "corrupt" in text:
        return StoreProblem.CORRUPT
    if "unable to open" in text or "disk i/o" in text:
        return StoreProblem.UNREADABLE
    return None


def private_dir(directory: Path) -> None:
    """A folder the bot makes is one only its user can read (the data holds names and
    Telegram ids); a folder that exists is the owner's choice, and left as it is."""
    if directory.exists():
        return
    directory.mkdir(mode=PRIVATE_DIR, parents=True, exist_ok=True)
    os.chmod(directory, PRIVATE_DIR)  # whatever the umask took off


def private_file(path: Path) -> None:
    """Create `path` (if missing) readable by the bot's user only; SQLite gives its WAL and
    shared-memory files the same mode as the database file. A file that exists is left as it
    is (`keizerbot doctor` says when others can read it)."""
    try:
        fd = os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, PRIVATE_FILE)
    except FileExistsError:
        return
    os.close(fd)
    os.chmod(path, PRIVATE_FILE)


def readable_by_others(path: Path) -> bool:
    """Whether users other than the file's owner may read it."""
    return bool(path.exists() and path.stat().st_mode & 0o044)


async def _connect(path: Path) -> aiosqlite.Connection:
    conn = await aiosqlite.connect(path, isolation_level=None)
    conn.row_factory = aiosqlite.Row
    try:
        for pragma in ("journal_mode = WAL", f"busy_timeout = {BUSY_TIMEOUT_MS}",
                       "foreign_keys = ON", "synchronous = NORMAL"):
            await conn.execute(f"PRAGMA {pragma}")
    except BaseException:
        await conn.close()  # its thread would keep the process from exiting
        raise
    return conn


class Readers:
    """Connections that can only read stores (for a process of the bot's own that reads
    beside it: the bots alone write, and migrate): one per SQLite file, and for a PostgreSQL
    database a small pool its clubs share, each club's reads set to that club."""

    def __init__(self) -> None:
        self._files: list[aiosqlite.Connection] = []
        self._pools: dict[str, Any] = {}

    async def open(self, path: Path | str, club: int | None = None) -> Link:
        if isinstance(path, str) and path.startswith(POSTGRES_SCHEMES):
            from storage.postgres import FIRST_CLUB, PooledConnection, reader_pool

            if path not in self._pools:
                self._pools[path] = await reader_pool(path)
            return PooledConnection(self._pools[path], club or FIRST_CLUB)
        conn = await aiosqlite.connect(f"{Path(path).resolve().as_uri()}?mode=ro", uri=True,
                                       isolation_level=None)
        conn.row_factory = aiosqlite.Row
        await conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        self._files.append(conn)
        return conn

    async def close(self) -> None:
        for conn in self._files:
            await conn.close()
        for pool in self._pools.values():
            await pool.close()
        self._files, self._pools = [], {}


@asynccontextmanager
async def snapshot(conn: Link) -> AsyncIterator[Link]:
    """Several reads that see one state of the data: SQLite's read transaction, PostgreSQL's
    repeatable read."""
    await conn.execute("BEGIN" if isinstance(conn, aiosqlite.Connection)
                       else "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
    try:
        yield conn
    finally:
        await conn.rollback()


class Versions(NamedTuple):
    """Versions of the club's data, moved by triggers in the transaction of a write (the
    inbox, the outbox and the messages posted move neither)."""

    data: int
    """Every change to the club's data."""
    standings: int
    """What the standings depend on: the players, the rules, every round's state, and the
    games and attendance of the rounds that are published or complete."""


async def versions(conn: Connection) -> Versions:
    async with conn.execute("SELECT version, standings FROM club_version") as cur:
        row = await cur.fetchone()
    return Versions(row[0], row[1]) if row else Versions(0, 0)


async def inserted(conn: Connection, sql: str, values: tuple[Any, ...]) -> int:
    """The id of the row `sql` inserts (`RETURNING id`, as PostgreSQL writes it too)."""
    async with conn.execute(f"{sql} RETURNING id", values) as cur:
        row = await cur.fetchone()
    assert row is not None
    return int(row[0])


async def schema_version(db: Database) -> int:
    """The schema's version, as `storage.migrate` left it."""
    async with db.reader.execute(db.dialect.VERSION_QUERY) as cur:
        row = await cur.fetchone()
    return int(row[0]) if row else 0


class InstanceLock:
    """An OS lock beside the database: one bot per database file. The kernel drops it when the
    process dies, however it dies, so a crash never leaves a stale lock."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._fd: int | None = None

    def acquire(self) -> None:
        fd = os.open(self.path, os.O_CREAT | os.O_RDWR, PRIVATE_FILE)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            raise StoreError(StoreProblem.IN_USE, path=self.path) from None
        os.ftruncate(fd, 0)
        os.write(fd, f"{os.getpid()}\n".encode())
        self._fd = fd

    def release(self) -> None:
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None


class Dialect(Protocol):
    """What a database does its own way: beginning a write, naming its failures, and where
    it keeps its schema's version."""

    VERSION_QUERY: str

    async def begin(self, writer: Link) -> None:
        """Begin the write transaction, holding the one writer's place until its end."""

    def problem(self, exc: BaseException) -> StoreProblem | None:
        """What a failure of this database means for the club, if it is one we can name."""

    async def release(self) -> None:
        """Let go of what the open database holds besides its connections."""


class _Sqlite:
    VERSION_QUERY = "PRAGMA user_version"

    def __init__(self, lock: InstanceLock | None) -> None:
        self.lock = lock

    async def begin(self, writer: Link) -> None:
        await writer.execute("BEGIN IMMEDIATE")

    def problem(self, exc: BaseException) -> StoreProblem | None:
        return storage_problem(exc)

    async def release(self) -> None:
        if self.lock is not None:
            self.lock.release()


class Database:
    """An open database; use `await Database.open(path)` (a SQLite file, or a PostgreSQL
    address) and `await db.close()`."""

    def __init__(self, path: Path | str, writer: Link, reader: Link, bulk: Link,
                 dialect: Dialect | None = None) -> None:
        self.path = path
        """The file, or the PostgreSQL address (without its password): what a refusal
        names."""
        self.writer = writer
        self.reader = reader
        self.bulk = bulk
        """For reading the whole season: a connection of its own, so that the small
        questions every message asks never queue behind it."""
        self._lock = asyncio.Lock()
        self.dialect: Dialect = dialect or _Sqlite(None)
        self._owner: asyncio.Task[Any] | None = None
        """The task whose write transaction is open: what it opens inside joins it."""
        self._commit_listeners: list[Callable[[], None]] = []
        self._before_commit: list[CommitHook] = []
        self._memo: dict[str, tuple[int, Any]] = {}
        self._memo_locks: dict[str, asyncio.Lock] = {}
        self._offers: dict[str, tuple[int, Any]] = {}
        self._aside = 0
        self._begun_at = (0, 0)
        """The open transaction's start: the changes made on the writer, and the version."""

    @classmethod
    async def open(cls, path: Path | str, *, exclusive: bool = False,
                   club: int | None = None, pool: Any = None) -> Database:
        """Open (creating it, private to this user, if new) and migrate. `exclusive` takes
        the instance lock: a second bot on the same file is refused (StoreProblem.IN_USE).
        An address `postgresql://...` opens that PostgreSQL database (storage.postgres), for
        one `club` of it (the first, if none is named), on connections of its own or of a
        `pool` the process's clubs share; a file is one club."""
        if isinstance(path, str) and path.startswith(POSTGRES_SCHEMES):
            from storage.postgres import FIRST_CLUB, open_postgres  # only for PostgreSQL

            return await open_postgres(path, exclusive=exclusive, club=club or FIRST_CLUB,
                                       pool=pool)
        path = Path(path)
        lock = None
        try:
            private_dir(path.parent)
            if exclusive:
                lock = InstanceLock(path.with_name(path.name + ".lock"))
                lock.acquire()
            private_file(path)
        except OSError as exc:
            if lock is not None:
                lock.release()
            raise StoreError(StoreProblem.UNREADABLE, path=path,
                             reason=exc.strerror or exc) from exc
        opened: list[aiosqlite.Connection] = []  # SQLite's own, until they are the store's
        try:
            opened.append(await _connect(path))
            await upgrade(SqliteTarget(opened[0]))
            opened.append(await _connect(path))
            opened.append(await _connect(path))
        except BaseException as exc:
            for conn in opened:
                await conn.close()
            if lock is not None:
                lock.release()
            problem = storage_problem(exc)
            if problem is not None:
                raise StoreError(problem, path=path, reason=exc) from exc
            raise
        writer, reader, bulk = opened
        return cls(path, writer, reader, bulk, _Sqlite(lock))

    async def close(self) -> None:
        await self.bulk.close()
        await self.reader.close()
        await self.writer.close()
        await self.dialect.release()

    def _inside(self) -> bool:
        """Whether this task has the write transaction open (a task it starts has not: that
        one waits for the lock like any other)."""
        return self._owner is not None and asyncio.current_task() is self._owner

    @property
    def conn(self) -> Link:
        """The connection to read with: the open transaction's, else the reader."""
        return self.writer if self._inside() else self.reader

    @property
    def bulk_conn(self) -> Link:
        """The connection to read the whole season with: the transaction's, else `bulk`."""
        return self.writer if self._inside() else self.bulk

    @asynccontextmanager
    async def fresh(self) -> AsyncIterator[Link]:
        """A connection that sees every commit so far: the writer, between transactions.
        The shared reader can be on an older snapshot while another read on it is under
        way; a reader that must see its own last write (the outbox sender: a message marked
        sent is never due again) reads here."""
        if self._inside():
            yield self.writer
            return
        async with self._lock:
            yield self.writer

    def before_commit(self, hook: CommitHook) -> None:
        """Run `hook` inside every outermost write transaction, just before it commits (once
        per hook, however often it is asked for)."""
        if hook not in self._before_commit:
            self._before_commit.append(hook)

    def on_commit(self, listener: Callable[[], None]) -> None:
        """Call `listener` after every commit (the outbox sender wakes up on it)."""
        self._commit_listeners.append(listener)

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Link]:
        """A write transaction: all of it commits, or none of it. Nested: joins the outer."""
        if self._inside():
            yield self.writer
            return
        async with self._lock:
            self._owner = asyncio.current_task()
            self._offers.clear()
            self._aside = 0
            try:
                await self._begin()
                try:
                    self._begun_at = (self._changes(), await self._version(self.writer))
                    yield self.writer
                    written = self._changes()
                    for hook in self._before_commit:
                        await hook(self.writer)
                    await self.writer.commit()
                    await self._keep_offers(written)
                except BaseException as exc:
                    self._offers.clear()
                    if self.writer.in_transaction:
                        await self.writer.rollback()
                    problem = self.dialect.problem(exc)
                    if problem is not None:
                        raise StoreError(problem, path=self.path, reason=exc) from exc
                    raise
            finally:
                self._owner = None
        for listener in self._commit_listeners:
            listener()

    def offer(self, key: str, value: Any) -> None:
        """Inside a transaction: `value` is what `memo(key)` would compute from the file as
        it now stands (the season just checked). It serves `offered` until the next write,
        and becomes the memo at commit if nothing was written after it."""
        self._offers[key] = (self._changes(), value)

    def offered(self, key: str) -> Any:
        """Inside a transaction, the value offered for `key` if nothing was written since."""
        if not self._inside():
            return None
        offer = self._offers.get(key)
        return None if offer is None or offer[0] != self._changes() else offer[1]

    def current(self, key: str) -> Any:
        """Inside a transaction, what `memo(key)` would compute from the file as it now
        stands, if that is at hand: the value offered since the last write, or the
        committed memo while the transaction has written nothing."""
        offered = self.offered(key)
        if offered is not None:
            return offered
        cached = self._memo.get(key)
        if not self._inside() or cached is None \
                or (self._changes(), cached[0]) != self._begun_at:
            return None
        return cached[1]

    def _changes(self) -> int:
        return self.writer.total_changes - self._aside

    @asynccontextmanager
    async def aside(self) -> AsyncIterator[Link]:
        """Writes that are not part of the season (the outbox): in the transaction like any
        other, but they leave what was offered valid."""
        async with self.transaction() as conn:
            before = conn.total_changes
            yield conn
            self._aside += conn.total_changes - before

    async def _keep_offers(self, written: int) -> None:
        """Just committed (still holding the lock, so no other commit came between)."""
        fresh = {key: value for key, (changes, value) in self._offers.items()
                 if changes == written}
        self._offers.clear()
        if fresh:
            version = await self.data_version()
            for key, value in fresh.items():
                self._memo[key] = (version, value)

    async def _begin(self) -> None:
        try:
            await self.dialect.begin(self.writer)
        except Exception as exc:
            problem = self.dialect.problem(exc)
            if problem is None:
                raise
            raise StoreError(problem, path=self.path, reason=exc) from exc

    async def data_version(self) -> int:
        """Changes whenever a commit changed the club's data (`Versions.data`), read on the
        reader."""
        return await self._version(self.reader)

    @staticmethod
    async def _version(conn: Connection) -> int:
        return (await versions(conn)).data

    async def memo(self, key: str, compute: Callable[[], Awaitable[T]], *,
                   standings_only: bool = False) -> T:
        """`await compute()` once per state of the club's data: the season and its standings
        are loaded once, whatever number of messages ask before the next change. A value
        that depends on `standings_only` is kept across the changes that leave them."""
        if self._inside():
            return await compute()
        async with self._memo_locks.setdefault(key, asyncio.Lock()):  # one computes, all wait
            now = await versions(self.reader)
            version = now.standings if standings_only else now.data
            cached = self._memo.get(key)
            if cached is not None and cached[0] == version:
                kept: T = cached[1]
                return kept
            value = await compute()
            self._memo[key] = (version, value)
        return value
