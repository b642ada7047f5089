"""How long a member's sign-off holds the writer (issue 23): the whole write transaction of
`storage.attendance.sign_off` on a large season, with the round it touches checked on the
season before it (as the bot does), and with the whole season read and checked (as before).
In-process, a real SQLite file.

    uv run python bench/write.py [--players 500] [--rounds 40] [--writes 40]
"""

from __future__ import annotations

import argparse
import asyncio
import datetime as dt
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.latency import prepare, print_waits
from storage import attendance
from storage.db import Database
from storage.seasons import load_season
from storage.store import open_store

NOON = dt.datetime(2027, 5, 1, 12, tzinfo=dt.UTC)


async def timed(db: Database, writes: int, players: int, played: int) -> list[float]:
    took = []
    for k in range(writes):
        started = time.perf_counter()
        if k % 2 == 0:
            await attendance.sign_off(db, played + 1, f"p{k % players:03d}", sent_at=NOON,
                                      actor=None)
        else:
            await attendance.cancel_sign_off(db, played + 1, f"p{(k - 1) % players:03d}",
                                             sent_at=NOON, actor=None)
        took.append(time.perf_counter() - started)
    return took


async def main(players: int, played: int, writes: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "keizer.db"
        await prepare(path, players, played)
        db = await open_store(path)
        await load_season(db)  # the bot has it from its first question
        one_round = await timed(db, writes, players, played)
        async def unknown(db: Database) -> None:
            return None
        attendance.current = unknown  # as before: the whole season read and checked
        whole = await timed(db, writes, players, played)
        await db.close()
    print(f"A {players}-player season after {played} rounds: {writes} sign-offs and undoings "
          "for the next round, each one write transaction (ms)\n")
    print_waits([("the round it touches", one_round), ("the whole season", whole)],
                what="the write checks", digits=1)


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--players", type=int, default=500)
    parser.add_argument("--rounds", type=int, default=40)
    parser.add_argument("--writes", type=int, default=40)
    options = parser.parse_args()
    asyncio.run(main(options.players, options.rounds, options.writes))
