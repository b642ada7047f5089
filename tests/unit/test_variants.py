"""The scoring variants of other Keizer programs (docs/rules.md section 9), computed by hand.
Each test writes its arithmetic out. Values are 10, 9, 8, 7 (top value 10, step 1) unless
the test says otherwise; the own-value bonus is 1."""

from __future__ import annotations

import hashlib
import json
import random
from fractions import Fraction as F
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from core.errors import InvalidRulesError, ProblemCode
from core.pairing.request import request_for_round
from core.preview import Earning, sign_off_price
from core.rules import PRESETS, CompensationKind, rules_from_source, rules_to_mapping
from core.season import AbsenceReason, Season
from core.standings import compute_standings, standings_history
from tests.seasons import build
from tests.strategies import random_season

FOUR = "a:2000 b:1900 c:1800 d:1700"
FIVE = "a:2000 b:1900 c:1800 d:1700 e:1600"
TEN = {"top_value": 10}
MODES = ("classic", "fixed_point", "frozen")


def scores(standings):
    return {row.id: row.score for row in standings.rows}


def line(standings, player, round_no):
    return next(x for x in standings.breakdown(player) if x.round == round_no)


# --- result_fractions -----------------------------------------------------------------------


@pytest.mark.parametrize("mode", MODES)
def test_a_loss_earns_a_sixth_of_the_opponent_freekeizer(mode):
    rules = {**TEN, "revaluation": mode, "result_fractions": {"loss": "1/6"}}
    after = compute_standings(build(rules, FOUR, ["a-b 1-0, c-d 0-1"]), 1)
    if mode == "fixed_point":
        # Pass 1 ranks a d b c (as below); pass 2 at a10 d9 b8 c7: a = 10 + 8 = 18,
        # d = 9 + 7 = 16, b = 8 + 10/6, c = 7 + 9/6; the same order, so it stops.
        assert scores(after) == {"a": 18, "d": 16, "b": F(29, 3), "c": F(17, 2)}
    else:
        # At a10 b9 c8 d7: a = 10 + 9, b = 9 + 10/6, c = 8 + 7/6, d = 7 + 8.
        assert scores(after) == {"a": 19, "d": 15, "b": F(32, 3), "c": F(55, 6)}
    loss = line(after, "b", 1)
    assert (loss.result, loss.factor, loss.points) == (0, F(1, 6), loss.value / 6)
    assert after.row("b").lost == 1  # still a loss in the game counts


# --- forfeit_scoring ------------------------------------------------------------------------


def test_a_priced_forfeit_earns_a_share_of_the_opponents_value():
    rules = {**TEN, "forfeit_scoring": {"win": 1, "loss": 0, "double": "1/2"}}
    after = compute_standings(build(rules, FOUR, ["a-b +-, c-d --"]), 1)
    # a came: 10 + 1 * 9; b did not: 9 + 0; a double forfeit: c = 8 + 7/2, d = 7 + 8/2.
    assert scores(after) == {"a": 19, "b": 9, "c": F(23, 2), "d": 11}
    assert after.row("a").played == 0  # a forfeit is still no game
    won = line(after, "a", 1)
    assert (won.forfeit, won.kind, won.opponent, won.factor) == \
        (True, CompensationKind.OPPONENT_ABSENT, "b", 1)


@pytest.mark.parametrize(("mode", "expected"), [
    # Round 1 at a10 b9 c8 d7: a = 10 + 9 (priced forfeit), c = 8 + 7: a c b d, so round 2
    # prices at a10 c9 b8 d7. Classic: a = 10 + 8 (b, round 1), c = 9 + 7 + 10, b = 8 + 7.
    ("classic", {"c": 26, "a": 18, "b": 15, "d": 7}),
    # From there c a b d, re-priced at c10 a9 b8 d7: a = 9 + 8, c = 10 + 7 + 9, b = 8 + 7;
    # the same order, so it stops.
    ("fixed_point", {"c": 26, "a": 17, "b": 15, "d": 7}),
    # Each round once at the values before it, bonus at the first value:
    # a = 10 + 9, c = 8 + 7 + 10, b = 9 + 7.
    ("frozen", {"c": 25, "a": 19, "b": 16, "d": 7}),
])
def test_a_priced_forfeit_in_every_mode(mode, expected):
    rules = {**TEN, "revaluation": mode, "forfeit_scoring": {"win": 1, "loss": 0, "double": 0}}
    season = build(rules, FOUR, ["a-b +-, c-d 1-0", "a-c 0-1, b-d 1-0"])
    assert scores(compute_standings(season, 2)) == expected


