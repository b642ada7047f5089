"""What every part of the bot shares: the state (typed), and the questions about the schedule
and the standings that handlers, flows and jobs ask."""

from __future__ import annotations

import datetime as dt
import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeAlias

from telegram.ext import Application, CallbackContext, ExtBot

from bot.config import Config
from bot.language.i18n import SOURCE, Words, words
from bot.languages import Languages
from bot.lichess.api import LichessAccess
from bot.throttle import Throttle
from core.rounds import OPEN, PUBLIC, RoundState
from storage import club, programme
from storage.db import Database
from storage.programme import ScheduledRound as ScheduledRound  # the handlers name it from here
from storage.states import WebAccess as WebAccess  # the handlers name it from here

if TYPE_CHECKING:
    from bot.worker import Worker

log = logging.getLogger(__name__)


def utc_now() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


@dataclass
class Services:
    """Everything a handler needs: the club's settings and its ports (the store, the
    standings worker, the languages, lichess, the clock), made once by the club's runtime
    (`bot.runtime`), which opened its store and its worker handle; PTB keeps it as
    `bot_data`."""

    settings: Config
    db: Database
    standings_worker: Worker
    """The process that makes the standings shown in the chat (`bot.worker`)."""
    clock: Callable[[], dt.datetime] = utc_now
    throttle: Throttle = field(default_factory=Throttle)
    """Faults told to the arbiters once an hour, not once per tick."""
    bot_name: str = ""
    """The bot's username, known once it started (for t.me links)."""
    languages: Languages = field(init=False)
    """Who reads in which language (`bot.languages`)."""
    lichess: LichessAccess = field(init=False)
    """The club's way to lichess: its server, and its turn there (`bot.lichess.api`)."""

    def __post_init__(self) -> None:
        self.languages = Languages(self.db)
        self.lichess = LichessAccess(self.settings.lichess_url)

    async def arbiters(self) -> set[int]:
        return set(self.settings.arbiters) | await club.arbiters(self.db)

    async def is_arbiter(self, user_id: int) -> bool:
        return user_id in await self.arbiters()


class Context(CallbackContext[ExtBot[None], dict[Any, Any], dict[Any, Any], Services]):
    """The handlers' context, typed: `context.services` instead of casts from `bot_data`.
    PTB makes one per update, shared by its handlers: `language` is the one the update is
    answered in, set before any handler runs (`bot.telegram.rooms.language`); `english`
    whether the command was typed under its English name (its suggestions are spelled so)."""

    language: str = SOURCE
    english: bool = False

    @property
    def services(self) -> Services:
        return self.bot_data

    @property
    def words(self) -> Words:
        """The words of the update's language."""
        return words(self.language)


App: TypeAlias = Application[Any, Context, Any, Any, Services, Any]
"""The bot's PTB application, with our context and shared state (the bot's and the job
queue's own type parameters follow from the builder, and nothing here depends on them)."""


def round_start(date: dt.date, settings: club.ClubSettings, zone: dt.tzinfo) -> dt.datetime:
    """When a round on `date` starts, in UTC. A start time that does not exist that night
    (the clock jumps from 02:00 to 03:00) counts from the time before the jump."""
    return dt.datetime.combine(date, settings.round_start, tzinfo=zone).astimezone(dt.UTC)


def deadline_for(date: dt.date, settings: club.ClubSettings, zone: dt.tzinfo) -> dt.datetime:
    """The sign-off deadline of a round on `date`, in UTC: real minutes before the start, also
    across a change of the clocks (local wall-clock arithmetic would be an hour off)."""
    return round_start(date, settings, zone) - dt.timedelta(minutes=settings.deadline_minutes)


async def schedule(services: Services) -> list[ScheduledRound]:
    """The season's rounds in order, with dates, deadlines and states."""
    return await programme.schedule(services.db)


async def open_round(services: Services) -> ScheduledRound | None:
    """The round members can still sign off for: the first one not yet published."""
    return first_open(await schedule(services))


def first_open(planned: list[ScheduledRound]) -> ScheduledRound | None:
    """`open_round` of a schedule already read."""
    return next((r for r in planned if r.state in OPEN), None)


async def published_round(services: Services) -> int | None:
    """The newest round whose pairing is public."""
    done = [r.number for r in await programme.schedule(services.db) if r.state in PUBLIC]
    return max(done) if done else None


async def current_rounds(services: Services) -> list[int]:
    """The published rounds a member is still busy with (not every result is final), the
    earliest first; with none, the newest public round; empty before any is published."""
    public = [r for r in await programme.schedule(services.db) if r.state in PUBLIC]
    going = [r.number for r in public if r.state is RoundState.PUBLISHED]
    return going or [public[-1].number] if public else []


async def due_rounds(services: Services) -> list[int]:
    """Rounds whose deadline has passed and that were not paired yet (also those an older
    version or a failed pairing left locked but without a draft; not those paired at the
    venue, whose arbiter pairs them when the members are in)."""
    now = services.clock()
    return [r.number for r in await programme.schedule(services.db)
            if (r.state is RoundState.PLANNED and r.deadline is not None
                and r.deadline <= now) or (r.state is RoundState.LOCKED and not r.on_site)]
