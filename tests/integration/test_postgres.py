"""Issue 27, the schema on a real PostgreSQL server (tests/postgres.py starts it): the same
tables, columns and rules as SQLite's schema after every migration, the versions' triggers
moving alike, and the store's `?` SQL in PostgreSQL's numbered form."""

from __future__ import annotations

import asyncio
import os
import subprocess
from pathlib import Path

import aiosqlite
import asyncpg
import pytest

from bot.language import texts
from bot.language.i18n import words
from core.season import Result, season_to_json
from storage import results, rounds
from storage.club import arbiters as club_arbiters
from storage.errors import StoreError, StoreProblem
from storage.migrate import PostgresTarget, upgrade
from storage.postgres import add_club, club_pool, clubs, create, numbered, remove_club
from storage.schema import MIGRATIONS, VERSION
from storage.seal import Seal
from storage.seasons import (
    KeptSeason,
    import_season,
    load_season,
    season_since,
    stored_season,
)
from storage.store import open_store
from tests.bot.linking import KEY
from tests.meaning import fits
from tests.postgres import database
from tests.seasons import build

SEAL = Seal(KEY)

ROOT = Path(__file__).resolve().parents[2]

TYPES = {"INTEGER": "bigint", "TEXT": "text"}
"""SQLite's declared types, as the PostgreSQL schema writes them."""


async def sqlite_schema(path: Path) -> dict[str, list[tuple[str, str, bool]]]:
    """Each table's columns in order: name, type, NOT NULL (a primary key counts as one)."""
    db = await open_store(path)
    try:
        async with db.reader.execute("SELECT name FROM sqlite_master WHERE type = 'table'") \
                as cur:
            tables = [row[0] for row in await cur.fetchall()]
        found = {}
        for table in tables:
            async with db.reader.execute(f"PRAGMA table_info({table})") as cur:
                found[table] = [(row["name"], TYPES[row["type"]], bool(row["notnull"] or
                                                                         row["pk"]))
                                for row in await cur.fetchall()]
        return found
    finally:
        await db.close()


async def postgres_schema(conn: asyncpg.Connection) -> dict[str, list[tuple[str, str, bool]]]:
    found: dict[str, list[tuple[str, str, bool]]] = {}
    for row in await conn.fetch(
            "SELECT table_name, column_name, data_type, is_nullable FROM "
            "information_schema.columns WHERE table_schema = 'public' "
            "ORDER BY table_name, ordinal_position"):
        found.setdefault(row["table_name"], []).append(
            (row["column_name"], row["data_type"], row["is_nullable"] == "NO"))
    return found


def test_the_store_sql_in_numbered_form():
    assert numbered("SELECT a FROM t WHERE b = ? AND c = '?' AND d IN (?, ?)") == \
        "SELECT a FROM t WHERE b = $1 AND c = '?' AND d IN ($2, $3)"
    assert numbered('UPDATE "x?" SET a = ?') == 'UPDATE "x?" SET a = $1'


async def catalogue(conn: asyncpg.Connection) -> dict[str, set[tuple[str, ...]]]:
    """What a PostgreSQL schema is made of, each part by what it does (not where a column
    stands): columns, constraints, indexes, triggers, policies, functions, and the tables
    that keep row level security."""
    queries = {
        "columns": "SELECT table_name, column_name, data_type, is_nullable, "
                   "coalesce(column_default, ''), is_identity FROM information_schema.columns "
                   "WHERE table_schema = 'public'",
        "constraints": "SELECT conrelid::regclass::text, conname, pg_get_constraintdef(oid) "
                       "FROM pg_constraint WHERE connamespace = 'public'::regnamespace",
        "indexes": "SELECT tablename, indexdef FROM pg_indexes WHERE schemaname = 'public'",
        "triggers": "SELECT tgrelid::regclass::text, pg_get_triggerdef(oid) FROM pg_trigger "
                    "WHERE NOT tgisinternal",
        "policies": "SELECT tablename, policyname, qual, with_check FROM pg_policies",
        "functions": "SELECT proname, prosrc FROM pg_proc "
                     "WHERE pronamespace = 'public'::regnamespace",
        "secured": "SELECT relname, relrowsecurity::text, relforcerowsecurity::text "
                   "FROM pg_class WHERE relnamespace = 'public'::regnamespace "
                   "AND relkind = 'r'",
    }
    found = {}
    for part, sql in queries.items():
        # A function's body is compared without its indentation.
        found[part] = {tuple(" ".join(str(v).split()) for v in row)
                       for row in await conn.fetch(sql)}
    return found


