"""The real `keizerbot` process against the local Bot API fake: start it, kill it (SIGKILL,
also at the worst moment), restart it, and read its database as a second process would."""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import json
import os
import random
import signal
import socket
import sqlite3
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar

import aiohttp
from aiohttp import web

from bot.demo.fakeapi import FakeTelegram, User
from core.season import season_from_data
from storage import club, roster, rounds
from storage.seasons import import_season
from tests.bot.conftest import ARBITER, GROUP, MEMBERS, TOKEN, fits
from tests.integration.conftest import ROOT
from tests.stores import new_store

ZONE = dt.UTC
HOST_KEY = "3q2-7wJ8TgrVTA7aQG9nqW5oWnWnW9qVqDk1kJxQ4Xw="
"""A host's KEIZER_SECRET_KEY (tests.bot.test_lichess.KEY), which seals its clubs' tokens."""


async def make_club(path: Path, *, rounds_ahead: int = 0, deadline_passed: bool = False,
                    players: int = len(MEMBERS), on_site: bool = False,
                    online: bool = False) -> None:
    """The six members of the bot tests, linked (ids 100, 101, ...), the club group set, and
    `rounds_ahead` weekly rounds from next week; with `deadline_passed`, round 1 is today
    and its deadline is over (`on_site`: paired at the venue; `online`: on lichess)."""
    names = (MEMBERS * (players // len(MEMBERS) + 1))[:players]
    data = {"format": "keizer-season/1", "club": "Testclub", "season": "2026-2027",
            "rules": {"preset": "sliedrecht", "planned_rounds": max(rounds_ahead, 1) + 1,
                      "period_length": max(rounds_ahead, 1) + 1},
            "players": [{"id": f"p{k}", "name": f"{name} {k}" if players > len(MEMBERS)
                         else name, "rating": 2000 - k} for k, name in enumerate(names)],
            "rounds": []}
    db = await new_store(path)
    try:
        await import_season(db, season_from_data(json.loads(json.dumps(data))))
        for k in range(players):
            await roster.link(db, f"p{k}", 100 + k, actor=None)
        await club.change_settings(db, actor=None, group_chat_id=GROUP)
        now = dt.datetime.now(dt.UTC)
        number = 0
        if deadline_passed:
            number += 1
            await rounds.add_round(db, number, date=now.date(),
                                   deadline=now - dt.timedelta(minutes=1), on_site=on_site,
                                   online=online)
        for week in range(1, rounds_ahead + 1):
            number += 1
            date = (now + dt.timedelta(days=7 * week)).date()
            await rounds.add_round(db, number, date=date,
                                   deadline=dt.datetime.combine(date, dt.time(18), ZONE))
    finally:
        await db.close()


class BotProcess:
    alive: ClassVar[set[subprocess.Popen[str]]] = set()
    """Every process started and not yet reaped (killed at the end of each test)."""

    def __init__(self, tg: FakeTelegram, db: Path, *, command: list[str] | None = None,
                 token: str = TOKEN) -> None:
        self.tg, self.db = tg, db
        self.command = command or [sys.executable, "-m", "bot.cli"]
        self.env = {**os.environ, "TELEGRAM_BOT_TOKEN": token, "TELEGRAM_BASE_URL": tg.url,
                    "KEIZER_DB": str(db), "KEIZER_ARBITERS": str(ARBITER.id)}
        self.process: subprocess.Popen[str] | None = None
        self.output = ""
        self._polls_at_start = 0

    def start(self) -> subprocess.Popen[str]:
        self._polls_at_start = self.tg.polls
        self.process = subprocess.Popen(self.command, cwd=ROOT, env=self.env, text=True,
                                        stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                        start_new_session=True)
        BotProcess.alive.add(self.process)
        # Read as it comes: a bot whose log fills the pipe's buffer would block on writing.
        self._lines: list[str] = []
        self._reader = threading.Thread(target=self._read, args=(self.process, self._lines),
                                        daemon=True)
        self._reader.start()
        return self.process

    @staticmethod
    def _read(process: subprocess.Popen[str], lines: list[str]) -> None:
        assert process.stdout is not None
        lines.extend(process.stdout)

    async def running(self, timeout: float = 30.0) -> None:
        """Until the process polls Telegram (it is up, and has handled its backlog)."""
        assert self.process is not None
        deadline = time.monotonic() + timeout
        while self.tg.polls <= self._polls_at_start + 1:  # the backlog fetch, then the loop
            assert self.process.poll() is None, self.finish()
            assert time.monotonic() < deadline, "the bot did not start polling"
            await asyncio.sleep(0.05)

    def kill(self) -> None:
        assert self.process is not None
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGKILL)
        self.finish()

    @classmethod
    def kill_all(cls) -> None:
        """No bot outlives its test, whatever the test did."""
        for process in list(cls.alive):
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)
            process.wait(timeout=30)
        cls.alive.clear()

    def finish(self, timeout: float = 30.0) -> str:
        assert self.process is not None
        self.process.wait(timeout=timeout)
        self._reader.join(timeout=timeout)
        BotProcess.alive.discard(self.process)
        out = "".join(self._lines)
        self.output += out
        return out

    async def exited(self, timeout: float = 30.0) -> int:
        assert self.process is not None
        deadline = time.monotonic() + timeout
        while self.process.poll() is None:
            assert time.monotonic() < deadline, "the bot did not stop"
            await asyncio.sleep(0.05)
        self.finish()
        return self.process.returncode


