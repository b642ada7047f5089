"""Titles and group tables in words and tables (Dutch), from core.titles."""

from __future__ import annotations

from fractions import Fraction

from bot.files import tables
from bot.language import texts
from bot.language.formatting import esc
from bot.language.i18n import number
from core.numbers import format_number
from core.season import Season
from core.standings import compute_standings
from core.titles import Announcement, PeriodGroups, Subgroups


def _names(season: Season, players: tuple[str, ...] | list[str]) -> str:
    return ", ".join(esc(season.player(p).name) for p in players) or texts.NOBODY


def _points(value: Fraction) -> str:
    return number(value, 1).removesuffix(",0").removesuffix(".0")


def announcement(season: Season, item: Announcement) -> str:
    rules = season.rules
    if item.champion is not None:
        return texts.CHAMPION.format(name=esc(season.player(item.champion).name))
    if item.playoff is not None:
        play = item.playoff
        margin = format_number(play.margin, 0)
        if play.is_match:
            a, b = (esc(season.player(p).name) for p in play.players)
            return texts.PLAYOFF_MATCH.format(a=a, b=b, margin=margin,
                                              tempo=rules.playoff_time_control)
        games = "\n".join(f"{esc(season.player(w).name)} – {esc(season.player(b).name)}"
                          for w, b in play.games)
        return texts.PLAYOFF_ROUND_ROBIN.format(names=_names(season, play.players),
                                                margin=margin, tempo=rules.playoff_time_control,
                                                games=games)
    if item.period is not None:
        lines = [texts.PERIOD_DONE.format(period=item.period.period)]
        for k, table in enumerate(item.period.tables, start=1):
            if table:
                lines.append(texts.PERIOD_GROUP_LINE.format(
                    group=k, name=esc(season.player(table[0].player).name),
                    points=_points(table[0].points)))
        return "\n".join(lines)
    assert item.subgroups is not None
    return subgroup_news(season, item.subgroups, item.round)


def subgroup_news(season: Season, prizes: Subgroups, round_no: int) -> str:
    if round_no < season.rules.planned_rounds and prizes.mid_prizes is not None:
        return texts.MID_SEASON.format(g1=_names(season, prizes.mid_prizes[0]),
                                       g2=_names(season, prizes.mid_prizes[1]),
                                       up=_names(season, prizes.promoted),
                                       down=_names(season, prizes.relegated))
    assert prizes.end_prizes is not None and prizes.overall is not None
    return texts.SEASON_PRIZES.format(g1=_names(season, prizes.end_prizes[0]),
                                      g2=_names(season, prizes.end_prizes[1]),
                                      overall=_names(season, prizes.overall))


def period_tables(season: Season, groups: PeriodGroups) -> str:
    parts = []
    for k, table in enumerate(groups.tables, start=1):
        rows = [[str(n), season.player(line.player).name, _points(line.points),
                 str(line.missed)] for n, line in enumerate(table, start=1)]
        title = texts.PERIOD_TABLE_TITLE.format(period=groups.period, first=groups.first_round,
                                                last=groups.last_round, group=k)
        parts.append(f"<b>{esc(title)}</b>\n<pre>{esc(tables.table(texts.PERIOD_COLUMNS, rows))}"
                     "</pre>")
    return "\n".join(parts)


def subgroup_tables(season: Season, prizes: Subgroups) -> str:
    """The Keizer standings inside each group as it stands now."""
    standings = compute_standings(season)
    groups = prizes.second_half if season.complete_rounds >= prizes.half else prizes.first_half
    decimals = season.rules.display_decimals
    parts = []
    for k, members in enumerate(groups, start=1):
        rows = [[str(n), r.player.name, number(r.score, decimals)]
                for n, r in enumerate((r for r in standings.rows if r.id in members), start=1)]
        parts.append(f"<b>{texts.SUBGROUP_TITLE.format(group=k)}</b>\n"
                     f"<pre>{esc(tables.table(texts.GROUP_COLUMNS, rows))}</pre>")
    return "\n".join(parts)
