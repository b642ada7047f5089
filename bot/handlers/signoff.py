"""/afmelden and /aanmelden: members sign off (or undo it); arbiters on a member's behalf."""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
from dataclasses import dataclass, field

from telegram import Update

from bot import dates, texts
from bot.answer import Answer, Toast
from bot.callbacks import Attendance
from bot.chat import esc, reply, show_date, show_moment
from bot.flows import members, signoff
from bot.handlers.common import atomically, button, command, is_arbiter, member
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


Point = int | dt.date
"""A round by its number, or a day."""


@dataclass(frozen=True, slots=True)
class Span:
    """One round (`start` only), or the rounds from `start` (None: the open round) to `end`."""

    start: Point | None
    end: Point | None = None
    through: bool = True
    """`t/m`: the end's day included; `tot`: up to that day. A round number always counts."""
    bare_start: bool = False
    """The start was a bare number: in `3 t/m 9 december` it is a day, not round 3."""
    onward: bool = False
    """`vanaf X` with no end: every round from X to the last."""


HALF_YEAR = dt.timedelta(days=183)
SKIP = {"van"}
ONWARD = "vanaf"
UNTIL = {"t/m": True, "tm": True, "t.e.m.": True, "tot": False}
THROUGH = ("tot", "en", "met")
"""`tot en met`, written out: as `t/m`."""
EXTERNAL = {"extern": ExternalDay.OTHER_DAY, "extern-anderedag": ExternalDay.OTHER_DAY,
            "extern-clubavond": ExternalDay.CLUB_NIGHT, "clubavond": ExternalDay.CLUB_NIGHT}


def parse(words: list[str], rounds: list[ScheduledRound], opened: int | None,
          today: dt.date) -> Request:
    """`[datum | rondenummer | ronde N | van X t/m Y | tot X | vanaf X] [extern |
    extern-clubavond] [reden]`, several joined by `en`; X and Y rounds or dates (bot.dates),
    `t/m` also written `tot en met`; `tot X` from the open round (`opened`), `vanaf X` to the
    last round. Reads dates with dateparser: run it in a thread."""
    request = Request()
    spans: list[Span] = []
    until: bool | None = None
    club_day = dates.club_day(r.date for r in rounds)
    k, named_round, onward = 0, False, False
    while k < len(words):
        low = words[k].lower()
        if low == ONWARD:
            onward = True
            k += 1
            continue
        if low in SKIP or (low in ("en", ",") and spans and k + 1 < len(words)
                           and _point(words[k + 1:], today, club_day)[0] is not None):
            k += 1
            continue
        if low in ("ronde", "rondes", "ronden") and k + 1 < len(words) \
                and dates.is_number(words[k + 1]):
            k, named_round = k + 1, True
            continue
        if low in UNTIL:
            if until is not None:
                request.problem = texts.BAD_RANGE_END
                return request
            through = tuple(w.lower() for w in words[k:k + 3]) == THROUGH
            until = through or UNTIL[low]
            k += 3 if through else 1
            continue
        if low in EXTERNAL:
            request.reason, request.day = AbsenceReason.EXTERNAL, EXTERNAL[low]
            k += 1
            continue
        point, used = _point(words[k:], today, club_day)
        if point is None:
            if words[k].isascii() and words[k].isdigit():  # too long for any round
                request.problem = texts.NOT_SCHEDULED.format(round=esc(words[k]))
                return request
            if until is not None or words[k].isnumeric():
                request.problem = texts.NOT_A_ROUND.format(text=esc(words[k]))
                return request
            if dates.looks_like_date(words[k]):
                request.problem = texts.BAD_DATE.format(text=esc(words[k]))
                return request
            request.note = " ".join(words[k:])
            break
        bare, named_round = isinstance(point, int) and not named_round, False
        k += used
        if until is None:
            spans.append(Span(point, bare_start=bare, onward=onward))
            onward = False
            continue
        last = spans.pop() if spans and spans[-1].end is None else None
        spans.append(Span(None if last is None else last.start, point, until,
                          last is not None and last.bare_start))
        until = None
    if until is not None:
        request.problem = texts.BAD_RANGE_END
        return request
    for span in spans:
        found = _rounds(span, rounds, opened, today)
        if isinstance(found, str):
            request.problem = found
            return request
        request.rounds += [r for r in found if r not in request.rounds]
    return request


def _point(words: list[str], today: dt.date, club_day: int | None) -> tuple[Point | None, int]:
    """The day or the round number the words start with, and how many words it took: `2 dec`
    is a day, `2` a round."""
    found = dates.read(words, today, club_day)
    if found is not None:
        return found.date, found.words
    return (int(words[0]), 1) if dates.is_number(words[0]) else (None, 0)


