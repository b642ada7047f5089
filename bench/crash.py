"""Crash benchmark (issue 11): the real `keizerbot` process is killed with SIGKILL at random
moments while members sign off, a hundred times, and restarted. Counts what was lost.

    uv run python bench/crash.py [--cycles 100] [--seed 1]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the tests' harness

from bot.demo.fakeapi import FakeTelegram
from tests.bot.process import run_cycles


async def main(cycles: int, seed: int) -> None:
    tg = FakeTelegram()
    await tg.start()
    try:
        with tempfile.TemporaryDirectory() as folder:
            result = await run_cycles(tg, Path(folder) / "keizer.db", cycles=cycles,
                                      rng=random.Random(seed))
    finally:
        await tg.stop()
    print(f"{result.cycles} SIGKILL cycles of the real keizerbot process, 6 members signing "
          f"off each cycle ({result.seconds:.0f} s)\n")
    print("| what | count |\n|---|---|")
    for label, value in (("sign-offs sent", result.messages),
                         ("taken from Telegram but never stored (lost)", result.lost),
                         ("stored but never answered", result.unanswered),
                         ("owed in the outbox but never sent", result.owed_unsent),
                         ("answers sent twice (killed between Telegram's answer and marking "
                          "it sent)", result.duplicates)):
        print(f"| {label} | {value} |")


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--cycles", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    options = parser.parse_args()
    asyncio.run(main(options.cycles, options.seed))
