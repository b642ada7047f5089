"""Random traffic against the real bot and the local Bot API fake: how many messages and
button presses go unanswered, and how many ERROR lines are logged.

    uv run python -m bench.fuzz [COUNT] [SEED] [IN_GROUP]

IN_GROUP is the share sent in the club group (default 0.3). The fake has no flood limits
(Telegram's twenty a minute in a group would make this measure the rate limiter).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sys
import tempfile
import time
from pathlib import Path

from bot.demo.fakeapi import FakeTelegram, User
from bot.worker import Processes
from tests.bot.conftest import MEMBERS, club_bot
from tests.bot.fuzzing import run
from tests.bot.steps import pass_deadline, set_up_club


class Count(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(record.getMessage()[:200])


async def main(count: int, seed: int, in_group: float) -> None:
    errors = Count()
    logging.getLogger().addHandler(errors)
    tg = FakeTelegram()
    await tg.start()
    with tempfile.TemporaryDirectory() as folder, contextlib.closing(Processes()) as workers:
        bot = await club_bot(tg, Path(folder) / "keizer.db", workers)
        members = [User(100 + k, *name.split(" ", 1)) for k, name in enumerate(MEMBERS)]
        try:
            await set_up_club(bot, members, rounds=3)
            await pass_deadline(bot, 1)
            started = time.perf_counter()
            tally = await run(bot, members, count, seed=seed, heavy=True, in_group=in_group,
                              timeout=30)
            took = time.perf_counter() - started
        finally:
            await bot.stop()
            await tg.stop()
    print(f"{'messages':<22}{tally.messages:>8}")
    print(f"{'  unanswered':<22}{len(tally.unanswered):>8}")
    print(f"{'button presses':<22}{tally.presses:>8}")
    print(f"{'  unanswered':<22}{len(tally.presses_unanswered):>8}")
    print(f"{'ERROR lines':<22}{len(errors.lines):>8}")
    print(f"{'seconds':<22}{took:>8.0f}")
    for line in (tally.unanswered + tally.presses_unanswered + errors.lines)[:20]:
        print("  ", line)


if __name__ == "__main__":
    asyncio.run(main(int(sys.argv[1]) if len(sys.argv) > 1 else 10_000,
                     int(sys.argv[2]) if len(sys.argv) > 2 else 1,
                     float(sys.argv[3]) if len(sys.argv) > 3 else 0.3))