def _rounds(span: Span, rounds: list[ScheduledRound], opened: int | None,
            today: dt.date) -> list[int] | str:
    """The scheduled rounds a span names, or a problem to say."""
    numbers = {r.number for r in rounds}
    start, end = span.start, span.end
    if end is None and span.onward and numbers:
        end = max(numbers)
    if span.bare_start and isinstance(start, int) and isinstance(end, dt.date):
        start = _day_before(start, end)
        if start is None:
            return texts.BAD_DATE.format(text=f"{span.start}")
    for point in (start, end):
        if isinstance(point, int) and point not in numbers:
            return _no_round(point, today)
    if end is None:
        if isinstance(start, int):
            return [start]
        assert isinstance(start, dt.date)
        on_day = [r.number for r in rounds if r.date == start]
        return on_day or texts.NO_ROUND_ON_DATE.format(date=show_date(start, today))
    if start is None:
        if opened is None:
            return texts.NO_OPEN_ROUND
        start = opened
    start = _recent_start(start, end, today)
    if _after(start, end, rounds):
        return texts.BAD_RANGE.format(first=_point_text(start, today),
                                      last=_point_text(end, today))
    chosen = [r.number for r in rounds if _from(r, start) and _until(r, end, span.through)]
    return chosen or texts.NO_ROUND_IN_RANGE.format(first=_point_text(start, today),
                                                   last=_point_text(end, today))


def _recent_start(start: Point, end: Point, today: dt.date) -> Point:
    """A range's first day read as next year's because it has gone by this year (`van 20
    november t/m 4 december` on 1 December) starts this year, where the range then holds."""
    if not (isinstance(start, dt.date) and isinstance(end, dt.date) and start > end):
        return start
    with contextlib.suppress(ValueError):  # 29 February
        earlier = start.replace(year=start.year - 1)
        if earlier <= end and dt.timedelta(0) <= today - earlier <= HALF_YEAR:
            return earlier
    return start


def _from(r: ScheduledRound, start: Point) -> bool:
    if isinstance(start, int):
        return r.number >= start
    return r.date is not None and r.date >= start


def _until(r: ScheduledRound, end: Point, through: bool) -> bool:
    if isinstance(end, int):
        return r.number <= end
    return r.date is not None and (r.date <= end if through else r.date < end)


def _after(start: Point, end: Point, rounds: list[ScheduledRound]) -> bool:
    """Does the span end before it starts? A round number stands for its date."""
    when = {r.number: r.date for r in rounds}

    def day(point: Point) -> dt.date | int | None:
        return point if isinstance(point, dt.date) else when.get(point)

    if isinstance(start, int) and isinstance(end, int):
        return start > end
    first, last = day(start), day(end)
    return isinstance(first, dt.date) and isinstance(last, dt.date) and first > last


def _day_before(day: int, end: dt.date) -> dt.date | None:
    """Day `day` of the month `end` is in, or of the month before when that comes after
    `end` (`28 t/m 3 januari`)."""
    with contextlib.suppress(ValueError):
        candidate = end.replace(day=day)
        if candidate <= end:
            return candidate
        before = (end.replace(day=1) - dt.timedelta(days=1)).replace(day=day)
        return before
    return None


def _point_text(point: Point, today: dt.date) -> str:
    if isinstance(point, int):
        return texts.ROUND_WORD.format(round=point)
    return show_date(point, today)


def _no_round(number_: int, today: dt.date) -> str:
    """A number that is no round: ask whether a day was meant, never guess."""
    if not 1 <= number_ <= 31:
        return texts.NOT_SCHEDULED.format(round=number_)
    month = today if number_ >= today.day else today.replace(day=1) + dt.timedelta(days=32)
    example = f"{number_} {texts.MONTH_NAMES[month.month - 1]}"
    return texts.NUMBER_NOT_ROUND.format(round=number_, example=example)


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
    upcoming = await open_round(services)
    parsed = await asyncio.to_thread(parse, words, await schedule(services),
                                     None if upcoming is None else upcoming.number, today)
    if parsed.problem:
        await reply(update, context, parsed.problem + "\n" + texts.AFMELDEN_USAGE)
        return
    if not parsed.rounds:
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
        if one.kept:
            lines.append(texts.SIGNED_OFF_KEPT.format(who=esc(done.who.name), round=one.round,
                                                      date=when, kind=kind))
            continue
        earns = "" if one.price is None else texts.earns(one.price, done.decimals, about)
        lines.append(texts.SIGNED_OFF.format(who=esc(done.who.name), round=one.round,
                                             date=when, kind=kind, earns=earns).rstrip())
    caps = {one.price.cap for one in done.rounds if one.price is not None
            and one.price.earning is Earning.LATER and one.price.cap is not None}
    lines += [texts.EARNS_CAP.format(cap=cap) for cap in caps]
    return "\n".join(lines)