async def test_one_runner_makes_the_same_schema_on_both_engines(tmp_path,
                                                               postgres):
    """Issue 34: each migration is written once; the runner takes a new SQLite file and a new
    PostgreSQL database to the same tables and columns, PostgreSQL's club-owned rows each
    carrying their club and kept apart by row level security."""
    conn = await asyncpg.connect(postgres)
    try:
        assert await create(conn) == VERSION
        assert await create(conn) == VERSION  # made once; a second start leaves it
        assert await conn.fetchval("SELECT version FROM schema_version") == VERSION
        on_postgres = await postgres_schema(conn)
        secured = {row[0] for row in await conn.fetch(
            "SELECT relname FROM pg_class WHERE relnamespace = 'public'::regnamespace "
            "AND relkind = 'r' AND relrowsecurity AND relforcerowsecurity")}
    finally:
        await conn.close()
    on_sqlite = await sqlite_schema(tmp_path / "keizer.db")
    assert on_postgres.pop("schema_version") == [("version", "bigint", True)]
    assert [c[0] for c in on_postgres.pop("clubs")] == ["id", "name", "token", "created_at",
                                                          "token_print"]
    # The hosts alive, each with the schema it knows.
    assert [c[0] for c in on_postgres.pop("hosts")] == ["id", "seen_at", "schema"]
    assert secured == set(on_postgres) == set(on_sqlite)
    assert all(("club_id", "bigint", True) in columns for columns in on_postgres.values())
    assert {table: [c for c in columns if c[0] != "club_id"]
            for table, columns in on_postgres.items()} == on_sqlite


async def test_a_database_of_the_release_before_is_brought_up_to_date(
        postgres_server):
    """A host's database made before the one runner (tests/data/postgres-13.sql, as that
    release wrote it): the runner applies what it lacks, its rows kept, and it is then the
    schema a new database gets, constraint by constraint and trigger by trigger."""
    with database(postgres_server) as old, database(postgres_server) as new:
        conn = await asyncpg.connect(old)
        try:
            async with conn.transaction():
                await conn.execute("SELECT set_config('keizer.club', '1', true)")
                await conn.execute((ROOT / "tests" / "data" / "postgres-13.sql").read_text())
                await conn.execute("INSERT INTO season (club, name, rules, created_at) "
                                   "VALUES ('C', 'S', '\"x\"', 'nu')")
                await conn.execute("INSERT INTO player (season_id, code, name, position) "
                                   "VALUES (1, 'a', 'Anna', 1)")
            assert await conn.fetchval("SELECT version FROM schema_version") == 13
            assert await create(conn) == VERSION
            await conn.execute("SELECT set_config('keizer.club', '1', false)")
            assert await conn.fetchval("SELECT name FROM player") == "Anna"
            upgraded = await catalogue(conn)
        finally:
            await conn.close()
        conn = await asyncpg.connect(new)
        try:
            await create(conn)
            made = await catalogue(conn)
        finally:
            await conn.close()
    for part in made:
        assert upgraded[part] == made[part], part


# The same writes on both: after each, the data and standings versions must agree.
WRITES = [
    "INSERT INTO season (club, name, rules, created_at) VALUES ('C', 'S', '\"x\"', 'nu')",
    "INSERT INTO player (season_id, code, name, position) VALUES (1, 'a', 'A', 1)",
    "INSERT INTO player (season_id, code, name, position) VALUES (1, 'b', 'B', 2)",
    "INSERT INTO round (season_id, number, state) VALUES (1, 1, 'planned')",
    "INSERT INTO signoff (round_id, player_id, reason) VALUES (1, 1, 'notice')",
    "UPDATE signoff SET note = 'ziek'",
    "DELETE FROM signoff",
    "UPDATE round SET state = 'published'",
    "INSERT INTO game (round_id, board, white_id, black_id) VALUES (1, 1, 1, 2)",
    "UPDATE game SET result = '1-0'",
    "INSERT INTO inbox (update_id, payload, received_at) VALUES (1, '{}', 'nu')",
    "INSERT INTO outbox (chat_id, text, created_at, due_at) VALUES (1, 'x', 'nu', 'nu')",
    "UPDATE club SET city = 'Sliedrecht'",
    "INSERT INTO arbiter (telegram_id, added_at) VALUES (7, 'nu')",
    "INSERT INTO language (telegram_id, language) VALUES (7, 'en')",
    "UPDATE player SET rating = 1800",
    "DELETE FROM game",
]
REFUSED = [
    "UPDATE round SET state = 'weird'",
    "INSERT INTO signoff (round_id, player_id, reason) VALUES (1, 1, 'ziek')",
    "UPDATE club SET language = 'fr'",
    "INSERT INTO game (round_id, board, white_id, black_id) VALUES (1, 2, 1, 1)",
    "INSERT INTO player (season_id, code, name, position) VALUES (1, 'a', 'A again', 3)",
    "INSERT INTO club (id) VALUES (2)",
]


