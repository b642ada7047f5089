"""The arbiter's fixes against a changed attendance: what no longer fits is split off, and
what is kept always makes a valid request (issue 11: a round never gets stuck)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from core.pairing import Fixes, PairingRequest
from core.pairing.evaluate import evaluate
from core.pairing.request import NO_FIXES, fitting_fixes
from core.rules import PRESETS

PLAYERS = [f"p{k}" for k in range(8)]
names = st.sampled_from(PLAYERS)


@st.composite
def fixes(draw: st.DrawFn) -> Fixes:
    boards = draw(st.lists(st.tuples(names, names), max_size=4))
    forbidden = draw(st.frozensets(st.frozensets(names, min_size=2, max_size=2), max_size=3))
    return Fixes(tuple(boards), forbidden, draw(st.none() | names),
                 draw(st.frozensets(names, max_size=3)))


@given(fixes(), st.frozensets(names, min_size=2))
def test_kept_fixes_always_make_a_valid_request(hand, present):
    kept, dropped = fitting_fixes(hand, present)
    request = PairingRequest(round=1, ranking=tuple(PLAYERS), present=present,
                             rules=PRESETS["sliedrecht"], fixes=kept)
    evaluate(request)  # raises InvalidInputError for unusable fixes
    assert set(kept.boards) | set(dropped.boards) == set(hand.boards)
    assert kept.forbidden | dropped.forbidden == hand.forbidden
    assert kept.leave_out | dropped.leave_out == hand.leave_out
    assert (kept.bye or dropped.bye) == hand.bye


@given(fixes())
def test_fixes_that_fit_are_kept_whole(hand):
    everyone = frozenset(PLAYERS)
    kept, dropped = fitting_fixes(hand, everyone)
    if dropped == NO_FIXES:
        assert kept == hand


def test_a_swap_with_a_player_who_signed_off_goes_and_the_rest_stays():
    hand = Fixes(boards=(("p0", "p1"), ("p2", "p3")), bye="p4")
    kept, dropped = fitting_fixes(hand, frozenset({"p0", "p2", "p3", "p4", "p5"}))
    assert kept == Fixes(boards=(("p2", "p3"),), bye="p4")
    assert dropped == Fixes(boards=(("p0", "p1"),))


def test_a_bye_in_a_round_that_became_even_goes():
    kept, dropped = fitting_fixes(Fixes(bye="p0"), frozenset({"p0", "p1", "p2", "p3"}))
    assert kept == NO_FIXES and dropped == Fixes(bye="p0")
