"""The rules of a game's result: what a report makes of what was reported before it (a new
report, a confirmation, a conflict, or nothing), and who may report or confirm it. Storage
stores what these decide, as it stores what `core.attendance` decides of a sign-off."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from types import MappingProxyType

from core.rounds import ResultState
from core.season import Result


class Outcome(StrEnum):
    RECORDED = "recorded"
    """Reported; waits for the opponent's (or the arbiter's) confirmation."""
    CONFIRMED = "confirmed"
    """Final."""
    CONFLICT = "conflict"
    """The opponent reported something else: nothing changed, the arbiter decides."""
    UNCHANGED = "unchanged"
    """The same player tapped the same result again: nothing changed."""


class Refusal(StrEnum):
    """Why a report or a confirmation is not taken."""

    NOT_IN_GAME = "not_in_game"
    """A player reports or confirms a game he does not play (or his own report)."""
    ALREADY_CONFIRMED = "already_confirmed"
    """The result is final: only the arbiter changes it."""
    NOTHING_REPORTED = "nothing_reported"
    """There is no result to confirm."""


@dataclass(frozen=True, slots=True)
class Reported:
    """A game's result as it stands: what was reported (None: nothing yet), by whom (a
    Telegram user; the arbiter's entry and lichess count as reporters too), and whether it
    is final."""

    result: Result | None
    reported_by: int | None
    confirmed: bool


def rule_report(game: Reported, result: Result, *, by_player: bool, in_game: bool,
                actor: int | None, again: bool = True) -> Outcome | Refusal:
    """`actor` reports `result`: a player of the game (`by_player`; `in_game`: he plays it),
    or the arbiter, whose entry is final at once. A player's report over his own, or over
    none, is a new report; the opponent's same result confirms it, another one conflicts.
    Without `again`, the same player's same result a second time changes nothing (a second
    tap on a button)."""
    if not by_player:
        return Outcome.CONFIRMED
    if not in_game:
        return Refusal.NOT_IN_GAME
    if game.confirmed:
        return Refusal.ALREADY_CONFIRMED
    if not again and game.reported_by == actor and game.result == result:
        return Outcome.UNCHANGED
    if game.result is None or game.reported_by == actor:
        return Outcome.RECORDED
    return Outcome.CONFIRMED if game.result == result else Outcome.CONFLICT


def rule_confirm(game: Reported, *, by_player: bool, in_game: bool,
                 actor: int | None) -> Refusal | None:
    """`actor` confirms the reported result: the opponent of its reporter (`by_player`,
    `in_game`), or the arbiter. None: it becomes final."""
    if game.result is None:
        return Refusal.NOTHING_REPORTED
    if game.confirmed:
        return Refusal.ALREADY_CONFIRMED
    if by_player and (not in_game or game.reported_by == actor):
        return Refusal.NOT_IN_GAME
    return None


@dataclass(frozen=True, slots=True)
class Unsettled:
    """A result reported and not final yet: waiting for the opponent, or disputed."""

    board: int
    result: Result
    state: ResultState


UnsettledResults = Mapping[tuple[int, str], Unsettled]
"""The results not final yet, by round and by each of the game's two players."""
NONE_UNSETTLED: UnsettledResults = MappingProxyType({})
