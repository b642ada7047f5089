"""The real bot against the fake Bot API, with a real SQLite file and a clock tests move."""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import html
import re
import shutil
from pathlib import Path
from typing import Any

import pytest

from bot.callbacks import Confirm
from bot.config import Config
from bot.demo.fakeapi import FakeTelegram, Sent, User
from bot.demo.fakelichess import FakeLichess
from bot.demo.runner import LocalBot, ManualClock
from bot.language.notice import Text
from bot.worker import Processes
from core.season import Season, season_from_data
from storage.db import Database
from storage.seasons import import_season
from tests.meaning import fits as fits
from tests.meaning import heard as heard
from tests.meaning import meaning as meaning
from tests.meaning import refused as refused
from tests.meaning import said as said
from tests.meaning import says as says
from tests.meaning import written as written
from tests.stores import new_store, template

ARBITER = User(1, "Wim", "Leider")
STRANGER = User(777, "Onbekende", "Bezoeker")
"""Nobody the club knows: no member, no arbiter."""
GROUP = -100123
TOKEN = "123456:" + "A" * 35
MEMBERS = ["Anna Visser", "Bram de Boer", "Cor Jansen", "Daan Smit", "Eva Bos", "Femke Kok"]


async def stored_rows(db: Database, tables: tuple[str, ...]) -> list[list[tuple]]:
    """Every row of `tables`, as of the last commit: the shared reader may still hold an
    older snapshot while a job reads on it."""
    found = []
    async with db.fresh() as conn:
        for table in tables:
            async with conn.execute(f"SELECT * FROM {table} ORDER BY rowid") as cur:
                found.append([tuple(r) for r in await cur.fetchall()])
    return found


def boards(text: str) -> list[tuple[str, str]]:
    """(white, black) full names from a pairing message (`1. Anna Visser (3) – Cor Jansen (5)`)."""
    plain = html.unescape(re.sub(r"<[^>]+>", "", text))
    return [tuple(side.rsplit(" (", 1)[0] for side in line.split(". ", 1)[1].split(" – "))
            for line in plain.splitlines() if re.match(r"\d+\. ", line)]  # type: ignore[misc]


@pytest.fixture
def members() -> list[User]:
    return [User(100 + k, *name.split(" ", 1)) for k, name in enumerate(MEMBERS)]


@pytest.fixture(autouse=True)
def no_bot_outlives_its_test():
    yield
    from tests.bot.process import BotProcess
    BotProcess.kill_all()


@pytest.fixture(scope="session")
def processes():
    """The standings worker of this test process, shared by its bots as a host's clubs
    share theirs: a worker started once instead of once per test, and before the first
    test asks it (its start takes a second on a busy machine, past what a first sign-off
    waits for its price)."""
    with contextlib.closing(Processes()) as shared:
        asyncio.run(shared.run(abs, 0))
        yield shared


@pytest.fixture
async def lichess():
    """A local lichess (`bot.demo.fakelichess`), as `tg` is a local Telegram."""
    fake = FakeLichess()
    await fake.start()
    yield fake
    await fake.stop()


@pytest.fixture
async def tg():
    fake = FakeTelegram()
    await fake.start()
    yield fake
    await fake.stop()


@pytest.fixture
async def bot(tg, tmp_path: Path, processes):
    """A club with six members (not linked yet), no rounds, and a running bot."""
    running = await club_bot(tg, tmp_path / "keizer.db", processes)
    yield running
    await running.stop()


def testclub() -> Season:
    """The club of the bot tests: six members not linked yet, no rounds."""
    data = {"format": "keizer-season/1", "club": "Testclub", "season": "2026-2027",
            "rules": {"preset": "sliedrecht", "planned_rounds": 3, "period_length": 3},
            "players": [{"id": f"p{k}", "name": name, "rating": 2000 - 50 * k}
                        for k, name in enumerate(MEMBERS)],
            "rounds": []}
    return season_from_data(data)


async def club_bot(tg: FakeTelegram, path: Path | str, processes: Processes,
                   season: Season | None = None, **settings: Any) -> LocalBot:
    """The bot of the fixture, started: the test club (or `season`), the clock on Monday 30
    November 2026; `settings` go into its Config. The test club's store file is a copy of
    one made once: the hundreds of bot tests start from it."""
    if season is None and isinstance(path, Path):
        shutil.copy2(await template("testclub", testclub), path)
    else:
        db = await new_store(path)
        try:
            await import_season(db, season or testclub())
        finally:
            await db.close()
    config = Config(token=TOKEN, base_url=tg.url, database=path,
                    **{"arbiters": (ARBITER.id,), "tick_seconds": 0.2, **settings})
    clock = ManualClock(dt.datetime(2026, 11, 30, 9, 0, tzinfo=dt.UTC))
    running = LocalBot(tg, config, clock, processes)
    await running.start()
    return running


def drafted(number: int, language: str = "nl") -> str:
    """How the arbiter is told that round `number`'s deadline passed and its draft is here."""
    return said(Text("DRAFT_TO_ARBITER", {"round": number}), language)


def pairing_title(number: int, language: str = "nl") -> str:
    """The title of round `number`'s pairing, in the group and in /indeling."""
    return said(Text("PAIRING_TITLE", {"round": number}), language)


def asks_to_confirm(sent: Sent) -> bool:
    """The question to confirm a reported result: the message that carries its buttons."""
    return any(data.startswith(f"{Confirm.PREFIX}:") for _, data in sent.buttons)


async def confirm_question(tg: FakeTelegram, chat_id: int, *, after: int = 0,
                           timeout: float = 10.0) -> Sent:
    """The next question to `chat_id` to confirm a reported result."""
    return await tg.wait_for(lambda s: s.chat_id == chat_id and asks_to_confirm(s),
                             after=after, timeout=timeout)