def test_a_forfeit_side_left_to_compensation_keeps_the_season_formats_rule():
    rules = {**TEN, "forfeit_scoring": {"win": 1, "loss": "compensation"},
             "compensation": {"no_notice": "1/3"}}
    after = compute_standings(build(rules, FOUR, ["a-b +-, c-d 1-0"]), 1)
    # a: 10 + 9 (priced); b: 9 + 9/3 (no_notice as compensation).
    assert scores(after)["a"] == 19 and scores(after)["b"] == 12
    assert line(after, "b", 1).kind is CompensationKind.NO_NOTICE
    assert not line(after, "b", 1).forfeit


def test_a_priced_forfeit_is_no_absence_for_the_cap():
    """b forfeits round 1 and is absent without notice in round 2, with a cap of 1 on
    absences of both kinds: priced, the forfeit does not count, so round 2 still earns."""
    base = {**TEN, "notice_cap": 1, "cap_kinds": ["notice", "no_notice"],
            "compensation": {"no_notice": "1/3"}}
    rounds = ["a-b +-, c-d 1-0", "a-c 1-0, b no_notice, d bye"]
    priced = compute_standings(build({**base, "forfeit_scoring": {"loss": 0}}, FOUR, rounds), 2)
    assert not line(priced, "b", 2).capped
    assert line(priced, "b", 2).points == line(priced, "b", 2).value / 3
    compensated = compute_standings(build(base, FOUR, rounds), 2)
    assert line(compensated, "b", 2).capped  # the forfeit was his one counted absence


# --- fixed points ---------------------------------------------------------------------------


@pytest.mark.parametrize("mode", MODES)
def test_fixed_points_whatever_the_value(mode):
    rules = {**TEN, "revaluation": mode,
             "compensation": {"bye": {"points": 5}, "no_notice": {"points": -2}}}
    season = build(rules, FIVE, ["a-b 1-0, c-d 0-1, e bye", "a-b 1-0, c-e 0-1, d no_notice"])
    after = compute_standings(season, 2)
    assert line(after, "e", 1).points == 5 and line(after, "e", 1).fixed
    assert line(after, "d", 2).points == -2
    if mode == "classic":
        # Round 1 at a10 b9 c8 d7 e6 ranks a(19) d(15) e(6 + 5) b(9) c(8); round 2 at
        # a10 d9 e8 b7 c6: a = 10 + 7 + 7, e = 8 + 5 + 6, d = 9 + 6 - 2, b = 7, c = 6.
        assert scores(after) == {"a": 24, "e": 19, "d": 13, "b": 7, "c": 6}


def test_fixed_points_for_a_late_joiner():
    players = [{"id": "a", "name": "A", "rating": 2000}, {"id": "b", "name": "B", "rating": 1900},
               {"id": "c", "name": "C", "rating": 1800, "joined": 2}]
    rules = {**TEN, "compensation": {"late_join": {"points": 3}, "bye": 0}}
    after = compute_standings(build(rules, players, ["a-b 1-0", "a-b 1-0, c bye"]), 2)
    assert line(after, "c", 1).points == 3 and line(after, "c", 1).fixed


# --- half_bye, zero_bye ---------------------------------------------------------------------


def test_requested_byes_earn_a_draw_or_nothing_and_are_no_pairing_bye():
    season = build(TEN, FIVE, ["a-b 1-0, c-d 0-1, e half_bye", "a-d 1-0, b-c 1-0, e zero_bye"])
    after = compute_standings(season, 2)
    assert line(after, "e", 1).points == line(after, "e", 1).value / 2
    assert line(after, "e", 2).points == 0
    # e asked for two byes; the bye rule counts neither, so he is still without a bye.
    assert request_for_round(season, 3).byes == {}
    assert AbsenceReason("half_bye").value == CompensationKind.HALF_BYE.value


