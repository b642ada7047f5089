"""/afmelden and /aanmelden: members sign off (or undo it); arbiters on a member's behalf."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field

from telegram import Update

from bot import texts
from bot.chat import esc, reply, show_date, show_moment
from bot.flows import members, signoff
from bot.handlers.common import (
    atomically,
    command,
    is_arbiter,
    looks_like_date,
    member,
    number,
    parse_date,
)
from bot.services import App, Context, ScheduledRound, open_round, schedule
from core.preview import Earning
from core.season import Absence, AbsenceReason, ExternalDay


@dataclass
class Request:
    rounds: list[int] = field(default_factory=list)
    reason: AbsenceReason = AbsenceReason.NOTICE
    day: ExternalDay | None = None
    note: str = ""
    problem: str | None = None


def parse(words: list[str], rounds: list[ScheduledRound], today: dt.date) -> Request:
    """`[datum | rondenummer | ronde N | van X t/m Y] [extern | extern-clubavond] [reden]`."""
    request = Request()
    by_date = {r.date: r.number for r in rounds if r.date is not None}
    numbers = {r.number for r in rounds}
    pending_range = False
    for k, word in enumerate(words):
        low = word.lower()
        if low in ("van", "ronde", "rondes", "ronden"):
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
        found = _round_named(word, by_date, numbers, today)
        if isinstance(found, str):
            request.problem = found
            return request
        if found is None:
            if pending_range or word.isnumeric():
                request.problem = texts.NOT_A_ROUND.format(text=esc(word))
                return request
            request.note = " ".join(words[k:])
            break
        if pending_range and request.rounds:
            if found < request.rounds[-1]:
                request.problem = texts.BAD_RANGE.format(first=request.rounds[-1], last=found)
                return request
            request.rounds += list(range(request.rounds[-1] + 1, found + 1))
            pending_range = False
        else:
            request.rounds.append(found)
    if pending_range:
        request.problem = texts.BAD_RANGE_END
    return request


def _round_named(word: str, by_date: dict[dt.date, int], numbers: set[int],
                 today: dt.date) -> int | str | None:
    """The round a word names (its number or its date), a problem to say, or None when the
    word is neither (the reason starts there)."""
    found = number(word)
    if found is not None:
        return found if found in numbers else texts.NOT_SCHEDULED.format(round=found)
    if not looks_like_date(word):
        return None
    date = parse_date(word, today)
    if date is None:
        return texts.BAD_DATE.format(text=esc(word))
    return by_date.get(date, texts.NO_ROUND_ON_DATE.format(date=show_date(date)))


async def _target(update: Update, context: Context, words: list[str],
                  arbiter: bool) -> tuple[members.Member | None, list[str]]:
    """Who signs off: an arbiter may name a member first; a member only himself (naming
    someone else is refused, not read as his reason)."""
    named, rest = await members.named_first(context.services, words)
    if arbiter and named is not None:
        return named, rest
    me = await member(update, context)
    if me is None or named is None:
        return me, words
    if named.code != me.code:
        await reply(update, context, texts.ONLY_YOURSELF.format(name=esc(named.name)))
        return None, words
    return me, rest


async def afmelden(update: Update, context: Context) -> None:
    services = context.services
    words = list(context.args or [])
    arbiter = await is_arbiter(update, context)
    who, words = await _target(update, context, words, arbiter)
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
                                      correction=arbiter
                                      and who.telegram_id != actor, early=early)
        await reply(update, context, signed_off_text(done, services.settings.timezone,
                                                     for_self=who.telegram_id == actor))


def signed_off_text(done: signoff.SignOffReport, zone: dt.tzinfo, *, for_self: bool) -> str:
    """Each round on its line; the cap on paid sign-offs said once, where it matters."""
    lines = []
    about = None if for_self else esc(done.who.name)
    for one in done.rounds:
        when = show_date(one.date)
        if one.late_after is not None:
            lines.append(texts.SIGNED_OFF_LATE.format(
                who=esc(done.who.name), round=one.round, date=when,
                deadline=show_moment(one.late_after, zone)))
            continue
        kind = texts.SIGNED_OFF_FOR.get(Absence(done.who.code, one.reason, one.day).kind, "")
        earns = "" if one.price is None else texts.earns(one.price, done.decimals, about)
        lines.append(texts.SIGNED_OFF.format(who=esc(done.who.name), round=one.round,
                                             date=when, kind=kind, earns=earns).rstrip())
    caps = {one.price.cap for one in done.rounds if one.price is not None
            and one.price.earning is Earning.LATER and one.price.cap is not None}
    lines += [texts.EARNS_CAP.format(cap=cap) for cap in caps]
    return "\n".join(lines)


async def aanmelden(update: Update, context: Context) -> None:
    services = context.services
    words = list(context.args or [])
    arbiter = await is_arbiter(update, context)
    who, words = await _target(update, context, words, arbiter)
    if who is None:
        return
    upcoming = await open_round(services)
    named = number(words[0]) if words else None
    if words and (named is None or named not in {r.number for r in await schedule(services)}):
        await reply(update, context, texts.NOT_SCHEDULED.format(round=esc(words[0])))
        return
    chosen = named or (upcoming.number if upcoming else None)
    if chosen is None:
        await reply(update, context, texts.NO_OPEN_ROUND)
        return
    message = update.effective_message
    assert message is not None and update.effective_user is not None
    await signoff.cancel(services, who, chosen, sent_at=message.date,
                         actor=update.effective_user.id,
                         correction=arbiter)
    await reply(update, context, texts.AANMELDEN_DONE.format(round=chosen))


def register(app: App) -> None:
    app.add_handler(command("afmelden", afmelden, opens_transaction=True))
    app.add_handler(command("aanmelden", aanmelden))
