"""A real SQLite file per test, with a season loaded."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from core.season import Season
from storage.db import Database
from storage.seasons import import_season

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = sorted((ROOT / "examples").glob("*.json"))
NOON = dt.datetime(2026, 11, 1, 12, 0, tzinfo=dt.UTC)


@pytest.fixture
async def db(tmp_path: Path):
    database = await Database.open(tmp_path / "keizer.db")
    yield database
    await database.close()


@pytest.fixture
async def club(db: Database) -> Database:
    """The sliedrecht example: 20 rounds played, round 21 waiting to be paired."""
    season = Season.from_json((ROOT / "examples" / "sliedrecht.json").read_text("utf-8"))
    await import_season(db, season)
    return db


async def dump(db: Database) -> list[str]:
    """Everything in the database, as SQL text (to prove a refusal changed nothing)."""
    return [line async for line in db.reader.iterdump()]
