"""Issue 27: one process for many clubs (`keizerbot host`). Three clubs on one PostgreSQL
database, each with its own bot (a token of its own at the local Bot API fake), group,
arbiter and season, served over webhooks and pages on one web server; a member of two clubs
sees each club's own data in each club's bot; every deadline is handled once, by the club's
own bot; a club that cannot start, or is removed, leaves the others running; a second host
on the same database runs no club twice."""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import logging
import random
import re
import signal
from dataclasses import replace
from pathlib import Path

import aiohttp
import asyncpg
import pytest

from bot.config import Config
from bot.demo.fakeapi import FakeTelegram, FakeTelegrams
from bot.demo.runner import ManualClock
from bot.doctor import host_checks
from bot.language.notice import Text
from bot.telegram.host import Host, postgres_clubs
from bot.telegram.runtime import to_the_end
from storage import roster
from storage.postgres import add_club, remove_club, set_token
from storage.store import open_store
from tests.bot.conftest import drafted, fits, heard, meaning, says, written
from tests.bot.hosting import (
    BOTH,
    CLUBS,
    SEAL,
    club_arbiter,
    club_members,
    club_names,
    club_token,
    hosted_club,
    three_clubs,
)
from tests.bot.linking import KEY
from tests.bot.process import BotProcess, Proxy, free_port, host_process, until
from tests.bot.web import init_data


async def _host(dsn: str, fakes: FakeTelegrams, clock: ManualClock) -> Host:
    config = Config(token="", base_url=fakes.url, database=dsn, web_port=0, webhook=True,
                    tick_seconds=0.2, secret_key=KEY)
    host = Host(config, clock=clock, flood_limits=False)
    await host.start()
    return host


async def test_three_clubs_run_on_one_process_each_its_own(postgres, telegram):
    bots = await three_clubs(postgres, telegram)
    clock = ManualClock(dt.datetime(2026, 11, 30, 9, 0, tzinfo=dt.UTC))
    host = await _host(postgres, telegram, clock)
    try:
        assert sorted(host.running) == sorted(bots)
        assert host.web is not None
        for number, fake in bots.items():
            settings = host.running[number].services.settings
            assert fake.webhook is not None
            assert fake.webhook["url"] == \
                f"{host.web.url}/{number}/telegram/{settings.webhook_key}"
            assert fake.webhook["secret"] == settings.webhook_secret
        (_, fake1), (second, fake2), (_, fake3) = bots.items()
        # One Telegram account in two clubs: each club's bot answers with its own season.
        own = await fake1.reply_to(BOTH, "/stand")
        other = await fake2.reply_to(BOTH, "/stand")
        assert "Bram de Wit" in own.text and "Kees Jansen" not in own.text
        assert "Kees Jansen" in other.text and "Bram de Wit" not in other.text
        piet = (await fake3.reply_to(club_members(2)[0], "/stand")).text
        assert "Piet Blom" in piet and "Anna Visser" not in piet
        # A club's arbiter is no arbiter of another club.
        refused = await fake2.reply_to(club_arbiter(0), "/ronde nieuw 10-12-2026")
        assert refused.text == says("ONLY_ARBITER")
        # Every club's deadline falls in the same minute: each draft comes once, from the
        # club's own bot to the club's own arbiter.
        # The third club's Telegram is away meanwhile: the other two are not held up.
        fake3.outage.add("sendMessage")
        clock.now = dt.datetime(2026, 12, 3, 18, 0, tzinfo=dt.UTC)
        for k, fake in enumerate(bots.values()):
            if fake is fake3:
                await asyncio.sleep(0.5)
                assert not [s for s in fake3.sent if drafted(2) in s.text]
                fake3.outage.clear()
            arbiter = club_arbiter(k).id
            draft = await fake.wait_for(lambda s, a=arbiter: s.chat_id == a and
                                        drafted(2) in s.text)
            assert list(CLUBS.values())[k][1] in draft.text
        await asyncio.sleep(1.0)  # a few more ticks: nothing is drafted twice
        for k, fake in enumerate(bots.values()):
            drafts = [s for s in fake.sent if drafted(2) in s.text]
            assert [s.chat_id for s in drafts] == [club_arbiter(k).id]
        # Each club's pages under its own path, with its own data only.
        async with aiohttp.ClientSession() as session:
            async with session.get(f"{host.web.url}/{second}/") as page:
                body = await page.text()
                assert page.status == 200 and "De Pion" in body and "Kees Jansen" in body
                assert "Bram de Wit" not in body and "Piet Blom" not in body
            # The Mini App: a member's own page is signed by the club's own bot. Anna's
            # page in her second club, signed by that club's bot, is hers there; signed by
            # her first club's bot, the second club does not take it.
            first = next(iter(bots))
            for signer, status in ((second, 200), (first, 403)):
                token = host.running[signer].services.settings.token
                async with session.get(f"{host.web.url}/{second}/mij", headers={
                        "X-Telegram-Init-Data": init_data(BOTH.id, token=token,
                                                          at=clock.now)}) as mine:
                    body = await mine.text()
                    assert mine.status == status, body
                    if status == 200:
                        assert "Kees Jansen" in body and "Bram de Wit" not in body
            async with session.get(f"{host.web.url}/{second}", allow_redirects=False) as bare:
                assert bare.status == 308 and bare.headers["Location"] == f"/{second}/"
            async with session.get(f"{host.web.url}/999/") as unknown:
                assert unknown.status == 404
            async with session.get(f"{host.web.url}/") as root:
                assert root.status == 404
    finally:
        await host.stop()


