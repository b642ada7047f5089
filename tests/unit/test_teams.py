"""The club's teams in the core (issue 49): the club round a match takes its players from,
the order substitutes are asked in, the lineup the answers make, board results as typed."""

from __future__ import annotations

import datetime as dt
from fractions import Fraction

from hypothesis import given
from hypothesis import strategies as st

from core.season import ExternalDay
from core.teams import (
    Candidate,
    Fixture,
    board_results,
    lineup,
    match_score,
    our_side,
    points,
    read_fixtures,
    round_of_match,
    substitute_order,
)

THURSDAYS = [(1, dt.date(2026, 12, 3)), (2, dt.date(2026, 12, 10)), (3, dt.date(2026, 12, 17))]


def test_a_match_on_the_club_night_is_priced_as_club_night():
    assert round_of_match(dt.date(2026, 12, 10), THURSDAYS) == (2, ExternalDay.CLUB_NIGHT)


def test_a_match_on_another_day_takes_the_round_of_its_week():
    """Saturday 12 December is in the week of Thursday 10 December (Monday to Sunday)."""
    assert round_of_match(dt.date(2026, 12, 12), THURSDAYS) == (2, ExternalDay.OTHER_DAY)
    assert round_of_match(dt.date(2026, 12, 7), THURSDAYS) == (2, ExternalDay.OTHER_DAY)
    assert round_of_match(dt.date(2026, 12, 13), THURSDAYS) == (2, ExternalDay.OTHER_DAY)


def test_a_week_without_a_round_signs_nobody_off():
    assert round_of_match(dt.date(2026, 12, 26), THURSDAYS) is None
    assert round_of_match(dt.date(2026, 12, 3), [(1, None)]) is None


def test_of_a_double_round_the_match_day_or_else_the_first():
    double = [(4, dt.date(2027, 1, 7)), (5, dt.date(2027, 1, 9))]
    assert round_of_match(dt.date(2027, 1, 9), double) == (5, ExternalDay.CLUB_NIGHT)
    assert round_of_match(dt.date(2027, 1, 10), double) == (4, ExternalDay.OTHER_DAY)


def test_substitutes_come_from_the_nearest_lower_team_first_strongest_first():
    willing = [Candidate("a", 1500, None), Candidate("b", 1900, 3), Candidate("c", 1700, 2),
               Candidate("d", 2100, 2), Candidate("e", 2000, 1), Candidate("f", 1800, None)]
    assert substitute_order(1, willing) == ["d", "c", "b", "f", "a"]
    assert substitute_order(2, willing) == ["b", "f", "a"]  # team 1 and 2 play no lower
    assert substitute_order(3, willing) == ["f", "a"]


def test_the_lineup_is_the_regulars_who_can_then_the_substitutes_who_can():
    assert lineup(4, ["r1", "r2", "r3", "r4", "r5"], {"r2", "r4", "r5", "s2"}, ["s1", "s2"]) \
        == ["r2", "r4", "r5", "s2"]
    assert lineup(2, ["r1", "r2", "r3"], {"r1", "r2", "r3"}, []) == ["r1", "r2"]


def test_board_results_as_typed():
    assert board_results(["1", "½", "0", "=", "0.5", "1/2", "r", "1"], 8) == \
        [1, Fraction(1, 2), 0, *[Fraction(1, 2)] * 4, 1]
    assert board_results(["1", "½"], 3) is None
    assert board_results(["1", "2"], 2) is None
    assert match_score([1, Fraction(1, 2), 0, 1]) == (Fraction(5, 2), Fraction(3, 2))
    assert [points(Fraction(n, 2)) for n in (0, 1, 2, 11)] == ["0", "½", "1", "5½"]


CODES = st.sampled_from([f"p{k}" for k in range(12)])


@given(st.integers(1, 10), st.lists(CODES, unique=True), st.sets(CODES),
       st.lists(CODES, unique=True))
def test_a_lineup_never_holds_one_twice_nor_one_who_cannot(boards, regulars, yes, subs):
    made = lineup(boards, regulars, yes, subs)
    assert len(made) == len(set(made)) <= boards
    assert set(made) <= yes
    playing = [code for code in regulars if code in made]
    assert made[:len(playing)] == playing  # the regulars first, in board order


@given(st.integers(1, 4), st.lists(st.builds(Candidate, CODES, st.none() | st.integers(0, 2800),
                                             st.none() | st.integers(1, 5)),
                                   unique_by=lambda c: c.code))
def test_no_substitute_is_asked_from_the_team_or_above(team, willing):
    order = substitute_order(team, willing)
    teams = {c.code: c.team for c in willing}
    assert all(teams[code] is None or teams[code] > team for code in order)


SCHEDULE = """Ronde;Datum;Thuis;Uit
1;12-12-2026;Het Paard 1;Testclub 2
1;12-12-2026;Testclub;De Toren 3
2;09-01-2027;Testclub 2;Schaakmat 1
2;09-01-2027;De Toren 3;Het Paard 1
;onbekend;Testclub 2;Niemand
"""


def test_a_federations_schedule_is_read_with_our_side_of_each_match():
    fixtures = read_fixtures(SCHEDULE)
    assert fixtures is not None and len(fixtures) == 4  # the line without a date is left out
    assert fixtures[0] == Fixture(dt.date(2026, 12, 12), 1, "Het Paard 1", "Testclub 2")
    sides = [our_side(f, "Testclub") for f in fixtures]
    assert sides == [(2, False, "Het Paard 1"), (1, True, "De Toren 3"),
                     (2, True, "Schaakmat 1"), None]


def test_a_schedule_in_english_with_commas_and_iso_dates():
    text = "date,home team,away team\n2026-12-12,Testclub 3,Het Paard\n"
    assert read_fixtures(text) == [Fixture(dt.date(2026, 12, 12), None, "Testclub 3",
                                           "Het Paard")]


def test_a_file_without_the_columns_is_no_schedule():
    assert read_fixtures("Relatienummer;Naam;Elo\n1;A;1500\n") is None
    assert read_fixtures("") is None
    assert our_side(Fixture(dt.date(2026, 1, 1), 1, "Testclubje 2", "X"), "Testclub") is None
