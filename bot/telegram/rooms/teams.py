"""/team: the club's teams (issue 49). The arbiter names them and their captains; a captain
(or the arbiter) sets the regular players, enters the matches, asks who can play and the
substitutes, confirms the lineup (which signs its players off for the club's round) and
enters the board results (which become their external results). A member says he is
willing to substitute; a player answers the question with its buttons."""

from __future__ import annotations

import datetime as dt
from fractions import Fraction

from telegram import Update

from bot.callbacks import Available, BoardTap
from bot.flows import members
from bot.flows import teams as flows
from bot.flows.teams import Match, Team
from bot.keyboard import Button, Keyboard
from bot.language.notice import Lines, Said, Text, lines
from bot.language.vocabulary import CONFIRM, NEW, OFF, ON, key
from bot.services import Context
from bot.telegram.answer import Answer, Edit, Refused, Toast
from bot.telegram.grammar import Choice, Command, One, Rest, flag, form, maybe
from bot.telegram.room import Room, actor, button
from bot.telegram.rooms.common import clock_time, counted, find_member, member, read_date
from core.teams import board_results, match_score, points


async def overview(update: Update, context: Context) -> Answer:
    """`/team`: each team's next match, who said yes, and the lineup."""
    found = await flows.teams(context.services)
    if not found:
        return Answer(Text("TEAM_NONE"))
    names = await members.names(context.services)
    shown: list[Said] = []
    for team in found:
        coming = await flows.next_match(context.services, team.number)
        shown.append(_about(team, names) if coming is None
                     else lines(_about(team, names), flows.grid(team, coming, names)))
    return Answer(lines(*shown, between="\n\n"))


def _about(team: Team, names: dict[str, str]) -> Said:
    return Text("TEAM_ABOUT", {
        "team": team.name, "captain": names.get(team.captain or "", Text("TEAM_NO_CAPTAIN")),
        "players": Lines(tuple(names.get(c, c) for c in team.players), ", ")
        if team.players else Text("TEAM_NO_PLAYERS")})


async def one(update: Update, context: Context, team: int) -> Answer:
    """`/team N`: the team, and its next match."""
    found = await _team(context, team)
    names = await members.names(context.services)
    coming = await flows.next_match(context.services, found.number)
    return Answer(lines(_about(found, names), None if coming is None
                        else flows.grid(found, coming, names)))


async def _team(context: Context, number: int) -> Team:
    found = await flows.team(context.services, number)
    if found is None:
        raise Refused(Text("TEAM_UNKNOWN", {"team": number}))
    return found


async def _led(update: Update, context: Context, number: int) -> Team:
    """The team, for its captain or an arbiter; anyone else is refused."""
    found = await _team(context, number)
    if not await flows.leads(context.services, actor(update), found):
        raise Refused(Text("TEAM_ONLY_CAPTAIN", {"team": found.name}))
    return found


async def _coming(context: Context, found: Team) -> Match:
    coming = await flows.next_match(context.services, found.number)
    if coming is None:
        raise Refused(Text("TEAM_NO_MATCH", {"team": found.name}))
    return coming


async def add(update: Update, context: Context, team: int, name: str) -> Answer:
    """`/team nieuw N NAAM`: a team (its number is the rules' team table's)."""
    made = await flows.add_team(context.services, team, name, actor=actor(update))
    return Answer(Text("TEAM_ADDED" if made else "TEAM_EXISTS", {"team": team, "name": name}))


async def captain(update: Update, context: Context, team: int, name: str) -> Answer:
    """`/team N aanvoerder NAAM`."""
    found = await _team(context, team)
    who = await find_member(context, name)
    await flows.set_captain(context.services, team, who.code, actor=actor(update))
    return Answer(Text("TEAM_CAPTAIN_SET", {"team": found.name, "name": who.name}))


async def players(update: Update, context: Context, team: int, names: str) -> Answer:
    """`/team N spelers A, B, C`: the regular players, in board order."""
    found = await _led(update, context, team)
    chosen = [await find_member(context, part.strip()) for part in names.split(",")
              if part.strip()]
    await flows.set_players(context.services, team, [m.code for m in chosen],
                                  actor=actor(update))
    return Answer(Text("TEAM_PLAYERS_SET", {"team": found.name, "names": Lines(
        tuple(m.name for m in chosen), ", ")}))