async def test_a_club_that_cannot_start_or_is_removed_leaves_the_others(
        postgres, telegram, caplog):
    bots = await three_clubs(postgres, telegram)
    # No such bot at Telegram:
    stranger = await add_club(postgres, "Zonder bot", club_token(5), SEAL)
    clock = ManualClock(dt.datetime(2026, 11, 30, 9, 0, tzinfo=dt.UTC))
    host = await _host(postgres, telegram, clock)
    try:
        assert sorted(host.running) == sorted(bots)
        refused = [r for r in caplog.records if r.levelno == logging.ERROR]
        assert [f"club {stranger.id} (Zonder bot)" in r.getMessage() for r in refused] == [True]
        assert club_token(5) not in refused[0].getMessage()
        caplog.clear()
        await host.refresh()  # the same token is not tried again
        assert stranger.id not in host.running and not caplog.records
        # Given the right token, it starts at the host's next look, beside the others.
        fake = telegram.add(club_token(6), "ZonderBot")
        assert await set_token(postgres, stranger.id, club_token(6), SEAL)
        await asyncio.gather(*(tried.wait() for tried in await host.refresh()))
        assert stranger.id in host.running and fake.webhook is not None
        # A second host on the same database runs none of the clubs the first one runs.
        second = await _host(postgres, telegram, clock)
        try:
            assert second.running == {}
        finally:
            await second.stop()
        # A club removed stops, and its webhook is gone; the others answer on.
        (first, fake1), (gone, fake2), _ = bots.items()
        hook = fake2.webhook
        assert hook is not None and await remove_club(postgres, gone)
        await host.refresh()
        assert gone not in host.running and first in host.running
        async with aiohttp.ClientSession() as session, session.post(
                hook["url"], json={"update_id": 1}, headers={
                    "X-Telegram-Bot-Api-Secret-Token": hook["secret"]}) as answer:
            assert answer.status == 404
        assert (await fake1.reply_to(club_members(0)[1], "/help")).text.startswith(says("START"))
    finally:
        await host.stop()


@pytest.mark.slow
async def test_the_host_process_runs_the_clubs_and_comes_back_after_a_kill(
        postgres, telegram):
    """As docs/deploy.md has it: clubs made with `keizerbot clubs add`, then `keizerbot
    host` with webhooks. Killed (SIGKILL) after it kept a member's sign-off but before the
    answer went out, the restarted host answers it once; SIGTERM stops it cleanly."""
    # The process keeps the real time: the round is next week's.
    bots = await three_clubs(postgres, telegram, dt.date.today() + dt.timedelta(days=7))
    host = host_process(telegram, postgres, port=free_port())
    await until(lambda: all(fake.webhook is not None for fake in bots.values()), timeout=60)
    fakes = list(bots.values())
    answer = await fakes[2].reply_to(club_members(2)[1], "/stand", timeout=30)
    assert "Sjaak Hof" in answer.text and "Kees Jansen" not in answer.text
    fakes[1].outage.add("sendMessage")
    lies = club_members(1)[1]
    fakes[1].user_says(lies, "/afmelden")
    second = list(bots)[1]
    while not await _signed_off(postgres, second):
        await asyncio.sleep(0.05)  # kept and handled, its answer held back by the outage
    await until(lambda: any(method == "sendMessage" and int(sent.get("chat_id", 0)) == lies.id
                            for method, sent in fakes[1].calls), timeout=30)
    await asyncio.sleep(0.3)  # the sender says so in its log
    host.kill()
    fakes[1].outage.clear()
    for fake in fakes:
        fake.webhook = None  # the dead host's; the new one sets them again
    host.start()
    await until(lambda: all(fake.webhook is not None for fake in fakes), timeout=60)
    await fakes[1].next_to(lies.id, meaning("SIGNED_OFF", round=2), timeout=30)
    await asyncio.sleep(1.0)
    assert heard(fakes[1].to(lies.id), "SIGNED_OFF", round=2) == 1
    assert not heard(fakes[0].sent + fakes[2].sent, "SIGNED_OFF")
    assert await _signed_off(postgres, second) == 1
    host.process.send_signal(signal.SIGTERM)
    assert await host.exited() == 0
    assert " ERROR " not in host.output and club_token(0) not in host.output
    # Each line of a club's work names its club; the scheduler's routine is not logged.
    assert f"club {second}: bot.telegram.sender: could not send message" in host.output
    assert f"club {second}: bot.telegram.host: club {second} (De Pion) runs" in host.output
    assert "apscheduler" not in host.output
    # Also as the clubs stop (issue 35): PTB's own lines of a club's application.
    stopping = [line for line in host.output.splitlines() if "telegram.ext" in line]
    assert stopping and all(re.search(r" club \d+: telegram\.ext", line) for line in stopping), \
        stopping


