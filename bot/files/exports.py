"""What a club puts on its website: static HTML pages (the live site's pages, as files) and
CSV files for spreadsheets. Plain files, no scripts, readable on a phone."""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from bot.files import tables
from bot.language import texts
from bot.language.i18n import Words
from core.results import NONE_UNSETTLED, UnsettledResults
from core.season import Season
from core.standings import compute_standings

if TYPE_CHECKING:
    from storage.roster import Member


def standings_rows(w: Words, season: Season, after: int) -> tuple[list[str], list[list[str]]]:
    standings = compute_standings(season, after)
    return list(w(texts.STANDINGS_COLUMNS)), tables.standings_cells(w, standings,
                                                                    season.rules.display_decimals)


def round_rows(w: Words, season: Season, number: int, unsettled: UnsettledResults = NONE_UNSETTLED
               ) -> tuple[list[str], list[list[str]]]:
    rnd = season.round(number)
    names = {p.id: p.name for p in season.players}
    rows = [[str(k), names[g.white], names[g.black], tables.game_result(w,
        g, number, unsettled, lambda r: w(texts.RESULT_IN_A_FILE).get(r, str(r)))]
            for k, g in enumerate(rnd.games, start=1)]
    return list(w(texts.WEB_GAME_COLUMNS)), rows


def write_html(w: Words, season: Season, directory: Path,
               unsettled: UnsettledResults = NONE_UNSETTLED) -> list[Path]:
    """The club's pages as files (`bot.web.pages`, the live site's templates): index.html
    (standings), ronde-N.html, kruistabel.html, programma.html, speler-ID.html for each
    player, groepen.html where the rules have groups."""
    from bot.web.pages import Site

    directory.mkdir(parents=True, exist_ok=True)
    site = Site(season, w, unsettled=unsettled)
    pages: dict[str, str | None] = {"index.html": site.index(),
                                    "kruistabel.html": site.crosstable(),
                                    "programma.html": site.schedule(),
                                    "groepen.html": site.groups()}
    pages.update({site.links.file("ronde", n): site.round(n) for n in site.paired})
    pages.update({site.links.file("speler", p.id): site.player(p.id) for p in season.players})
    written = []
    for name, content in pages.items():
        if content is None:
            continue
        path = directory / name
        path.write_text(content, encoding="utf-8")
        written.append(path)
    return written


def sheets(w: Words, season: Season, unsettled: UnsettledResults = NONE_UNSETTLED
           ) -> dict[str, list[list[str]]]:
    """The standings, every game and the cross table, as rows of text: what the CSV files
    and the workbook hold."""
    played = season.complete_rounds
    games = [[w(texts.WEB_ROUND_COLUMN), *round_rows(w, season, 1)[0]]] if season.rounds \
        else [[w(texts.WEB_ROUND_COLUMN)]]
    for rnd in season.rounds:
        if rnd.is_paired:
            games += [[str(rnd.number), *row]
                      for row in round_rows(w, season, rnd.number, unsettled)[1]]
    header, rows = standings_rows(w, season, played)
    cross = tables.crosstable(w, compute_standings(season, played), season.rules.display_decimals)
    return {"stand": [header, *rows], "partijen": games, "kruistabel": [cross[0], *cross[1]]}


def write_csv(w: Words, season: Season, directory: Path,
              unsettled: UnsettledResults = NONE_UNSETTLED) -> list[Path]:
    """stand.csv, partijen.csv (every game), kruistabel.csv; `;`-separated, as Dutch
    spreadsheets expect, and UTF-8 with the byte-order mark by which Excel knows it (without
    it, `½-½` opens as `Â½-Â½`)."""
    directory.mkdir(parents=True, exist_ok=True)
    written = []
    for name, content in sheets(w, season, unsettled).items():
        path = directory / f"{name}.csv"
        with path.open("w", encoding="utf-8-sig", newline="") as handle:
            csv.writer(handle, delimiter=";").writerows(
                [[spreadsheet_safe(str(cell)) for cell in row] for row in content])
        written.append(path)
    return written


WORKBOOK = "keizer.xlsx"


def write_xlsx(w: Words, season: Season, directory: Path,
               unsettled: UnsettledResults = NONE_UNSETTLED) -> list[Path]:
    """keizer.xlsx: the CSV files' sheets in one workbook, numbers as numbers (`12,5` is the
    number 12.5, which the spreadsheet shows in its own way) and every text as text, never a
    formula."""
    from openpyxl import Workbook  # only for this export
    from openpyxl.cell import WriteOnlyCell

    directory.mkdir(parents=True, exist_ok=True)
    book = Workbook(write_only=True)
    for name, content in sheets(w, season, unsettled).items():
        sheet = book.create_sheet(name)
        sheet.freeze_panes = "A2"
        for row in content:
            cells = []
            for text in row:
                cell = WriteOnlyCell(sheet, value=_number(text))
                if isinstance(cell.value, str):
                    cell.data_type = "s"  # openpyxl takes a text starting with `=` as formula
                cells.append(cell)
            sheet.append(cells)
    path = directory / WORKBOOK
    book.save(path)
    return [path]


def _number(cell: str) -> str | int | float:
    if not PLAIN_NUMBER.fullmatch(cell):
        return cell
    plain = cell.replace(",", ".")
    return float(plain) if "." in plain else int(plain)


FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
PLAIN_NUMBER = re.compile(r"[+-]?[0-9]+([.,][0-9]+)?")


def spreadsheet_safe(cell: str) -> str:
    """A cell a spreadsheet cannot run as a formula (OWASP, CSV injection): text that starts
    like one gets a leading apostrophe, which spreadsheets show as plain text. A number stays
    a number."""
    if cell.startswith(FORMULA_START) and not PLAIN_NUMBER.fullmatch(cell):
        return "'" + cell
    return cell


def members_csv(w: Words, everyone: Sequence[Member]) -> bytes:
    """The members as a spreadsheet opens them: name, linked, flexible (yes or no in the
    reader's words)."""
    out = io.StringIO()
    table = csv.writer(out)
    table.writerow(w(texts.SPELERS_COLUMNS))
    yes, no = w(texts.YES_NO)
    for m in everyone:
        table.writerow([m.name, yes if m.telegram_id is not None else no,
                        yes if m.flexible else no])
    return out.getvalue().encode("utf-8-sig")  # a spreadsheet reads the accents right
