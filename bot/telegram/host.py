"""Many clubs in one process (`keizerbot host`, issue 27): each club's bot with its own token,
store, arbiters, rules and season; their pages and webhooks on one web server (a path per
club), their standings in shared worker processes, their stores on one pool of PostgreSQL
connections.

Each club runs as a `Runtime` of its own: its own inbox and outbox, its own flood limits (a
rate limiter per bot, as Telegram counts them) and its own scheduled jobs, so a club never
waits on another beyond what the database needs, and a failure in one club's round stays in
that club. A club whose bot cannot start is tried again later (Telegram or the database
away) or left out until its token is put right; the others run on.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import datetime as dt
import hashlib
import hmac
import logging
import os
import socket
import uuid
from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from aiohttp import web
from telegram.error import InvalidToken, TelegramError

from bot.config import Config
from bot.language.notice import Said, Text
from bot.services import Services, utc_now
from bot.telegram.runtime import ClubRuntime, Shared, to_the_end
from bot.web.server import ClubSite, WebServer, take_update
from bot.worker import Processes
from storage.address import PostgresUrl, StoreAddress, shown, store_of
from storage.errors import StoreError, StoreProblem
from storage.migrate import HOST_ALIVE_SECONDS
from storage.seal import Seal

log = logging.getLogger(__name__)

CLUB: contextvars.ContextVar[int | None] = contextvars.ContextVar("club", default=None)
"""The club whose work this is: set in each club's task, and so in every task, job and
update its bot starts from there."""


class ClubInLog(logging.Filter):
    """Each log line names its club (`%(club)s`: `club 3: `, or nothing for the host's own)."""

    def filter(self, record: logging.LogRecord) -> bool:
        club = CLUB.get()
        record.club = "" if club is None else f"club {club}: "
        return True

BEAT_SECONDS = 3.0
"""How often a host says it is alive, and looks at the clubs (added or removed with
`keizerbot clubs`) and at the other hosts."""
ALIVE_SECONDS = HOST_ALIVE_SECONDS
"""A host not heard of for this long (three beats) is gone: at their next beat the others
share its clubs, so a dead host's clubs run again within 15 s of its last beat. A host only
slow to beat loses nothing by it: its clubs' locks are its own until it lets them go."""
RETRY_SECONDS = (5.0, 300.0)
"""The first and the longest wait before a club whose bot could not start is tried again."""
POOL_CLOSE_SECONDS = 30.0
"""How long a stopping host waits for its clubs' connections to come back to the pool."""
STARTING_AT_ONCE = 2
"""Clubs started side by side. A start is mostly the event loop's own work (the store, the
application, the first jobs), and each club answers from the moment it takes webhooks: with
sixteen at once, thirty clubs' first sign-offs waited 1.8 s behind the others' starts, with
two 0.5 s (`bench/host.py --at-start`, docs/performance.md). The price: against the real
Telegram a start also waits for its round trips, which two at a time overlap less, so a host
of hundreds of clubs takes longer until the last runs (Telegram keeps its updates)."""


@dataclass(frozen=True, slots=True)
class Hosted:
    """A club as the host runs it."""

    id: int
    name: str
    token: str
    store: StoreAddress
    """The PostgreSQL database the clubs share, or the club's own SQLite file (a path given
    here is typed)."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "store", store_of(self.store))


Source = Callable[[], Awaitable[list[Hosted]]]
"""The clubs to run now (read again at every beat)."""


def share(clubs: Iterable[int], hosts: Sequence[str]) -> dict[int, str]:
    """Which of the `hosts` alive runs each club: each host at most its even share (clubs /
    hosts, rounded up), each club the first host of its own order (rendezvous: a hash of
    host and club) that has room. Every host works out the same from the same clubs and
    hosts, and a host that comes or goes moves few clubs besides its own."""
    if not hosts:
        return {}
    ordered = sorted(clubs)
    room = -(-len(ordered) // len(hosts))
    load = dict.fromkeys(hosts, 0)
    shared = {}
    for club in ordered:
        host = next(h for h in sorted(hosts, key=lambda h: _rank(h, club)) if load[h] < room)
        shared[club] = host
        load[host] += 1
    return shared


def _rank(host: str, club: int) -> bytes:
    return hashlib.sha256(f"{host}/{club}".encode()).digest()


def postgres_clubs(dsn: str, seal: Seal) -> Source:
    """The clubs of a PostgreSQL database, as `keizerbot clubs` keeps them, their tokens
    opened with `seal`."""
    async def read() -> list[Hosted]:
        from storage import postgres

        return [Hosted(c.id, c.name, c.token, PostgresUrl(dsn))
                for c in await postgres.clubs(dsn, seal)]
    return read


def club_config(config: Config, club: Hosted) -> Config:
    """The host's settings as one club's bot takes them. The arbiters are each club's own
    (`keizerbot clubs add --arbiter`), never the host's; a Mini App's short name belongs to
    one bot at @BotFather, so the groups get the plain link to the club's pages instead."""
    return replace(config, token=club.token, database=club.store,
                   club=club.id if isinstance(club.store, PostgresUrl) else None,
                   arbiters=(), web_app="",
                   public_url=f"{config.public_url}/{club.id}" if config.public_url else "")


class Host:
    """`start` and `stop`, like a `SingleClub`; `running` holds the clubs that run. The host
    keeps what its clubs share (the pool, the claims, the worker processes, the web server);
    each club's `ClubRuntime` opens and closes the rest."""

    def __init__(self, config: Config, clubs: Source | None = None, *,
                 clock: Callable[[], dt.datetime] = utc_now, flood_limits: bool = True,
                 connections: int = 10, processes: int = 1,
                 known: Callable[[str], None] = lambda token: None,
                 beat: float = BEAT_SECONDS, alive: float = ALIVE_SECONDS) -> None:
        """`clubs`: where the host finds its clubs (else the PostgreSQL database's own
        list, read at each beat on the connection that holds the clubs' locks);
        `connections`: the PostgreSQL connections the clubs share; `processes`: the
        standings workers they share; `known` is told each club's token (kept out of the
        log); `beat` and `alive` as BEAT_SECONDS and ALIVE_SECONDS."""
        self.config, self.clubs, self.clock = config, clubs, clock
        if clubs is None and self._postgres is None:
            raise ValueError("a host without a list of clubs runs a PostgreSQL database's")
        self.beat, self.alive = beat, alive
        self.id = f"{socket.gethostname()}-{os.getpid()}-{uuid.uuid4().hex[:8]}"
        """This host among those that share the database's clubs."""
        self.flood_limits, self.connections = flood_limits, connections
        self.known = known
        self.processes = Processes(processes)
        self.running: dict[int, ClubRuntime] = {}
        self.web: WebServer | None = None
        self._pool: Any = None
        self._claims: Any = None
        self._starting: dict[int, asyncio.Task[None]] = {}
        self._gate = asyncio.Semaphore(STARTING_AT_ONCE)
        self._refresher: asyncio.Task[None] | None = None
        self._listed: dict[int, Hosted] = {}
        """The clubs of the last look, by number."""
        self._visiting: dict[int, ClubSite] = {}
        """The pages of clubs other hosts run, shown here too, by number."""
        self._ended: asyncio.Future[Said] | None = None
        self._refused: dict[int, str] = {}
        """Clubs whose token Telegram refused, with that token: tried again once it changes."""

    @property
    def _postgres(self) -> str | None:
        store = self.config.database
        return store.url if isinstance(store, PostgresUrl) else None

    async def start(self) -> None:
        """Raises StoreError (the database cannot be reached) or OSError (the port); a club
        that cannot start does not stop the others."""
        dsn = self._postgres
        if dsn is not None:
            from storage import postgres

            try:
                self._pool = await postgres.club_pool(dsn, self.connections)
                self._claims = await postgres.Claims.connect(dsn, Seal(self.config.secret_key))
                await self._claims.listen(self._arrived)
            except BaseException as exc:
                await self._close_store()
                problem = postgres.problem_of(exc)
                if problem is not None:
                    raise StoreError(problem, path=shown(dsn), reason=exc) from exc
                raise
        if self.config.web_port is not None:
            self.web = WebServer(self.config.web_port, host=self.config.web_host)
            if self._pool is not None:
                self.web.elsewhere = self._keep_for_another
                self.web.visiting = self._pages_of_another
            try:
                await self.web.start()
            except OSError:
                await self.web.stop()
                await self._close_store()
                raise
        await asyncio.gather(*(tried.wait() for tried in await self.refresh()))
        self._ended = asyncio.get_running_loop().create_future()
        self._refresher = asyncio.create_task(self._refresh_often(), name="clubs")

    async def stop(self) -> None:
        if self._claims is not None:  # the others take its clubs at their next beat
            with contextlib.suppress(Exception):
                await self._claims.leave(self.id)
        tasks = [*self._starting.values(), *filter(None, [self._refresher])]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        await asyncio.gather(*(self._stop(club) for club in list(self.running)),
                             return_exceptions=True)
        if self.web is not None:
            await self.web.stop()
        await self._stop_visiting(set())
        self.processes.close()
        await self._close_store()

    async def _close_store(self) -> None:
        if self._claims is not None:
            await self._claims.close()
        if self._pool is not None:
            try:
                await asyncio.wait_for(self._pool.close(), POOL_CLOSE_SECONDS)
            except TimeoutError:  # a fault of ours: the stop still ends
                log.error("a connection of the clubs' pool was still taken after %g s; "
                          "closed without waiting", POOL_CLOSE_SECONDS)
                self._pool.terminate()
        self._claims = self._pool = None

    async def refresh(self) -> list[asyncio.Event]:
        """Say this host is alive; start the clubs that are its share now, stop those that
        were removed or are another host's share now. Returns, for each club it starts, an
        event set once it was tried (it may be tried again later)."""
        listed = self._listed = {club.id: club for club in await self._look()}
        wanted = listed
        if self._claims is not None:
            mine = share(listed, await self._claims.beat(self.id, self.alive))
            wanted = {n: club for n, club in listed.items() if mine.get(n) == self.id}
            for taken in self._claims.lost & set(self.running):
                # Its lock went with a broken connection, and another process has it now.
                log.warning("club %d runs in another process since the database came back; "
                            "stopping it here", taken)
                await self._stop(taken)
            self._claims.lost.clear()
        for gone in set(self.running) - set(wanted):
            log.info("club %d %s; stopping it", gone,
                     "goes to another host" if gone in listed else "was removed")
            await self._stop(gone)
        for other in set(self._starting) - set(wanted):
            self._starting[other].cancel()
        for runtime in self.running.values():  # what another host kept and none announced
            runtime.wake()
        await self._stop_visiting(set(listed) - set(self.running))
        tried = []
        for number, club in wanted.items():
            if number not in self.running and number not in self._starting and \
                    self._refused.get(number) != club.token:
                self.known(club.token)
                tried.append(asyncio.Event())
                task = asyncio.create_task(self._keep_trying(club, tried[-1]),
                                           name=f"club-{number}")
                self._starting[number] = task
                task.add_done_callback(self._started)
        return tried

    async def _look(self) -> list[Hosted]:
        if self.clubs is not None:
            return await self.clubs()
        return [Hosted(c.id, c.name, c.token, self.config.database)
                for c in await self._claims.clubs()]

    def _arrived(self, club: int) -> None:
        runtime = self.running.get(club)
        if runtime is not None:
            runtime.wake()

    async def _keep_for_another(self, number: str, request: web.Request) -> web.Response:
        """A webhook for a club another host runs (a proxy before the hosts knows not who
        runs what): checked against the club's own key and secret, kept in its inbox, and
        its host told (the inbox is looked at every beat besides)."""
        from storage import postgres
        from storage.inbox import store
        from storage.store import open_store

        club = self._listed.get(int(number)) if number.isdecimal() else None
        if club is None or self._pool is None:
            return web.Response(status=404)
        config = club_config(self.config, club)
        if not hmac.compare_digest(request.match_info["key"], config.webhook_key):
            return web.Response(status=404)
        pool = self._pool

        async def keep(payload: dict[str, Any]) -> None:
            db = await open_store(club.store, club=club.id, pool=pool)
            try:
                await store(db, [payload])
            finally:
                await db.close()
            await postgres.notify_inbox(pool, club.id)
        return await take_update(request, config.webhook_secret, keep)

    async def _pages_of_another(self, number: str) -> ClubSite | None:
        """A club another host runs, its pages shown here too (a proxy before the hosts
        sends a page's request to any of them): its store opened on the shared pool at the
        first page, and read as the host that runs it wrote it."""
        from bot.worker import Worker
        from storage.store import open_store

        club = self._listed.get(int(number)) if number.isdecimal() else None
        if club is None or club.id in self.running or self._pool is None:
            return None
        site = self._visiting.get(club.id)
        if site is None:
            config = club_config(self.config, club)
            db = await open_store(club.store, club=club.id, pool=self._pool)
            site = ClubSite(Services(config, db, Worker(club.store, club.id, self.processes),
                                     clock=self.clock), club.token)
            self._visiting[club.id] = site
        site.services.languages.forget()
        return site

    async def _stop_visiting(self, keep: set[int]) -> None:
        for number in set(self._visiting) - keep:
            await self._visiting.pop(number).services.db.close()

    def _started(self, task: asyncio.Task[None]) -> None:
        self._starting = {n: t for n, t in self._starting.items() if t is not task}

    async def ended(self) -> Said:
        """Returns once a newer keizerbot migrated the database past this host's schema: its
        clubs are for the hosts of the newer release then (docs/deploy.md, the upgrade)."""
        assert self._ended is not None, "started first"
        return await self._ended

    async def _refresh_often(self) -> None:
        while True:
            await asyncio.sleep(self.beat)
            try:
                await self.refresh()
            except StoreError as exc:
                if exc.problem is not StoreProblem.NEWER_DATABASE:
                    log.warning("could not read the clubs: %s", exc)
                    continue
                log.warning("the database was upgraded to schema %s by a newer keizerbot; "
                            "this host knows %s: it hands its clubs over and stops",
                            exc.facts["version"], exc.facts["known"])
                assert self._ended is not None
                self._ended.set_result(Text("HOST_OUTDATED", exc.facts))
                return
            except Exception as exc:  # the database away: the running clubs run on
                log.warning("could not read the clubs: %s", exc)

    async def _keep_trying(self, club: Hosted, tried: asyncio.Event) -> None:
        CLUB.set(club.id)  # this task's own context, which the club's bot starts from
        wait = RETRY_SECONDS[0]
        while True:
            try:
                async with self._gate:
                    await self._start(club)  # not started: held elsewhere, tried at a beat
                    return
            except InvalidToken:
                log.error("club %d (%s): Telegram refuses its token; give the right one with "
                          "`keizerbot clubs token %d --token ...`", club.id, club.name, club.id)
                self._refused[club.id] = club.token
                return
            except (StoreError, TelegramError, OSError) as exc:  # away for now: try again
                log.warning("club %d (%s) did not start (%s); trying again in %.0f s",
                            club.id, club.name, exc, wait)
            except Exception:  # a fault of ours: said in full, and it stays in this club
                log.exception("club %d (%s) did not start; trying again in %.0f s",
                              club.id, club.name, wait)
            finally:
                tried.set()
            await asyncio.sleep(wait)
            wait = min(wait * 2, RETRY_SECONDS[1])

    async def _start(self, club: Hosted) -> bool:
        """False: another process runs the club (tried again later)."""
        config = club_config(self.config, club)
        if self._claims is not None and not await self._claims.claim(club.id):
            log.info("club %d (%s) runs in another process", club.id, club.name)
            return False
        shared = Shared(self.processes, self.web, self._pool, exclusive=self._claims is None)
        runtime = ClubRuntime(config, shared, clock=self.clock, flood_limits=self.flood_limits,
                              path=str(club.id))
        try:
            await runtime.start()  # closes what it opened when it fails
        except BaseException:
            await self._release(club.id)
            raise
        self.running[club.id] = runtime
        log.info("club %d (%s) runs", club.id, club.name)
        return True

    async def _stop(self, club: int) -> None:
        # The club's own lines as it stops (PTB's among them) name it, as while it ran.
        named = CLUB.set(club)
        try:
            runtime = self.running.pop(club, None)
            if runtime is not None:  # out of `running`: nobody else would stop it
                await to_the_end(runtime.stop())
            await self._release(club)
        finally:
            CLUB.reset(named)

    async def _release(self, club: int) -> None:
        if self._claims is not None:
            with contextlib.suppress(Exception):
                await self._claims.release(club)
