"""The arbiter's housekeeping: members in and out, the schedule, the club group, arbiters,
settings and the rules. Each change is one transaction, recorded in the audit log."""

from __future__ import annotations

import asyncio
import datetime as dt
from dataclasses import dataclass

from bot.language.notice import Dated, Text
from bot.notices import owe_to_arbiters, tell_group
from bot.services import Services, deadline_for, open_round, round_start, schedule
from core.next_season import next_season as following
from core.rounds import RoundState
from core.season import Season, season_from_data, season_to_data
from core.standings import compute_standings
from storage import club, outbox, programme, roster, seasons
from storage.club import ClubSettings
from storage.errors import InputStoreError, StoreProblem
from storage.programme import ScheduledRound
from storage.roster import Member
from storage.rounds import insert_round
from storage.seasons import load_season


async def _next_round(services: Services) -> int:
    """The first round a change of the roster can still affect: the first whose attendance
    is not locked (a drafted round keeps its players)."""
    planned = [r.number for r in await schedule(services) if r.state is RoundState.PLANNED]
    return planned[0] if planned else len((await load_season(services.db)).rounds) + 1


async def add_player(services: Services, name: str, *, rating: int | None, youth: bool,
                     flexible: bool = False, actor: int) -> int:
    """A new member, playing from the next round on (returned)."""
    async with services.db.transaction():
        joined = await _next_round(services)
        await roster.add_player(services.db, name, rating=rating, youth=youth,
                              flexible=flexible, joined=joined, actor=actor)
    return joined


@dataclass(frozen=True, slots=True)
class NextSeason:
    season: Season
    gone: tuple[str, ...]
    """Names of the members who withdrew and do not come along."""
    started: bool


async def next_season(services: Services, name: str | None, *, start: bool,
                      actor: int) -> NextSeason:
    """The next season from this one, once every round is complete: shown, or (`start`)
    begun, the old season kept. Raises InvalidInputError when no name follows."""
    db = services.db
    async with db.transaction():
        planned = await schedule(services)
        if not planned:
            # Just begun (a second confirmation, say): nothing was played to follow on from.
            raise InputStoreError(StoreProblem.SEASON_EMPTY)
        unfinished = [r.number for r in planned if r.state is not RoundState.COMPLETE]
        if unfinished:
            raise InputStoreError(StoreProblem.SEASON_NOT_DONE, round=unfinished[0])
        old = await load_season(db)
        new = following(old, name)
        if start:
            await seasons.start_next(db, new, actor=actor)
    kept = {p.id for p in new.players}
    return NextSeason(new, tuple(p.name for p in old.players if p.id not in kept), start)


async def set_flexible(services: Services, who: Member, flexible: bool, *, actor: int) -> None:
    """The member plays only when he signs on (flexible), or unless he signs off."""
    await roster.set_flexible(services.db, who.code, flexible, actor=actor)


async def withdraw(services: Services, who: Member, *, actor: int) -> int:
    """A member leaves; the last round he counts in is returned."""
    async with services.db.transaction():
        last = await _next_round(services) - 1
        await roster.withdraw(services.db, who.code, last_round=last, actor=actor)
    return last


async def rounds_ahead(services: Services) -> list[ScheduledRound]:
    """The arbiter's overview: the last round played, and every round not yet complete."""
    planned = await schedule(services)
    done = [r for r in planned if r.state is RoundState.COMPLETE]
    return done[-1:] + [r for r in planned if r.state is not RoundState.COMPLETE]


async def give_deadlines(services: Services) -> list[int]:
    """Rounds on the schedule with a date and no deadline (a season loaded from a file): each
    gets the one its date and the club's settings give, so that it is drafted in time and
    sign-offs are on time or late by it. The rounds it gave one."""
    db = services.db
    if not await seasons.has_season(db):
        return []
    given = []
    async with db.transaction():
        settings = await club.settings(db)
        for r in await schedule(services):
            if r.state is RoundState.PLANNED and r.date is not None and r.deadline is None:
                await programme.set_schedule(db, r.number, date=r.date, actor=None,
                                             deadline=deadline_for(
                                                 r.date, settings, services.settings.timezone))
                given.append(r.number)
    return given


