"""Issue 46: the administrator's first hour, as the README and docs/ tell it. Nothing of a
club's data is replaced without a copy, every command reads its settings from one place, a
clean stop leaves the club in its one file, and no secret is printed."""

from __future__ import annotations

import asyncio
import json
import shutil
import sqlite3
import stat
from pathlib import Path

import pytest

from bot.cli import main
from bot.language import texts
from core.season import read_season
from storage.seasons import import_season
from storage.sqlite import InstanceLock, read_only
from storage.store import open_store
from tests.seasons import season_data

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
PASSWORD = "a/b@c:d%e"


def run(capsys, *args: str | Path) -> tuple[int, str, str]:
    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


def club_in_use(database: Path) -> None:
    """A club a week in: a member linked to Telegram, the group set (what the bot keeps
    beside the season file)."""
    with sqlite3.connect(database) as conn:
        conn.execute("UPDATE player SET telegram_id = 4242 WHERE id = (SELECT min(id) FROM "
                     "player)")
        conn.execute("UPDATE club SET group_chat_id = -100123")


def linked(database: Path) -> int:
    with sqlite3.connect(database) as conn:
        return conn.execute("SELECT count(*) FROM player WHERE telegram_id IS NOT NULL"
                            ).fetchone()[0]


@pytest.fixture
def in_club(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The administrator's folder: `.env` names the database, nothing in the environment."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("KEIZER_DB", raising=False)
    (tmp_path / ".env").write_text("KEIZER_DB=club/schaak.db\n", encoding="utf-8")
    return tmp_path / "club" / "schaak.db"


def test_every_command_reads_the_database_named_in_dotenv(capsys, in_club):
    assert run(capsys, "import", EXAMPLES / "sliedrecht.json")[0] == 0
    assert in_club.exists() and not Path("data/keizer.db").exists()
    code, out, _ = run(capsys, "export")
    assert code == 0 and '"keizer-season/1"' in out
    code, out, _ = run(capsys, "backup")
    assert code == 0 and list((in_club.parent / "backups").glob("keizer-*.db"))
    code, out, _ = run(capsys, "export-ics", "agenda.ics")
    assert code == 0 and Path("agenda.ics").exists()


def test_replacing_a_club_in_use_keeps_a_copy_first_and_says_where(capsys, in_club):
    assert run(capsys, "import", EXAMPLES / "sliedrecht.json")[0] == 0
    club_in_use(in_club)
    code, out, _ = run(capsys, "import", EXAMPLES / "drie-groepen.json", "--replace")
    assert code == 0
    copies = list((in_club.parent / "backups").glob("keizer-*.db"))
    assert len(copies) == 1 and f"club/backups/{copies[0].name}" in out
    assert linked(in_club) == 0  # replaced, as asked
    assert linked(copies[0]) == 1  # and the club's links are in the copy
    assert stat.S_IMODE(copies[0].stat().st_mode) == 0o600


def test_replacing_a_season_nobody_used_needs_no_copy(capsys, in_club):
    assert run(capsys, "import", EXAMPLES / "drie-cycli.json")[0] == 0
    with sqlite3.connect(in_club) as conn:
        conn.execute("UPDATE game SET result = NULL, confirmed_at = NULL")
    code, _, _ = run(capsys, "import", EXAMPLES / "drie-groepen.json", "--replace")
    assert code == 0 and not (in_club.parent / "backups").exists()


def test_replacing_under_a_running_bot_is_refused(capsys, in_club):
    assert run(capsys, "import", EXAMPLES / "sliedrecht.json")[0] == 0
    club_in_use(in_club)
    running = InstanceLock(in_club)  # what the bot holds while it runs
    running.acquire()
    try:
        code, _, err = run(capsys, "import", EXAMPLES / "drie-groepen.json", "--replace")
    finally:
        running.release()
    assert code != 0 and "club/schaak.db" in err
    assert linked(in_club) == 1  # nothing replaced


def test_a_clean_stop_leaves_the_club_in_its_one_file(tmp_path):
    database = tmp_path / "keizer.db"

    async def a_week() -> None:
        db = await open_store(database, exclusive=True)
        # The standings worker reads beside the bot; its connection outlives the bot's.
        worker = await read_only(database)
        try:
            await import_season(db, read_season(json.dumps(season_data(
                "sliedrecht", "a:2000 b:1900 c:1800 d:1700", ["a-b 1-0, c-d 0-1"]))))
            async with worker.execute("SELECT count(*) FROM game") as cur:
                assert (await cur.fetchone())[0] == 2
        finally:
            await db.close()
        await worker.close()

    asyncio.run(a_week())
    wal = database.with_name("keizer.db-wal")
    assert not wal.exists() or wal.stat().st_size == 0
    moved = tmp_path / "elders" / "keizer.db"
    moved.parent.mkdir()
    shutil.copy(database, moved)  # the file alone, as "copy the file" says
    with sqlite3.connect(moved) as conn:
        assert conn.execute("SELECT count(*) FROM game").fetchone()[0] == 2


def test_club_on_a_one_club_file_is_refused_by_name(capsys, in_club):
    assert run(capsys, "import", EXAMPLES / "sliedrecht.json")[0] == 0
    code, out, err = run(capsys, "export", "--club", "99")
    assert code == 1 and not out
    assert err.strip() == texts.CLUB_OF_FILE.format(club=99, path=in_club.relative_to(
        in_club.parents[1]))


def test_everything_the_bot_keeps_is_written_for_its_owner_only(capsys, in_club):
    assert run(capsys, "import", EXAMPLES / "sliedrecht.json")[0] == 0
    Path("alles.json").write_text("old", encoding="utf-8")
    Path("alles.json").chmod(0o644)
    assert run(capsys, "export", "--alles", "alles.json")[0] == 0
    assert stat.S_IMODE(Path("alles.json").stat().st_mode) == 0o600


@pytest.mark.parametrize("command", [["clubs", "list"], ["doctor", "--clubs"], ["export"],
                                     ["import", str(EXAMPLES / "sliedrecht.json")], ["host"]])
def test_a_password_the_address_cannot_carry_is_named_never_shown(capsys, monkeypatch,
                                                                  tmp_path, command):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("KEIZER_DB", f"postgresql://keizer:{PASSWORD}@127.0.0.1:1/keizer")
    code, out, err = run(capsys, *command)
    assert code != 0
    assert "PGPASSWORD" in out + err and "%2F" in out + err
    assert "Traceback" not in out + err
    for piece in (PASSWORD, "a/b", "c:d"):
        assert piece not in out + err


def test_sqlalchemys_form_of_the_address_is_a_postgresql_address(capsys, monkeypatch,
                                                                tmp_path):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("KEIZER_DB", "postgresql+asyncpg://keizer:geheim@127.0.0.1:1/keizer")
    code, _, err = run(capsys, "import", EXAMPLES / "sliedrecht.json")
    assert code == 2 and "postgresql://keizer@127.0.0.1:1/keizer" in err and "geheim" not in err
    assert not list(tmp_path.iterdir())  # no folder named after the address


def test_a_first_season_is_made_from_a_list_of_names(capsys, in_club):
    """Issue 46: a club's first season file from its members' names, a rating where known;
    then the README's next step (`import`) takes it."""
    members = Path("leden.txt")
    members.write_text("# leden van SV De Toren\nAnna Visser, 1850\nBram de Wit\n\n"
                       "Cor Smit;1720\n", encoding="utf-8")
    code, _, err = run(capsys, "new-season", members, "seizoen.json")
    assert (code, err.strip()) == (1, texts.FIRST_SEASON_CLUB)
    club = "SV De Toren"
    code, out, _ = run(capsys, "new-season", members, "seizoen.json", "--vereniging",
                       club, "--naam", "2026-2027", "--reglement", "drie-cycli")
    assert code == 0
    assert out.strip() == texts.FIRST_SEASON.format(name="2026-2027", club=club,
                                                    path="seizoen.json", players=3,
                                                    rules="drie-cycli")
    season = read_season(Path("seizoen.json").read_text(encoding="utf-8"))
    assert [(p.name, p.rating) for p in season.players] == [
        ("Anna Visser", 1850), ("Bram de Wit", None), ("Cor Smit", 1720)]
    assert season.club == club and not season.rounds
    assert run(capsys, "import", "seizoen.json")[0] == 0
    # A line with no name in it is named, with its number; nothing is written.
    members.write_text("Anna Visser\n1850\n", encoding="utf-8")
    code, out, err = run(capsys, "new-season", members, "ander.json", "--vereniging", "X")
    assert code == 2 and not Path("ander.json").exists()
    assert err.startswith(texts.MEMBERS_UNUSABLE.format(path=members)) and "2" in err


def test_the_doctor_warns_of_a_settings_file_others_can_read(capsys, in_club):
    env = Path(".env")
    env.write_text("TELEGRAM_BOT_TOKEN=123456:" + "A" * 35 + "\nTELEGRAM_BASE_URL="
                   "http://127.0.0.1:1\nKEIZER_DB=club/schaak.db\n", encoding="utf-8")
    env.chmod(0o644)  # what `cp .env.example .env` leaves
    code, out, _ = run(capsys, "doctor")
    assert code == 1 and f"✗ {texts.DOCTOR_ENV_READABLE.format(path='.env')}" in out
    assert "A" * 35 not in out
    env.chmod(0o600)
    assert texts.DOCTOR_ENV_READABLE.format(path=".env") not in run(capsys, "doctor")[1]


def test_moving_the_club_as_docs_deploy_says_loses_nothing(capsys, in_club, tmp_path,
                                                           monkeypatch):
    """docs/deploy.md, "Moving the club to another machine": `keizerbot backup`, the newest
    file in backups/ put where KEIZER_DB points on the new machine. Taken while a reader
    (the standings worker) holds the WAL open, as on a running club night."""
    steps = (Path(__file__).resolve().parents[2] / "docs" / "deploy.md").read_text(
        encoding="utf-8")
    assert "run `keizerbot backup`, and take the\n  newest file in `backups/`" in steps
    assert run(capsys, "import", EXAMPLES / "sliedrecht.json")[0] == 0
    club_in_use(in_club)
    reader = sqlite3.connect(in_club)
    reader.execute("SELECT count(*) FROM player").fetchone()
    code, out, _ = run(capsys, "backup")
    assert code == 0
    before = run(capsys, "export", "--alles")[1]
    reader.close()
    newest = max((in_club.parent / "backups").iterdir(), key=lambda p: p.stat().st_mtime)
    assert newest.name in out and stat.S_IMODE(newest.stat().st_mode) == 0o600
    elsewhere = tmp_path / "nieuw"
    (elsewhere / "club").mkdir(parents=True)
    shutil.copy(newest, elsewhere / "club" / "schaak.db")
    shutil.copy(".env", elsewhere / ".env")
    monkeypatch.chdir(elsewhere)
    after = run(capsys, "export", "--alles")[1]
    assert json.loads(after) == json.loads(before) and linked(elsewhere / "club" / "schaak.db")


def test_a_rating_list_named_as_another_list_is_refused(capsys, tmp_path):
    """Issue 46: `--lijst snel` on the KNSB's classical CSV is said, not silently read."""
    season = EXAMPLES / "sliedrecht.json"
    code, out, err = run(capsys, "ratings", EXAMPLES / "KLASSIEK.csv", "--season", season,
                         "--lijst", "snel")
    assert (code, out) == (2, "")
    assert "KLASSIEK.csv" in err and "SNEL.csv" in err
    assert run(capsys, "ratings", EXAMPLES / "KLASSIEK.csv", "--season", season)[0] == 0
    renamed = tmp_path / "lijst.csv"  # a name that is none of the KNSB's: taken as asked
    shutil.copy(EXAMPLES / "KLASSIEK.csv", renamed)
    assert run(capsys, "ratings", renamed, "--season", season, "--lijst", "snel")[0] == 0


def test_the_help_says_what_starts_the_bot_and_speaks_the_shells_language(capsys,
                                                                          monkeypatch):
    """Issue 46: `--help` says that no command but the bare one (and `host`) starts a bot;
    `host --help` names its settings; English options beside the Dutch ones; a missing
    action names the actions there are."""
    monkeypatch.setenv("LANG", "en_GB.UTF-8")
    for args, shown in ((["--help"], ("No other command starts the bot", "TELEGRAM_BOT_TOKEN")),
                        (["host", "--help"], ("KEIZER_SECRET_KEY", "KEIZER_PUBLIC_URL")),
                        (["export", "--help"], ("--everything",)),
                        (["clubs", "--help"], ("--yes", "--without-webhook"))):
        with pytest.raises(SystemExit) as done:
            main(args)
        out = " ".join(capsys.readouterr().out.split())
        assert done.value.code == 0 and all(s in out for s in shown), (args, out)
    with pytest.raises(SystemExit):
        main(["clubs"])
    assert "{add,list,token,arbiter,remove}" in capsys.readouterr().err.splitlines()[-1]
