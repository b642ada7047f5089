"""Invariants of the standings over random realistic seasons of every preset and mode."""

from __future__ import annotations

import itertools
from dataclasses import replace
from fractions import Fraction

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from core import coefficients
from core.coefficients import VECTOR_FROM
from core.ledger import KeptEvents, one_player, season_events
from core.rules import Revaluation
from core.season import (
    Absence,
    AbsenceReason,
    Game,
    Result,
    Round,
    Season,
    season_from_data,
)
from core.standings import compute_standings, standings_history
from core.values import valuation
from tests.conftest import examples
from tests.seasons import as_data
from tests.strategies import seasons


@given(seasons())
def test_ranking_is_a_permutation_of_the_players_in_the_competition(season):
    for standings in standings_history(season):
        expected = {p.id for p in season.players if p.joined <= max(standings.after_round, 1)}
        assert sorted(standings.ranking) == sorted(expected)
        assert [row.rank for row in standings.rows] == list(range(1, len(expected) + 1))


@given(seasons(), st.randoms(use_true_random=False))
def test_order_of_players_and_games_in_the_file_changes_nothing(season, rng):
    data = as_data(season)
    for player in data["players"]:
        player.setdefault("rating", 1000)  # unrated players rank by registration order
    base = season_from_data(data)
    rng.shuffle(data["players"])
    for rnd in data["rounds"]:
        rng.shuffle(rnd.get("games", []))
        rng.shuffle(rnd["absent"])
    shuffled = season_from_data(data)
    a, b = compute_standings(base), compute_standings(shuffled)
    assert [(r.id, r.score, r.value) for r in a.rows] == [(r.id, r.score, r.value) for r in b.rows]


@given(seasons(), st.data())
def test_frozen_a_win_instead_of_a_loss_never_lowers_the_score_of_that_round(season, data):
    season = replace(season, rules=replace(season.rules, revaluation=Revaluation.FROZEN))
    decisive = [(rnd.number, i) for rnd in season.rounds for i, g in enumerate(rnd.games)
                if g.result in (Result.WHITE_WINS, Result.BLACK_WINS)]
    assume(decisive)
    number, index = data.draw(st.sampled_from(decisive))
    rnd = season.round(number)
    game = rnd.games[index]
    loser = game.black if game.result is Result.WHITE_WINS else game.white
    flipped = Game(game.white, game.black,
                   Result.BLACK_WINS if game.result is Result.WHITE_WINS else Result.WHITE_WINS)
    games = (*rnd.games[:index], flipped, *rnd.games[index + 1:])
    rounds = list(season.rounds)
    rounds[number - 1] = replace(rnd, games=games)
    changed = replace(season, rounds=tuple(rounds))
    # Frozen prices round `number` once, at the values before it, so the win adds the
    # opponent's value. (After later rounds he can end lower: rising means meeting other
    # opponents at other values; see docs/rules.md.)
    before = compute_standings(season, number).row(loser).score
    assert compute_standings(changed, number).row(loser).score >= before


@given(seasons(modes=False, ladders=False))
def test_classic_after_round_1_every_score_is_the_hand_formula(season):
    assume(season.rounds)
    after1 = compute_standings(season, 1)
    rules = season.rules
    values = valuation(rules, season.starting_order())
    bonus = rules.start_bonus * (
        Fraction(rules.planned_rounds - 1, rules.planned_rounds)
        if rules.start_bonus_fade.value == "linear" else 1)
    for row in after1.rows:
        expected = bonus * values[row.id]
        rnd = season.round(1)
        for game in rnd.games:
            if row.id not in (game.white, game.black) or game.result is None:
                continue
            if game.result.is_forfeit:
                came = (game.result is Result.WHITE_BY_FORFEIT and row.id == game.white) or (
                    game.result is Result.BLACK_BY_FORFEIT and row.id == game.black)
                kind = "opponent_absent" if came else "no_notice"
                expected += rules.compensation_for(kind) * values[row.id]
                continue
            mine = game.result.white_score if row.id == game.white else 1 - game.result.white_score
            other = game.black if row.id == game.white else game.white
            expected += mine * values[other]
        for absence in rnd.absent:
            if absence.player == row.id:
                if absence.kind in rules.team_valued:
                    expected += rules.team_award(absence.team, absence.result)
                else:
                    expected += rules.compensation_for(absence.kind) * values[row.id]
        assert row.score == expected, row.id


@given(seasons())
def test_breakdown_adds_up_to_the_score_in_every_mode(season):
    standings = compute_standings(season)
    for row in standings.rows:
        lines = standings.breakdown(row.id)
        assert sum(line.points for line in lines) == row.score
        played = [line for line in lines if line.kind is None and line.round and not line.pending]
        assert len(played) == row.played


@given(seasons())
def test_equal_scores_keep_the_previous_order(season):
    history = standings_history(season)
    for previous, current in itertools.pairwise(history):
        place = {pid: i for i, pid in enumerate(previous.ranking)}
        for upper, lower in zip(current.rows, current.rows[1:], strict=False):
            assert upper.score >= lower.score
            if upper.score == lower.score and upper.id in place and lower.id in place:
                assert place[upper.id] < place[lower.id]


