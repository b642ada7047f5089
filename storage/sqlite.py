"""The SQLite engine: the club's file, its connections and pragmas, what its failures mean,
and the instance lock beside it (one bot per file). `open_sqlite` opens a file as a store.

One writer connection; a write transaction begins with `BEGIN IMMEDIATE`, and the store's
lock queues writers in the process instead of meeting "database is locked". Reads go through
a second connection (WAL lets them run beside a write), and the whole season through a third.
"""

from __future__ import annotations

import fcntl
import logging
import os
import sqlite3
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

import aiosqlite

from storage.db import Database
from storage.errors import StoreError, StoreProblem
from storage.migrate import SqliteTarget, upgrade
from storage.sql import Link, Pending, Rows

log = logging.getLogger(__name__)

BUSY_TIMEOUT_MS = 10_000
PRIVATE_FILE = 0o600
PRIVATE_DIR = 0o700


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


def _run(conn: sqlite3.Connection, sql: str, parameters: Sequence[Any]) -> Rows:
    cursor = conn.execute(sql, parameters)
    try:
        return Rows(cursor.fetchall(), cursor.rowcount)
    finally:
        cursor.close()


class SqliteLink:
    """An aiosqlite connection that runs a statement, reads its rows and closes its cursor in
    one trip to the connection's thread (aiosqlite's own cursor takes three: each costs both
    threads a wake-up, about 50 µs of CPU, and the store runs hundreds a minute)."""

    def __init__(self, raw: aiosqlite.Connection) -> None:
        self.raw = raw

    def execute(self, sql: str, parameters: Sequence[Any] = (), /) -> Pending:
        return Pending(self, sql, parameters)

    async def run(self, sql: str, parameters: Sequence[Any]) -> Rows:
        # aiosqlite has no public way to run a function of ours on its thread.
        rows: Rows = await self.raw._execute(  # type: ignore[no-untyped-call]
            _run, self.raw._conn, sql, parameters)
        return rows

    async def executemany(self, sql: str, parameters: Iterable[Sequence[Any]], /) -> None:
        await self.raw.executemany(sql, parameters)

    @property
    def in_transaction(self) -> bool:
        return self.raw.in_transaction

    async def commit(self) -> None:
        await self.raw.commit()

    async def rollback(self) -> None:
        await self.raw.rollback()

    async def close(self) -> None:
        await self.raw.close()


async def _connect(database: str | Path, **options: Any) -> SqliteLink:
    conn = await aiosqlite.connect(database, isolation_level=None, **options)
    conn.row_factory = aiosqlite.Row
    return SqliteLink(conn)


async def connect(path: Path) -> SqliteLink:
    conn = await _connect(path)
    try:
        for pragma in ("journal_mode = WAL", f"busy_timeout = {BUSY_TIMEOUT_MS}",
                       "foreign_keys = ON", "synchronous = NORMAL"):
            await conn.execute(f"PRAGMA {pragma}")
    except BaseException:
        await conn.close()  # its thread would keep the process from exiting
        raise
    return conn


class InstanceLock:
    """An OS lock beside the database: one bot per database file. The kernel drops it when the
    process dies, however it dies, so a crash never leaves a stale lock."""

    def __init__(self, database: Path) -> None:
        self.database = database
        self.path = database.with_name(database.name + ".lock")
        self._fd: int | None = None

    def acquire(self) -> None:
        fd = os.open(self.path, os.O_CREAT | os.O_RDWR, PRIVATE_FILE)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            # The arbiter knows his database, not our lock file beside it.
            raise StoreError(StoreProblem.IN_USE, path=self.database) from None
        os.ftruncate(fd, 0)
        os.write(fd, f"{os.getpid()}\n".encode())
        self._fd = fd

    def release(self) -> None:
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None


class SqliteEngine:
    """SQLite's ways (`storage.db.Engine`): one file, one writer, its instance lock."""

    VERSION_QUERY = "PRAGMA user_version"

    def __init__(self, lock: InstanceLock | None, path: Path) -> None:
        self.lock, self.path = lock, path

    async def begin(self, writer: Link) -> None:
        await writer.execute("BEGIN IMMEDIATE")

    def problem(self, exc: BaseException) -> StoreProblem | None:
        return storage_problem(exc)

    async def closing(self, writer: Link) -> None:
        """What the WAL holds goes into the file, and the WAL is emptied: after a clean stop
        the file alone is the club's data (a copy of it loses nothing). A reader of another
        process that holds the WAL open leaves it as it is; nothing is lost either way."""
        try:
            await writer.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        except sqlite3.Error as exc:  # a disk gone or full: the WAL is still whole
            log.warning("could not fold the WAL into %s at close: %s", self.path, exc)

    async def release(self) -> None:
        if self.lock is not None:
            self.lock.release()



async def open_sqlite(path: Path, *, exclusive: bool = False, migrate: bool = True) -> Database:
    """Open (creating it, private to this user, if new) and migrate (`migrate`, else an older
    schema is refused). `exclusive` takes the instance lock: a second bot on the same file is
    refused (StoreProblem.IN_USE)."""
    lock = None
    try:
        private_dir(path.parent)
        if exclusive:
            lock = InstanceLock(path)
            lock.acquire()
        private_file(path)
    except OSError as exc:
        if lock is not None:
            lock.release()
        raise StoreError(StoreProblem.UNREADABLE, path=path,
                         reason=exc.strerror or exc) from exc
    opened: list[SqliteLink] = []  # SQLite's own, until they are the store's
    try:
        opened.append(await connect(path))
        await upgrade(SqliteTarget(opened[0]), migrate=migrate)
        opened.append(await connect(path))
        opened.append(await connect(path))
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
    return Database(path, writer, reader, bulk, SqliteEngine(lock, path))


async def read_only(path: Path) -> SqliteLink:
    """A connection that can only read the file (for a process beside the bot's)."""
    conn = await _connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
    await conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
    return conn


async def migrate_file(path: Path) -> tuple[int, int]:
    """The file brought to this schema under its instance lock (refused while its bot runs,
    StoreProblem.IN_USE): its version before and after."""
    conn = await read_only(path)
    try:
        async with conn.execute("PRAGMA user_version") as cur:
            row = await cur.fetchone()
    finally:
        await conn.close()
    db = await open_sqlite(path, exclusive=True)
    try:
        async with db.conn.execute("PRAGMA user_version") as cur:
            after = await cur.fetchone()
    finally:
        await db.close()
    return int(row[0]) if row else 0, int(after[0]) if after else 0
