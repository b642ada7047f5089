"""The round's flows: draft (at the deadline, or by hand), publish, and the deadline run."""

from __future__ import annotations

import asyncio
import datetime as dt
import logging
from dataclasses import dataclass, replace

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from bot import messages, texts
from bot.chat import esc, owe_to_arbiters, send, show_date, show_moment
from bot.services import Services, due_rounds, round_start
from bot.tables import PairingView
from core.errors import InvalidInputError
from core.pairing import Board, Fixes, PairingImpossibleError, before_pairing
from core.pairing.request import NO_FIXES, fitting_fixes, present_in, request_for_round
from core.season import AbsenceReason
from storage import attendance, club, rounds
from storage.errors import InputStoreError, StoreProblem
from storage.rounds import RoundState
from storage.seasons import has_season, load_season

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Draft:
    pairing: PairingView
    dropped: Fixes
    """The arbiter's fixes that no longer fit who is present, and were let go."""


async def draft(services: Services, number: int, *, actor: int | None) -> Draft:
    """Lock attendance (if still open) and pair the round with the arbiter's fixes that still
    fit; the others are dropped and reported, so a changed attendance never leaves the round
    unpairable."""
    db = services.db
    async with db.transaction():
        # Loaded while still planned, it holds the flexible members who did not sign on as
        # absent; locking records them so.
        loaded = await load_season(db)
        if await rounds.advance(db, number, RoundState.PLANNED, RoundState.LOCKED,
                                actor=actor):
            await attendance.record_unannounced(
                db, number, AbsenceReason(loaded.rules.flexible_absent.value), actor=actor)
        season = before_pairing(loaded, number)
        kept, dropped = fitting_fixes(await rounds.fixes(db, number), present_in(season, number))
        if dropped != NO_FIXES:
            await rounds.set_fixes(db, number, kept, actor=actor)
        request = request_for_round(season, number, kept)
        # numpy and rustworkx load at the first pairing, not at every start of the bot.
        from core.pairing.engine import pair

        pairing = await asyncio.to_thread(pair, request)
        await rounds.save_pairing(db, pairing, actor=actor)
    return Draft(pairing, dropped)


async def draft_text(services: Services, made: Draft, title: str) -> str:
    """The draft as the arbiter sees it: the title, the boards, and any fix let go."""
    text = title + "\n" + await messages.pairing(await load_season(services.db), made.pairing)
    if made.dropped != NO_FIXES:
        names = {m.code: m.name for m in await club.members(services.db)}
        text += "\n\n" + texts.FIXES_DROPPED.format(fixes=texts.fixes_words(made.dropped, names))
    return text


async def redraft(services: Services, number: int) -> None:
    """An on-time sign-off read after the round was drafted: pair again, show the arbiter."""
    made = await draft(services, number, actor=None)
    await owe_to_arbiters(services, await draft_text(
        services, made, texts.DRAFT_UPDATED.format(round=number)))


async def clear_fixes(services: Services, number: int, *, actor: int) -> bool:
    """Forget every fix the arbiter made for the round (the next draft is free); False if
    there were none."""
    db = services.db
    async with db.transaction():
        if await rounds.fixes(db, number) == NO_FIXES:
            return False
        await rounds.set_fixes(db, number, NO_FIXES, actor=actor)
    return True


