"""Standings computed by hand, one rule at a time. Each test writes its arithmetic out."""

from __future__ import annotations

from fractions import Fraction as F

import pytest

from core.rules import CompensationKind as K
from core.standings import compute_standings, standings_history
from tests.seasons import build

FOUR = "a:2000 b:1900 c:1800 d:1700"
# "small": values 10, 9, 8, ... (step 1) so the sums are easy to follow.
SMALL = {"preset": "drie-groepen", "top_value": 10}


def scores(standings):
    return {row.id: row.score for row in standings.rows}


def test_classic_reprices_every_round_with_the_previous_ranking():
    season = build(SMALL, FOUR, ["a-b 1-0, c-d 0-1", "a-d 1/2-1/2, b-c 1-0"])
    after1, after2 = standings_history(season)[1:]
    # Round 1 at the initial values a10 b9 c8 d7, plus own value once:
    # a = 10 + 9 = 19, b = 9, c = 8, d = 7 + 8 = 15  ->  a d b c
    assert scores(after1) == {"a": 19, "b": 9, "c": 8, "d": 15}
    assert after1.ranking == ("a", "d", "b", "c")
    assert after1.values == {"a": 10, "d": 9, "b": 8, "c": 7}
    # Round 2: everything (round 1 too) at the values of that ranking, a10 d9 b8 c7:
    # a = 10 + 8 (b) + 9/2 (d) = 22.5; d = 9 + 7 (c) + 10/2 = 21; b = 8 + 7 (c) = 15; c = 7
    assert scores(after2) == {"a": F(45, 2), "d": 21, "b": 15, "c": 7}
    assert after2.ranking == ("a", "d", "b", "c")


def test_frozen_prices_each_round_once():
    season = build({**SMALL, "revaluation": "frozen"}, FOUR,
                   ["a-b 1-0, c-d 0-1", "a-d 1/2-1/2, b-c 1-0"])
    after2 = compute_standings(season, 2)
    # Round 1 at a10 b9 c8 d7, round 2 at a10 d9 b8 c7, own value from the initial ranking:
    # a = 10 + 9 + 9/2 = 23.5; d = 7 + 8 + 5 = 20; b = 9 + 7 = 16; c = 8
    assert scores(after2) == {"a": F(47, 2), "d": 20, "b": 16, "c": 8}


def test_fixed_point_iterates_until_the_ranking_holds():
    season = build({**SMALL, "revaluation": "fixed_point"}, FOUR, ["a-b 1-0, c-d 0-1"])
    after1 = compute_standings(season, 1)
    # Pass 1 at a10 b9 c8 d7 ranks a d b c; pass 2 at a10 d9 b8 c7:
    # a = 10 + 8 = 18, d = 9 + 7 = 16, b = 8, c = 7: the same order, so it stops.
    assert scores(after1) == {"a": 18, "d": 16, "b": 8, "c": 7}
    assert after1.ranking == ("a", "d", "b", "c")


def test_fixed_point_prices_at_most_twenty_times(monkeypatch):
    """"At most 20 passes", and the first pricing is one ("classic: one pass"): a ranking
    that never settles nor repeats is priced 20 times, not 21."""
    import itertools

    from core import standings
    fresh = itertools.permutations("abcd")
    next(fresh)  # a b c d is where it starts
    monkeypatch.setattr(standings._Engine, "_rank",
                        staticmethod(lambda scores, previous: list(next(fresh))))
    priced = []
    real = standings._Engine._price
    monkeypatch.setattr(standings._Engine, "_price",
                        lambda self, *args: priced.append(args) or real(self, *args))
    compute_standings(build({**SMALL, "revaluation": "fixed_point"}, FOUR,
                            ["a-b 1-0, c-d 0-1"]), 1)
    assert len(priced) == 20