# --- cap_kinds and absence_decay ------------------------------------------------------------


def test_cap_before_decay_over_both_kinds_of_absence():
    rules = {**TEN, "notice_cap": 2, "cap_kinds": ["notice", "no_notice"], "absence_decay": "1/2",
             "compensation": {"no_notice": "1/3"}}
    season = build(rules, FOUR, ["a-b 1-0, c-d 0-1", "a-b 1-0, c notice, d no_notice",
                                 "a-b 1-0, c-d 1-0", "a-b 1-0, c notice, d notice",
                                 "a-b 1-0, c notice, d notice"])
    after = compute_standings(season, 5)
    # The last ranking's values: a10 d9 c8 b7. d counts round 2 (no_notice, 1st: 1/3 of 9),
    # round 4 (2nd: 1/3 * 1/2 of 9) and round 5 (3rd: past the cap of 2, nothing):
    # d = 9 + 8 (beat c) + 3 + 0 + 3/2 + 0 = 21.5; c = 8 + 8/3 + 9 + 4/3 + 0 = 21.
    assert scores(after)["d"] == F(43, 2) and scores(after)["c"] == 21
    assert [(x.decay, x.capped) for x in after.breakdown("d") if x.kind] == \
        [(1, False), (F(1, 2), False), (1, True)]


def test_the_sign_off_preview_knows_decay_and_fixed_points():
    rules = {**TEN, "absence_decay": "1/2"}
    season = build(rules, FOUR, ["a-b 1-0, c notice, d bye", "a-b 1-0, c notice, d bye"])
    values = compute_standings(season, 1).values
    price = sign_off_price(season, values, "c", 2, AbsenceReason.NOTICE, None)
    assert price.earning is Earning.FRACTION and price.fraction == F(1, 6)
    ahead = sign_off_price(season, values, "c", 3, AbsenceReason.NOTICE, None)
    assert ahead.earning is Earning.LATER and ahead.fraction == F(1, 12)
    fixed = build({**TEN, "compensation": {"notice": {"points": 4}}}, FOUR,
                  ["a-b 1-0, c notice, d bye"])
    assert sign_off_price(fixed, values, "c", 2, AbsenceReason.NOTICE, None).points == 4


# --- withdrawn ------------------------------------------------------------------------------

WITHDRAWING = [{"id": "a", "name": "A", "rating": 2000}, {"id": "b", "name": "B", "rating": 1900},
               {"id": "c", "name": "C", "rating": 1800},
               {"id": "d", "name": "D", "rating": 1700, "withdrawn": 1},
               {"id": "e", "name": "E", "rating": 1600}]


def test_withdrawn_as_absent_counts_each_later_round_as_no_notice():
    rules = {**TEN, "withdrawn": "absent", "compensation": {"no_notice": "1/3"},
             "notice_cap": 1, "cap_kinds": ["no_notice"]}
    season = build(rules, WITHDRAWING, ["a-b 1-0, c-d 0-1, e bye", "a-b 1-0, c-e 1-0",
                                        "a-c 1-0, b-e 1-0"])
    after2, after3 = standings_history(season)[2:]
    # Round 1 at a10 b9 c8 d7 e6 ranks a d e b c; round 2 at a10 d9 e8 b7 c6:
    # d = 9 + 6 (beat c) + 9/3 (no_notice, his 1st counted).
    assert scores(after2)["d"] == 18
    assert line(after3, "d", 3).capped  # the 2nd counted, past the cap of 1
    kept = compute_standings(build(TEN, WITHDRAWING, ["a-b 1-0, c-d 0-1, e bye",
                                                      "a-b 1-0, c-e 1-0"]), 2)
    assert [x.round for x in kept.breakdown("d")] == [0, 1]  # keep: nothing after round 1


