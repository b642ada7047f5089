"""What one member's message costs in CPU (issue 48): `/help` sent to the test club's bot
through the local Bot API and its answer awaited, as the bot tests do thousands of times a
run. The bot's long poll, its handling, its answer (`sendMessage`) and the fake Telegram's
side are all in this process, so all are counted.

    uv run python bench/bot_message.py [--messages 500] [--repeats 3]
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

from bot.demo.fakeapi import FakeTelegram, User
from bot.worker import Processes
from tests.bot.conftest import club_bot

MEMBER = User(100, "Anna", "Visser")
WARM_UP = 20


async def per_message(count: int) -> tuple[float, float]:
    """CPU and wall milliseconds per `/help` and its answer, over `count` messages."""
    with contextlib.closing(Processes()) as shared, \
            tempfile.TemporaryDirectory(prefix="keizer-botmessage-") as folder:
        await shared.run(abs, 0)
        tg = FakeTelegram()
        await tg.start()
        bot = await club_bot(tg, Path(folder) / "keizer.db", shared)
        try:
            await bot.settled()
            for _ in range(WARM_UP):
                await tg.reply_to(MEMBER, "/help")
            cpu, wall = time.process_time(), time.perf_counter()
            for _ in range(count):
                await tg.reply_to(MEMBER, "/help")
            cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
        finally:
            await bot.stop()
            await tg.stop()
    return 1000 * cpu / count, 1000 * wall / count


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--messages", type=int, default=500)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    runs = [asyncio.run(per_message(args.messages)) for _ in range(args.repeats)]
    print(f"ms per /help and its answer, {args.messages} messages, {args.repeats} runs "
          "(median and range)\n")
    print("| | ms |")
    print("|---|---|")
    for name, values in (("CPU", [cpu for cpu, _ in runs]), ("wall", [w for _, w in runs])):
        print(f"| {name} | {statistics.median(values):.2f} "
              f"({min(values):.2f}-{max(values):.2f}) |")


if __name__ == "__main__":
    main()
