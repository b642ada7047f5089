"""Issue 33 on the command line: `keizerbot` run as a newcomer runs it (in this process; the
installed console script itself in one test)."""

from __future__ import annotations

import contextlib
import io
import os
import re
import shutil
import subprocess
import tomllib
from dataclasses import dataclass
from pathlib import Path

import pytest

from bot.cli import main
from core.season import AbsenceReason, read_season

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"


@dataclass(frozen=True)
class Done:
    returncode: int
    stdout: str
    stderr: str


def keizerbot(*args: object, cwd: Path, lang: str = "nl_NL.UTF-8", **env: str) -> Done:
    """The command line in this process, in a shell of `lang` and in folder `cwd`: what a
    newcomer types, without the second of start-up a process each costs (issue 34)."""
    outside = {k: os.environ.pop(k) for k in ("LANG", "LC_ALL", "LC_MESSAGES", "KEIZER_DB")
               if k in os.environ}
    given = {"LANG": lang, **env}
    before = {k: os.environ.get(k) for k in given}
    os.environ.update(given)
    out, err = io.StringIO(), io.StringIO()
    try:
        with contextlib.chdir(cwd), contextlib.redirect_stdout(out), \
                contextlib.redirect_stderr(err):
            try:
                code = main([str(a) for a in args])
            except SystemExit as stop:  # argparse's --help and its usage errors
                code = stop.code if isinstance(stop.code, int) else int(stop.code is not None)
    finally:
        for k, v in before.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
        os.environ.update(outside)
    return Done(code, out.getvalue(), err.getvalue())


def installed(*args: object, cwd: Path, lang: str) -> subprocess.CompletedProcess[str]:
    """The console script uv installed, as its own process."""
    exe = shutil.which("keizerbot")
    assert exe, "the console script keizerbot is installed by uv sync"
    environment = {k: v for k, v in os.environ.items()
                   if k not in ("LANG", "LC_ALL", "LC_MESSAGES", "KEIZER_DB")}
    return subprocess.run([exe, *map(str, args)], capture_output=True, text=True, check=False,
                          cwd=cwd, env={**environment, "LANG": lang})


def entries(trf: Path) -> list[str]:
    """Every round's code of every player line (`1`, `=`, `Z`, ...)."""
    return [line[k + 7] for line in trf.read_text("utf-8").splitlines()
            if line.startswith("001") for k in range(91, len(line), 10)]


