"""Issue 27, the schema on a real PostgreSQL server (tests/postgres.py starts it): the same
tables, columns and rules as SQLite's schema after every migration, the versions' triggers
moving alike, and the store's `?` SQL in PostgreSQL's numbered form."""

from __future__ import annotations

from pathlib import Path

import aiosqlite
import asyncpg
import pytest

from storage.db import Database
from storage.migrations import VERSION
from storage.postgres import create, numbered
from storage.postgres_schema import BASELINE_VERSION
from tests.postgres import postgres, postgres_server  # noqa: F401 (the fixtures)

TYPES = {"INTEGER": "bigint", "TEXT": "text"}
"""SQLite's declared types, as the PostgreSQL schema writes them."""


async def sqlite_schema(path: Path) -> dict[str, list[tuple[str, str, bool]]]:
    """Each table's columns in order: name, type, NOT NULL (a primary key counts as one)."""
    db = await Database.open(path)
    try:
        async with db.reader.execute("SELECT name FROM sqlite_master WHERE type = 'table'") \
                as cur:
            tables = [row[0] for row in await cur.fetchall()]
        found = {}
        for table in tables:
            async with db.reader.execute(f"PRAGMA table_info({table})") as cur:
                found[table] = [(row["name"], TYPES[row["type"]], bool(row["notnull"] or
                                                                         row["pk"]))
                                for row in await cur.fetchall()]
        return found
    finally:
        await db.close()


async def postgres_schema(conn: asyncpg.Connection) -> dict[str, list[tuple[str, str, bool]]]:
    found: dict[str, list[tuple[str, str, bool]]] = {}
    for row in await conn.fetch(
            "SELECT table_name, column_name, data_type, is_nullable FROM "
            "information_schema.columns WHERE table_schema = 'public' "
            "ORDER BY table_name, ordinal_position"):
        found.setdefault(row["table_name"], []).append(
            (row["column_name"], row["data_type"], row["is_nullable"] == "NO"))
    return found


def test_the_store_sql_in_numbered_form():
    assert numbered("SELECT a FROM t WHERE b = ? AND c = '?' AND d IN (?, ?)") == \
        "SELECT a FROM t WHERE b = $1 AND c = '?' AND d IN ($2, $3)"
    assert numbered('UPDATE "x?" SET a = ?') == 'UPDATE "x?" SET a = $1'


async def test_the_schema_on_postgresql_is_sqlites(tmp_path, postgres):  # noqa: F811
    # A new SQLite migration needs its PostgreSQL side too: this fails until it has one.
    assert BASELINE_VERSION == VERSION
    conn = await asyncpg.connect(postgres)
    try:
        assert await create(conn) == VERSION
        assert await create(conn) == VERSION  # made once; a second start leaves it
        on_postgres = await postgres_schema(conn)
    finally:
        await conn.close()
    on_sqlite = await sqlite_schema(tmp_path / "keizer.db")
    assert on_postgres.pop("schema_version") == [("version", "bigint", True)]
    assert on_postgres == on_sqlite


# The same writes on both: after each, the data and standings versions must agree.
WRITES = [
    "INSERT INTO season (club, name, rules, created_at) VALUES ('C', 'S', '\"x\"', 'nu')",
    "INSERT INTO player (season_id, code, name, position) VALUES (1, 'a', 'A', 1)",
    "INSERT INTO player (season_id, code, name, position) VALUES (1, 'b', 'B', 2)",
    "INSERT INTO round (season_id, number, state) VALUES (1, 1, 'planned')",
    "INSERT INTO signoff (round_id, player_id, reason) VALUES (1, 1, 'notice')",
    "UPDATE signoff SET note = 'ziek'",
    "DELETE FROM signoff",
    "UPDATE round SET state = 'published'",
    "INSERT INTO game (round_id, board, white_id, black_id) VALUES (1, 1, 1, 2)",
    "UPDATE game SET result = '1-0'",
    "INSERT INTO inbox (update_id, payload, received_at) VALUES (1, '{}', 'nu')",
    "INSERT INTO outbox (chat_id, text, created_at, due_at) VALUES (1, 'x', 'nu', 'nu')",
    "UPDATE club SET city = 'Sliedrecht'",
    "INSERT INTO arbiter (telegram_id, added_at) VALUES (7, 'nu')",
    "INSERT INTO language (telegram_id, language) VALUES (7, 'en')",
    "UPDATE player SET rating = 1800",
    "DELETE FROM game",
]
REFUSED = [
    "UPDATE round SET state = 'weird'",
    "INSERT INTO signoff (round_id, player_id, reason) VALUES (1, 1, 'ziek')",
    "UPDATE club SET language = 'fr'",
    "INSERT INTO game (round_id, board, white_id, black_id) VALUES (1, 2, 1, 1)",
    "INSERT INTO player (season_id, code, name, position) VALUES (1, 'a', 'A again', 3)",
    "INSERT INTO club (id) VALUES (2)",
]


async def test_the_versions_move_alike_and_the_same_rows_are_refused(tmp_path,
                                                                        postgres):  # noqa: F811
    await (await Database.open(tmp_path / "keizer.db")).close()
    lite = await aiosqlite.connect(tmp_path / "keizer.db", isolation_level=None)
    pg = await asyncpg.connect(postgres)
    try:
        await create(pg)
        on_sqlite, on_postgres = [], []
        for sql in WRITES:
            await lite.execute(sql)
            await pg.execute(sql)
            async with lite.execute("SELECT version, standings FROM club_version") as cur:
                on_sqlite.append(tuple(await cur.fetchone()))
            on_postgres.append(tuple(await pg.fetchrow(
                "SELECT version, standings FROM club_version")))
        assert on_postgres == on_sqlite
        assert on_sqlite[-1] != on_sqlite[0]  # the writes did move them
        await lite.execute("PRAGMA foreign_keys = ON")
        for sql in REFUSED:
            with pytest.raises(aiosqlite.IntegrityError):
                await lite.execute(sql)
            with pytest.raises(asyncpg.IntegrityConstraintViolationError):
                await pg.execute(sql)
    finally:
        await lite.close()
        await pg.close()
