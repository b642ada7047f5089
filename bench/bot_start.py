"""What a bot test's own bot costs in CPU (issue 48): the test club's bot started against the
local Bot API, settled (its menus offered, two ticks run) and stopped, as the `bot` fixture
of tests/bot does hundreds of times a run. The fake Telegram runs in this process, so its
share is counted too.

    uv run python bench/bot_start.py [--cycles 200] [--repeats 3]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the tests' harness

from bot.demo.fakeapi import FakeTelegram
from bot.worker import Processes
from tests.bot.conftest import club_bot

STEPS = ("start", "settle", "stop")


async def cycles(count: int) -> dict[str, float]:
    """CPU milliseconds per bot, by step, over `count` bots (after one to warm up)."""
    spent = dict.fromkeys(STEPS, 0.0)
    with contextlib.closing(Processes()) as shared, \
            tempfile.TemporaryDirectory(prefix="keizer-botstart-") as folder:
        await shared.run(abs, 0)
        tg = FakeTelegram()
        await tg.start()
        try:
            for k in range(count + 1):
                marks = [time.process_time()]
                bot = await club_bot(tg, Path(folder) / f"{k}.db", shared)
                marks.append(time.process_time())
                await bot.settled()
                marks.append(time.process_time())
                await bot.stop()
                marks.append(time.process_time())
                if k:  # the first pays for the imports and the store made once
                    for step, before, after in zip(STEPS, marks, marks[1:], strict=False):
                        spent[step] += after - before
        finally:
            await tg.stop()
    return {step: 1000 * total / count for step, total in spent.items()}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--cycles", type=int, default=200)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    runs = [asyncio.run(cycles(args.cycles)) for _ in range(args.repeats)]
    print(f"CPU ms per bot, {args.cycles} bots, {args.repeats} runs (median and range)\n")
    print("| step | ms |")
    print("|---|---|")
    for step in (*STEPS, "all"):
        values = [sum(run.values()) if step == "all" else run[step] for run in runs]
        print(f"| {step} | {statistics.median(values):.1f} "
              f"({min(values):.1f}-{max(values):.1f}) |")


if __name__ == "__main__":
    main()
