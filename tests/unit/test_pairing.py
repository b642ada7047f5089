"""Each pairing rule where it binds and changes the pairing; fixes; impossible rounds."""

from __future__ import annotations

import random

import pytest

from core.errors import InvalidInputError
from core.pairing import (
    Engine,
    Fixes,
    Meeting,
    PairingImpossibleError,
    PairingRequest,
    Rule,
    baseline,
    blossom,
    conflicting_tiers,
    pair,
)
from core.pairing.evaluate import evaluate
from core.pairing.selection import to_pairing
from core.rules import Colour, rules_from_source
from core.season import Player
from core.simulation import Habits, simulate
from tests.pairing_oracle import all_pairing_tiers, brute_force

W, B = Colour.WHITE, Colour.BLACK
NONE = {"max_rank_distance": None, "max_meetings": None, "per_period": None,
        "min_rounds_between": None, "top_exception": None, "max_colour_difference": None,
        "max_same_colour_run": None, "rematch_reverses_colours": False}


def request(players="abcdef", *, rules="sliedrecht", round_no=2, ranking=None, **kwargs):
    ranking = tuple(ranking or players)
    rules = rules_from_source(rules)
    return PairingRequest(round=round_no, ranking=ranking, present=frozenset(players),
                          rules=rules, **kwargs)


def boards(pairing):
    return [(b.white, b.black) for b in pairing.boards]


def pairs(pairing):
    return [frozenset((b.white, b.black)) for b in pairing.boards]


def test_neighbours_play_and_the_higher_gets_black_on_equal_balance():
    p = pair(request())
    assert boards(p) == [("b", "a"), ("d", "c"), ("f", "e")]
    assert p.bye is None and p.broken == () and p.optimal
    assert p.objective.distance == 3


def test_equal_balance_higher_gets_white_when_the_club_says_so():
    p = pair(request(rules={"preset": "sliedrecht", "equal_balance_higher_gets": "white"}))
    assert boards(p)[0] == ("a", "b")


def test_lower_balance_gets_white():
    p = pair(request("ab", colours={"a": (B,), "b": (W,)}))
    assert boards(p) == [("a", "b")]


def test_max_meetings_binds():
    met = (Meeting(3, "a", "b"), Meeting(20, "b", "a"))
    p = pair(request("abcd", round_no=25, meetings=met))
    # (a,b)(c,d) = 1 + 1 is out (third meeting); (a,c)(b,d) = 4 + 4 beats (a,d)(b,c) = 9 + 1.
    assert pairs(p) == [{"a", "c"}, {"b", "d"}]


def test_per_period_binds_and_the_next_period_frees_it():
    met = (Meeting(3, "a", "b"),)
    assert pairs(pair(request("abcd", round_no=10, meetings=met)))[0] == {"a", "c"}
    assert pairs(pair(request("abcd", round_no=16, meetings=met)))[0] == {"a", "b"}


def test_sliedrecht_top_ten_may_meet_again_from_round_16():
    met = (Meeting(17, "a", "b"),)
    # Round 20, both in the top 10: allowed, with colours reversed.
    p = pair(request("abcd", round_no=20, meetings=met))
    assert boards(p)[0] == ("b", "a")
    # Round 14 (the exception starts at 16): not allowed.
    assert pairs(pair(request("abcd", round_no=14, meetings=(Meeting(3, "a", "b"),))))[0] \
        == {"a", "c"}
    # Outside the top 10: not allowed.
    ranking = [f"x{k}" for k in range(10)] + list("abcd")
    p = pair(request("abcd", round_no=20, meetings=met, ranking=ranking))
    assert pairs(p)[0] == {"a", "c"}


def test_drie_groepen_not_within_two_rounds():
    met = (Meeting(14, "a", "b"),)
    # Period 2 starts at 16, but 16 - 14 = 2 rounds is too soon; 17 is fine.
    assert pairs(pair(request("abcd", rules="drie-groepen", round_no=16, meetings=met)))[0] \
        == {"a", "c"}
    assert pairs(pair(request("abcd", rules="drie-groepen", round_no=17, meetings=met)))[0] \
        == {"a", "b"}


