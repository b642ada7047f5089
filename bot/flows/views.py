"""What members and the arbiter ask to see: the season, a pairing, a member's own summary.
Reads only: no transaction, nothing owed."""

from __future__ import annotations

import asyncio
import datetime as dt
import functools
import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any
from zoneinfo import ZoneInfo

from bot.files import messages, tables
from bot.files.calendar import Agenda, CalendarMatch, CalendarRound
from bot.flows import checkin, online
from bot.keyboard import Keyboard
from bot.language.notice import Composed, Lines, Phrase, Said, Text, lines
from bot.services import Services, WebAccess, current_rounds, open_round, schedule
from bot.worker import Breakdown, Stakes, StandingsView
from core.pairing import Objective
from core.pairing.request import before_pairing, request_for_round
from core.results import UnsettledResults
from core.rounds import OPEN, PUBLIC, RoundState
from core.season import Season
from core.standings import BreakdownLine, PlayerStanding, Standings, standings_history
from core.trf import TrfHeader
from storage import attendance, club, programme, results, roster, rounds, seasons
from storage.db import Database
from storage.roster import Member
from storage.seasons import load_season


async def season(services: Services) -> Season:
    return await load_season(services.db)


async def unsettled(services: Services) -> UnsettledResults:
    """The results reported and not final yet, for the views that mark them."""
    return await results.unsettled(services.db)


async def standings(services: Services, language: str) -> StandingsView:
    """The standings as the chat shows them, in `language`: made in the worker process, and
    kept until the standings change (a sign-off for the next round keeps them)."""
    return await services.db.cache.memo(f"standings view {language}",
                                  lambda: services.standings_worker.standings(language),
                                  standings_only=True)


async def places(services: Services) -> Mapping[str, PlayerStanding]:
    """Each player's row in the standings: the standings of any language hold them, and the
    club's is the one its group keeps made."""
    return (await standings(services, await services.languages.club())).places


PRICE_WAIT = 0.5
"""Seconds a sign-off's price waits for standings being made anew (a large season after a
correction takes seconds): after that it is priced on the values made last."""
FIRST_PRICE_WAIT = 0.6
"""Seconds it waits when none were made since the start (the worker process starts, and
reads the season, first): after that the sign-off goes unpriced, not seconds late. A sign-off
is answered within a second of a start (issue 50): the write and the answer take the rest."""


async def values_now(services: Services) -> Mapping[str, Fraction] | None:
    """Each player's value, to price a sign-off: the standings' as they stand; while the
    worker still makes them anew (seconds, at thousands of players), those made last, so a
    sign-off never waits on a correction of someone else's result. None when none were made
    since the start and they are not made in time (the standings, once made, price the
    next sign-off)."""
    made = asyncio.ensure_future(places(services))
    made.add_done_callback(functools.partial(_keep_values, services))
    wait = PRICE_WAIT if services.standings_worker.values_made is not None else FIRST_PRICE_WAIT
    try:
        rows = await asyncio.wait_for(asyncio.shield(made), wait)
    except TimeoutError:
        return services.standings_worker.values_made
    services.standings_worker.values_made = {code: row.value for code, row in rows.items()}
    return services.standings_worker.values_made


def _keep_values(services: Services, made: asyncio.Future[Mapping[str, PlayerStanding]]) -> None:
    """Standings made after the sign-off that asked stopped waiting: the next one has them."""
    if not made.cancelled() and made.exception() is None:
        services.standings_worker.values_made = {code: row.value
                                                  for code, row in made.result().items()}


async def history(services: Services) -> Sequence[Standings]:
    """The standings after each round (the chart, the pages): made off the event loop, and
    kept like the standings."""
    async def made() -> Sequence[Standings]:
        return await asyncio.to_thread(standings_history, await load_season(services.db))
    return await services.db.cache.memo("standings history", made, standings_only=True)


async def stakes(services: Services, player: str | None) -> Stakes:
    """What is at stake, kept like the standings (the chances take seconds to work out)."""
    return await services.db.cache.memo(f"stakes {player}",
                                  lambda: services.standings_worker.stakes(player),
                                  standings_only=True)