@dataclass(frozen=True, slots=True)
class OpenExternal:
    round: int
    name: str


async def externals_without_result(services: Services) -> list[OpenExternal]:
    """External games the rules value by team whose result is not in: until it is, they
    earn nothing, so the arbiter sees them as open (also in a round already over)."""
    season = await load_season(services.db)
    return [OpenExternal(rnd.number, season.player(a.player).name)
            for rnd in season.rounds for a in rnd.absent
            if a.kind in season.rules.team_valued and (a.team is None or a.result is None)]


@dataclass(frozen=True, slots=True)
class Scheduled:
    round: int
    date: dt.date
    deadline: dt.datetime
    same_day: tuple[int, ...] = ()
    """Other rounds on that date (allowed, but worth a word)."""
    renumbered: bool = False
    """Later rounds moved up one number to keep the rounds in date order."""
    draft_dropped: bool = False
    """Postponed after its deadline: its draft went, and it is paired at the new one."""
    online: bool = False
    """Played on lichess."""


async def _deadline(services: Services, date: dt.date) -> dt.datetime:
    """The deadline of a round on `date`; a round whose start has gone by is refused (it would
    be drafted at once, its deadline already past)."""
    settings = await club.settings(services.db)
    zone = services.settings.timezone
    start = round_start(date, settings, zone)
    if start <= services.clock():
        raise InputStoreError(StoreProblem.START_PAST, date=date.isoformat(),
                              time=start.astimezone(zone).strftime("%H:%M"))
    return deadline_for(date, settings, zone)


async def plan_round(services: Services, date: dt.date, *, on_site: bool = False,
                     online: bool | None = None, actor: int) -> Scheduled:
    """A new round on `date`, in date order; its deadline follows from the settings.
    `on_site`: paired at the venue, from those who say they are there (`flows.checkin`);
    `online`: played on lichess (`flows.online`; None: as the club's setting has it)."""
    db = services.db
    async with db.transaction():
        before = await schedule(services)
        deadline = await _deadline(services, date)
        if online is None:
            online = not on_site and (await club.settings(db)).online
        number = await insert_round(db, date, deadline, on_site=on_site, online=online,
                                    actor=actor)
    return Scheduled(number, date, deadline,
                     tuple(r.number for r in before if r.date == date),
                     renumbered=number <= len(before), online=online)


async def move_round(services: Services, number: int, date: dt.date, *,
                     actor: int) -> Scheduled:
    """A round to another date (postponed); its deadline moves with it."""
    db = services.db
    async with db.transaction():
        dated = {r.number: r.date for r in await schedule(services) if r.date is not None}
        before = [n for n, d in dated.items() if n < number and d > date]
        after = [n for n, d in dated.items() if n > number and d < date]
        if before or after:  # rounds stay numbered by date
            other = max(before) if before else min(after)
            raise InputStoreError(StoreProblem.MOVE_ORDER, round=number, other=other,
                                  date=dated[other].isoformat())
        deadline = await _deadline(services, date)
        moved = await programme.set_schedule(db, number, date=date, deadline=deadline,
                                             actor=actor)
        if moved.announced:  # the members knew the old evening: the group hears of the new
            await tell_group(services, await club.settings(db), Text("ROUND_MOVED_GROUP", {
                "round": number, "date": Dated(date),
                "deadline": Dated(deadline, services.settings.timezone)}))
    return Scheduled(number, date, deadline,
                     tuple(n for n, d in dated.items() if d == date and n != number),
                     draft_dropped=moved.draft_dropped)


async def cancel_round(services: Services, number: int, *, actor: int) -> None:
    await programme.cancel_round(services.db, number, actor=actor)


async def set_group(services: Services, chat_id: int, thread_id: int | None, title: str, *,
                    actor: int) -> None:
    """The club group (and forum topic) where pairings, reminders and standings go."""
    await club.change_settings(services.db, actor=actor, group_chat_id=chat_id,
                               group_thread_id=thread_id, name=title)


