"""/afmelden and /aanmelden: members sign off (or undo it); arbiters on a member's behalf."""

from __future__ import annotations

import asyncio
import datetime as dt
from dataclasses import dataclass, field

from telegram import Update
from telegram.ext import Application

from bot import texts
from bot.chat import esc, reply, send, show_date, show_moment, tell_arbiters
from bot.flows import rounds as flows
from bot.handlers.common import command, is_arbiter, member, parse_date
from bot.services import Context, open_round, standings_of
from core.preview import SignOffPrice, after_sign_off, sign_off_price
from core.season import AbsenceReason, ExternalDay
from storage import attendance, club, rounds
from storage.seasons import load_season


@dataclass
class Request:
    rounds: list[int] = field(default_factory=list)
    reason: AbsenceReason = AbsenceReason.NOTICE
    day: ExternalDay | None = None
    note: str = ""
    problem: str | None = None


def parse(words: list[str], schedule: list[club.ScheduledRound], today: dt.date) -> Request:
    """`[datum | rondenummer | van X t/m Y] [extern | extern-clubavond] [reden]`."""
    request = Request()
    by_date = {r.date: r.number for r in schedule if r.date is not None}
    numbers = {r.number for r in schedule}
    pending_range = False
    for k, word in enumerate(words):
        low = word.lower()
        if low == "van":
            continue
        if low in ("t/m", "tm", "tot"):
            pending_range = True
            continue
        if low in ("extern", "extern-anderedag"):
            request.reason, request.day = AbsenceReason.EXTERNAL, ExternalDay.OTHER_DAY
            continue
        if low in ("extern-clubavond", "clubavond"):
            request.reason, request.day = AbsenceReason.EXTERNAL, ExternalDay.CLUB_NIGHT
            continue
        number: int | None = None
        if word.isdigit():
            number = int(word)
            if number not in numbers:
                request.problem = texts.NOT_SCHEDULED.format(round=number)
                return request
        elif (date := parse_date(word, today)) is not None:
            number = by_date.get(date)
            if number is None:
                request.problem = texts.NO_ROUND_ON_DATE.format(date=show_date(date))
                return request
        else:
            request.note = " ".join(words[k:])
            break
        if pending_range and request.rounds:
            request.rounds += list(range(request.rounds[-1] + 1, number + 1))
            pending_range = False
        else:
            request.rounds.append(number)
    return request


async def _target(update: Update, context: Context,
                  words: list[str]) -> tuple[club.Member | None, list[str]]:
    """Who signs off: an arbiter may name a member first; anyone else is himself."""
    if await is_arbiter(update, context) and words:
        everyone = await club.members(context.services.db)
        for length in range(len(words), 0, -1):
            found = club.exact(everyone, " ".join(words[:length]))
            if len(found) == 1:
                return found[0], words[length:]
    return await member(update, context), words


async def afmelden(update: Update, context: Context) -> None:
    services = context.services
    words = list(context.args or [])
    who, words = await _target(update, context, words)
    if who is None:
        return
    zone = services.settings.timezone
    today = services.clock().astimezone(zone).date()
    schedule = await club.schedule(services.db)
    request = parse(words, schedule, today)
    if request.problem:
        await reply(update, context, request.problem + "\n" + texts.AFMELDEN_USAGE)
        return
    if not request.rounds:
        upcoming = await open_round(services)
        if upcoming is None:
            await reply(update, context, texts.NO_OPEN_ROUND)
            return
        request.rounds = [upcoming.number]
    message = update.effective_message
    assert message is not None and update.effective_user is not None
    actor = update.effective_user.id
    correction = await is_arbiter(update, context) and who.telegram_id != actor
    # Priced from the season as committed, before the write transaction: the writer's lock
    # is then held only for storing (a large season takes a while to price).
    committed = await load_season(services.db)
    standings = await standings_of(services, committed)
    early = {}
    for number in request.rounds:
        ahead = after_sign_off(committed, who.code, number, request.reason, request.day)
        if ahead is not None:
            early[number] = await asyncio.to_thread(sign_off_price, ahead, standings, who.code,
                                                    number, request.reason, request.day)
    async with services.db.transaction():
        await _sign_off(update, context, who, request, early, schedule, correction,
                        committed.rules.display_decimals)


