"""Stored codes: who may see the club's pages. Apart from the store so that what only names
them (texts, the command line) loads no database code. The round's lifecycle and a result's
standing are the core's (`core.rounds`, `core.results`)."""

from __future__ import annotations

from enum import StrEnum


class WebAccess(StrEnum):
    """Who sees the club's live pages (stored as the word the arbiter types)."""

    PUBLIC = "openbaar"
    """Everyone."""
    MEMBERS = "leden"
    """Linked members, inside Telegram."""
    OFF = "uit"
