"""Opening a store: `open_store(address)` takes a SQLite file's path or a PostgreSQL address
and opens that engine's store; `Readers` opens read-only connections the same way.

PostgreSQL's module (and asyncpg) is loaded only for a PostgreSQL address."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import aiosqlite

from storage.db import Database
from storage.sql import POSTGRES_SCHEMES, Link
from storage.sqlite import open_sqlite, read_only


def is_postgres(address: Path | str) -> bool:
    return isinstance(address, str) and address.startswith(POSTGRES_SCHEMES)


async def open_store(address: Path | str, *, exclusive: bool = False,
                     club: int | None = None, pool: Any = None,
                     migrate: bool = True) -> Database:
    """The store at `address`, its schema brought up to date (not `migrate`: an older schema
    refused, StoreProblem.OLDER_DATABASE, for a command that only reads). A path is a SQLite
    file (one club); `postgresql://...` is that PostgreSQL database, for one `club` of it (the
    first, if none is named), on connections of its own or of a `pool` the process's clubs
    share.
    `exclusive` takes the instance lock: a second bot on the same store is refused
    (StoreProblem.IN_USE)."""
    if is_postgres(address):
        from storage.postgres import FIRST_CLUB, open_postgres

        return await open_postgres(str(address), exclusive=exclusive,
                                   club=club or FIRST_CLUB, pool=pool, migrate=migrate)
    return await open_sqlite(Path(address), exclusive=exclusive, migrate=migrate)


class Readers:
    """Connections that can only read stores (for a process of the bot's own that reads
    beside it: the bots alone write, and migrate): one per SQLite file, and for a PostgreSQL
    database a small pool its clubs share, each club's reads set to that club."""

    def __init__(self) -> None:
        self._files: list[aiosqlite.Connection] = []
        self._pools: dict[str, Any] = {}

    async def open(self, address: Path | str, club: int | None = None) -> Link:
        if is_postgres(address):
            from storage.postgres import FIRST_CLUB, PooledConnection, reader_pool

            address = str(address)
            if address not in self._pools:
                self._pools[address] = await reader_pool(address)
            return PooledConnection(self._pools[address], club or FIRST_CLUB)
        conn = await read_only(Path(address))
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
