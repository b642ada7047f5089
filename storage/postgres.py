"""PostgreSQL beside SQLite (issue 27): the store on a PostgreSQL database. The schema is made
on a new database; the store's SQL (`?` for each value, as SQLite takes it) goes in PostgreSQL's
numbered form through `PgConnection`, which answers as aiosqlite's connections do. asyncpg is
the driver: its rows are read by index and by name, as aiosqlite's are.

A write transaction holds an advisory lock for its length, so writers queue as they do on
SQLite's one file, also from two processes; an exclusive store holds another for its life,
one bot per database."""

from __future__ import annotations

import asyncio
import contextlib
import re
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any, TypeVar

import asyncpg
from asyncpg.connect_utils import SessionAttribute
from asyncpg.pool import PoolConnectionProxy

from storage.address import shown
from storage.db import Database
from storage.errors import StoreError, StoreProblem
from storage.migrate import HOST_ALIVE_SECONDS, PostgresTarget, upgrade
from storage.schema import NAME_FIRST_CLUB
from storage.seal import Rekey, Seal, fingerprint, in_clear
from storage.sql import Link, Pending, Rows

T = TypeVar("T")

WRITER_LOCK = 1
"""The advisory lock a write transaction holds (`pg_advisory_xact_lock`)."""
INSTANCE_LOCK = 2
"""The advisory lock an exclusive store holds while it is open: one bot per database."""
_CHANGED = re.compile(r"^(INSERT \d+|UPDATE|DELETE) (\d+)$")


def numbered(sql: str) -> str:
    """`?` as `$1`, `$2`, ...; a `?` inside a quoted string stays what it is."""
    out: list[str] = []
    count, quote = 0, ""
    for char in sql:
        if quote:
            quote = "" if char == quote else quote
        elif char in ("'", '"'):
            quote = char
        elif char == "?":
            count += 1
            out.append(f"${count}")
            continue
        out.append(char)
    return "".join(out)


_WRITES = ("INSERT", "UPDATE", "DELETE")
Raw = asyncpg.Connection | PoolConnectionProxy
"""A connection of asyncpg's: of its own, or lent by a pool."""


async def _on(raw: Raw, query: str, parameters: Sequence[Any]) -> Rows:
    """One statement on a connection: its cursor (a write's row count read from its
    command tag, as SQLite's cursor tells it)."""
    verb = query.lstrip()[:6].upper()
    if verb in _WRITES and "RETURNING" not in query.upper():
        status = await raw.execute(query, *parameters)
        found = _CHANGED.match(status)
        return Rows([], int(found[2]) if found else 0)
    rows = await raw.fetch(query, *parameters)
    return Rows(rows, len(rows))


class PgConnection:
    """An asyncpg connection that answers as the store's aiosqlite connections do. Like
    those, it takes one statement at a time from every task that asks (asyncpg refuses a
    second while one is under way), in the order they ask."""

    def __init__(self, raw: asyncpg.Connection) -> None:
        self.raw = raw
        self._turn = asyncio.Lock()

    def execute(self, sql: str, parameters: Sequence[Any] = (), /) -> Pending:
        return Pending(self, sql, parameters)

    async def run(self, sql: str, parameters: Sequence[Any]) -> Rows:
        async with self._turn:
            return await _on(self.raw, numbered(sql), parameters)

    async def executemany(self, sql: str, parameters: Iterable[Sequence[Any]], /) -> None:
        rows = list(parameters)
        async with self._turn:
            await self.raw.executemany(numbered(sql), rows)

    @property
    def in_transaction(self) -> bool:
        return self.raw.is_in_transaction()

    async def commit(self) -> None:
        async with self._turn:
            await self.raw.execute("COMMIT")

    async def rollback(self) -> None:
        async with self._turn:
            with _dropped_is_rolled_back():
                await self.raw.execute("ROLLBACK")

    async def close(self) -> None:
        async with self._turn:
            await self.raw.close()


