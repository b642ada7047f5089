"""The next season from this one: the same club and rules, the members who stay, ranked at
the start as this season ended; no rounds."""

from __future__ import annotations

import re
from dataclasses import replace

from core.errors import InvalidInputError, ProblemCode, Problems
from core.season import Season
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