async def match(update: Update, context: Context, team: int, date_words: list[str],
                time: dt.time | None, home: bool, opponent: str, boards: int,
                first_white: bool | None) -> Answer:
    """`/team N wedstrijd DATUM [TIJD] thuis|uit TEGENSTANDER BORDEN [wit|zwart]`: the time
    it starts and the club's colour on board 1, where the captain knows them."""
    found = await _led(update, context, team)
    services = context.services
    today = services.clock().astimezone(services.settings.timezone).date()
    # `/team` is one name in both languages: a date is read in the reader's.
    date = await read_date(context, date_words, today, english=context.language == "en")
    made = await flows.add_match(services, team, date, home=home, opponent=opponent,
                                 boards=boards, actor=actor(update), time=time,
                                 first_white=first_white)
    if made is None:
        return Answer(Text("TEAM_MATCH_EXISTS", {"team": found.name}))
    added = await flows.match(services, made)
    assert added is not None
    return Answer(Text("TEAM_MATCH_ADDED", {"match": flows.described(found, added)}))


async def ask(update: Update, context: Context, team: int) -> Answer:
    """`/team N vraag`: its regular players are asked now whether they can play."""
    found = await _led(update, context, team)
    asked = await flows.ask(context.services, found, await _coming(context, found))
    return Answer(Text("TEAM_ASKED", {"count": len(asked)}))


async def substitutes(update: Update, context: Context, team: int,
                      count: int | None) -> Answer:
    """`/team N invallers [AANTAL]`: the next willing members are asked (as many as are
    short, unless a number is given)."""
    found = await _led(update, context, team)
    coming = await _coming(context, found)
    short = coming.boards - len(flows.proposal(found, coming))
    asked = await flows.substitutes(context.services, found, coming,
                                    count if count is not None else max(short, 1))
    names = await members.names(context.services)
    if not asked:
        return Answer(Text("TEAM_NO_SUBSTITUTES"))
    return Answer(Text("TEAM_SUBSTITUTES_ASKED", {"names": Lines(
        tuple(names.get(c, c) for c in asked), ", ")}))


async def lineup(update: Update, context: Context, team: int, confirm: bool = True,
                 names: str | None = None) -> Answer:
    """`/team N opstelling`: the lineup the answers make; `… bevestig` confirms it, and
    `… A, B, C` confirms the captain's own."""
    found = await _led(update, context, team)
    coming = await _coming(context, found)
    board_names = await members.names(context.services)
    if names is None:
        proposed = flows.proposal(found, coming)
        if not confirm:
            short = coming.boards - len(proposed)
            return Answer(Text("TEAM_LINEUP_PROPOSAL", {
                "match": flows.described(found, coming),
                "boards": _boards(proposed, board_names) if proposed else Text("TEAM_NO_PLAYERS"),
                "short": short}, pick=short > 0))
        codes = proposed
    else:
        codes = [(await find_member(context, part.strip())).code for part in names.split(",")
                 if part.strip()]
    if not codes or len(codes) > coming.boards or len(set(codes)) != len(codes):
        raise Refused(Text("TEAM_LINEUP_BAD", {"boards": coming.boards}))
    done = await flows.confirm(context.services, found, coming, codes, actor=actor(update))
    return Answer(lines(
        Text("TEAM_LINEUP_SET", {"match": flows.described(found, coming),
                                 "boards": _boards(codes, board_names)}),
        Text("TEAM_SIGNED_OFF", {"round": done.round}) if done.round is not None
        else Text("TEAM_NO_ROUND"),
        Text("TEAM_LATE", {"names": _names(done.late, board_names)}) if done.late else None,
        Text("TEAM_KEPT", {"names": _names(done.kept, board_names)}) if done.kept else None))


def _boards(codes: list[str], names: dict[str, str]) -> Lines:
    return Lines(tuple(Text("TEAM_BOARD", {"board": k, "name": names.get(c, c)})
                       for k, c in enumerate(codes, start=1)), ", ")


def _names(codes: tuple[str, ...], names: dict[str, str]) -> Lines:
    return Lines(tuple(names.get(c, c) for c in codes), ", ")


async def _played(context: Context, found: Team) -> Match:
    """The team's last match played with a confirmed lineup; refused if there is none."""
    services = context.services
    today = services.clock().astimezone(services.settings.timezone).date()
    played = [m for m in await flows.matches(services, found.number)
              if m.confirmed and m.date <= today]
    if not played:
        raise Refused(Text("TEAM_NO_LINEUP", {"team": found.name}))
    return played[-1]


TAPPED = {"1": Fraction(1), "h": Fraction(1, 2), "0": Fraction(0)}
"""A board's result by its button."""


def _sheet(found: Team, match: Match, names: dict[str, str]) -> tuple[Said, Keyboard]:
    """The match's boards with their results so far, and a button per result per board."""
    results = [b.result for b in match.lineup if b.result is not None]
    ours, theirs = match_score(results)
    said = lines(Text("TEAM_RESULTS_SHEET", {"match": flows.described(found, match)}),
                 *(Text("TEAM_BOARD_RESULT", {
                     "board": b.board, "name": names.get(b.code, b.code),
                     "result": "–" if b.result is None else points(b.result)})
                   for b in match.lineup),
                 Text("TEAM_SCORE_SO_FAR", {"ours": points(ours), "theirs": points(theirs)})
                 if results else None)
    buttons = Keyboard.of([Button(f"{b.board}: {label}", BoardTap(match.id, b.board, tap).pack())
                           for tap, label in (("1", "1"), ("h", "½"), ("0", "0"))]
                          for b in match.lineup)
    return said, buttons


