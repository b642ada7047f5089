"""A season to begin with: the next one from this (the same club and rules, the members who
stay, ranked at the start as this season ended), or a club's first from a list of its
members' names; no rounds."""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import replace

from core.errors import InvalidInputError, ProblemCode, Problems
from core.season import Season, season_from_data
from core.standings import compute_standings, insert_by_rating

_YEARS = re.compile(r"^(\d{4})([-/])(\d{4})$")


def next_name(name: str) -> str | None:
    """`2026-2027` → `2027-2028`; None for a name that does not count in years."""
    found = _YEARS.match(name.strip())
    if found is None:
        return None
    first, sep, second = found.groups()
    return f"{int(first) + 1}{sep}{int(second) + 1}"


def next_season(season: Season, name: str | None = None) -> Season:
    """Members who have not withdrawn play from round 1, in the order of the final
    standings; a member the standings do not rank (he never played) goes in by rating.
    Raises InvalidInputError when the name is not given and cannot be derived."""
    new_name = name or next_name(season.name)
    if not new_name:
        problems = Problems()
        problems.add("season", ProblemCode.BAD_VALUE, value=season.name,
                     expected="2026-2027")
        raise InvalidInputError(problems.items)
    staying = tuple(replace(p, joined=1, withdrawn=None) for p in season.players
                    if p.withdrawn is None)
    ids = {p.id for p in staying}
    ranked = [pid for pid in compute_standings(season).ranking if pid in ids]
    unranked = [p for p in staying if p.id not in ranked]
    ranking = insert_by_rating(ranked, unranked, lambda pid: next(
        (p.rating for p in staying if p.id == pid), None))
    return replace(season, name=new_name, players=staying, rounds=(),
                   initial_ranking=tuple(ranking))


def season_of(day: dt.date) -> str:
    """The name of the season `day` falls in: a club's season starts after the summer."""
    first = day.year if day.month >= 8 else day.year - 1
    return f"{first}-{first + 1}"


_MEMBER = re.compile(r"^(?P<name>.*?[^\W\d_].*?)(?:\s*[,;\t]\s*(?P<rating>\d{3,4}))?\s*$")


def first_season(members: str, *, club: str, name: str, rules: str) -> Season:
    """A club's first season from its members, one a line: a name, and after a comma, a
    semicolon or a tab his rating where he has one (a list typed by hand, or a column copied
    from a spreadsheet). Blank lines and lines starting with `#` are passed over. Raises
    InvalidInputError naming each line that holds no name, and anything the season file
    refuses (an unknown `rules` preset)."""
    problems = Problems()
    players: list[dict[str, object]] = []
    for number, line in enumerate(members.splitlines(), start=1):
        text = line.strip()
        if not text or text.startswith("#"):
            continue
        found = _MEMBER.match(text)
        if found is None:
            problems.add("", ProblemCode.NOT_A_NAME, line=number, value=text)
            continue
        initials = "".join(word[0] for word in found["name"].split() if word[0].isalpha())
        players.append({"id": f"{initials.lower()}{len(players)}", "name": found["name"],
                        **({"rating": int(found["rating"])} if found["rating"] else {})})
    if not players and not problems.items:
        problems.add("players", ProblemCode.MISSING_KEY, key="players")
    if problems.items:
        raise InvalidInputError(problems.items)
    return season_from_data({"format": "keizer-season/1", "club": club, "season": name,
                             "rules": rules, "players": players, "rounds": []})
