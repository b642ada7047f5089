"""Messages that show stored facts (a pairing, the standings), rendered from the season: used
by handlers for replies and by flows for the messages they owe."""

from __future__ import annotations

import asyncio
from dataclasses import replace

from bot import tables, texts
from bot.chat import esc
from core.pairing.request import pairing_ranking
from core.season import Season
from core.standings import Standings

GROUP_TOP = 12
"""Rows of the standings shown in the club group (the rest on request, privately)."""


async def pairing(season: Season, stored: tables.PairingView, *, when: str = "") -> str:
    """The pairing as a chat message: a bold title, then one line per board."""
    ranking = await asyncio.to_thread(pairing_ranking, season, stored.round)
    title = texts.PAIRING_TITLE.format(round=stored.round) + (f" ({when})" if when else "")
    return f"<b>{title}</b>\n{tables.pairing_lines(stored, season, ranking)}"


def standings_table(standings: Standings, decimals: int, top: int | None = None) -> str:
    """Compact, for a phone; the full columns are on the website export."""
    shown = standings if top is None else replace(standings, rows=standings.rows[:top])
    return f"<pre>{esc(tables.standings_table(shown, decimals, compact=True))}</pre>"
