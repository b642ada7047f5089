"""Results: a player reports, the opponent confirms (or disputes) with a button, the arbiter
settles; the last result of a round owes the club group the new standings."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace
from enum import StrEnum

from bot.callbacks import Confirm, Dispute
from bot.files import messages
from bot.keyboard import Button, Keyboard
from bot.language.notice import Text, lines
from bot.notices import owe_to_arbiters, tell, tell_group
from bot.services import Services, published_round
from bot.worker import StandingsView
from core.results import Outcome
from core.season import Result
from storage import club, programme, results, roster, rounds
from storage.club import ClubSettings
from storage.errors import InputStoreError, StoreError
from storage.roster import Member
from storage.seasons import has_season

log = logging.getLogger(__name__)

__all__ = ["Confirmation", "Outcome", "Reported", "WhichRound", "confirm", "correct",
           "post_standings", "report", "standings_follow"]

CONFIRM = "confirm"
"""The kind of the message that asks the opponent to confirm (its buttons go stale)."""


@dataclass(frozen=True, slots=True)
class Reported:
    outcome: Outcome
    round: int
    board: int
    words: Text
    """The result in words, with the players' names."""
    opponent: str
    """The reporter's opponent (empty when the arbiter entered it)."""
    stale: tuple[tuple[int, int], ...] = ()
    """Messages (chat, message) whose confirm buttons the decision made stale."""
    completed: bool = False
    """The result was the round's last to become final: its standings follow the commit
    (`standings_follow`)."""


async def _everyone(services: Services) -> dict[str, Member]:
    return {m.code: m for m in await roster.members(services.db)}


def _confirm_buttons(facts: tuple[int, int, str]) -> Keyboard:
    """Under a result reported by the opponent or lichess: confirm it, or not."""
    return Keyboard.row(Button(Text("CONFIRM_YES"), Confirm(*facts).pack()),
                        Button(Text("CONFIRM_NO"), Dispute(*facts).pack()))


def _words(everyone: dict[str, Member], result: Result, white: str, black: str) -> Text:
    return Text("RESULT_WORDS", {"white": everyone[white].name,
                                 "black": everyone[black].name}, pick=result.value)


@dataclass(frozen=True, slots=True)
class WhichRound:
    """A result typed without a round while the player has more than one game without a
    final result: he is asked which game it is for."""

    result: Result
    games: tuple[tuple[int, int, str], ...]
    """Each game's round, board and opponent's name, the earliest first."""


async def report(services: Services, who: Member, result: Result, *,
                 replied_to: tuple[int, int] | None, actor: int,
                 tapped_in: int | None = None) -> Reported | WhichRound | None:
    """A player's result for his game: in round `tapped_in` (a button under his pairing),
    or the round of the pairing he replied to (`replied_to`: chat and message), else his
    only game without a final result (two or more: he is asked which, `WhichRound`), else
    the newest published round; None if no round is published. The opponent is asked to
    confirm, or the arbiters hear of a conflict. Typed again, the opponent is asked again;
    tapped again, not."""
    db = services.db
    async with db.transaction():
        everyone = await _everyone(services)
        number = tapped_in
        if number is None and replied_to is not None:
            number = await programme.message_round(db, *replied_to)
        if number is None:
            waiting = await results.open_games(db, who.code)
            if len(waiting) > 1:
                return WhichRound(result, tuple((g.round, g.board, everyone[g.opponent].name)
                                                for g in waiting))
            number = waiting[0].round if waiting else await published_round(services)
        if number is None:
            return None
        board = await results.board_of(db, number, who.code)
        outcome = await results.report(db, number, board, result, player=who.code, actor=actor,
                                       again=tapped_in is None)
        return await _announce(services, everyone, outcome, who, result)


async def board_of(services: Services, number: int, who: Member) -> int | None:
    """The board `who` plays in round `number`, if any."""
    try:
        return await results.board_of(services.db, number, who.code)
    except InputStoreError:
        return None


