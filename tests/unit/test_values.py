"""The value ladders, by hand (rules.md section 2)."""

from __future__ import annotations

from fractions import Fraction as F

from core.rules import rules_from_source
from core.values import valuation


def test_step_ladder_with_a_floor():
    rules = rules_from_source({"preset": "drie-groepen", "top_value": 5, "step": 2,
                               "min_value": 1})
    assert valuation(rules, "abcd") == {"a": 5, "b": 3, "c": 1, "d": 1}


def test_top_value_per_player_counts_the_ranking():
    rules = rules_from_source("sliedrecht")  # 1.5n
    assert valuation(rules, "abcde")["a"] == 8  # 7.5 rounded half up
    assert valuation(rules, "abcdef")["a"] == 9


def test_spread_ladder_runs_from_top_to_bottom_in_equal_steps():
    rules = rules_from_source({"preset": "sliedrecht", "ladder": "spread", "top_value": 200,
                               "bottom_value": 100})
    assert valuation(rules, "abcd") == {"a": 200, "b": F(500, 3), "c": F(400, 3), "d": 100}


def test_score_ladder_is_linear_in_the_previous_score():
    rules = rules_from_source({"preset": "sliedrecht", "ladder": "score", "top_value": 200,
                               "bottom_value": 100})
    scores = {"a": F(300), "b": F(250), "c": F(200)}
    # bottom + (top - bottom) * (S - Smin) / (Smax - Smin)
    assert valuation(rules, "abc", scores) == {"a": 200, "b": 150, "c": 100}
    # a late joiner (no score yet) enters at the lowest score; all equal: everyone gets top
    assert valuation(rules, "abcx", scores)["x"] == 100
    assert valuation(rules, "ab", {"a": F(5), "b": F(5)}) == {"a": 200, "b": 200}
    # before round 1 there are no scores: spread over the initial ranking
    assert valuation(rules, "abc") == {"a": 200, "b": 150, "c": 100}
