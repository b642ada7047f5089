"""Issue 33 on the command line: the installed `keizerbot`, run as a newcomer runs it."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from core.season import AbsenceReason, Season

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"


def keizerbot(*args: object, cwd: Path, lang: str = "nl_NL.UTF-8",
              **env: str) -> subprocess.CompletedProcess[str]:
    exe = shutil.which("keizerbot")
    assert exe, "the console script keizerbot is installed by uv sync"
    environment = {k: v for k, v in os.environ.items()
                   if k not in ("LANG", "LC_ALL", "LC_MESSAGES", "KEIZER_DB")}
    return subprocess.run([exe, *map(str, args)], capture_output=True, text=True, check=False,
                          cwd=cwd, env={**environment, "LANG": lang, **env})


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
    season = Season.from_json((tmp_path / "seizoen.json").read_text("utf-8"))
    reasons = [a.reason for r in season.rounds for a in r.absent]
    assert reasons.count(AbsenceReason.NOTICE) == requested
    assert AbsenceReason.ZERO_BYE not in reasons
    # The club is the club, without the season its tournament's name ends with.
    assert (season.club, season.name) == ("Schaakclub De Toren van Ter Aar", "2026-2027")
    # FIDE's meaning is an option, named in the report and kept in the file.
    fide = keizerbot("import-trf", EXAMPLES / "toernooi.trf", "fide.json", "--byes", "fide",
                     cwd=tmp_path)
    assert fide.returncode == 0 and "als afmelding" not in fide.stdout
    season = Season.from_json((tmp_path / "fide.json").read_text("utf-8"))
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
