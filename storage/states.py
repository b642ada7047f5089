"""Stored codes: a result not final yet, and who may see the club's pages. Apart from the
store so that what only names them (texts, the command line) loads no database code. The
round's lifecycle and a result's standing are the core's (`core.rounds`)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from types import MappingProxyType

from core.rounds import ResultState
from core.season import Result


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