async def test_the_versions_move_alike_and_the_same_rows_are_refused(tmp_path,
                                                                        postgres):
    await (await open_store(tmp_path / "keizer.db")).close()
    lite = await aiosqlite.connect(tmp_path / "keizer.db", isolation_level=None)
    pg = await asyncpg.connect(postgres, server_settings={"keizer.club": "1"})
    try:
        await create(pg)
        on_sqlite, on_postgres = [], []
        for sql in WRITES:
            await lite.execute(sql)
            await pg.execute(sql)
            async with lite.execute("SELECT version, standings FROM club_version") as cur:
                on_sqlite.append(tuple(await cur.fetchone()))
            on_postgres.append(tuple(await pg.fetchrow(
                "SELECT version, standings FROM club_version")))
        assert on_postgres == on_sqlite
        assert on_sqlite[-1] != on_sqlite[0]  # the writes did move them
        await lite.execute("PRAGMA foreign_keys = ON")
        for sql in REFUSED:
            with pytest.raises(aiosqlite.IntegrityError):
                await lite.execute(sql)
            with pytest.raises(asyncpg.IntegrityConstraintViolationError):
                await pg.execute(sql)
    finally:
        await lite.close()
        await pg.close()


async def test_a_database_of_the_release_before_counts_each_clubs_round_edits(empty_postgres):
    """Migration 26 on a database of two clubs of the release before: each club's rounds get
    their count of edits under its own row security, so the first write after the upgrade,
    even a deletion alone, makes a kept read (the standings worker's) read that round
    again, in either club."""
    conn = await asyncpg.connect(empty_postgres)
    try:
        await upgrade(PostgresTarget(conn), MIGRATIONS[:-1])
        numbers = []
        for name in ("Sliedrecht", "De Pion"):
            async with conn.transaction():
                number = await conn.fetchval("INSERT INTO clubs (name, created_at) VALUES "
                                             "($1, 'toen') RETURNING id", name)
                await conn.execute("SELECT set_config('keizer.club', $1, true)", str(number))
                await _one_round(conn, name)
            numbers.append(number)
        await upgrade(PostgresTarget(conn))
    finally:
        await conn.close()
    for number in numbers:
        db = await open_store(empty_postgres, club=number)
        try:
            kept = KeptSeason()
            before = await season_since(db.reader, kept)
            async with db.transaction() as write:
                await write.execute("DELETE FROM signoff")
            after = await season_since(db.reader, kept)
            assert before.rounds[0].absent and not after.rounds[0].absent
            assert after == await stored_season(db.reader)
        finally:
            await db.close()


async def _one_round(conn: asyncpg.Connection, name: str) -> None:
    """A club of the release before: its season's first round played, a game and a
    sign-off."""
    await conn.execute("INSERT INTO club (id, name) VALUES (1, $1)", name)
    await conn.execute("INSERT INTO club_version (id, version) VALUES (1, 0)")
    season = await conn.fetchval("INSERT INTO season (rules, created_at) VALUES "
                                 "('\"sliedrecht\"', 'nu') RETURNING id")
    players = [await conn.fetchval("INSERT INTO player (season_id, code, name, position) "
                                   "VALUES ($1, $2, $2, $3) RETURNING id", season, code, k)
               for k, code in enumerate("abc")]
    number = await conn.fetchval("INSERT INTO round (season_id, number, state) VALUES "
                                 "($1, 1, 'complete') RETURNING id", season)
    await conn.execute("INSERT INTO game (round_id, board, white_id, black_id, result) "
                       "VALUES ($1, 1, $2, $3, '1-0')", number, players[0], players[1])
    await conn.execute("INSERT INTO signoff (round_id, player_id, reason) VALUES "
                       "($1, $2, 'notice')", number, players[2])


