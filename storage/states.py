"""Stored codes: a round's lifecycle (its states, and which may follow which), where a result
stands, and who may see the club's pages. Apart from the store so that what only names a
state (texts, the command line) loads no database code."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from types import MappingProxyType

from core.season import Result


class RoundState(StrEnum):
    PLANNED = "planned"
    LOCKED = "locked"
    DRAFTED = "drafted"
    PUBLISHED = "published"
    COMPLETE = "complete"


TRANSITIONS: Mapping[RoundState, frozenset[RoundState]] = {
    RoundState.PLANNED: frozenset({RoundState.LOCKED}),
    # Back to planned: the round was postponed before its publication (its draft goes).
    RoundState.LOCKED: frozenset({RoundState.DRAFTED, RoundState.PLANNED}),
    RoundState.DRAFTED: frozenset({RoundState.DRAFTED, RoundState.LOCKED,
                                   RoundState.PUBLISHED, RoundState.PLANNED}),
    RoundState.PUBLISHED: frozenset({RoundState.COMPLETE}),
    RoundState.COMPLETE: frozenset({RoundState.PUBLISHED}),
}
OPEN = frozenset({RoundState.PLANNED, RoundState.LOCKED, RoundState.DRAFTED})
"""Not yet public: members can still sign off (late after the deadline)."""
PUBLIC = frozenset({RoundState.PUBLISHED, RoundState.COMPLETE})


class ResultState(StrEnum):
    """Where a game's result stands: only a final one counts in the standings."""

    FINAL = "final"
    """Confirmed by the opponent or entered by the arbiter."""
    WAITING = "waiting"
    """Reported by one player; the other has not confirmed it yet."""
    DISPUTED = "disputed"
    """The opponent said it is wrong, or reported another: the arbiter decides."""


@dataclass(frozen=True, slots=True)
class Unsettled:
    """A result reported and not final yet: waiting for the opponent, or disputed."""

    board: int
    result: Result
    state: ResultState


UnsettledResults = Mapping[tuple[int, str], Unsettled]
"""The results not final yet, by round and by each of the game's two players."""
NONE_UNSETTLED: UnsettledResults = MappingProxyType({})


class WebAccess(StrEnum):
    """Who sees the club's live pages (stored as the word the arbiter types)."""

    PUBLIC = "openbaar"
    """Everyone."""
    MEMBERS = "leden"
    """Linked members, inside Telegram."""
    OFF = "uit"
