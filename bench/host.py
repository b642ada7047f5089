"""Many clubs on one process (issue 27): `bot.host.Host` running N clubs of 40 members, each
club's bot at the local Bot API fake over webhooks, on SQLite (a file per club) and on
PostgreSQL (one database, a server this script starts). Measured:

- start: until every club's bot runs (its menus set, its webhook given);
- deadlines: every club's round has its deadline in the same second; from that moment until
  each club's draft is with its arbiter (p50, and the last);
- replies: members of all clubs send `/stand`, `/stand mij` and `/help` at `--rate` updates a
  second for `--seconds`; from each update to its answer (p50, p95);
- memory: the process's resident memory per club (after the deadlines; the standings worker
  processes apart).

    uv run python bench/host.py [--clubs 300] [--store sqlite|postgresql|both]
    uv run python bench/host.py --at-start --clubs 30 --store sqlite
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import datetime as dt
import itertools
import multiprocessing
import statistics
import sys
import tempfile
import time
from collections.abc import AsyncIterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the tests' harness

from bot.config import Config
from bot.demo.fakeapi import FakeTelegram, FakeTelegrams, User
from bot.telegram.host import Host, Hosted
from core.season import season_from_data
from storage import club, programme, roster, rounds
from storage.db import Database
from storage.postgres import add_club
from storage.seasons import import_season
from storage.store import open_store
from tests.postgres import database, running_server
from tests.seasons import season_data

MEMBERS = 40
ASKED = ("/stand", "/stand mij", "/help")
LEAD = dt.timedelta(seconds=10)
"""From moving the deadlines to the deadline."""


def club_token(k: int) -> str:
    return f"{100000 + k}:" + "A" * 35


def member(k: int, n: int) -> User:
    return User(10_000 * (k + 1) + n, f"Lid{n}", f"Club{k}")


def arbiter_of(k: int) -> int:
    return 10_000 * (k + 1) + 9_999


def group_of(k: int) -> int:
    return -10_000 * (k + 1)


async def fill(db: Database, k: int) -> None:
    """40 members (linked), a round played, the next round planned a week ahead."""
    players = [{"id": f"p{n}", "name": f"Lid{n} Club{k}", "rating": 2000 - 10 * n}
               for n in range(MEMBERS)]
    played = ", ".join(f"p{n}-p{n + 1} 1-0" for n in range(0, MEMBERS, 2))
    await import_season(db, season_from_data(season_data(
        {"preset": "sliedrecht", "planned_rounds": 10, "period_length": 10}, players,
        [played], club=f"Club {k}")))
    for n in range(MEMBERS):
        await roster.link(db, f"p{n}", member(k, n).id, actor=None)
    await club.set_arbiter(db, arbiter_of(k), actor=None)
    await club.change_settings(db, actor=None, group_chat_id=group_of(k))
    week = dt.datetime.now(dt.UTC) + dt.timedelta(days=7)
    await rounds.add_round(db, 2, date=week.date(), deadline=week)


async def _clubs(store: str, folder: Path, count: int) -> list[Hosted]:
    made = []
    for k in range(count):
        if store == "sqlite":
            hosted = Hosted(k + 1, f"Club {k}", club_token(k), folder / f"club-{k + 1}.db")
            db = await open_store(hosted.store)
        else:
            added = await add_club(store, f"Club {k}", club_token(k))
            hosted = Hosted(added.id, added.name, added.token, store)
            db = await open_store(store, club=added.id)
        try:
            await fill(db, k)
        finally:
            await db.close()
        made.append(hosted)
    return made


def _rss_mb(pid: int | str = "self") -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def quantile(values: list[float], q: float) -> float:
    return statistics.quantiles(values, n=100, method="inclusive")[int(q * 100) - 1] \
        if len(values) > 1 else values[0]


async def _ask(bot: FakeTelegram, user: User, text: str) -> float:
    mark = len(bot.sent)
    start = time.perf_counter()
    bot.user_says(user, text)
    await bot.wait_for(lambda s: s.chat_id == user.id, after=mark, timeout=120)
    return time.perf_counter() - start


@contextlib.asynccontextmanager
async def _hosting(kind: str, count: int) -> AsyncIterator[tuple[Host, list[FakeTelegram]]]:
    """A host of `count` filled clubs on `kind`'s store, not started yet, and each club's
    fake Telegram."""
    with tempfile.TemporaryDirectory() as folder, \
            (running_server("-c max_connections=200") if kind == "postgresql"
             else _nothing()) as server, \
            (database(server) if server else _nothing()) as dsn:
        fakes = FakeTelegrams()
        await fakes.start()
        bots = [fakes.add(club_token(k), f"Club{k}Bot") for k in range(count)]
        clubs = await _clubs(dsn or "sqlite", Path(folder), count)
        config = Config(token="", base_url=fakes.url, database=dsn or Path(folder),
                        web_port=0, webhook=True)

        async def listed() -> list[Hosted]:
            return clubs

        host = Host(config, listed, flood_limits=False, connections=10)
        try:
            yield host, bots
        finally:
            await host.stop()
            await fakes.stop()


async def run(kind: str, count: int, rate: float, seconds: float) -> dict[str, str]:
    async with _hosting(kind, count) as (host, bots):
        before = _rss_mb()
        started = time.perf_counter()
        await host.start()
        start_seconds = time.perf_counter() - started
        assert len(host.running) == count, f"{len(host.running)} of {count} clubs run"
        # Every club's deadline in the same second, moved there through each club's own
        # store (as `/ronde uitstel` would): each bot plans its job at that moment.
        deadline = dt.datetime.now(dt.UTC).replace(microsecond=0) + LEAD
        for runtime in host.running.values():
            await programme.set_schedule(runtime.services.db, 2, date=deadline.date(),
                                         deadline=deadline, actor=None)
        assert dt.datetime.now(dt.UTC) < deadline, "moving the deadlines took too long"
        waits = await asyncio.gather(*(
            _draft(bot, arbiter_of(k), deadline) for k, bot in enumerate(bots)))
        members = itertools.cycle([(bots[k], member(k, n), ASKED[(k + n) % 3])
                                   for n in range(MEMBERS) for k in range(count)])
        asked = []
        for _ in range(int(rate * seconds)):
            bot, user, text = next(members)
            asked.append(asyncio.create_task(_ask(bot, user, text)))
            await asyncio.sleep(1 / rate)
        latencies = await asyncio.gather(*asked)
        after = _rss_mb()
        workers = sum(_rss_mb(p.pid) for p in multiprocessing.active_children())
    return {"store": kind, "clubs": str(count), "start": f"{start_seconds:.1f} s",
            "deadline p50": f"{statistics.median(waits):.1f} s",
            "deadline last": f"{max(waits):.1f} s",
            "reply p50": f"{1000 * statistics.median(latencies):.0f} ms",
            "reply p95": f"{1000 * quantile(latencies, 0.95):.0f} ms",
            "memory per club": f"{(after - before) / count:.1f} MB",
            "workers": f"{workers:.0f} MB"}


AT_START = ("/help", "/afmelden", "/uitslag 1-0")
"""What three members of every club ask the moment their club's bot takes webhooks."""