def query(db: Path, sql: str, *args: object) -> list[tuple[object, ...]]:
    """Read the bot's database from outside, as the tests' second process."""
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=10)
    try:
        return conn.execute(sql, args).fetchall()
    finally:
        conn.close()


async def until(condition, *, timeout: float = 30.0, every: float = 0.005) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        await asyncio.sleep(every)


@dataclass(frozen=True, slots=True)
class CrashResult:
    cycles: int
    messages: int
    """Sign-offs the members sent."""
    lost: int
    """Sent, but not in the database at the end."""
    unanswered: int
    """Stored, but the member never got the answer."""
    duplicates: int
    """Answers a member got more than once."""
    owed_unsent: int
    """Messages owed (in the outbox) and not sent at the end."""
    seconds: float


async def run_cycles(tg: FakeTelegram, db: Path, *, cycles: int, rng: random.Random,
                     players: int = len(MEMBERS), kill_within: float = 0.8) -> CrashResult:
    """Each cycle: start the bot, let every member sign off for that cycle's round, SIGKILL
    the bot at a random moment. Then one last start, and count."""
    started = time.monotonic()
    await make_club(db, rounds_ahead=cycles, players=players)
    members = [User(100 + k, "Lid", str(k)) for k in range(players)]
    bot = BotProcess(tg, db)
    for cycle in range(1, cycles + 1):
        bot.start()
        await bot.running()
        for member in rng.sample(members, len(members)):
            tg.user_says(member, f"/afmelden {cycle}")
            await asyncio.sleep(rng.uniform(0, kill_within / players))
        await asyncio.sleep(rng.uniform(0, kill_within / 2))
        bot.kill()
    bot.start()
    await bot.running()
    expected = {(m.id, r) for m in members for r in range(1, cycles + 1)}

    def answers() -> dict[tuple[int, int], int]:
        counts: dict[tuple[int, int], int] = {}
        for chat, number in expected:
            counts[chat, number] = sum(fits(s.text, "SIGNED_OFF", round=number)
                                       or fits(s.text, "SIGNED_OFF_KEPT", round=number)
                                       for s in tg.to(chat))
        return counts

    with contextlib.suppress(AssertionError):
        await until(lambda: all(answers().values()), timeout=60, every=0.2)
    await asyncio.sleep(0.5)
    stored = {(int(t), int(n)) for t, n in query(
        db, "SELECT p.telegram_id, r.number FROM signoff s JOIN player p ON p.id = s.player_id "
            "JOIN round r ON r.id = s.round_id")}
    counts = answers()
    owed = query(db, "SELECT count(*) FROM outbox WHERE sent_at IS NULL AND failed_at IS NULL")
    bot.kill()
    return CrashResult(cycles, len(expected), len(expected - stored),
                       sum(1 for key in expected & stored if counts[key] == 0),
                       sum(max(0, c - 1) for c in counts.values()), int(owed[0][0]),
                       time.monotonic() - started)


def host_process(telegram: object, dsn: str, *, port: int | None = None,
                 public_url: str = "") -> BotProcess:
    """A `keizerbot host` process on the PostgreSQL database `dsn`, started; with `port`, its
    pages and webhooks there (`public_url`: where Telegram posts them)."""
    made = BotProcess(telegram, Path("unused.db"),  # type: ignore[arg-type]
                      command=[sys.executable, "-m", "bot.cli", "host"])
    made.env.update(KEIZER_DB=dsn, KEIZER_SECRET_KEY=HOST_KEY)
    if port is not None:
        made.env.update(KEIZER_WEBHOOK="1", KEIZER_WEB_PORT=str(port),
                        KEIZER_PUBLIC_URL=public_url or f"http://127.0.0.1:{port}")
    del made.env["TELEGRAM_BOT_TOKEN"], made.env["KEIZER_ARBITERS"]
    made.start()
    return made


class Proxy:
    """A reverse proxy before the hosts, as docs/deploy.md's Caddy is: each request to a host
    picked at random, to another one when that one does not answer. It knows not which host
    runs which club."""

    def __init__(self, ports: list[int]) -> None:
        self.ports = ports
        self.url = ""
        self._runner: web.AppRunner | None = None
        self._session: aiohttp.ClientSession | None = None

    async def start(self) -> None:
        app = web.Application()
        app.router.add_route("*", "/{tail:.*}", self._pass)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        await web.TCPSite(self._runner, "127.0.0.1", 0).start()
        self.url = f"http://127.0.0.1:{self._runner.addresses[0][1]}"
        self._session = aiohttp.ClientSession()

    async def stop(self) -> None:
        if self._session is not None:
            await self._session.close()
        if self._runner is not None:
            await self._runner.cleanup()

    async def _pass(self, request: web.Request) -> web.Response:
        assert self._session is not None
        body = await request.read()
        headers = {k: v for k, v in request.headers.items()
                   if k.lower() in ("content-type", "x-telegram-bot-api-secret-token")}
        for port in random.sample(self.ports, len(self.ports)):
            try:
                async with self._session.request(
                        request.method, f"http://127.0.0.1:{port}{request.path_qs}",
                        data=body, headers=headers) as answer:
                    return web.Response(status=answer.status, body=await answer.read())
            except aiohttp.ClientConnectionError:
                continue  # a host that is not there (killed, or not yet up): the next
        return web.Response(status=502)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])