async def result_taps(update: Update, context: Context, team: int) -> Answer:
    """`/team N uitslag`: the last match's boards, a tap per board's result."""
    found = await _led(update, context, team)
    said, buttons = _sheet(found, await _played(context, found),
                           await members.names(context.services))
    return Answer(said, markup=buttons)


async def board_tapped(update: Update, context: Context, pressed: BoardTap) -> Answer:
    """A board's result tapped: stored and booked, and the sheet shows it."""
    query = update.callback_query
    assert query is not None
    services = context.services
    match = await flows.match(services, pressed.match)
    found = None if match is None else await flows.team(services, match.team)
    board = None if match is None else \
        next((b for b in match.lineup if b.board == pressed.board), None)
    if match is None or found is None or board is None:
        return Answer(toast=Toast(Text("BUTTON_STALE")))
    if not await flows.leads(services, query.from_user.id, found):
        return Answer(toast=Toast(Text("TEAM_ONLY_CAPTAIN", {"team": found.name}), alert=True))
    await flows.enter_board(services, found, match, board, TAPPED[pressed.result],
                            actor=query.from_user.id)
    updated = await flows.match(services, match.id)
    assert updated is not None
    said, buttons = _sheet(found, updated, await members.names(services))
    return Answer(edit=Edit(said, markup=buttons))


async def results(update: Update, context: Context, team: int, words: list[str],
                  to_group: bool) -> Answer:
    """`/team N uitslag 1 ½ 0 1 … [groep]`: each board's result, board 1 first."""
    found = await _led(update, context, team)
    services = context.services
    last = await _played(context, found)
    read = board_results(words, len(last.lineup))
    if read is None:
        raise Refused(Text("TEAM_RESULTS_BAD", {"boards": len(last.lineup)}))
    done = await flows.enter_results(services, found, last, read, actor=actor(update),
                                     to_group=to_group)
    return Answer(Text("TEAM_RESULTS_SET", {"match": flows.described(found, last),
                                            "ours": points(done.score[0]),
                                            "theirs": points(done.score[1])}))


async def willing(update: Update, context: Context, on: bool) -> Answer:
    """`/team invaller aan|uit`: a member is (no longer) willing to substitute."""
    who = await member(update, context)
    await flows.set_substitute(context.services, who.code, on, actor=actor(update))
    return Answer(Text("TEAM_WILLING", pick=on))


async def answered(update: Update, context: Context, pressed: Available) -> Answer:
    """Ja / Nee under the question whether he can play: said back in a toast."""
    query = update.callback_query
    assert query is not None
    who = await members.of_user(context.services, query.from_user.id)
    if who is None:
        return Answer(toast=Toast(Text("NOT_LINKED"), alert=True))
    done = await flows.answer(context.services, who, pressed.match, pressed.answer == "yes")
    if done is None:
        return Answer(toast=Toast(Text("BUTTON_STALE")))
    return Answer(toast=Toast(Text("TEAM_ANSWERED", pick=done.yes)))


TEAM = One("team", counted)
ON_OFF = Choice("on", {ON: True, OFF: False})

room = Room(commands=(Command(key("team"), (
    form(overview),
    form(add, NEW, TEAM, Rest("name"), arbiter=True),
    form(willing, key("invaller", "substitute"), ON_OFF),
    form(one, TEAM),
    form(captain, TEAM, key(("aanvoerder", "captain"), "captain"), Rest("name"),
         arbiter=True),
    form(players, TEAM, key("spelers", "players"), Rest("names")),
    form(match, TEAM, key("wedstrijd", "match"), Rest("date_words", as_words=True),
         maybe(One("time", clock_time), time=None),
         Choice("home", {key("thuis", "home"): True, key("uit", "away"): False}),
         Rest("opponent"), One("boards", counted),
         maybe(Choice("first_white", {key("wit", "white"): True, key("zwart", "black"): False}),
               first_white=None)),
    form(ask, TEAM, key("vraag", "ask")),
    form(substitutes, TEAM, key("invallers", "substitutes"),
         maybe(One("count", counted), count=None)),
    form(lineup, TEAM, key("opstelling", "lineup"), flag("confirm", CONFIRM)),
    form(lineup, TEAM, key("opstelling", "lineup"), Rest("names")),
    form(result_taps, TEAM, key("uitslag", "result")),
    form(results, TEAM, key("uitslag", "result"), Rest("words", as_words=True),
         flag("to_group", key("groep", "group")))),
    "TEAM_USAGE"),),
    handlers=(button((Available,), answered), button((BoardTap,), board_tapped)))