async def test_each_club_sees_and_changes_only_its_own(postgres):
    """Two clubs in one database, each through a store opened for it: the same SQL reads
    and writes each its own rows; a store without a club reads nothing and writes nothing;
    a club removed takes every row of it along."""
    sliedrecht = await add_club(postgres, "Sliedrecht", "1:a", SEAL)
    pion = await add_club(postgres, "De Pion", "2:b", SEAL)
    assert [c.name for c in await clubs(postgres)] == ["Sliedrecht", "De Pion"]
    first = build("sliedrecht", "a:2000 b:1900 c:1800 d:1700", ["a-b 1-0, c-d 0-1"])
    second = build("drie-cycli", "p:1500 q:1400", ["p-q 1/2-1/2"])
    stores = [await open_store(postgres, club=sliedrecht.id),
              await open_store(postgres, club=pion.id)]
    try:
        await import_season(stores[0], first)
        await import_season(stores[1], second)
        assert await load_season(stores[0]) == first
        assert await load_season(stores[1]) == second
        # The same statement, through the other club's store, reaches nothing of the first.
        async with stores[1].transaction() as conn:
            await conn.execute("UPDATE player SET name = 'weg' WHERE code = 'a'")
            await conn.execute("DELETE FROM game WHERE result = '1-0'")
        assert await load_season(stores[0]) == first
        # Writing a row of another club is refused by the database itself.
        with pytest.raises(asyncpg.InsufficientPrivilegeError):
            async with stores[1].transaction() as conn:
                await conn.execute("INSERT INTO arbiter (club_id, telegram_id, added_at) "
                                   "VALUES (?, 7, 'nu')", (sliedrecht.id,))
    finally:
        for store in stores:
            await store.close()
    nobody = await asyncpg.connect(postgres)
    try:
        assert await nobody.fetchval("SELECT count(*) FROM player") == 0
        with pytest.raises(asyncpg.PostgresError):
            await nobody.execute("INSERT INTO arbiter (telegram_id, added_at) VALUES (7, 'x')")
        assert await remove_club(postgres, pion.id)
        assert not await remove_club(postgres, pion.id)
        assert [c.name for c in await clubs(postgres)] == ["Sliedrecht"]
    finally:
        await nobody.close()
    store = await open_store(postgres, club=sliedrecht.id)
    try:
        assert await load_season(store) == first  # the other's rows went, not its own
    finally:
        await store.close()
    with pytest.raises(StoreError) as missing:
        await open_store(postgres, club=pion.id)
    assert missing.value.problem is StoreProblem.NO_CLUB


async def test_one_clubs_write_never_waits_on_anothers(postgres):
    """Each club has its own writer's place: a write held open in one club does not hold
    up another's, while a second store of the same club waits for it."""
    one = await add_club(postgres, "Een", "1:a", SEAL)
    two = await add_club(postgres, "Twee", "2:b", SEAL)
    stores = [await open_store(postgres, club=c.id) for c in (one, two, one)]
    try:
        for store, name in zip(stores[:2], ("x", "y"), strict=True):
            await import_season(store, build("sliedrecht", f"{name}1:2000 {name}2:1900", []))
        held, release = asyncio.Event(), asyncio.Event()

        async def hold() -> None:
            async with stores[0].transaction() as conn:
                await conn.execute("UPDATE club SET city = 'bezet'")
                held.set()
                await release.wait()

        holding = asyncio.create_task(hold())
        await held.wait()
        await asyncio.wait_for(rounds.add_round(stores[1], 1, actor=1), timeout=5)
        same_club = asyncio.create_task(rounds.add_round(stores[2], 1, actor=1))
        await asyncio.sleep(0.3)
        assert not same_club.done()  # the same club's second store waits its turn
        release.set()
        await holding
        await asyncio.wait_for(same_club, timeout=5)
    finally:
        for store in stores:
            await store.close()