async def _signed_off(dsn: str, number: int) -> int:
    db = await open_store(dsn, club=number)
    try:
        async with db.reader.execute("SELECT count(*) FROM signoff") as cur:
            row = await cur.fetchone()
        return int(row[0])
    finally:
        await db.close()


async def test_the_doctor_checks_every_club_of_a_host(postgres, telegram):
    """`keizerbot doctor --clubs`: each club's token and store, each line naming its club,
    and what to do where one is wrong; the address's password never shown."""
    bots = await three_clubs(postgres, telegram)
    bare = await add_club(postgres, "Nieuw", club_token(5), SEAL)  # no bot at Telegram, nothing set
    found = await host_checks({"KEIZER_DB": postgres, "TELEGRAM_BASE_URL": telegram.url,
                               "KEIZER_SECRET_KEY": KEY},
                              env_file=Path("/nonexistent"))
    def of_club(number: int, name: str, check: str) -> str:  # the doctor's plain words
        return written(Text("DOCTOR_OF_CLUB", {"id": number, "name": name, "check": check}))

    wrong = [written(c.text) for c in found if not c.ok]
    assert wrong == [
        of_club(bare.id, "Nieuw", says("DOCTOR_CLUB_TOKEN_REFUSED", id=bare.id)),
        of_club(bare.id, "Nieuw", says("DOCTOR_NO_CLUB_SEASON", id=bare.id)),
        of_club(bare.id, "Nieuw", says("DOCTOR_NO_GROUP")),
        of_club(bare.id, "Nieuw", says("DOCTOR_NO_CLUB_ARBITER", id=bare.id))]
    for number, name in zip(bots, CLUBS, strict=True):
        assert of_club(number, name, says("DOCTOR_TOKEN_OK", name=name.replace(" ", "").lower()
                                          + "bot")) in [written(c.text) for c in found]
    assert [written(c.text) for c in await host_checks({"KEIZER_DB": "data/keizer.db"},
                                              env_file=Path("/nonexistent"))] == \
        [says("HOST_NEEDS_POSTGRES")]


async def test_a_fault_of_ours_starting_a_club_is_said_in_full_and_tried_again(
        postgres, telegram, caplog, monkeypatch):
    """Issue 34: a club that cannot start because of a fault in the code (a TypeError) is
    no passing outage: it is logged as an error with its traceback, and still retried."""
    bots = await three_clubs(postgres, telegram)
    first = min(bots)
    original = Host._start
    calls: list[int] = []

    async def faulty(self: Host, club) -> bool:
        calls.append(club.id)
        if club.id == first and calls.count(first) == 1:
            raise TypeError("a fault of ours")
        return await original(self, club)

    monkeypatch.setattr(Host, "_start", faulty)
    monkeypatch.setattr("bot.telegram.host.RETRY_SECONDS", (0.1, 0.1))
    clock = ManualClock(dt.datetime(2026, 11, 30, 9, 0, tzinfo=dt.UTC))
    host = await _host(postgres, telegram, clock)
    try:
        await until(lambda: first in host.running, timeout=10)
        said = [r for r in caplog.records if r.levelno == logging.ERROR and r.exc_info]
        assert len(said) == 1 and f"club {first}" in said[0].getMessage()
        assert isinstance(said[0].exc_info[1], TypeError)
        caplog.clear()  # the error this test is about
    finally:
        await host.stop()


