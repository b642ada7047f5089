"""The club's teams (issue 49): the arbiter names them and their captains; a captain (or the
arbiter) enters the team's matches; its players are asked whether they can play (a set
number of days before, or when the captain asks), substitutes when the team is short; the
lineup the captain confirms signs its players off for the club's round of that week as
externals, as the rules price them; the board results become their external results.

Each function is one unit of work and owes what it causes in it (the question to each
player, each answer to the captain, the lineup to each player)."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from fractions import Fraction

from bot.callbacks import Available
from bot.files.calendar import CalendarMatch
from bot.flows import members
from bot.flows.signoff import Request, book_external, cancel, sign_off
from bot.keyboard import Button, Keyboard
from bot.language.notice import Dated, Lines, Said, Text
from bot.notices import owe_to_arbiters, tell, tell_group
from bot.services import Services, schedule
from core.season import AbsenceReason, ExternalDay
from core.teams import (
    Candidate,
    Fixture,
    match_score,
    our_side,
    points,
    round_of_match,
    substitute_order,
)
from core.teams import lineup as proposed_lineup
from storage import teams as store
from storage.club import settings as club_settings
from storage.errors import InputStoreError
from storage.roster import Member
from storage.seasons import load_season
from storage.teams import Board as Board  # the room names them from here
from storage.teams import Match as Match
from storage.teams import Team as Team


async def teams(services: Services) -> list[Team]:
    return await store.teams(services.db)


async def team(services: Services, number: int) -> Team | None:
    return next((t for t in await teams(services) if t.number == number), None)


async def add_team(services: Services, number: int, name: str, *, actor: int) -> bool:
    return await store.add_team(services.db, number, name, actor=actor)


async def set_captain(services: Services, number: int, code: str, *, actor: int) -> bool:
    return await store.set_captain(services.db, number, code, actor=actor)


async def set_players(services: Services, number: int, codes: list[str], *,
                      actor: int) -> bool:
    return await store.set_players(services.db, number, codes, actor=actor)


async def add_match(services: Services, number: int, date: dt.date, *, home: bool,
                    opponent: str, boards: int, actor: int, time: dt.time | None = None,
                    first_white: bool | None = None) -> int | None:
    return await store.add_match(services.db, number, date, home=home, opponent=opponent,
                                 boards=boards, actor=actor, time=time,
                                 first_white=first_white)


async def match(services: Services, match_id: int) -> Match | None:
    return await store.match(services.db, match_id)


async def matches(services: Services, number: int) -> list[Match]:
    return await store.matches(services.db, number=number)


async def set_substitute(services: Services, code: str, willing: bool, *, actor: int) -> None:
    await store.set_substitute(services.db, code, willing, actor=actor)


async def matches_of(services: Services, code: str) -> list[tuple[Team, Match]]:
    """The member's coming team matches: of the team he plays in, and those whose lineup
    or substitutes' answers name him, in date order."""
    today = services.clock().astimezone(services.settings.timezone).date()
    by_number = {t.number: t for t in await teams(services)}
    return [(by_number[m.team], m) for m in await store.matches(services.db, since=today)
            if code in by_number[m.team].players or any(b.code == code for b in m.lineup)
            or any(a.code == code and a.yes for a in m.answers)]


async def calendar_matches(services: Services, code: str) -> list[CalendarMatch]:
    """His coming team matches, for his calendar file."""
    return [CalendarMatch(t.number, m.date, Text("CALENDAR_MATCH", {
        "team": t.name, "place": Text("TEAM_HOME", pick=m.home), "opponent": m.opponent}))
        for t, m in await matches_of(services, code)]


async def mine(services: Services, code: str) -> tuple[Said, ...]:
    """His coming team matches as `/mijn` says them: his board once the lineup names him."""
    said: list[Said] = []
    for found, match in await matches_of(services, code):
        board = next((b.board for b in match.lineup if b.code == code), None)
        said.append(Text("TEAM_MINE", {"match": described(found, match), "board": board},
                         pick=board is not None))
    return tuple(said)


async def captains(services: Services, user: int) -> list[Team]:
    """The teams `user` is the captain of."""
    me = await members.of_user(services, user)
    return [] if me is None else [t for t in await teams(services) if t.captain == me.code]


