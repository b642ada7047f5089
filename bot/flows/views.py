"""What members and the arbiter ask to see: the season, a pairing, a member's own summary.
Reads only: no transaction, nothing owed."""

from __future__ import annotations

from dataclasses import dataclass

from bot import messages, texts
from bot.services import Services, open_round, published_round, standings_of
from core.season import Season
from core.standings import PlayerStanding
from storage import attendance, club, rounds
from storage.club import Member
from storage.seasons import load_season
from storage.states import RoundState


async def season(services: Services) -> Season:
    return await load_season(services.db)


async def pairing_text(services: Services, *, arbiter: bool) -> str | None:
    """The pairing to show: the open round's draft for an arbiter, else the newest public
    one; None if there is none."""
    upcoming = await open_round(services)
    if arbiter and upcoming is not None and upcoming.state is RoundState.DRAFTED:
        draft = await rounds.stored_pairing(services.db, upcoming.number)
        if draft is not None:
            return texts.INDELING_DRAFT_TITLE + "\n" + await messages.pairing(
                await load_season(services.db), draft)
    number = await published_round(services)
    stored = None if number is None else await rounds.stored_pairing(services.db, number)
    if stored is None:
        return None
    return await messages.pairing(await load_season(services.db), stored)


@dataclass(frozen=True, slots=True)
class Game:
    round: int
    board: int
    white: bool
    opponent: str
    result: str | None


@dataclass(frozen=True, slots=True)
class Mine:
    """A member's own summary: his place, his sign-offs ahead, his game (or bye)."""
    place: PlayerStanding | None
    """His row in the standings (None before he is ranked)."""
    decimals: int
    signed_off: tuple[int, ...]
    games: tuple[Game, ...]
    bye_round: int | None


async def mine(services: Services, who: Member) -> Mine:
    season = await load_season(services.db)
    standings = await standings_of(services, season)
    row = standings.row(who.code) if who.code in standings.ranking else None
    upcoming = await open_round(services)
    signed = () if upcoming is None else tuple(await attendance.signed_off_rounds(
        services.db, who.code, from_round=upcoming.number))
    number = await published_round(services)
    stored = None if number is None else await rounds.stored_pairing(services.db, number)
    games: list[Game] = []
    bye = None
    if stored is not None:
        names = {m.code: m.name for m in await club.members(services.db)}
        for board, result in zip(stored.boards, stored.results, strict=True):
            if who.code in (board.white, board.black):
                white = board.white == who.code
                games.append(Game(stored.round, board.number, white,
                                  names[board.black if white else board.white],
                                  None if result is None else str(result)))
        bye = stored.round if stored.bye == who.code else None
    return Mine(row, season.rules.display_decimals, signed, tuple(games), bye)
