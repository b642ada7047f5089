"""The rules model: presets as the rulebooks say, overrides, exact decimals, located errors."""

from __future__ import annotations

from fractions import Fraction as F

import pytest

from core.errors import InvalidRulesError, ProblemCode
from core.rules import (
    PARAMETERS,
    PRESETS,
    CompensationKind,
    Fade,
    Ladder,
    TopException,
    Weekday,
    rules_from_source,
    rules_from_toml,
    rules_to_mapping,
)


def test_presets_follow_the_rulebooks():
    sl, dg, dc = PRESETS["sliedrecht"], PRESETS["drie-groepen"], PRESETS["drie-cycli"]
    assert sl.top_value.resolve(40) == 60  # "bij 40 deelnemers: de nummer 1 ... 60 punten"
    assert sl.compensation[CompensationKind.NOTICE] == F(33, 100)
    assert sl.notice_cap == 10 and sl.late_join_counts_to_cap
    assert sl.max_rank_distance == 12 and sl.max_meetings == 2 and sl.per_period == 1
    assert sl.top_exception == TopException(from_round=16, top=10)
    assert sl.rounds_per_period == 15 and sl.club_night is Weekday.THURSDAY
    assert dg.compensation[CompensationKind.NOTICE] == F(1, 3)
    assert dg.team_award(1, F(1)) == 57 and dg.team_award(3, F(0)) == 14
    assert dg.min_rounds_between == 2 and dg.club_night is Weekday.MONDAY
    assert dc.start_bonus == 3 and dc.start_bonus_fade is Fade.LINEAR
    assert dc.compensation[CompensationKind.BYE] == 1
    assert dc.compensation[CompensationKind.EXTERNAL_CLUB_NIGHT] == F(7, 10)
    assert dc.planned_rounds == 27 and dc.rounds_per_period == 9 and dc.max_meetings == 3


def test_periods_of_unequal_length_make_the_last_shorter():
    rules = rules_from_source({"preset": "drie-groepen", "planned_rounds": 29})
    assert rules.rounds_per_period == 15
    assert [rules.period_of(r) for r in (1, 15, 16, 29)] == [1, 1, 2, 2]


def test_top_value_per_player_rounds_half_up():
    rules = rules_from_source({"preset": "sliedrecht", "top_value": "1.5n"})
    assert rules.top_value.resolve(41) == 62  # 61.5 -> 62
    assert rules_from_source({"preset": "sliedrecht", "top_value": 75}).top_value.resolve(41) \
        == 75


def test_nested_tables_merge_key_by_key():
    rules = rules_from_source({"preset": "sliedrecht", "compensation": {"bye": "2/3"},
                               "top_exception": {"from_round": 10}})
    assert rules.compensation[CompensationKind.BYE] == F(2, 3)
    assert rules.compensation[CompensationKind.NOTICE] == F(33, 100)
    assert rules.top_exception == TopException(from_round=10, top=10)


def test_toml_decimals_are_exact():
    rules = rules_from_toml('preset = "drie-cycli"\nladder = "spread"\nbottom_value = 10\n'
                            '[compensation]\nnotice = 0.333\nexternal_club_night = "team"\n'
                            '[team_table]\n1 = [50, 25, 10]\n')
    assert rules.compensation[CompensationKind.NOTICE] == F(333, 1000)
    assert CompensationKind.EXTERNAL_CLUB_NIGHT in rules.team_valued
    assert rules.ladder is Ladder.SPREAD and rules.team_award(1, F(1, 2)) == 25


def test_every_problem_is_named_with_its_place():
    with pytest.raises(InvalidRulesError) as caught:
        rules_from_source({"preset": "sliedrecht", "notice_kap": 3, "max_meetings": 0,
                           "compensation": {"bye": 2, "weather": 1, "notice": "team"},
                           "ladder": "stairs", "rematch_reverses_colours": "ja"})
    found = {(p.path, p.code) for p in caught.value.problems}
    assert found == {
        ("rules.notice_kap", ProblemCode.UNKNOWN_KEY),
        ("rules.max_meetings", ProblemCode.OUT_OF_RANGE),
        ("rules.compensation.bye", ProblemCode.OUT_OF_RANGE),
        ("rules.compensation.weather", ProblemCode.UNKNOWN_KEY),
        ("rules.compensation.notice", ProblemCode.BAD_VALUE),
        ("rules.ladder", ProblemCode.BAD_VALUE),
        ("rules.rematch_reverses_colours", ProblemCode.WRONG_TYPE),
    }


def test_team_valued_without_a_table_is_an_error():
    with pytest.raises(InvalidRulesError) as caught:
        rules_from_source({"preset": "sliedrecht", "compensation": {"external_club_night": "team"}})
    assert caught.value.problems[0].path == "rules.team_table"


def test_bad_toml_is_an_error_not_a_crash():
    with pytest.raises(InvalidRulesError) as caught:
        rules_from_toml("preset = ")
    assert caught.value.problems[0].code is ProblemCode.NOT_TOML


def test_every_parameter_is_shown():
    shown = rules_to_mapping(PRESETS["drie-groepen"])
    assert set(PARAMETERS) <= set(shown)
    assert shown["compensation"]["external_club_night"] == "team"
    assert shown["compensation"]["notice"] == "1/3"
