"""PostgreSQL beside SQLite (issue 27): the store on a PostgreSQL database. The schema is made
on a new database; the store's SQL (`?` for each value, as SQLite takes it) goes in PostgreSQL's
numbered form through `PgConnection`, which answers as aiosqlite's connections do. asyncpg is
the driver: its rows are read by index and by name, as aiosqlite's are.

A write transaction holds an advisory lock for its length, so writers queue as they do on
SQLite's one file, also from two processes; an exclusive store holds another for its life,
one bot per database."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Generator, Iterable, Sequence
from types import TracebackType
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import asyncpg

from storage.db import Database
from storage.errors import StoreError, StoreProblem
from storage.postgres_schema import BASELINE
from storage.sql import Link

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


class _Cursor:
    def __init__(self, rows: list[asyncpg.Record], rowcount: int) -> None:
        self._rows, self._at, self._count = rows, 0, rowcount

    @property
    def rowcount(self) -> int:
        return self._count

    async def fetchone(self) -> asyncpg.Record | None:
        if self._at >= len(self._rows):
            return None
        self._at += 1
        return self._rows[self._at - 1]

    async def fetchall(self) -> list[asyncpg.Record]:
        rest, self._at = self._rows[self._at:], len(self._rows)
        return rest

    async def close(self) -> None:
        """The rows are read already: nothing holds the connection."""


class _Statement:
    def __init__(self, conn: PgConnection, sql: str, parameters: Sequence[Any]) -> None:
        self.conn, self.sql, self.parameters = conn, sql, parameters

    def __await__(self) -> Generator[Any, None, _Cursor]:
        return self.conn.run(self.sql, self.parameters).__await__()

    async def __aenter__(self) -> _Cursor:
        return await self.conn.run(self.sql, self.parameters)

    async def __aexit__(self, kind: type[BaseException] | None, error: BaseException | None,
                        trace: TracebackType | None) -> None:
        return None


class PgConnection:
    """An asyncpg connection that answers as the store's aiosqlite connections do. Like
    those, it takes one statement at a time from every task that asks (asyncpg refuses a
    second while one is under way), in the order they ask."""

    def __init__(self, raw: asyncpg.Connection) -> None:
        self.raw = raw
        self._changes = 0
        self._turn = asyncio.Lock()

    def execute(self, sql: str, parameters: Sequence[Any] = (), /) -> _Statement:
        return _Statement(self, sql, parameters)

    async def run(self, sql: str, parameters: Sequence[Any]) -> _Cursor:
        async with self._turn:
            return await self._run(numbered(sql), parameters)

    async def _run(self, query: str, parameters: Sequence[Any]) -> _Cursor:
        if query.lstrip()[:6].upper() in ("INSERT", "UPDATE", "DELETE") and \
                "RETURNING" not in query.upper():
            status = await self.raw.execute(query, *parameters)
            found = _CHANGED.match(status)
            count = int(found[2]) if found else 0
            self._changes += count
            return _Cursor([], count)
        rows = await self.raw.fetch(query, *parameters)
        if query.lstrip()[:6].upper() in ("INSERT", "UPDATE", "DELETE"):
            self._changes += len(rows)
        return _Cursor(rows, len(rows))

    async def executemany(self, sql: str, parameters: Iterable[Sequence[Any]], /) -> None:
        rows = list(parameters)
        async with self._turn:
            await self.raw.executemany(numbered(sql), rows)
        self._changes += len(rows)  # at most: what the database skipped counts too

    @property
    def total_changes(self) -> int:
        return self._changes

    @property
    def in_transaction(self) -> bool:
        return self.raw.is_in_transaction()

    async def commit(self) -> None:
        async with self._turn:
            await self.raw.execute("COMMIT")

    async def rollback(self) -> None:
        async with self._turn:
            await self.raw.execute("ROLLBACK")

    async def close(self) -> None:
        async with self._turn:
            await self.raw.close()


class _Postgres:
    """PostgreSQL's ways (`storage.db.Dialect`)."""

    def __init__(self, holder: asyncpg.Connection | None) -> None:
        self.holder = holder
        """The connection that holds the instance lock, for an exclusive store."""

    async def begin(self, writer: Link) -> None:
        await writer.execute("BEGIN")
        await writer.execute("SELECT pg_advisory_xact_lock(?)", (WRITER_LOCK,))

    def problem(self, exc: BaseException) -> StoreProblem | None:
        if isinstance(exc, asyncpg.DiskFullError):
            return StoreProblem.DISK_FULL
        if isinstance(exc, asyncpg.ReadOnlySQLTransactionError):
            return StoreProblem.READ_ONLY
        if isinstance(exc, (OSError, asyncpg.InvalidCatalogNameError,
                            asyncpg.InvalidAuthorizationSpecificationError)):
            return StoreProblem.UNREADABLE
        return None

    async def release(self) -> None:
        if self.holder is not None:
            await self.holder.close()


def shown(dsn: str) -> str:
    """The address without its password: what a refusal may name."""
    parts = urlsplit(dsn)
    host = parts.netloc.rsplit("@", 1)[-1]
    user = parts.netloc.rsplit("@", 1)[0].split(":", 1)[0] if "@" in parts.netloc else ""
    return urlunsplit(parts._replace(netloc=f"{user}@{host}" if user else host))


async def reader(dsn: str) -> PgConnection:
    """A connection that only reads (the standings worker's)."""
    conn = await asyncpg.connect(dsn, server_settings={"default_transaction_read_only": "on"})
    return PgConnection(conn)


async def open_postgres(dsn: str, *, exclusive: bool = False) -> Database:
    """The store on the PostgreSQL database at `dsn`, its schema made if it is new."""
    opened: list[asyncpg.Connection] = []
    try:
        if exclusive:
            opened.append(await asyncpg.connect(dsn))
            if not await opened[0].fetchval("SELECT pg_try_advisory_lock($1)", INSTANCE_LOCK):
                raise StoreError(StoreProblem.IN_USE, path=shown(dsn))
        for _ in range(3):
            opened.append(await asyncpg.connect(dsn))
        await create(opened[-1])
    except BaseException as exc:
        for conn in opened:
            await conn.close()
        problem = _Postgres(None).problem(exc)
        if problem is not None:
            raise StoreError(problem, path=shown(dsn), reason=exc) from exc
        raise
    holder = opened.pop(0) if exclusive else None
    writer, reader, bulk = (PgConnection(conn) for conn in opened)
    return Database(shown(dsn), writer, reader, bulk, _Postgres(holder))


async def create(conn: asyncpg.Connection) -> int:
    """The schema on an empty database (one transaction); a database that has it already is
    left as it is. Returns the schema's version."""
    async with conn.transaction():
        exists = await conn.fetchval("SELECT to_regclass('schema_version') IS NOT NULL")
        if not exists:
            await conn.execute(BASELINE)
        version: int = await conn.fetchval("SELECT version FROM schema_version")
    return version

