"""The standings in a process of their own.

Pricing a season is pure Python: in a thread it holds the interpreter's lock, and at a few
thousand players the event loop barely ran while a `/stand` was made (a member's `/help`
waited 14 s). The worker process reads the database file itself (read-only, in one snapshot)
and sends back only what is shown: text. It keeps the season and its standings for as long
as the standings version (`storage.db.versions`) stays; the bot keeps the texts on the same
version, so most questions never reach the worker; after a change it reads again only the
rounds written since (`storage.seasons.season_since`).
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import multiprocessing.connection
import multiprocessing.util
import os
import threading
from collections.abc import Callable, Mapping
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import TYPE_CHECKING, TypeVar

from bot.files import announce, messages, tables
from bot.language.i18n import words
from bot.language.notice import Pre, Said
from core.ledger import KeptEvents
from core.season import Season
from core.standings import PlayerStanding, Standings, compute_standings
from core.titles import announcements
from storage.address import StoreAddress
from storage.db import versions
from storage.seasons import KeptSeason, season_since
from storage.sql import Link
from storage.store import Readers, snapshot

if TYPE_CHECKING:
    from core.chances import Chances, NextRound

log = logging.getLogger(__name__)

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class StandingsView:
    """The standings after the last complete round, as the chat shows them."""

    after_round: int
    """0: no round is complete yet."""
    decimals: int
    group: Pre
    """The top rows (`messages.GROUP_TOP`), for the club group."""
    full: Pre
    """Every row, for a private chat."""
    places: Mapping[str, PlayerStanding]
    """Each ranked player's row: his place, score and value (what a sign-off is priced at)."""
    title: str = ""
    rows: tuple[tuple[str, ...], ...] = ()
    """Every row's compact cells (place, name, points, value), for an excerpt of a long
    table (`messages.standings_excerpt`)."""
    announced: tuple[Said, ...] = ()
    """Asked after a given round: the titles and prizes that round decided, in the view's
    language (`core.titles.announcements`), made from the season the worker holds, so the
    post of the standings reads no season of its own."""


@dataclass(frozen=True, slots=True)
class Breakdown:
    """A player's points round by round."""

    table: str | None
    """None: he is not in the standings yet (he joined after the last complete round)."""
    joined: int
    """The round he joined in."""


@dataclass(frozen=True, slots=True)
class Stakes:
    """What is at stake: everyone's chances of each final place, and the asker's place after
    the next round for each result of his."""

    chances: Chances
    next_round: NextRound | None
    """None: no asker, or no board for him."""


class Processes:
    """The worker processes, started at the first question and ended with the bot: one for
    a club's bot, shared by every club of a host (`bot.host`), each process keeping the
    stores it was asked about."""

    def __init__(self, count: int = 1) -> None:
        self.count = count
        self._pool: ProcessPoolExecutor | None = None

    async def run(self, work: Callable[..., T], *args: object) -> T:
        loop = asyncio.get_running_loop()
        for attempt in (1, 2):
            if self._pool is None:
                self._pool = ProcessPoolExecutor(
                    self.count, mp_context=multiprocessing.get_context("spawn"),
                    initializer=_begin)
            try:
                return await loop.run_in_executor(self._pool, work, *args)
            except BrokenProcessPool:
                # The process died (killed, out of memory): a new one answers.
                log.warning("the standings worker died; starting another (%d)", attempt)
                self._pool.shutdown(wait=False)
                self._pool = None
        raise RuntimeError("the standings worker died twice in a row")

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None


class Worker:
    """One club's standings, asked of the worker processes (its bot's, or those the clubs of
    a host share; their owner closes them)."""

    def __init__(self, address: StoreAddress, club: int | None, processes: Processes) -> None:
        self.store = (address, club)
        self.processes = processes
        self.values_made: Mapping[str, Fraction] | None = None
        """The players' values of the standings made last (`bot.flows.views.values_now`)."""

    async def standings(self, language: str, after_round: int | None = None) -> StandingsView:
        """The standings' texts in `language`: after the last complete round, or after
        `after_round` (a round whose standings are still to be posted)."""
        return await self.processes.run(_standings_view, self.store, language, after_round)

    async def breakdown(self, player: str, language: str) -> Breakdown:
        return await self.processes.run(_breakdown, self.store, player, language)

    async def stakes(self, player: str | None) -> Stakes:
        """The season's chances (worked out once per standings version: a few seconds at a
        club's size), and `player`'s next round."""
        return await self.processes.run(_stakes, self.store, player)


