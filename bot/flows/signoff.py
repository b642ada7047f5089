"""Signing off (and undoing it): stored all or none, priced, and whoever it concerns told in
the same transaction (a late one: the arbiters and the opponent; an on-time one read after
the draft: the arbiters get a new draft)."""

from __future__ import annotations

import asyncio
import datetime as dt
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from bot.flows import rounds as round_flows
from bot.flows import views
from bot.language.notice import Dated, Lines, Phrase, Said, Text
from bot.notices import owe_to_arbiters, tell
from bot.services import Services, open_round, published_round
from core.preview import Earning, SignOffPrice, after_sign_off, sign_off_price
from core.rounds import PUBLIC, RoundState
from core.season import Absence, AbsenceReason, ExternalDay
from storage import attendance, programme, roster, rounds
from storage.errors import InputStoreError, StoreProblem
from storage.roster import Member
from storage.seasons import load_season, player_season


@dataclass(frozen=True, slots=True)
class Request:
    """What a sign-off asks for: the rounds, why, and the member's own words."""
    rounds: tuple[int, ...]
    reason: AbsenceReason = AbsenceReason.NOTICE
    day: ExternalDay | None = None
    note: str = ""


@dataclass(frozen=True, slots=True)
class SignedOff:
    round: int
    date: dt.date | None
    reason: AbsenceReason
    day: ExternalDay | None
    late_after: dt.datetime | None
    """The deadline it missed; None when it was in time."""
    price: SignOffPrice | None
    """What it earns (None: late, so nothing; or not asked for)."""
    kept: bool = False
    """Too late to change a sign-off made in time: that one stands (`reason`, `day`)."""


@dataclass(frozen=True, slots=True)
class SignOffReport:
    who: Member
    rounds: tuple[SignedOff, ...]
    decimals: int
    redrafted: tuple[int, ...] = field(default=())


@dataclass(frozen=True, slots=True)
class Prices:
    """What a request's sign-offs earn, priced before the write."""

    ahead: dict[int, SignOffPrice]
    """Per round that could be priced from the season as committed."""
    values: Mapping[str, Fraction] | None
    """The players' values now, to price a round as stored (a draft it drops); None while
    none were made since the start (`views.values_now`): unpriced then."""
    decimals: int
    """How the club shows a score (its rules, which a sign-off does not change)."""


async def prices(services: Services, who: Member, request: Request) -> Prices:
    """What each sign-off would earn, priced from the member's own rounds as committed and
    outside any transaction: the writer's lock is then held only for storing. The values
    come with the standings (the worker's, kept on their version; those made last while it
    makes them anew, `views.values_now`); a round it cannot price ahead is priced as stored."""
    # His own rounds are all a price needs of the season (milliseconds at any size); the
    # values are the worker's, and the wait for them is what may hold the member up.
    committed, values = await asyncio.gather(player_season(services.db, who.code),
                                             views.values_now(services))
    ahead: dict[int, SignOffPrice] = {}
    for earlier, number in enumerate(request.rounds):
        after = after_sign_off(committed, who.code, number, request.reason, request.day)
        if after is not None and values is not None:
            ahead[number] = await asyncio.to_thread(sign_off_price, after, values, who.code,
                                                    number, request.reason, request.day,
                                                    earlier)
    return Prices(ahead, values, committed.rules.display_decimals)