async def _sign_off(update: Update, context: Context, who: club.Member, request: Request,
                    early: dict[int, SignOffPrice], schedule: list[club.ScheduledRound],
                    correction: bool, decimals: int) -> None:
    """Store the sign-offs (all or none), say what each earns, tell whom it concerns."""
    services = context.services
    zone = services.settings.timezone
    message = update.effective_message
    assert message is not None and update.effective_user is not None
    actor = update.effective_user.id
    dates = {r.number: r for r in schedule}
    signed = [await attendance.sign_off(
        services.db, number, who.code, request.reason, sent_at=message.date, actor=actor,
        day=request.day, note=request.note, correction=correction)
        for number in request.rounds]
    lines = []
    for done in signed:
        when = show_date(dates[done.round].date)
        if not done.on_time:
            lines.append(texts.SIGNED_OFF_LATE.format(
                who=esc(who.name), round=done.round, date=when,
                deadline=show_moment(dates[done.round].deadline, zone)))
            await _tell_about_late(context, who, done.round)
            continue
        if done.draft_dropped:
            await flows.redraft(services, done.round)
        price = early.get(done.round)
        if price is None:  # a draft it dropped: priced as stored
            season = await load_season(services.db)
            price = await asyncio.to_thread(sign_off_price, season,
                                            await standings_of(services, season), who.code,
                                            done.round, done.reason, done.day)
        kind = texts.KIND_WORDS.get(done.reason.value if done.day is None else
                                    f"external_{done.day.value}", "afgemeld")
        lines.append(texts.SIGNED_OFF.format(
            who=esc(who.name), round=done.round, date=when, kind=kind,
            earns=texts.earns(price, decimals)))
    await reply(update, context, "\n".join(lines))


async def _tell_about_late(context: Context, who: club.Member, number: int) -> None:
    stored = await rounds.stored_pairing(context.services.db, number)
    opponent = None
    if stored is not None:
        board = next((b for b in stored.boards if who.code in (b.white, b.black)), None)
        if board is not None:
            opponent = board.black if board.white == who.code else board.white
    everyone = {m.code: m for m in await club.members(context.services.db)}
    paired = "" if opponent is None else texts.LATE_PAIRED.format(
        opponent=esc(everyone[opponent].name))
    await tell_arbiters(context, texts.LATE_TO_ARBITER.format(who=esc(who.name), round=number,
                                                              paired=paired))
    told = None if opponent is None else everyone[opponent]
    if told is not None and told.telegram_id is not None:
        await send(context.services, told.telegram_id, texts.LATE_TO_OPPONENT.format(
            who=esc(who.name), round=number), about=esc(told.name))


async def aanmelden(update: Update, context: Context) -> None:
    services = context.services
    words = list(context.args or [])
    who, words = await _target(update, context, words)
    if who is None:
        return
    upcoming = await open_round(services)
    number = int(words[0]) if words and words[0].isdigit() else \
        (upcoming.number if upcoming else None)
    if number is None:
        await reply(update, context, texts.NO_OPEN_ROUND)
        return
    message = update.effective_message
    assert message is not None and update.effective_user is not None
    actor = update.effective_user.id
    await attendance.cancel_sign_off(services.db, number, who.code, sent_at=message.date,
                                     actor=actor,
                                     correction=await is_arbiter(update, context))
    await reply(update, context, texts.AANMELDEN_DONE.format(round=number))


def register(app: Application) -> None:  # type: ignore[type-arg]
    app.add_handler(command("afmelden", afmelden, opens_transaction=True))
    app.add_handler(command("aanmelden", aanmelden))