async def run_start(kind: str, count: int) -> dict[str, str]:
    """Issue 50: the host starts every club at once; the moment a club's bot takes webhooks,
    three of its members ask `AT_START`, each answer timed from that moment."""
    async with _hosting(kind, count) as (host, bots):
        starting = asyncio.create_task(host.start())
        firsts = await asyncio.gather(*(_first(bot, k) for k, bot in enumerate(bots)))
        await starting
    row = {"store": kind, "clubs": str(count)}
    for n, text in enumerate(AT_START):
        waits = [answers[n] for answers in firsts]
        row[f"{text.split()[0]} p50 / max"] = \
            f"{1000 * statistics.median(waits):.0f} / {1000 * max(waits):.0f} ms"
    return row


async def _first(bot: FakeTelegram, k: int) -> list[float]:
    while bot.webhook is None:
        await asyncio.sleep(0.005)
    return list(await asyncio.gather(*(_ask(bot, member(k, n), text)
                                       for n, text in enumerate(AT_START))))


async def _draft(bot: FakeTelegram, arbiter: int, deadline: dt.datetime) -> float:
    await bot.wait_for(lambda s: s.chat_id == arbiter and "deadline van ronde 2" in s.text,
                       timeout=600)
    return (dt.datetime.now(dt.UTC) - deadline).total_seconds()


class _nothing:
    def __enter__(self) -> str:
        return ""

    def __exit__(self, *exc: object) -> None:
        return None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--clubs", type=int, default=300)
    parser.add_argument("--store", choices=("sqlite", "postgresql", "both"), default="both")
    parser.add_argument("--rate", type=float, default=50.0, help="updates a second")
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--at-start", action="store_true",
                        help="only the start, and three members of each club asking at once")
    args = parser.parse_args()
    kinds = ("sqlite", "postgresql") if args.store == "both" else (args.store,)
    if args.at_start:
        rows = [asyncio.run(run_start(kind, args.clubs)) for kind in kinds]
        print(f"{args.clubs} clubs of {MEMBERS} members started at once; from the moment each "
              f"club's bot takes webhooks, three members ask {', '.join(AT_START)}\n")
    else:
        rows = [asyncio.run(run(kind, args.clubs, args.rate, args.seconds)) for kind in kinds]
        print(f"{args.clubs} clubs of {MEMBERS} members on one process; replies at "
              f"{args.rate:.0f} updates/s for {args.seconds:.0f} s\n")
    print("| " + " | ".join(rows[0]) + " |")
    print("|" + "---|" * len(rows[0]))
    for row in rows:
        print("| " + " | ".join(row.values()) + " |")


if __name__ == "__main__":
    main()
