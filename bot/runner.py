"""Running the real bot in this process against a local Bot API (tests, the demo), with a
clock the caller moves."""

from __future__ import annotations

import datetime as dt
from typing import Any

from telegram.ext import Application

from bot.app import build
from bot.config import Config
from bot.fakeapi import FakeTelegram, Sent, User
from bot.services import Services

UPDATES = ["message", "edited_message", "callback_query"]


class ManualClock:
    def __init__(self, start: dt.datetime) -> None:
        self.now = start

    def __call__(self) -> dt.datetime:
        return self.now


class LocalBot:
    """One running bot process; it can be stopped and started again on the same database."""

    def __init__(self, tg: FakeTelegram, config: Config, clock: ManualClock) -> None:
        self.tg, self.config, self.clock = tg, config, clock
        self.app: Application | None = None  # type: ignore[type-arg]

    async def start(self) -> None:
        app = build(self.config, Services(clock=self.clock))
        await app.initialize()
        if app.post_init is not None:
            await app.post_init(app)  # run_polling would call it; we start by hand
        assert app.updater is not None
        await app.updater.start_polling(poll_interval=0.0, timeout=1, allowed_updates=UPDATES)
        await app.start()
        self.app = app

    async def stop(self) -> None:
        app, self.app = self.app, None
        if app is None:
            return
        assert app.updater is not None
        await app.updater.stop()
        await app.stop()
        if app.post_shutdown is not None:
            await app.post_shutdown(app)
        await app.shutdown()

    def says(self, user: User, text: str, **kwargs: Any) -> int:
        kwargs.setdefault("date", self.clock.now.timestamp())
        return self.tg.user_says(user, text, **kwargs)

    async def ask(self, user: User, text: str, *, contains: str = "", **kwargs: Any) -> Sent:
        kwargs.setdefault("date", self.clock.now.timestamp())
        return await self.tg.reply_to(user, text, contains=contains, **kwargs)