async def test_a_removed_club_is_confirmed_by_name_and_its_webhook_goes(postgres, telegram,
                                                                        monkeypatch, capsys):
    """Issue 35: `clubs remove` asks for the club's name typed back (or `--ja`), and deletes
    the bot's webhook, so that Telegram stops posting its members' messages to a path that
    answers 404; a Telegram out of reach is said, and the club stays (issue 46)."""
    from bot.cli import main

    monkeypatch.setenv("KEIZER_SECRET_KEY", KEY)
    made = [await add_club(postgres, name, club_token(k), SEAL) for k, name in enumerate(CLUBS)]
    fakes = [telegram.add(club_token(k), name.replace(" ", "").lower() + "bot")
             for k, name in enumerate(CLUBS)]
    for fake in fakes:
        fake.webhook = {"url": "https://keizer.example.nl/x/telegram/y", "secret": "z"}
    monkeypatch.setenv("TELEGRAM_BASE_URL", telegram.url)
    monkeypatch.setattr("builtins.input", lambda prompt: "Het Paard")
    remove = ["clubs", "remove", str(made[0].id), "--db", postgres]
    assert await asyncio.to_thread(main, remove) == 1  # the wrong name: the club stays
    assert capsys.readouterr().err.strip() == says("CLUBS_REMOVE_KEPT", id=made[0].id)
    assert [c.id for c in await postgres_clubs(postgres, SEAL)()] == [c.id for c in made]
    assert fakes[0].webhook is not None
    monkeypatch.setattr("builtins.input", lambda prompt: " sliedrecht ")
    assert await asyncio.to_thread(main, remove) == 0
    assert capsys.readouterr().out.splitlines() == [
        says("CLUBS_REMOVED", id=made[0].id), says("CLUBS_WEBHOOK_GONE", id=made[0].id)]
    assert fakes[0].webhook is None and fakes[1].webhook is not None
    # Issue 46: the webhook goes first. A settings file it cannot be read with, or a
    # Telegram out of reach, keeps the club (with its token, the only way to the webhook).
    for setting, value in (("KEIZER_WEB_PORT", "http"), ("TELEGRAM_BASE_URL", "http://127.0.0.1:1")):
        monkeypatch.setenv(setting, value)
        assert await asyncio.to_thread(main, ["clubs", "remove", "De Pion", "--ja",
                                              "--db", postgres]) == 1
        said = capsys.readouterr().err.strip()
        assert fits(said, "CLUBS_WEBHOOK_LEFT", id=made[1].id), said
        assert [c.id for c in await postgres_clubs(postgres, SEAL)()] == [c.id for c in made[1:]]
        assert fakes[1].webhook is not None
        monkeypatch.delenv("KEIZER_WEB_PORT", raising=False)
    assert await asyncio.to_thread(main, ["clubs", "remove", "de pion", "--ja", "--zonder-webhook",
                                          "--db", postgres]) == 0
    said = capsys.readouterr().out.splitlines()
    assert said[0] == says("CLUBS_REMOVED", id=made[1].id)
    assert fits(said[1], "CLUBS_WEBHOOK_KEPT", id=made[1].id)
    assert [c.id for c in await postgres_clubs(postgres, SEAL)()] == [made[2].id]
    # A club named that is not there is named back, with the clubs there are.
    assert await asyncio.to_thread(main, ["clubs", "remove", "Club D", "--db", postgres]) == 1
    assert capsys.readouterr().err.strip() == says("CLUBS_UNKNOWN", club="Club D",
                                                   clubs=f"{made[2].id}: Het Paard")


async def test_three_hosts_on_the_last_releases_database_one_migrates_the_others_wait(
        empty_postgres, telegram, caplog):
    """Issue 35: three hosts of the new release started at once on a database the release
    before made (its schema: every migration but the newest; two clubs as its `clubs add`
    made them, a season in each). One host migrates it, the others wait for the schema's lock
    and find it done; every club runs, once, with its season as it was."""
    from storage.migrate import PostgresTarget, upgrade
    from storage.schema import MIGRATIONS, VERSION

    numbers = []
    conn = await asyncpg.connect(empty_postgres)
    try:
        assert await upgrade(PostgresTarget(conn), MIGRATIONS[:-1]) == VERSION - 1
        for k, name in enumerate(list(CLUBS)[:2]):
            async with conn.transaction():
                number = await conn.fetchval(
                    "INSERT INTO clubs (name, token, created_at) VALUES ($1, $2, 'toen') "
                    "RETURNING id", name, club_token(k))
                numbers.append(number)
                await conn.execute("SELECT set_config('keizer.club', $1, true)", str(number))
                await conn.execute("INSERT INTO club (id, name) VALUES (1, $1)", name)
                await conn.execute("INSERT INTO club_version (id, version) VALUES (1, 0)")
                await conn.execute("INSERT INTO season (club, name, rules, created_at) "
                                   "VALUES ($1, '2026-2027', '{\"preset\": \"sliedrecht\"}', "
                                   "'toen')", name)
                for n, player in enumerate(club_names(k)):
                    await conn.execute(
                        "INSERT INTO player (season_id, code, name, position) "
                        "VALUES ((SELECT id FROM season), $1, $2, $3)", f"p{n}", player, n + 1)
            telegram.add(club_token(k), f"Club{k}Bot")
    finally:
        await conn.close()
    clock = ManualClock(dt.datetime(2026, 11, 30, 9, 0, tzinfo=dt.UTC))
    config = Config(token="", base_url=telegram.url, database=empty_postgres,
                    tick_seconds=0.2, secret_key=KEY)
    hosts = [Host(config, clock=clock, flood_limits=False,
                  beat=0.2, alive=1.0) for _ in range(3)]
    with caplog.at_level(logging.INFO, logger="storage.migrate"):
        await asyncio.gather(*(host.start() for host in hosts))
    try:
        upgraded = [r for r in caplog.records if r.name == "storage.migrate"]
        assert [r.getMessage() for r in upgraded] == [
            f"database upgraded from version {VERSION - 1} to {VERSION}"]
        await until(lambda: sorted(n for h in hosts for n in h.running) == numbers, timeout=10)
        for k, number in enumerate(numbers):
            db = await open_store(empty_postgres, club=number)
            try:
                assert [m.name for m in await roster.members(db)] == club_names(k)
            finally:
                await db.close()
    finally:
        for host in hosts:
            await host.stop()