def test_fixed_point_cycle_scores_are_the_mean_over_the_cycle():
    # a, b, c, d beat each other in a ring over two rounds (b>a, c>d, d>b, a>c); k sits out.
    season = build({**SMALL, "revaluation": "fixed_point"}, "k:2100 a:1600 b:1300 c:1100 d:1000",
                   ["a-b 0-1, c-d 1-0, k bye", "b-d 0-1, c-a 0-1, k notice"])
    after1, after2 = standings_history(season)[1:]
    # In round 2 every pass re-ranks the ring and the ranking cycles through its orders, each
    # ring player holding values 9, 8, 7 and 6 equally often: mean value 7.5. Scores are the
    # means over the cycle: own 7.5 + one win over a 7.5 = 15 for each of a, b, c, d;
    # k = 10 + 2/3 * 10 (bye) + 1/3 * 10 (notice) = 20.
    assert scores(after2) == {"k": 20, "a": 15, "b": 15, "c": 15, "d": 15}
    # Equal means keep the order of the previous ranking.
    ring = [pid for pid in after1.ranking if pid != "k"]
    assert after2.ranking == ("k", *ring)
    # The breakdown prices at the mean values, so it still adds up.
    assert all(line.value == F(15, 2) for line in after2.breakdown("a") if line.round)


def test_equal_scores_keep_the_previous_order():
    season = build(SMALL, "a:2000 b:1900 c:1800 d:1700 e:1600 f:1500",
                   ["a-f 0-1, b no_notice, c-e 1/2-1/2, d notice"])
    after1 = compute_standings(season, 1)
    # a10 b9 c8 d7 e6 f5: f = 5 + 10 = 15, c = 8 + 3 = 11, a = 10, e = 6 + 4 = 10,
    # d = 7 + 7/3, b = 9. a and e tie at 10: a stood above e, so a stays above e.
    assert scores(after1)["a"] == scores(after1)["e"] == 10
    assert after1.ranking == ("f", "c", "a", "e", "d", "b")


# What each preset gives for a round without a game (rules.md section 8, not the code).
KIND_TABLE = {
    "sliedrecht": {"notice": F(33, 100), "no_notice": 0, "bye": F(66, 100),
                   "arbiter": F(66, 100), "external club_night": F(66, 100),
                   "external other_day": F(33, 100)},
    "drie-groepen": {"notice": F(1, 3), "no_notice": 0, "bye": F(2, 3), "arbiter": F(2, 3)},
    "drie-cycli": {"notice": F(1, 3), "no_notice": 0, "bye": 1, "arbiter": 1,
                   "external club_night": F(7, 10), "external other_day": F(1, 3)},
}
CASES = [(preset, kind, fraction) for preset, kinds in KIND_TABLE.items()
         for kind, fraction in kinds.items()]


@pytest.mark.parametrize(("preset", "absence", "fraction"), CASES)
def test_each_compensation_kind_earns_its_fraction_of_own_value(preset, absence, fraction):
    season = build(preset, "x:2100 b:1900 c:1800", [f"x {absence}, b-c 1-0"])
    after1 = compute_standings(season, 1)
    own = after1.breakdown("x")[0].value  # his value in the initial ranking (rank 1)
    lines = after1.breakdown("x")
    assert lines[1].factor == fraction
    assert lines[1].points == fraction * own
    bonus = {"drie-cycli": F(3 * 26, 27)}.get(preset, 1)
    assert after1.row("x").score == bonus * own + fraction * own


def test_forfeit_is_not_a_game():
    season = build(SMALL, FOUR, ["a-b +-, c-d --"])
    after1 = compute_standings(season, 1)
    kinds = {pid: after1.breakdown(pid)[1].kind for pid in "abcd"}
    assert kinds == {"a": K.OPPONENT_ABSENT, "b": K.NO_NOTICE, "c": K.NO_NOTICE,
                     "d": K.NO_NOTICE}
    # a = 10 + 2/3 * 10; nobody played a game.
    assert after1.row("a").score == 10 + F(20, 3)
    assert all(row.played == 0 for row in after1.rows)