async def swap(services: Services, number: int, a: str, b: str, *,
               actor: int) -> Draft | None:
    """Players `a` and `b` change places in the draft, and those boards stay fixed when the
    round is paired again; None if there is no draft yet."""
    db = services.db
    async with db.transaction():
        stored = await rounds.stored_pairing(db, number)
        if stored is None:
            return None
        drafted = {p for x in stored.boards for p in (x.white, x.black)} | {stored.bye}
        for code in (a, b):
            if code not in drafted:
                raise InputStoreError(StoreProblem.NOT_IN_DRAFT, player=code, round=number)
        codes = {a: b, b: a}
        boards = tuple(Board(x.number, codes.get(x.white, x.white), codes.get(x.black, x.black))
                       for x in stored.boards)
        bye = codes.get(stored.bye, stored.bye) if stored.bye else None
        fixed = tuple((x.white, x.black) for x in boards if {x.white, x.black} & {a, b})
        hand = await rounds.fixes(db, number)
        # A board fixed earlier for either player is replaced, not added to (a swap undone
        # must not leave two boards for one player).
        touched = {p for board in fixed for p in board}
        kept = tuple(x for x in hand.boards if not set(x) & touched)
        await rounds.set_fixes(db, number, replace(hand, boards=kept + fixed,
                                                   bye=None if hand.bye in touched else hand.bye),
                               actor=actor)
        await rounds.replace_boards(db, number, boards, bye, actor=actor)
        updated = await rounds.stored_pairing(db, number)
    assert updated is not None
    return Draft(updated, NO_FIXES)


@dataclass(frozen=True, slots=True)
class Volunteer:
    present: int
    """Players present in the round."""
    plays: bool
    """The volunteer is one of them."""
    made: Draft | None
    """The round paired again around his bye; None if it could not be his (he does not
    play, or the number present is even)."""


async def volunteer_bye(services: Services, number: int, code: str, *,
                        actor: int) -> Volunteer:
    """A volunteer for the bye: fixed, and the round paired again around him."""
    db = services.db
    async with db.transaction():
        playing = present_in(before_pairing(await load_season(db), number), number)
        if code not in playing or len(playing) % 2 == 0:
            return Volunteer(len(playing), code in playing, None)
        hand = await rounds.fixes(db, number)
        await rounds.set_fixes(db, number, replace(hand, bye=code), actor=actor)
        return Volunteer(len(playing), True, await draft(services, number, actor=actor))


async def at_deadline(services: Services, number: int) -> bool:
    """Claim the round's deadline, pair it and owe the draft to the arbiters: one transaction,
    so a crash leaves either nothing done (done again at restart) or all of it. False if
    another tick or process had it already."""
    db = services.db
    async with db.transaction():  # BEGIN IMMEDIATE: the state read below cannot go stale
        if await rounds.state(db, number) not in (RoundState.PLANNED, RoundState.LOCKED):
            return False
        made = await draft(services, number, actor=None)
        await owe_to_arbiters(services, await draft_text(
            services, made, texts.DRAFT_TO_ARBITER.format(round=number) + "\n"
            + texts.INDELING_DRAFT_TITLE))
    log.info("round %d locked and drafted at its deadline", number)
    return True


async def tick(services: Services) -> None:
    """Deadlines that passed, and reminders that are due. Each round on its own: one that
    cannot be paired is told to the arbiters (once an hour) and the others go on."""
    if not await has_season(services.db):
        return  # nothing to do before a season is loaded; that is not an error
    for number in await due_rounds(services):
        try:
            await at_deadline(services, number)
        except (PairingImpossibleError, InvalidInputError, InputStoreError) as exc:
            log.warning("round %d could not be paired at its deadline: %s", number, exc)
            if services.throttle.first(f"deadline:{number}"):
                await owe_to_arbiters(services, texts.DEADLINE_FAILED.format(round=number))
    await remind(services)


async def remind(services: Services) -> None:
    """Once per round, when its reminder is due: the group, and in private the members who
    asked for it; each with the buttons to answer in one tap."""
    settings = await club.settings(services.db)
    now, zone = services.clock(), services.settings.timezone
    for rnd in await club.schedule(services.db):
        if rnd.state is not RoundState.PLANNED or rnd.date is None or rnd.deadline is None:
            continue
        start = round_start(rnd.date, settings, zone)
        if not start - dt.timedelta(minutes=settings.reminder_minutes) <= now < rnd.deadline:
            continue
        async with services.db.transaction():
            if not await club.mark_reminded(services.db, rnd.number):
                continue
            facts = {"round": rnd.number, "date": show_date(rnd.date),
                     "deadline": show_moment(rnd.deadline, zone)}
            buttons = attendance_buttons(rnd.number)
            if settings.group_chat_id is not None:
                await send(services, settings.group_chat_id, texts.REMINDER.format(**facts),
                           markup=buttons, thread_id=settings.group_thread_id,
                           about=texts.THE_GROUP)
            for member in await club.reminded(services.db, rnd.number):
                assert member.telegram_id is not None
                text = texts.REMINDER_FLEXIBLE if member.flexible else texts.REMINDER_PRIVATE
                await send(services, member.telegram_id, text.format(**facts), markup=buttons,
                           about=esc(member.name))


