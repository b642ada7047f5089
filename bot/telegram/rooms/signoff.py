"""/afmelden and /aanmelden: members sign off (or undo it); arbiters on a member's behalf."""

from __future__ import annotations

import asyncio
import datetime as dt
from dataclasses import dataclass

from telegram import CallbackQuery, Update

from bot.callbacks import Attendance, Here
from bot.flows import checkin, members, signoff
from bot.language import phrases
from bot.language.notice import Dated, Lines, Text, lines
from bot.language.vocabulary import OFF, ON, key
from bot.services import Context, ScheduledRound, first_open, schedule
from bot.telegram.answer import Answer, Refused, Toast, Write
from bot.telegram.grammar import Choice, Command, Rest, form, maybe
from bot.telegram.room import Room, button, is_arbiter
from bot.telegram.rooms.common import member
from core.season import AbsenceReason, ExternalDay


async def _target(update: Update, context: Context, words: list[str],
                  arbiter: bool) -> tuple[members.Member, list[str]]:
    """Who signs off: an arbiter may name a member first; a member only himself (naming
    someone else is refused, not read as his reason)."""
    named, rest = await members.named_first(context.services, words)
    if arbiter and named is not None:
        return named, rest
    me = await member(update, context)
    if named is None:
        return me, words
    if named.code != me.code:
        raise Refused(Text("ONLY_YOURSELF", {"name": named.name}))
    return me, rest


@dataclass(frozen=True, slots=True)
class _Read:
    """Which rounds the words of a sign-off or sign-on name, and what they were read on."""

    parsed: phrases.Request
    planned: list[ScheduledRound]
    upcoming: ScheduledRound | None
    today: dt.date
    actor: int
    """Who sent the command."""
    sent_at: dt.datetime
    """When he sent it (what counts against a deadline, not when the bot read it)."""


async def _read(update: Update, context: Context,
                words: list[str]) -> tuple[bool, members.Member, _Read]:
    """Whether the sender is an arbiter, whom the command is for, and what its words say,
    read in the grammar of the language the command was typed in (off the event loop:
    dateparser takes a while)."""
    services = context.services
    arbiter = await is_arbiter(update, context)
    who, words = await _target(update, context, words, arbiter)
    today = services.clock().astimezone(services.settings.timezone).date()
    planned = await schedule(services)
    upcoming = first_open(planned)
    parsed = await asyncio.to_thread(phrases.parse, words, planned,
                                     None if upcoming is None else upcoming.number, today,
                                     phrases.ENGLISH if context.english else phrases.DUTCH)
    message, user = update.effective_message, update.effective_user
    assert message is not None and user is not None
    return arbiter, who, _Read(parsed, planned, upcoming, today, user.id, message.date)


async def afmelden(update: Update, context: Context, words: list[str]) -> Answer | Write:
    """Priced first from the season as committed, outside any transaction (a large season
    takes a while); then stored, and answered, in one."""
    services = context.services
    arbiter, who, read = await _read(update, context, words)
    parsed, upcoming = read.parsed, read.upcoming
    if parsed.problem:
        return Answer(lines(parsed.problem, Text("AFMELDEN_USAGE")))
    if parsed.reason in phrases.REQUESTED_BYES and not arbiter:
        return Answer(Text("REQUESTED_BYE_BY_ARBITER"))
    actor, sent_at = read.actor, read.sent_at
    if not parsed.rounds:
        if upcoming is None:
            return Answer(Text("SIGN_OFF_NO_ROUND") if who.telegram_id == actor
                          else Text("SIGN_OFF_NO_ROUND_FOR", {"name": who.name}))
        parsed.rounds = [upcoming.number]
    request = signoff.Request(tuple(parsed.rounds), parsed.reason, parsed.day, parsed.note)
    early = await signoff.prices(services, who, request)

    async def store() -> Answer:
        done = await signoff.sign_off(services, who, request, sent_at=sent_at, actor=actor,
                                      correction=arbiter and who.telegram_id != actor,
                                      early=early)
        return Answer(signoff.said(done, services.settings.timezone,
                                      for_self=who.telegram_id == actor))
    return Write(store)


