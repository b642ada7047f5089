"""A round paired at the venue (`/ronde nieuw ... ter plaatse`): from its deadline the members
say they are in the room (Ik ben er, in the group or the Mini App) or the arbiter says it for
them, and `/indeling maak` pairs only those (`rounds.draft`)."""

from __future__ import annotations

from dataclasses import dataclass

from bot.flows import rounds
from bot.language.notice import Text
from bot.notices import owe_to_arbiters
from bot.services import ScheduledRound, Services, schedule
from core.pairing import before_pairing
from core.pairing.request import present_in
from core.rounds import RoundState
from storage import attendance, roster
from storage.roster import Member
from storage.seasons import load_season

COMING_IN = (RoundState.LOCKED, RoundState.DRAFTED)
"""A round at the venue whose members are coming in: open, and not yet published."""


@dataclass(frozen=True, slots=True)
class Arrival:
    checked: attendance.CheckIn
    draft: rounds.Draft | None = None
    """The round paired again with him (he came after the draft)."""
    here: int = 0
    """How many are in the room now."""


@dataclass(frozen=True, slots=True)
class Room:
    """Who is in the room for a round at the venue, and who not (yet)."""

    round: int
    here: tuple[Member, ...]
    missing: tuple[Member, ...]
    """Neither in the room nor signed off."""
    signed_off: tuple[Member, ...]


async def room_round(services: Services) -> ScheduledRound | None:
    """The round at the venue whose members are coming in now, if any."""
    return next((r for r in await schedule(services) if r.on_site and r.state in COMING_IN),
                None)


async def check_in(services: Services, who: Member, number: int, *, actor: int,
                   by_arbiter: bool) -> Arrival:
    """He is there. After the draft, the round is paired again with him (the arbiters told,
    unless one of them said it); after the pairing is out, the arbiters are told, to give
    him a board or not (`rounds.arrived`)."""
    db = services.db
    async with db.transaction():
        done = await attendance.check_in(db, number, who.code, at=services.clock(),
                                         actor=actor, correction=by_arbiter)
        made = None
        if done.draft_dropped:
            made = await rounds.draft(services, number, actor=actor)
            if not by_arbiter:
                drafted = made
                await owe_to_arbiters(services, await rounds.draft_text(
                    services, drafted, Text("DRAFT_CAME", {"name": who.name, "round": number})))
        elif done.late and done.new and not by_arbiter:
            await owe_to_arbiters(services, Text("CHECK_IN_LATE", {"name": who.name,
                                                                   "round": number}))
        here = len(await attendance.present(db, number))
    return Arrival(done, made, here)


def said_to_member(came: Arrival) -> Text:
    """What a member who said he is there is told (a toast, or his season's page)."""
    checked = came.checked
    key = "HERE_LATE" if checked.late else "HERE_NOTED" if checked.new else "HERE_ALREADY"
    return Text(key, {"round": checked.round})


def said_to_arbiter(came: Arrival, who: Member) -> Text:
    """What the arbiter is told when he says a member is there."""
    return Text("ROOM_HERE" if came.checked.new else "ROOM_ALREADY",
                {"name": who.name, "round": came.checked.round, "count": came.here})


def said_gone(who: Member, number: int, was: bool, count: int) -> Text:
    """What the arbiter is told when he takes back that a member is there."""
    return Text("ROOM_GONE" if was else "ROOM_NOT",
                {"name": who.name, "round": number, "count": count})


async def check_out(services: Services, who: Member, number: int, *,
                    actor: int) -> tuple[bool, int]:
    """The arbiter takes back that he is there: whether he was, and how many are there now.
    A draft with him goes; `/indeling maak` pairs again."""
    db = services.db
    async with db.transaction():
        was = await attendance.check_out(db, number, who.code, actor=actor)
        return was, len(await attendance.present(db, number))


async def mark(services: Services, who: Member, number: int, *, here: bool,
               actor: int) -> None:
    """The arbiter's tap on the draft's board of a round at the venue, as `/indeling erbij`
    and `afwezig` say it in the room: he is there (his sign-off goes), or not after all; a
    draft goes with either, and the board pairs again once this is committed."""
    db = services.db
    if here:
        await attendance.check_in(db, number, who.code, at=services.clock(), actor=actor,
                                  correction=True)
    else:
        await attendance.check_out(db, number, who.code, actor=actor)


async def room(services: Services, number: int) -> Room:
    db = services.db
    here = set(await attendance.present(db, number))
    season = await load_season(db)
    active = {p.id for p in season.players if p.active_in(number)}
    expected = present_in(before_pairing(season, number), number)
    members = [m for m in await roster.members(db) if m.code in active]
    return Room(number, tuple(m for m in members if m.code in here),
                tuple(m for m in members if m.code in expected - here),
                tuple(m for m in members if m.code not in expected | here))