async def aanmelden(update: Update, context: Context) -> None:
    """A flexible member signs on (he plays only then); a fixed one takes a sign-off back.
    The rounds are named as for /afmelden."""
    services = context.services
    words = list(context.args or [])
    arbiter = await is_arbiter(update, context)
    who, words = await _target(update, context, words, arbiter)
    if who is None:
        return
    today = services.clock().astimezone(services.settings.timezone).date()
    upcoming = await open_round(services)
    planned = await schedule(services)
    parsed = await asyncio.to_thread(parse, words, planned,
                                     None if upcoming is None else upcoming.number, today)
    if parsed.problem or parsed.note:
        await reply(update, context, parsed.problem
                    or texts.NOT_A_ROUND.format(text=esc(parsed.note.split()[0])))
        return
    chosen = parsed.rounds or ([upcoming.number] if upcoming else [])
    if not chosen:
        await reply(update, context, texts.NO_OPEN_ROUND)
        return
    message = update.effective_message
    assert message is not None and update.effective_user is not None
    actor = update.effective_user.id
    if not who.flexible:
        async with atomically(context):
            for number_ in chosen:
                await signoff.cancel(services, who, number_, sent_at=message.date, actor=actor,
                                     correction=arbiter)
            await reply(update, context, "\n".join(
                texts.AANMELDEN_DONE.format(round=n) for n in chosen))
        return
    fresh = await signoff.sign_on(services, who, chosen, sent_at=message.date, actor=actor,
                                  correction=arbiter)
    when = {r.number: r.date for r in planned}
    await reply(update, context, "\n".join(
        (texts.SIGNED_ON if new else texts.SIGNED_ON_ALREADY).format(
            name=esc(who.name), round=n, date=show_date(when.get(n), today))
        for n, new in zip(chosen, fresh, strict=True)))


async def attendance_button(update: Update, context: Context, pressed: Attendance) -> Answer:
    """Ik speel / Ik kan niet / Extern under a reminder: what the member answers for
    himself, said back in a toast only he sees. Who is not linked is sent to the bot. The
    price is worked out before the write, so the writer's lock is held only for storing."""
    query = update.callback_query
    assert query is not None
    services = context.services
    who = await members.of_user(services, query.from_user.id)
    if who is None:
        return Answer(toast=Toast(texts.ATTEND_UNLINKED,
                                  url=f"https://t.me/{context.bot.username}?start=koppelen"))
    pressed_at = services.clock()  # a press carries no time of its own
    if pressed.choice == "play":
        await signoff.plays(services, who, pressed.round, sent_at=pressed_at,
                            actor=query.from_user.id)
        return Answer(toast=Toast(texts.ATTEND_PLAYING.format(round=pressed.round), alert=True))
    reason, day = (AbsenceReason.EXTERNAL, ExternalDay.CLUB_NIGHT) if pressed.choice == "ext" \
        else (AbsenceReason.NOTICE, None)
    request = signoff.Request((pressed.round,), reason, day, "")
    early = await signoff.prices(services, who, request)
    done = await signoff.sign_off(services, who, request, sent_at=pressed_at,
                                  actor=query.from_user.id, correction=False, early=early)
    return Answer(toast=Toast(signed_off_text(done, services.settings.timezone, for_self=True),
                              alert=True))


async def herinnering(update: Update, context: Context) -> None:
    words = [w.lower() for w in context.args or []]
    if words not in (["aan"], ["uit"]):
        await reply(update, context, texts.HERINNERING_USAGE)
        return
    who = await member(update, context)
    if who is None:
        return
    assert update.effective_user is not None
    await members.set_reminder(context.services, who, words == ["aan"],
                               actor=update.effective_user.id)
    await reply(update, context,
                texts.HERINNERING_ON if words == ["aan"] else texts.HERINNERING_OFF)


def register(app: App) -> None:
    app.add_handler(command("afmelden", afmelden, opens_transaction=True))
    app.add_handler(command("aanmelden", aanmelden))
    app.add_handler(command("herinnering", herinnering))
    app.add_handler(button((Attendance,), attendance_button, opens_transaction=True))
