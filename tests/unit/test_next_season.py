"""Issue 15: the next season from this one."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.errors import InvalidInputError
from core.next_season import next_name, next_season
from core.season import read_season, season_from_data, season_to_data, season_to_json
from core.standings import compute_standings

EXAMPLES = sorted((Path(__file__).resolve().parents[2] / "examples").glob("*.json"))


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_the_members_who_stay_start_as_the_season_ended(path):
    old = read_season(path.read_text(encoding="utf-8"))
    new = next_season(old)
    staying = [p for p in old.players if p.withdrawn is None]
    assert [p.id for p in new.players] == [p.id for p in staying]
    assert all(p.joined == 1 and p.withdrawn is None for p in new.players)
    final = [pid for pid in compute_standings(old).ranking if pid in {p.id for p in staying}]
    assert new.initial_ranking is not None and list(new.initial_ranking[:len(final)]) == final
    assert new.rounds == () and new.rules_source == old.rules_source and new.club == old.club
    again = read_season(season_to_json(new))  # a valid season file
    assert again.starting_order() == new.initial_ranking
    assert compute_standings(again).ranking == new.initial_ranking


def test_the_name_counts_on_a_year_or_is_given():
    assert next_name("2026-2027") == "2027-2028"
    assert next_name("2026/2027") == "2027/2028"
    assert next_name("najaar") is None
    old = read_season(EXAMPLES[0].read_text(encoding="utf-8"))
    assert next_season(old, "voorjaar 2027").name == "voorjaar 2027"
    with pytest.raises(InvalidInputError):
        next_season(season_from_data({**season_to_data(old), "season": "najaar"}))
