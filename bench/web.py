"""The club's live pages: milliseconds per request over real HTTP, against the running bot
(the local Bot API fake stands in for Telegram), for a 60-player, 30-round season: the first
request after the database changed (the season read, its standings of every round computed,
the page rendered), the ones after it (kept until the next change), the first after a chat
message that changes nothing of the club's (a `/help`: the inbox and the outbox commit, the
pages stay kept), and a reload with the ETag (304).

    uv run python bench/web.py
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import statistics
import tempfile
import time
from pathlib import Path

import aiohttp

from bench.standings import season
from bot.config import Config
from bot.demo.fakeapi import FakeTelegram, User
from bot.demo.runner import LocalBot, ManualClock
from bot.worker import Processes
from storage.seasons import import_season
from storage.store import open_store

TOKEN = "123456:" + "A" * 35
REPEATS = 30
GUEST = User(555, "Gast")
SETTLE = 0.05
"""Seconds for the sender to mark the reply sent (its commit) before the page is asked."""


async def timed(session: aiohttp.ClientSession, url: str, **headers: str) -> tuple[float, str]:
    start = time.perf_counter()
    async with session.get(url, headers=headers) as response:
        await response.read()
        return time.perf_counter() - start, response.headers.get("ETag", "")


async def main() -> None:
    played = season()
    with tempfile.TemporaryDirectory() as folder, contextlib.closing(Processes()) as processes:
        path = Path(folder) / "keizer.db"
        db = await open_store(path)
        await import_season(db, played)
        await db.close()
        tg = FakeTelegram()
        await tg.start()
        bot = LocalBot(tg, Config(token=TOKEN, base_url=tg.url, database=path, web_port=0),
                       ManualClock(dt.datetime(2026, 11, 30, tzinfo=dt.UTC)), processes)
        await bot.start()
        assert bot.runtime is not None and bot.runtime.web is not None
        base = bot.runtime.web.url
        print(f"Live pages of a {len(played.players)}-player, {len(played.rounds)}-round "
              f"season (ms per request, {REPEATS} requests each)\n")
        print("| page | first after a change, median | after it, median | p95 "
              "| first after a /help, median | reload with ETag (304), median |")
        print("|---|---|---|---|---|---|")
        db = bot.app.bot_data.db
        async with aiohttp.ClientSession() as session:
            for name in ("", "speler-p00", "kruistabel", "ronde-30", "programma"):
                first = []
                for _ in range(REPEATS // 3):
                    async with db.transaction() as conn:  # as a confirmed result would
                        await conn.execute("UPDATE club SET reminder_minutes = "
                                           "reminder_minutes + 1")
                    first.append((await timed(session, f"{base}/{name}"))[0])
                times, tag = [], ""
                for _ in range(REPEATS):
                    took, tag = await timed(session, f"{base}/{name}")
                    times.append(took)
                chatted = []
                for _ in range(REPEATS // 3):
                    await bot.ask(GUEST, "/help")
                    await asyncio.sleep(SETTLE)
                    chatted.append((await timed(session, f"{base}/{name}"))[0])
                again = [(await timed(session, f"{base}/{name}", **{"If-None-Match": tag}))[0]
                         for _ in range(REPEATS)]
                ordered = sorted(times)
                p95 = ordered[round(0.95 * (len(ordered) - 1))]
                print(f"| /{name} | {statistics.median(first) * 1000:.1f} | "
                      f"{statistics.median(times) * 1000:.1f} | {p95 * 1000:.1f} | "
                      f"{statistics.median(chatted) * 1000:.1f} | "
                      f"{statistics.median(again) * 1000:.1f} |")
        await bot.stop()
        await tg.stop()


if __name__ == "__main__":
    asyncio.run(main())
