"""What a sign-off earns, priced by the core (issue 11: the preview moved out of the bot)."""

from __future__ import annotations

from fractions import Fraction

from core.preview import Earning, sign_off_price
from core.season import AbsenceReason, ExternalDay, season_from_data
from core.standings import compute_standings


def season(notices: int, *, waiting_absent: str | None = "a"):
    """Four players; `notices` played rounds in which `a` was signed off with notice (the
    others play), then a round waiting to be paired."""
    rounds = [{"round": k + 1, "games": [{"white": "b", "black": "c", "result": "1-0"}],
               "absent": [{"player": "a", "reason": "notice"},
                          {"player": "d", "reason": "notice"}]} for k in range(notices)]
    rounds.append({"round": notices + 1, "absent": [] if waiting_absent is None else
                   [{"player": waiting_absent, "reason": "notice"}]})
    return season_from_data({
        "format": "keizer-season/1", "club": "C", "season": "S",
        "rules": {"preset": "sliedrecht", "planned_rounds": 30, "period_length": 30},
        "players": [{"id": p, "name": p.upper(), "rating": 1500} for p in "abcd"],
        "rounds": rounds})


def test_a_sign_off_in_time_earns_its_fraction_of_the_value():
    s = season(1)
    standings = compute_standings(s)
    price = sign_off_price(s, standings.values, "a", 2, AbsenceReason.NOTICE, None)
    assert price.earning is Earning.FRACTION
    assert price.fraction == s.rules.compensation_for(
        next(a.kind for a in s.rounds[1].absent))
    assert price.points == price.fraction * standings.values["a"]


def test_past_the_cap_a_sign_off_earns_nothing():
    cap = season(0).rules.notice_cap
    assert cap is not None
    s = season(cap)
    price = sign_off_price(s, compute_standings(s).values, "a", cap + 1, AbsenceReason.NOTICE, None)
    assert price == type(price)(Earning.CAPPED, cap=cap)


def test_a_round_further_ahead_is_priced_by_the_rule_and_the_cap_named_where_it_bites():
    s = season(1)
    standings = compute_standings(s)
    price = sign_off_price(s, standings.values, "b", 9, AbsenceReason.NOTICE, None)
    assert price.earning is Earning.LATER and price.cap is None
    assert 0 < price.fraction < 1
    cap = s.rules.notice_cap
    assert cap is not None
    # `a` has two rounds that count (one played, one waiting); `earlier` of the same request.
    last = sign_off_price(s, standings.values, "a", 9, AbsenceReason.NOTICE, None, cap - 3)
    assert last == type(last)(Earning.LATER, price.fraction, cap=cap)
    past = sign_off_price(s, standings.values, "a", 10, AbsenceReason.NOTICE, None, cap - 2)
    assert past == type(past)(Earning.CAPPED, cap=cap)
    external = sign_off_price(s, compute_standings(s).values, "b", 9, AbsenceReason.EXTERNAL,
                              ExternalDay.CLUB_NIGHT)
    assert external.earning is Earning.LATER and external.cap is None
    assert external.fraction > Fraction(0)


def test_a_sign_off_priced_before_it_is_stored_is_priced_as_after():
    """The bot prices a sign-off from the season as committed (outside the write lock): the
    price must be the one the stored sign-off gets."""
    from core.preview import after_sign_off

    before, stored = season(3, waiting_absent=None), season(3)
    ahead = after_sign_off(before, "a", 4, AbsenceReason.NOTICE, None)
    assert ahead == stored
    standings = compute_standings(before)
    assert sign_off_price(ahead, standings.values, "a", 4, AbsenceReason.NOTICE, None) == \
        sign_off_price(stored, compute_standings(stored).values, "a", 4, AbsenceReason.NOTICE, None)
    assert after_sign_off(before, "a", 9, AbsenceReason.NOTICE, None) is before
    assert after_sign_off(season(3), "a", 2, AbsenceReason.NOTICE, None) is None  # played
