"""The running bot: updates in through the inbox, handled by the handlers, messages out
through the outbox, the scheduled jobs beside them.

Why not PTB's Updater: it confirms an update's offset on its next `getUpdates`, before the
handlers ran, so a crash loses what it had taken. Here an update is stored first and only then
confirmed (the offset asked next is the highest stored + 1); it is handled from the database,
once, and marked done with its effect (`storage.inbox.handling`). At start, what the inbox still
holds is handled before any deadline is looked at.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import logging
from collections import defaultdict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

from telegram import Update
from telegram.error import Conflict, Forbidden, InvalidToken, NetworkError, TelegramError

from bot.config import Config
from bot.flows import admin
from bot.language.notice import Said, Text
from bot.notices import owe_to_arbiters
from bot.services import App, Services, utc_now
from bot.telegram import jobs
from bot.telegram.app import build, introduce, offer_menus
from bot.telegram.sender import Sender
from bot.worker import Processes, Worker
from storage import inbox
from storage.errors import StoreError
from storage.store import open_store

if TYPE_CHECKING:
    from bot.web.server import WebServer

log = logging.getLogger(__name__)

T = TypeVar("T")

UPDATES = ["message", "edited_message", "callback_query"]
CONCURRENCY = 8
"""Updates handled at once (from different chats; one chat's updates go in order)."""
STOP_GRACE = 10.0
"""Seconds in-flight updates get to finish at shutdown; the rest is handled after a restart."""


async def to_the_end(work: Awaitable[T]) -> T:
    """`work` done to its end even when the caller is cancelled meanwhile, once or again;
    the cancel is raised after it. For closing: a stop cut off half way keeps a pooled
    connection taken, and the pool's close waits for it for ever (a host told to stop a
    club while it is starting or stopping one, at a beat)."""
    task = asyncio.ensure_future(work)
    cancelled = False
    while True:
        try:
            result = await asyncio.shield(task)
        except asyncio.CancelledError:
            if task.cancelled():
                raise
            cancelled = True
            continue
        if cancelled:
            raise asyncio.CancelledError
        return result


@dataclass(frozen=True, slots=True)
class Shared:
    """What the clubs of one process share, made and closed by whoever runs them (`bot.serve`
    for one club, `bot.host` for many): the standings worker processes, the web server of
    the pages (None: no pages), and on PostgreSQL the connection pool. `exclusive`: each
    club's store takes its instance lock (a host holds its clubs' claims instead)."""

    processes: Processes
    web: WebServer | None = None
    pool: Any = None
    exclusive: bool = True


class ClubRuntime:
    """One club's running bot. It owns its parts and opens them in this order, closing them
    the other way: the store, the worker handle (one `Services`, made once), the Telegram
    application, the sender, the pages on the shared web server, the inbox's updates and the
    jobs."""

    def __init__(self, config: Config, shared: Shared, *, clock: Callable[[], dt.datetime]
                 = utc_now, flood_limits: bool = True, poll_timeout: int = 50,
                 path: str = "") -> None:
        """`path`: the club's place on the shared web server (a host's club number)."""
        self.config, self.shared, self.clock = config, shared, clock
        self.flood_limits = flood_limits
        self.poll_timeout = poll_timeout
        self.path = path
        self.offset = 0
        self._tasks: list[asyncio.Task[None]] = []
        self._inflight: dict[int, asyncio.Task[None]] = {}
        self._unmarked: set[int] = set()
        """Handled, but the database would not take the mark (full, read-only): not handled
        again by this process; after a restart, once more."""
        self._chat_locks: defaultdict[int, asyncio.Lock] = defaultdict(asyncio.Lock)
        self._slots = asyncio.Semaphore(CONCURRENCY)
        self._arrived = asyncio.Event()
        self._fetched: dict[int, Update] = {}
        """Updates polled and stored, not yet started: handled as fetched, not parsed again
        from the inbox's copy."""
        self._services: Services | None = None
        self._app: App | None = None
        self._sender: Sender | None = None
        self._pages = False
        """The club's pages are on the shared web server."""

    @property
    def services(self) -> Services:
        if self._services is None:
            raise RuntimeError("the club's runtime is not started")
        return self._services

    @property
    def app(self) -> App:
        if self._app is None:
            raise RuntimeError("the club's runtime is not started")
        return self._app

    @property
    def web(self) -> WebServer | None:
        return self.shared.web

    async def start(self) -> None:
        """Raises InvalidToken, NetworkError (Telegram unreachable) or StoreError (the
        database is in use, corrupt, unreadable): the caller says so in one line. What was
        opened before the failure is closed again."""
        try:
            await self._open()
        except BaseException:
            await to_the_end(self.stop())
            raise

    async def _open(self) -> None:
        config, shared = self.config, self.shared
        database = await open_store(config.database, exclusive=shared.exclusive,
                                    club=config.club, pool=shared.pool)
        services = Services(config, database, Worker(config.database, config.club,
                                                     shared.processes), clock=self.clock)
        self._services = services
        if not await services.arbiters():  # every arbiter's command would be refused
            log.warning("this club has no arbiter: %s", "put the arbiter's Telegram id in "
                        "KEIZER_ARBITERS and restart" if config.club is None else
                        f"keizerbot clubs arbiter {config.club} --arbiter ID")
        app = self._app = build(services, flood_limits=self.flood_limits)
        await app.initialize()
        await introduce(app)
        self._sender = Sender(app.bot, services.db, arbiters=services.arbiters,
                              language_of=services.languages.of, throttle=services.throttle,
                              migrated=lambda old, new: admin.follow_migration(services, old,
                                                                               new))
        await app.start()
        if self.web is not None:
            from bot.web.server import ClubSite  # the templates: only with pages

            self.web.add(self.path, ClubSite(services, config.token, updates=self._received
                                             if config.webhook else None))
            self._pages = True
        self.offset = await inbox.last_id(services.db) + 1
        if config.webhook:
            await self._set_webhook()
        else:
            with contextlib.suppress(NetworkError, Conflict):
                await self._fetch(timeout=0)  # what Telegram holds, before a deadline
        await self._drain(wait=True)
        jobs.schedule(app)
        self._tasks = [asyncio.create_task(self._process(), name="process"),
                       asyncio.create_task(self._sender.run(), name="send"),
                       asyncio.create_task(offer_menus(app), name="menus")]
        if not config.webhook:
            self._tasks.append(asyncio.create_task(self._poll(), name="poll"))

    async def _set_webhook(self) -> None:
        config = self.config
        assert self.web is not None  # the configuration asks for the port
        # The configuration asks for the public address; a server on a port chosen when it
        # listens (port 0, the tests') is reached where it listens.
        base = config.public_url or "/".join(filter(None, (self.web.url, self.path)))
        # Telegram keeps what came while the bot was down and brings it now.
        await self.app.bot.set_webhook(f"{base}/telegram/{config.webhook_key}",
                                       secret_token=config.webhook_secret,
                                       allowed_updates=UPDATES)

    async def stop(self) -> None:
        """Stop taking updates, let those under way finish (up to STOP_GRACE), let the sender
        finish the message under way; what is left waits in the database for the restart.
        Then each part it opened is closed, the last opened first."""
        queue = None if self._app is None else self._app.job_queue
        if queue is not None and queue.scheduler.running:
            # The jobs first, as they were scheduled last: PTB stops them only after it has
            # marked the application stopped and waited for its update queue, and a job due
            # meanwhile ran among parts already closed. Paused, none starts while the stop
            # waits for those running (the shutdown after would cancel a new one's future,
            # not its run, which would go on unawaited).
            queue.scheduler.pause()
            await queue.stop()
        await self._stop_tasks()
        if self._pages and self.web is not None:
            self.web.remove(self.path)
            self._pages = False
        app, self._app = self._app, None
        if app is not None:
            if app.running:
                await app.stop()
            await app.shutdown()
            # An application whose start failed at getMe is not shut down by PTB: its
            # connections are closed here (after a shutdown, a no-op).
            await app.bot.shutdown()
        services, self._services = self._services, None
        if services is not None:
            await services.db.close()

    async def introduced(self) -> None:
        """Until what the start offers beside its work (the command menus) is done."""
        await asyncio.gather(*(t for t in self._tasks if t.get_name() == "menus"),
                             return_exceptions=True)

    async def _stop_tasks(self) -> None:
        sending = [t for t in self._tasks if t.get_name() == "send"]
        for task in self._tasks:
            if task not in sending:
                task.cancel()
        if self._inflight:
            _, late = await asyncio.wait(list(self._inflight.values()), timeout=STOP_GRACE)
            for task in late:
                task.cancel()
            await asyncio.gather(*late, return_exceptions=True)
        if self._sender is not None:
            self._sender.stop()
        if self._tasks:
            _, stuck = await asyncio.wait(self._tasks, timeout=STOP_GRACE)
            for task in stuck:
                task.cancel()
            await asyncio.gather(*self._tasks, return_exceptions=True)
        self._tasks = []

    # --- in ------------------------------------------------------------------------------------

    async def _poll(self) -> None:
        pause = 1.0
        while True:
            try:
                await self._fetch(timeout=self.poll_timeout)
                pause = 1.0
                continue
            except Conflict:
                log.warning("another process polls Telegram with this token")
                if self.services.throttle.first("conflict"):
                    await owe_to_arbiters(self.services, Text("POLL_CONFLICT"))
            except NetworkError as exc:  # also timeouts and Telegram's 5xx (warned once)
                log.info("getUpdates: Telegram not reachable (%s); again in %.0f s", exc, pause)
            except (InvalidToken, Forbidden) as exc:
                log.error("Telegram refuses the token: %s", exc)
            except TelegramError as exc:
                log.warning("getUpdates failed: %s", exc)
            await asyncio.sleep(pause)
            pause = min(pause * 2, 60.0)

    def wake(self) -> None:
        """Updates may wait in the inbox that this process did not take (another host's web
        server kept them): handle them."""
        self._arrived.set()

    async def _received(self, payload: dict[str, Any]) -> None:
        """An update the webhook brought: kept in the inbox (raises StoreError if it cannot
        be), then handled as a polled one is."""
        await inbox.store(self.services.db, [payload])
        self._arrived.set()

    async def _fetch(self, *, timeout: int) -> None:
        updates = await self.app.bot.get_updates(offset=self.offset, timeout=timeout,
                                                 allowed_updates=UPDATES)
        if not updates:
            return
        try:
            self.offset = await inbox.store(self.services.db,
                                            [u.to_dict() for u in updates]) + 1
        except StoreError as exc:
            # The file cannot be written: answer from memory (reads still work, writes are
            # refused with a reply saying so) rather than not at all.
            log.warning("inbox not writable (%s): handling %d updates unstored", exc,
                        len(updates))
            self.offset = max(u.update_id for u in updates) + 1
            for update in updates:
                self._start(update, stored=False)
            return
        self._fetched.update((u.update_id, u) for u in updates)
        self._arrived.set()

    async def _process(self) -> None:
        while True:
            await self._arrived.wait()
            self._arrived.clear()
            await self._drain(wait=False)

    async def _drain(self, *, wait: bool) -> None:
        """Start handling every stored update not yet handled or under way. One stored
        after the last read is not missed: whatever stores one wakes `_process` again."""
        after = 0
        while True:
            batch = await inbox.pending(self.services.db, after=after, limit=inbox.PAGE)
            for stored in batch:
                if stored.update_id not in self._inflight and \
                        stored.update_id not in self._unmarked:
                    fetched = self._fetched.pop(stored.update_id, None)
                    self._start(fetched or Update.de_json(stored.payload, self.app.bot),
                                stored=True)
            if len(batch) < inbox.PAGE:
                break
            after = batch[-1].update_id
        self._fetched.clear()  # done before this drain, or under way: never started from here
        if wait and self._inflight:
            await asyncio.gather(*self._inflight.values(), return_exceptions=True)

    def _start(self, update: Update, *, stored: bool) -> None:
        """Handle `update`; one `stored` in the inbox is marked done there."""
        update_id = update.update_id
        task = asyncio.create_task(self._handle(update, stored=stored),
                                   name=f"update-{update_id}")
        self._inflight[update_id] = task
        task.add_done_callback(lambda _: self._inflight.pop(update_id, None))

    async def _handle(self, update: Update, *, stored: bool) -> None:
        update_id = update.update_id
        chat = update.effective_chat or update.effective_user
        async with self._chat_locks[0 if chat is None else chat.id], self._slots:
            with inbox.handling(self.services.db, update_id) as handled:
                await self.app.process_update(update)
            if not stored or handled.marked:
                return
            try:
                await inbox.mark_done(self.services.db, update_id)
            except StoreError as exc:
                log.warning("could not mark update %d handled: %s", update_id, exc)
                self._unmarked.add(update_id)


class SingleClub:
    """A club's bot on its own (`keizerbot`, the demo, the tests): its runtime, with the web
    server a host would share made for it alone and closed after it. The worker processes
    are its caller's (made and closed around it: by `bot.serve`, or shared by the tests of one
    test process as a host shares them between clubs)."""

    def __init__(self, config: Config, processes: Processes, *,
                 clock: Callable[[], dt.datetime] = utc_now, flood_limits: bool = True,
                 poll_timeout: int = 50) -> None:
        self.processes = processes
        self.web: WebServer | None = None
        if config.web_port is not None:
            from bot.web.server import WebServer  # the templates: only with pages

            self.web = WebServer(config.web_port, host=config.web_host)
        self.runtime = ClubRuntime(config, Shared(self.processes, self.web), clock=clock,
                                   flood_limits=flood_limits, poll_timeout=poll_timeout)

    async def start(self) -> None:
        """Raises OSError (the pages' port) before anything else is opened, and what
        `ClubRuntime.start` raises."""
        try:
            if self.web is not None:
                await self.web.start()
            await self.runtime.start()
        except BaseException:
            await self._close()
            raise

    async def stop(self) -> None:
        await self.runtime.stop()
        await self._close()

    async def ended(self) -> Said:
        """Never: a club's own bot stops on a signal only (its file's lock keeps a newer
        keizerbot's migration away)."""
        never: asyncio.Future[Said] = asyncio.get_running_loop().create_future()
        return await never

    async def _close(self) -> None:
        if self.web is not None:
            await self.web.stop()