def stakes_text(shown: Stakes, names: Mapping[str, str], player: str | None) -> Lines:
    """`/stand kansen`: the top of the table's chances of the title and of the top three,
    the asker's own, and his next round; then how they were worked out."""
    found = shown.chances
    ranked = sorted(found.places, key=lambda code: [-n for n in found.places[code]])

    def top(code: str, places: int) -> int:
        return round(100 * sum(found.share(code, k) for k in range(1, places + 1)))

    lines: list[Said | str] = [Text("CHANCES_TITLE", {"round": found.after_round,
                                                       "left": found.rounds_left})]
    lines += [Text("CHANCES_LINE", {"name": names.get(code, code), "first": top(code, 1),
                                    "three": top(code, 3)})
              for code in ranked[:CHANCES_SHOWN]]
    if player is not None and player in found.places:
        likeliest = found.likeliest(player)
        lines += ["", Text("CHANCES_YOU", {
            "place": likeliest, "share": round(100 * found.share(player, likeliest)),
            "first": top(player, 1), "three": top(player, 3)})]
        upcoming = shown.next_round
        if upcoming is not None:
            lines.append(Text("CHANCES_NEXT", {
                "opponent": names.get(upcoming.opponent, upcoming.opponent),
                "win": upcoming.win, "draw": upcoming.draw, "loss": upcoming.loss}))
            lines.append(Text("CHANCES_RANGE" if upcoming.exact else "CHANCES_RANGE_FOUND",
                              {"best": upcoming.best, "worst": upcoming.worst}))
    lines += ["", Text("CHANCES_HOW", {"runs": found.runs})]
    return Lines(tuple(lines))


async def breakdown(services: Services, player: str, language: str) -> Breakdown:
    """A player's points round by round, in `language`, kept like the standings."""
    return await services.db.cache.memo(f"breakdown {player} {language}",
                                  lambda: services.standings_worker.breakdown(player, language),
                                  standings_only=True)


async def page_button(services: Services, *, private: bool) -> Keyboard | None:
    """The button to the club's pages for this chat, as the club's setting allows."""
    access = (await club.settings(services.db)).web
    return messages.page_button(services.settings, access, services.bot_name, private=private)


async def previous_season(services: Services) -> Season | None:
    """The season before this one, kept when the next one began."""
    return await seasons.previous_season(services.db)


async def trf_header(services: Services) -> TrfHeader:
    """The club's city and chief arbiter, for a TRF's header."""
    return await club.trf_header(services.db, services.settings.arbiters)


async def pairing_text(services: Services, *, arbiter: bool) -> Said | None:
    """The pairing to show: the open round's draft for an arbiter, else the newest public
    one; None if there is none."""
    upcoming = await open_round(services)
    if arbiter and upcoming is not None and upcoming.state is RoundState.DRAFTED:
        draft = await rounds.stored_pairing(services.db, upcoming.number)
        if draft is not None:
            return lines(Text("INDELING_DRAFT_TITLE"), await messages.pairing(
                await load_season(services.db), draft,
                online=await online.played_at(services, upcoming.number)))
    shown = [stored for number in await current_rounds(services)
             if (stored := await rounds.stored_pairing(services.db, number)) is not None]
    if not shown:
        return None
    season = await load_season(services.db)
    played_online = {r.number for r in await online.live_rounds(services)}
    return lines(*[lines(await messages.pairing(
        season, stored, online=await online.played_at(services, stored.round)),
        await online.live_text(services, stored.round) if stored.round in played_online
        else None, between="\n\n") for stored in shown], between="\n\n")


CHANCES_SHOWN = 5
"""The players `/stand kansen` shows, most likely champion first."""


@dataclass(frozen=True, slots=True)
class Game:
    round: int
    board: int
    white: bool
    opponent: str
    result: Phrase | None
    """As every view shows it (`texts.result_shown`); None: not played yet."""


