"""The `keizer-season/1` file: every kind of error caught and located; write(read(x)) == x."""

from __future__ import annotations

import copy
import json
from decimal import Decimal
from pathlib import Path

import pytest
from hypothesis import given

from core.errors import InvalidSeasonError, ProblemCode
from core.season import Result, read_season, season_from_data, season_to_json
from tests.seasons import as_data, season_data
from tests.strategies import seasons

EXAMPLES = sorted((Path(__file__).parents[2] / "examples").glob("*.json"))


def valid() -> dict:
    return season_data(
        "sliedrecht",
        [{"id": "a", "name": "Anna", "rating": 2000}, {"id": "b", "name": "Bert", "rating": 1900},
         {"id": "c", "name": "Cor", "rating": 1800}, {"id": "d", "name": "Dirk", "joined": 2}],
        ["a-b 1-0, c notice", "a-c 1/2-1/2, b-d 0-1"],
        planned_rounds=30,
    )


def problems_of(data) -> set[tuple[str, ProblemCode]]:
    with pytest.raises(InvalidSeasonError) as caught:
        season_from_data(data)
    return {(p.path, p.code) for p in caught.value.problems}


def test_the_valid_base_file_reads():
    season = season_from_data(valid())
    assert len(season.rounds) == 2 and season.rules.planned_rounds == 30


def _set(path, value):
    def change(data):
        target = data
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value
    return change


def _append(path, value):
    def change(data):
        target = data
        for key in path:
            target = target[key]
        target.append(value)
    return change


BROKEN = [
    # (what changes, the problem's place, its kind)
    (_set(["format"], "keizer-season/2"), "format", ProblemCode.BAD_VALUE),
    (_set(["colour"], "red"), "colour", ProblemCode.UNKNOWN_KEY),
    (_set(["rules"], "zwolle"), "rules.preset", ProblemCode.UNKNOWN_PRESET),
    (_set(["rules"], {"preset": "sliedrecht", "notice_cap": -1}), "rules.notice_cap",
     ProblemCode.OUT_OF_RANGE),
    (_set(["rules"], {"preset": "sliedrecht", "bonus": 2}), "rules.bonus",
     ProblemCode.UNKNOWN_KEY),
    (_set(["rules"], {"preset": "sliedrecht", "planned_rounds": 20}), "planned_rounds",
     ProblemCode.CONFLICT),
    (_set(["players", 1, "id"], "a"), "players[1].id", ProblemCode.DUPLICATE_PLAYER_ID),
    (_set(["players", 0, "rating"], "hoog"), "players[0].rating", ProblemCode.WRONG_TYPE),
    (_set(["players", 0, "club"], "x"), "players[0].club", ProblemCode.UNKNOWN_KEY),
    (_set(["players", 0, "flexible"], "ja"), "players[0].flexible", ProblemCode.WRONG_TYPE),
    (_set(["rules"], {"preset": "sliedrecht", "flexible_absent": "bye"}),
     "rules.flexible_absent", ProblemCode.BAD_VALUE),
    (_set(["players", 3, "withdrawn"], 1), "players[3].withdrawn", ProblemCode.OUT_OF_RANGE),
    (_set(["initial_ranking"], ["a", "b", "c", "x"]), "initial_ranking[3]",
     ProblemCode.UNKNOWN_PLAYER),
    (_set(["initial_ranking"], ["a", "b", "c", "d"]), "initial_ranking[3]",
     ProblemCode.PLAYER_NOT_ACTIVE),
    (_set(["rounds", 1, "round"], 3), "rounds[1].round", ProblemCode.ROUND_ORDER),
    (_set(["rounds", 1, "date"], "3 sept"), "rounds[1].date", ProblemCode.BAD_VALUE),
    (_set(["rounds", 1, "games", 0, "result"], "2-0"), "rounds[1].games[0].result",
     ProblemCode.BAD_RESULT),
    (_set(["rounds", 1, "games", 0, "white"], "zz"), "rounds[1].games[0].white",
     ProblemCode.UNKNOWN_PLAYER),
    (_set(["rounds", 1, "games", 0, "black"], "a"), "rounds[1].games[0]",
     ProblemCode.SELF_PAIRED),
    (_append(["rounds", 1, "absent"], {"player": "a", "reason": "notice"}), "rounds[1]",
     ProblemCode.PLAYER_TWICE),
    (_set(["rounds", 0, "absent"], []), "rounds[0]", ProblemCode.PLAYER_MISSING),
    (_append(["rounds", 0, "absent"], {"player": "d", "reason": "notice"}), "rounds[0]",
     ProblemCode.PLAYER_NOT_ACTIVE),
    (_set(["rounds", 0, "absent", 0, "reason"], "ziek"), "rounds[0].absent[0].reason",
     ProblemCode.BAD_VALUE),
    (_set(["rounds", 0, "absent", 0, "reason"], "external"), "rounds[0].absent[0].day",
     ProblemCode.BAD_VALUE),
    (_set(["rounds", 0, "absent", 0, "day"], "club_night"), "rounds[0].absent[0].day",
     ProblemCode.UNKNOWN_KEY),
    (_set(["rounds", 0, "games"], []), "rounds[0].games", ProblemCode.ROUND_ORDER),
    (_set(["players"], {}), "players", ProblemCode.WRONG_TYPE),
]


