"""Issue 46: hosts upgraded one at a time. A command that only reads never migrates; a
migration is refused while hosts that know an older schema are alive (listed), or, told
so, goes ahead: those hosts then stop their clubs and say why, and the hosts of the new
release take them without a member's message lost."""

from __future__ import annotations

import asyncio
import datetime as dt

import asyncpg
import pytest

from bot.cli import main
from bot.config import Config
from bot.demo.runner import ManualClock
from bot.language import texts
from bot.language.i18n import words
from bot.telegram.host import Host
from storage import migrate
from storage.errors import StoreError, StoreProblem
from storage.migrate import PostgresTarget, upgrade
from storage.schema import MIGRATIONS, VERSION, Step
from tests.bot.hosting import club_members, club_token, three_clubs
from tests.bot.linking import KEY
from tests.meaning import written
from tests.postgres import one_value

NEXT_RELEASE = (*MIGRATIONS, (Step(postgres="ALTER TABLE clubs ADD COLUMN motto TEXT"),))
"""The schema of a release after this one: one migration more."""


async def _version(dsn: str) -> int:
    return int(await one_value(dsn, "SELECT version FROM schema_version"))


async def _last_release_with_a_host_alive(dsn: str) -> None:
    """The release before's schema, two clubs, and one of its hosts beating now (its hosts
    said no schema)."""
    conn = await asyncpg.connect(dsn)
    try:
        await upgrade(PostgresTarget(conn), MIGRATIONS[:-1])
        for k, name in enumerate(("Sliedrecht", "De Pion")):
            async with conn.transaction():
                number = await conn.fetchval("INSERT INTO clubs (name, token, created_at) "
                                             "VALUES ($1, $2, 'toen') RETURNING id",
                                             name, club_token(k))
                await conn.execute("SELECT set_config('keizer.club', $1, true)", str(number))
                await conn.execute("INSERT INTO club (id, name) VALUES (1, $1)", name)
                await conn.execute("INSERT INTO club_version (id, version) VALUES (1, 0)")
        await conn.execute("INSERT INTO hosts (id, seen_at) VALUES ('oud-1', now())")
    finally:
        await conn.close()


