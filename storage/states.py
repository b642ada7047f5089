"""Stored codes: a round's lifecycle (its states, and which may follow which) and who may see
the club's pages. Apart from the store so that what only names a state (texts, the command
line) loads no database code."""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum


class RoundState(StrEnum):
    PLANNED = "planned"
    LOCKED = "locked"
    DRAFTED = "drafted"
    PUBLISHED = "published"
    COMPLETE = "complete"


TRANSITIONS: Mapping[RoundState, frozenset[RoundState]] = {
    RoundState.PLANNED: frozenset({RoundState.LOCKED}),
    RoundState.LOCKED: frozenset({RoundState.DRAFTED}),
    RoundState.DRAFTED: frozenset({RoundState.DRAFTED, RoundState.LOCKED,
                                   RoundState.PUBLISHED}),
    RoundState.PUBLISHED: frozenset({RoundState.COMPLETE}),
    RoundState.COMPLETE: frozenset({RoundState.PUBLISHED}),
}
OPEN = frozenset({RoundState.PLANNED, RoundState.LOCKED, RoundState.DRAFTED})
"""Not yet public: members can still sign off (late after the deadline)."""
PUBLIC = frozenset({RoundState.PUBLISHED, RoundState.COMPLETE})


class WebAccess(StrEnum):
    """Who sees the club's live pages (stored as the word the arbiter types)."""

    PUBLIC = "openbaar"
    """Everyone."""
    MEMBERS = "leden"
    """Linked members, inside Telegram."""
    OFF = "uit"
