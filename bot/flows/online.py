"""A round played online, on lichess: its games made at once when it is published (one bulk
pairing by the club's organiser account, at the round's start, with the club's clock), each
player sent his game, the results read back as they end; a player lichess cannot pair (no
account linked, a token it no longer takes) is named to the arbiter and told what to do,
and the others play.

lichess is called outside every transaction; what it answered is kept, with the messages
it owes, in one. A bulk made just before a kill is found again among the organiser's
pairings to come, not made twice."""

from __future__ import annotations

import datetime as dt
import logging
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from bot.flows.results import lichess_reported, standings_follow
from bot.language.notice import Lines, Said, Text, lines
from bot.lichess.api import MEMBER_SCOPE, Bulk, Lichess, LichessError, game_url
from bot.notices import owe_to_arbiters, tell
from bot.services import Services, round_start
from core.online import Clock, Ending, ending, online_clock, result_of
from core.rounds import RoundState
from core.season import Result
from storage import club, programme, results, roster
from storage import lichess as store
from storage.club import ClubSettings
from storage.errors import InputStoreError, StoreError
from storage.lichess import MISSING, Account, OnlineBoard
from storage.roster import Member
from storage.seal import Seal

log = logging.getLogger(__name__)

__all__ = ["ClubSettings", "game_of", "live_text", "make_games", "read_back", "ready",
           "settings", "then_make_games", "tick"]

LICHESS = 0
"""Who reported a result lichess gave (no member: any player of the game may confirm it)."""
LATE = dt.timedelta(minutes=15)
"""After the start, a round whose games lichess has not made yet is the arbiter's to hear."""
REST = dt.timedelta(minutes=1)
"""lichess's rule: after a 429, wait a full minute before the next call."""


def ready(services: Services) -> bool:
    """Is lichess set up for this bot: a key to seal the tokens with, and the pages that
    members link their accounts through?"""
    settings = services.settings
    return bool(settings.secret_key and settings.public_url and settings.web_port is not None)


async def settings(services: Services) -> tuple[ClubSettings, bool]:
    """The club's settings, and whether its organiser account (which makes the games) is
    linked."""
    return await club.settings(services.db), await store.organiser(services.db) is not None


async def clock(services: Services) -> Clock:
    """The clock the club's online rounds are played at (`core.online.online_clock`)."""
    return online_clock((await club.settings(services.db)).online_clock,
                        await club.time_control(services.db))


async def played_at(services: Services, number: int) -> Clock | None:
    """The clock round `number` is played at on lichess; None for a round at the board."""
    found = next((r for r in await programme.schedule(services.db) if r.number == number),
                 None)
    return await clock(services) if found is not None and found.online else None


def _api(services: Services) -> Lichess:
    return services.lichess.api()


async def live_rounds(services: Services) -> list[programme.ScheduledRound]:
    return [r for r in await programme.schedule(services.db)
            if r.online and r.state is RoundState.PUBLISHED]


async def tick(services: Services) -> None:
    """Each published online round: games still to make, and games to read back. lichess
    busy or down: tried again at the next tick (the arbiter hears once it is late)."""
    if not ready(services) or _resting(services):
        return
    for rnd in await live_rounds(services):
        try:
            await make_games(services, rnd.number)
            if not await _before_start(services, rnd):  # lichess makes none before it
                await read_back(services, rnd.number)
        except LichessError as exc:
            log.warning("lichess, round %d: %s", rnd.number, exc)
            _rest(services, exc)
            await _late(services, rnd, exc)
            if _resting(services):
                return


def _resting(services: Services) -> bool:
    """Still within the minute lichess asked us to wait?"""
    until = services.lichess.rests_until
    return until is not None and services.clock() < until


def _rest(services: Services, exc: LichessError) -> None:
    if exc.status == 429:
        services.lichess.rests_until = services.clock() + REST