def test_drie_cycli_cycles_of_nine():
    met = (Meeting(5, "a", "b"),)
    assert pairs(pair(request("abcd", rules="drie-cycli", round_no=9, meetings=met)))[0] \
        == {"a", "c"}
    assert pairs(pair(request("abcd", rules="drie-cycli", round_no=10, meetings=met)))[0] \
        == {"a", "b"}


def test_max_colour_difference_binds():
    colours = {"a": (W, W), "b": (W, W), "c": (W, B), "d": (B, W)}
    on = pair(request("abcd", colours=colours))
    # a and b both at +2: one would go to +3. (a,c)(b,d) costs 4 + 4 but keeps every rule.
    assert pairs(on) == [{"a", "c"}, {"b", "d"}]
    assert all(b.black in "ab" for b in on.boards)
    off = pair(request("abcd", colours=colours,
                       rules={"preset": "sliedrecht", "max_colour_difference": None,
                              "max_same_colour_run": None}))
    assert pairs(off) == [{"a", "b"}, {"c", "d"}]


def test_max_same_colour_run_binds():
    colours = {"a": (B, W, W), "b": (B, W, W), "c": (W, B), "d": (B, W)}
    on = pair(request("abcd", colours=colours))
    assert pairs(on) == [{"a", "c"}, {"b", "d"}]
    off = pair(request("abcd", colours=colours,
                       rules={"preset": "sliedrecht", "max_same_colour_run": None}))
    assert pairs(off) == [{"a", "b"}, {"c", "d"}]
    assert off.broken == ()


def test_rematch_reverses_colours_over_preference():
    # a (-1) would get white by balance, but had white against b in round 2.
    met = (Meeting(2, "a", "b"),)
    colours = {"a": (B, W, B), "b": (W, B, W)}
    on = pair(request("ab", round_no=20, meetings=met, colours=colours))
    assert boards(on) == [("b", "a")]
    off = pair(request("ab", round_no=20, meetings=met, colours=colours,
                       rules={"preset": "sliedrecht", "rematch_reverses_colours": False}))
    assert boards(off) == [("a", "b")]


def test_a_rematch_gives_up_its_reversal_before_a_run_of_three():
    """Seed 004: "nooit" three times the same colour, while a rematch "heeft de andere kleur".
    When each colouring breaks one of them, the run rule holds and the reversal gives way."""
    met = (Meeting(2, "a", "b"),)  # a had white
    colours = {"a": (W, B, B), "b": (B, W, B)}  # a black once more would be three in a row
    rules = {"preset": "sliedrecht", **NONE, "max_same_colour_run": 2,
             "rematch_reverses_colours": True}
    paired = pair(request("ab", round_no=20, meetings=met, colours=colours, rules=rules))
    assert boards(paired) == [("a", "b")]
    assert [b.rule for b in paired.broken] == [Rule.REMATCH_REVERSES_COLOURS]


def test_bye_goes_to_the_lowest_without_a_bye():
    p = pair(request("abcde", byes={"e": 1}))
    assert p.bye == "d"
    assert pairs(p) == [{"a", "b"}, {"c", "e"}]


def test_bye_volunteer():
    p = pair(request("abcde", fixes=Fixes(bye="a")))
    assert p.bye == "a" and p.broken == ()


