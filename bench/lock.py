"""A slow Telegram on buttons (issue 23): how long members wait for the answer to their
`/afmelden` while others tap the reminder's buttons, with Telegram answering toasts and
edits at once, and with Telegram taking SLOW seconds for each. The toast and the edit are
made after the commit and off the update's own handling, so the second run should cost
the members who sign off nothing.

The real `keizerbot` process, over HTTP against the local Bot API fake in this process.

    uv run python bench/lock.py [--players 60] [--asks 40] [--slow 5]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the tests' harness

from bot.callbacks import Attendance
from bot.demo.fakeapi import FakeTelegram, Sent, User
from tests.bot.conftest import GROUP
from tests.bot.process import BotProcess, make_club

TAPPERS = 10
"""Members who tap the reminder's buttons over and over, in the group."""


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[round(share * (len(ordered) - 1))]


async def run(players: int, asks: int, slow: float) -> list[float]:
    """Seconds each asker waited for his sign-off's answer."""
    tg = FakeTelegram()
    await tg.start()
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "keizer.db"
        await make_club(path, rounds_ahead=3, players=players)
        bot = BotProcess(tg, path)
        bot.start()
        await bot.running(timeout=120)
        tg.slow = {"answerCallbackQuery": slow, "editMessageText": slow}
        reminder = Sent(GROUP, 1, "Herinnering: ronde 1", {"inline_keyboard": [[
            {"text": label, "callback_data": Attendance(1, choice).pack()}
            for choice, label in (("off", "Ik kan niet"), ("ext", "Extern"))]]})
        stop = asyncio.Event()

        async def tap() -> None:
            k = 0
            while not stop.is_set():
                user = User(100 + k % TAPPERS, "Tikker")
                tg.press(user, reminder, reminder.buttons[k % 2][1])
                k += 1
                await asyncio.sleep(0.05)

        tapping = asyncio.create_task(tap())
        waits = []
        try:
            await asyncio.sleep(0.5)
            for k in range(asks):
                asker = User(100 + TAPPERS + k % (players - TAPPERS), "Lid")
                started = time.perf_counter()
                await tg.reply_to(asker, f"/afmelden {2 + k % 2}", contains="afgemeld",
                                  timeout=60)
                waits.append(time.perf_counter() - started)
        finally:
            stop.set()
            await tapping
            tg.slow = {}
            bot.kill()
            await tg.stop()
    return waits


async def main(players: int, asks: int, slow: float) -> None:
    print(f"/afmelden while {TAPPERS} members tap reminder buttons ({players} players, "
          f"{asks} sign-offs; the real process)\n")
    print("| Telegram on toasts and edits | p50 ms | p95 ms | max ms |")
    print("|---|---|---|---|")
    for label, delay in (("at once", 0.0), (f"{slow:g} s each", slow)):
        waits = await run(players, asks, delay)
        print(f"| {label} | {statistics.median(waits) * 1000:.0f} | "
              f"{percentile(waits, 0.95) * 1000:.0f} | {max(waits) * 1000:.0f} |")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=60)
    parser.add_argument("--asks", type=int, default=40)
    parser.add_argument("--slow", type=float, default=5.0)
    args = parser.parse_args()
    asyncio.run(main(args.players, args.asks, args.slow))