def test_withdrawn_and_hidden_leaves_the_table_and_n_but_keeps_his_value():
    rules = {"top_value": "1n", "withdrawn": "hide"}
    season = build(rules, WITHDRAWING, ["a-d 1-0, b-c 1-0, e bye", "a-b 1-0, c-e 1-0"])
    after1, after2 = standings_history(season)[1:]
    # n = 5, values 5 4 3 2 1. Round 1: a = 5 + 2 (d), b = 4 + 3, c = 3, d = 2, e = 1 + 2/3.
    assert after1.ranking == ("a", "b", "c", "d", "e")
    # Round 2 without d: n = 4, values a4 b3 c2 e1, and d at 2, his value in that ranking:
    # a = 4 + 2 (d, round 1) + 3 (b) = 9; c = 2 + 1 (e) = 3; b = 3 + 2 (c, round 1) = 5.
    assert "d" not in after2.ranking and len(after2.rows) == 4
    assert scores(after2) == {"a": 9, "b": 5, "c": 3, "e": F(5, 3)}
    assert line(after2, "a", 1).value == 2


# --- ties -----------------------------------------------------------------------------------


def test_equal_scores_by_rating_as_sevilla_does():
    # Given order a b c d, ratings the other way round. Round 1: b beats c (9 + 8) and d beats
    # a (7 + 10): b and d both 17.
    season_for = lambda ties: build({**TEN, "ties": ties}, "a:1700 b:1800 c:1900 d:2000",  # noqa: E731
                                    ["b-c 1-0, a-d 0-1"], initial_ranking=["a", "b", "c", "d"])
    assert compute_standings(season_for("previous"), 1).ranking[:2] == ("b", "d")
    assert compute_standings(season_for("rating"), 1).ranking[:2] == ("d", "b")


@pytest.mark.parametrize(("mode", "ties", "expected"), [
    # Fixed point: pass 1 gives b and d 17 each. By the previous order b d a c, re-priced at
    # b10 d9 a8 c7: b = 10 + 7, d = 9 + 8, still equal, b first: it holds.
    ("fixed_point", "previous", {"b": 17, "d": 17, "a": 8, "c": 7}),
    # By rating d b a c, re-priced at d10 b9 a8 c7: d = 10 + 8, b = 9 + 7: it holds.
    ("fixed_point", "rating", {"d": 18, "b": 16, "a": 8, "c": 7}),
    # Frozen prices round 1 once: d and b stay on 17, in rating order.
    ("frozen", "rating", {"d": 17, "b": 17, "a": 10, "c": 8}),
])
def test_equal_scores_in_each_pass_and_each_frozen_round(mode, ties, expected):
    season = build({**TEN, "revaluation": mode, "ties": ties}, "a:1700 b:1800 c:1900 d:2000",
                   ["b-c 1-0, a-d 0-1"], initial_ranking=["a", "b", "c", "d"])
    after = compute_standings(season, 1)
    assert scores(after) == expected and after.ranking == tuple(expected)


# --- frozen_bonus ---------------------------------------------------------------------------


def test_frozen_bonus_at_the_current_value_ranks_the_sums_first():
    rules = {**TEN, "revaluation": "frozen", "frozen_bonus": "current"}
    season = build(rules, FOUR, ["a-b 1-0, c-d 0-1", "a-d 0-1, b-c 1/2-1/2"])
    after1, after2 = standings_history(season)[1:]
    # Round 1 sums a 9, d 8, b 0, c 0 rank a d b c: bonus 10 9 8 7. a = 19, d = 17, b 8, c 7.
    assert scores(after1) == {"a": 19, "d": 17, "b": 8, "c": 7}
    # Round 2 at those values: d + 10 (a), b + 7/2, c + 8/2. Sums d 18, a 9, c 4, b 3.5
    # rank d a c b: bonus 10 9 8 7, totals d 28, a 18, c 12, b 10.5.
    assert scores(after2) == {"d": 28, "a": 18, "c": 12, "b": F(21, 2)}
    assert after2.ranking == ("d", "a", "c", "b")
    assert line(after2, "d", 0).value == 10
    initial = compute_standings(build({**rules, "frozen_bonus": "initial"}, FOUR,
                                      ["a-b 1-0, c-d 0-1", "a-d 0-1, b-c 1/2-1/2"]), 2)
    assert scores(initial)["d"] == 25  # 7 (his first value) + 8 + 10


# --- item_rounding --------------------------------------------------------------------------


