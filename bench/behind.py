"""A member's `/help`, and another's `/afmelden`, while a third member's `/stand` is being made
(issues 23 and 38): the real `keizerbot` process with Telegram's flood limits, a very large
season, and each time the arbiter corrects a result first, so the standings are made anew
(in the worker process). Before the worker, pure-Python pricing in a thread held the
interpreter's lock and `/help` waited 14 s at 5,000 players.

    uv run python bench/behind.py [--players 5000] [--rounds 76] [--asks 5]
"""

from __future__ import annotations

import argparse
import asyncio
import datetime as dt
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the tests' harness

from bench.latency import bot_on, print_waits
from bot.demo.fakeapi import FakeTelegram, User
from core.season import season_from_data
from storage import roster, rounds
from storage.seasons import import_season
from storage.store import open_store
from tests.bot.conftest import ARBITER
from tests.strategies import random_season_data


async def prepare(path: Path, players: int, played: int) -> None:
    """Rounds paired at random (the pairing engine takes at most 1,000 players), any legal
    attendance and results; two members linked, and the next round planned."""
    season = season_from_data(random_season_data(random.Random(5000), players=players,
                                                 rounds=played, preset="sliedrecht",
                                                 late=False))
    db = await open_store(path)
    await import_season(db, season)
    for k in range(3):
        await roster.link(db, season.players[k].id, 100 + k, actor=None)
    await rounds.add_round(db, played + 1, date=dt.date(2027, 6, 1),
                           deadline=dt.datetime(2027, 6, 1, 17, tzinfo=dt.UTC))
    await db.close()


async def main(players: int, played: int, asks: int) -> None:
    tg = FakeTelegram()
    await tg.start()
    async with bot_on(tg, lambda path: prepare(path, players, played)) as (_, made):
        viewer, asker, leaver = User(100, "Anna"), User(101, "Bram"), User(102, "Cor")
        helps, stands = [], []
        signing: dict[str, list[float]] = {"/afmelden": [], "/aanmelden": []}
        try:
            for k in range(asks):
                await tg.reply_to(ARBITER, f"/uitslag 1 {('0-1', '1-0')[k % 2]} ronde 1",
                                  contains="Vastgelegd", timeout=120)
                mark = len(tg.sent)
                started = time.perf_counter()
                tg.user_says(viewer, "/stand")
                await asyncio.sleep(0.2)  # the standings are being made
                asked = time.perf_counter()
                await tg.reply_to(asker, "/help", timeout=600)
                helps.append(time.perf_counter() - asked)
                asked, command = time.perf_counter(), ("/afmelden", "/aanmelden")[k % 2]
                await tg.reply_to(leaver, command, timeout=600)
                signing[command].append(time.perf_counter() - asked)
                await tg.next_to(viewer.id, "Stand na ronde", after=mark, timeout=600)
                stands.append(time.perf_counter() - started)
        finally:
            await tg.stop()
    print(f"A {players}-player season after {played} rounds (built in {made:.0f} s); {asks} "
          "times: the arbiter corrects a result, one member asks /stand, another /help 0.2 s "
          "later, a third signs off (or back on) after that\n")
    print_waits([("/help, asked while /stand is made", helps),
                 *((f"{command}, after it", waits) for command, waits in signing.items()),
                 ("/stand", stands)])


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--players", type=int, default=5000)
    parser.add_argument("--rounds", type=int, default=76)
    parser.add_argument("--asks", type=int, default=5)
    options = parser.parse_args()
    asyncio.run(main(options.players, options.rounds, options.asks))
