"""A real database per test, with a season loaded: a SQLite file, and (issue 27) the same
tests again on a real PostgreSQL server, where a test is not about SQLite's own file."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from core.season import read_season
from storage.db import Database
from storage.seasons import import_season
from storage.store import open_store
from tests.stores import new_store

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = sorted((ROOT / "examples").glob("*.json"))
NOON = dt.datetime(2026, 11, 1, 12, 0, tzinfo=dt.UTC)


SQLITE_ONLY = "SQLite's own (its file, its pragmas, its backups)"


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.slow),
                        pytest.param("postgresql-pool", marks=pytest.mark.slow)])
async def db(request: pytest.FixtureRequest, tmp_path: Path):
    """On SQLite; on PostgreSQL with connections of the store's own; and on PostgreSQL
    through a pool the clubs of a process share. The same tests on the real server run with
    the slow ones (`-m slow`, which CI runs): what PostgreSQL alone can prove is in
    tests/integration/test_postgres.py and tests/bot/test_postgres_bot.py, run every time."""
    pool = None
    if request.param.startswith("postgresql"):
        if request.node.get_closest_marker("sqlite_only"):
            pytest.skip(SQLITE_ONLY)
        address = request.getfixturevalue("postgres")
        if request.param.endswith("pool"):
            from storage.postgres import club_pool

            pool = await club_pool(address, size=4)
        database = await open_store(address, pool=pool)
    else:
        database = await new_store(tmp_path / "keizer.db")
    yield database
    await database.close()
    if pool is not None:
        await pool.close()


@pytest.fixture
async def club(db: Database) -> Database:
    """The sliedrecht example: 20 rounds played, round 21 waiting to be paired."""
    season = read_season((ROOT / "examples" / "sliedrecht.json").read_text("utf-8"))
    await import_season(db, season)
    return db


TABLES = ("club", "arbiter", "season", "player", "round", "game", "signoff", "signon",
          "broken_rule", "posted_message", "audit", "inbox", "outbox", "rating_proposal",
          "club_version", "language")


async def dump(db: Database) -> list[str]:
    """Everything in the database, row by row as text (to prove a refusal changed nothing)."""
    lines = []
    for table in TABLES:
        async with db.reader.execute(f"SELECT * FROM {table} ORDER BY 1") as cur:
            lines += [f"{table}: {[row[k] for k in range(len(row))]}"
                      for row in await cur.fetchall()]
    return lines
