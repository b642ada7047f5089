"""Issue 36, what is at stake: the seeded Monte Carlo over the rest of the season, held against
an exact enumeration of every way small seasons can go; reproducible; and each run a full
ranking."""

from __future__ import annotations

import itertools
from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st

from core.chances import (
    HABITS,
    attendance,
    chances,
    next_round,
    rest_of_season,
    simulated_round,
)
from core.season import Absence, AbsenceReason, Game, Result, Round, Season
from core.simulation import outcomes
from core.standings import compute_standings
from tests.conftest import examples
from tests.seasons import build

SMALL = build({"preset": "sliedrecht", "planned_rounds": 4, "period_length": 4},
              "a:2100 b:1900 c:1850 d:1700 e:1600",
              ["a-b 1-0, c-d 1/2-1/2, e bye", "a-c 0-1, b-e 1-0, d notice"],
              planned_rounds=4)
"""Five players, two rounds played, two to go; d has played one of his two rounds."""


def exact(season: Season) -> dict[str, list[float]]:
    """Every way the rest can go (who comes, each game's result), with its chance: each
    player's chance of each final place."""
    start, left = rest_of_season(season)
    order = compute_standings(start).ranking
    rates = attendance(start)
    places = {code: [0.0] * len(order) for code in order}

    def go(done: Season, numbers: list[int], chance: float) -> None:
        if not numbers:
            for place, code in enumerate(compute_standings(done).ranking):
                places[code][place] += chance
            return
        number, rest = numbers[0], numbers[1:]
        active = [p.id for p in start.players if p.active_in(number)]
        for coming in itertools.product((True, False), repeat=len(active)):
            here = 1.0
            for code, came in zip(active, coming, strict=True):
                here *= rates[code] if came else 1 - rates[code]
            if not here:
                continue
            present = {code for code, came in zip(active, coming, strict=True) if came}
            boards = simulated_round(start, number, order, present, lambda w, b: Result.DRAW)
            games = [(g.white, g.black) for g in boards.games]
            for results in itertools.product(*(outcomes(start, w, b, HABITS)
                                               for w, b in games)):
                table = dict(zip(games, results, strict=True))
                rnd = simulated_round(start, number, order, present,
                                      lambda w, b, t=table: t[w, b][0])
                odds = here
                for _, p in results:
                    odds *= p
                go(replace(done, rounds=(*done.rounds, rnd)), rest, chance * odds)
    go(start, list(left), 1.0)
    return places


def test_the_monte_carlo_agrees_with_every_way_the_rest_can_go():
    truth = exact(SMALL)
    assert all(abs(sum(row) - 1) < 1e-9 for row in truth.values())
    found = chances(SMALL, runs=2500, seed=7)
    assert found.rounds_left == 2 and found.after_round == 2
    for code, row in truth.items():
        for place, share in enumerate(row, start=1):
            assert abs(found.share(code, place) - share) < 0.03, (code, place, share)


def test_attendance_comes_from_each_members_own_record():
    assert attendance(SMALL) == {"a": 1.0, "b": 1.0, "c": 1.0, "d": 0.5, "e": 1.0}


def test_the_same_season_gives_the_same_chances():
    assert chances(SMALL, runs=50) == chances(SMALL, runs=50)
    assert chances(SMALL, runs=50, seed=1) != chances(SMALL, runs=50, seed=2)


@settings(max_examples=examples(30), deadline=None)
@given(st.integers(0, 2**32), st.integers(1, 3))
def test_every_run_is_a_full_ranking(seed, left):
    season = replace(SMALL, planned_rounds=2 + left)
    found = chances(season, runs=20, seed=seed)
    players = [p.id for p in season.players]
    assert sorted(found.places) == sorted(players)
    for code in players:
        assert sum(found.places[code]) == 20  # each run gives him one place
    for place in range(1, len(players) + 1):
        assert sum(found.places[code][place - 1] for code in players) == 20  # and one each


def test_no_round_left_is_the_table_as_it_stands():
    done = replace(SMALL, planned_rounds=2)
    found = chances(done, runs=10)
    ranking = compute_standings(done).ranking
    assert found.rounds_left == 0
    assert all(found.share(code, place) == 1.0 for place, code in enumerate(ranking, 1))
    assert next_round(done, "a") is None


def places_every_way(season: Season, player: str) -> list[int]:
    """His place after each way the next round's boards (as `next_round` pairs them, taken
    from the engine here) can go: the brute force, independent of the search."""
    from core.pairing import before_pairing, pair, request_for_round

    start, left = rest_of_season(season)
    number = left[0]
    waiting = replace(start, rounds=(*start.rounds, Round(number)))
    paired = pair(request_for_round(before_pairing(waiting, number), number))
    bye = (Absence(paired.bye, AbsenceReason.BYE),) if paired.bye else ()
    out = []
    for results in itertools.product((Result.WHITE_WINS, Result.DRAW, Result.BLACK_WINS),
                                     repeat=len(paired.boards)):
        games = tuple(Game(b.white, b.black, r) for b, r in zip(paired.boards, results,
                                                                strict=True))
        ranking = compute_standings(replace(start, rounds=(*start.rounds, Round(
            number, None, games, bye)))).ranking
        out.append(ranking.index(player) + 1)
    return out


def test_the_next_round_every_way_it_can_go():
    """Two boards and a bye: every way tried, the best and worst those of the brute force;
    a win does no worse than a loss. The player with the bye has no next round to show."""
    ranking = compute_standings(rest_of_season(SMALL)[0]).ranking
    for player in ranking:
        found = next_round(SMALL, player)
        if found is None:
            continue
        every = places_every_way(SMALL, player)
        assert found.exact and (found.best, found.worst) == (min(every), max(every))
        assert found.best <= found.win <= found.loss <= found.worst
    assert sum(next_round(SMALL, player) is None for player in ranking) == 1  # the bye


def test_a_bigger_round_is_searched_and_never_claims_more_than_can_be():
    """Six boards (729 ways): searched, not tried one by one; what it finds is a place the
    round can really give, so never better than the true best nor worse than the true
    worst."""
    season = build({"preset": "sliedrecht", "planned_rounds": 3, "period_length": 3},
                   " ".join(f"p{k}:{2200 - 50 * k}" for k in range(12)),
                   [", ".join(f"p{k}-p{k + 1} 1-0" for k in range(0, 12, 2))])
    player = compute_standings(rest_of_season(season)[0]).ranking[5]
    found = next_round(season, player)
    every = places_every_way(season, player)
    assert found is not None and not found.exact
    assert min(every) <= found.best <= found.win and found.loss <= found.worst <= max(every)