@pytest.mark.slow  # several hosts: the federation's, with the kill runs
async def test_hosts_share_the_clubs_take_a_dead_ones_and_give_a_new_one_its_share(
        postgres, telegram):
    """Issue 35: hosts on one database share its clubs evenly; a host that stops beating
    (dead: its bots and its connection gone, no goodbye) has its clubs taken by the others
    within a few beats; a host that comes later takes its share. At every look, a club runs
    on one host at most."""
    clubs = [(await add_club(postgres, f"Club {k}", club_token(k), SEAL)).id for k in range(6)]
    for k in range(6):
        telegram.add(club_token(k), f"club{k}bot")
    clock = ManualClock(dt.datetime(2026, 11, 30, 9, 0, tzinfo=dt.UTC))
    config = Config(token="", base_url=telegram.url, database=postgres,
                    tick_seconds=0.2, secret_key=KEY)

    async def host() -> Host:
        made = Host(config, clock=clock, flood_limits=False,
                    beat=0.2, alive=1.0)
        await made.start()
        return made

    async def shared_as(hosts: list[Host], loads: list[int]) -> None:
        for _ in range(100):
            running = [n for h in hosts for n in h.running]
            assert len(running) == len(set(running)), running  # never on two hosts
            if sorted(running) == clubs and sorted(len(h.running) for h in hosts) == loads:
                return
            await asyncio.sleep(0.1)
        raise AssertionError([sorted(h.running) for h in hosts])

    hosts = [await host() for _ in range(3)]
    try:
        await shared_as(hosts, [2, 2, 2])
        dead = hosts.pop(0)
        assert dead._refresher is not None and dead._claims is not None
        # It beats no more and starts nothing more, and its bots go with it.
        busy = [dead._refresher, *dead._starting.values()]
        for task in busy:
            task.cancel()
        await asyncio.gather(*busy, return_exceptions=True)
        for number in list(dead.running):
            await dead.running.pop(number).stop()
        await dead._claims.close()
        await shared_as(hosts, [3, 3])
        hosts.append(await host())
        await shared_as(hosts, [2, 2, 2])
    finally:
        for running in hosts:
            await asyncio.wait_for(running.stop(), 60)  # a host that cannot stop fails here
        dead.processes.close()
        if dead._pool is not None:
            await asyncio.wait_for(dead._pool.close(), 60)


@pytest.mark.slow  # several hosts: the federation's, with the kill runs
async def test_any_host_takes_any_clubs_webhook_and_the_host_that_runs_it_answers(
        postgres, telegram):
    """Issue 35: a proxy before the hosts knows not which runs a club. A webhook that reaches
    the other host is checked against the club's own key and secret, kept in the club's
    inbox and answered 200; the host that runs the club is told (LISTEN/NOTIFY) and answers
    the member once."""
    bots = await three_clubs(postgres, telegram)
    clock = ManualClock(dt.datetime(2026, 11, 30, 9, 0, tzinfo=dt.UTC))
    config = Config(token="", base_url=telegram.url, database=postgres, web_port=0,
                    webhook=True, tick_seconds=0.2, secret_key=KEY)

    async def host() -> Host:
        made = Host(config, clock=clock, flood_limits=False,
                    beat=0.2, alive=1.0)
        await made.start()
        return made

    hosts = [await host(), await host()]
    try:
        for _ in range(100):
            if sorted(n for h in hosts for n in h.running) == sorted(bots) and \
                    all(h.running for h in hosts):
                break
            await asyncio.sleep(0.1)
        owner = next(h for h in hosts if h.running)
        other = next(h for h in hosts if h is not owner)
        number = next(iter(owner.running))
        fake = bots[number]
        await until(lambda: fake.webhook is not None and
                    fake.webhook["url"].startswith(owner.web.url), timeout=10)
        assert fake.webhook is not None and other.web is not None and owner.web is not None
        # The proxy sends this club's webhooks to the other host from now on; the hosts'
        # beats (which look at the inboxes too) slow down, so that the owner hears of it by
        # LISTEN/NOTIFY.
        for running in hosts:
            running.beat = 60.0
        await asyncio.sleep(0.5)
        hook = dict(fake.webhook)
        fake.webhook["url"] = hook["url"].replace(owner.web.url, other.web.url)
        k = list(bots).index(number)
        member = club_members(k)[2]
        answer = await fake.reply_to(member, "/help", timeout=15)
        assert answer.text.startswith(says("START"))
        await asyncio.sleep(1.0)  # a few beats: answered once, not again from the inbox
        assert [s.text for s in fake.to(member.id)] == [answer.text]
        async with aiohttp.ClientSession() as session:
            forged = hook["url"].replace(owner.web.url, other.web.url)
            async with session.post(forged, json={"update_id": 99}, headers={
                    "X-Telegram-Bot-Api-Secret-Token": "not-the-secret"}) as refused:
                assert refused.status == 403
            unknown = f"{other.web.url}/999/telegram/{hook['url'].rsplit('/', 1)[1]}"
            async with session.post(unknown, json={"update_id": 99}, headers={
                    "X-Telegram-Bot-Api-Secret-Token": hook["secret"]}) as missing:
                assert missing.status == 404
            # The club's pages too, from either host, as the host that runs it has them.
            name = list(CLUBS)[k]
            for web_of in (owner.web, other.web):
                async with session.get(f"{web_of.url}/{number}/") as page:
                    body = await page.text()
                    assert page.status == 200 and name in body, body[:200]
                    assert club_members(k)[1].first_name in body
            async with session.get(f"{other.web.url}/999/") as nowhere:
                assert nowhere.status == 404
    finally:
        for running in hosts:
            await running.stop()


