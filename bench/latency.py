"""Reply latency (issue 11): how long a member waits for /help while other members ask for
the standings of a large season and one signs off and back on (so the season is read and
checked again). The real `keizerbot` process, over HTTP against the local Bot API fake
running in this process (as Telegram runs elsewhere).

    uv run python bench/latency.py [--players 500] [--rounds 40] [--asks 60] [--viewers 3]
                                   [--every 0.25] [--no-flood-limits]

A turn begins every `--every` seconds (or when the last one is answered, if later). With no
pause at all the turns would ask more than the 30 messages a second Telegram lets a bot send,
and the waits would be the rate limiter's queue whatever the bot did: `--every 0` shows that.
"""

from __future__ import annotations

import argparse
import asyncio
import datetime as dt
import random
import statistics
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the tests' harness

from bot.demo.fakeapi import FakeTelegram, User
from core.season import Player
from core.simulation import simulate
from storage import roster, rounds
from storage.seasons import import_season
from storage.store import open_store
from tests.bot.process import BotProcess


async def prepare(path: Path, players: int, played: int) -> None:
    rng = random.Random(500)
    people = tuple(Player(f"p{k:03d}", f"Speler {k:03d}", rating=rng.randint(1000, 2300))
                   for k in range(players))
    season = simulate(rng, rules="sliedrecht", players=people, rounds=played)
    db = await open_store(path)
    await import_season(db, season)
    for k in range(10):
        await roster.link(db, f"p{k:03d}", 100 + k, actor=None)
    await rounds.add_round(db, played + 1, date=dt.date(2027, 6, 1),
                           deadline=dt.datetime(2027, 6, 1, 17, tzinfo=dt.UTC))
    await db.close()


async def main(players: int, played: int, asks: int, viewers_count: int, *,
               every: float, flood_limits: bool) -> None:
    tg = FakeTelegram()
    await tg.start()
    unlimited = [sys.executable, str(Path(__file__).with_name("unlimited_bot.py"))]
    async with bot_on(tg, lambda path: prepare(path, players, played),
                      command=None if flood_limits else unlimited) as (_, made):
        asker, viewers, mover = User(100, "Anna"), \
            [User(101 + k, "Lid") for k in range(viewers_count)], \
            User(104, "Bram")
        waits, stand_waits = [], []
        first, began = len(tg.sent), time.perf_counter()
        try:
            for k in range(asks):
                # One member changes his attendance (the season changed: standings again)...
                tg.user_says(mover, "/afmelden" if k % 2 == 0 else "/aanmelden")
                # ...three ask for the standings, and one just wants /help.
                mark = len(tg.sent)
                started = time.perf_counter()
                for viewer in viewers:
                    tg.user_says(viewer, "/stand")
                help_reply = await tg.reply_to(asker, "/help", timeout=60)
                waits.append(time.perf_counter() - started)
                assert "Keizercompetitie" in help_reply.text
                for viewer in viewers:
                    await tg.next_to(viewer.id, "", after=mark, timeout=60)
                stand_waits.append(time.perf_counter() - started)
                await asyncio.sleep(max(0.05, every - (time.perf_counter() - started)))
        finally:
            sent, took = len(tg.sent) - first, time.perf_counter() - began
            await tg.stop()
    print(f"A {players}-player season after {played} rounds (built in {made:.0f} s); "
          f"{asks} times, one every {every:g} s: one member signs off or on, {viewers_count} "
          f"ask /stand, one asks "
          f"/help; Telegram's flood limits {'on' if flood_limits else 'off'}; the bot sent "
          f"{sent} messages in {took:.1f} s\n")
    print_waits([("/help", waits)] + ([(f"/stand (all {viewers_count} answered)", stand_waits)]
                                      if viewers_count else []))


def print_waits(rows: list[tuple[str, list[float]]], *, what: str = "reply",
                digits: int = 0) -> None:
    """A table of waits (seconds) in ms: p50, p95, max."""
    print(f"| {what} | p50 (ms) | p95 (ms) | max (ms) |\n|---|---|---|---|")
    for label, values in rows:
        ms = sorted(v * 1000 for v in values)
        p95 = ms[min(len(ms) - 1, round(0.95 * (len(ms) - 1)))]
        print(f"| {label} | {statistics.median(ms):.{digits}f} | {p95:.{digits}f} | "
              f"{ms[-1]:.{digits}f} |")


@asynccontextmanager
async def bot_on(tg: FakeTelegram, build: Callable[[Path], Awaitable[None]], *,
                 command: list[str] | None = None) -> AsyncIterator[tuple[BotProcess, float]]:
    """The real bot process on a database `build` makes in a folder of its own; with the
    seconds the building took. Killed on the way out."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "keizer.db"
        made = time.perf_counter()
        await build(path)
        made = time.perf_counter() - made
        bot = BotProcess(tg, path, command=command)
        bot.start()
        try:
            await bot.running(timeout=600)
            yield bot, made
        finally:
            bot.kill()


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--players", type=int, default=500)
    parser.add_argument("--rounds", type=int, default=40)
    parser.add_argument("--asks", type=int, default=60)
    parser.add_argument("--viewers", type=int, default=3,
                        help="members asking /stand each time (0: /help alone, the baseline)")
    parser.add_argument("--every", type=float, default=0.25,
                        help="seconds from the start of one turn to the next (at least)")
    parser.add_argument("--no-flood-limits", action="store_true",
                        help="the bot without Telegram's 30 messages a second: its own time")
    options = parser.parse_args()
    asyncio.run(main(options.players, options.rounds, options.asks, options.viewers,
                     every=options.every, flood_limits=not options.no_flood_limits))