class PooledConnection:
    """A club's connection drawn from a pool the clubs of one process share (a service for
    many clubs: PostgreSQL takes a hundred connections by default, three a club would not
    do). Each statement runs on a connection of the pool set to the club; a transaction holds
    one from its `BEGIN` to its end. One statement at a time, as `PgConnection`."""

    def __init__(self, pool: asyncpg.Pool, club: int) -> None:
        self.pool, self.club = pool, club
        self._held: PoolConnectionProxy | None = None
        self._turn = asyncio.Lock()

    def execute(self, sql: str, parameters: Sequence[Any] = (), /) -> Pending:
        return Pending(self, sql, parameters)

    async def _as_club(self, conn: Raw) -> None:
        await conn.execute("SELECT set_config('keizer.club', $1, false)", str(self.club))

    async def _acquire(self) -> PoolConnectionProxy:
        """A connection of the pool, set to the club. One the server dropped (it restarted,
        or a standby took the primary's place) shows at this first statement: it is let go,
        and another taken (made anew by the pool, on whichever server is the primary)."""
        left = self.pool.get_max_size() + 1  # every connection the pool had, and a new one
        while True:
            try:
                conn = await self.pool.acquire()
            except BROKEN as exc:  # no server to be had now: a passing outage
                raise StoreError(StoreProblem.UNREADABLE, path="PostgreSQL", reason=exc) from exc
            try:
                await self._as_club(conn)
                return conn
            except BROKEN as exc:
                await self._let_go(conn)
                left -= 1
                if not left:
                    raise StoreError(StoreProblem.UNREADABLE, path="PostgreSQL",
                                     reason=exc) from exc
            except BaseException:  # cut off (a club stopped): the pool's close waits for it
                await self._let_go(conn)
                raise

    async def _let_go(self, conn: PoolConnectionProxy) -> None:
        """Back to the pool; one the server dropped the pool makes anew."""
        with contextlib.suppress(*BROKEN):
            await self.pool.release(conn)

    async def run(self, sql: str, parameters: Sequence[Any]) -> Rows:
        query = numbered(sql)
        async with self._turn:
            if self._held is None and query.lstrip().upper().startswith("BEGIN"):
                held = await self._acquire()
                try:
                    await held.execute(query)
                except BaseException:
                    await self._let_go(held)
                    raise
                self._held = held
                return Rows([], 0)
            if self._held is not None:
                return await _on(self._held, query, parameters)
            conn = await self._acquire()
            try:
                return await _on(conn, query, parameters)
            except BROKEN as exc:  # dropped under the statement: a passing outage
                raise StoreError(StoreProblem.UNREADABLE, path="PostgreSQL",
                                 reason=exc) from exc
            finally:
                await self._let_go(conn)

    async def executemany(self, sql: str, parameters: Iterable[Sequence[Any]], /) -> None:
        rows = list(parameters)
        async with self._turn:
            if self._held is not None:
                await self._held.executemany(numbered(sql), rows)
            else:
                conn = await self._acquire()
                try:
                    await conn.executemany(numbered(sql), rows)
                finally:
                    await self._let_go(conn)

    @property
    def in_transaction(self) -> bool:
        return self._held is not None

    async def _end(self, how: str) -> None:
        async with self._turn:
            held, self._held = self._held, None
            if held is not None:
                try:
                    with _dropped_is_rolled_back() if how == "ROLLBACK" \
                            else contextlib.nullcontext():
                        await held.execute(how)
                finally:
                    await self._let_go(held)

    async def commit(self) -> None:
        await self._end("COMMIT")

    async def rollback(self) -> None:
        await self._end("ROLLBACK")

    async def close(self) -> None:
        """The pool is its owner's; a transaction left open is rolled back."""
        await self._end("ROLLBACK")


async def club_pool(dsn: str, size: int = 10) -> asyncpg.Pool:
    """The connections the clubs of one process share (`open_postgres(..., pool=)`)."""
    pool: asyncpg.Pool = await asyncpg.create_pool(dsn, min_size=1, max_size=size)
    async with pool.acquire() as conn:
        await create(conn)
    return pool


class PostgresEngine:
    """PostgreSQL's ways (`storage.db.Engine`): one writer per club, by an advisory lock."""

    VERSION_QUERY = "SELECT version FROM schema_version"

    def __init__(self, holder: asyncpg.Connection | None, club: int) -> None:
        self.holder, self.club = holder, club

    async def begin(self, writer: Link) -> None:
        # One writer per club, as one per SQLite file; the clubs do not wait on each other.
        await writer.execute("BEGIN")
        await writer.execute("SELECT pg_advisory_xact_lock(?, ?)", (WRITER_LOCK, self.club))

    def problem(self, exc: BaseException) -> StoreProblem | None:
        return problem_of(exc)

    async def closing(self, writer: Link) -> None:
        """The server keeps its own files whole."""

    async def release(self) -> None:
        if self.holder is not None:
            await self.holder.close()


BROKEN = (OSError, asyncpg.InterfaceError, asyncpg.PostgresConnectionError,
          asyncpg.CannotConnectNowError)
