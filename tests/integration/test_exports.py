"""The website export renders in a real headless browser; CSV opens as data; the chart is a
real picture."""

from __future__ import annotations

import csv
import io
import re
import shutil
import subprocess
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from urllib.parse import unquote

import numpy as np
import pytest

from bot.files import chart
from bot.files.exports import PLAIN_NUMBER, write_csv, write_html, write_xlsx
from bot.language import texts
from bot.language.i18n import words
from core.season import Result, read_season
from core.standings import standings_history
from tests.integration.conftest import EXAMPLES, ROOT
from tests.seasons import build

NL = words("nl")
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--window-size=412,900"]


def needs_browser(test: Callable[..., None]) -> Callable[..., None]:
    """A test in a real Chromium: in `-m slow` with the other real-browser runs."""
    return pytest.mark.slow(pytest.mark.skipif(
        CHROMIUM is None, reason="chromium is not installed (.ci/run installs it)")(test))


def browser(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    profile = tmp_path / "profile"
    return subprocess.run([CHROMIUM or "chromium", *FLAGS, f"--user-data-dir={profile}", *args],
                          capture_output=True, text=True, timeout=120, check=False)


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_the_html_export_is_the_club_pages_as_linked_files(tmp_path, path):
    season = read_season(path.read_text(encoding="utf-8"))
    pages = write_html(NL, season, tmp_path)
    names = {p.name for p in pages}
    assert names >= {"index.html", "kruistabel.html", "programma.html", "ronde-1.html",
                     *(f"speler-{p.id}.html" for p in season.players)}
    for page in pages:  # every link of the export names one of its files
        text = page.read_text(encoding="utf-8")
        assert "<script" not in text  # plain files, for any web host
        for link in re.findall(r'href="([^"]+)"', text):
            assert unquote(link) in names, (page.name, link)
    ranking = [row.player.name for row in standings_history(season)[-1].rows]
    index = (tmp_path / "index.html").read_text(encoding="utf-8")
    assert sorted(ranking, key=index.index) == ranking


@needs_browser
def test_html_export_renders_in_a_browser(tmp_path):
    """The standings as a browser reads the file: the ranking, in its order. One preset: the
    pages of all three come from the same templates, read above without a browser (and the
    layout at a phone's width is checked on the live pages: test_web_browser)."""
    season = read_season((ROOT / "examples" / "drie-groepen.json").read_text("utf-8"))
    site = tmp_path / "site"
    write_html(NL, season, site)
    ranking = [row.player.name for row in standings_history(season)[-1].rows]
    dom = browser(tmp_path, "--dump-dom", (site / "index.html").as_uri()).stdout
    assert "<table" in dom and sorted(ranking, key=dom.index) == ranking


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_csv_export_opens_as_data(tmp_path, path):
    season = read_season(path.read_text(encoding="utf-8"))
    files = {p.name: p for p in write_csv(NL, season, tmp_path)}
    # Excel knows UTF-8 by its byte-order mark: without it "½-½" opens as "Â½-Â½".
    assert all(f.read_bytes().startswith(b"\xef\xbb\xbf") for f in files.values())
    with files["stand.csv"].open(encoding="utf-8-sig") as handle:
        rows = list(csv.reader(handle, delimiter=";"))
    assert rows[0][:3] == ["Pos", "Naam", "Punten"]
    assert len(rows) - 1 == len(standings_history(season)[-1].rows)
    with files["partijen.csv"].open(encoding="utf-8-sig") as handle:
        games = list(csv.reader(handle, delimiter=";"))
    assert len(games) - 1 == sum(len(r.games) for r in season.rounds)


def test_the_chart_is_a_real_picture():
    season = read_season(EXAMPLES[0].read_text(encoding="utf-8"))
    history = standings_history(season)
    png = chart.race(season, history)
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    import matplotlib.image  # here: a test worker that runs no chart loads no matplotlib
    pixels = matplotlib.image.imread(io.BytesIO(png))
    assert pixels.shape[0] >= 800 and pixels.shape[1] >= 700  # readable on a phone
    colours = np.unique(np.round(pixels[..., :3], 1).reshape(-1, 3), axis=0)
    assert len(colours) > 20  # eight coloured lines, not a blank canvas
    mine = chart.race(season, history, [season.players[0].id])
    assert mine != png


def test_a_name_that_looks_like_a_formula_is_text_in_the_csv(tmp_path):
    """OWASP CSV injection: a cell starting with = + - @ (or a tab or CR) cannot run; numbers
    and scores stay numbers."""
    season = build("sliedrecht", "a:2000 b:1900 c:1800 d:1700",
                   ["a-b 1-0, c-d +-"])
    evil = '=HYPERLINK("http://x","klik")'
    season = replace(season, players=tuple(
        replace(p, name=evil) if p.id == "a" else replace(p, name="@SUM(1)") if p.id == "b"
        else p for p in season.players))
    files = {p.name: p for p in write_csv(NL, season, tmp_path)}
    cells = [cell for name in ("stand.csv", "partijen.csv", "kruistabel.csv")
             for row in csv.reader(files[name].open(encoding="utf-8-sig"), delimiter=";")
             for cell in row]
    assert "'" + evil in cells and "'@SUM(1)" in cells
    # A forfeit, in words.
    assert texts.RESULT_IN_A_FILE[Result.WHITE_BY_FORFEIT] in cells
    assert "regl" in cells and "afw" in cells
    assert not [c for c in cells if c.startswith("'") and c not in ("'" + evil, "'@SUM(1)")]
    assert not [c for c in cells if c and c[0] in "=+-@\t\r" and not PLAIN_NUMBER.fullmatch(c)]


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_round_pages_name_absences_in_dutch(tmp_path, path):
    season = read_season(path.read_text(encoding="utf-8"))
    pages = "".join(p.read_text(encoding="utf-8") for p in write_html(NL, season, tmp_path)
                    if p.name.startswith("ronde-"))
    assert texts.BOARD_AWAY in pages
    assert not re.search(r"\((notice|no_notice|arbiter|external)\)", pages)


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_the_workbook_holds_the_csv_sheets_with_numbers_as_numbers(tmp_path, path):
    """Issue 25: keizer.xlsx, beside the CSV, read back by openpyxl: the same cells, each
    number a number and each text a text."""
    from openpyxl import load_workbook

    season = read_season(path.read_text(encoding="utf-8"))
    [book_path] = write_xlsx(NL, season, tmp_path / "xlsx")
    book = load_workbook(book_path)
    assert book.sheetnames == ["stand", "partijen", "kruistabel"]
    for name, csv_path in ((n, p) for p in write_csv(NL, season, tmp_path / "csv")
                           for n in [p.stem]):
        with csv_path.open(encoding="utf-8-sig") as handle:
            rows = list(csv.reader(handle, delimiter=";"))
        cells = [[cell for cell in row] for row in book[name].iter_rows(values_only=True)]
        assert len(cells) == len(rows)
        for row, values in zip(rows, cells, strict=True):
            for text, value in zip(row, values, strict=False):
                if PLAIN_NUMBER.fullmatch(text):
                    assert isinstance(value, int | float) and \
                        value == float(text.replace(",", "."))
                else:
                    assert value == (text.removeprefix("'") or None)
    points = [row[2] for row in book["stand"].iter_rows(min_row=2, values_only=True)]
    assert points and all(isinstance(p, int | float) for p in points)


def test_a_name_that_looks_like_a_formula_is_text_in_the_workbook(tmp_path):
    from openpyxl import load_workbook

    season = build("sliedrecht", "a:2000 b:1900", ["a-b 1-0"])
    season = replace(season, players=tuple(replace(p, name="=1+1") if p.id == "a" else p
                                           for p in season.players))
    book = load_workbook(write_xlsx(NL, season, tmp_path)[0])
    kinds = {cell.value: cell.data_type for row in book["stand"].iter_rows() for cell in row}
    assert kinds["=1+1"] == "s"
