"""PostgreSQL beside SQLite (issue 27): the schema made on a new database, and the store's SQL
(`?` for each value, as SQLite takes it) in PostgreSQL's numbered form. asyncpg is the driver:
its rows are read by index and by name, as aiosqlite's are."""

from __future__ import annotations

from typing import TYPE_CHECKING

from storage.postgres_schema import BASELINE, BASELINE_VERSION

if TYPE_CHECKING:
    import asyncpg


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


async def create(conn: asyncpg.Connection) -> int:
    """The schema on an empty database (one transaction); a database that has it already is
    left as it is. Returns the schema's version."""
    async with conn.transaction():
        exists = await conn.fetchval("SELECT to_regclass('schema_version') IS NOT NULL")
        if not exists:
            await conn.execute(BASELINE)
        version: int = await conn.fetchval("SELECT version FROM schema_version")
    return version


__all__ = ["BASELINE_VERSION", "create", "numbered"]