async def correct(services: Services, number: int | None, board: int, result: Result, *,
                  actor: int) -> Reported | None:
    """The arbiter enters (or corrects) a result: final at once."""
    async with services.db.transaction():
        number = number or await published_round(services)
        if number is None:
            return None
        outcome = await results.correct(services.db, number, board, result, actor=actor)
        everyone = await _everyone(services)
        done = await _announce(services, everyone, outcome, None, result)
        for code in (outcome.white, outcome.black):
            player = everyone[code]
            if player.telegram_id is not None:
                await tell(services, player.telegram_id, Text("RESULT_DECIDED", {
                    "round": number, "board": board,
                    "words": _words(everyone, result, outcome.white, outcome.black)}),
                    about=player.name)
        stale = tuple((chat, message) for chat, message, code
                      in await programme.posted(services.db, number, CONFIRM)
                      if code in (outcome.white, outcome.black))
        return replace(done, stale=stale)


async def _announce(services: Services, everyone: dict[str, Member],
                    outcome: results.GameResult, reporter: Member | None,
                    reported: Result) -> Reported:
    assert outcome.result is not None
    said = _words(everyone, outcome.result, outcome.white, outcome.black)
    opponent = None if reporter is None else \
        everyone[outcome.black if reporter.code == outcome.white else outcome.white]
    if outcome.outcome is Outcome.CONFLICT:
        first = outcome.result
        await owe_to_arbiters(services, Text("CONFLICT_TO_ARBITER", {
            "round": outcome.round, "board": outcome.board,
            "first": _words(everyone, first, outcome.white, outcome.black),
            "second": _words(everyone, reported, outcome.white, outcome.black)}))
    elif outcome.outcome is Outcome.RECORDED:
        assert reporter is not None and opponent is not None
        if opponent.telegram_id is not None:
            facts = (outcome.round, outcome.board, outcome.result.value)
            await tell(services, opponent.telegram_id, Text("CONFIRM_ASK", {
                "reporter": reporter.name, "round": outcome.round,
                "board": outcome.board,
                "words": _words(everyone, outcome.result, outcome.white, outcome.black)}),
                markup=_confirm_buttons(facts),
                about=opponent.name, round_no=outcome.round, kind=CONFIRM,
                player=opponent.code)
    return Reported(outcome.outcome, outcome.round, outcome.board, said,
                    "" if opponent is None else opponent.name,
                    completed=outcome.round_complete)


async def lichess_reported(services: Services, everyone: dict[str, Member],
                           outcome: results.GameResult, lichess: Result, *,
                           ask: bool) -> None:
    """The result `lichess` gave, taken: both players hear it, each asked to confirm it while
    it waits for that (`ask`); a player's own report it contradicts goes to the arbiters,
    both results named, and which one lichess gave."""
    assert outcome.result is not None
    if outcome.outcome is Outcome.CONFLICT:
        await owe_to_arbiters(services, Text("CONFLICT_LICHESS_TO_ARBITER", {
            "round": outcome.round, "board": outcome.board,
            "reported": _words(everyone, outcome.result, outcome.white, outcome.black),
            "lichess": _words(everyone, lichess, outcome.white, outcome.black)}))
        return
    facts = (outcome.round, outcome.board, outcome.result.value)
    waits = ask and outcome.outcome is Outcome.RECORDED
    for code in (outcome.white, outcome.black):
        player = everyone[code]
        if player.telegram_id is None:
            continue
        await tell(services, player.telegram_id, Text(
            "LICHESS_RESULT_ASK" if waits else "LICHESS_RESULT", {
                "round": outcome.round, "board": outcome.board,
                "words": _words(everyone, outcome.result, outcome.white, outcome.black)}),
            markup=_confirm_buttons(facts) if waits else None,
            about=player.name, round_no=outcome.round,
            kind=CONFIRM if waits else None, player=code)