@pytest.mark.parametrize(("grid", "c_after_2"), [("half", F(15, 2)), ("whole", 7)])
def test_items_are_rounded_before_they_are_summed(grid, c_after_2):
    rules = {**TEN, "item_rounding": grid, "absence_decay": "1/2", "start_bonus": "1/3"}
    season = build(rules, FOUR, ["a-b 1-0, c notice, d notice",
                                 "a-b 1/2-1/2, c notice, d notice"])
    after1, after2 = standings_history(season)[1:]
    if grid == "half":
        # Round 1: a = 10/3 -> 3.5, + 9 = 12.5; c = 8/3 -> 2.5 twice = 5; d = 7/3 -> 2.5 twice.
        assert scores(after1) == {"a": F(25, 2), "c": 5, "d": 5, "b": 3}
    # Round 2 at a10 c9 d8 b7: c = 9/3 (bonus) + 9/3 + the 2nd notice decayed: 3 * 1/2 = 1.5
    # (on the half grid; 1 on the whole grid, rounded down).
    assert scores(after2)["c"] == c_after_2
    assert sum(x.points for x in after2.breakdown("c")) == c_after_2


def test_frozen_rounds_are_rounded_and_decayed_when_they_are_priced():
    rules = {**TEN, "revaluation": "frozen", "item_rounding": "half", "absence_decay": "1/2"}
    season = build(rules, FOUR, ["a-b 1-0, c notice, d notice",
                                 "a-b 1/2-1/2, c notice, d notice"])
    after1, after2 = standings_history(season)[1:]
    # Round 1 at a10 b9 c8 d7: c's notice 8/3 -> 2.5, d's 7/3 -> 2.5: c 10.5, d 9.5.
    assert scores(after1) == {"a": 19, "c": F(21, 2), "d": F(19, 2), "b": 9}
    # Round 2 at a10 c9 d8 b7, their 2nd notices halved: c 9/3 = 3 -> 1.5; d 8/3 -> 2.5,
    # * 1/2 = 1.25, down to 1. a draws with b: 7/2. So c 12, d 10.5, a 22.5, b 9 + 10/2.
    assert scores(after2) == {"a": F(45, 2), "b": 14, "c": 12, "d": F(21, 2)}


# --- fixed_point_start ----------------------------------------------------------------------


def test_the_fixed_point_from_the_initial_ranking_can_land_elsewhere():
    rounds = ["b-c 0-1, a-d 1/2-1/2", "a-b 1-0, d-c 1/2-1/2"]
    base = {**TEN, "revaluation": "fixed_point"}
    # After round 1 (both start from the initial ranking): c a d b.
    # Round 2 from c10 a9 d8 b7: c = 10 + 7 + 4 = 21, a = 9 + 4 + 7 = 20, d = 8 + 4.5 + 5,
    # b = 7: c a d b again, a fixed point.
    previous = compute_standings(build(base, FOUR, rounds), 2)
    assert scores(previous) == {"c": 21, "a": 20, "d": F(35, 2), "b": 7}
    # From a10 b9 c8 d7: a = 22.5, c = 20.5, d = 16, b = 9 ranks a c d b; at a10 c9 d8 b7:
    # a = 10 + 4 + 7 = 21, c = 9 + 7 + 4 = 20, d = 8 + 5 + 4.5: a c d b, another fixed point.
    initial = compute_standings(build({**base, "fixed_point_start": "initial"}, FOUR, rounds), 2)
    assert scores(initial) == {"a": 21, "c": 20, "d": F(35, 2), "b": 7}


# --- Keizer's own example -------------------------------------------------------------------


def test_keizers_1956_example():
    """Keizer's two-round example (KBSB vademecum 2018, pp. 129-130; chesspairing's
    `keizer1956_test.go` has it too): ten players valued 50 down to 41, every game of both
    rounds re-priced with the ranking before the round (classic), plus the own value."""
    players = " ".join(f"{p}:{2000 - k}" for k, p in enumerate("abcdefghij"))
    season = build({"top_value": 50}, players, [
        "a-b 1-0, c-d 1/2-1/2, e-f 0-1, g-h 1/2-1/2, i-j 0-1",
        "a-f 0-1, j-c 1-0, d-g 1/2-1/2, h-b 0-1, e-i 1/2-1/2"])
    after1, after2 = standings_history(season)[1:]
    published1 = {"a": 99, "b": 49, "c": F(143, 2), "d": 71, "e": 46, "f": 91,
                  "g": F(131, 2), "h": 65, "i": 42, "j": 83}
    published2 = {"a": 93, "b": 87, "c": 70, "d": 92, "e": F(125, 2), "f": 141, "g": 90,
                  "h": F(133, 2), "i": 62, "j": 136}
    assert scores(after1) == published1
    assert scores(after2) == published2