@pytest.mark.parametrize(("change", "path", "code"), BROKEN,
                         ids=[f"{p}:{c.value}" for _, p, c in BROKEN])
def test_each_kind_of_error_is_caught_and_located(change, path, code):
    data = valid()
    change(data)
    assert (path, code) in problems_of(data)


def test_team_valued_external_may_wait_for_its_result_but_needs_a_known_team():
    data = season_data("drie-groepen", "a:2000 b:1900 c:1800",
                       ["a external club_night, b-c 1-0"])
    season = season_from_data(data)
    assert season.rounds[0].absent[0].result is None
    data = season_data("drie-groepen", "a:2000 b:1900 c:1800",
                       ["a external club_night 7 1, b-c 1-0"])
    assert ("rounds[0].absent[0].team", ProblemCode.BAD_VALUE) in problems_of(data)


def test_all_problems_are_reported_at_once():
    """Changes in different places of one file: every one of them is reported, each at its
    place, in one go."""
    apart = [b for b in BROKEN if b[1] in ("format", "colour", "rules.notice_cap",
                                          "players[0].club", "rounds[1].date",
                                          "rounds[1].games[0].result")]
    data = valid()
    for change, _, _ in apart:
        change(data)
    assert problems_of(data) == {(place, kind) for _, place, kind in apart}


def test_not_json_says_where():
    with pytest.raises(InvalidSeasonError) as caught:
        read_season('{"format": "keizer-season/1",\n  "rules": }')
    (problem,) = caught.value.problems
    assert problem.code is ProblemCode.NOT_JSON and problem.facts["line"] == "2"


def test_results_accept_the_spellings_players_type():
    assert Result.parse("½-½") is Result.DRAW
    assert str(Result.DRAW) == "½-½"
    data = valid()
    data["rounds"][1]["games"][0]["result"] = "½-½"
    season = season_from_data(data)
    assert season.rounds[1].games[0].result is Result.DRAW


def test_a_round_waiting_to_be_paired_lists_only_the_absent():
    data = valid()
    data["rounds"].append({"round": 3, "absent": [{"player": "b", "reason": "notice"}]})
    season = season_from_data(data)
    assert not season.rounds[2].is_paired and season.complete_rounds == 2


def _roundtrip(data):
    text = json.dumps(data, default=str)
    return json.loads(season_to_json(read_season(text)), parse_float=Decimal)


def test_write_read_roundtrip_of_a_handmade_file():
    data = json.loads(json.dumps(valid()), parse_float=Decimal)
    assert _roundtrip(data) == data


def test_a_flexible_member_is_kept_and_written_only_when_he_is_one():
    data = json.loads(json.dumps(valid()), parse_float=Decimal)
    data["players"][0]["flexible"] = True
    season = season_from_data(data)
    assert [p.flexible for p in season.players][:2] == [True, False]
    assert _roundtrip(data) == data
    assert '"flexible"' not in season_to_json(season_from_data(valid()))


def test_decimals_in_rules_are_written_as_they_were_read():
    data = valid()
    data["rules"] = {"preset": "sliedrecht", "compensation": {"notice": Decimal("0.333")}}
    text = season_to_json(season_from_data(copy.deepcopy(data)))
    assert '"notice": 0.333' in text


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.stem for p in EXAMPLES])
def test_examples_roundtrip(path):
    text = path.read_text(encoding="utf-8")
    assert season_to_json(read_season(text)) == text


def test_there_is_an_example_per_preset():
    presets = {json.loads(p.read_text())["rules"] if isinstance(json.loads(p.read_text())["rules"],
                                                                 str)
               else json.loads(p.read_text())["rules"]["preset"] for p in EXAMPLES}
    assert presets == {"sliedrecht", "drie-groepen", "drie-cycli"}


@given(seasons())
def test_roundtrip_of_random_seasons(season):
    data = as_data(season)
    assert as_data(season_from_data(data)) == data


def test_a_partial_initial_ranking_puts_the_listed_first_and_the_rest_by_rating():
    """Last season's players only: they come first in the listed order, the newcomers after
    them by rating high to low, then name, unrated last (the season format's default)."""
    data = season_data("sliedrecht", [
        {"id": "a", "name": "Anna", "rating": 1500}, {"id": "b", "name": "Bert"},
        {"id": "c", "name": "Cor", "rating": 1800}, {"id": "e", "name": "Els", "rating": 1800},
        {"id": "f", "name": "Fred", "rating": 2100}], [])
    data["initial_ranking"] = ["c", "a"]
    season = season_from_data(data)
    assert season.starting_order() == ("c", "a", "f", "e", "b")
    assert json.loads(season_to_json(season))["initial_ranking"] == ["c", "a"]
