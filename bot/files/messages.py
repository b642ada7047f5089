"""Messages that show stored facts (a pairing, the standings), rendered from the season: used
by handlers for replies and by flows for the messages they owe."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import replace

from markupsafe import Markup

from bot.config import Config
from bot.files import tables
from bot.keyboard import Button, Keyboard
from bot.language import texts
from bot.language.i18n import Words
from bot.language.notice import Composed, Dated, Pre, Text
from core.online import Clock
from core.pairing.request import pairing_ranking
from core.season import Season
from core.standings import Standings
from storage.rounds import StoredPairing
from storage.states import WebAccess

GROUP_TOP = 12
"""Rows of the standings shown in the club group (the rest on request, privately)."""


async def pairing(season: Season, stored: tables.PairingView, *, when: Dated | None = None,
                  online: Clock | None = None) -> Composed:
    """The pairing as a chat message: a bold title, then one line per board (with its result
    where one is in, marked where it is not final); a round `online` at its lichess clock."""
    ranking = await asyncio.to_thread(pairing_ranking, season, stored.round)

    def made(w: Words) -> Markup:
        title = w(texts.PAIRING_TITLE).format(round=stored.round) + (
            f" ({when.plain(w)})" if when is not None else "")
        results = [texts.result_shown(w, result, state) for result, state
                   in zip(stored.results, stored.states, strict=True)] \
            if isinstance(stored, StoredPairing) else []
        return Markup("<b>{}</b>\n{}").format(
            title, tables.pairing_lines(w, stored, season, ranking, results, online))
    return Composed(made)


def standings_table(w: Words, standings: Standings, decimals: int,
                    top: int | None = None) -> Pre:
    """Compact, for a phone; the full columns are on the website export."""
    shown = standings if top is None else replace(standings, rows=standings.rows[:top])
    return Pre(tables.standings_table(w, shown, decimals, compact=True))


SCREENFUL = 60
"""Rows a private /stand shows in full; a longer table is shown as its top and the asker's
neighbourhood (`/stand alles` for every row)."""
EXCERPT_TOP = 10
NEIGHBOURS = 3


def standings_excerpt(w: Words, title: str, rows: Sequence[Sequence[str]], rank: int | None) -> Pre:
    """The top of a long table, and the rows around place `rank` (the asker's, if ranked)."""
    shown = set(range(min(EXCERPT_TOP, len(rows))))
    if rank is not None:
        shown |= set(range(max(0, rank - 1 - NEIGHBOURS), min(len(rows), rank + NEIGHBOURS)))
    return Pre(tables.excerpt(w, title, rows, sorted(shown)))


def page_button(config: Config, access: WebAccess, bot_name: str, *,
                private: bool) -> Keyboard | None:
    """The button that opens the club's pages: inside Telegram as a Mini App in a private
    chat; in a group, where web_app buttons are not allowed, the Mini App's t.me link (or the
    public page itself). None when the club has no pages, or none this chat may open."""
    if not config.public_url or config.web_port is None or access is WebAccess.OFF:
        return None
    if private:
        button = Button(Text("WEB_BUTTON"), web_app=config.public_url + "/")
    elif config.web_app and bot_name:
        button = Button(Text("WEB_BUTTON"), url=f"https://t.me/{bot_name}/{config.web_app}")
    elif access is WebAccess.PUBLIC:
        button = Button(Text("WEB_BUTTON"), url=config.public_url + "/")
    else:
        return None
    return Keyboard.row(button)
