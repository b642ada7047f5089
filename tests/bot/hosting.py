"""Clubs on a host as a test makes them: each club's bot, arbiter, members and group, three
clubs running on one PostgreSQL database, and a fake Telegram for each bot (`telegram`)."""

from __future__ import annotations

import datetime as dt
import string

import pytest

from bot.config import AMSTERDAM
from bot.demo.fakeapi import FakeTelegram, FakeTelegrams, User
from bot.services import deadline_for
from core.season import season_from_data
from storage import club, roster
from storage.postgres import add_club
from storage.rounds import insert_round
from storage.seal import Seal
from storage.seasons import import_season
from storage.store import open_store
from tests.bot.linking import KEY
from tests.seasons import season_data

CLUBS = {
    "Sliedrecht": ["Anna Visser", "Bram de Wit", "Cor Smit", "Dirk Mol"],
    "De Pion": ["Kees Jansen", "Lies Bakker", "Mark Prins", "Nel Vos"],
    "Het Paard": ["Piet Blom", "Ria Kok", "Sjaak Hof", "Tineke Dam"],
}


SEAL = Seal(KEY)


BOTH = User(7, "Anna", "Visser")
"""A member of the first two clubs, with one Telegram account."""


def club_token(k: int) -> str:
    return f"{700000 + k}:" + string.ascii_uppercase[k] * 35


def club_arbiter(k: int) -> User:
    return User(900 + k, "Arbiter", str(k))


def club_names(k: int) -> list[str]:
    """The members of club `k`: the three clubs above, then as many more as a test makes."""
    if k < len(CLUBS):
        return list(CLUBS.values())[k]
    return [f"{first} {k}" for first in ("Ada Lof", "Bas Kuip", "Cas Hoek", "Dora Ree")]


def club_members(k: int) -> list[User]:
    return [BOTH if k < 2 and n == 0 else User(100 * (k + 1) + n, *name.split(" ", 1))
            for n, name in enumerate(club_names(k))]


def club_group(k: int) -> int:
    return -1000 - k


async def hosted_club(dsn: str, k: int, name: str, night: dt.date) -> int:
    made = await add_club(dsn, name, club_token(k), SEAL)
    players = [{"id": f"p{n}", "name": player, "rating": 2000 - 50 * n}
               for n, player in enumerate(club_names(k))]
    db = await open_store(dsn, club=made.id)
    try:
        await import_season(db, season_from_data(season_data(
            {"preset": "sliedrecht", "planned_rounds": 3, "period_length": 3}, players,
            ["p0-p1 1-0, p2-p3 0-1"], club=name)))
        for n, user in enumerate(club_members(k)):
            await roster.link(db, f"p{n}", user.id, actor=None)
        await club.set_arbiter(db, club_arbiter(k).id, actor=None)
        await club.change_settings(db, actor=None, group_chat_id=club_group(k))
        await insert_round(db, night, deadline_for(night, await club.settings(db), AMSTERDAM),
                           actor=None)
    finally:
        await db.close()
    return made.id


@pytest.fixture
async def telegram():
    fakes = FakeTelegrams()
    await fakes.start()
    yield fakes
    await fakes.stop()


async def three_clubs(dsn: str, fakes: FakeTelegrams,
                       night: dt.date = dt.date(2026, 12, 3)) -> dict[int, FakeTelegram]:
    """Club number to its bot at the fake; round 2 of each on `night`."""
    return {await hosted_club(dsn, k, name, night):
            fakes.add(club_token(k), f"{name.replace(' ', '')}Bot") for k, name in enumerate(CLUBS)}


