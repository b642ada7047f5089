"""Opening a store: `open_store(address)` takes a store's address (`storage.address`: a SQLite
file or a PostgreSQL database) and opens that engine's store; `Readers` opens read-only
connections the same way.

PostgreSQL's module (and asyncpg) is loaded only for a PostgreSQL address."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from storage.address import PostgresUrl, StoreAddress, store_of
from storage.db import Database
from storage.sql import Link
from storage.sqlite import SqliteLink, open_sqlite, read_only


async def open_store(where: StoreAddress | Path | str, *, exclusive: bool = False,
                     club: int | None = None, pool: Any = None,
                     migrate: bool = True) -> Database:
    """The store at `where` (an address, or a path or URL as written, typed here), its schema
    brought up to date (not `migrate`: an older schema refused, StoreProblem.OLDER_DATABASE,
    for a command that only reads). A file is one club's; a PostgreSQL database is opened
    for one `club` of it (the first, if none is named), on connections of its own or of a
    `pool` the process's clubs share.
    `exclusive` takes the instance lock: a second bot on the same store is refused
    (StoreProblem.IN_USE)."""
    address = store_of(where)
    if isinstance(address, PostgresUrl):
        from storage.postgres import FIRST_CLUB, open_postgres

        return await open_postgres(address.url, exclusive=exclusive,
                                   club=club or FIRST_CLUB, pool=pool, migrate=migrate)
    return await open_sqlite(address.path, exclusive=exclusive, migrate=migrate)


class Readers:
    """Connections that can only read stores (for a process of the bot's own that reads
    beside it: the bots alone write, and migrate): one per SQLite file, and for a PostgreSQL
    database a small pool its clubs share, each club's reads set to that club."""

    def __init__(self) -> None:
        self._files: list[SqliteLink] = []
        self._pools: dict[str, Any] = {}

    async def open(self, address: StoreAddress, club: int | None = None) -> Link:
        if isinstance(address, PostgresUrl):
            from storage.postgres import FIRST_CLUB, PooledConnection, reader_pool

            if address.url not in self._pools:
                self._pools[address.url] = await reader_pool(address.url)
            return PooledConnection(self._pools[address.url], club or FIRST_CLUB)
        conn = await read_only(address.path)
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
    await conn.execute("BEGIN" if isinstance(conn, SqliteLink)
                       else "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
    try:
        yield conn
    finally:
        await conn.rollback()