# --- presets and the rules file -------------------------------------------------------------


def test_the_presets_of_other_programs_follow_the_table():
    zesden, free, cp = PRESETS["knsb-zesden"], PRESETS["freekeizer"], PRESETS["chesspairing"]
    for rules in (zesden, free, cp):
        assert rules.top_value.per_player and rules.top_value.amount == 1 and rules.step == 1
        assert rules.revaluation == "fixed_point" and rules.start_bonus == 1
        assert rules.notice_cap == 5 and set(rules.cap_kinds) == {"notice", "no_notice"}
        assert rules.compensation_points == {"late_join": 0}
        assert rules.forfeit_scoring is not None and \
            (rules.forfeit_scoring.win, rules.forfeit_scoring.loss) == (1, 0)
    assert free.result_fractions == (1, F(1, 2), F(1, 6)) and zesden.result_fractions[2] == 0
    assert [zesden.compensation[k] for k in ("bye", "notice", "no_notice", "external_club_night")] \
        == [F(2, 3), F(1, 3), F(1, 3), F(2, 3)]
    assert (cp.ties, cp.item_rounding, cp.frozen_bonus, cp.withdrawn, cp.fixed_point_start) == \
        ("rating", "half", "current", "hide", "initial")
    mixed = rules_from_source({"preset": "chesspairing", "compensation": {"bye": "4/6"}})
    assert mixed.compensation["bye"] == F(2, 3) and mixed.item_rounding == "half"


def test_every_variant_key_reads_and_writes_back():
    source = {"result_fractions": {"loss": "1/6"}, "forfeit_scoring": {"win": 1, "double": 0},
              "compensation": {"bye": {"points": 4}}, "cap_kinds": ["notice", "no_notice"],
              "absence_decay": "3/4", "withdrawn": "hide", "ties": "rating",
              "frozen_bonus": "current", "item_rounding": "whole", "fixed_point_start": "initial"}
    rules = rules_from_source(source)
    shown = rules_to_mapping(rules)
    assert shown["result_fractions"] == {"win": "1", "draw": "0.5", "loss": "1/6"}
    assert shown["forfeit_scoring"] == {"win": "1", "loss": "compensation", "double": "0"}
    assert shown["compensation"]["bye"] == {"points": "4"}
    assert shown["cap_kinds"] == ["notice", "no_notice"] and shown["absence_decay"] == "0.75"
    assert rules_from_source(shown) == rules
    defaults = rules_to_mapping(rules_from_source({}))
    assert defaults["forfeit_scoring"] == "compensation" and defaults["absence_decay"] is None


@pytest.mark.parametrize(("source", "path", "code"), [
    ({"absence_decay": 0}, "absence_decay", ProblemCode.BAD_VALUE),
    ({"compensation": {"bye": {"points": "many"}}}, "compensation.bye.points",
     ProblemCode.WRONG_TYPE),
    ({"result_fractions": {"lost": "1/6"}}, "result_fractions.lost", ProblemCode.UNKNOWN_KEY),
    ({"forfeit_scoring": "sometimes"}, "forfeit_scoring", ProblemCode.WRONG_TYPE),
    ({"cap_kinds": ["notice", "holiday"]}, "cap_kinds[1]", ProblemCode.BAD_VALUE),
    ({"ties": "coin"}, "ties", ProblemCode.BAD_VALUE),
])
def test_a_bad_variant_is_named_with_its_place(source, path, code):
    with pytest.raises(InvalidRulesError) as caught:
        rules_from_source(source, path="")
    assert [(p.path, p.code) for p in caught.value.problems] == [(path, code)]


# --- the defaults change nothing ------------------------------------------------------------

