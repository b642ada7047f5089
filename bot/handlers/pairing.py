"""/indeling: the pairing. Arbiters draft (maak), adjust (bye, ruil, opnieuw) and publish
(bevestig); publishing posts it in the club group and sends each player his game."""

from __future__ import annotations

from dataclasses import replace

from telegram import Update
from telegram.ext import Application

from bot import tables, texts
from bot.handlers.common import (
    arbiter_only,
    command,
    esc,
    find_member,
    is_arbiter,
    reply,
    send,
    show_date,
)
from bot.services import Context, draft, open_round, published_round
from core.pairing import Board
from core.pairing.request import pairing_ranking
from storage import club, rounds
from storage.seasons import load_season


async def render(context: Context, stored: tables.PairingView, *, when: str = "") -> str:
    """The pairing as a chat message: a bold title, then one line per board."""
    season = await load_season(context.services.db)
    title = texts.PAIRING_TITLE.format(round=stored.round) + (f" ({when})" if when else "")
    lines = tables.pairing_lines(stored, season, pairing_ranking(season, stored.round))
    return f"<b>{title}</b>\n{lines}"


async def indeling(update: Update, context: Context) -> None:
    args = [a.lower() for a in context.args or []]
    actions = {"maak": make, "opnieuw": make, "bevestig": publish, "bye": bye, "ruil": swap}
    if args:
        action = actions.get(args[0])
        if action is None:
            await reply(update, texts.INDELING_USAGE)
            return
        await arbiter_only(action)(update, context)
        return
    upcoming = await open_round(context.services)
    if upcoming is not None and upcoming.state == "drafted" and await is_arbiter(update, context):
        stored = await rounds.stored_pairing(context.services.db, upcoming.number)
        if stored is not None:
            await reply(update, texts.INDELING_DRAFT_TITLE + "\n" + await render(context, stored))
            return
    number = await published_round(context.services)
    stored = None if number is None else await rounds.stored_pairing(context.services.db, number)
    if stored is None:
        await reply(update, texts.INDELING_NONE)
        return
    await reply(update, await render(context, stored))


async def make(update: Update, context: Context) -> None:
    upcoming = await open_round(context.services)
    if upcoming is None:
        await reply(update, texts.NO_OPEN_ROUND)
        return
    assert update.effective_user is not None
    pairing = await draft(context.services, upcoming.number, actor=update.effective_user.id)
    await reply(update, texts.INDELING_DRAFT_TITLE + "\n" + await render(context, pairing))


async def swap(update: Update, context: Context) -> None:
    """A and B change places in the draft; those boards stay fixed when re-pairing."""
    upcoming = await open_round(context.services)
    names = " ".join((context.args or [])[1:])
    parts = names.split(" en ") if " en " in names else (context.args or [])[1:3]
    if upcoming is None or len(parts) != 2:
        await reply(update, texts.INDELING_USAGE)
        return
    a, b = [await find_member(update, context, p) for p in parts]
    stored = await rounds.stored_pairing(context.services.db, upcoming.number)
    if a is None or b is None or stored is None:
        return
    swap_codes = {a.code: b.code, b.code: a.code}
    boards = tuple(Board(x.number, swap_codes.get(x.white, x.white),
                         swap_codes.get(x.black, x.black)) for x in stored.boards)
    bye_player = swap_codes.get(stored.bye, stored.bye) if stored.bye else None
    fixed = tuple((x.white, x.black) for x in boards if {x.white, x.black} & {a.code, b.code})
    assert update.effective_user is not None
    hand = await rounds.fixes(context.services.db, upcoming.number)
    await rounds.set_fixes(context.services.db, upcoming.number,
                           replace(hand, boards=hand.boards + fixed),
                           actor=update.effective_user.id)
    await rounds.replace_boards(context.services.db, upcoming.number, boards, bye_player,
                                actor=update.effective_user.id)
    updated = await rounds.stored_pairing(context.services.db, upcoming.number)
    assert updated is not None
    await reply(update, texts.INDELING_DRAFT_TITLE + "\n" + await render(context, updated))


async def bye(update: Update, context: Context) -> None:
    """A volunteer for the bye; the round is paired again around him."""
    upcoming = await open_round(context.services)
    name = " ".join((context.args or [])[1:])
    if upcoming is None or not name:
        await reply(update, texts.INDELING_USAGE)
        return
    who = await find_member(update, context, name)
    if who is None:
        return
    assert update.effective_user is not None
    hand = await rounds.fixes(context.services.db, upcoming.number)
    await rounds.set_fixes(context.services.db, upcoming.number, replace(hand, bye=who.code),
                           actor=update.effective_user.id)
    await make(update, context)


async def publish(update: Update, context: Context) -> None:
    upcoming = await open_round(context.services)
    stored = None if upcoming is None else \
        await rounds.stored_pairing(context.services.db, upcoming.number)
    if upcoming is None or stored is None or upcoming.state != "drafted":
        await reply(update, texts.NO_DRAFT)
        return
    settings = await club.settings(context.services.db)
    if settings.group_chat_id is None:
        await reply(update, texts.NO_GROUP)
        return
    assert update.effective_user is not None
    if not await rounds.set_state(context.services.db, upcoming.number,
                                  rounds.RoundState.PUBLISHED, actor=update.effective_user.id,
                                  expect=(rounds.RoundState.DRAFTED,)):
        await reply(update, texts.NO_DRAFT)
        return
    text = await render(context, stored, when=show_date(upcoming.date))
    posted = await send(context, settings.group_chat_id, text, thread_id=settings.group_thread_id)
    if posted is not None:
        await club.remember_message(context.services.db, upcoming.number, "pairing",
                                    posted.chat_id, posted.message_id)
    season = await load_season(context.services.db)
    everyone = {m.code: m for m in await club.members(context.services.db)}
    missed: list[str] = []
    reached = 0
    for board in stored.boards:
        for me, other, colour in ((board.white, board.black, "white"),
                                  (board.black, board.white, "black")):
            text = texts.PERSONAL_PAIRING.format(
                round=upcoming.number, date=show_date(upcoming.date),
                colour=texts.COLOURS_WORD[colour], opponent=esc(everyone[other].name),
                board=board.number,
                tempo=texts.TEMPO_YOUTH if season.player(me).youth else texts.TEMPO)
            reached += await _personal(context, everyone[me], upcoming.number, text, missed)
    if stored.bye is not None:
        reached += await _personal(context, everyone[stored.bye], upcoming.number,
                                   texts.PERSONAL_BYE.format(round=upcoming.number,
                                                             date=show_date(upcoming.date)),
                                   missed)
    note = texts.PUBLISHED.format(round=upcoming.number, count=reached)
    if missed:
        note += "\n" + texts.PUBLISH_FAILED.format(names=", ".join(esc(n) for n in missed))
    await reply(update, note)


async def _personal(context: Context, who: club.Member, number: int, text: str,
                    missed: list[str]) -> int:
    if who.telegram_id is None:
        missed.append(who.name)
        return 0
    sent = await send(context, who.telegram_id, text)
    if sent is None:
        missed.append(who.name)
        return 0
    await club.remember_message(context.services.db, number, "personal", sent.chat_id,
                                sent.message_id, who.code)
    return 1


def register(app: Application) -> None:  # type: ignore[type-arg]
    app.add_handler(command("indeling", indeling))