async def sign_off(services: Services, who: Member, request: Request, *, sent_at: dt.datetime,
                   actor: int, correction: bool, early: Prices | None,
                   team: int | None = None, result: Fraction | None = None) -> SignOffReport:
    """Store the sign-offs (all or none), and owe whom they concern what they must know.
    Each is priced (`early`, else as stored), unless `early` is None (the arbiter entering
    an external game needs no price)."""
    db = services.db
    async with db.transaction():
        dates = {r.number: r for r in await programme.schedule(db)}
        signed = [await attendance.sign_off(
            db, number, who.code, request.reason, sent_at=sent_at, actor=actor,
            day=request.day, note=request.note, team=team, result=result,
            correction=correction) for number in request.rounds]
        done, redrafted = [], []
        for one in signed:
            scheduled = dates[one.round]
            if one.kept:
                done.append(SignedOff(one.round, scheduled.date, one.reason, one.day, None,
                                      None, kept=True))
                continue
            if not one.on_time:
                await _tell_about_late(services, who, one.round)
                done.append(SignedOff(one.round, scheduled.date, one.reason, one.day,
                                      scheduled.deadline, None))
                continue
            if one.draft_dropped:
                await round_flows.redraft(services, one.round)
                redrafted.append(one.round)
            price = None if early is None else early.ahead.get(one.round)
            if price is None and early is not None and early.values is not None:
                price = await asyncio.to_thread(sign_off_price, await load_season(db),
                                                early.values, who.code, one.round, one.reason,
                                                one.day)
            done.append(SignedOff(one.round, scheduled.date, one.reason, one.day, None, price))
    # Read after the commit, not in it: a whole season read holds the writer for tens of
    # milliseconds at 60 players and 30 rounds, and every other member's update waits on it.
    decimals = early.decimals if early is not None \
        else (await load_season(db)).rules.display_decimals
    return SignOffReport(who, tuple(done), decimals, tuple(redrafted))


def said(done: SignOffReport, zone: dt.tzinfo, *, for_self: bool) -> Lines:
    """What a sign-off answers: each round on its line; the cap on paid sign-offs said
    once, where it matters."""
    shown: list[Said] = []
    about = None if for_self else done.who.name
    for one in done.rounds:
        facts = {"who": done.who.name, "round": one.round, "date": Dated(one.date)}
        if one.late_after is not None:
            shown.append(Text("SIGNED_OFF_LATE", facts | {"deadline": Dated(one.late_after,
                                                                            zone)}))
            continue
        kind = Absence(done.who.code, one.reason, one.day).kind
        facts["kind"] = Text("SIGNED_OFF_FOR", pick=kind)  # said only where the rules care
        if one.kept:
            shown.append(Text("SIGNED_OFF_KEPT", facts))
            continue
        shown.append(Text("SIGNED_OFF", facts | {"earns": "" if one.price is None else Phrase(
            "earns", (one.price, done.decimals, about))}))
    caps = {one.price.cap for one in done.rounds if one.price is not None
            and one.price.earning in (Earning.LATER, Earning.POINTS) and one.price.cap is not None}
    shown += [Text("EARNS_CAP", {"cap": cap}) for cap in caps]
    return Lines(tuple(shown))


async def _tell_about_late(services: Services, who: Member, number: int) -> None:
    stored = await rounds.stored_pairing(services.db, number)
    board = None if stored is None else next(
        (b for b in stored.boards if who.code in (b.white, b.black)), None)
    everyone = {m.code: m for m in await roster.members(services.db)}
    opponent = None if board is None else \
        everyone[board.black if board.white == who.code else board.white]
    await owe_to_arbiters(services, Text("LATE_TO_ARBITER", {
        "who": who.name, "round": number, "paired": "" if opponent is None else
        Text("LATE_PAIRED", {"opponent": opponent.name})}))
    # A draft is not public: its opponent never knew of a game, so there is nothing to undo.
    public = stored is not None and stored.state in PUBLIC
    if public and opponent is not None and opponent.telegram_id is not None:
        await tell(services, opponent.telegram_id,
                   Text("LATE_TO_OPPONENT", {"who": who.name, "round": number}),
                   about=opponent.name)


async def cancel(services: Services, who: Member, number: int, *, sent_at: dt.datetime,
                 actor: int, correction: bool) -> None:
    """Undo a sign-off: a member before the deadline, the arbiter always."""
    await attendance.cancel_sign_off(services.db, number, who.code, sent_at=sent_at,
                                     actor=actor, correction=correction)