@given(seasons())
def test_later_rounds_do_not_change_earlier_standings(season):
    assume(len(season.rounds) >= 2)
    cut = replace(season, rounds=season.rounds[:-1])
    full = compute_standings(season, len(cut.rounds))
    assert [(r.id, r.score) for r in compute_standings(cut).rows] == \
        [(r.id, r.score) for r in full.rows]



@given(seasons())
@settings(max_examples=examples(40))
def test_standings_depend_only_on_the_complete_rounds(season):
    """The bot computes the standings once per state of the complete rounds (a sign-off for
    the next round does not recompute them): that is only right if this holds."""
    complete = replace(season, rounds=season.rounds[:season.complete_rounds])
    assert compute_standings(complete) == compute_standings(season)


@given(seasons())
def test_one_players_events_are_his_events_in_the_whole_season(season):
    """Pricing one sign-off reads one player's ledger: the same events as the whole one."""
    whole = season_events(season, len(season.rounds))
    for player in season.players:
        his = season_events(one_player(season, player.id), len(season.rounds))
        assert [known.get(player.id) for known in his] == \
            [known.get(player.id) for known in whole]


@given(seasons(), st.data())
def test_standings_made_from_kept_events_are_the_standings_made_anew(season, data):
    """Issue 50.2: the standings worker keeps the season's events and, after each change,
    makes only the changed rounds' again: after any run of corrected results, absences
    of another reason (which move the caps of every later round) and changed rules, the
    standings are the ones made from nothing. A low cap on notices makes an absence's reason
    change the events of later rounds that are themselves unchanged."""
    season = replace(season, rules=replace(season.rules, notice_cap=data.draw(
        st.sampled_from([1, 2, None]))))
    kept = KeptEvents()
    assert compute_standings(season, kept=kept) == compute_standings(season)
    for _ in range(data.draw(st.integers(1, 6))):
        season = data.draw(_changed(season))
        assert compute_standings(season, kept=kept) == compute_standings(season)


@st.composite
def _changed(draw: st.DrawFn, season: Season) -> Season:
    """The season with one change: a game's result, an absence's reason, or the rules."""
    rounds = list(season.rounds)
    index = draw(st.integers(0, max(len(rounds) - 1, 0)))
    rnd = rounds[index] if rounds else Round(1)
    what = draw(st.sampled_from(["result", "absence", "rules"]))
    if what == "result" and rnd.games and rnd.is_complete:
        at = draw(st.integers(0, len(rnd.games) - 1))
        game = replace(rnd.games[at], result=draw(st.sampled_from(list(Result))))
        rounds[index] = replace(rnd, games=(*rnd.games[:at], game, *rnd.games[at + 1:]))
    elif what == "absence" and rnd.absent:
        at = draw(st.integers(0, len(rnd.absent) - 1))
        absence = Absence(rnd.absent[at].player, draw(st.sampled_from(
            [AbsenceReason.NOTICE, AbsenceReason.NO_NOTICE, AbsenceReason.ARBITER])))
        rounds[index] = replace(rnd, absent=(*rnd.absent[:at], absence, *rnd.absent[at + 1:]))
    else:
        return replace(season, rules=replace(season.rules, notice_cap=draw(
            st.sampled_from([None, 1, 2]))))
    return replace(season, rounds=tuple(rounds))


@given(seasons())
def test_the_sums_in_numpy_are_the_sums_in_python_integers(season):
    """Issue 50: a large season's scores are summed in numpy; every standing after every
    round is the one Python integers give (a small season shows it: the threshold lowered)."""
    python = standings_history(season)
    coefficients.VECTOR_FROM = 0
    try:
        vectorised = standings_history(season)
    finally:
        coefficients.VECTOR_FROM = VECTOR_FROM
    assert [(s.ranking, [(r.score, r.value) for r in s.rows]) for s in vectorised] == \
        [(s.ranking, [(r.score, r.value) for r in s.rows]) for s in python]


def test_sums_that_might_not_fit_64_bits_stay_python_integers():
    """Where a sum could pass 64 bits the numpy sums decline, and Python integers make it."""
    made = coefficients.Coefficients()
    for pid in ("a", "b"):
        made.enter(pid)
    made.add("a", "b", 3)
    made.add("b", "a", 1)
    huge = 1 << 70
    coefficients.VECTOR_FROM = 0
    try:
        assert made.sums({"a": huge, "b": 2}) == [6, huge]
        assert made.sums({"a": 5, "b": 2}) == [6, 5]
        zero = coefficients.Coefficients()  # nothing earned: only the value is too big
        zero.enter("a")
        zero.add("a", "a", 0)
        assert zero.sums({"a": huge}) == [0]
    finally:
        coefficients.VECTOR_FROM = VECTOR_FROM
