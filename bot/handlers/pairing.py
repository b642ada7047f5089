"""/indeling: the pairing. Arbiters draft (maak), adjust (bye, ruil, opnieuw, wis) and
publish (bevestig); publishing posts it in the club group and sends each player his game."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from telegram import InlineKeyboardButton, InlineKeyboardMarkup, Update

from bot import texts
from bot.answer import Answer, Edit, Toast
from bot.callbacks import Swap
from bot.chat import esc, reply
from bot.flows import members, views
from bot.flows import rounds as flows
from bot.handlers.common import (
    actor,
    arbiter_only,
    atomically,
    button,
    command,
    find_member,
    is_arbiter,
)
from bot.services import App, Context, ScheduledRound, open_round


async def indeling(update: Update, context: Context) -> None:
    args = [a.lower() for a in context.args or []]
    actions = {"maak": make, "opnieuw": make, "bevestig": publish, "bye": bye, "ruil": swap,
               "wis": clear, "afwezig": absent, "erbij": arrived}
    if args:
        action = actions.get(args[0])
        if action is None:
            await reply(update, context, texts.INDELING_USAGE)
            return
        await arbiter_only(action)(update, context)
        return
    shown = await views.pairing_text(context.services, arbiter=await is_arbiter(update, context))
    await reply(update, context, texts.INDELING_NONE if shown is None else shown)


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
    made = await flows.draft(context.services, upcoming.number, actor=actor(update))
    await reply(update, context, await flows.draft_text(context.services, made,
                                                        texts.INDELING_DRAFT_TITLE))


async def clear(update: Update, context: Context) -> None:
    """Forget every fix the arbiter made for the open round (the next draft is free)."""
    upcoming = await _open_round(update, context)
    if upcoming is None:
        return
    cleared = await flows.clear_fixes(context.services, upcoming.number, actor=actor(update))
    await reply(update, context, (texts.FIXES_CLEARED if cleared else texts.NO_FIXES_TO_CLEAR)
                .format(round=upcoming.number))


async def swap(update: Update, context: Context) -> None:
    """A and B change places in the draft; those boards stay fixed when re-pairing."""
    upcoming = await open_round(context.services)
    words = " ".join((context.args or [])[1:]).replace(",", " , ").split()
    if upcoming is None or len(words) < 2:
        await reply(update, context, texts.INDELING_USAGE)
        return
    two = await _two_members(update, context, words)
    if two is None:
        return
    a, b = two
    made = await flows.swap(context.services, upcoming.number, a.code, b.code,
                            actor=actor(update))
    await reply(update, context, texts.NO_DRAFT_YET if made is None else
                await flows.draft_text(context.services, made, texts.INDELING_DRAFT_TITLE))


async def _two_members(update: Update, context: Context,
                       words: list[str]) -> tuple[members.Member, members.Member] | None:
    """Two members from `A en B`, `A, B` or `A B`: with a separator, its two sides; without,
    the one way to split the words into two names that each fit one member."""
    lowered = [w.lower() for w in words]
    cut = next((k for k, w in enumerate(lowered) if w in (",", "en")), None)
    if cut is not None:
        sides = [" ".join(words[:cut]), " ".join(words[cut + 1:])]
        left, right = [await members.matching(context.services, side) for side in sides]
        if (len(left) == 1 and len(right) > 1) or (len(right) == 1 and len(left) > 1):
            await _which(update, context, *((left[0], right, sides[1]) if len(left) == 1
                                             else (right[0], left, sides[0])))
            return None
        a = await find_member(update, context, sides[0])
        b = None if a is None else await find_member(update, context, sides[1])
        found = None if a is None or b is None else (a, b)
    else:
        splits = []
        for k in range(1, len(words)):
            left = await members.matching(context.services, " ".join(words[:k]))
            right = await members.matching(context.services, " ".join(words[k:]))
            if len(left) == 1 and len(right) == 1:
                splits.append((left[0], right[0]))
        found = splits[0] if len(splits) == 1 else None
        if found is None:
            await reply(update, context, texts.SWAP_WHO.format(text=esc(" ".join(words))))
            return None
    if found is not None and found[0].code == found[1].code:
        await reply(update, context, texts.SWAP_SAME.format(name=esc(found[0].name)))
        return None
    return found


async def _which(update: Update, context: Context, known: members.Member,
                 candidates: list[members.Member], typed: str) -> None:
    """One name is clear, the other fits several members: ask which, with a button each."""
    buttons = [[InlineKeyboardButton(texts.SWAP_WITH.format(a=known.name, b=m.name),
                                     callback_data=Swap(members.key_of(known),
                                                        members.key_of(m)).pack())]
               for m in candidates[:8]]
    await reply(update, context, texts.SWAP_WHICH.format(name=esc(typed)),
                markup=InlineKeyboardMarkup(buttons))


async def swap_button(update: Update, context: Context, pressed: Swap) -> Answer:
    """The arbiter chose whom `_which` meant: swap those two, and show the draft."""
    query = update.callback_query
    assert query is not None
    if not await is_arbiter(update, context):
        return Answer(toast=Toast(texts.ONLY_ARBITER, alert=True))
    a = await members.by_key(context.services, pressed.first)
    b = await members.by_key(context.services, pressed.second)
    upcoming = await open_round(context.services)
    if a is None or b is None or upcoming is None:
        return Answer(toast=Toast(texts.BUTTON_STALE))
    made = await flows.swap(context.services, upcoming.number, a.code, b.code,
                            actor=query.from_user.id)
    return Answer(edit=Edit(texts.NO_DRAFT_YET if made is None else
                            await flows.draft_text(context.services, made,
                                                   texts.INDELING_DRAFT_TITLE)))


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
    done = await flows.volunteer_bye(context.services, upcoming.number, who.code,
                                     actor=actor(update))
    if not done.plays:
        await reply(update, context, texts.BYE_NOT_PLAYING.format(name=esc(who.name)))
    elif done.made is None:
        await reply(update, context, texts.BYE_EVEN.format(count=done.present))
    else:
        await reply(update, context, await flows.draft_text(context.services, done.made,
                                                            texts.INDELING_DRAFT_TITLE))


async def publish(update: Update, context: Context) -> None:
    done = await flows.publish(context.services, actor=actor(update))
    note = texts.PUBLISHED.format(round=done.round, count=done.players)
    if done.unlinked:
        note += "\n" + texts.PUBLISH_UNLINKED.format(names=", ".join(esc(n)
                                                                    for n in done.unlinked))
    await reply(update, context, note)


async def absent(update: Update, context: Context) -> None:
    """`/indeling afwezig NAAM`: he did not come to his board."""
    await _at_the_board(update, context, flows.absent_at_board)


async def arrived(update: Update, context: Context) -> None:
    """`/indeling erbij NAAM`: he came after all."""
    await _at_the_board(update, context, flows.arrived)


async def _at_the_board(update: Update, context: Context,
                        change: Callable[..., Awaitable[flows.NightChange]]) -> None:
    name = " ".join((context.args or [])[1:])
    if not name:
        await reply(update, context, texts.INDELING_USAGE)
        return
    who = await find_member(update, context, name)
    if who is None:
        return
    async with atomically(context):
        done = await change(context.services, who.code, actor=actor(update))
        await reply(update, context, await flows.night_text(context.services, done))


def register(app: App) -> None:
    app.add_handler(command("indeling", indeling))
    app.add_handler(button((Swap,), swap_button))
