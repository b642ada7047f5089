"""From a round's deadline to the draft in the arbiter's chat (issue 23): the real
`keizerbot` process, the local Bot API fake in this process, the real clock. Each run is a
fresh club whose round 1 has its deadline a few seconds after the bot started; the bot pairs
it at the job it planned for that moment (the 30-second tick is only the safety net).

    uv run python bench/deadline.py [--runs 8]
"""

from __future__ import annotations

import argparse
import asyncio
import datetime as dt
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the tests' harness

from bot.demo.fakeapi import FakeTelegram
from storage import rounds
from storage.store import open_store
from tests.bot.conftest import ARBITER
from tests.bot.process import BotProcess, make_club

LEAD = dt.timedelta(seconds=6)
"""From the start of the process to the deadline: the bot is up well before it."""


async def once() -> float:
    """Seconds from the deadline to the draft's arrival."""
    tg = FakeTelegram()
    await tg.start()
    try:
        with tempfile.TemporaryDirectory() as folder:
            path = Path(folder) / "keizer.db"
            await make_club(path)
            deadline = dt.datetime.now(dt.UTC) + LEAD
            db = await open_store(path)
            await rounds.add_round(db, 1, date=deadline.date(), deadline=deadline)
            await db.close()
            bot = BotProcess(tg, path)
            bot.start()
            try:
                await bot.running(timeout=60)
                await tg.wait_for(lambda s: s.chat_id == ARBITER.id and
                                  "deadline van ronde 1" in s.text, timeout=60)
                return (dt.datetime.now(dt.UTC) - deadline).total_seconds()
            finally:
                bot.kill()
    finally:
        await tg.stop()


async def main(runs: int) -> None:
    waits = [await once() for _ in range(runs)]
    ordered = sorted(waits)
    print(f"Deadline to draft with the arbiter, {runs} runs (seconds)\n")
    print("| p50 | p95 | max |")
    print("|---|---|---|")
    print(f"| {statistics.median(waits):.2f} | {ordered[round(0.95 * (runs - 1))]:.2f} | "
          f"{max(waits):.2f} |")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=8)
    asyncio.run(main(parser.parse_args().runs))