async def follow_migration(services: Services, old: int, new: int) -> bool:
    """A group became a supergroup: the club group follows it (the arbiters are told once),
    and what was still owed to the old chat goes to the new one. True if the club group
    moved."""
    async with services.db.transaction():
        moved = await club.follow_group(services.db, old, new, actor=None)
        await outbox.move_chat(services.db, old, new)
        if moved:
            await owe_to_arbiters(services, Text("GROUP_MIGRATED"))
    return moved


async def set_arbiter(services: Services, telegram_id: int, *, on: bool, actor: int) -> None:
    await club.set_arbiter(services.db, telegram_id, on=on, actor=actor)


async def settings(services: Services) -> tuple[ClubSettings, object]:
    """The club's settings, and its rules as the season file states them."""
    return await club.settings(services.db), (await load_season(services.db)).rules_source


async def apart(services: Services) -> list[tuple[str, str]]:
    """The pairs of members the arbiter keeps apart, by name, in the members' order."""
    place = {m.code: (k, m.name) for k, m in enumerate(await roster.members(services.db))}
    pairs = [sorted((place[code] for code in pair), key=lambda p: p[0])
             for pair in await roster.apart(services.db)]
    return [(one[1], other[1]) for one, other in sorted(pairs)]


@dataclass(frozen=True, slots=True)
class KeptApart:
    changed: bool
    """False when it was so already."""
    drafted: int | None
    """The round whose draft was made before (it stays as it is until paired again)."""


async def keep_apart(services: Services, one: str, other: str, on: bool, *,
                     actor: int) -> KeptApart:
    """Two members never meet where a pairing can keep them apart (or, not `on`, may meet
    again)."""
    changed = await roster.keep_apart(services.db, one, other, on, actor=actor)
    upcoming = await open_round(services)
    waiting = upcoming is not None and upcoming.state is RoundState.DRAFTED
    return KeptApart(changed, upcoming.number if changed and waiting and upcoming else None)


async def change_settings(services: Services, *, actor: int,
                          **changes: object) -> list[Scheduled]:
    """Change the club's settings. A new start time or deadline applies to every round whose
    attendance is not locked yet: their deadlines are moved, and returned."""
    db = services.db
    services.languages.forget_the_clubs()  # read again after this change, or its refusal
    async with db.transaction():
        await club.change_settings(db, actor=actor, **changes)
        if not {"round_start", "deadline_minutes"} & set(changes):
            return []
        settings = await club.settings(db)
        moved = []
        for rnd in await schedule(services):
            if rnd.state is RoundState.PLANNED and rnd.date is not None:
                deadline = deadline_for(rnd.date, settings, services.settings.timezone)
                await programme.set_schedule(db, rnd.number, date=rnd.date, deadline=deadline,
                                        actor=actor)
                moved.append(Scheduled(rnd.number, rnd.date, deadline))
    return moved


@dataclass(frozen=True, slots=True)
class Moved:
    name: str
    before: int
    after: int


@dataclass(frozen=True, slots=True)
class RulesChange:
    after_round: int
    """The standings compared are after this round (0: none played, nothing to compare)."""
    moved: tuple[Moved, ...]
    """Players whose place the change moves, best placed first."""
    stored: bool


async def change_rules(services: Services, changes: dict[str, object], *, actor: int,
                       confirmed: bool) -> RulesChange:
    """Change the rules: a preset (the club's own overrides stay) or single parameters. In
    mid-season the change is only stored when `confirmed`; before that it reports how it
    would move the standings. The whole season is checked under the new rules first."""
    db = services.db
    async with db.transaction():
        season = await load_season(db)
        source = season.rules_source
        rules = (dict(source) if isinstance(source, dict) else {"preset": source}) | changes
        played = season.complete_rounds
        if played == 0 or confirmed:
            await club.set_rules(db, rules, actor=actor)
            return RulesChange(played, (), stored=True)
        changed = season_from_data({**season_to_data(season), "rules": rules})
    before = await asyncio.to_thread(compute_standings, season, played)
    after = await asyncio.to_thread(compute_standings, changed, played)
    # A player the new rules leave out (a withdrawal, `withdrawn = "hide"`) has no new place.
    moved = tuple(Moved(row.player.name, row.rank, after.row(row.id).rank)
                  for row in before.rows
                  if row.id in after.ranking and after.row(row.id).rank != row.rank)
    return RulesChange(played, moved, stored=False)