async def leads(services: Services, user: int, found: Team) -> bool:
    """Whether `user` may act for the team: its captain, or an arbiter (for every team)."""
    if await services.is_arbiter(user):
        return True
    me = await members.of_user(services, user)
    return me is not None and me.code == found.captain


def described(found: Team, match: Match) -> Said:
    """`Team 2 speelt za 12 dec uit tegen De Toren` as a value."""
    day = Dated(match.date)
    return Text("TEAM_MATCH", {
        "team": found.name, "place": Text("TEAM_HOME", pick=match.home),
        "date": day if match.time is None else Text("TEAM_AT", {
            "date": day, "time": match.time.strftime("%H:%M")}),
        "opponent": match.opponent, "boards": match.boards})


def colour(match: Match, board: int) -> str | None:
    """The club's colour on a board (`white`, `black`), where the captain said board 1's:
    the colours alternate down the boards."""
    if match.first_white is None:
        return None
    return "white" if (board % 2 == 1) == match.first_white else "black"


async def next_match(services: Services, number: int) -> Match | None:
    today = services.clock().astimezone(services.settings.timezone).date()
    coming = await store.matches(services.db, since=today, number=number)
    return coming[0] if coming else None


async def ask(services: Services, found: Team, match: Match) -> list[str]:
    """Ask the team's regular players (not asked yet) whether they can play; those asked."""
    async with services.db.transaction():
        asked = await store.ask(services.db, match.id, list(found.players), substitute=False)
        await _questions(services, found, match, asked, substitute=False)
    return asked


async def ask_due(services: Services) -> int:
    """The matches whose players are asked now (the club's days before the match); each
    asked once. How many were asked."""
    today = services.clock().astimezone(services.settings.timezone).date()
    waiting = await store.unasked(services.db, today)
    if not waiting:  # every tick looks: most find nothing, and read no more
        return 0
    days = (await club_settings(services.db)).team_ask_days
    due = [match_id for match_id, date in waiting if (date - today).days <= days]
    by_number = {t.number: t for t in await teams(services)} if due else {}
    for match_id in due:
        found = await store.match(services.db, match_id)
        if found is not None:
            await ask(services, by_number[found.team], found)
    return len(due)


async def _questions(services: Services, found: Team, match: Match, codes: list[str], *,
                     substitute: bool) -> None:
    """The question to each member asked, with his buttons."""
    by_code = {m.code: m for m in await members.everyone(services)}
    question = Text("TEAM_ASK_SUBSTITUTE" if substitute else "TEAM_ASK",
                    {"match": described(found, match)})
    buttons = Keyboard.of([[Button(Text("TEAM_YES"), Available(match.id, "yes").pack()),
                            Button(Text("TEAM_NO"), Available(match.id, "no").pack())]])
    for code in codes:
        member = by_code[code]
        if member.telegram_id is not None:
            await tell(services, member.telegram_id, question, markup=buttons)


@dataclass(frozen=True, slots=True)
class Answered:
    match: Match
    team: Team
    yes: bool


async def answer(services: Services, who: Member, match_id: int, yes: bool) -> Answered | None:
    """His answer to whether he can play (None: he was not asked for that match); the
    captain hears it, with how many said yes."""
    async with services.db.transaction():
        if not await store.answer(services.db, match_id, who.code, yes):
            return None
        match = await store.match(services.db, match_id)
        assert match is not None
        found = await team(services, match.team)
        assert found is not None
        said = Text("TEAM_ANSWER_TO_CAPTAIN", {
            "name": who.name, "match": described(found, match),
            "count": sum(a.yes is True for a in match.answers), "boards": match.boards},
            pick=yes)
        await _tell_captain(services, found, said)
    return Answered(match, found, yes)


async def _tell_captain(services: Services, found: Team, said: Said) -> None:
    """The team's captain is told; a team without one (or not linked): the arbiters."""
    captain = None if found.captain is None else \
        next((m for m in await members.everyone(services) if m.code == found.captain), None)
    if captain is not None and captain.telegram_id is not None:
        await tell(services, captain.telegram_id, said)
    else:
        await owe_to_arbiters(services, said)