@pytest.mark.slow
async def test_three_host_processes_twelve_clubs_one_killed_in_the_deadline_minute(
        postgres, telegram):
    """Issue 35, the real processes behind a proxy: three `keizerbot host` on one database
    share twelve clubs 4/4/4, each club's webhook going to any host. SIGKILL one host seconds
    before the clubs' deadline: every club's draft reaches its arbiter exactly once, within
    30 s of the deadline; every message the members sent during the whole run (to whichever
    host the proxy chose) is answered exactly once; a host started later takes its share; a
    club removed stops everywhere."""
    from storage.postgres import INSTANCE_LOCK

    count = 12
    # Three processes start twelve bots and share them first: 9 s on a quiet machine, more
    # when the other slow tests run beside it.
    deadline = dt.datetime.now(dt.UTC) + dt.timedelta(seconds=45)
    bots: dict[int, FakeTelegram] = {}
    for k in range(count):
        name = list(CLUBS)[k] if k < len(CLUBS) else f"Club {k}"
        number = await hosted_club(postgres, k, name, deadline.date())
        db = await open_store(postgres, club=number)
        try:
            async with db.transaction() as conn:
                await conn.execute("UPDATE round SET deadline = ? WHERE number = 2",
                                   (deadline.isoformat(),))
        finally:
            await db.close()
        bots[number] = telegram.add(club_token(k), f"Club{k}Bot")
    ports = [free_port() for _ in range(4)]
    proxy = Proxy(ports[:3])
    await proxy.start()

    def host(port: int) -> BotProcess:
        return host_process(telegram, postgres, port=port, public_url=proxy.url)

    async def held(club: int | None = None) -> list[int]:
        """How many clubs each process holds (the instance locks), fewest first."""
        conn = await asyncpg.connect(postgres)
        try:
            return sorted(row[1] for row in await conn.fetch(
                "SELECT pid, count(*) FROM pg_locks WHERE locktype = 'advisory' "
                "AND classid = $1 AND granted AND ($2::int IS NULL OR objid = $2) "
                "GROUP BY pid", INSTANCE_LOCK, club))
        finally:
            await conn.close()

    async def shared_as(loads: list[int], by: dt.datetime) -> None:
        while await held() != loads:
            assert dt.datetime.now(dt.UTC) < by, await held()
            await asyncio.sleep(0.2)

    sent: dict[tuple[int, int], int] = {}
    talking = list(bots)
    stop_talking = asyncio.Event()

    async def members_talk() -> None:
        """A message every 0.2 s from a member of a club picked at random."""
        rng = random.Random(35)
        while not stop_talking.is_set():
            number = rng.choice(talking)
            member = rng.choice(club_members(list(bots).index(number))[1:])
            bots[number].user_says(member, "/help")
            sent[number, member.id] = sent.get((number, member.id), 0) + 1
            await asyncio.sleep(0.2)

    hosts = [host(port) for port in ports[:3]]
    talk: asyncio.Task[None] | None = None
    try:
        await shared_as([4, 4, 4], by=deadline - dt.timedelta(seconds=8))
        await until(lambda: all(fake.webhook is not None and fake.webhook["url"].startswith(
            proxy.url) for fake in bots.values()),
            timeout=max(0.1, (deadline - dt.datetime.now(dt.UTC)).total_seconds() - 6))
        talk = asyncio.create_task(members_talk())
        await asyncio.sleep(max(0.0, (deadline - dt.datetime.now(dt.UTC)).total_seconds() - 3))
        hosts[0].kill()
        at_kill = sum(sent.values())
        for k, fake in enumerate(bots.values()):
            arbiter = club_arbiter(k).id
            await fake.wait_for(lambda s, a=arbiter: s.chat_id == a and drafted(2) in s.text,
                                timeout=max(0.1, (deadline + dt.timedelta(seconds=30)
                                                  - dt.datetime.now(dt.UTC)).total_seconds()))
        await shared_as([6, 6], by=dt.datetime.now(dt.UTC) + dt.timedelta(seconds=10))
        assert sum(sent.values()) - at_kill > 20  # members talked while their hosts changed
        # A host added later takes its share; the proxy sends to it as well.
        hosts.append(host(ports[3]))
        proxy.ports = ports[1:]
        await shared_as([4, 4, 4], by=dt.datetime.now(dt.UTC) + dt.timedelta(seconds=40))
        def unanswered(club: int | None = None) -> dict[tuple[int, int], tuple[int, int]]:
            return {(number, member): (times, heard(bots[number].to(member), "START"))
                    for (number, member), times in sent.items()
                    if club in (None, number)
                    and heard(bots[number].to(member), "START") != times}

        # A club removed stops on whichever host ran it; nobody talks to it any more. What
        # its members said is answered first: delivered to a host is not yet handled (a
        # webhook kept in its inbox by another host), and a removed club's inbox goes.
        gone = talking.pop()
        await until(lambda: not bots[gone].updates and not unanswered(gone), timeout=30,
                    every=0.1)
        assert await remove_club(postgres, gone)
        await shared_as([3, 4, 4], by=dt.datetime.now(dt.UTC) + dt.timedelta(seconds=15))
        assert await held(gone) == []
        await asyncio.sleep(2.0)
        stop_talking.set()
        await talk


        with contextlib.suppress(AssertionError):
            await until(lambda: not unanswered(), timeout=30, every=0.2)
        assert not unanswered(), (unanswered(), [h.output[-3000:] for h in hosts])
        await asyncio.sleep(3.0)  # a beat more: nothing drafted or answered twice
        assert not unanswered()
        for k, fake in enumerate(bots.values()):
            assert [s.chat_id for s in fake.sent if drafted(2) in s.text] == [club_arbiter(k).id]
    finally:
        stop_talking.set()
        if talk is not None:
            await talk
        await proxy.stop()
    for running in hosts[1:]:
        running.process.send_signal(signal.SIGTERM)  # type: ignore[union-attr]
        assert await running.exited() == 0
        assert " ERROR " not in running.output, running.output