"""A connection the server dropped, or one that cannot be made now."""


def _dropped_is_rolled_back() -> contextlib.suppress:
    """Around a rollback: on a connection the server dropped, the server rolled the work
    back when it went, and the error that ended the work is the one to tell, not this."""
    return contextlib.suppress(*BROKEN)


def problem_of(exc: BaseException) -> StoreProblem | None:
    """What a PostgreSQL failure means for the club, if it is one we can name."""
    if isinstance(exc, asyncpg.DiskFullError):
        return StoreProblem.DISK_FULL
    if isinstance(exc, asyncpg.ReadOnlySQLTransactionError):
        return StoreProblem.READ_ONLY
    if isinstance(exc, asyncpg.InvalidAuthorizationSpecificationError) \
            and "peer authentication" in str(exc).lower():
        return StoreProblem.PEER_REFUSED
    if isinstance(exc, (*BROKEN, asyncpg.InvalidCatalogNameError,
                        asyncpg.InvalidAuthorizationSpecificationError)):
        return StoreProblem.UNREADABLE
    return None


FIRST_CLUB = 1
"""The club a single-club store on PostgreSQL is (made with the schema)."""


def _club(club: int) -> dict[str, str]:
    return {"keizer.club": str(club)}


async def reader_pool(dsn: str) -> asyncpg.Pool:
    """Connections that only read, for the clubs a standings worker serves
    (`PooledConnection` sets each statement to its club). Of the servers an address names
    they take a standby where there is one: read-only, they would fail an address that asks
    for the primary (`target_session_attrs=read-write`, as a failover pair is named)."""
    pool: asyncpg.Pool = await asyncpg.create_pool(
        dsn, min_size=1, max_size=2, target_session_attrs=SessionAttribute.prefer_standby,
        server_settings={"default_transaction_read_only": "on"})
    return pool


async def open_postgres(dsn: str, *, club: int = FIRST_CLUB, exclusive: bool = False,
                        pool: asyncpg.Pool | None = None, migrate: bool = True) -> Database:
    """The store of one club on the PostgreSQL database at `dsn` (the schema made if it is
    new): it sees and writes that club's rows only. With `pool`, on connections the clubs of
    the process share (`club_pool`); else on three of its own."""
    if pool is not None:
        links = [PooledConnection(pool, club) for _ in range(3)]
        async with links[0].execute("SELECT count(*) FROM club") as cur:
            row = await cur.fetchone()
        if not row or not row[0]:
            raise StoreError(StoreProblem.NO_CLUB, club=club)
        return Database(shown(dsn), links[0], links[1], links[2], PostgresEngine(None, club))
    opened: list[asyncpg.Connection] = []
    try:
        if exclusive:
            opened.append(await asyncpg.connect(dsn, server_settings=_club(club)))
            if not await opened[0].fetchval("SELECT pg_try_advisory_lock($1, $2)",
                                            INSTANCE_LOCK, club):
                raise StoreError(StoreProblem.IN_USE, path=shown(dsn))
        for _ in range(3):
            opened.append(await asyncpg.connect(dsn, server_settings=_club(club)))
        await create(opened[-1], migrate=migrate)
        if not await opened[-1].fetchval("SELECT count(*) FROM club"):
            raise StoreError(StoreProblem.NO_CLUB, club=club)
    except BaseException as exc:
        for conn in opened:
            await conn.close()
        problem = problem_of(exc)
        if problem is not None:
            raise StoreError(problem, path=shown(dsn), reason=exc) from exc
        raise
    holder = opened.pop(0) if exclusive else None
    writer, reader, bulk = (PgConnection(conn) for conn in opened)
    return Database(shown(dsn), writer, reader, bulk, PostgresEngine(holder, club))