def then_make_games(services: Services, number: int) -> Callable[[], Awaitable[None]]:
    """What follows a commit that lets the round's games be made (its publication, a member
    linked): made at once; lichess busy or down, the tick tries again."""
    async def make() -> None:
        if _resting(services):
            return
        try:
            await make_games(services, number)
        except LichessError as exc:
            log.warning("lichess games of round %d not made yet: %s", number, exc)
            _rest(services, exc)
        except StoreError as exc:
            log.warning("lichess games of round %d not made yet: %s", number, exc)
    return make


async def games_for_the_linked(services: Services) -> None:
    """A member just linked his account: a game he was left out of is made now, not at the
    next tick (which tries again if lichess cannot be reached now)."""
    for rnd in await live_rounds(services):
        await then_make_games(services, rnd.number)()


async def _start(services: Services, rnd: programme.ScheduledRound) -> dt.datetime | None:
    if rnd.date is None:
        return None
    return round_start(rnd.date, await club.settings(services.db), services.settings.timezone)


async def _before_start(services: Services, rnd: programme.ScheduledRound,
                        after: dt.timedelta = dt.timedelta(0)) -> bool:
    """Is it not yet `after` past the round's start?"""
    start = await _start(services, rnd)
    return start is not None and services.clock() < start + after


async def _late(services: Services, rnd: programme.ScheduledRound, exc: LichessError) -> None:
    """lichess refused the round's games (the arbiter hears it at once), or could not be
    reached and the round's start has passed (he hears it then); once an hour."""
    if exc.busy and await _before_start(services, rnd, LATE):
        return
    if services.throttle.first(f"lichess-late:{rnd.number}"):
        key = "LICHESS_DOWN" if exc.busy else "LICHESS_REFUSED"
        await owe_to_arbiters(services, Text(key, {"round": rnd.number,
                                                   "status": exc.status}))


@dataclass(frozen=True, slots=True)
class Pairable:
    """A round's boards to make on lichess now: those both players' tokens allow, and those
    left out (with the players lichess cannot pair)."""

    ready: list[tuple[OnlineBoard, str, str]]
    """Each board with white's token and black's."""
    left_out: list[tuple[OnlineBoard, list[str]]]


async def make_games(services: Services, number: int) -> int:
    """The round's games lichess has not made yet, made (those a player cannot have are
    named to the arbiter, once); how many were made."""
    async with services.lichess.turn:
        return await _make_games(services, number)


async def _make_games(services: Services, number: int) -> int:
    db = services.db
    linked = await store.accounts_of(db)
    waiting = [b for b in await store.online_boards(db, number) if b.game_id is None
               and not b.final and (b.status is None or {b.white, b.black} <= set(linked))]
    if not waiting:
        return 0
    organiser = await store.organiser(db)
    if organiser is None:
        if services.throttle.first(f"lichess-organiser:{number}"):
            await owe_to_arbiters(services, Text("LICHESS_NO_ORGANISER", {"round": number}))
        return 0
    found = await _pairable(services, waiting, linked)
    made = await _made(services, number, organiser, linked, found.ready) \
        if found.ready else {}
    async with db.transaction():  # as the boards are now: another process may have been first
        now = {_key(b): b.status for b in await store.online_boards(db, number)
               if b.game_id is None and not b.final}
        made = {b: game for b, game in made.items() if _key(b) in now}
        everyone = {m.code: m for m in await roster.members(db)}
        for board, game_id in made.items():
            await store.keep_game(db, number, board, game_id, "created")
            await _send_game(services, number, board, game_id, everyone)
        fresh = [(b, who) for b, who in found.left_out if now.get(_key(b), MISSING) != MISSING]
        for board, _ in fresh:
            await store.keep_game(db, number, board, None, MISSING)
        if fresh:
            await _tell_left_out(services, number, fresh, everyone)
    return len(made)


def _key(board: OnlineBoard) -> tuple[int, str, str]:
    return board.board, board.white, board.black