@dataclass(frozen=True, slots=True)
class Mine:
    """A member's own summary: his place, his sign-offs ahead, his game (or bye) in each
    round he is still busy with."""
    place: PlayerStanding | None
    """His row in the standings (None before he is ranked)."""
    decimals: int
    signed_off: tuple[int, ...]
    games: tuple[Game, ...]
    bye_rounds: tuple[int, ...]
    lichess: tuple[int, str] | None = None
    """His lichess game still to play: its round and link (a link lost is found here)."""


async def mine(services: Services, who: Member) -> Mine:
    season = await load_season(services.db)
    row = (await places(services)).get(who.code)
    upcoming = await open_round(services)
    signed = () if upcoming is None else tuple(await attendance.signed_off_rounds(
        services.db, who.code, from_round=upcoming.number))
    games: list[Game] = []
    byes: list[int] = []
    names = {m.code: m.name for m in await roster.members(services.db)}
    for number in await current_rounds(services):
        stored = await rounds.stored_pairing(services.db, number)
        if stored is None:
            continue
        for board, result, state in zip(stored.boards, stored.results, stored.states,
                                        strict=True):
            if who.code in (board.white, board.black):
                white = board.white == who.code
                games.append(Game(stored.round, board.number, white,
                                  names[board.black if white else board.white],
                                  None if result is None
                                  else Phrase("result_shown", (result, state))))
        if stored.bye == who.code:
            byes.append(stored.round)
    return Mine(row, season.rules.display_decimals, signed, tuple(games), tuple(byes),
                await online.game_of(services, who))


@dataclass(frozen=True, slots=True)
class MyRound:
    """One round of a member's season, as his page shows it."""

    number: int
    date: dt.date | None
    what: Said | str
    """His game and result, his bye or absence, or (a round still open) whether he plays."""
    points: Said | str
    """What the round earned him ("" until it counts)."""
    plays: bool | None
    """A round still open: whether he plays now, which a tap changes; None: settled."""
    here: bool | None = None
    """A round at the venue whose members are coming in: whether he said he is there (a
    tap says it); None: no such round."""


async def my_season(services: Services, who: Member) -> tuple[MyRound, ...]:
    """Every round of the season with his part in it, as values his page makes in his words."""
    planned = await schedule(services)
    first = next((r.number for r in planned if r.state in OPEN), None)
    off = {} if first is None else await attendance.signed_off(services.db, who.code,
                                                                from_round=first)
    on = set() if first is None or not who.flexible else set(
        await attendance.signed_on_rounds(services.db, who.code, from_round=first))
    standings = (await history(services))[-1]
    decimals = (await season(services)).rules.display_decimals
    names = {m.code: m.name for m in await roster.members(services.db)}
    counted = {line.round: line for line in standings.breakdown(who.code)} \
        if who.code in standings.ranking else {}
    busy = await mine(services, who)
    coming = await checkin.room_round(services)
    out = []
    for r in planned:
        if coming is not None and r.number == coming.number:
            here = who.code in await attendance.present(services.db, r.number)
            out.append(MyRound(r.number, r.date, Text("MY_ROUND_HERE" if here
                                                      else "MY_ROUND_COMING"), "", None, here))
        elif r.state in OPEN:
            plays = r.number in on if who.flexible else r.number not in off
            what: Said | str = Text("MY_ROUND_PLAYS") if plays \
                else Text("MY_ROUND_NOT_PLAYING") if r.number not in off \
                else Text("MY_ROUND_AWAY", {"why": Text("KIND_LABELS", pick=off[r.number].kind)})
            out.append(MyRound(r.number, r.date, what, "", plays))
        elif r.number in counted:
            out.append(_counted(r.number, r.date, counted[r.number], names, decimals))
        else:
            game = next((g for g in busy.games if g.round == r.number), None)
            what = Text("CALENDAR_BYE") if r.number in busy.bye_rounds else "" if game is None \
                else Text("MY_ROUND_GAME", {"opponent": game.opponent,
                                            "result": game.result or ""})
            out.append(MyRound(r.number, r.date, what, "", None))
    return tuple(out)