def test_reading_never_migrates_and_a_migration_names_the_hosts_it_would_stop(
        empty_postgres, capsys, monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("KEIZER_DB", empty_postgres)
    monkeypatch.setenv("KEIZER_SECRET_KEY", KEY)
    asyncio.run(_last_release_with_a_host_alive(empty_postgres))
    old = VERSION - 1
    # A look at the clubs, or the doctor: answered, the schema left for the old host.
    assert main(["clubs", "list"]) == 0
    assert capsys.readouterr().out.splitlines()[:2] == ["2: Sliedrecht", "3: De Pion"]
    assert main(["export", "--club", "2"]) == 2
    refused = StoreError(StoreProblem.OLDER_DATABASE, version=old, known=VERSION)
    assert capsys.readouterr().err.strip() == texts.store_problem(words("nl"), refused)
    assert main(["doctor", "--clubs"]) == 1
    assert texts.store_problem(words("nl"), refused) in capsys.readouterr().out
    assert asyncio.run(_version(empty_postgres)) == old
    # A command that writes, and `migrate` itself, are refused while that host beats.
    behind = texts.store_problem(words("nl"), StoreError(StoreProblem.HOSTS_BEHIND, hosts="oud-1",
                                            version=old, known=VERSION))
    for command, code in ((["clubs", "arbiter", "2", "--arbiter", "5"], 2), (["migrate"], 1)):
        assert main(command) == code
        assert capsys.readouterr().err.strip() == behind
    assert asyncio.run(_version(empty_postgres)) == old
    # Told so, it goes ahead.
    assert main(["migrate", "--ja"]) == 0
    assert capsys.readouterr().out.strip() == texts.MIGRATED.format(before=old, after=VERSION)
    assert main(["migrate"]) == 0
    assert capsys.readouterr().out.strip() == texts.UP_TO_DATE.format(version=VERSION)


def test_a_file_is_migrated_by_migrate_and_not_under_its_running_bot(capsys, tmp_path):
    from storage.sqlite import InstanceLock

    path = tmp_path / "keizer.db"
    assert main(["migrate", "--db", str(path)]) == 2  # a mistyped path is not made
    assert capsys.readouterr().err.strip() == texts.DATABASE_MISSING.format(path=path)
    assert main(["import", "examples/sliedrecht.json", "--db", str(path)]) == 0
    capsys.readouterr()
    lock = InstanceLock(path)
    lock.acquire()
    try:
        assert main(["migrate", "--db", str(path)]) == 2
        assert capsys.readouterr().err.strip() == texts.store_problem(words("nl"),
            StoreError(StoreProblem.IN_USE, path=path))
    finally:
        lock.release()
    assert main(["migrate", "--db", str(path)]) == 0
    assert capsys.readouterr().out.strip() == texts.UP_TO_DATE.format(version=VERSION)


@pytest.mark.slow  # hosts of two releases, one after the other
async def test_a_newer_release_takes_the_clubs_over_without_a_message_lost(
        postgres, telegram, monkeypatch):
    bots = await three_clubs(postgres, telegram)
    clock = ManualClock(dt.datetime(2026, 11, 30, 9, 0, tzinfo=dt.UTC))
    config = Config(token="", base_url=telegram.url, database=postgres, tick_seconds=0.2,
                    secret_key=KEY)

    def host() -> Host:
        return Host(config, clock=clock, flood_limits=False, beat=0.2, alive=1.0)

    old = host()
    await old.start()
    new: Host | None = None
    try:
        numbers, fakes = list(bots), list(bots.values())
        await asyncio.wait_for(_all_running(old, numbers), 30)
        member = club_members(0)[1]
        assert "Bram de Wit" in (await fakes[0].reply_to(member, "/stand", timeout=30)).text
        # The next release's migration sees this host, and names it.
        conn = await asyncpg.connect(postgres)
        try:
            with pytest.raises(StoreError) as refused:
                await upgrade(PostgresTarget(conn), NEXT_RELEASE)
            assert refused.value.problem is StoreProblem.HOSTS_BEHIND
            assert refused.value.facts["hosts"] == old.id
            await upgrade(PostgresTarget(conn), NEXT_RELEASE, over_hosts=True)
        finally:
            await conn.close()
        why = await asyncio.wait_for(old.ended(), 10)
        assert written(why) == texts.HOST_OUTDATED.format(version=VERSION + 1, known=VERSION)
        await old.stop()  # as `serve` does, and the process ends saying why
        assert not old.running
        # A member writes while no host runs his club; the new release's host answers him.
        fakes[1].user_says(club_members(1)[2], "/stand")
        monkeypatch.setattr(migrate, "MIGRATIONS", NEXT_RELEASE)
        new = host()
        await new.start()
        await asyncio.wait_for(_all_running(new, numbers), 30)
        await fakes[1].next_to(club_members(1)[2].id, lambda text: "Kees Jansen" in text,
                               timeout=30)
        await asyncio.sleep(1.0)  # answered once, not again
        assert sum("Kees Jansen" in m.text for m in fakes[1].to(club_members(1)[2].id)) == 1
    finally:
        if old.running:
            await old.stop()
        if new is not None:
            await new.stop()


async def _all_running(host: Host, numbers: list[int]) -> None:
    while sorted(host.running) != sorted(numbers):
        await asyncio.sleep(0.1)


async def test_a_killed_hosts_row_goes_at_the_next_beat(postgres, telegram):
    """Issue 46: a host killed says no goodbye; its row in `hosts` goes once it is past the
    alive window, at any host's beat, not a day later."""
    await three_clubs(postgres, telegram)
    conn = await asyncpg.connect(postgres)
    try:
        host = Host(Config(token="", base_url=telegram.url, database=postgres,
                           tick_seconds=0.2, secret_key=KEY),
                    clock=ManualClock(dt.datetime(2026, 11, 30, 9, 0, tzinfo=dt.UTC)),
                    flood_limits=False, beat=0.2, alive=1.0)
        await host.start()
        try:
            await conn.execute("INSERT INTO hosts (id, seen_at, schema) VALUES "
                               "('gedood-1', now() - interval '1 minute', $1)", VERSION)
            for _ in range(50):
                if not await conn.fetchval("SELECT count(*) FROM hosts WHERE id = 'gedood-1'"):
                    break
                await asyncio.sleep(0.1)
            assert await conn.fetch("SELECT id FROM hosts") == [(host.id,)]
        finally:
            await host.stop()
    finally:
        await conn.close()