def test_max_rank_distance_binds():
    # Places 1, 2, 14, 15; (a,b) and (c,d) are ruled out by the arbiter.
    ranking = ["a", "b", *[f"x{k}" for k in range(11)], "c", "d"]
    fixes = Fixes(forbidden=frozenset({frozenset("ab"), frozenset("cd")}))
    on = pair(request("abcd", ranking=ranking, fixes=fixes))
    # (a,c)(b,d): 13 and 13 apart, two breaks; (a,d)(b,c): 14 and 12 apart, one break.
    assert pairs(on) == [{"a", "d"}, {"b", "c"}]
    assert [(r.rule, r.facts["distance"]) for r in on.broken] == [(Rule.MAX_RANK_DISTANCE, 14)]
    off = pair(request("abcd", ranking=ranking, fixes=fixes,
                       rules={"preset": "sliedrecht", "max_rank_distance": None}))
    assert pairs(off) == [{"a", "c"}, {"b", "d"}]  # 169 + 169 < 196 + 144


def test_distance_counts_absent_players():
    p = pair(request("abcd", ranking="axbycd"))
    # a1 b3 c5 d6: (a,b)(c,d) = 4 + 1
    assert p.objective.distance == 5


def test_fixed_boards_and_colours_are_kept():
    p = pair(request(fixes=Fixes(boards=(("a", "f"),))))
    assert ("a", "f") in boards(p)
    assert pairs(p)[1:] == [{"b", "c"}, {"d", "e"}]


def test_forbidden_and_left_out():
    p = pair(request(fixes=Fixes(forbidden=frozenset({frozenset("ab")}),
                                 leave_out=frozenset("f"))))
    assert "f" not in {x for b in p.boards for x in (b.white, b.black)}
    assert frozenset("ab") not in pairs(p) and p.bye is not None


@pytest.mark.parametrize("fixes", [
    Fixes(boards=(("a", "zz"),)),
    Fixes(boards=(("a", "b"), ("b", "c"))),
    Fixes(bye="a"),  # six players: no bye
    Fixes(boards=(("a", "a"),)),
])
def test_unusable_fixes_are_refused(fixes):
    with pytest.raises(InvalidInputError):
        pair(request(fixes=fixes))


def test_a_far_board_the_near_ones_cannot_do_without_is_found():
    """Two odd groups the arbiter keeps apart but for one far board: each player's nearest
    boards stay inside his group, where an odd number cannot all be paired, so the engine
    must look past them to the board that joins the groups."""
    players = [f"p{k:02d}" for k in range(2 * 31)]
    top, bottom = players[:31], players[31:]
    bridge = frozenset((top[0], bottom[-1]))
    forbidden = frozenset(frozenset((x, y)) for x in top for y in bottom) - {bridge}
    round_ = request(players, rules={"preset": "sliedrecht", **NONE},
                     fixes=Fixes(forbidden=forbidden))
    p = pair(round_)
    assert bridge in pairs(p)
    table = evaluate(round_)
    assert to_pairing(round_, table, blossom.solve(table, blossom.build(table), prune=False),
                      optimal=True, engine="blossom", timings=p.timings) == p


def test_a_far_board_the_band_leaves_out_is_found(monkeypatch):
    """The band of 2 places holds a pairing that breaks no rule, but the forbidden boards
    make one three places apart part of the optimum: the bound must not clear it."""
    monkeypatch.setattr(blossom, "PRUNE_FROM", 4)
    monkeypatch.setattr(blossom, "BAND", 2)
    forbidden = frozenset(frozenset(pair_) for pair_ in (
        ("c1", "c4"), ("c2", "c3"), ("c2", "c4"), ("c4", "c5"), ("c5", "c8")))
    round_ = request([f"c{k}" for k in range(10)], fixes=Fixes(forbidden=forbidden))
    p = pair(round_)
    table = evaluate(round_)
    assert to_pairing(round_, table, blossom.solve(table, blossom.build(table), prune=False),
                      optimal=True, engine="blossom", timings=p.timings) == p
    places = {pid: k for k, pid in enumerate(round_.ranking)}
    assert max(abs(places[b.white] - places[b.black]) for b in p.boards) == 3


def test_fixes_that_allow_no_pairing_say_so():
    forbidden = frozenset(frozenset(("a", x)) for x in "bcd")
    with pytest.raises(PairingImpossibleError):
        pair(request("abcd", fixes=Fixes(forbidden=forbidden)))