def _notice_rounds(count: int, extra: str = "") -> list[str]:
    rounds = [f"x notice, b-c {'1-0' if r % 2 else '0-1'}" for r in range(count)]
    if extra:
        rounds.append(extra)
    return rounds


def test_notice_cap_tenth_earns_eleventh_does_not():
    season = build("sliedrecht", "x:2100 b:1900 c:1800", _notice_rounds(11))
    lines = compute_standings(season, 11).breakdown("x")
    notices = [line for line in lines if line.kind is K.NOTICE]
    assert [line.capped for line in notices] == [False] * 10 + [True]
    assert notices[9].factor == F(33, 100) and notices[9].points > 0
    assert notices[10].factor == 0 and notices[10].points == 0


def test_external_on_another_day_is_not_capped():
    season = build("sliedrecht", "x:2100 b:1900 c:1800",
                   _notice_rounds(10, "x external other_day, b-c 1-0"))
    last = compute_standings(season, 11).breakdown("x")[-1]
    assert last.kind is K.EXTERNAL_OTHER_DAY and not last.capped
    assert last.factor == F(33, 100)


def test_late_join_rounds_count_toward_the_cap_in_sliedrecht():
    players = [{"id": "x", "name": "X", "rating": 2100, "joined": 4},
               {"id": "b", "name": "B", "rating": 1900}, {"id": "c", "name": "C", "rating": 1800}]
    rounds = ["b-c 1-0", "b-c 0-1", "b-c 1-0", *[r for r in _notice_rounds(8)]]
    season = build("sliedrecht", players, rounds)
    lines = compute_standings(season, 11).breakdown("x")
    counted = [(line.round, line.kind, line.capped) for line in lines if line.round]
    # 3 late-join rounds + notices in rounds 4..10 = 10 earning; the notice of round 11 is #11.
    assert counted[:3] == [(1, K.LATE_JOIN, False), (2, K.LATE_JOIN, False),
                           (3, K.LATE_JOIN, False)]
    assert [c for _, _, c in counted[3:]] == [False] * 7 + [True]


def test_late_joiner_is_inserted_by_rating_and_compensated():
    players = [{"id": "a", "name": "A", "rating": 2000}, {"id": "b", "name": "B", "rating": 1800},
               {"id": "c", "name": "C", "rating": 1600}, {"id": "d", "name": "D", "rating": 1400},
               {"id": "e", "name": "E", "rating": 1700, "joined": 2}]
    season = build(SMALL, players, ["a-b 1/2-1/2, c-d 1/2-1/2", "a-e 0-1, b-c 1-0, d bye"])
    after1, after2 = standings_history(season)[1:]
    assert after1.ranking == ("a", "b", "c", "d")  # 14.5, 14, 11.5, 11
    # e (1700) goes in above c (1600): a b e c d, values 10 9 8 7 6.
    # a = 10 + 9/2 = 14.5; b = 9 + 10/2 + 7 = 21; e = 8 + 8/3 (late join) + 10 = 62/3;
    # c = 7 + 6/2 = 10; d = 6 + 7/2 + 2/3 * 6 = 13.5
    assert scores(after2) == {"a": F(29, 2), "b": 21, "e": F(62, 3), "c": 10, "d": F(27, 2)}
    assert after2.ranking == ("b", "e", "a", "d", "c")


def test_withdrawn_player_stays_ranked_and_counted():
    players = [{"id": "a", "name": "A", "rating": 2000, "withdrawn": 1},
               {"id": "b", "name": "B", "rating": 1800}, {"id": "c", "name": "C", "rating": 1600}]
    season = build("sliedrecht", players, ["a-b 1-0, c bye", "b-c 1-0"])
    after2 = compute_standings(season, 2)
    assert set(after2.ranking) == {"a", "b", "c"}
    # top = 1.5 n with n = 3 (a keeps counting) = 4.5, rounded half up to 5.
    assert max(after2.values.values()) == 5
    assert after2.row("a").played == 1


