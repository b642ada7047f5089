"""Running the real bot in this process against a local Bot API (tests, the demo), with a
clock the caller moves."""

from __future__ import annotations

import asyncio
import datetime as dt
from collections.abc import Callable
from typing import Any

from apscheduler.events import (  # type: ignore[import-untyped]
    EVENT_JOB_ERROR,
    EVENT_JOB_EXECUTED,
)

from bot.config import Config
from bot.demo.fakeapi import FakeTelegram, Says, Sent, User
from bot.services import App
from bot.telegram.runtime import ClubRuntime, SingleClub
from bot.worker import Processes


class ManualClock:
    """The bot's clock, which the caller moves (`clock.now = ...`); whoever listens hears of
    each move (a bot that runs its tick at once: what fell due is looked at now, not at the
    next tick of the wall clock)."""

    def __init__(self, start: dt.datetime) -> None:
        self._now = start
        self._moved: list[Callable[[], None]] = []

    @property
    def now(self) -> dt.datetime:
        return self._now

    @now.setter
    def now(self, moment: dt.datetime) -> None:
        self._now = moment
        for listener in self._moved:
            listener()

    def on_move(self, listener: Callable[[], None]) -> None:
        self._moved.append(listener)

    def __call__(self) -> dt.datetime:
        return self._now


class LocalBot:
    """One running bot process; it can be stopped and started again on the same database.
    Its standings worker processes are the caller's, who closes them."""

    def __init__(self, tg: FakeTelegram, config: Config, clock: ManualClock,
                 processes: Processes) -> None:
        self.tg, self.config, self.clock, self.processes = tg, config, clock, processes
        self.running: SingleClub | None = None
        self._ticked = 0
        self._waiting: list[tuple[int, asyncio.Future[None]]] = []
        clock.on_move(self._tick_now)

    @property
    def runtime(self) -> ClubRuntime | None:
        return None if self.running is None else self.running.runtime

    @property
    def app(self) -> App | None:
        return None if self.running is None else self.running.runtime.app

    async def start(self) -> None:
        # The fake has no flood limits to keep to; holding group messages back to twenty a
        # minute would only make tests and the demo wait.
        runtime = SingleClub(self.config, self.processes, clock=self.clock, flood_limits=False,
                             poll_timeout=1)
        await runtime.start()
        self.running = runtime
        queue = runtime.runtime.app.job_queue
        assert queue is not None
        [tick] = queue.get_jobs_by_name("tick")
        queue.scheduler.add_listener(
            lambda event: self._on_job(event.job_id == tick.job.id),
            EVENT_JOB_EXECUTED | EVENT_JOB_ERROR)

    def _tick_now(self) -> None:
        """The clock moved: the tick runs at once (then every `tick_seconds` again), as the
        job at a deadline would when the clock reached it."""
        app = self.app
        if app is None or app.job_queue is None or not app.running:
            return
        for tick in app.job_queue.get_jobs_by_name("tick"):
            tick.job.modify(next_run_time=dt.datetime.now(dt.UTC))

    def _on_job(self, was_tick: bool) -> None:
        if not was_tick:
            return
        self._ticked += 1
        for target, done in list(self._waiting):
            if target <= self._ticked and not done.done():
                done.set_result(None)
        self._waiting = [(t, d) for t, d in self._waiting if not d.done()]

    async def ticks(self, count: int = 1, *, timeout: float = 30.0) -> None:
        """Until `count` more of the bot's ticks have run to their end: what they look at (a
        deadline, a reminder, a message to send again) was looked at, however slow the
        machine. A test that shows something did not happen waits for this, not a sleep."""
        done = asyncio.get_running_loop().create_future()
        self._waiting.append((self._ticked + count, done))
        await asyncio.wait_for(done, timeout)

    async def settled(self, *, timeout: float = 30.0) -> None:
        """Nothing left to do: the start's menus offered, every update Telegram holds taken
        and handled, nothing owed that is due, and a tick run to its end after that."""
        from storage import inbox, outbox

        loop = asyncio.get_running_loop()
        give_up = loop.time() + timeout
        if self.runtime is not None:
            await asyncio.wait_for(self.runtime.introduced(), timeout)
        while True:
            await self.ticks(1, timeout=max(0.1, give_up - loop.time()))
            db = self.app.bot_data.db if self.app is not None else None
            if db is not None and not self.tg.updates and not await inbox.pending(db) \
                    and not await outbox.due_chats(db, self.clock.now):
                await self.ticks(1, timeout=max(0.1, give_up - loop.time()))
                return

    async def stop(self) -> None:
        running, self.running = self.running, None
        if running is not None:
            await running.stop()

    def says(self, user: User, text: str, **kwargs: Any) -> int:
        kwargs.setdefault("date", self.clock.now.timestamp())
        return self.tg.user_says(user, text, **kwargs)

    async def ask(self, user: User, text: str, *, contains: Says = "", **kwargs: Any) -> Sent:
        kwargs.setdefault("date", self.clock.now.timestamp())
        return await self.tg.reply_to(user, text, contains=contains, **kwargs)
