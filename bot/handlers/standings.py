"""/stand (the standings; top part in the group), /stand mij (my points round by round),
/mijn (my sign-offs and my next game)."""

from __future__ import annotations

import asyncio

from telegram import Update
from telegram.constants import ChatType
from telegram.error import Forbidden

from bot import announce, messages, texts
from bot.chat import esc, reply, split
from bot.flows import views
from bot.handlers.common import command, member
from bot.services import App, Context
from core.numbers import format_number
from core.rules import Titles
from core.season import Season
from core.standings import compute_standings
from core.titles import period_groups, subgroups


async def stand(update: Update, context: Context) -> None:
    view = (context.args or [""])[0].lower()
    if view == "vorig":
        await _previous(update, context)
        return
    if view in VIEWS:  # groups exist from the initial ranking on
        await VIEWS[view](update, context, await views.season(context.services))
        return
    shown = await views.standings(context.services)
    if shown.after_round == 0:
        await reply(update, context, texts.STAND_EMPTY)
        return
    if view == "mij":
        who = await member(update, context)
        if who is None:
            return
        mine = await views.breakdown(context.services, who.code)
        if mine.table is None:  # joined after the last complete round
            await reply(update, context, texts.STAND_NOT_YET.format(round=mine.joined))
            return
        await personal(update, context, f"<pre>{esc(mine.table)}</pre>")
        return
    chat = update.effective_chat
    private = chat is None or chat.type == ChatType.PRIVATE
    button = await views.page_button(context.services, private=private)
    if not private:
        await reply(update, context, shown.group + "\n" + texts.STAND_GROUP_MORE, markup=button)
    else:
        await reply(update, context, shown.full, markup=button)


async def _previous(update: Update, context: Context) -> None:
    """The final standings of the season before this one."""
    season = await views.previous_season(context.services)
    if season is None:
        await reply(update, context, texts.STAND_NO_PREVIOUS)
        return
    final = await asyncio.to_thread(compute_standings, season)
    await reply(update, context, texts.STAND_PREVIOUS.format(season=esc(season.name)) + "\n"
                + messages.standings_table(final, season.rules.display_decimals))


async def periode(update: Update, context: Context, season: Season) -> None:
    if season.rules.titles is not Titles.PERIOD_GROUPS:
        await reply(update, context, texts.NO_PERIOD_GROUPS)
        return
    current = season.rules.period_of(min(season.complete_rounds + 1,
                                         season.rules.planned_rounds))
    await reply(update, context, announce.period_tables(season, period_groups(season, current)))


async def groep(update: Update, context: Context, season: Season) -> None:
    if season.rules.titles is not Titles.SUBGROUPS:
        await reply(update, context, texts.NO_SUBGROUPS)
        return
    await reply(update, context, announce.subgroup_tables(season, subgroups(season)))


async def kruistabel(update: Update, context: Context, season: Season) -> None:
    """Too wide for a chat: sent as a web page that scrolls sideways on a phone."""
    chat = update.effective_chat
    assert chat is not None
    from bot.web.pages import Site

    page = await asyncio.to_thread(lambda: Site(season).crosstable())
    await context.bot.send_document(chat.id, page.encode(), filename="kruistabel.html",
                                    caption=texts.CROSSTABLE_CAPTION.format(
                                        round=season.complete_rounds))


VIEWS = {"periode": periode, "groep": groep, "kruistabel": kruistabel}


async def mijn(update: Update, context: Context) -> None:
    who = await member(update, context)
    if who is None:
        return
    mine = await views.mine(context.services, who)
    lines = []
    if mine.place is not None:
        lines.append(texts.MIJN.format(
            name=esc(who.name), rank=mine.place.rank, value=format_number(mine.place.value, 0),
            score=format_number(mine.place.score, mine.decimals, comma=True)))
    lines.append(texts.MIJN_SIGNOFFS.format(rounds=", ".join(map(str, mine.signed_off)))
                 if mine.signed_off else texts.MIJN_NO_SIGNOFFS)
    for game in mine.games:
        lines.append(texts.MIJN_GAME.format(
            round=game.round, board=game.board,
            colour=texts.COLOURS_WORD["white" if game.white else "black"],
            opponent=esc(game.opponent), result="" if game.result is None else f" ({game.result})"))
    if mine.bye_round is not None:
        lines.append(texts.MIJN_BYE.format(round=mine.bye_round))
    await personal(update, context, "\n".join(lines))


async def personal(update: Update, context: Context, text: str) -> None:
    """Personal details go to the private chat, also when asked for in the group."""
    chat, user = update.effective_chat, update.effective_user
    if chat is None or user is None or chat.type == ChatType.PRIVATE:
        await reply(update, context, text)
        return
    # Sent at once, not owed: the answer in the group depends on whether it arrived, and a
    # question can be asked again.
    try:
        for piece in split(text):
            await context.bot.send_message(user.id, piece)
    except Forbidden:
        await reply(update, context, texts.START_PRIVATE_FIRST)
        return
    await reply(update, context, texts.SENT_PRIVATELY)


def register(app: App) -> None:
    app.add_handler(command("stand", stand, reads_only=True))
    app.add_handler(command("mijn", mijn, reads_only=True))