def test_import_trf_writes_what_its_report_says(tmp_path):
    done = keizerbot("import-trf", EXAMPLES / "toernooi.trf", "seizoen.json", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    requested = entries(EXAMPLES / "toernooi.trf").count("Z")
    said = re.search(r"(\d+)× een gevraagde bye \(H of Z\) als afmelding gelezen", done.stdout)
    assert said is not None and int(said[1]) == requested == 55
    season = read_season((tmp_path / "seizoen.json").read_text("utf-8"))
    reasons = [a.reason for r in season.rounds for a in r.absent]
    assert reasons.count(AbsenceReason.NOTICE) == requested
    assert AbsenceReason.ZERO_BYE not in reasons
    # The club is the club, without the season its tournament's name ends with.
    assert (season.club, season.name) == ("Schaakclub De Toren van Ter Aar", "2026-2027")
    # FIDE's meaning is an option, named in the report and kept in the file.
    fide = keizerbot("import-trf", EXAMPLES / "toernooi.trf", "fide.json", "--byes", "fide",
                     cwd=tmp_path)
    assert fide.returncode == 0 and "als afmelding" not in fide.stdout
    season = read_season((tmp_path / "fide.json").read_text("utf-8"))
    reasons = [a.reason for r in season.rounds for a in r.absent]
    assert reasons.count(AbsenceReason.ZERO_BYE) == requested


@pytest.mark.parametrize("preset", ["sliedrecht", "drie-groepen"])
def test_the_trf_points_column_adds_up(tmp_path, preset):
    """FIDE's readers check that a line's points are the sum of its results."""
    done = keizerbot("export-trf", "r.trf", "--season", EXAMPLES / f"{preset}.json",
                     cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    worth = {"1": 1.0, "=": 0.5, "+": 1.0, "U": 1.0, "F": 1.0, "H": 0.5}
    lines = [x for x in (tmp_path / "r.trf").read_text("utf-8").splitlines()
             if x.startswith("001")]
    assert lines
    for line in lines:
        codes = [line[k + 7] for k in range(91, len(line), 10)]
        assert float(line[80:84]) == sum(worth.get(c, 0.0) for c in codes), line[:90]


def test_export_trf_names_the_header_lines_the_rating_office_will_miss(tmp_path):
    db = tmp_path / "keizer.db"
    assert keizerbot("import", EXAMPLES / "sliedrecht.json", "--db", db,
                     cwd=tmp_path).returncode == 0
    done = keizerbot("export-trf", "r.trf", "--db", db, cwd=tmp_path)
    assert done.returncode == 0 and (tmp_path / "r.trf").exists()
    assert "De ratingadministratie mist nog: de plaats van de club (regel 022; stuur " \
           "/instellingen plaats NAAM); de hoofdarbiter (regel 102" in done.stdout
    english = keizerbot("export-trf", "r.trf", "--db", db, cwd=tmp_path, lang="en_GB.UTF-8")
    assert "The rating office will still miss: the club's city (line 022; send /settings " \
           "city NAME)" in english.stdout


@pytest.mark.parametrize(("args", "dutch", "english"), [
    (["export-html", "examples/sliedrecht.json", "--season", "examples/sliedrecht.json"],
     "examples/sliedrecht.json is een bestand; geef de naam van een map",
     "examples/sliedrecht.json is a file; give the name of a folder"),
    (["export-csv", "examples/sliedrecht.json", "--season", "examples/sliedrecht.json"],
     "is een bestand", "is a file"),
    (["export-xlsx", "examples/sliedrecht.json", "--season", "examples/sliedrecht.json"],
     "is een bestand", "is a file"),
    (["export", "nodir/x.json"], "de map nodir bestaat niet", "the folder nodir does not exist"),
    (["export-ics", "nodir/a.ics"], "de map nodir bestaat niet", "the folder nodir does not exist"),
    (["export-trf", "nodir/r.trf", "--season", "examples/sliedrecht.json"],
     "de map nodir bestaat niet", "the folder nodir does not exist"),
    (["new-season", "examples/sliedrecht.json", "nodir/v.json"], "de map nodir bestaat niet",
     "the folder nodir does not exist"),
    (["export-trf", "examples", "--season", "examples/sliedrecht.json"],
     "examples is een map; geef de naam van een bestand", "examples is a folder"),
    (["standings", "examples"], "Kan examples niet lezen: dat is een map",
     "Cannot read examples: that is a folder"),
    (["export-ics", "--foo", "a.ics"], "keizerbot export-ics: fout: onbekend: --foo",
     "keizerbot export-ics: error: unrecognized: --foo"),
])
def test_a_mistyped_path_or_option_is_a_sentence_in_the_users_language(tmp_path, args, dutch,
                                                                        english):
    shutil.copytree(EXAMPLES, tmp_path / "examples")
    for lang, said in (("nl_NL.UTF-8", dutch), ("en_US.UTF-8", english)):
        done = keizerbot(*args, cwd=tmp_path, lang=lang)
        assert done.returncode == 2, (lang, done.stderr)
        assert said in done.stderr and "Traceback" not in done.stderr, done.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["examples"]  # nothing written


def test_only_import_makes_a_database(tmp_path):
    for args in (["export"], ["backup"], ["export-ics", "a.ics"], ["export-trf", "r.trf"],
                 ["ratings", EXAMPLES / "KLASSIEK.csv"]):
        done = keizerbot(*args, "--db", tmp_path / "typo.db", cwd=tmp_path)
        assert done.returncode == 2 and "De database" in done.stderr and \
            "bestaat niet" in done.stderr, done.stderr
        assert not (tmp_path / "typo.db").exists() and not (tmp_path / "backups").exists()
    assert keizerbot("import", EXAMPLES / "sliedrecht.json", "--db", tmp_path / "typo.db",
                     cwd=tmp_path).returncode == 0
    assert (tmp_path / "typo.db").exists()


def test_an_existing_folder_keeps_its_mode_and_the_doctor_names_a_readable_database(tmp_path):
    folder = tmp_path / "club"
    folder.mkdir(mode=0o755)
    folder.chmod(0o755)
    db = folder / "keizer.db"
    assert keizerbot("import", EXAMPLES / "sliedrecht.json", "--db", db,
                     cwd=tmp_path).returncode == 0
    assert keizerbot("export", "--db", db, cwd=tmp_path).returncode == 0
    assert folder.stat().st_mode & 0o777 == 0o755  # the owner's choice, left as it was
    assert db.stat().st_mode & 0o077 == 0  # the file the bot made is private
    # A folder the bot makes itself is private.
    made = tmp_path / "nieuw" / "keizer.db"
    assert keizerbot("import", EXAMPLES / "sliedrecht.json", "--db", made,
                     cwd=tmp_path).returncode == 0
    assert made.parent.stat().st_mode & 0o077 == 0
    db.chmod(0o644)
    checked = keizerbot("doctor", cwd=tmp_path, KEIZER_DB=str(db),
                        TELEGRAM_BOT_TOKEN="123456:" + "A" * 35, KEIZER_ARBITERS="1",
                        TELEGRAM_BASE_URL="http://127.0.0.1:9")
    assert f"Database {db}: ook leesbaar voor andere gebruikers" in checked.stdout


def test_the_help_is_in_one_language(tmp_path):
    dutch = installed("--help", cwd=tmp_path, lang="nl_NL.UTF-8").stdout
    english = installed("--help", cwd=tmp_path, lang="en_US.UTF-8").stdout
    assert "gebruik:" in dutch and "argumenten" in dutch
    assert "positional arguments" not in dutch and "options:" not in dutch
    assert "stand, rondes en kruistabel als webpagina's" in dutch
    assert "standings, rounds and cross table as web pages" in english
    assert "stand, rondes" not in english and "usage:" in english
    assert "gebruik" not in english


def test_unknown_fields_are_named_with_the_one_that_was_meant(tmp_path):
    (tmp_path / "club.toml").write_text('preset = "sliedrecht"\ntop_valu = 12\n')
    done = keizerbot("rules", "club.toml", cwd=tmp_path)
    assert done.returncode == 2
    assert "top_valu: onbekend veld 'top_valu' (bedoel je 'top_value'?)" in done.stderr


def test_ratings_on_the_command_line_says_how_to_apply_them_there(tmp_path):
    shutil.copy(EXAMPLES / "sliedrecht.json", tmp_path / "s.json")
    for word, listed in (("snel", "SNEL.csv"), ("blitz", "SNEL.csv"),
                         ("klassiek", "KLASSIEK.csv"), ("classical", "KLASSIEK.csv")):
        # Each word names its own list (issue 46: another list's file is refused).
        shutil.copy(EXAMPLES / "KLASSIEK.csv", tmp_path / listed)
        done = keizerbot("ratings", listed, "--season", "s.json", "--lijst", word,
                         cwd=tmp_path)
        assert done.returncode == 0, done.stderr
        assert "Bijwerken drukt" not in done.stdout and "--bevestig" in done.stdout


def test_uv_does_not_compile_every_dependency_at_every_command():
    """Issue 33: `compile-bytecode` made every `uv run` compile 5,000 files again (a second
    at each command); .ci/run compiles them once, at its install."""
    settings = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))
    assert not settings.get("tool", {}).get("uv", {}).get("compile-bytecode")
    assert "--compile-bytecode" in (ROOT / ".ci" / "run").read_text("utf-8")
