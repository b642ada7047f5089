"""The real bot against the fake Bot API, with a real SQLite file and a clock tests move."""

from __future__ import annotations

import datetime as dt
import json
import logging
from pathlib import Path

import pytest

from bot.app import build
from bot.config import Config
from bot.services import Services
from core.season import season_from_data
from storage.db import Database
from storage.seasons import import_season
from tests.bot.fake_telegram import FakeTelegram, User

ARBITER = User(1, "Wim", "Leider")
GROUP = -100123
TOKEN = "123456:" + "A" * 35
MEMBERS = ["Anna Visser", "Bram de Boer", "Cor Jansen", "Daan Smit", "Eva Bos", "Femke Kok"]


class Clock:
    def __init__(self, start: dt.datetime) -> None:
        self.now = start

    def __call__(self) -> dt.datetime:
        return self.now

    def advance(self, **delta: float) -> None:
        self.now += dt.timedelta(**delta)


class Bot:
    """One running bot process (it can be stopped and started again on the same database)."""

    def __init__(self, tg: FakeTelegram, config: Config, clock: Clock) -> None:
        self.tg, self.config, self.clock = tg, config, clock
        self.app = None

    async def start(self) -> None:
        self.app = build(self.config, Services(clock=self.clock))
        await self.app.initialize()
        await self.app.post_init(self.app)
        await self.app.updater.start_polling(poll_interval=0.0, timeout=1,
                                             allowed_updates=["message", "edited_message",
                                                              "callback_query"])
        await self.app.start()

    async def stop(self) -> None:
        if self.app is None:
            return
        await self.app.updater.stop()
        await self.app.stop()
        await self.app.post_shutdown(self.app)
        await self.app.shutdown()
        self.app = None

    def says(self, user: User, text: str, **kwargs) -> int:
        kwargs.setdefault("date", self.clock.now.timestamp())
        return self.tg.user_says(user, text, **kwargs)

    async def ask(self, user: User, text: str, *, contains: str = "", **kwargs):
        kwargs.setdefault("date", self.clock.now.timestamp())
        return await self.tg.reply_to(user, text, contains=contains, **kwargs)


@pytest.fixture
def members() -> list[User]:
    return [User(100 + k, *name.split(" ", 1)) for k, name in enumerate(MEMBERS)]


@pytest.fixture
async def tg():
    fake = FakeTelegram()
    await fake.start()
    yield fake
    await fake.stop()


@pytest.fixture
async def bot(tg, tmp_path: Path, caplog):
    """A club with six members (not linked yet), no rounds, and a running bot."""
    path = tmp_path / "keizer.db"
    data = {"format": "keizer-season/1", "club": "Testclub", "season": "2026-2027",
            "rules": {"preset": "sliedrecht", "planned_rounds": 3, "period_length": 3},
            "players": [{"id": f"p{k}", "name": name, "rating": 2000 - 50 * k}
                        for k, name in enumerate(MEMBERS)],
            "rounds": []}
    db = await Database.open(path)
    await import_season(db, season_from_data(json.loads(json.dumps(data))))
    await db.close()
    config = Config(token=TOKEN, base_url=tg.url, database=path, arbiters=(ARBITER.id,),
                    tick_seconds=0.2)
    clock = Clock(dt.datetime(2026, 11, 30, 9, 0, tzinfo=dt.UTC))
    running = Bot(tg, config, clock)
    await running.start()
    yield running
    await running.stop()
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert not errors, f"the bot logged errors: {[r.getMessage() for r in errors]}"