async def substitutes(services: Services, found: Team, match: Match, count: int) -> list[str]:
    """Ask the next `count` willing members, in the order KNSB's rules allow (the nearest
    lower team first, then members of no team, strongest first); those asked."""
    season = await load_season(services.db)
    ratings = {p.id: p.rating for p in season.players}
    own = {code: t.number for t in await teams(services) for code in t.players}
    asked_before = {a.code for a in match.answers}
    order = substitute_order(found.number, (
        Candidate(code, ratings.get(code), own.get(code))
        for code in await store.willing(services.db) if code not in asked_before))
    async with services.db.transaction():
        asked = await store.ask(services.db, match.id, order[:count], substitute=True)
        await _questions(services, found, match, asked, substitute=True)
    return asked


@dataclass(frozen=True, slots=True)
class Confirmed:
    lineup: tuple[str, ...]
    round: int | None
    """The club round its players are signed off for (None: no round that week)."""
    day: ExternalDay | None
    late: tuple[str, ...]
    """Signed off after the round's deadline (the arbiter is told, as for any late one)."""
    kept: tuple[str, ...]
    """Not signed off: they play in the round's published pairing (the arbiter decides)."""


@dataclass(frozen=True, slots=True)
class Imported:
    added: int
    known: int
    """Matches the team had already (the same day)."""
    others: int
    """Lines of other clubs' matches, of a team the club does not have, or of one the
    sender does not lead."""


DEFAULT_BOARDS = 8
"""A match's boards where a schedule does not say (a KNSB team plays eight at most levels);
the team's last match says otherwise."""


async def import_fixtures(services: Services, fixtures: list[Fixture], *,
                          user: int) -> Imported:
    """The team matches of a federation's schedule: each of a team the sender leads."""
    club = (await load_season(services.db)).club
    # Read before the write: which teams he leads, and each one's boards (its last match's).
    boards = {}
    for found in await teams(services):
        if await leads(services, user, found):
            before = await store.matches(services.db, number=found.number)
            boards[found.number] = before[-1].boards if before else DEFAULT_BOARDS
    added = known = others = 0
    async with services.db.transaction():
        for fixture in fixtures:
            ours = our_side(fixture, club)
            if ours is None or ours[0] not in boards:
                others += 1
                continue
            made = await store.add_match(services.db, ours[0], fixture.date, home=ours[1],
                                         opponent=ours[2], boards=boards[ours[0]],
                                         actor=user)
            added, known = (added + 1, known) if made is not None else (added, known + 1)
    return Imported(added, known, others)


def proposal(found: Team, match: Match) -> list[str]:
    """The lineup the answers make (regulars who said yes in board order, then the
    substitutes who did)."""
    yes = [a.code for a in match.answers if a.yes]
    return proposed_lineup(match.boards, found.players, yes,
                           [a.code for a in match.answers if a.substitute])


async def confirm(services: Services, found: Team, match: Match, codes: list[str], *,
                  actor: int) -> Confirmed:
    """The lineup: stored, each player told his board, and signed off for the club's round
    of that week with the reason the rules price (external on the club's night, or on
    another day). One who had signed off keeps one sign-off, now external; players the
    lineup no longer names get their external sign-off for it taken back."""
    planned = await schedule(services)
    week = round_of_match(match.date, ((r.number, r.date) for r in planned))
    everyone = {m.code: m for m in await members.everyone(services)}
    late, kept = [], []
    async with services.db.transaction():
        dropped = [b.code for b in match.lineup if b.code not in codes]
        await store.set_lineup(services.db, match.id, codes, actor=actor)
        if week is not None:
            number, day = week
            for code in codes:
                try:
                    done = await sign_off(services, everyone[code],
                                          Request((number,), AbsenceReason.EXTERNAL, day),
                                          sent_at=services.clock(), actor=actor,
                                          correction=False, early=None, team=found.number)
                except InputStoreError:  # the round is complete: the arbiter's to decide
                    kept.append(code)
                    continue
                if done.rounds and done.rounds[0].late_after is not None:
                    late.append(code)
            for code in dropped:
                await _take_back(services, everyone[code], number, actor)
        for board, code in enumerate(codes, start=1):
            chat = everyone[code].telegram_id
            if chat is not None:
                own = colour(match, board)
                await tell(services, chat, Text("TEAM_LINEUP_TO_PLAYER", {
                    "match": described(found, match), "board": board,
                    "colour": "" if own is None else Text("COLOURS_WORD", pick=own)},
                    pick=own is not None))
    return Confirmed(tuple(codes), None if week is None else week[0],
                     None if week is None else week[1], tuple(late), tuple(kept))