class Claims:
    """The clubs one process runs (a host, `bot.host`): each club's instance lock, held on
    one connection of its own, so a club runs in one process only, as a single club's bot
    holds it with its exclusive store. On the same connection the host says it is alive
    (`beat`): the hosts alive share the clubs."""

    def __init__(self, dsn: str, conn: asyncpg.Connection, seal: Seal | None = None, *,
                 schema: int) -> None:
        self.dsn, self.conn, self.seal = dsn, conn, seal
        self.schema = schema
        """The schema this process knows: a database past it is left to newer hosts."""
        self._turn = asyncio.Lock()
        self.held: set[int] = set()
        """The clubs this process holds."""
        self.lost: set[int] = set()
        """Clubs it held, and another process holds since this one's connection broke."""
        self._arrived: Callable[[int], None] | None = None

    @classmethod
    async def connect(cls, dsn: str, seal: Seal | None = None) -> Claims:
        """On a database made or upgraded to this schema first (one process at a time);
        `seal` opens the clubs' tokens."""
        conn = await asyncpg.connect(dsn)
        try:
            schema = await create(conn)
        except BaseException:
            await conn.close()
            raise
        return cls(dsn, conn, seal, schema=schema)

    async def claim(self, club: int) -> bool:
        """False: another process runs the club."""
        async with self._turn:
            claimed: bool = await self.conn.fetchval("SELECT pg_try_advisory_lock($1, $2)",
                                                     INSTANCE_LOCK, club)
            if claimed:
                self.held.add(club)
            return claimed

    async def release(self, club: int) -> None:
        async with self._turn:
            self.held.discard(club)
            await self.conn.execute("SELECT pg_advisory_unlock($1, $2)", INSTANCE_LOCK, club)

    async def _reconnect(self) -> None:
        """The connection broke (the server restarted, or another took the primary's place):
        a new one, listening again, holding again what it held; what another process took
        meanwhile is `lost`. Raises what connecting raises while the server is away."""
        self.conn.terminate()
        self.conn = await asyncpg.connect(self.dsn)
        if self._arrived is not None:
            await self.listen(self._arrived)
        for club in sorted(self.held):
            if not await self.conn.fetchval("SELECT pg_try_advisory_lock($1, $2)",
                                            INSTANCE_LOCK, club):
                self.held.discard(club)
                self.lost.add(club)

    async def _again(self, work: Callable[[], Awaitable[T]]) -> T:
        """`work` on the connection, made again first if it broke (before or during it)."""
        async with self._turn:
            if not self.conn.is_closed():
                try:
                    return await work()
                except Exception:
                    # What a dropped connection raises depends on when the drop is seen
                    # (asyncpg's InternalClientError among others): a closed one is the news.
                    if not self.conn.is_closed():
                        raise
            await self._reconnect()
            return await work()

    async def beat(self, host: str, alive: float) -> list[str]:
        """Host `host` is alive now (the database's clock, the same for every host); the
        hosts seen in the last `alive` seconds, itself among them, in order. A database a
        newer keizerbot migrated past this one's schema is StoreProblem.NEWER_DATABASE."""
        return await self._again(lambda: self._beat(host, alive))

    async def clubs(self) -> list[Club]:
        """The table of clubs, as `keizerbot clubs` keeps it: a host looks at every beat,
        on this connection rather than a new one each time."""
        async def read() -> list[Club]:
            return [_club_of(row, self.seal) for row in await self.conn.fetch(_CLUB_ROWS)]
        return await self._again(read)

    async def _beat(self, host: str, alive: float) -> list[str]:
        version = await self.conn.fetchval("SELECT version FROM schema_version")
        if version > self.schema:
            raise StoreError(StoreProblem.NEWER_DATABASE, version=version, known=self.schema)
        await self.conn.execute("INSERT INTO hosts (id, seen_at, schema) VALUES ($1, now(), $2) "
                                "ON CONFLICT (id) DO UPDATE SET seen_at = now()", host,
                                self.schema)
        # A host no longer alive is no news to anyone (a killed one says no goodbye).
        await self.conn.execute("DELETE FROM hosts WHERE seen_at < now() - "
                                "make_interval(secs => $1)", max(alive, HOST_ALIVE_SECONDS))
        rows = await self.conn.fetch(
            "SELECT id FROM hosts WHERE seen_at > now() - make_interval(secs => $1) "
            "ORDER BY id", alive)
        return [row["id"] for row in rows]

    async def listen(self, arrived: Callable[[int], None]) -> None:
        """`arrived(club)` when another process kept an update in that club's inbox."""
        self._arrived = arrived
        await self.conn.add_listener(
            INBOX_CHANNEL, lambda conn, pid, channel, payload: arrived(int(payload)))

    async def leave(self, host: str) -> None:
        """Host `host` stops: the others need not wait for its beat to run out."""
        async with self._turn:
            await self.conn.execute("DELETE FROM hosts WHERE id = $1", host)

    async def close(self) -> None:
        await self.conn.close()


INBOX_CHANNEL = "keizer_inbox"
"""Where a process says it kept an update in a club's inbox (the club's number)."""


