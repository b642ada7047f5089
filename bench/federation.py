"""A federation's service (issue 35): three `keizerbot host` processes on one PostgreSQL
database (a server this script starts) share N clubs of 40 members, each club's bot at the
local Bot API fake over webhooks, behind a proxy that sends each request to a host picked at
random (`tests.bot.process.Proxy`, as docs/deploy.md's Caddy does). The clubs' deadlines fall
evenly across one minute; members send `/stand`, `/stand mij` and `/help` at `--rate` updates
a second from before the first deadline until well after the last; one host is killed
(SIGKILL) in the middle of that minute. Printed:

- drafts: from each club's deadline to its draft with the arbiter (p50, p95, the last);
- replies: from each update to its answer, over the whole run, the kill included (p50, p95,
  the slowest);
- takeover: from the kill until every club runs again (held by a live host);
- lost and twice: updates never answered or answered more than once, and drafts that never
  came or came twice (each must be 0).

    uv run python bench/federation.py [--clubs 300] [--rate 50] [--lead 90]
"""

from __future__ import annotations

import argparse
import asyncio
import datetime as dt
import itertools
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the tests' harness

import asyncpg
from host import MEMBERS, arbiter_of, club_token, fill, member, quantile

from bot.demo.fakeapi import FakeTelegram, FakeTelegrams, NotSent, User
from storage import programme
from storage.postgres import INSTANCE_LOCK, add_club
from storage.store import open_store
from tests.bot.conftest import drafted
from tests.bot.process import Proxy, free_port, host_process
from tests.postgres import database, running_server

HOSTS = 3
ASKED = ("/stand", "/stand mij", "/help")
MINUTE = 60.0
"""The deadlines' spread."""


async def _clubs(dsn: str, count: int) -> list[int]:
    """The clubs, filled as bench/host.py fills them; their numbers."""
    numbers = []
    for k in range(count):
        added = await add_club(dsn, f"Club {k}", club_token(k))
        db = await open_store(dsn, club=added.id)
        try:
            await fill(db, k)
        finally:
            await db.close()
        numbers.append(added.id)
    return numbers


async def _deadlines(dsn: str, numbers: list[int], lead: float) -> list[dt.datetime]:
    """Round 2's deadline of each club, `lead` seconds from now and evenly across a minute
    from there; in club order."""
    first = dt.datetime.now(dt.UTC) + dt.timedelta(seconds=lead)
    deadlines = [first + dt.timedelta(seconds=MINUTE * k / len(numbers))
                 for k in range(len(numbers))]
    for number, deadline in zip(numbers, deadlines, strict=True):
        db = await open_store(dsn, club=number)
        try:
            await programme.set_schedule(db, 2, date=deadline.date(), deadline=deadline,
                                         actor=None)
        finally:
            await db.close()
    return deadlines


async def _held(dsn: str) -> int:
    """Clubs held by a process (their instance locks)."""
    conn = await asyncpg.connect(dsn)
    try:
        return int(await conn.fetchval("SELECT count(*) FROM pg_locks WHERE locktype = "
                                       "'advisory' AND classid = $1 AND granted",
                                       INSTANCE_LOCK))
    finally:
        await conn.close()


async def _ask(bot: FakeTelegram, user: User, text: str) -> float | None:
    """Seconds to the answer; None if none came in two minutes."""
    mark = len(bot.sent)
    start = time.perf_counter()
    bot.user_says(user, text)
    try:
        await bot.wait_for(lambda s: s.chat_id == user.id, after=mark, timeout=120)
    except NotSent:  # counted as lost
        return None
    return time.perf_counter() - start


async def _draft(bot: FakeTelegram, arbiter: int, deadline: dt.datetime) -> float | None:
    try:
        await bot.wait_for(lambda s: s.chat_id == arbiter and drafted(2) in s.text,
                           timeout=600)
    except NotSent:  # counted as lost
        return None
    return (dt.datetime.now(dt.UTC) - deadline).total_seconds()