def _counted(number: int, date: dt.date | None, line: BreakdownLine, names: dict[str, str],
             decimals: int) -> MyRound:
    """A round that counts: what it was and what it earned, as his breakdown says them."""
    def cells(w: Any) -> list[str]:
        return tables.breakdown_cells(w, line, names, decimals)
    return MyRound(number, date, Composed(lambda w: " ".join(filter(None, cells(w)[1:3]))),
                   Composed(lambda w: cells(w)[5]), None)


@dataclass(frozen=True, slots=True)
class Seat:
    code: str
    name: str


@dataclass(frozen=True, slots=True)
class DraftBoard:
    """The open round's draft as the arbiter's board shows it."""

    round: int
    boards: tuple[tuple[int, Seat, Seat], ...]
    """(board, white, black)."""
    bye: Seat | None
    away: tuple[Seat, ...]
    """The round's players who are not in it (signed off), who may come after all."""
    apart: tuple[tuple[Seat, Seat], ...]
    """The pairs the arbiter keeps apart all season, in the members' order."""
    broken: tuple[Said, ...]
    """The rules it breaks, in words, most important first."""
    cost: Said | str
    """What it costs against the best pairing the rules allow, in words."""
    version: str
    """What the board shows, in short: a change made from a board that showed another
    (the chat, a late sign-off meanwhile) is refused, never made over it."""


async def draft_board(services: Services, *, priced: bool = True) -> DraftBoard | None:
    """The open round's draft; None when there is none (no round drafted and not public).
    Not `priced`: without its cost against the best pairing (two pairings of the round), for
    a look inside a write transaction."""
    upcoming = await open_round(services)
    if upcoming is None or upcoming.state is not RoundState.DRAFTED:
        return None
    stored = await rounds.stored_pairing(services.db, upcoming.number)
    if stored is None:
        return None
    names = {m.code: m.name for m in await roster.members(services.db)}

    def seat(code: str) -> Seat:
        return Seat(code, names.get(code, code))

    shown = tuple((b.number, seat(b.white), seat(b.black)) for b in stored.boards)
    drafted = {p for b in stored.boards for p in (b.white, b.black)} | {stored.bye}
    away = tuple(seat(p.id) for p in (await season(services)).players
                 if p.active_in(stored.round) and p.id not in drafted)
    version = hashlib.sha256(repr((stored.round, [(b.white, b.black) for b in stored.boards],
                                   stored.bye)).encode()).hexdigest()[:16]
    order = {m.code: k for k, m in enumerate(await roster.members(services.db))}
    pairs = sorted(sorted(pair, key=order.__getitem__) for pair in await roster.apart(
        services.db))
    apart = tuple((seat(one), seat(other)) for one, other in
                  sorted(pairs, key=lambda pair: [order[code] for code in pair]))
    return DraftBoard(stored.round, shown, seat(stored.bye) if stored.bye else None, away,
                      apart,
                      tuple(Phrase("broken_rule", (rule, names)) for rule in stored.broken),
                      await _against_the_best(services, stored) if priced else "", version)


@dataclass(frozen=True, slots=True)
class RoomBoard:
    """A round at the venue before it is paired, as the arbiter's board shows it: a tap on a
    name says he is there, or not."""

    round: int
    here: tuple[Seat, ...]
    missing: tuple[Seat, ...]
    signed_off: tuple[Seat, ...]
    version: str
    """Who is there, in short (as `DraftBoard.version`)."""


async def room_board(services: Services) -> RoomBoard | None:
    """The round at the venue whose members are coming in, not yet drafted; else None."""
    coming = await checkin.room_round(services)
    if coming is None or coming.state is not RoundState.LOCKED:
        return None
    room = await checkin.room(services, coming.number)

    def seats(group: tuple[Member, ...]) -> tuple[Seat, ...]:
        return tuple(Seat(m.code, m.name) for m in group)

    version = hashlib.sha256(repr((room.round, [m.code for m in room.here])).encode())
    return RoomBoard(room.round, seats(room.here), seats(room.missing), seats(room.signed_off),
                     version.hexdigest()[:16])


@dataclass(frozen=True, slots=True)
class LateBoard:
    """A published round at the venue with members who came in after it went out: the
    arbiter's choice, a tap each (the bye holder's board, or the bye)."""

    round: int
    late: tuple[Seat, ...]
    version: str