async def notify_inbox(pool: asyncpg.Pool, club: int) -> None:
    """Tell the process that runs `club` that an update waits in its inbox."""
    async with pool.acquire() as conn:
        await conn.execute("SELECT pg_notify($1, $2)", INBOX_CHANNEL, str(club))


@dataclass(frozen=True, slots=True)
class Club:
    id: int
    name: str
    token: str
    """The bot's token, opened; empty when none was set or no key was given to open it."""
    in_clear: bool = False
    """The token is stored unsealed (by an older release): `keizerbot rekey` seals it."""


_CLUB_ROWS = "SELECT id, name, token FROM clubs WHERE name <> '' ORDER BY id"


def _club_of(row: asyncpg.Record, seal: Seal | None) -> Club:
    stored = row["token"]
    if in_clear(stored):
        return Club(row["id"], row["name"], stored, in_clear=True)
    opened = seal.open(stored) if seal is not None and stored else None
    return Club(row["id"], row["name"], opened or "")


async def _connected(dsn: str) -> asyncpg.Connection:
    """A connection of its own; a database that cannot be reached is a StoreError that names
    it."""
    try:
        return await asyncpg.connect(dsn)
    except (OSError, asyncpg.PostgresError) as exc:
        problem = problem_of(exc)
        if problem is None:
            raise
        raise StoreError(problem, path=shown(dsn), reason=exc) from exc


@asynccontextmanager
async def _registry(dsn: str, *, changing: bool = True) -> AsyncIterator[asyncpg.Connection]:
    """A connection to the table of clubs (the command line's `clubs`, a host's look), in a
    transaction that, `changing` it, holds it against another change (two adds of one name,
    or of one token); the schema made or upgraded first. A database that cannot be reached is
    a StoreError that names it."""
    conn = await _connected(dsn)
    try:
        if changing:  # a look changes nothing, the schema neither (hosts of it may run)
            await create(conn)
        async with conn.transaction():
            if changing:
                await conn.execute("LOCK TABLE clubs IN SHARE ROW EXCLUSIVE MODE")
            yield conn
    finally:
        await conn.close()


async def _refuse_taken(conn: asyncpg.Connection, *, name: str | None = None,
                        token: str, other_than: int | None = None) -> None:
    """Refused if another club has `name` or `token`: a club's name says which it is, and
    one bot serves one club."""
    taken = await conn.fetchrow(
        "SELECT id, name, name = $1 AS same_name FROM clubs WHERE name <> '' "
        "AND (name = $1 OR token_print = $2) AND id IS DISTINCT FROM $3 "
        "ORDER BY name = $1 DESC, id LIMIT 1", name, fingerprint(token), other_than)
    if taken is not None:
        problem = StoreProblem.CLUB_NAME_TAKEN if taken["same_name"] \
            else StoreProblem.CLUB_TOKEN_TAKEN
        raise StoreError(problem, club=taken["id"], name=taken["name"])


async def add_club(dsn: str, name: str, token: str, seal: Seal) -> Club:
    """A new club in the database: its row in `clubs` with its token sealed, and its own
    settings and versions. Refused before a club number is used up when the name or the bot
    is another club's."""
    async with _registry(dsn) as conn:
        await _refuse_taken(conn, name=name, token=token)
        sealed, printed = seal.close(token), fingerprint(token)
        if await _slot_unused(conn):
            # The administrator's first club is club 1, not the slot's neighbour.
            await conn.execute("UPDATE clubs SET name = $1, token = $2, token_print = $3, "
                               "created_at = now()::text WHERE id = $4",
                               name, sealed, printed, FIRST_CLUB)
            await conn.execute("UPDATE club SET name = $1", name)
            return Club(FIRST_CLUB, name, token)
        found = await conn.fetchval(
            "INSERT INTO clubs (name, token, token_print, created_at) "
            "VALUES ($1, $2, $3, now()::text) RETURNING id", name, sealed, printed)
        await conn.execute(NAME_FIRST_CLUB)  # a club beside it now: it shows in the lists
        await _as_club(conn, found)
        await conn.execute("INSERT INTO club (id, name) VALUES (1, $1)", name)
        await conn.execute("INSERT INTO club_version (id, version) VALUES (1, 0)")
    return Club(int(found), name, token)


async def _as_club(conn: asyncpg.Connection, club: int) -> None:
    """The rest of the transaction reads and writes `club`'s rows."""
    await conn.execute("SELECT set_config('keizer.club', $1, true)", str(club))


