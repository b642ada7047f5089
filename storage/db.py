"""The SQLite file: connections, pragmas, migrations and write transactions.

One writer connection; every write transaction holds an asyncio lock from `BEGIN IMMEDIATE`
to `COMMIT`, so writers queue in the process instead of meeting "database is locked". Reads go
through a second connection (WAL lets them run beside a write).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import aiosqlite

from storage.errors import StoreError, StoreProblem
from storage.migrations import MIGRATIONS

log = logging.getLogger(__name__)

BUSY_TIMEOUT_MS = 10_000


async def _connect(path: Path) -> aiosqlite.Connection:
    conn = await aiosqlite.connect(path, isolation_level=None)
    conn.row_factory = aiosqlite.Row
    for pragma in ("journal_mode = WAL", f"busy_timeout = {BUSY_TIMEOUT_MS}",
                   "foreign_keys = ON", "synchronous = NORMAL"):
        await conn.execute(f"PRAGMA {pragma}")
    return conn


async def migrate(conn: aiosqlite.Connection, migrations: tuple[str, ...] = MIGRATIONS) -> int:
    """Bring the schema to the newest version; returns it. A database from a newer keizerbot
    is refused rather than touched."""
    async with conn.execute("PRAGMA user_version") as cursor:
        row = await cursor.fetchone()
    version = int(row[0]) if row else 0
    if version > len(migrations):
        raise StoreError(StoreProblem.NEWER_DATABASE, version=version, known=len(migrations))
    for number in range(version + 1, len(migrations) + 1):
        script = f"BEGIN IMMEDIATE;\n{migrations[number - 1]}\nPRAGMA user_version = {number};\n" \
                 "COMMIT;"
        try:
            await conn.executescript(script)
        except Exception:
            if conn.in_transaction:
                await conn.rollback()
            raise
        log.info("database migrated to version %d", number)
    return len(migrations)


class Database:
    """An open database file; use `await Database.open(path)` and `await db.close()`."""

    def __init__(self, path: Path, writer: aiosqlite.Connection,
                 reader: aiosqlite.Connection) -> None:
        self.path = path
        self.writer = writer
        self.reader = reader
        self._lock = asyncio.Lock()

    @classmethod
    async def open(cls, path: Path | str) -> Database:
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        writer = await _connect(path)
        try:
            await migrate(writer)
            reader = await _connect(path)
        except BaseException:
            await writer.close()
            raise
        return cls(path, writer, reader)

    async def close(self) -> None:
        await self.reader.close()
        await self.writer.close()

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[aiosqlite.Connection]:
        """A write transaction: all of it commits, or none of it."""
        async with self._lock:
            await self.writer.execute("BEGIN IMMEDIATE")
            try:
                yield self.writer
            except BaseException:
                await self.writer.rollback()
                raise
            await self.writer.commit()
