"""Every `keizerbot` command the README shows works as written."""

from __future__ import annotations

import os
import re
import shlex
from pathlib import Path

import pytest

from bot.cli import main

ROOT = Path(__file__).resolve().parents[2]
SHOWN = [shlex.split(m.group(1), comments=True)
         for m in re.finditer(r"^\s+uv run keizerbot (\S.*)$",
                              (ROOT / "README.md").read_text(encoding="utf-8"), re.M)]
# The demo plays a whole season: tests/bot/test_demo.py runs it, as written, once.
COMMANDS = [args for args in SHOWN if args != ["demo"]]


WRITES = {"export-html": 1, "export-csv": 1, "export-xlsx": 1, "export-ics": 1, "new-season": 2,
          "export-trf": 1, "import-trf": 2}
"""The commands that write a file, and where its name stands."""


@pytest.mark.parametrize("args", COMMANDS, ids=[" ".join(a) for a in COMMANDS])
def test_readme_command(args, monkeypatch, capsys, tmp_path):
    monkeypatch.chdir(ROOT)
    monkeypatch.setenv("KEIZER_DB", str(tmp_path / "keizer.db"))
    if args[0] in ("export", "backup", "export-ics", "export-trf", "ratings"):
        assert main(["import", "examples/drie-groepen.json"]) == 0
    if args[0] in WRITES:  # into the ignored data/ folder as shown; here, the test's own
        at = WRITES[args[0]]
        assert args[at].startswith("data/"), "a README example writes into the repository"
        args = [*args[:at], str(tmp_path / Path(args[at]).name), *args[at + 1:]]
    before = _tracked_and_untracked()
    assert main(args) == 0
    assert _tracked_and_untracked() == before, "the command wrote into the repository"
    assert capsys.readouterr().out.strip()


SKIPPED = {".git", ".venv", "data", ".pytest_cache", ".ruff_cache", ".mypy_cache",
           ".hypothesis", "__pycache__"}
"""The folders of caches and data (never walked: `.venv` alone holds thousands of files)."""


def _tracked_and_untracked() -> set[Path]:
    """The repository's files outside the folders of caches and data."""
    found = set()
    for folder, folders, files in os.walk(ROOT):
        folders[:] = [name for name in folders if name not in SKIPPED]
        found |= {Path(folder, name) for name in files}
    return found


def test_the_readme_shows_the_main_job_and_every_file_command():
    """The README names the bot itself and each command a new arbiter needs on day one."""
    shown = set(re.findall(r"^\s+uv run keizerbot ?(\S*)",
                           (ROOT / "README.md").read_text(encoding="utf-8"), re.M))
    assert {"", "demo", "import", "export", "standings", "pair", "backup"} <= shown


def test_the_repository_points_to_nothing_outside_it():
    """A clone has only the repository: every link in the docs and the code's references to
    a spec stay inside it (docs/season-format.md, docs/rules.md)."""
    tracked = [p for pattern in ("*.md", "*.py", "*.toml", "*.yml")
               for p in ROOT.rglob(pattern) if ".venv" not in p.parts]
    outside = [str(p.relative_to(ROOT)) for p in tracked
               if re.search(r"(\.\./|\b)shared/(spec|seeds|data)", p.read_text("utf-8"))
               and p.name != "test_readme.py"]
    assert outside == []
    for link in re.findall(r"\]\(([^)#]+)\)", (ROOT / "README.md").read_text("utf-8")):
        if not link.startswith("http"):
            assert (ROOT / link).exists(), link