async def aanmelden(update: Update, context: Context, words: list[str]) -> Answer:
    """A flexible member signs on (he plays only then); a fixed one takes a sign-off back.
    The rounds are named as for /afmelden."""
    services = context.services
    arbiter, who, read = await _read(update, context, words)
    parsed, upcoming = read.parsed, read.upcoming
    if parsed.problem or parsed.note:
        return Answer(parsed.problem
                      or Text("NOT_A_ROUND", {"text": parsed.note.split()[0]}))
    chosen = parsed.rounds or ([upcoming.number] if upcoming else [])
    if not chosen:
        return Answer(Text("NO_OPEN_ROUND"))
    actor, sent_at = read.actor, read.sent_at
    if not who.flexible:
        for number_ in chosen:
            await signoff.cancel(services, who, number_, sent_at=sent_at, actor=actor,
                                 correction=arbiter)
        return Answer(Lines(tuple(Text("AANMELDEN_DONE", {"round": n}) for n in chosen)))
    fresh = await signoff.sign_on(services, who, chosen, sent_at=sent_at, actor=actor,
                                  correction=arbiter)
    when = {r.number: r.date for r in read.planned}
    return Answer(Lines(tuple(
        Text("SIGNED_ON" if new else "SIGNED_ON_ALREADY",
             {"name": who.name, "round": n, "date": Dated(when.get(n), today=read.today)})
        for n, new in zip(chosen, fresh, strict=True))))


async def _pressed_by(update: Update,
                      context: Context) -> tuple[CallbackQuery, members.Member | None]:
    """The press, and the member who pressed (None: not linked)."""
    query = update.callback_query
    assert query is not None
    return query, await members.of_user(context.services, query.from_user.id)


def _link_first(context: Context) -> Answer:
    """A button under a group message pressed by someone not linked: sent to the bot."""
    return Answer(toast=Toast(Text("ATTEND_UNLINKED"),
                              url=f"https://t.me/{context.bot.username}?start=koppelen"))


async def attendance_button(update: Update, context: Context,
                            pressed: Attendance) -> Answer | Write:
    """Ik speel / Ik kan niet / Extern under a reminder: what the member answers for
    himself, said back in a toast only he sees. Who is not linked is sent to the bot. The
    price is worked out before the write, so the writer's lock is held only for storing."""
    services = context.services
    query, who = await _pressed_by(update, context)
    if who is None:
        return _link_first(context)
    pressed_at = services.clock()  # a press carries no time of its own
    if pressed.choice == "play":
        async def plays() -> Answer:
            await signoff.plays(services, who, pressed.round, sent_at=pressed_at,
                                actor=query.from_user.id)
            return Answer(toast=Toast(Text("ATTEND_PLAYING", {"round": pressed.round}),
                                      alert=True))
        return Write(plays)
    reason, day = (AbsenceReason.EXTERNAL, ExternalDay.CLUB_NIGHT) if pressed.choice == "ext" \
        else (AbsenceReason.NOTICE, None)
    request = signoff.Request((pressed.round,), reason, day, "")
    early = await signoff.prices(services, who, request)

    async def signs_off() -> Answer:
        done = await signoff.sign_off(services, who, request, sent_at=pressed_at,
                                      actor=query.from_user.id, correction=False, early=early)
        return Answer(toast=Toast(signoff.said(done, services.settings.timezone,
                                                  for_self=True), alert=True))
    return Write(signs_off)


async def here_button(update: Update, context: Context, pressed: Here) -> Answer:
    """Ik ben er, under the opening of a round paired at the venue: said back in a toast only
    he sees (the group stays quiet)."""
    services = context.services
    query, who = await _pressed_by(update, context)
    if who is None:
        return _link_first(context)
    came = await checkin.check_in(services, who, pressed.round, actor=query.from_user.id,
                                  by_arbiter=False)
    return Answer(toast=Toast(checkin.said_to_member(came)))


async def herinnering(update: Update, context: Context, on: bool) -> Answer:
    """`/herinnering aan|uit`: the reminder before each round's deadline, or none."""
    who = await member(update, context)
    assert update.effective_user is not None
    await members.set_reminder(context.services, who, on, actor=update.effective_user.id)
    return Answer(Text("HERINNERING_ON") if on else Text("HERINNERING_OFF"))


PHRASE = maybe(Rest("words", as_words=True), words=[])
"""What a sign-off says, read by the phrases of the language it was typed in."""

room = Room(commands=(
    Command(key("afmelden", "signoff"), (form(afmelden, PHRASE),), "AFMELDEN_USAGE",
            reads_first=True),
    Command(key("aanmelden", "signon"), (form(aanmelden, PHRASE),), "AFMELDEN_USAGE"),
    Command(key("herinnering", "reminder"),
            (form(herinnering, Choice("on", {ON: True, OFF: False})),), "HERINNERING_USAGE")),
    handlers=(button((Attendance,), attendance_button, reads_first=True, personal=True),
              button((Here,), here_button, personal=True)))