def small_club_end_of_period(seed: int, members: int = 7):
    rng = random.Random(seed)
    players = tuple(Player(f"p{k}", f"P{k}", rating=2000 - 50 * k) for k in range(members))
    season = simulate(rng, rules="sliedrecht", players=players, rounds=15, pair_last=False,
                      habits=Habits(notice=0.0, no_notice=0.0, external_club_night=0.0,
                                    external_other_day=0.0, forfeit=0.0))
    from core.pairing import request_for_round
    return request_for_round(season, 15)


@pytest.mark.parametrize("seed", range(4))
def test_impossible_round_breaks_the_minimum_and_names_it(seed):
    req = small_club_end_of_period(seed)
    p = pair(req)
    assert p.broken, "14 rounds among 7 players: everyone has met everyone this period"
    assert baseline(req) is None
    tiers, distance, colour = brute_force(req)
    assert (p.objective.violations, p.objective.distance, p.objective.colour) == \
        (tiers, distance, colour)
    assert {r.rule for r in p.broken} >= {Rule.PER_PERIOD}
    # The conflict CP-SAT names is real: no pairing keeps all rules of those tiers.
    core = conflicting_tiers(req)
    assert core
    assert all(any(tiers[t] for t in core) for tiers in all_pairing_tiers(req))


def test_cpsat_agrees_with_blossom_on_an_impossible_round():
    req = small_club_end_of_period(1)
    assert pair(req, Engine.CPSAT).objective == pair(req).objective
    assert boards(pair(req, Engine.CPSAT)) == boards(pair(req))


def test_feasible_round_has_no_conflicting_tiers():
    assert conflicting_tiers(request()) == ()


def test_broken_rules_come_in_importance_order():
    req = small_club_end_of_period(2)
    tiers = [r.rule.tier for r in pair(req).broken]
    assert tiers == sorted(tiers)


def _apart(*pairs_: str) -> frozenset[frozenset[str]]:
    return frozenset(frozenset(p) for p in pairs_)


@pytest.mark.parametrize("engine", list(Engine))
def test_a_pair_kept_apart_does_not_meet_and_nothing_is_said_when_it_could_be_kept(engine):
    """Issue 36: a parent and child (a, b) never meet while a pairing can keep them apart,
    whatever it costs in the club's own rules; a pair with someone absent changes nothing."""
    p = pair(request(apart=_apart("ab", "cz")), engine)
    assert frozenset("ab") not in pairs(p) and p.broken == ()
    assert pair(request(apart=_apart("az")), engine).boards == pair(request(), engine).boards
    # Kept apart before the club's rules: here the rematch rule gives way.
    met = request("abcd", round_no=3, apart=_apart("ab"),
                  meetings=(Meeting(1, "a", "c"), Meeting(2, "a", "d")),
                  rules={"preset": "sliedrecht", **NONE, "max_meetings": 1})
    kept = pair(met, engine)
    assert frozenset("ab") not in pairs(kept)
    assert [r.rule for r in kept.broken] == [Rule.MAX_MEETINGS]


@pytest.mark.parametrize("engine", list(Engine))
def test_a_pair_kept_apart_meets_only_where_no_pairing_keeps_them_and_it_is_said(engine):
    """Two players left, kept apart: they play (a round is always paired) and the report
    says the arbiter's wish was broken; one kept apart from all three others meets one."""
    p = pair(request("ab", apart=_apart("ab")), engine)
    assert pairs(p) == [frozenset("ab")]
    assert [(r.rule, frozenset(r.players)) for r in p.broken] == \
        [(Rule.KEPT_APART, frozenset("ab"))]
    lonely = pair(request("abcd", apart=_apart("ab", "ac", "ad")), engine)
    assert [r.rule for r in lonely.broken] == [Rule.KEPT_APART]
