"""/indeling: the pairing. Arbiters draft (maak), adjust (bye, ruil, opnieuw, wis) and
publish (bevestig); publishing posts it in the club group and sends each player his game."""

from __future__ import annotations

from dataclasses import replace

from telegram import Update
from telegram.ext import Application

from bot import messages, tables, texts
from bot.chat import esc, reply
from bot.flows import rounds as flows
from bot.handlers.common import arbiter_only, command, find_member, is_arbiter
from bot.services import Context, open_round, published_round
from core.pairing import Board, before_pairing
from core.pairing.request import NO_FIXES, present_in
from storage import rounds
from storage.club import ScheduledRound
from storage.rounds import RoundState
from storage.seasons import load_season


async def render(context: Context, stored: tables.PairingView, *, when: str = "") -> str:
    return await messages.pairing(await load_season(context.services.db), stored, when=when)


async def indeling(update: Update, context: Context) -> None:
    args = [a.lower() for a in context.args or []]
    actions = {"maak": make, "opnieuw": make, "bevestig": publish, "bye": bye, "ruil": swap,
               "wis": clear}
    if args:
        action = actions.get(args[0])
        if action is None:
            await reply(update, context, texts.INDELING_USAGE)
            return
        await arbiter_only(action)(update, context)
        return
    upcoming = await open_round(context.services)
    if upcoming is not None and upcoming.state is RoundState.DRAFTED \
            and await is_arbiter(update, context):
        stored = await rounds.stored_pairing(context.services.db, upcoming.number)
        if stored is not None:
            await reply(update, context,
                        texts.INDELING_DRAFT_TITLE + "\n" + await render(context, stored))
            return
    number = await published_round(context.services)
    stored = None if number is None else await rounds.stored_pairing(context.services.db, number)
    if stored is None:
        await reply(update, context, texts.INDELING_NONE)
        return
    await reply(update, context, await render(context, stored))


async def _open_round(update: Update, context: Context) -> ScheduledRound | None:
    """The round not yet published, or a reply that there is none."""
    upcoming = await open_round(context.services)
    if upcoming is None:
        await reply(update, context, texts.NO_OPEN_ROUND)
    return upcoming


async def make(update: Update, context: Context) -> None:
    upcoming = await _open_round(update, context)
    if upcoming is None:
        return
    assert update.effective_user is not None
    made = await flows.draft(context.services, upcoming.number, actor=update.effective_user.id)
    await reply(update, context, await flows.draft_text(context.services, made,
                                                        texts.INDELING_DRAFT_TITLE))


async def clear(update: Update, context: Context) -> None:
    """Forget every fix the arbiter made for the open round (the next draft is free)."""
    upcoming = await _open_round(update, context)
    if upcoming is None:
        return
    assert update.effective_user is not None
    if await rounds.fixes(context.services.db, upcoming.number) == NO_FIXES:
        await reply(update, context, texts.NO_FIXES_TO_CLEAR.format(round=upcoming.number))
        return
    await rounds.set_fixes(context.services.db, upcoming.number, NO_FIXES,
                           actor=update.effective_user.id)
    await reply(update, context, texts.FIXES_CLEARED.format(round=upcoming.number))


async def swap(update: Update, context: Context) -> None:
    """A and B change places in the draft; those boards stay fixed when re-pairing."""
    upcoming = await open_round(context.services)
    names = " ".join((context.args or [])[1:])
    parts = names.split(" en ") if " en " in names else (context.args or [])[1:3]
    if upcoming is None or len(parts) != 2:
        await reply(update, context, texts.INDELING_USAGE)
        return
    a, b = [await find_member(update, context, p) for p in parts]
    stored = await rounds.stored_pairing(context.services.db, upcoming.number)
    if a is None or b is None:
        return
    if stored is None:
        await reply(update, context, texts.NO_DRAFT_YET)
        return
    swap_codes = {a.code: b.code, b.code: a.code}
    boards = tuple(Board(x.number, swap_codes.get(x.white, x.white),
                         swap_codes.get(x.black, x.black)) for x in stored.boards)
    bye_player = swap_codes.get(stored.bye, stored.bye) if stored.bye else None
    moved = {a.code, b.code}
    fixed = tuple((x.white, x.black) for x in boards if {x.white, x.black} & moved)
    assert update.effective_user is not None
    hand = await rounds.fixes(context.services.db, upcoming.number)
    # A board fixed earlier for either player is replaced, not added to (a swap undone
    # must not leave two boards for one player).
    touched = {p for board in fixed for p in board}
    kept = tuple(x for x in hand.boards if not set(x) & touched)
    await rounds.set_fixes(context.services.db, upcoming.number,
                           replace(hand, boards=kept + fixed,
                                   bye=None if hand.bye in touched else hand.bye),
                           actor=update.effective_user.id)
    await rounds.replace_boards(context.services.db, upcoming.number, boards, bye_player,
                                actor=update.effective_user.id)
    updated = await rounds.stored_pairing(context.services.db, upcoming.number)
    assert updated is not None
    await reply(update, context, texts.INDELING_DRAFT_TITLE + "\n" + await render(context, updated))


async def bye(update: Update, context: Context) -> None:
    """A volunteer for the bye; the round is paired again around him."""
    upcoming = await open_round(context.services)
    name = " ".join((context.args or [])[1:])
    if upcoming is None or not name:
        await reply(update, context, texts.INDELING_USAGE)
        return
    who = await find_member(update, context, name)
    if who is None:
        return
    season = before_pairing(await load_season(context.services.db), upcoming.number)
    playing = present_in(season, upcoming.number)
    if who.code not in playing:
        await reply(update, context, texts.BYE_NOT_PLAYING.format(name=esc(who.name)))
        return
    if len(playing) % 2 == 0:
        await reply(update, context, texts.BYE_EVEN.format(count=len(playing)))
        return
    assert update.effective_user is not None
    hand = await rounds.fixes(context.services.db, upcoming.number)
    await rounds.set_fixes(context.services.db, upcoming.number, replace(hand, bye=who.code),
                           actor=update.effective_user.id)
    await make(update, context)


async def publish(update: Update, context: Context) -> None:
    assert update.effective_user is not None
    done = await flows.publish(context.services, actor=update.effective_user.id)
    note = texts.PUBLISHED.format(round=done.round, count=done.players)
    if done.unlinked:
        note += "\n" + texts.PUBLISH_UNLINKED.format(names=", ".join(esc(n)
                                                                    for n in done.unlinked))
    await reply(update, context, note)


def register(app: Application) -> None:  # type: ignore[type-arg]
    app.add_handler(command("indeling", indeling))