BEFORE = Path(__file__).parent.parent / "data" / "standings_before_variants.json"
"""The standings history of 400 seeded random seasons (every preset, mode and ladder), as a
digest per seed, recorded with the engine as it was before section 9 (commit 6967cf0,
`season_for` and `digest` below). `random_season` must keep drawing as it does."""

SPELLED_OUT = {"result_fractions": {"win": 1, "draw": "1/2", "loss": 0},
               "forfeit_scoring": "compensation", "cap_kinds": ["notice"], "absence_decay": None,
               "withdrawn": "keep", "ties": "previous", "frozen_bonus": "initial",
               "item_rounding": "exact", "fixed_point_start": "previous"}


def season_for(seed: int, spelled_out: bool = False) -> Season:
    rng = random.Random(seed)
    preset = ("sliedrecht", "drie-groepen", "drie-cycli")[seed % 3]
    overrides = {"revaluation": MODES[(seed // 3) % 3]}
    ladder = ("step", "spread", "score")[(seed // 9) % 3]
    if ladder != "step":
        overrides |= {"ladder": ladder, "top_value": 100, "bottom_value": 40}
    if spelled_out:
        overrides |= SPELLED_OUT
    return random_season(rng, players=rng.randint(2, 16), rounds=rng.randint(1, 8),
                         preset=preset, overrides=json.loads(json.dumps(overrides)))


def digest(season: Season) -> str:
    text = "\n".join(" ".join(f"{r.id}:{r.score}:{r.value}" for r in s.rows)
                     for s in standings_history(season))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


@given(st.integers(0, 399), st.booleans())
def test_with_every_variant_at_its_default_the_standings_are_as_before(seed, spelled_out):
    before = json.loads(BEFORE.read_text())
    assert digest(season_for(seed, spelled_out)) == before[str(seed)], f"seed {seed}"


VARIANT_CHOICES = {
    "result_fractions": [{"loss": "1/6"}, {"win": 1, "draw": "1/2", "loss": 0}],
    "forfeit_scoring": ["compensation", {"win": 1, "loss": 0, "double": 0},
                        {"win": "2/3", "loss": "compensation", "double": "1/3"}],
    "compensation": [{}, {"bye": {"points": 4}, "no_notice": {"points": -1}},
                     {"notice": "1/3", "late_join": {"points": 0}}],
    "cap_kinds": [["notice"], ["notice", "no_notice"], ["notice", "arbiter", "bye"]],
    "notice_cap": [None, 1, 3],
    "absence_decay": [None, "1/2", "9/10"],
    "withdrawn": ["keep", "absent", "hide"],
    "ties": ["previous", "rating"],
    "frozen_bonus": ["initial", "current"],
    "item_rounding": ["exact", "half", "whole"],
    "fixed_point_start": ["previous", "initial"],
}


@given(st.integers(0, 10**6), st.fixed_dictionaries(
    {key: st.sampled_from(choices) for key, choices in VARIANT_CHOICES.items()}))
def test_every_combination_ranks_everyone_it_should_and_explains_each_score(seed, variants):
    rng = random.Random(seed)
    preset = rng.choice(("sliedrecht", "drie-groepen", "drie-cycli"))
    overrides = {"revaluation": rng.choice(MODES), **variants}
    if rng.random() < 0.3:
        overrides |= {"ladder": "score", "top_value": 100, "bottom_value": 40}
    season = random_season(rng, players=rng.randint(2, 12), rounds=rng.randint(1, 6),
                           preset=preset, overrides=json.loads(json.dumps(overrides)))
    hide = variants["withdrawn"] == "hide"
    for standings in standings_history(season):
        r = max(standings.after_round, 1)
        expected = {p.id for p in season.players if p.joined <= r
                    and not (hide and p.withdrawn is not None and p.withdrawn < r
                             and standings.after_round > 0)}
        assert set(standings.ranking) == expected
        assert {p.id for p in standings.left_out} == \
            {p.id for p in season.players if p.joined <= r} - expected
        if variants["item_rounding"] != "exact" and overrides["revaluation"] == "fixed_point":
            continue  # a cycle's mean is put on the grid as a whole, not item by item
        for row in standings.rows:
            assert sum(x.points for x in standings.breakdown(row.id)) == row.score
