"""Running the real bot in this process against a local Bot API (tests, the demo), with a
clock the caller moves."""

from __future__ import annotations

import datetime as dt
from typing import Any

from bot.config import Config
from bot.demo.fakeapi import FakeTelegram, Says, Sent, User
from bot.services import App
from bot.telegram.runtime import ClubRuntime, SingleClub
from bot.worker import Processes


class ManualClock:
    def __init__(self, start: dt.datetime) -> None:
        self.now = start

    def __call__(self) -> dt.datetime:
        return self.now


class LocalBot:
    """One running bot process; it can be stopped and started again on the same database.
    Its standings worker processes are the caller's, who closes them."""

    def __init__(self, tg: FakeTelegram, config: Config, clock: ManualClock,
                 processes: Processes) -> None:
        self.tg, self.config, self.clock, self.processes = tg, config, clock, processes
        self.running: SingleClub | None = None

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