async def test_a_host_looks_at_the_clubs_on_the_connection_it_has(postgres, telegram,
                                                                   monkeypatch):
    """A host looks at the table of clubs at every beat (every 3 s, for ever): on the
    connection that holds its clubs, not a new connection and a schema check each time."""
    await three_clubs(postgres, telegram)
    config = Config(token="", base_url=telegram.url, database=postgres,
                    tick_seconds=0.2, secret_key=KEY)
    host = Host(config, clock=ManualClock(dt.datetime(2026, 11, 30, 9, 0, tzinfo=dt.UTC)),
                flood_limits=False, beat=0.1)
    await host.start()
    connected = []
    real_connect = asyncpg.connect

    async def connect(*args, **kwargs):
        connected.append(args)
        return await real_connect(*args, **kwargs)

    try:
        monkeypatch.setattr(asyncpg, "connect", connect)
        before = host._listed
        await asyncio.sleep(1.0)  # ten beats
        assert host._listed is not before and len(host._listed) == 3  # it looked again
        assert not connected
        with pytest.raises(ValueError):
            Host(replace(config, database=Path("keizer.db")))
    finally:
        await host.stop()


async def test_a_clubs_stop_cut_off_twice_goes_on_to_its_end():
    """A host stopping a club at its beat, the beat cut off by the host's own stop, and again:
    the club's stop still ends (what it holds let go), and the cut is raised after it."""
    steps: list[str] = []

    async def stop() -> None:
        steps.append("begun")
        await asyncio.sleep(0.05)
        steps.append("connections let go")

    stopping = asyncio.create_task(to_the_end(stop()))
    for _ in range(2):
        await asyncio.sleep(0.01)
        stopping.cancel()
    with pytest.raises(asyncio.CancelledError):
        await stopping
    assert steps == ["begun", "connections let go"]
    assert await to_the_end(asyncio.sleep(0, "done")) == "done"


async def test_a_host_stops_even_with_a_connection_still_taken(postgres, telegram,
                                                                 monkeypatch, caplog):
    """Should a fault of ours keep a pooled connection taken, the host's stop still ends (a
    service's restart would wait for ever), and says so as an error."""
    await three_clubs(postgres, telegram)
    monkeypatch.setattr("bot.telegram.host.POOL_CLOSE_SECONDS", 0.5)
    config = Config(token="", base_url=telegram.url, database=postgres,
                    tick_seconds=0.2, secret_key=KEY)
    host = Host(config, clock=ManualClock(dt.datetime(2026, 11, 30, 9, 0, tzinfo=dt.UTC)),
                flood_limits=False)
    await host.start()
    await host._pool.acquire()  # and never given back
    await asyncio.wait_for(host.stop(), 30)
    assert "still taken" in caplog.text
    caplog.clear()  # the error this test is about


