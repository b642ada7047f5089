"""The KNSB rating list sent by the arbiter: read and compared off the event loop, kept as a
proposal, and written only when he confirms (one transaction, in the audit log)."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

from bot.services import Services
from core.ratings import Change, Proposal, propose, read_list
from core.season import Season
from storage import club, ratings
from storage.seasons import load_season


@dataclass(frozen=True, slots=True)
class Shown:
    """A proposal as the arbiter sees it: its number (for the buttons) and the names."""

    number: int
    proposal: Proposal
    names: dict[str, str]


def _names(season: Season) -> dict[str, str]:
    return {p.id: p.name for p in season.players}


@dataclass(frozen=True, slots=True)
class Compared:
    """The list read and compared with the members, not kept yet."""

    proposal: Proposal
    names: dict[str, str]


async def compare(services: Services, data: bytes, name: str = "") -> Compared:
    """The list (the file `name`) against the members, read and compared outside any
    transaction (a list of the whole federation takes a while); raises RatingListError for
    a file that is none, or that is another of the KNSB's lists than the club's."""
    which = (await club.settings(services.db)).rating_list
    listed = await asyncio.to_thread(read_list, data, which, name)
    season = await load_season(services.db)
    return Compared(await asyncio.to_thread(propose, season, listed), _names(season))


async def keep(services: Services, compared: Compared, *, actor: int) -> Shown:
    """Keep the comparison as a proposal for the arbiter's decision."""
    number = await ratings.propose(services.db, compared.proposal, actor=actor)
    return Shown(number, compared.proposal, compared.names)


async def accept(services: Services, number: int, close: int) -> Shown | None:
    """A close match taken along; None when the proposal was decided already."""
    async with services.db.transaction():
        proposal = await ratings.accept(services.db, number, close)
        return None if proposal is None else Shown(number, proposal,
                                                   _names(await load_season(services.db)))


async def decide(services: Services, number: int, *, confirm: bool,
                 actor: int) -> tuple[Change, ...] | None:
    """Write the ratings, or lay the list aside; None when it was decided already."""
    return await ratings.decide(services.db, number, confirm=confirm, actor=actor)