async def late_board(services: Services) -> LateBoard | None:
    """The published round at the venue with late comers not yet on a board; else None."""
    number = next((r.number for r in await schedule(services)
                   if r.on_site and r.state is RoundState.PUBLISHED), None)
    stored = None if number is None else await rounds.stored_pairing(services.db, number)
    if number is None or stored is None:
        return None
    playing = {p for b in stored.boards for p in (b.white, b.black)}
    late = [code for code in await attendance.present(services.db, number)
            if code not in playing and code != stored.bye]
    if not late:
        return None
    names = {m.code: m.name for m in await roster.members(services.db)}
    version = hashlib.sha256(repr((number, late, sorted(playing), stored.bye)).encode())
    return LateBoard(number, tuple(Seat(code, names[code]) for code in late),
                     version.hexdigest()[:16])


async def _against_the_best(services: Services, stored: rounds.StoredPairing) -> Said | str:
    """The draft against the best pairing of the round without the arbiter's hand: the rules
    each breaks and the sum of squared rank distances (what the engine minimises). Worked out
    once per state of the club's data, however often the board is looked at."""
    costs = await services.db.cache.memo("board.against_the_best",
                                   lambda: _costs(services, stored))
    if costs is None:
        return ""  # someone left out by hand: no like-for-like comparison
    now, best = costs
    if (now.violations, now.distance) <= (best.violations, best.distance):
        return Text("BOARD_BEST")
    return Text("BOARD_COST", {"rules": sum(now.violations), "distance": now.distance,
                               "best_rules": sum(best.violations),
                               "best_distance": best.distance})


async def _costs(services: Services,
                 stored: rounds.StoredPairing) -> tuple[Objective, Objective] | None:
    """(the draft's cost, the best pairing's), or None when the draft leaves someone out."""
    from core.pairing.engine import judged, pair  # numpy at first use, as for a draft

    number = stored.round
    request = request_for_round(before_pairing(await season(services), number), number,
                                apart=await roster.apart(services.db))
    drafted = {p for b in stored.boards for p in (b.white, b.black)} | {stored.bye} - {None}
    if drafted != request.present:
        return None
    best = (await asyncio.to_thread(pair, request)).objective
    now = await asyncio.to_thread(judged, request, [(b.white, b.black) for b in stored.boards],
                                  stored.bye)
    return now, best


async def calendar(db: Database, zone: ZoneInfo, who: Member | None = None, *,
                   stamp: dt.datetime | None = None,
                   matches: Sequence[CalendarMatch] = ()) -> Agenda | None:
    """The season's dated rounds for a calendar file (`bot.files.calendar.rounds_ics`); with
    `who`, his game in each round already published, and his team's `matches`. None if no
    round has a date yet."""
    dated = [r for r in await programme.schedule(db) if r.date is not None]
    if not dated:
        return None
    season = await load_season(db)
    settings = await club.settings(db)
    names = {m.code: m.name for m in await roster.members(db)}
    entries = []
    for r in dated:
        assert r.date is not None
        game: Said | str = ""
        stored = await rounds.stored_pairing(db, r.number) \
            if who is not None and r.state in PUBLIC else None
        if stored is not None and who is not None:
            game = _own_game(stored, who.code, names)
        entries.append(CalendarRound(r.number, r.date, game))
    return Agenda(entries, season.club, season.name, settings.round_start, zone,
                  stamp or dt.datetime.now(dt.UTC), matches)


def _own_game(stored: rounds.StoredPairing, code: str, names: dict[str, str]) -> Said | str:
    if stored.bye == code:
        return Text("CALENDAR_BYE")
    for board in stored.boards:
        if code in (board.white, board.black):
            white = board.white == code
            return Text("CALENDAR_GAME", {
                "colour": Text("COLOURS_WORD", pick="white" if white else "black"),
                "opponent": names[board.black if white else board.white], "board": board.number})
    return ""


async def web_access(services: Services) -> WebAccess:
    """Who may see the club's pages (`/instellingen web`)."""
    return (await club.settings(services.db)).web
