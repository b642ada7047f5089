"""What the bot does, below the handlers: the shared state (typed), and the flows that take
several steps (the deadline run, publishing a round)."""

from __future__ import annotations

import datetime as dt
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from telegram.ext import CallbackContext, ExtBot

from bot.config import Config
from core.pairing import Pairing, before_pairing, pair, request_for_round
from core.season import Season
from core.standings import Standings, compute_standings
from storage import club, rounds
from storage.db import Database
from storage.seasons import load_season

log = logging.getLogger(__name__)


def utc_now() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


@dataclass
class Services:
    """Everything a handler needs; PTB keeps one as `bot_data`."""

    config: Config | None = None
    clock: Callable[[], dt.datetime] = utc_now
    database: Database | None = None

    @property
    def db(self) -> Database:
        if self.database is None:
            raise RuntimeError("the database is opened in post_init")
        return self.database

    @property
    def settings(self) -> Config:
        if self.config is None:
            raise RuntimeError("the configuration is set before the bot starts")
        return self.config

    async def arbiters(self) -> set[int]:
        return set(self.settings.arbiters) | await club.arbiters(self.db)

    async def is_arbiter(self, user_id: int) -> bool:
        return user_id in await self.arbiters()


class Context(CallbackContext[ExtBot[None], dict[Any, Any], dict[Any, Any], Services]):
    """The handlers' context, typed: `context.services` instead of casts from `bot_data`."""

    @property
    def services(self) -> Services:
        return self.bot_data


def deadline_for(date: dt.date, settings: club.ClubSettings, zone: dt.tzinfo) -> dt.datetime:
    """The sign-off deadline of a round on `date`, in UTC."""
    start = dt.datetime.combine(date, settings.round_start, tzinfo=zone)
    return (start - dt.timedelta(minutes=settings.deadline_minutes)).astimezone(dt.UTC)


async def open_round(services: Services) -> club.ScheduledRound | None:
    """The round members can still sign off for: the first one not yet published."""
    return next((r for r in await club.schedule(services.db)
                 if r.state in ("planned", "locked", "drafted")), None)


async def published_round(services: Services) -> int | None:
    """The newest round whose pairing is public."""
    done = [r.number for r in await club.schedule(services.db)
            if r.state in ("published", "complete")]
    return max(done) if done else None


async def standings_now(services: Services) -> tuple[Season, Standings]:
    season = await load_season(services.db)
    return season, compute_standings(season)


async def draft(services: Services, number: int, *, actor: int | None) -> Pairing:
    """Lock attendance (if still open) and pair the round with the arbiter's fixes."""
    await rounds.set_state(services.db, number, rounds.RoundState.LOCKED, actor=actor,
                           expect=(rounds.RoundState.PLANNED,))
    season = before_pairing(await load_season(services.db), number)
    pairing = pair(request_for_round(season, number, await rounds.fixes(services.db, number)))
    await rounds.save_pairing(services.db, pairing, actor=actor)
    return pairing


async def due_rounds(services: Services) -> list[int]:
    """Rounds whose deadline has passed and that were not paired yet (also those a crash or
    a shutdown left locked but without a draft)."""
    now = services.clock()
    return [r.number for r in await club.schedule(services.db)
            if (r.state == "planned" and r.deadline is not None and r.deadline <= now)
            or r.state == "locked"]


async def take_deadline(services: Services, number: int) -> bool:
    """Claim a round's deadline: True exactly once, however often the job fires."""
    claimed = await rounds.set_state(services.db, number, rounds.RoundState.LOCKED,
                                     actor=None, expect=(rounds.RoundState.PLANNED,))
    if claimed:
        return True
    schedule = {r.number: r.state for r in await club.schedule(services.db)}
    return schedule.get(number) == "locked"  # locked before a crash, never drafted

