"""/stand (the standings; top part in the group), /stand mij (my points round by round),
/mijn (my sign-offs and my next game)."""

from __future__ import annotations

import asyncio

from telegram import Update
from telegram.constants import ChatType

from bot.files import announce, messages
from bot.flows import members, teams, views
from bot.flows.members import Member
from bot.language.i18n import Words
from bot.language.notice import Lines, Number, Pre, Said, Text, lines, plain
from bot.language.vocabulary import ME, PREVIOUS, key
from bot.services import Context
from bot.telegram.answer import Answer, File
from bot.telegram.grammar import Choice, Command, form, spelled
from bot.telegram.room import Room, own_language
from bot.telegram.rooms.common import member
from core.numbers import format_number
from core.rules import Titles
from core.season import Season
from core.standings import compute_standings
from core.titles import period_groups, subgroups


async def stand(update: Update, context: Context, view: str = "") -> Answer:
    """`/stand [view]`: the standings (a word no view has shows them too)."""
    if view == "vorig":
        return await _previous(context)
    if view in VIEWS:  # groups exist from the initial ranking on
        return await VIEWS[view](await views.season(context.services), context.words)
    shown = await views.standings(context.services, context.language)
    if shown.after_round == 0:
        return Answer(Text("STAND_EMPTY"))
    if view == "kansen":
        return await _chances(update, context)
    if view == "mij":
        who = await member(update, context)
        language = await own_language(update, context)
        mine = await views.breakdown(context.services, who.code, language)
        if mine.table is None:  # joined after the last complete round
            return Answer(Text("STAND_NOT_YET", {"round": mine.joined}), language=language)
        return Answer(personal=Pre(mine.table))
    chat = update.effective_chat
    private = chat is None or chat.type == ChatType.PRIVATE
    button = await views.page_button(context.services, private=private)
    if not private:
        return Answer(lines(shown.group, Text("STAND_GROUP_MORE")), markup=button)
    if view != "alles" and len(shown.rows) > messages.SCREENFUL:
        # A table of dozens of messages holds up the asker and every other chat's answer.
        asker = None if update.effective_user is None else \
            await members.of_user(context.services, update.effective_user.id)
        row = None if asker is None else shown.places.get(asker.code)
        return Answer(lines(messages.standings_excerpt(
            context.words, shown.title, shown.rows, None if row is None else row.rank),
            Text("STAND_EXCERPT_MORE", {"top": messages.EXCERPT_TOP, "count": len(shown.rows),
                                        "command": spelled(context.english, STANDINGS, ALL)})),
            markup=button)
    return Answer(shown.full, markup=button)


async def _chances(update: Update, context: Context) -> Answer:
    """`/stand kansen`: what is at stake, for the table's top and for the asker."""
    services = context.services
    chat = update.effective_chat
    private = chat is None or chat.type == ChatType.PRIVATE
    # His own chances are his: in the group only the table's.
    asker = None if update.effective_user is None or not private else \
        await members.of_user(services, update.effective_user.id)
    code = None if asker is None else asker.code
    shown = await views.stakes(services, code)
    return Answer(views.stakes_text(shown, await members.names(services), code))


async def _previous(context: Context) -> Answer:
    """The final standings of the season before this one."""
    season = await views.previous_season(context.services)
    if season is None:
        return Answer(Text("STAND_NO_PREVIOUS"))
    final = await asyncio.to_thread(compute_standings, season)
    return Answer(lines(Text("STAND_PREVIOUS", {"season": season.name}),
                        messages.standings_table(context.words, final,
                                                 season.rules.display_decimals)))


async def periode(season: Season, w: Words) -> Answer:
    if season.rules.titles is not Titles.PERIOD_GROUPS:
        return Answer(Text("NO_PERIOD_GROUPS"))
    current = season.rules.period_of(min(season.complete_rounds + 1,
                                         season.rules.planned_rounds))
    return Answer(announce.period_tables(season, period_groups(season, current)))


async def groep(season: Season, w: Words) -> Answer:
    if season.rules.titles is not Titles.SUBGROUPS:
        return Answer(Text("NO_SUBGROUPS"))
    return Answer(announce.subgroup_tables(season, subgroups(season)))


async def kruistabel(season: Season, w: Words) -> Answer:
    """Too wide for a chat: sent as a web page that scrolls sideways on a phone."""
    from bot.web.pages import Site

    page = await asyncio.to_thread(lambda: Site(season, w).crosstable())
    return Answer(file=File(page.encode(), plain(Text("CROSSTABLE_FILE"), w),
                            Text("CROSSTABLE_CAPTION", {"round": season.complete_rounds})))


VIEWS = {"periode": periode, "groep": groep, "kruistabel": kruistabel}


async def mijn(update: Update, context: Context) -> Answer:
    who = await member(update, context)
    return Answer(personal=await _mine(context, who),
                  language=await own_language(update, context))


async def _mine(context: Context, who: Member) -> Lines:
    """A member's own summary."""
    mine = await views.mine(context.services, who)
    shown: list[Said] = []
    if mine.place is not None:
        shown.append(Text("MIJN", {"name": who.name, "rank": mine.place.rank,
                                   "value": format_number(mine.place.value, 0),
                                   "score": Number(mine.place.score, mine.decimals)}))
    shown.append(Text("MIJN_SIGNOFFS", {"rounds": ", ".join(map(str, mine.signed_off))})
                 if mine.signed_off else Text("MIJN_NO_SIGNOFFS"))
    for game in mine.games:
        shown.append(Text("MIJN_GAME", {
            "round": game.round, "board": game.board,
            "colour": Text("COLOURS_WORD", pick="white" if game.white else "black"),
            "opponent": game.opponent,
            "result": "" if game.result is None else lines(" (", game.result, ")", between="")}))
    shown += [Text("MIJN_BYE", {"round": number}) for number in mine.bye_rounds]
    if mine.lichess is not None:
        shown.append(Text("LICHESS_MY_GAME", {"round": mine.lichess[0], "link": mine.lichess[1]}))
    shown += await teams.mine(context.services, who.code)
    return Lines(tuple(shown))


STANDINGS = key("stand", "standings")
ALL = key("alles", "all")
VIEW = Choice("view", {PREVIOUS: "vorig", key("periode", "period"): "periode",
                       key("groep", "group"): "groep",
                       key("kruistabel", "crosstable"): "kruistabel",
                       key("kansen", "chances"): "kansen", ME: "mij", ALL: "alles"})

room = Room(commands=(
    Command(STANDINGS, (form(stand, VIEW),), stand, reads_only=True),
    Command(key("mijn", "mine"), (form(mijn),), mijn, reads_only=True)))
