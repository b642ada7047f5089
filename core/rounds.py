"""A round's lifecycle (its states, and which may follow which), where a game's result
stands, and when a round is complete."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from enum import StrEnum


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


def complete(finals: Iterable[bool]) -> bool:
    """A published round is complete when every game's result is final (confirmed by the
    opponent or entered by the arbiter); a bye needs no result."""
    return all(finals)