def test_linear_fade_of_the_start_bonus():
    rules = {"preset": "drie-cycli", "planned_rounds": 3, "period_length": 3}
    season = build(rules, "a:2000 b:1900", ["a-b 1-0", "a-b 0-1", "a-b 1/2-1/2"])
    history = standings_history(season)
    # Bonus multiplier after round R: 3 * (3 - R) / 3 = 3 - R.
    assert [s.breakdown("a")[0].factor for s in history] == [3, 2, 1, 0]
    # Before round 1: 3 x own value (a60, b59).
    assert scores(history[0]) == {"a": 180, "b": 177}
    # After round 3 the bonus is gone: only games count. Ranking after round 2: b (2*60+60)
    # above a (2*59+59)? a: 2*60 + 59 = 179, b: 2*59 + 60 = 178 -> a b, values a60 b59.
    # a = 59 + 59/2 = 88.5 (beat b in round 1, drew in round 3); b = 60 + 30 = 90.
    assert scores(history[3]) == {"a": F(177, 2), "b": 90}


def test_team_table_awards_fixed_points():
    season = build("drie-groepen", "x:2100 y:2000 z:1950 b:1900 c:1800",
                   ["x external club_night 1 1, y external club_night 3 1/2, "
                    "z external other_day 2 0, b-c 1-0"])
    after1 = compute_standings(season, 1)
    assert [after1.breakdown(p)[1].points for p in "xyz"] == [57, 20, 16]
    # x: own value 60 + 57
    assert after1.row("x").score == 60 + 57


def test_team_valued_external_earns_nothing_until_its_result_is_in():
    season = build("drie-groepen", "x:2100 b:1900 c:1800", ["x external club_night, b-c 1-0"])
    line = compute_standings(season, 1).breakdown("x")[1]
    assert line.pending and line.points == 0
    assert compute_standings(season, 1).row("x").score == 60


def test_lower_team_in_the_same_class_uses_the_higher_teams_row():
    season = build({"preset": "drie-groepen", "team_class": {"3": 2}}, "y:2000 b:1900 c:1800",
                   ["y external club_night 3 1/2, b-c 1-0"])
    assert compute_standings(season, 1).breakdown("y")[1].points == 24


def test_published_value_is_the_new_value_and_breakdown_sums_to_score():
    season = build("sliedrecht", FOUR, ["a-b 0-1, c-d 0-1", "b-d 1-0, a-c 1/2-1/2"])
    after2 = compute_standings(season, 2)
    top = 6  # 1.5 * 4
    assert [row.value for row in after2.rows] == [top, top - 1, top - 2, top - 3]
    for row in after2.rows:
        assert sum(line.points for line in after2.breakdown(row.id)) == row.score


def test_won_drawn_lost_and_colours():
    season = build(SMALL, FOUR, ["a-b 1-0, c-d 1/2-1/2", "b-a 1-0, d-c 0-1"])
    row = compute_standings(season, 2).row("a")
    assert (row.played, row.won, row.drawn, row.lost, row.colour_balance) == (2, 1, 0, 1, 0)
    row = compute_standings(season, 2).row("c")
    assert (row.won, row.drawn, row.lost, row.colour_balance) == (1, 1, 0, 0)
    assert row.percentage == F(3, 4)


def test_pending_game_earns_nothing_yet():
    season = build(SMALL, FOUR, ["a-b 1-0, c-d 0-1", "a-d, b-c 1-0"])
    assert season.complete_rounds == 1
    after2 = compute_standings(season, 2)
    assert after2.breakdown("a")[-1].pending
    assert after2.breakdown("a")[-1].points == 0
    assert compute_standings(season).after_round == 1