async def _slot_unused(conn: asyncpg.Connection) -> bool:
    """Club 1, the one a store is when no club is named, is no club of `clubs` and has
    never held a season or an arbiter: the next club added may be it."""
    await _as_club(conn, FIRST_CLUB)
    return bool(await conn.fetchval(
        "SELECT name = '' AND NOT EXISTS (SELECT 1 FROM season) "
        "AND NOT EXISTS (SELECT 1 FROM arbiter) FROM clubs WHERE id = $1", FIRST_CLUB))


async def clubs(dsn: str, seal: Seal | None = None) -> list[Club]:
    """The clubs, their tokens opened with `seal` (none without); none on a database not
    made yet."""
    async with _registry(dsn, changing=False) as conn:
        if not await conn.fetchval("SELECT to_regclass('clubs') IS NOT NULL"):
            return []
        return [_club_of(row, seal) for row in await conn.fetch(_CLUB_ROWS)]


async def migrate(dsn: str, *, over_hosts: bool) -> tuple[int, int]:
    """The database brought to this keizerbot's schema: its version before and after.
    Refused while hosts of an older schema are alive, unless `over_hosts` (storage.migrate)."""
    conn = await _connected(dsn)
    try:
        before = await conn.fetchval("SELECT version FROM schema_version") \
            if await conn.fetchval("SELECT to_regclass('schema_version') IS NOT NULL") else 0
        return int(before or 0), await create(conn, over_hosts=over_hosts)
    finally:
        await conn.close()


async def set_token(dsn: str, club: int, token: str, seal: Seal) -> bool:
    """The club's bot has a new token (@BotFather's /revoke, or one mistyped); False if the
    club is not there, refused if another club has that bot. A host starts the club on it at
    its next look."""
    async with _registry(dsn) as conn:
        if not await conn.fetchval("SELECT count(*) FROM clubs WHERE id = $1 AND name <> ''",
                                   club):
            return False
        await _refuse_taken(conn, token=token, other_than=club)
        await conn.execute("UPDATE clubs SET token = $1, token_print = $2 WHERE id = $3",
                           seal.close(token), fingerprint(token), club)
    return True


async def reseal_tokens(dsn: str, rekey: Rekey) -> tuple[list[int], list[int]]:
    """Every club's bot token sealed with the new key: the clubs resealed, and those whose
    token no key given opens (each needs `keizerbot clubs token` again). The clubs' own
    stores hold their members' lichess tokens (`storage.lichess.reseal`)."""
    done, unopened = [], []
    async with _registry(dsn) as conn:
        for row in await conn.fetch("SELECT id, token FROM clubs WHERE name <> '' "
                                    "AND token <> '' ORDER BY id"):
            sealed = rekey(row["token"])
            if sealed is None:
                unopened.append(int(row["id"]))
                continue
            await conn.execute("UPDATE clubs SET token = $1 WHERE id = $2", sealed, row["id"])
            done.append(int(row["id"]))
    return done, unopened


async def remove_club(dsn: str, club: int) -> bool:
    """The club and every row of it gone (the rows follow their club); False if it was not
    there."""
    async with _registry(dsn) as conn:
        # Its rows go as that club's: what their triggers write falls to it, and goes too.
        await _as_club(conn, club)
        status = await conn.execute("DELETE FROM clubs WHERE id = $1 AND name <> ''", club)
        if club == FIRST_CLUB and status.endswith(" 1"):
            # Club 1 is also the store of no club named: it is there again, empty, as made.
            await conn.execute("INSERT INTO clubs (id, name, created_at) VALUES ($1, '', '')",
                               FIRST_CLUB)
            await conn.execute("INSERT INTO club (id) VALUES (1)")
            await conn.execute("INSERT INTO club_version (id, version) VALUES (1, 0)")
    return bool(status.endswith(" 1"))


async def create(conn: Raw, *, migrate: bool = True, over_hosts: bool = False) -> int:
    """The schema on an empty database, or the migrations an older one lacks (storage.migrate:
    one process at a time, `migrate` and `over_hosts` as there); an up-to-date database is
    left as it is. Returns the schema's version. Refused for a role that passes row level
    security: each club's rows are kept apart by it alone."""
    role = await conn.fetchrow(
        "SELECT rolname, rolsuper OR rolbypassrls FROM pg_roles WHERE rolname = current_user")
    if role is not None and role[1]:
        raise StoreError(StoreProblem.ROLE_SEES_ALL, role=role[0])
    return await upgrade(PostgresTarget(conn), migrate=migrate, over_hosts=over_hosts)