async def _pairable(services: Services, boards: list[OnlineBoard],
                    linked: dict[str, Account]) -> Pairable:
    """Which boards lichess can make: both players linked, both tokens still taken, and no
    account on two boards (lichess refuses a bulk whole for a player in it twice: members
    linked one account before a second link was refused)."""
    seal = Seal(services.settings.secret_key)
    tokens = {code: token for code, account in linked.items()
              if (token := seal.open(account.token)) is not None}
    wanted = sorted({tokens[c] for b in boards for c in (b.white, b.black) if c in tokens})
    usable = await _api(services).usable(wanted, MEMBER_SCOPE)
    seated = Counter(linked[c].username.lower() for b in boards for c in (b.white, b.black)
                     if c in linked)
    found = Pairable([], [])
    for board in boards:
        unable = [c for c in (board.white, board.black) if tokens.get(c) not in usable
                  or seated[linked[c].username.lower()] > 1]
        if unable:
            found.left_out.append((board, unable))
        else:
            found.ready.append((board, tokens[board.white], tokens[board.black]))
    return found


async def _made(services: Services, number: int, organiser: Account,
                linked: dict[str, Account], boards: list[tuple[OnlineBoard, str, str]]
                ) -> dict[OnlineBoard, str]:
    """The games of `boards` at lichess, by board: found among the organiser's pairings to
    come (made before a kill, not yet kept), else made now in one bulk pairing."""
    api, token = _api(services), Seal(services.settings.secret_key).open(organiser.token)
    if token is None:  # sealed with another key: linked again, it works
        raise LichessError(401, busy=False)

    def games_in(bulks: list[Bulk], of: list[tuple[OnlineBoard, str, str]]
                 ) -> dict[OnlineBoard, str]:
        made = {(white.lower(), black.lower()): game
                for bulk in bulks for game, white, black in bulk.games}
        players = {b: (linked[b.white].username.lower(), linked[b.black].username.lower())
                   for b, _, _ in of}
        return {b: made[pair] for b, pair in players.items() if pair in made}

    kept = games_in(await api.bulks(token), boards)
    todo = [(b, white, black) for b, white, black in boards if b not in kept]
    if todo:
        settings = await club.settings(services.db)
        kept |= games_in([await api.bulk(token, [(white, black) for _, white, black in todo],
                                         clock=await clock(services),
                                         rated=settings.online_rated,
                                         at=await _pair_at(services, number))], todo)
    return kept


async def _pair_at(services: Services, number: int) -> dt.datetime | None:
    """When the round's games are made: at its start, or at once when that has passed."""
    rnd = next(r for r in await programme.schedule(services.db) if r.number == number)
    start = await _start(services, rnd)
    return start if start is not None and start > services.clock() else None


async def _send_game(services: Services, number: int, board: OnlineBoard, game_id: str,
                     everyone: dict[str, Member]) -> None:
    link = game_url(services.settings.lichess_url, game_id)
    for me, other, colour in ((board.white, board.black, "white"),
                              (board.black, board.white, "black")):
        who = everyone[me]
        if who.telegram_id is not None:
            await tell(services, who.telegram_id, Text("LICHESS_GAME", {
                "round": number, "board": board.board, "link": link,
                "colour": Text("COLOURS_WORD", pick=colour),
                "opponent": everyone[other].name}), about=who.name)


async def _tell_left_out(services: Services, number: int,
                         boards: list[tuple[OnlineBoard, list[str]]],
                         everyone: dict[str, Member]) -> None:
    """The arbiter hears which boards have no game and why; each player who can change
    that, how."""
    def names(codes: list[str]) -> Lines:
        return Lines(tuple(everyone[c].name for c in codes), ", ")

    await owe_to_arbiters(services, lines(
        Text("LICHESS_LEFT_OUT", {"round": number}),
        *(Text("LICHESS_LEFT_OUT_BOARD", {
            "board": b.board, "white": everyone[b.white].name,
            "black": everyone[b.black].name, "who": names(who)}) for b, who in boards),
        Text("LICHESS_LEFT_OUT_WHAT")))
    for _, who in boards:
        for code in who:
            member = everyone[code]
            if member.telegram_id is not None:
                await tell(services, member.telegram_id,
                           Text("LICHESS_YOU_LEFT_OUT", {"round": number}),
                           about=member.name)