def test_clubs_on_the_command_line(postgres, capsys, tmp_path, monkeypatch):
    from bot.cli import main

    monkeypatch.setenv("TELEGRAM_BASE_URL", "http://127.0.0.1:1")  # no Telegram: no webhook
    monkeypatch.setenv("KEIZER_SECRET_KEY", KEY)
    token = "123456:" + "A" * 35
    assert main(["clubs", "list", "--db", postgres]) == 0  # none yet: how to make one
    assert capsys.readouterr().out.strip() == texts.CLUBS_NONE
    assert main(["clubs", "add", "Sliedrecht", "--token", token, "--arbiter", "42",
                 "--arbiter", "43", "--db", postgres]) == 0
    assert main(["clubs", "add", "De Pion", "--token", token.replace("A", "B"),
                 "--db", postgres]) == 0
    assert main(["clubs", "list", "--db", postgres]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out == ["Club 1 gemaakt: Sliedrecht.", "Club 2 gemaakt: De Pion.", "1: Sliedrecht",
                   "2: De Pion"]
    # Issue 35: one bot serves one club, a name says which club it is; refused in a
    # sentence, and no club number is used up by it.
    assert main(["clubs", "add", "De Toren", "--token", token, "--db", postgres]) == 1
    assert capsys.readouterr().err.strip() == texts.store_problem(words("nl"),
        StoreError(StoreProblem.CLUB_TOKEN_TAKEN, club=1, name="Sliedrecht"))
    assert main(["clubs", "add", "De Pion", "--token", token.replace("A", "D"),
                 "--db", postgres]) == 1
    assert capsys.readouterr().err.strip() == texts.store_problem(words("nl"),
        StoreError(StoreProblem.CLUB_NAME_TAKEN, club=2, name="De Pion"))
    assert main(["clubs", "token", "2", "--token", token, "--db", postgres]) == 1
    assert "Sliedrecht" in capsys.readouterr().err
    monkeypatch.setenv("LANG", "en_GB.UTF-8")  # the command line speaks the shell's language
    assert main(["clubs", "add", "De Toren", "--token", token, "--db", postgres]) == 1
    assert capsys.readouterr().err.strip() == texts.store_problem(words("en"), StoreError(
        StoreProblem.CLUB_TOKEN_TAKEN, club=1, name="Sliedrecht"))
    monkeypatch.setenv("LANG", "C.UTF-8")
    assert main(["clubs", "add", "De Toren", "--token", token.replace("A", "D"),
                 "--db", postgres]) == 0
    assert capsys.readouterr().out == "Club 3 gemaakt: De Toren.\n"
    # Issue 46: Telegram out of reach, the webhook cannot go: the club stays (else nothing
    # here could remove the webhook later), unless told to go without it.
    assert main(["clubs", "remove", "De toren", "--ja", "--db", postgres]) == 1
    left = capsys.readouterr().err.strip()
    assert fits(left, "CLUBS_WEBHOOK_LEFT", id=3) and token not in left
    assert [c.id for c in asyncio.run(clubs(postgres))] == [1, 2, 3]
    assert main(["clubs", "remove", "3", "--ja", "--zonder-webhook", "--db", postgres]) == 0
    assert capsys.readouterr().out.splitlines() == [
        texts.CLUBS_REMOVED.format(id=3), *texts.CLUBS_WEBHOOK_KEPT.format(
            id=3, error=left.split("(", 1)[1].rsplit(")", 1)[0]).splitlines()]
    # A command on one club's store, on a database of clubs, is told which.
    elsewhere = tmp_path / "elders.json"
    elsewhere.write_text(season_to_json(build("sliedrecht", "a:2000 b:1900", [])),
                         encoding="utf-8")
    assert main(["import", str(elsewhere), "--db", postgres]) == 1
    assert capsys.readouterr().err.strip() == texts.CLUBS_WHICH.format(
        clubs="1: Sliedrecht, 2: De Pion")
    assert main(["clubs", "add", "De Toren", "--token", "1:a", "--db", postgres]) == 1
    assert capsys.readouterr().err.strip() == texts.CLUBS_TOKEN
    assert main(["clubs", "token", "2", "--token", token.replace("A", "C"),
                 "--db", postgres]) == 0
    assert "Club 2 heeft een nieuw bot-token" in capsys.readouterr().out
    assert [c.token for c in asyncio.run(clubs(postgres, SEAL))] == [token,
                                                                      token.replace("A", "C")]
    assert main(["clubs", "token", "9", "--token", token, "--db", postgres]) == 1
    assert capsys.readouterr().err.strip() == texts.CLUBS_UNKNOWN.format(
        club=9, clubs="1: Sliedrecht, 2: De Pion")

    async def arbiters_of(number: int) -> set[int]:
        store = await open_store(postgres, club=number)
        try:
            return await club_arbiters(store)
        finally:
            await store.close()
    assert asyncio.run(arbiters_of(1)) == {42, 43}
    assert asyncio.run(arbiters_of(2)) == set()
    assert main(["clubs", "arbiter", "2", "--arbiter", "44", "--db", postgres]) == 0
    assert capsys.readouterr().out == "Club 2: wedstrijdleiders 44.\n"
    assert asyncio.run(arbiters_of(2)) == {44}
    assert main(["clubs", "arbiter", "2", "--db", postgres]) == 1
    assert capsys.readouterr().err.strip() == texts.CLUBS_USAGE
    # The commands on a club's store name it (`--club`), and touch that club only.
    season = tmp_path / "seizoen.json"
    season.write_text(season_to_json(build("sliedrecht", "a:2000 b:1900", ["a-b 1-0"])),
                      encoding="utf-8")
    assert main(["import", str(season), "--db", postgres, "--club", "2"]) == 0
    capsys.readouterr()
    assert main(["export", "--db", postgres, "--club", "2"]) == 0
    assert '"name": "A"' in capsys.readouterr().out
    assert main(["export", "--db", postgres, "--club", "1"]) == 1
    assert fits(capsys.readouterr().err, "_STORE_PROBLEMS", pick=StoreProblem.NO_SEASON)
    assert main(["export", "--db", postgres, "--club", "9"]) == 2
    refused = capsys.readouterr().err
    assert "9" in refused and "club_store" not in refused, refused
    assert main(["clubs", "remove", "2", "--db", postgres]) == 1  # not confirmed: it stays
    assert capsys.readouterr().err.strip() == texts.CLUBS_REMOVE_KEPT.format(id=2)
    assert main(["clubs", "remove", "2", "--ja", "--zonder-webhook", "--db", postgres]) == 0
    capsys.readouterr()
    assert main(["clubs", "remove", "2", "--ja", "--db", postgres]) == 1
    assert capsys.readouterr().err.strip() == texts.CLUBS_UNKNOWN.format(
        club=2, clubs="1: Sliedrecht")
    # A single club's bot does not run one of a host's clubs.
    monkeypatch.setenv("KEIZER_DB", postgres)
    monkeypatch.setenv("TELEGRAM_BOT_TOKEN", token.replace("A", "E"))
    assert main([]) == 1
    assert capsys.readouterr().err.strip() == texts.SINGLE_ON_HOSTED.format(clubs="1: Sliedrecht")
    # Club 1 gone, its place is empty again: the next club added is club 1.
    assert main(["clubs", "remove", "1", "--ja", "--zonder-webhook", "--db", postgres]) == 0
    assert main(["clubs", "add", "De Toren", "--token", token, "--db", postgres]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "Club 1 gemaakt: De Toren."
    assert main(["clubs", "list", "--db", str(tmp_path / "keizer.db")]) == 1
    assert capsys.readouterr().err.strip() == texts.CLUBS_NEED_POSTGRES


def test_a_single_clubs_place_taken_keeps_its_season(postgres, tmp_path, capsys,
                                                     monkeypatch):
    """Issue 35: a database that ran one club (club 1, no `clubs`) keeps that club's season
    when clubs are added: the first is club 2 then, and club 1 is left as it was."""
    from bot.cli import main

    season = tmp_path / "seizoen.json"
    season.write_text(season_to_json(build("sliedrecht", "a:2000 b:1900", ["a-b 1-0"])),
                      encoding="utf-8")
    assert main(["import", str(season), "--db", postgres]) == 0
    monkeypatch.setenv("KEIZER_SECRET_KEY", KEY)
    assert main(["clubs", "add", "De Pion", "--token", ANY_TOKEN, "--db", postgres]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "Club 2 gemaakt: De Pion."
    assert main(["export", "--db", postgres, "--club", "1"]) == 0
    assert '"name": "A"' in capsys.readouterr().out


ANY_TOKEN = "123456:" + "A" * 35


@pytest.mark.parametrize("command", [["list"], ["add", "De Toren", "--token", ANY_TOKEN],
                                     ["remove", "3"], ["token", "3", "--token", ANY_TOKEN]])
def test_clubs_on_a_database_out_of_reach_say_so(command, capsys, monkeypatch):
    """Issue 35: no traceback when the server is not there (a socket that is not there) or
    refuses the user; the line names the database, without a password."""
    from bot.cli import main

    monkeypatch.setenv("KEIZER_SECRET_KEY", KEY)
    for dsn in ("postgresql://keizer:geheim@/keizer?host=/nonexistent",
                "postgresql://keizer:geheim@127.0.0.1:1/keizer"):
        assert main(["clubs", *command, "--db", dsn]) == 1
        said = capsys.readouterr().err.strip()
        assert said.startswith(texts.store_problem(words("nl"), StoreError(
            StoreProblem.UNREADABLE, path="{path}", reason="{reason}")).split("{")[0]), said
        assert "geheim" not in said and "Traceback" not in said


async def test_forty_clubs_share_eight_connections(postgres):
    """A service's clubs on one pool: forty clubs import, read and correct their seasons at
    once through eight connections; each keeps its own, and the server never holds more."""
    pool = await club_pool(postgres, size=8)
    made = [await add_club(postgres, f"Club {k}", f"{k}:t", SEAL) for k in range(40)]
    stores = [await open_store(postgres, club=c.id, pool=pool) for c in made]
    try:
        seasons = [build("sliedrecht", f"a{k}:2000 b{k}:1900 c{k}:1800 d{k}:1700",
                         [f"a{k}-b{k} 1-0, c{k}-d{k} 0-1"]) for k in range(40)]
        await asyncio.gather(*(import_season(s, season)
                               for s, season in zip(stores, seasons, strict=True)))
        await asyncio.gather(*(results.correct(s, 1, 1, Result.DRAW, actor=1)
                               for s in stores[::2]))
        loaded = await asyncio.gather(*(load_season(s) for s in stores))
        for k, season in enumerate(loaded):
            assert {p.id for p in season.players} == {f"a{k}", f"b{k}", f"c{k}", f"d{k}"}
            assert season.rounds[0].games[0].result is (Result.DRAW if k % 2 == 0
                                                        else Result.WHITE_WINS)
        conn = await asyncpg.connect(postgres)
        try:
            assert await conn.fetchval("SELECT count(*) FROM pg_stat_activity WHERE "
                                       "datname = current_database()") <= 8 + 1
        finally:
            await conn.close()
    finally:
        for store in stores:
            await store.close()
        await pool.close()


async def test_a_statement_cut_off_gives_its_pooled_connection_back(postgres, monkeypatch):
    """A club's work cancelled while its connection is being set to the club (a club stopped
    at a host's beat, the host stopping): the connection goes back to the pool, else the
    pool's close waits for it for ever and the host never stops (a CI run)."""
    from storage.postgres import PooledConnection

    pool = await club_pool(postgres, size=2)
    made = await add_club(postgres, "Club", "1:t", SEAL)
    store = await open_store(postgres, club=made.id, pool=pool)
    setting = asyncio.Event()
    real = PooledConnection._as_club

    async def slow(self, conn):
        setting.set()
        await asyncio.sleep(60)
        await real(self, conn)

    try:
        monkeypatch.setattr(PooledConnection, "_as_club", slow)
        work = asyncio.create_task(load_season(store))
        await setting.wait()
        work.cancel()
        with pytest.raises(asyncio.CancelledError):
            await work
        monkeypatch.setattr(PooledConnection, "_as_club", real)
        await store.close()
    finally:
        await asyncio.wait_for(pool.close(), 10)


async def test_a_connection_dropped_inside_a_unit_of_work_is_an_outage(postgres):
    """The server drops the connection a transaction holds (a primary going away, a standby
    promoted): the work fails as the store's passing outage, which the sender retries
    quietly, not as a raw broken pipe it would log as a fault of ours; the pool goes on."""
    pool = await club_pool(postgres, size=2)
    made = await add_club(postgres, "Club", "1:t", SEAL)
    store = await open_store(postgres, club=made.id, pool=pool)
    admin = await asyncpg.connect(postgres)
    try:
        with pytest.raises(StoreError) as raised:
            async with store.transaction() as conn:
                await conn.execute("SELECT 1")
                pid = store.writer._held.get_server_pid()
                await admin.execute("SELECT pg_terminate_backend($1)", pid)
                while await admin.fetchval("SELECT count(*) FROM pg_stat_activity "
                                           "WHERE pid = $1", pid):
                    await asyncio.sleep(0.01)  # gone, not still going (a busy machine)
                await asyncio.sleep(0.05)
                await conn.execute("SELECT 1")
        assert raised.value.problem is StoreProblem.UNREADABLE
        await import_season(store, build("sliedrecht", "a:2000 b:1900", ["a-b 1-0"]))
        assert len((await load_season(store)).players) == 2
    finally:
        await admin.close()
        await store.close()
        await asyncio.wait_for(pool.close(), 10)


async def test_a_role_that_passes_row_level_security_is_refused(postgres_server):
    """Issue 34: a superuser (or a role with BYPASSRLS) would let one club's store read every
    club's rows: the store refuses it, saying why, before it makes anything."""
    with pytest.raises(StoreError) as caught:
        await open_store(postgres_server)
    assert caught.value.problem is StoreProblem.ROLE_SEES_ALL
    assert fits(texts.store_problem(words("nl"), caught.value), "_STORE_PROBLEMS",
                pick=StoreProblem.ROLE_SEES_ALL)
    conn = await asyncpg.connect(postgres_server)
    try:
        assert await conn.fetchval("SELECT to_regclass('schema_version')") is None
    finally:
        await conn.close()


async def test_the_hosted_compose_files_database_role_is_one_the_store_takes(
        postgres_server, tmp_path):
    """deploy/postgres-init.sh, as the postgres image runs it on a new data folder, makes a
    role the store accepts and a database it owns."""
    socket_dir = postgres_server.split("host=", 1)[1]
    env = {**os.environ, "POSTGRES_USER": "keizer", "POSTGRES_PASSWORD": "geheim",
           "PGHOST": socket_dir}
    init = ["bash", str(ROOT / "deploy" / "postgres-init.sh")]
    # Issue 46: without keizerbot's own password (hosted.env's PGPASSWORD) it says so.
    refused = subprocess.run(init, env=env, capture_output=True, text=True, check=False)
    assert refused.returncode != 0 and "PGPASSWORD" in refused.stderr
    # Any characters: the password goes into no address.
    password = "a/b@c:d%e'f"
    subprocess.run(init, env={**env, "PGPASSWORD": password}, check=True,
                   capture_output=True)
    dsn = f"postgresql://keizerbot@/keizerbot?host={socket_dir}"
    try:
        db = await open_store(dsn)
        await db.close()
        conn = await asyncpg.connect(postgres_server)
        try:
            stored = await conn.fetchval("SELECT rolpassword FROM pg_authid "
                                         "WHERE rolname = 'keizerbot'")
        finally:
            await conn.close()
        assert stored is not None and password not in stored  # kept hashed
    finally:
        conn = await asyncpg.connect(postgres_server)
        try:
            await conn.execute("DROP DATABASE keizerbot WITH (FORCE)")
            await conn.execute("DROP ROLE keizerbot")
        finally:
            await conn.close()


async def test_an_address_of_a_primary_among_several_servers_reads_and_writes(
        postgres):
    """Issue 35: KEIZER_DB naming the servers of a failover pair, the primary wanted
    (`target_session_attrs=read-write`): the store writes on the primary, and the standings
    worker's read-only connections are not refused for being read-only (they may go to a
    standby)."""
    from urllib.parse import parse_qs, urlsplit, urlunsplit

    from storage.postgres import reader_pool

    parts = urlsplit(postgres)
    socket_dir = parse_qs(parts.query)["host"][0]
    dsn = urlunsplit(parts._replace(
        query=f"host=/nonexistent,{socket_dir}&target_session_attrs=read-write"))
    store = await open_store(dsn)
    try:
        await import_season(store, build("sliedrecht", "a:2000 b:1900", ["a-b 1-0"]))
    finally:
        await store.close()
    pool = await reader_pool(dsn)
    try:
        async with pool.acquire() as conn:
            assert await conn.fetchval("SHOW transaction_read_only") == "on"
            await conn.execute("SELECT set_config('keizer.club', '1', false)")
            assert await conn.fetchval("SELECT count(*) FROM player") == 2
    finally:
        await pool.close()
