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
import logging
from collections import defaultdict
from typing import TYPE_CHECKING, Any

from telegram import Update
from telegram.error import Conflict, Forbidden, InvalidToken, NetworkError, TelegramError

from bot import jobs, texts
from bot.chat import owe_to_arbiters
from bot.flows import admin
from bot.sender import Sender
from bot.services import App, Services
from storage import inbox
from storage.errors import StoreError

if TYPE_CHECKING:
    from bot.web.server import WebServer

log = logging.getLogger(__name__)

UPDATES = ["message", "edited_message", "callback_query"]
CONCURRENCY = 8
"""Updates handled at once (from different chats; one chat's updates go in order)."""
STOP_GRACE = 10.0
"""Seconds in-flight updates get to finish at shutdown; the rest is handled after a restart."""


class Runtime:
    def __init__(self, app: App, *, poll_timeout: int = 50, web: WebServer | None = None,
                 path: str = "") -> None:
        """`web`, `path`: the web server a host shares and the club's path on it (`bot.host`);
        else the club's own server, when the config gives it a port."""
        self.app = app
        self.poll_timeout = poll_timeout
        self.path = path
        self._own_web = web is None
        self.offset = 0
        self._tasks: list[asyncio.Task[None]] = []
        self._inflight: dict[int, asyncio.Task[None]] = {}
        self._unmarked: set[int] = set()
        """Handled, but the database would not take the mark (full, read-only): not handled
        again by this process; after a restart, once more."""
        self._chat_locks: defaultdict[int, asyncio.Lock] = defaultdict(asyncio.Lock)
        self._slots = asyncio.Semaphore(CONCURRENCY)
        self._arrived = asyncio.Event()
        self.sender: Sender | None = None
        self.web = web
        """The server of the club's live pages (and webhook)."""

    @property
    def services(self) -> Services:
        services: Services = self.app.bot_data
        return services

    async def start(self) -> None:
        """Raises InvalidToken, NetworkError (Telegram unreachable) or StoreError (the
        database is in use, corrupt, unreadable): the caller says so in one line."""
        app = self.app
        await app.initialize()
        try:
            if app.post_init is not None:
                await app.post_init(app)
        except BaseException:
            await app.shutdown()
            raise
        services = self.services
        self.sender = Sender(app.bot, services.db, arbiters=services.arbiters,
                             throttle=services.throttle,
                             migrated=lambda old, new: admin.follow_migration(services, old,
                                                                              new))
        await app.start()
        config = services.settings
        if config.web_port is not None:
            from bot.web.server import ClubSite, WebServer  # the templates: only with pages

            site = ClubSite(services, config.token,
                            updates=self._received if config.webhook else None)
            if self.web is None:
                self.web = WebServer(config.web_port, host=config.web_host)
            self.web.add(self.path, site)
            if self._own_web:
                try:
                    await self.web.start()
                except OSError:
                    await self.web.stop()
                    await app.stop()
                    await app.shutdown()
                    raise
        self.offset = await inbox.last_id(services.db) + 1
        if config.webhook:
            assert self.web is not None  # the configuration asks for the port
            # The configuration asks for the public address; a server on a port chosen when
            # it listens (port 0, the tests') is reached where it listens.
            base = config.public_url or "/".join(filter(None, (self.web.url, self.path)))
            # Telegram keeps what came while the bot was down and brings it now.
            await app.bot.set_webhook(f"{base}/telegram/{config.webhook_key}",
                                      secret_token=config.webhook_secret,
                                      allowed_updates=UPDATES)
        else:
            with contextlib.suppress(NetworkError, Conflict):
                await self._fetch(timeout=0)  # what Telegram holds, before a deadline
        await self._drain(wait=True)
        jobs.schedule(app)
        self._tasks = [asyncio.create_task(self._process(), name="process"),
                       asyncio.create_task(self.sender.run(), name="send")]
        if not config.webhook:
            self._tasks.append(asyncio.create_task(self._poll(), name="poll"))

    async def stop(self) -> None:
        """Stop taking updates, let those under way finish (up to STOP_GRACE), let the sender
        finish the message under way; what is left waits in the database for the restart."""
        sending = [t for t in self._tasks if t.get_name() == "send"]
        for task in self._tasks:
            if task not in sending:
                task.cancel()
        if self._inflight:
            _, late = await asyncio.wait(list(self._inflight.values()), timeout=STOP_GRACE)
            for task in late:
                task.cancel()
            await asyncio.gather(*late, return_exceptions=True)
        if self.sender is not None:
            self.sender.stop()
        if self.web is not None:
            if self._own_web:
                await self.web.stop()
            else:
                self.web.remove(self.path)
        _, stuck = await asyncio.wait(self._tasks, timeout=STOP_GRACE)
        for task in stuck:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        self._tasks = []
        app = self.app
        if app.running:
            await app.stop()
        if app.post_shutdown is not None:
            await app.post_shutdown(app)
        await app.shutdown()

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
                    await owe_to_arbiters(self.services, lambda: texts.POLL_CONFLICT)
            except NetworkError as exc:  # also timeouts and Telegram's 5xx (warned once)
                log.info("getUpdates: Telegram not reachable (%s); again in %.0f s", exc, pause)
            except (InvalidToken, Forbidden) as exc:
                log.error("Telegram refuses the token: %s", exc)
            except TelegramError as exc:
                log.warning("getUpdates failed: %s", exc)
            await asyncio.sleep(pause)
            pause = min(pause * 2, 60.0)

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
                self._start(update.update_id, update)
            return
        self._arrived.set()

    async def _process(self) -> None:
        while True:
            await self._arrived.wait()
            self._arrived.clear()
            await self._drain(wait=False)

    async def _drain(self, *, wait: bool) -> None:
        """Start handling every stored update not yet handled or under way."""
        after = 0
        while batch := await inbox.pending(self.services.db, after=after):
            for stored in batch:
                if stored.update_id not in self._inflight and \
                        stored.update_id not in self._unmarked:
                    self._start(stored.update_id, stored.payload)
            after = batch[-1].update_id
        if wait and self._inflight:
            await asyncio.gather(*self._inflight.values(), return_exceptions=True)

    def _start(self, update_id: int, payload: dict[str, Any] | Update) -> None:
        task = asyncio.create_task(self._handle(update_id, payload), name=f"update-{update_id}")
        self._inflight[update_id] = task
        task.add_done_callback(lambda _: self._inflight.pop(update_id, None))

    async def _handle(self, update_id: int, payload: dict[str, Any] | Update) -> None:
        update = payload if isinstance(payload, Update) else Update.de_json(payload, self.app.bot)
        chat = update.effective_chat or update.effective_user
        async with self._chat_locks[0 if chat is None else chat.id], self._slots:
            with inbox.handling(self.services.db, update_id):
                await self.app.process_update(update)
            if isinstance(payload, Update):
                return
            try:
                await inbox.mark_done(self.services.db, update_id)
            except StoreError as exc:
                log.warning("could not mark update %d handled: %s", update_id, exc)
                self._unmarked.add(update_id)
