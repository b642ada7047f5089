"""/afmelden and /aanmelden: members sign off (or undo it); arbiters on a member's behalf."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field

from telegram import Update
from telegram.ext import Application

from bot import texts
from bot.chat import esc, reply, show_date, show_moment
from bot.flows import members, signoff
from bot.handlers.common import atomically, command, is_arbiter, member, parse_date
from bot.services import Context, ScheduledRound, open_round, schedule
from core.season import AbsenceReason, ExternalDay


@dataclass
class Request:
    rounds: list[int] = field(default_factory=list)
    reason: AbsenceReason = AbsenceReason.NOTICE
    day: ExternalDay | None = None
    note: str = ""
    problem: str | None = None


def parse(words: list[str], rounds: list[ScheduledRound], today: dt.date) -> Request:
    """`[datum | rondenummer | van X t/m Y] [extern | extern-clubavond] [reden]`."""
    request = Request()
    by_date = {r.date: r.number for r in rounds if r.date is not None}
    numbers = {r.number for r in rounds}
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
                  words: list[str]) -> tuple[members.Member | None, list[str]]:
    """Who signs off: an arbiter may name a member first; anyone else is himself."""
    if await is_arbiter(update, context) and words:
        named, rest = await members.named_first(context.services, words)
        if named is not None:
            return named, rest
    return await member(update, context), words


async def afmelden(update: Update, context: Context) -> None:
    services = context.services
    words = list(context.args or [])
    who, words = await _target(update, context, words)
    if who is None:
        return
    today = services.clock().astimezone(services.settings.timezone).date()
    parsed = parse(words, await schedule(services), today)
    if parsed.problem:
        await reply(update, context, parsed.problem + "\n" + texts.AFMELDEN_USAGE)
        return
    if not parsed.rounds:
        upcoming = await open_round(services)
        if upcoming is None:
            await reply(update, context, texts.NO_OPEN_ROUND)
            return
        parsed.rounds = [upcoming.number]
    message = update.effective_message
    assert message is not None and update.effective_user is not None
    actor = update.effective_user.id
    request = signoff.Request(tuple(parsed.rounds), parsed.reason, parsed.day, parsed.note)
    early = await signoff.prices(services, who, request)
    async with atomically(context):
        done = await signoff.sign_off(services, who, request, sent_at=message.date, actor=actor,
                                      correction=await is_arbiter(update, context)
                                      and who.telegram_id != actor, early=early)
        await reply(update, context, signed_off_text(done, services.settings.timezone))


def signed_off_text(done: signoff.SignOffReport, zone: dt.tzinfo) -> str:
    lines = []
    for one in done.rounds:
        when = show_date(one.date)
        if one.late_after is not None:
            lines.append(texts.SIGNED_OFF_LATE.format(
                who=esc(done.who.name), round=one.round, date=when,
                deadline=show_moment(one.late_after, zone)))
            continue
        kind = texts.KIND_WORDS.get(one.reason.value if one.day is None else
                                    f"external_{one.day.value}", "afgemeld")
        earns = "" if one.price is None else texts.earns(one.price, done.decimals)
        lines.append(texts.SIGNED_OFF.format(who=esc(done.who.name), round=one.round,
                                             date=when, kind=kind, earns=earns))
    return "\n".join(lines)


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
    await signoff.cancel(services, who, number, sent_at=message.date,
                         actor=update.effective_user.id,
                         correction=await is_arbiter(update, context))
    await reply(update, context, texts.AANMELDEN_DONE.format(round=number))


def register(app: Application) -> None:  # type: ignore[type-arg]
    app.add_handler(command("afmelden", afmelden, opens_transaction=True))
    app.add_handler(command("aanmelden", aanmelden))