class Confirmation(StrEnum):
    NOT_YOURS = "not_yours"
    DISPUTED = "disputed"
    ALREADY_HANDLED = "already_handled"
    CONFIRMED = "confirmed"
    COMPLETED = "completed"
    """Confirmed, and it was the round's last result to become final."""


async def confirm(services: Services, user_id: int, number: int, board: int, value: str, *,
                  agrees: bool) -> tuple[Confirmation, Text]:
    """The opponent's answer to a reported result (a button), and the result in words. A
    dispute goes to the arbiters; a tap on a result that changed or was settled meanwhile
    changes nothing."""
    db = services.db
    async with db.transaction():
        who = await roster.member_of(db, user_id)
        stored = await results.game(db, number, board)
        if who is None or who.code not in (stored.white, stored.black) \
                or stored.reported_by == user_id:
            return Confirmation.NOT_YOURS, Text("NOT_YOUR_BUTTON")
        everyone = await _everyone(services)
        said = _words(everyone, Result(value), stored.white, stored.black)
        # Only an open report with this value can be confirmed or disputed.
        if stored.result is None or stored.result.value != value or stored.confirmed:
            return Confirmation.ALREADY_HANDLED, said
        if not agrees:
            await results.dispute(db, number, board, actor=user_id)
            disputed = Result(value)
            facts = {"who": who.name, "round": number, "board": board,
                     "words": _words(everyone, disputed, stored.white, stored.black)}
            await owe_to_arbiters(services, Text("DISPUTE_TO_ARBITER", facts))
            reporter = everyone[stored.black if who.code == stored.white else stored.white]
            if reporter.telegram_id is not None:
                await tell(services, reporter.telegram_id, Text("DISPUTE_TO_REPORTER", facts),
                           about=reporter.name)
            return Confirmation.DISPUTED, said
        done = await results.confirm(db, number, board, player=who.code, actor=user_id)
    return (Confirmation.COMPLETED if done.round_complete else Confirmation.CONFIRMED), said


async def post_standings(services: Services) -> list[int]:
    """The new standings in the club group, with whatever titles and prizes the round
    decided, for every round completed since they were last posted; the rounds posted. Run
    after the commit that completed a round (`completed` in what its flow reports) and by
    the tick: the standings are made by the worker `/stand` asks, outside any transaction,
    then claimed and owed in a short one of their own, so a crash between the two leaves
    them to post, and two callers post them once."""
    db = services.db
    if not await has_season(db):
        return []
    posted = []
    for number in await rounds.unannounced(db):
        while True:
            version = (await db.versions()).data
            settings = await club.settings(db)
            view = await services.standings_worker.standings(settings.language, number)
            async with db.transaction():
                if (await db.versions()).data != version:
                    continue  # a result changed meanwhile: made again
                if await rounds.claim_announcement(db, number):
                    await _owe_standings(services, settings, view, number)
                    posted.append(number)
            break
    return posted


def standings_follow(services: Services) -> Callable[[], Awaitable[None]]:
    """What follows the commit of a flow that `completed` a round: its standings posted (a
    store that fails now leaves them to the tick)."""
    async def post() -> None:
        try:
            await post_standings(services)
        except StoreError as exc:
            log.warning("standings not posted: %s", exc)
    return post


async def _owe_standings(services: Services, settings: ClubSettings, view: StandingsView,
                         number: int) -> None:
    """The standings `view` (the worker's, in the club's language) in the group, and the
    titles and prizes the round decided (the worker's too: no season is read here, inside
    the transaction that claims the post)."""
    more = len(view.places) - messages.GROUP_TOP

    table = lines(Text("ROUND_COMPLETE", {"round": number}), view.group,
                  Text("STANDINGS_MORE", {"count": more}) if more > 0 else None)
    await tell_group(services, settings, table,
                     markup=messages.page_button(services.settings, settings.web,
                                                         services.bot_name, private=False))
    for said in view.announced:
        await tell_group(services, settings, said)