async def _take_back(services: Services, who: Member, number: int, actor: int) -> None:
    """A player the lineup no longer names plays in the club's round again."""
    try:
        await cancel(services, who, number, sent_at=services.clock(), actor=actor,
                     correction=False)
    except InputStoreError:
        await owe_to_arbiters(services, Text("TEAM_NOT_TAKEN_BACK",
                                             {"name": who.name, "round": number}))


@dataclass(frozen=True, slots=True)
class Entered:
    score: tuple[Fraction, Fraction]
    booked: tuple[str, ...]
    """The players whose result was booked as their external result."""


async def enter_results(services: Services, found: Team, match: Match,
                        results: list[Fraction], *, actor: int, to_group: bool) -> Entered:
    """The board results: stored, and each booked as its player's external result in the
    round his lineup signed him off for (where the rules value an external game by its
    result, the standings follow). The match's score goes to the club group if asked."""
    week, everyone = await _booking(services, match)
    booked = []
    async with services.db.transaction():
        for board, result in zip(match.lineup, results, strict=True):
            if await _enter(services, found, match, board, result, week, everyone, actor):
                booked.append(board.code)
        score = match_score(results)
        if to_group:
            await tell_group(services, await club_settings(services.db), Text(
                "TEAM_SCORE_TO_GROUP", {"match": described(found, match),
                                        "ours": points(score[0]),
                                        "theirs": points(score[1])}))
    return Entered(score, tuple(booked))


async def enter_board(services: Services, found: Team, match: Match, board: Board,
                      result: Fraction, *, actor: int) -> bool:
    """One board's result: stored, and booked as its player's external result in the round
    his lineup signed him off for; False when the club played no round that week (nothing
    to book)."""
    week, everyone = await _booking(services, match)
    return await _enter(services, found, match, board, result, week, everyone, actor)


async def _booking(services: Services, match: Match
                   ) -> tuple[tuple[int, ExternalDay] | None, dict[str, Member]]:
    """What booking a match's results needs, read before the write: the round of its week
    (and how its absence is priced) and the members by code."""
    planned = await schedule(services)
    week = round_of_match(match.date, ((r.number, r.date) for r in planned))
    return week, {m.code: m for m in await members.everyone(services)}


async def _enter(services: Services, found: Team, match: Match, board: Board,
                 result: Fraction, week: tuple[int, ExternalDay] | None,
                 everyone: dict[str, Member], actor: int) -> bool:
    async with services.db.transaction():
        await store.set_result(services.db, match.id, board.board, result, actor=actor)
        if week is None:
            return False
        await book_external(services, everyone[board.code], team=found.number, result=result,
                            day=week[1], number=week[0], sent_at=services.clock(), actor=actor)
    return True


async def grids_of(services: Services, code: str) -> list[Lines]:
    """For a member's page: each team he leads or plays in, with its next match's grid
    (who can, who cannot, who did not answer yet, the lineup)."""
    names = await members.names(services)
    shown = []
    for found in await teams(services):
        if code != found.captain and code not in found.players:
            continue
        coming = await next_match(services, found.number)
        if coming is not None:
            shown.append(grid(found, coming, names))
    return shown


def grid(found: Team, match: Match, names: dict[str, str]) -> Lines:
    """Who said yes, no, or nothing yet; the lineup once confirmed."""
    def listed(key: str, codes: list[str]) -> Said | None:
        return Text(key, {"names": Lines(tuple(names.get(c, c) for c in codes), ", ")}) \
            if codes else None

    answers = match.answers
    shown: list[Said | None] = [
        described(found, match),
        listed("TEAM_GRID_YES", [a.code for a in answers if a.yes is True]),
        listed("TEAM_GRID_NO", [a.code for a in answers if a.yes is False]),
        listed("TEAM_GRID_WAITING", [a.code for a in answers if a.yes is None]),
        Text("TEAM_GRID_LINEUP", {"boards": Lines(tuple(
            Text("TEAM_BOARD", {"board": b.board, "name": names.get(b.code, b.code)})
            for b in match.lineup), ", ")}) if match.confirmed else None]
    return Lines(tuple(s for s in shown if s is not None))