# --- inside the worker process ----------------------------------------------------------------


Store = tuple[StoreAddress, int | None]
"""A club's store as the worker names it: the file or address, and the club in it."""


@dataclass
class _Kept:
    conn: Link
    version: int = -1
    season: Season | None = None
    standings: Standings | None = None
    views: dict[str, StandingsView] = field(default_factory=dict)
    """The standings' texts, by language."""
    chances: Chances | None = None
    read: KeptSeason = field(default_factory=KeptSeason)
    """The season's rounds as last read: a change reads again only the rounds it wrote."""
    events: KeptEvents = field(default_factory=KeptEvents)
    """The standings' events as last made: a change makes again only its rounds'."""


_loop: asyncio.AbstractEventLoop | None = None
_kept: dict[Store, _Kept] = {}
_readers = Readers()


def _begin() -> None:
    global _loop
    # Never outlive the bot: a bot killed with SIGKILL cannot shut its pool down.
    parent = multiprocessing.parent_process()
    if parent is not None:
        threading.Thread(target=_exit_with, args=(parent.sentinel,), daemon=True).start()
    _loop = asyncio.new_event_loop()
    # A connection's thread is not a daemon: left open, it would keep the process from
    # ending when the pool shuts down (and the bot's own exit waits for the process).
    # Finalizers with a priority run at the process's exit, before its threads are joined.
    multiprocessing.util.Finalize(None, _end, args=(_loop,), exitpriority=10)


def _end(loop: asyncio.AbstractEventLoop) -> None:
    loop.run_until_complete(_readers.close())
    loop.close()


def _exit_with(sentinel: int) -> None:
    multiprocessing.connection.wait([sentinel])
    os._exit(0)


def _standings_view(store: Store, language: str, after_round: int | None) -> StandingsView:
    kept = _current(store)
    assert kept.season is not None and kept.standings is not None
    decimals = kept.season.rules.display_decimals
    if after_round in (None, kept.standings.after_round) and language not in kept.views:
        kept.views[language] = _view(kept.standings, decimals, language)
    if after_round is None:
        return kept.views[language]
    view = kept.views[language] if after_round == kept.standings.after_round \
        else _view(compute_standings(kept.season, after_round), decimals, language)
    return replace(view, announced=tuple(announce.announcement(kept.season, item)
                                         for item in announcements(kept.season, after_round)))


def _view(standings: Standings, decimals: int, language: str) -> StandingsView:
    w = words(language)
    return StandingsView(standings.after_round, decimals,
                         messages.standings_table(w, standings, decimals, messages.GROUP_TOP),
                         messages.standings_table(w, standings, decimals),
                         {row.id: row for row in standings.rows},
                         tables.standings_title(w, standings),
                         tuple(map(tuple, tables.compact_rows(w, standings, decimals))))


def _breakdown(store: Store, player: str, language: str) -> Breakdown:
    kept = _current(store)
    assert kept.season is not None and kept.standings is not None
    joined = kept.season.player(player).joined
    if player not in kept.standings.ranking:
        return Breakdown(None, joined)
    decimals = kept.season.rules.display_decimals
    return Breakdown(tables.breakdown_table(words(language), kept.standings, player, decimals),
                     joined)


def _stakes(store: Store, player: str | None) -> Stakes:
    # The simulation pairs with the engine's module: numpy and OR-Tools load at first use.
    from core.chances import chances, next_round

    kept = _current(store)
    assert kept.season is not None
    if kept.chances is None:
        kept.chances = chances(kept.season)
    return Stakes(kept.chances, None if player is None else next_round(kept.season, player))


def _current(store: Store) -> _Kept:
    """The season and standings as the store now stands, read again only when the standings
    version moved (read first, in the same snapshot as the season), and then only the rounds
    written since."""
    assert _loop is not None, "the worker is begun by its pool"
    loop = _loop
    if store not in _kept:
        address, club = store
        _kept[store] = _Kept(loop.run_until_complete(_readers.open(address, club)))
    kept = _kept[store]

    async def read() -> tuple[int, Season | None]:
        async with snapshot(kept.conn) as conn:
            version = (await versions(conn)).standings
            return version, None if version == kept.version else await season_since(
                conn, kept.read)
    version, season = loop.run_until_complete(read())
    if season is not None:
        complete = replace(season, rounds=season.rounds[:season.complete_rounds])
        kept.version, kept.season = version, season
        kept.standings = compute_standings(complete, kept=kept.events)
        kept.views, kept.chances = {}, None
    return kept