async def test_a_host_whose_connection_broke_holds_its_clubs_again_or_lets_them_go(
        postgres, telegram):
    """Issue 35: the database drops the host's connection (restarted, or a standby promoted
    in its place). At its next beat the host connects again, says it is alive and holds its
    clubs again; a club another process took meanwhile stops here, so it never runs twice."""
    bots = await three_clubs(postgres, telegram)
    clock = ManualClock(dt.datetime(2026, 11, 30, 9, 0, tzinfo=dt.UTC))
    config = Config(token="", base_url=telegram.url, database=postgres,
                    tick_seconds=0.2, secret_key=KEY)
    host = Host(config, clock=clock, flood_limits=False, beat=0.2,
                alive=5.0)
    await host.start()
    admin = await asyncpg.connect(postgres)
    try:
        assert sorted(host.running) == sorted(bots) and host._claims is not None
        first, taken, _ = bots
        host.beat = 60.0  # its next look is the test's own
        await asyncio.sleep(0.5)
        await admin.execute("SELECT pg_terminate_backend($1)", host._claims.conn.get_server_pid())
        # Another process takes one of its clubs while its connection is gone.
        from storage.postgres import INSTANCE_LOCK
        for _ in range(50):
            if await admin.fetchval("SELECT pg_try_advisory_lock($1, $2)", INSTANCE_LOCK,
                                    taken):
                break
            await asyncio.sleep(0.1)
        else:
            raise AssertionError("the broken connection's locks were never let go")
        await host.refresh()
        assert sorted(host.running) == sorted(set(bots) - {taken})
        held = await admin.fetchval(
            "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND classid = $1 "
            "AND granted AND pid = $2", INSTANCE_LOCK, host._claims.conn.get_server_pid())
        assert held == 2
        members = club_members(0)
        answer = await bots[first].reply_to(members[3], "/help", timeout=10)
        assert answer.text.startswith(says("START"))
    finally:
        await admin.close()
        await host.stop()


@pytest.mark.slow
async def test_a_standby_promoted_in_the_primarys_place_loses_no_sign_off(
        telegram, failover):
    """Issue 35: a primary with a synchronous standby, named together in KEIZER_DB. Sign-offs
    the bot answered are on the standby too; the primary killed and the standby promoted,
    the host connects to the new primary, holds its club again and answers within 15 s, and
    every answered sign-off is there."""
    dsn, fail_over = failover
    number = await hosted_club(dsn, 0, "Sliedrecht", dt.date(2026, 12, 10))
    fake = telegram.add(club_token(0), "SliedrechtBot")
    config = Config(token="", base_url=telegram.url, database=dsn, tick_seconds=0.2, secret_key=KEY)
    clock = ManualClock(dt.datetime(2026, 11, 30, 9, 0, tzinfo=dt.UTC))
    host = Host(config, clock=clock, flood_limits=False, beat=0.5,
                alive=5.0)
    await host.start()
    try:
        assert list(host.running) == [number]
        members = club_members(0)
        for member in members[:2]:
            answer = await fake.reply_to(member, "/afmelden", timeout=10)
            assert fits(answer.text, "SIGNED_OFF", round=2)
        await asyncio.to_thread(fail_over)
        started = asyncio.get_running_loop().time()
        answer = await fake.reply_to(members[2], "/afmelden", timeout=30)
        assert fits(answer.text, "SIGNED_OFF", round=2)
        assert asyncio.get_running_loop().time() - started < 15
        assert list(host.running) == [number]
        assert await _signed_off(dsn, number) == 3
    finally:
        await host.stop()


async def test_a_host_starts_its_clubs_a_few_at_a_time(postgres, telegram, monkeypatch):
    """Issue 50: each club answers within a second of taking webhooks only when the others'
    starts do not crowd the event loop: the host starts STARTING_AT_ONCE clubs at a time."""
    from bot.telegram import host as hosting
    from bot.telegram.runtime import ClubRuntime

    await three_clubs(postgres, telegram)
    now = peak = 0
    start = ClubRuntime.start

    async def counted(runtime: ClubRuntime) -> None:
        nonlocal now, peak
        now += 1
        peak = max(peak, now)
        try:
            await start(runtime)
        finally:
            now -= 1

    monkeypatch.setattr(ClubRuntime, "start", counted)
    host = await _host(postgres, telegram, ManualClock(dt.datetime(2026, 11, 30, 9, 0,
                                                                   tzinfo=dt.UTC)))
    try:
        assert len(host.running) == 3
        assert peak == hosting.STARTING_AT_ONCE == 2
    finally:
        await host.stop()
