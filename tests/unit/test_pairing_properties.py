"""Pairing invariants over simulated seasons of every preset, 2 to 150 players."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core.pairing import (
    Engine,
    Fixes,
    PairingRequest,
    Rule,
    baseline,
    blossom,
    pair,
    request_for_round,
)
from core.pairing.engine import judged
from core.pairing.evaluate import evaluate
from core.pairing.selection import Selection, to_pairing
from core.season import Player, read_season
from core.simulation import simulate
from tests.conftest import examples
from tests.pairing_oracle import board_breaks, brute_force, due_bye

INSTANCES = Path(__file__).parents[2] / "bench" / "instances"
SLOW = settings(max_examples=examples(25), suppress_health_check=[HealthCheck.too_slow])


@st.composite
def requests(draw: st.DrawFn, *, min_players: int = 2, max_players: int = 150,
             max_rounds: int = 16,
             presets: tuple[str, ...] = ("sliedrecht", "drie-groepen", "drie-cycli")) \
        -> PairingRequest:
    preset = draw(st.sampled_from(presets))
    count = draw(st.integers(min_players, max_players))
    played = draw(st.integers(0, max_rounds))
    rng = random.Random(draw(st.integers(0, 2**32)))
    members = tuple(Player(f"p{k:03d}", f"P{k}", rating=rng.randint(1000, 2300),
                           joined=rng.randint(2, played + 1) if played and k > 1
                           and rng.random() < 0.05 else 1)
                    for k in range(count))
    season = simulate(rng, rules=preset, players=members, rounds=played + 1, pair_last=False)
    # Now and then pairs the arbiter keeps apart (a parent and child, partners), some of them
    # absent this round.
    apart = frozenset(frozenset(rng.sample([p.id for p in members], 2))
                      for _ in range(draw(st.integers(0, 3)))) if count > 1 else frozenset()
    return request_for_round(season, played + 1, apart=apart)


def placed(pairing):
    return [p for b in pairing.boards for p in (b.white, b.black)] + \
        ([pairing.bye] if pairing.bye else [])


@SLOW
@given(requests())
def test_every_present_player_exactly_once_and_a_bye_iff_odd(request):
    p = pair(request)
    assert Counter(placed(p)) == Counter(request.present)
    assert (p.bye is not None) == (len(request.present) % 2 == 1)


@SLOW
@given(requests())
def test_every_broken_rule_is_reported_and_nothing_else(request):
    p = pair(request)
    found = Counter()
    for board in p.boards:
        found.update(board_breaks(request, board.white, board.black))
    if p.bye is not None and p.bye != due_bye(request):
        found[(Rule.BYE, (p.bye,))] += 1
    reported = Counter((r.rule, r.players) for r in p.broken)
    assert reported == found


@settings(max_examples=examples(25))
@given(requests(max_players=40))
def test_a_pairing_judged_costs_what_the_engine_said_and_no_other_costs_less(request):
    """`judged` prices a given pairing as the engine does (the arbiter's board shows it
    against the optimum): the engine's own at its objective, the top-down one no better."""
    p = pair(request)
    assert judged(request, [(b.white, b.black) for b in p.boards], p.bye) == p.objective
    theirs = baseline(request)
    if theirs is not None:
        assert judged(request, [(b.white, b.black) for b in theirs.boards],
                      theirs.bye) >= p.objective


@SLOW
@given(requests())
def test_never_worse_than_top_down_where_it_keeps_every_rule(request):
    ours, theirs = pair(request), baseline(request)
    if theirs is not None:
        assert theirs.broken == ()
        assert ours.broken == ()
        assert ours.objective <= theirs.objective


@settings(max_examples=examples(40))
@given(requests(max_players=10))
def test_equal_to_brute_force_on_small_rounds(request):
    p = pair(request)
    assert (p.objective.violations, p.objective.distance, p.objective.colour) == \
        brute_force(request)


@settings(max_examples=examples(15))
@given(requests(max_players=40))
def test_cpsat_and_blossom_agree(request):
    a, b = pair(request), pair(request, Engine.CPSAT)
    assert a.objective == b.objective
    assert a.boards == b.boards and a.bye == b.bye


@SLOW
@given(requests(), st.randoms(use_true_random=False))
def test_the_same_input_gives_the_same_pairing(request, rng):
    first = pair(request)
    meetings = list(request.meetings)
    rng.shuffle(meetings)
    shuffled = replace(request, meetings=tuple(meetings),
                       present=frozenset(sorted(request.present, key=lambda _: rng.random())))
    for again in (pair(request), pair(shuffled)):
        assert (again.boards, again.bye, again.broken) == (first.boards, first.bye, first.broken)