async def read_back(services: Services, number: int) -> None:
    """The round's games that ended since the last look: each result taken (final at once
    when the arbiter says so, else a player of the game confirms it), a game never played
    the arbiter's to decide; a game that began marked as under way."""
    async with services.lichess.turn:
        await _read_back(services, number)


async def _read_back(services: Services, number: int) -> None:
    db = services.db
    boards = {b.game_id: b for b in await store.online_boards(db, number)
              if b.game_id is not None and not b.final
              and ending(b.status or "created") in (Ending.WAITING, Ending.PLAYING)}
    if not boards:
        return
    follow: Callable[[], Awaitable[None]] | None = None
    for game in await _api(services).games(list(boards)):
        board = boards.get(game.id)
        if board is None or game.status == board.status:
            continue
        if await _ended(services, number, board, game.status, game.winner):
            follow = standings_follow(services)
    if follow is not None:
        await follow()


async def _ended(services: Services, number: int, board: OnlineBoard, status: str,
                 winner: str | None) -> bool:
    """What lichess now says of a board's game, kept (and, ended, acted on) in one
    transaction; True if it completed the round."""
    db = services.db
    async with db.transaction():
        now = next((b for b in await store.online_boards(db, number) if _key(b) == _key(board)),
                   None)
        if now is None or now.game_id != board.game_id or now.status == status or now.final:
            return False  # another process (or tick) took it first, or the board changed
        await store.keep_game(db, number, board, board.game_id, status)
        everyone = {m.code: m for m in await roster.members(db)}
        result = result_of(status, winner)
        if ending(status) is Ending.NOT_PLAYED:
            await owe_to_arbiters(services, Text("LICHESS_NOT_PLAYED", {
                "round": number, "board": board.board, "white": everyone[board.white].name,
                "black": everyone[board.black].name, "how": Text("LICHESS_HOW",
                                                                      pick=status)}))
        if result is None:
            return False
        return await _take(services, number, board, result, everyone)


async def _take(services: Services, number: int, board: OnlineBoard, result: Result,
                everyone: dict[str, Member]) -> bool:
    """lichess's result in the round: final at once (`/instellingen online bevestig auto`),
    else reported for a player of the game to confirm. A player's own report it agrees
    with is confirmed by it; one it contradicts goes to the arbiter."""
    db = services.db
    auto = (await club.settings(db)).online_auto
    try:
        done = await results.report(db, number, board.board, result,
                                    player=None if auto else board.white, actor=LICHESS)
    except InputStoreError as exc:  # settled meanwhile by the arbiter
        log.info("lichess result of round %d board %d not taken: %s", number, board.board, exc)
        return False
    await lichess_reported(services, everyone, done, result, ask=not auto)
    return done.round_complete


async def game_of(services: Services, member: Member) -> tuple[int, str] | None:
    """The member's lichess game still to play in a round under way: its round and link."""
    if not ready(services):
        return None
    for rnd in await live_rounds(services):
        for board in await store.online_boards(services.db, rnd.number):
            if member.code in (board.white, board.black) and board.game_id is not None \
                    and not board.final and ending(board.status or "created") in (
                        Ending.WAITING, Ending.PLAYING):
                return rnd.number, game_url(services.settings.lichess_url, board.game_id)
    return None


async def live_text(services: Services, number: int) -> Lines:
    """The round's boards as lichess has them, under its pairing in `/indeling`: waiting,
    playing, ended, and each game's link."""
    shown: list[Said] = [Text("LICHESS_LIVE")]
    for board in await store.online_boards(services.db, number):
        state = "none" if board.status is None else board.status if board.status == MISSING \
            else ending(board.status).value
        line = Text("LICHESS_LIVE_BOARD", {"board": board.board,
                                           "state": Text("LICHESS_STATES", pick=state)})
        shown.append(line if board.game_id is None else Lines(
            (line, game_url(services.settings.lichess_url, board.game_id)), " · "))
    return Lines(tuple(shown))