async def sign_on(services: Services, who: Member, numbers: Sequence[int], *,
                  sent_at: dt.datetime, actor: int, correction: bool) -> list[bool]:
    """A flexible member will play these rounds (all or none); per round, True if he was
    not signed on yet."""
    async with services.db.transaction():
        return [await attendance.sign_on(services.db, number, who.code, sent_at=sent_at,
                                         actor=actor, correction=correction)
                for number in numbers]


async def plays(services: Services, who: Member, number: int, *, sent_at: dt.datetime,
                actor: int) -> None:
    """He will play (a button under the reminder): a flexible member signs on, a fixed one
    takes back a sign-off. A round already played is refused, as a sign-off for it is."""
    async with services.db.transaction():
        if await rounds.state(services.db, number) is RoundState.COMPLETE:
            raise InputStoreError(StoreProblem.ROUND_CLOSED, round=number)
        if who.flexible:
            await sign_on(services, who, [number], sent_at=sent_at, actor=actor,
                          correction=False)
        elif number in await signed_off_rounds(services, who, from_round=number):
            await cancel(services, who, number, sent_at=sent_at, actor=actor,
                         correction=False)


async def tapped(services: Services, who: Member, number: int, play: bool, *,
                 sent_at: dt.datetime) -> Said:
    """A member's tap on a round of his season (the Mini App): he signs off for it, or plays
    after all, as `/afmelden` and `/aanmelden` have it; what they would answer, which his
    chat is owed in the same commit (the chat keeps what he did wherever he did it)."""
    actor = who.telegram_id or 0
    if play:
        dates = {r.number: r.date for r in await programme.schedule(services.db)}
        answer: Said = Text("SIGNED_ON", {"name": who.name, "round": number,
                                    "date": Dated(dates.get(number))}) if who.flexible \
            else Text("AANMELDEN_DONE", {"round": number})
        async with services.db.transaction():
            await plays(services, who, number, sent_at=sent_at, actor=actor)
            await _tell_self(services, who, answer)
        return answer
    request = Request((number,))
    early = await prices(services, who, request)
    zone = services.settings.timezone
    async with services.db.transaction():
        done = await sign_off(services, who, request, sent_at=sent_at, actor=actor,
                              correction=False, early=early)
        answer = said(done, zone, for_self=True)  # the Mini App's words and the chat's
        await _tell_self(services, who, answer)
    return answer


async def _tell_self(services: Services, who: Member, answer: Said) -> None:
    if who.telegram_id is not None:
        await tell(services, who.telegram_id, answer)


async def signed_off_rounds(services: Services, who: Member, *, from_round: int) -> list[int]:
    return await attendance.signed_off_rounds(services.db, who.code, from_round=from_round)


@dataclass(frozen=True, slots=True)
class Booked:
    round: int
    day: ExternalDay


async def book_external(services: Services, who: Member, *, team: int, result: Fraction,
                        day: ExternalDay | None, number: int | None, sent_at: dt.datetime,
                        actor: int) -> Booked | None:
    """The arbiter books an external game's result: in the round named, else the round the
    member signed off for it (its result still open), else the open round; None if there is
    no such round. The day is the one named, else the one of his sign-off."""
    async with services.db.transaction():
        pending = await attendance.external_without_result(services.db, who.code)
        if number is None and pending is not None:
            number = pending[0]
        if number is None:
            upcoming = await open_round(services)
            number = upcoming.number if upcoming else await published_round(services)
        if number is None:
            return None
        if day is None:
            day = pending[1] if pending is not None and pending[0] == number \
                else ExternalDay.CLUB_NIGHT
        await sign_off(services, who, Request((number,), AbsenceReason.EXTERNAL, day),
                       sent_at=sent_at, actor=actor, correction=True, early=None, team=team,
                       result=result)
    return Booked(number, day)