def attendance_buttons(number: int) -> InlineKeyboardMarkup:
    """Ik speel / Ik kan niet / Extern, for round `number`."""
    return InlineKeyboardMarkup([[
        InlineKeyboardButton(label, callback_data=f"att:v1:{number}:{choice}")
        for choice, label in texts.ATTENDANCE_BUTTONS.items()]])


def result_buttons(number: int) -> InlineKeyboardMarkup:
    """1-0, ½-½, 0-1 (white first) under a player's own pairing message."""
    return InlineKeyboardMarkup([[
        InlineKeyboardButton(label, callback_data=f"uit:v1:{number}:{value}")
        for label, value in texts.RESULT_BUTTONS]])


@dataclass(frozen=True, slots=True)
class Published:
    round: int
    players: int
    """Players who will get their game privately."""
    unlinked: tuple[str, ...]
    """Names of players the bot cannot reach (not linked to Telegram)."""


async def publish(services: Services, *, actor: int) -> Published:
    """Publish the open round's draft: the round moves to published, and in the same
    transaction the pairing is owed to the club group and each player his own game."""
    db = services.db
    async with db.transaction():
        upcoming = next((r for r in await club.schedule(db) if r.state in rounds.OPEN), None)
        if upcoming is None or upcoming.state is not RoundState.DRAFTED:
            raise InputStoreError(StoreProblem.NO_DRAFT)
        settings = await club.settings(db)
        if settings.group_chat_id is None:
            raise InputStoreError(StoreProblem.NO_GROUP)
        stored = await rounds.stored_pairing(db, upcoming.number)
        if stored is None or not await rounds.advance(
                db, upcoming.number, RoundState.DRAFTED, RoundState.PUBLISHED, actor=actor):
            raise InputStoreError(StoreProblem.NO_DRAFT)
        number, when = upcoming.number, show_date(upcoming.date)
        season = await load_season(db)  # once: a large season takes a while to read
        await send(services, settings.group_chat_id,
                   await messages.pairing(season, stored, when=when),
                   thread_id=settings.group_thread_id, about=texts.THE_GROUP,
                   round_no=number, kind="pairing")
        everyone = {m.code: m for m in await club.members(db)}
        personal: list[tuple[str, str]] = []
        for board in stored.boards:
            for me, other, colour in ((board.white, board.black, "white"),
                                      (board.black, board.white, "black")):
                personal.append((me, texts.PERSONAL_PAIRING.format(
                    round=number, date=when, colour=texts.COLOURS_WORD[colour],
                    opponent=esc(everyone[other].name), board=board.number,
                    tempo=texts.TEMPO_YOUTH if season.player(me).youth else texts.TEMPO)))
        if stored.bye is not None:
            personal.append((stored.bye, texts.PERSONAL_BYE.format(round=number, date=when)))
        unlinked = []
        playing = {code for board in stored.boards for code in (board.white, board.black)}
        for code, text in personal:
            who = everyone[code]
            if who.telegram_id is None:
                unlinked.append(who.name)
                continue
            await send(services, who.telegram_id, text, about=esc(who.name), round_no=number,
                       kind="personal", player=code,
                       markup=result_buttons(number) if code in playing else None)
    return Published(number, len(personal) - len(unlinked), tuple(unlinked))
