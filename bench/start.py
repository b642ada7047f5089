"""Issue 50: a start holds nobody. The real `keizerbot` process on a very large season (5,000
players, 76 rounds, Telegram's flood limits on) is started; the moment it polls, one member
asks `/stand` and, just after, others `/help`, `/afmelden` and `/uitslag`. Each answer is
timed from the moment the bot polled, not once it is warm (`bench/behind.py` is the warm
case). The season is built once and kept in the folder given (`--keep`).

    uv run python bench/start.py [--players 5000] [--rounds 76] [--starts 3] [--keep DIR]
"""

from __future__ import annotations

import argparse
import asyncio
import shutil
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the tests' harness

from bench.behind import prepare
from bench.latency import print_waits
from bot.demo.fakeapi import FakeTelegram, User
from tests.bot.process import BotProcess

ASKED = (("/help", "help"), ("/afmelden", "sign-off"), ("/uitslag 1-0", "result"))


async def one_start(tg: FakeTelegram, path: Path) -> dict[str, float]:
    """Seconds from the bot's first poll to each answer."""
    # Anna, Bram and Cor are linked members (`prepare`); Daan is a newcomer asking /help.
    viewer, bram, cor, daan = (User(100 + k, name) for k, name in enumerate(("Anna", "Bram",
                                                                             "Cor", "Daan")))
    askers = [daan, bram, cor]
    bot = BotProcess(tg, path)
    bot.start()
    try:
        await bot.running(timeout=600)
        polled = time.perf_counter()
        mark = len(tg.sent)
        tg.user_says(viewer, "/stand")
        await asyncio.sleep(0.05)
        for who, (command, _name) in zip(askers, ASKED, strict=False):
            tg.user_says(who, command)

        async def answered(who: User) -> float:
            await tg.next_to(who.id, lambda _text: True, after=mark, timeout=600)
            return time.perf_counter() - polled

        names = [name for _, name in ASKED] + ["stand"]
        return dict(zip(names, await asyncio.gather(*map(answered, [*askers, viewer])),
                        strict=True))
    finally:
        bot.kill()


async def main(players: int, played: int, starts: int, keep: Path | None) -> None:
    folder = keep or Path(tempfile.mkdtemp(prefix="keizer-start-"))
    built = folder / f"season-{players}x{played}.db"
    made = 0.0
    if not built.exists():
        folder.mkdir(parents=True, exist_ok=True)
        made = time.perf_counter()
        await prepare(built, players, played)
        made = time.perf_counter() - made
    tg = FakeTelegram()
    await tg.start()
    found: dict[str, list[float]] = {}
    try:
        for _ in range(starts):
            with tempfile.TemporaryDirectory() as run:
                path = Path(run) / "keizer.db"
                shutil.copy2(built, path)
                for name, wait in (await one_start(tg, path)).items():
                    found.setdefault(name, []).append(wait)
    finally:
        await tg.stop()
        if keep is None:
            shutil.rmtree(folder, ignore_errors=True)
    print(f"A {players}-player season after {played} rounds"
          f"{f' (built in {made:.0f} s)' if made else ''}; {starts} starts: the moment the "
          "bot polls, one member asks /stand, and three others /help, /afmelden and "
          "/uitslag; each answer timed from that moment\n")
    print_waits([(name, waits) for name, waits in found.items()])


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--players", type=int, default=5000)
    parser.add_argument("--rounds", type=int, default=76)
    parser.add_argument("--starts", type=int, default=3)
    parser.add_argument("--keep", type=Path, default=None,
                        help="a folder to keep the built season in, for the next run")
    options = parser.parse_args()
    asyncio.run(main(options.players, options.rounds, options.starts, options.keep))
