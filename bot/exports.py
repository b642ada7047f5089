"""What a club puts on its website: static HTML pages (standings, each round, the cross table)
and CSV files for spreadsheets. Plain files, no scripts, readable on a phone."""

from __future__ import annotations

import csv
import html
import re
from collections.abc import Sequence
from pathlib import Path

from bot import tables, texts
from core.season import Season
from core.standings import compute_standings

STYLE = """
body{font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;margin:0;padding:1rem;
color:#1d1d1f;background:#fff}
h1{font-size:1.4rem;margin:.2rem 0}h2{font-size:1.1rem;margin:1.2rem 0 .4rem}
nav a{margin-right:.8rem;white-space:nowrap}nav{margin:.5rem 0 1rem;line-height:2}
.wrap{overflow-x:auto;-webkit-overflow-scrolling:touch}
table{border-collapse:collapse;font-size:.95rem;white-space:nowrap}
th,td{padding:.3rem .55rem;border-bottom:1px solid #e3e3e6;text-align:right}
th{background:#f3f3f6;position:sticky;top:0}
td.name,th.name{text-align:left}tbody tr:nth-child(even){background:#fafafc}
.note{color:#555;font-size:.85rem}
"""


def _page(title: str, season: Season, body: str, rounds: int) -> str:
    links = [f'<a href="index.html">{texts.WEB_STANDINGS}</a>',
             f'<a href="kruistabel.html">{texts.WEB_CROSSTABLE}</a>']
    links += [f'<a href="ronde-{r}.html">{texts.WEB_ROUND.format(round=r)}</a>'
              for r in range(1, rounds + 1)]
    return (f'<!doctype html><html lang="nl"><head><meta charset="utf-8">'
            f'<meta name="viewport" content="width=device-width,initial-scale=1">'
            f"<title>{html.escape(title)}</title><style>{STYLE}</style></head><body>"
            f"<h1>{html.escape(season.club)}</h1><div class=note>{html.escape(season.name)}"
            f"</div><nav>{' '.join(links)}</nav><h2>{html.escape(title)}</h2>{body}"
            f"</body></html>\n")


def _table(header: Sequence[str], rows: Sequence[Sequence[str]],
           names: frozenset[int] = frozenset({1})) -> str:
    def cells(tag: str, values: Sequence[str]) -> str:
        return "".join(f'<{tag}{" class=name" if k in names else ""}>{html.escape(v)}</{tag}>'
                       for k, v in enumerate(values))
    body = "".join(f"<tr>{cells('td', r)}</tr>" for r in rows)
    return f"<div class=wrap><table><thead><tr>{cells('th', header)}</tr></thead>" \
           f"<tbody>{body}</tbody></table></div>"


def standings_rows(season: Season, after: int) -> tuple[list[str], list[list[str]]]:
    standings = compute_standings(season, after)
    return list(texts.STANDINGS_COLUMNS), tables.standings_cells(standings,
                                                                 season.rules.display_decimals)


def round_rows(season: Season, number: int) -> tuple[list[str], list[list[str]]]:
    rnd = season.round(number)
    names = {p.id: p.name for p in season.players}
    rows = [[str(k), names[g.white], names[g.black], "" if g.result is None else str(g.result)]
            for k, g in enumerate(rnd.games, start=1)]
    return list(texts.WEB_GAME_COLUMNS), rows


def write_html(season: Season, directory: Path) -> list[Path]:
    """index.html (standings), ronde-N.html (each round), kruistabel.html."""
    directory.mkdir(parents=True, exist_ok=True)
    played = season.complete_rounds
    shown = len([r for r in season.rounds if r.is_paired])
    pages: dict[str, str] = {}
    title = texts.STANDINGS_TITLE.format(round=played) if played else texts.STANDINGS_START
    header, rows = standings_rows(season, played)
    pages["index.html"] = _page(title, season, _table(header, rows), shown)
    for number in range(1, shown + 1):
        header, rows = round_rows(season, number)
        rnd = season.round(number)
        absent = ", ".join(f"{html.escape(season.player(a.player).name)} "
                           f"({texts.KIND_LABELS[a.kind]})" for a in rnd.absent)
        date = f"<p class=note>{rnd.date.isoformat()}</p>" if rnd.date else ""
        body = date + _table(header, rows, frozenset({1, 2})) + \
            (f"<p class=note>{texts.WEB_NOT_PAIRED.format(names=absent)}</p>" if absent else "")
        pages[f"ronde-{number}.html"] = _page(texts.PAIRING_TITLE.format(round=number), season,
                                              body, shown)
    header, rows = tables.crosstable(compute_standings(season, played),
                                     season.rules.display_decimals)
    legend = f"<p class=note>{texts.WEB_CROSSTABLE_LEGEND}</p>"
    pages["kruistabel.html"] = _page(texts.WEB_CROSSTABLE, season,
                                     legend + _table(header, rows), shown)
    written = []
    for name, content in pages.items():
        path = directory / name
        path.write_text(content, encoding="utf-8")
        written.append(path)
    return written


def write_csv(season: Season, directory: Path) -> list[Path]:
    """stand.csv, partijen.csv (every game), kruistabel.csv; `;`-separated, as Dutch
    spreadsheets expect."""
    directory.mkdir(parents=True, exist_ok=True)
    played = season.complete_rounds
    games = [[texts.WEB_ROUND_COLUMN, *round_rows(season, 1)[0]]] if season.rounds \
        else [[texts.WEB_ROUND_COLUMN]]
    for rnd in season.rounds:
        if rnd.is_paired:
            games += [[str(rnd.number), *row] for row in round_rows(season, rnd.number)[1]]
    header, rows = standings_rows(season, played)
    cross = tables.crosstable(compute_standings(season, played), season.rules.display_decimals)
    files = {"stand.csv": [header, *rows], "partijen.csv": games,
             "kruistabel.csv": [cross[0], *cross[1]]}
    written = []
    for name, content in files.items():
        path = directory / name
        with path.open("w", encoding="utf-8", newline="") as handle:
            csv.writer(handle, delimiter=";").writerows(
                [[spreadsheet_safe(str(cell)) for cell in row] for row in content])
        written.append(path)
    return written


FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
PLAIN_NUMBER = re.compile(r"[+-]?[0-9]+([.,][0-9]+)?")


def spreadsheet_safe(cell: str) -> str:
    """A cell a spreadsheet cannot run as a formula (OWASP, CSV injection): text that starts
    like one gets a leading apostrophe, which spreadsheets show as plain text. A number stays
    a number."""
    if cell.startswith(FORMULA_START) and not PLAIN_NUMBER.fullmatch(cell):
        return "'" + cell
    return cell
