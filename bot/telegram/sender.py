"""The one sender: delivers the outbox, each chat's messages in order, and says what could not
be delivered.

Each chat is sent to on its own (up to CHATS_AT_ONCE at once): a chat that waits (a group's
twenty messages a minute, a long answer in parts, a retry) holds up only itself, so a short
reply to one member never waits behind a long answer to another. The whole bot's pace is the
rate limiter's, which every chat's sends pass.

A row is marked sent only after Telegram accepted it, so a crash between the two sends that
one message again after the restart (at least once; the window is one HTTP answer wide).
Flood limits are PTB's AIORateLimiter's; a 429 that outlasts it, Telegram being unreachable
(5xx, timeouts) and the like are retried with backoff. A chat that can never be reached (the
member blocked the bot, the group is gone) is recorded as failed and named to the arbiters.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import logging
from collections.abc import Awaitable, Callable

from telegram import InlineKeyboardMarkup, ReplyParameters
from telegram.error import (
    BadRequest,
    ChatMigrated,
    Forbidden,
    NetworkError,
    RetryAfter,
    TelegramError,
)
from telegram.ext import ExtBot

from bot.language.i18n import SOURCE, words
from bot.language.notice import Text
from bot.throttle import Throttle
from storage import outbox
from storage.db import Database
from storage.errors import StoreError

log = logging.getLogger(__name__)

MAX_ATTEMPTS = 15
"""About six hours of backoff before a message is given up (and the arbiters are told)."""
BACKOFF_CAP = dt.timedelta(minutes=30)
IDLE = 30.0
"""Look again at least this often (seconds) even if nothing woke the sender."""
CHATS_AT_ONCE = 16
"""Chats sent to side by side; the others wait for a place (their order stays)."""


def backoff(attempts: int) -> dt.timedelta:
    return min(dt.timedelta(seconds=2 ** min(attempts, 12)), BACKOFF_CAP)


class Sender:
    def __init__(self, bot: ExtBot[None], db: Database, *,
                 arbiters: Callable[[], Awaitable[set[int]]] | None = None,
                 language_of: Callable[[int], Awaitable[str]] | None = None,
                 clock: Callable[[], dt.datetime] = lambda: dt.datetime.now(dt.UTC),
                 throttle: Throttle | None = None,
                 migrated: Callable[[int, int], Awaitable[object]] | None = None) -> None:
        self.bot, self.db, self.clock = bot, db, clock
        self.arbiters = arbiters
        self.language_of = language_of
        """Each arbiter's language, for what he is told (the source language without it)."""
        self.migrated = migrated
        """Called when Telegram says a chat moved (a group became a supergroup): it moves
        what the old chat is owed, and the club group with it."""
        self.throttle = throttle or Throttle()
        self.wake = asyncio.Event()
        self._stopping = False
        self._chats: dict[int, asyncio.Task[int]] = {}
        """The chats being sent to now, each by a task of its own."""
        self._places = asyncio.Semaphore(CHATS_AT_ONCE)
        db.commits.on(self.wake.set, topic=outbox.TOPIC)

    def stop(self) -> None:
        """Finish the message under way, then return from `run` (a message is never cut off
        between Telegram's answer and marking it sent, so a clean stop sends nothing twice)."""
        self._stopping = True
        self.wake.set()

    async def run(self) -> None:
        """Until stopped. A failure of the database is logged and retried, never fatal."""
        try:
            while not self._stopping:
                self.wake.clear()
                try:
                    self._start(await outbox.due_chats(self.db, self.clock()))
                    pause = await self._pause()
                except StoreError as exc:
                    log.warning("outbox unavailable: %s", exc)
                    pause = IDLE
                if pause > 0:
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(self.wake.wait(), pause)
        finally:
            await asyncio.gather(*self._chats.values(), return_exceptions=True)

    def _start(self, chats: list[int]) -> None:
        """A task for each chat with messages due and none yet."""
        for chat in chats:
            if chat not in self._chats and not self._stopping:
                self._chats[chat] = asyncio.create_task(self._chat(chat), name=f"send-{chat}")

    async def _pause(self) -> float:
        upcoming = await outbox.next_due(self.db, besides=set(self._chats))
        if upcoming is None:
            return IDLE
        return max(0.0, min(IDLE, (upcoming - self.clock()).total_seconds()))

    async def deliver_due(self) -> int:
        """Send what is due now, every chat to its end; returns how many were delivered."""
        self._start(await outbox.due_chats(self.db, self.clock()))
        done = await asyncio.gather(*self._chats.values())
        return sum(done)

    async def _chat(self, chat: int) -> int:
        """One chat's messages due, in order, until none is due (a retry holds back those
        after it); how many were delivered."""
        delivered = 0
        try:
            async with self._places:
                while not self._stopping and (batch := await outbox.due(
                        self.db, self.clock(), chat=chat)):
                    for pending in batch:
                        if self._stopping:
                            break
                        delivered += await self._fault_of_ours(pending)
        except StoreError as exc:  # the main loop looks again
            log.warning("outbox unavailable: %s", exc)
        finally:
            self._chats.pop(chat, None)
            self.wake.set()  # what came for this chat meanwhile, or its retry's time
        return delivered

    async def _fault_of_ours(self, pending: outbox.Pending) -> int:
        """`_deliver`, and a fault of ours in it said in full: the message is tried again
        later, as after an outage, and its chat's later ones wait for it."""
        try:
            return await self._deliver(pending)
        except StoreError:
            raise
        except Exception:
            log.exception("message %d could not be sent; trying again later", pending.id)
            await outbox.retry(self.db, pending, self.clock() + backoff(pending.attempts),
                               "a fault of keizerbot's")
            return 0

    async def _send(self, message: outbox.Outgoing) -> int:
        """Telegram's id of the message sent, or edited."""
        markup = None if message.markup is None else \
            InlineKeyboardMarkup.de_json(message.markup, self.bot)
        if message.edits is None:
            answering = None if message.reply_to is None else \
                ReplyParameters(message.reply_to, allow_sending_without_reply=True)
            sent = await self.bot.send_message(message.chat_id, message.text,
                                               reply_markup=markup,
                                               message_thread_id=message.thread_id,
                                               reply_parameters=answering)
            return sent.message_id
        try:
            if message.text:
                await self.bot.edit_message_text(message.text, message.chat_id, message.edits,
                                                 reply_markup=markup)
            else:
                await self.bot.edit_message_reply_markup(message.chat_id, message.edits,
                                                         reply_markup=markup)
        except BadRequest as exc:
            if "not modified" not in exc.message.lower():  # else: it says so already
                raise
        return message.edits

    async def _deliver(self, pending: outbox.Pending) -> int:
        message = pending.message
        try:
            sent = await self._send(message)
        except RetryAfter as exc:
            wait = exc.retry_after if isinstance(exc.retry_after, dt.timedelta) \
                else dt.timedelta(seconds=float(exc.retry_after))
            await outbox.retry(self.db, pending, self.clock() + wait, str(exc))
            return 0
        except ChatMigrated as exc:
            log.info("chat %d is now %d; sending there", message.chat_id, exc.new_chat_id)
            if self.migrated is not None:
                await self.migrated(message.chat_id, exc.new_chat_id)
            else:
                await outbox.move_chat(self.db, message.chat_id, exc.new_chat_id)
            return 0
        except (Forbidden, BadRequest) as exc:
            await self._refused(pending, exc)
            return 0
        except (NetworkError, TelegramError) as exc:  # 5xx, timeouts, no connection
            if pending.attempts + 1 >= MAX_ATTEMPTS:
                await self._give_up(pending, exc, "UNDELIVERABLE_UNREACHABLE")
                return 0
            log.info("could not send message %d (%s); trying again", pending.id, exc)
            await outbox.retry(self.db, pending, self.clock() + backoff(pending.attempts),
                               str(exc))
            return 0
        await outbox.sent(self.db, pending, sent)
        return 1

    async def _refused(self, pending: outbox.Pending, exc: Forbidden | BadRequest) -> None:
        message = pending.message
        if message.edits is not None:
            # The message is gone, too old to edit, or the chat blocked the bot: its old
            # buttons are answered when pressed ("al afgehandeld"), nothing is lost.
            log.info("message %d in %d not edited: %s", message.edits, message.chat_id, exc)
            await outbox.failed(self.db, pending, str(exc))
        elif isinstance(exc, Forbidden):
            await self._give_up(pending, exc, "UNDELIVERABLE_BLOCKED")
        else:
            gone = "chat not found" in exc.message.lower() or \
                "thread not found" in exc.message.lower()
            if not gone:
                log.error("Telegram refused message %d: %s", pending.id, exc.message)
            await self._give_up(pending, exc, "UNDELIVERABLE_GONE" if gone
                                else "UNDELIVERABLE_REFUSED")

    async def _give_up(self, pending: outbox.Pending, exc: TelegramError, reason: str) -> None:
        """Recorded as failed; the arbiters hear it once per chat and hour, by name, each in
        his own language (`reason`: the catalogue's key of why)."""
        await outbox.failed(self.db, pending, str(exc))
        message = pending.message
        log.info("message %d to %s not deliverable: %s", pending.id, message.chat_id, exc)
        if message.edits is not None:  # an edit is a convenience: nobody misses a message
            return
        arbiters = set() if self.arbiters is None else await self.arbiters()
        if message.chat_id in arbiters or not self.throttle.first(f"undeliverable:"
                                                                  f"{message.chat_id}"):
            return
        told = Text("UNDELIVERABLE", {"who": message.about or Text("UNDELIVERABLE_SOMEONE"),
                                      "reason": Text(reason)})
        owed = []
        for arbiter in sorted(arbiters):
            language = SOURCE if self.language_of is None else await self.language_of(arbiter)
            owed.append(outbox.Outgoing(arbiter, told.render(words(language))))
        await outbox.owe(self.db, owed)