async def run(count: int, rate: float, lead: float) -> dict[str, str]:
    with running_server("-c max_connections=400") as server, database(server) as dsn:
        fakes = FakeTelegrams()
        await fakes.start()
        bots = [fakes.add(club_token(k), f"Club{k}Bot") for k in range(count)]
        deadlines = await _deadlines(dsn, await _clubs(dsn, count), lead)
        ports = [free_port() for _ in range(HOSTS)]
        proxy = Proxy(ports)
        await proxy.start()
        hosts = [host_process(fakes, dsn, port=port, public_url=proxy.url) for port in ports]
        try:
            while not all(b.webhook is not None and b.webhook["url"].startswith(proxy.url)
                          for b in bots) or await _held(dsn) < count:
                await asyncio.sleep(0.5)
            started = dt.datetime.now(dt.UTC)
            assert started < deadlines[0], "the hosts started after the first deadline"
            drafts = [asyncio.create_task(_draft(bot, arbiter_of(k), deadlines[k]))
                      for k, bot in enumerate(bots)]
            members = itertools.cycle([(bots[k], member(k, n), ASKED[(k + n) % 3])
                                       for n in range(MEMBERS) for k in range(count)])
            kill_at = deadlines[0] + dt.timedelta(seconds=MINUTE / 2)
            until = deadlines[-1] + dt.timedelta(seconds=30)
            asked, killed, takeover = [], None, None
            times: dict[tuple[FakeTelegram, int], int] = {}
            while dt.datetime.now(dt.UTC) < until:
                bot, user, text = next(members)
                asked.append(asyncio.create_task(_ask(bot, user, text)))
                times[bot, user.id] = times.get((bot, user.id), 0) + 1
                if killed is None and dt.datetime.now(dt.UTC) >= kill_at:
                    hosts[0].kill()
                    killed = time.perf_counter()
                    proxy.ports = ports[1:]
                if killed is not None and takeover is None and await _held(dsn) == count:
                    takeover = time.perf_counter() - killed
                await asyncio.sleep(1 / rate)
            while takeover is None and killed is not None:
                if await _held(dsn) == count:
                    takeover = time.perf_counter() - killed
                await asyncio.sleep(0.2)
            replies = await asyncio.gather(*asked)
            waits = await asyncio.gather(*drafts)
            await asyncio.sleep(5.0)  # a beat or two more: nothing comes twice
            twice = sum(max(0, len(bot.to(user)) - n) for (bot, user), n in times.items())
            drafts_twice = sum(1 for k, bot in enumerate(bots)
                               if sum(drafted(2) in s.text for s in bot.to(arbiter_of(k))) > 1)
        finally:
            for host in hosts:
                host.kill()
            await proxy.stop()
            await fakes.stop()
    answered = [r for r in replies if r is not None]
    came = [w for w in waits if w is not None]
    return {"clubs": str(count), "hosts": str(HOSTS), "updates": str(len(asked)),
            "drafts p50": f"{statistics.median(came):.1f} s",
            "drafts p95": f"{quantile(came, 0.95):.1f} s", "drafts last": f"{max(came):.1f} s",
            "replies p50": f"{1000 * statistics.median(answered):.0f} ms",
            "replies p95": f"{1000 * quantile(answered, 0.95):.0f} ms",
            "replies last": f"{max(answered):.1f} s",
            "takeover": f"{takeover:.1f} s" if takeover is not None else "never",
            "lost": f"{len(replies) - len(answered)} + {len(waits) - len(came)} drafts",
            "twice": f"{twice} + {drafts_twice} drafts"}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--clubs", type=int, default=300)
    parser.add_argument("--rate", type=float, default=50.0, help="updates a second")
    parser.add_argument("--lead", type=float, default=90.0,
                        help="seconds from starting the hosts to the first deadline")
    args = parser.parse_args()
    row = asyncio.run(run(args.clubs, args.rate, args.lead))
    print(f"{args.clubs} clubs of {MEMBERS} members on {HOSTS} host processes behind a random "
          f"proxy; deadlines across one minute; {args.rate:.0f} updates/s; one host killed "
          "(SIGKILL) in that minute\n")
    print("| " + " | ".join(row) + " |")
    print("|" + "---|" * len(row))
    print("| " + " | ".join(row.values()) + " |")


if __name__ == "__main__":
    main()
