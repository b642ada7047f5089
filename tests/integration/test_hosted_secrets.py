"""Issue 46: a federation's secrets at rest. The clubs' bot tokens are sealed with
KEIZER_SECRET_KEY (a copy or dump of the database holds none anyone can use), given without
the shell's history seeing them, and moved to a new key by `keizerbot rekey`; a database of
the release before (tokens in the clear, a first club no list showed) comes along."""

from __future__ import annotations

import asyncio
import io
import sys

import asyncpg
import pytest

from bot.cli import main
from bot.language import texts
from storage import lichess
from storage.migrate import PostgresTarget, upgrade
from storage.postgres import add_club, clubs
from storage.schema import MIGRATIONS
from storage.seal import Seal
from storage.store import open_store
from tests.bot.linking import KEY

TOKEN = "123456:" + "A" * 35
OTHER = "654321:" + "B" * 35
NEW_KEY = "Zm9ydHktdHdvIGlzIG5vdCB0aGUgYW5zd2VyIGhlcmU="


def run(capsys, *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


async def stored_tokens(dsn: str) -> list[str]:
    conn = await asyncpg.connect(dsn)
    try:
        return [row[0] for row in await conn.fetch("SELECT token FROM clubs ORDER BY id")]
    finally:
        await conn.close()


@pytest.fixture
def keyed(monkeypatch: pytest.MonkeyPatch, tmp_path) -> None:
    monkeypatch.chdir(tmp_path)  # no .env of the developer's
    monkeypatch.setenv("KEIZER_SECRET_KEY", KEY)
    monkeypatch.delenv("KEIZER_CLUB_TOKEN", raising=False)


def test_a_clubs_token_is_kept_sealed_and_opens_with_the_key(postgres, capsys,
                                                             keyed):
    assert run(capsys, "clubs", "add", "Sliedrecht", "--token", TOKEN, "--db", postgres)[0] == 0
    stored = asyncio.run(stored_tokens(postgres))
    assert TOKEN not in stored[0] and TOKEN.split(":")[1] not in stored[0]
    assert Seal(KEY).open(stored[0]) == TOKEN
    assert [c.token for c in asyncio.run(clubs(postgres, Seal(KEY)))] == [TOKEN]
    assert [c.token for c in asyncio.run(clubs(postgres, Seal(NEW_KEY)))] == [""]
    # Sealed twice, the same bot is still told apart: one bot serves one club.
    code, _, err = run(capsys, "clubs", "add", "De Pion", "--token", TOKEN, "--db", postgres)
    assert code == 1 and "Sliedrecht" in err and TOKEN not in err


def test_without_a_key_no_club_is_added(postgres, capsys, monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("KEIZER_SECRET_KEY", raising=False)
    code, out, err = run(capsys, "clubs", "add", "Sliedrecht", "--token", TOKEN, "--db", postgres)
    assert (code, out, err.strip()) == (1, "", texts.CLUBS_NEED_KEY)
    assert asyncio.run(clubs(postgres)) == []
    monkeypatch.setenv("KEIZER_DB", postgres)
    code, _, err = run(capsys, "host")
    assert (code, err.strip()) == (1, texts.CONFIG_HOST_KEY)


def test_the_token_comes_from_standard_input_the_environment_or_a_prompt(
        postgres, capsys, monkeypatch, keyed):
    """Never on the command line: `--token -` reads a line, KEIZER_CLUB_TOKEN is read, and a
    person at a terminal is asked without the token shown. None of it is printed."""
    monkeypatch.setattr(sys, "stdin", io.StringIO(TOKEN + "\n"))
    assert run(capsys, "clubs", "add", "Sliedrecht", "--token", "-", "--db", postgres)[0] == 0
    monkeypatch.setenv("KEIZER_CLUB_TOKEN", OTHER)
    assert run(capsys, "clubs", "add", "De Pion", "--db", postgres)[0] == 0
    monkeypatch.delenv("KEIZER_CLUB_TOKEN")
    third = "777777:" + "C" * 35
    asked = []

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    monkeypatch.setattr(sys, "stdin", Terminal())
    monkeypatch.setattr("getpass.getpass", lambda prompt: asked.append(prompt) or third)
    code, out, err = run(capsys, "clubs", "token", "de pion", "--db", postgres)
    assert code == 0 and asked == [texts.CLUBS_TOKEN_ASK]
    assert [c.token for c in asyncio.run(clubs(postgres, Seal(KEY)))] == [TOKEN, third]
    assert not any(t in out + err for t in (TOKEN, OTHER, third))
    # No terminal and no token: refused, saying the ways to give one.
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    code, _, err = run(capsys, "clubs", "add", "De Toren", "--db", postgres)
    assert (code, err.strip()) == (1, texts.CLUBS_TOKEN)


async def _last_releases_database(dsn: str, old: Seal) -> None:
    """As the release before left it: club 1 ran alone (a season, no name), then two clubs
    were added beside it with their tokens in the clear; a member's lichess token sealed
    with the key of then."""
    conn = await asyncpg.connect(dsn)
    try:
        await upgrade(PostgresTarget(conn), MIGRATIONS[:21])
        async with conn.transaction():
            await conn.execute("SELECT set_config('keizer.club', '1', true)")
            await conn.execute("UPDATE club SET name = 'De Toren'")
            await conn.execute("INSERT INTO season (club, name, rules, created_at) VALUES "
                               "('De Toren', '2025-2026', '{\"preset\": \"sliedrecht\"}', 'toen')")
            await conn.execute("INSERT INTO lichess (telegram_id, username, token, linked_at) "
                               "VALUES (42, 'anna', $1, 'toen')", old.close("lio_anna"))
        for name, token in (("Sliedrecht", TOKEN), ("De Pion", OTHER)):
            async with conn.transaction():
                number = await conn.fetchval("INSERT INTO clubs (name, token, created_at) "
                                             "VALUES ($1, $2, 'toen') RETURNING id", name, token)
                await conn.execute("SELECT set_config('keizer.club', $1, true)", str(number))
                await conn.execute("INSERT INTO club (id, name) VALUES (1, $1)", name)
                await conn.execute("INSERT INTO club_version (id, version) VALUES (1, 0)")
    finally:
        await conn.close()


def test_the_last_releases_tokens_are_sealed_and_moved_to_a_new_key(
        empty_postgres, capsys, monkeypatch, keyed):
    asyncio.run(_last_releases_database(empty_postgres, Seal(KEY)))
    monkeypatch.setenv("KEIZER_DB", empty_postgres)
    # Migrated by a command that writes; the first club, hidden before, is listed by its name.
    assert run(capsys, "clubs", "arbiter", "Sliedrecht", "--arbiter", "7")[0] == 0
    code, out, _ = run(capsys, "clubs", "list")
    assert out.splitlines() == ["1: De Toren", "2: Sliedrecht", "3: De Pion",
                                texts.CLUBS_IN_CLEAR]
    code, out, _ = run(capsys, "export", "--club", "1")
    assert code == 0 and "2025-2026" in out
    # A new key: the old one given as KEIZER_OLD_SECRET_KEY, every token sealed anew.
    monkeypatch.setenv("KEIZER_SECRET_KEY", NEW_KEY)
    monkeypatch.setenv("KEIZER_OLD_SECRET_KEY", KEY)
    code, out, err = run(capsys, "rekey")
    assert (code, out.strip(), err) == (0, texts.REKEYED.format(clubs=2), "")
    stored = asyncio.run(stored_tokens(empty_postgres))
    assert not any(t in s for s in stored for t in (TOKEN, OTHER))
    assert [c.token for c in asyncio.run(clubs(empty_postgres, Seal(NEW_KEY)))] == \
        ["", TOKEN, OTHER]
    assert not any(c.in_clear for c in asyncio.run(clubs(empty_postgres)))

    async def anna() -> str | None:
        db = await open_store(empty_postgres, club=1)
        try:
            account = await lichess.account(db, 42)
            return None if account is None else Seal(NEW_KEY).open(account.token)
        finally:
            await db.close()
    assert asyncio.run(anna()) == "lio_anna"
    # Run again without the old key: nothing left to move, nothing lost.
    monkeypatch.delenv("KEIZER_OLD_SECRET_KEY")
    assert run(capsys, "rekey")[0] == 0
    assert asyncio.run(anna()) == "lio_anna"
    # A wrong old key opens nothing: said per club, and nothing is changed.
    monkeypatch.setenv("KEIZER_SECRET_KEY", KEY)
    code, out, _ = run(capsys, "rekey")
    assert code == 1
    assert texts.REKEY_CLUB_UNOPENED.format(id=2) in out.splitlines()
    assert texts.REKEY_LICHESS_UNOPENED.format(count=1) in out.splitlines()
    assert [c.token for c in asyncio.run(clubs(empty_postgres, Seal(NEW_KEY)))] == \
        ["", TOKEN, OTHER]


def test_the_doctor_of_one_club_on_a_hosts_database_points_to_clubs(
        postgres, capsys, monkeypatch, keyed):
    monkeypatch.setenv("KEIZER_DB", postgres)
    monkeypatch.setenv("TELEGRAM_BOT_TOKEN", OTHER)
    asyncio.run(add_club(postgres, "Sliedrecht", TOKEN, Seal(KEY)))
    code, out, _ = run(capsys, "doctor")
    assert code == 1
    assert out.splitlines()[-1] == "✗ " + texts.DOCTOR_USE_CLUBS.format(clubs="1: Sliedrecht")


def test_a_peer_login_refused_is_explained():
    """Issue 46: Debian's PostgreSQL knows a socket's user by his name on the machine; a
    command run as another user is told what to do, not only that the login failed."""
    from storage.errors import StoreProblem
    from storage.postgres import problem_of

    refused = asyncpg.InvalidAuthorizationSpecificationError(
        'Peer authentication failed for user "keizer"')
    assert problem_of(refused) is StoreProblem.PEER_REFUSED
    other = asyncpg.InvalidAuthorizationSpecificationError('role "nobody" does not exist')
    assert problem_of(other) is StoreProblem.UNREADABLE
