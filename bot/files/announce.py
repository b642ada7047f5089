"""Titles and group tables in words and tables, from core.titles: what the group is told
when a round decided them, and the tables `/stand periode|groep` shows."""

from __future__ import annotations

import functools
from fractions import Fraction

from bot.files import tables
from bot.language import texts
from bot.language.i18n import Words
from bot.language.notice import Composed, Lines, Pre, Said, Text
from core.numbers import format_number
from core.season import Season
from core.standings import compute_standings
from core.titles import Announcement, PeriodGroups, Subgroups


def _names(season: Season, players: tuple[str, ...] | list[str]) -> Said:
    if not players:
        return Text("NOBODY")
    return Lines(tuple(season.player(p).name for p in players), ", ")


def _points(w: Words, value: Fraction) -> str:
    return w.number(value, 1).removesuffix(",0").removesuffix(".0")


def _said_points(value: Fraction) -> Composed:
    """Points in the reader's words; a value the standings worker can hand over (pickled)."""
    return Composed(functools.partial(_points_of, value))


def _points_of(value: Fraction, w: Words) -> str:
    return _points(w, value)


def announcement(season: Season, item: Announcement) -> Said:
    rules = season.rules
    if item.champion is not None:
        return Text("CHAMPION", {"name": season.player(item.champion).name})
    if item.playoff is not None:
        play = item.playoff
        margin = format_number(play.margin, 0)
        if play.is_match:
            a, b = (season.player(p).name for p in play.players)
            return Text("PLAYOFF_MATCH", {"a": a, "b": b, "margin": margin,
                                          "tempo": rules.playoff_time_control})
        games = Lines(tuple(Lines((season.player(a).name, season.player(b).name), " – ")
                            for a, b in play.games))
        return Text("PLAYOFF_ROUND_ROBIN", {"names": _names(season, play.players),
                                            "margin": margin,
                                            "tempo": rules.playoff_time_control,
                                            "games": games})
    if item.period is not None:
        return Lines((Text("PERIOD_DONE", {"period": item.period.period}), *(
            Text("PERIOD_GROUP_LINE", {"group": k, "name": season.player(table[0].player).name,
                                       "points": _said_points(table[0].points)})
            for k, table in enumerate(item.period.tables, start=1) if table)))
    assert item.subgroups is not None
    return subgroup_news(season, item.subgroups, item.round)


def subgroup_news(season: Season, prizes: Subgroups, round_no: int) -> Text:
    if round_no < season.rules.planned_rounds and prizes.mid_prizes is not None:
        return Text("MID_SEASON", {"g1": _names(season, prizes.mid_prizes[0]),
                                   "g2": _names(season, prizes.mid_prizes[1]),
                                   "up": _names(season, prizes.promoted),
                                   "down": _names(season, prizes.relegated)})
    assert prizes.end_prizes is not None and prizes.overall is not None
    return Text("SEASON_PRIZES", {"g1": _names(season, prizes.end_prizes[0]),
                                  "g2": _names(season, prizes.end_prizes[1]),
                                  "overall": _names(season, prizes.overall)})


def period_tables(season: Season, groups: PeriodGroups) -> Composed:
    return Composed(lambda w: _period_tables(w, season, groups))


def _period_tables(w: Words, season: Season, groups: PeriodGroups) -> Lines:
    parts = []
    for k, table in enumerate(groups.tables, start=1):
        rows = [[str(n), season.player(line.player).name, _points(w, line.points),
                 str(line.missed)] for n, line in enumerate(table, start=1)]
        parts.append(Pre(tables.table(w(texts.PERIOD_COLUMNS), rows), Text(
            "PERIOD_TABLE_TITLE", {
            "period": groups.period, "first": groups.first_round, "last": groups.last_round,
            "group": k})))
    return Lines(tuple(parts))


def subgroup_tables(season: Season, prizes: Subgroups) -> Composed:
    """The Keizer standings inside each group as it stands now."""
    return Composed(lambda w: _subgroup_tables(w, season, prizes))


def _subgroup_tables(w: Words, season: Season, prizes: Subgroups) -> Lines:
    standings = compute_standings(season)
    groups = prizes.second_half if season.complete_rounds >= prizes.half else prizes.first_half
    decimals = season.rules.display_decimals
    parts = []
    for k, members in enumerate(groups, start=1):
        rows = [[str(n), r.player.name, w.number(r.score, decimals)]
                for n, r in enumerate((r for r in standings.rows if r.id in members), start=1)]
        parts.append(Pre(tables.table(w(texts.GROUP_COLUMNS), rows),
                         Text("SUBGROUP_TITLE", {"group": k})))
    return Lines(tuple(parts))