def _both_ways(request: PairingRequest) -> tuple[object, object]:
    """The engine's pairing (band, near boards, bound) and one matching on every board."""
    pruned = pair(request)
    table = evaluate(request)
    selection = blossom.solve(table, blossom.build(table), prune=False)
    assert isinstance(selection, Selection)
    full = to_pairing(request, table, selection, optimal=True, engine="blossom",
                      timings=pruned.timings)
    return pruned, full


@settings(max_examples=examples(15), suppress_health_check=[HealthCheck.too_slow])
@given(requests(min_players=blossom.PRUNE_FROM, max_players=120),
       st.randoms(use_true_random=False))
def test_pruning_the_far_boards_changes_no_pairing(request, rng):
    """The band, the first matching on near boards, the bound and the second matching give
    exactly the optimum over every board, also when the arbiter's fixes rule boards out."""
    _pruned_as_every_board(request, rng)


@settings(max_examples=examples(15), suppress_health_check=[HealthCheck.too_slow])
@given(requests(min_players=blossom.PRUNE_FROM, max_players=120, presets=("sliedrecht",)),
       st.randoms(use_true_random=False))
def test_a_first_matching_on_the_boards_that_keep_the_rules_changes_no_pairing(request, rng):
    """Under a rule of rank distance (Sliedrecht's 12 places) few boards break no rule, and
    the first matching is on them: the same optimum, also when the arbiter's fixes leave
    them no pairing of their own."""
    _pruned_as_every_board(request, rng, Fixes(forbidden=_cornered(request, rng)))


def _pruned_as_every_board(request: PairingRequest, rng: random.Random, *more: Fixes) -> None:
    players = sorted(request.present)
    forbidden = frozenset(frozenset(rng.sample(players, 2)) for _ in range(len(players) // 3))
    for fixes in (Fixes(), Fixes(forbidden=forbidden), *more):
        pruned, full = _both_ways(replace(request, fixes=fixes))
        assert pruned == full


def _cornered(request: PairingRequest, rng: random.Random) -> frozenset[frozenset[str]]:
    """Two players whose one opponent within the rules' distance is the same third player:
    no pairing keeps every rule, yet each of them has a board that does (or none at all)."""
    reach = request.rules.max_rank_distance or 12
    place = {pid: k for k, pid in enumerate(request.ranking)}
    a, b, c = rng.sample(sorted(request.present), 3)
    return frozenset(frozenset((p, q)) for p in (a, b) for q in request.present
                     if q not in (p, c) and abs(place[p] - place[q]) <= reach)


@pytest.mark.parametrize("instance", ["n100-last", "n200-middle"])
def test_a_round_under_a_rule_of_distance_takes_one_matching(monkeypatch, instance):
    """Sliedrecht pairs at most 12 places apart: the boards that break no rule hold a
    pairing, which is then the optimum, and the engine matches once, on them alone."""
    season = read_season((INSTANCES / f"{instance}.json").read_text(encoding="utf-8"))
    request = request_for_round(season, len(season.rounds))
    matched: list[int] = []
    match = blossom._match

    def spy(table, costs, use):
        matched.append(int(use.sum()))
        return match(table, costs, use)

    monkeypatch.setattr(blossom, "_match", spy)
    pruned, full = _both_ways(request)
    assert pruned == full
    engine, every_board = matched
    assert engine <= 12 * len(request.present) < every_board, matched


def test_a_band_too_narrow_to_prove_the_optimum_is_widened(monkeypatch):
    """With a band of 12 places the bound cannot clear the far boards of a stored round of
    100: the engine prices the band the bound asks for, proves the optimum there, and it is
    the same as on every board."""
    season = read_season((INSTANCES / "n100-last.json").read_text(encoding="utf-8"))
    request = request_for_round(season, len(season.rounds))
    bands: list[int | None] = []
    solve = blossom.solve

    def spy(table, costs, **kwargs):
        bands.append(table.within)
        return solve(table, costs, **kwargs)

    monkeypatch.setattr(blossom, "BAND", 12)
    monkeypatch.setattr(blossom, "solve", spy)
    pruned, full = _both_ways(request)
    assert pruned == full
    assert bands[0] == 12 and 12 < bands[1] < len(request.present) - 1, bands


# The rounds of 400 take seconds on the full graph: bench/pairing.py compares those.
@pytest.mark.parametrize("path", sorted(p for p in INSTANCES.glob("*.json")
                                        if not p.stem.startswith(("n40", "impossible"))),
                         ids=lambda p: p.stem)
def test_pruning_changes_no_stored_round(path):
    season = read_season(path.read_text(encoding="utf-8"))
    pruned, full = _both_ways(request_for_round(season, len(season.rounds)))
    assert pruned == full
