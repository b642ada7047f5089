"""Issue 34: the rules of a sign-off and of a round's completion are the core's, pure, and
tested here; storage stores what they decide."""

from __future__ import annotations

import datetime as dt

import pytest
from hypothesis import given
from hypothesis import strategies as st

from core import rounds
from core.attendance import Earlier, Ruling, on_time, rule_sign_off
from core.rounds import RoundState
from core.season import AbsenceReason

DEADLINE = dt.datetime(2026, 12, 3, 18, 0, tzinfo=dt.UTC)
BEFORE = DEADLINE - dt.timedelta(minutes=1)
AFTER = DEADLINE + dt.timedelta(minutes=1)
IN_TIME = Earlier(AbsenceReason.NOTICE, on_time=True)
LATE = Earlier(AbsenceReason.NO_NOTICE, on_time=False)
BYE = Earlier(AbsenceReason.BYE, on_time=True)


def test_in_time_is_the_send_time_against_the_deadline():
    assert on_time(DEADLINE, DEADLINE, RoundState.LOCKED)  # the deadline itself counts
    assert not on_time(AFTER, DEADLINE, RoundState.PLANNED)
    # Without a deadline: in time until the round is locked.
    assert on_time(AFTER, None, RoundState.PLANNED)
    assert not on_time(BEFORE, None, RoundState.LOCKED)


@pytest.mark.parametrize(("state", "sent", "earlier", "paired", "correction", "ruling"), [
    # Plain cases.
    (RoundState.PLANNED, BEFORE, None, False, False, Ruling(True, False, False)),
    (RoundState.LOCKED, AFTER, None, False, False, Ruling(False, False, False)),
    # A late one never downgrades one made in time...
    (RoundState.LOCKED, AFTER, IN_TIME, False, False, Ruling(False, True, False)),
    # ...but replaces a late one, and a bye (which the member did not ask for himself).
    (RoundState.LOCKED, AFTER, LATE, False, False, Ruling(False, False, False)),
    (RoundState.LOCKED, AFTER, BYE, False, False, Ruling(False, False, False)),
    # Sent in time, read after the draft was made with him in it: the draft goes.
    (RoundState.DRAFTED, BEFORE, None, True, False, Ruling(True, False, True)),
    (RoundState.DRAFTED, BEFORE, None, False, False, Ruling(True, False, False)),
    (RoundState.DRAFTED, AFTER, None, True, False, Ruling(False, False, False)),
    # The arbiter's correction is in time and pairs by hand: no draft dropped.
    (RoundState.DRAFTED, AFTER, None, True, True, Ruling(True, False, False)),
    (RoundState.PUBLISHED, AFTER, IN_TIME, True, True, Ruling(True, False, False)),
])
def test_a_sign_off_is_ruled_as_the_club_rules_say(state, sent, earlier, paired, correction,
                                                     ruling):
    assert rule_sign_off(state, DEADLINE, sent, earlier=earlier, paired=paired,
                         correction=correction) == ruling


@given(state=st.sampled_from(RoundState), minutes=st.integers(-600, 600),
       earlier=st.sampled_from([None, IN_TIME, LATE, BYE]), paired=st.booleans(),
       correction=st.booleans())
def test_a_ruling_keeps_or_changes_never_both(state, minutes, earlier, paired, correction):
    ruling = rule_sign_off(state, DEADLINE, DEADLINE + dt.timedelta(minutes=minutes),
                           earlier=earlier, paired=paired, correction=correction)
    assert not (ruling.keeps_earlier and ruling.drops_draft)
    assert not ruling.keeps_earlier or (not ruling.on_time and earlier is not None)
    assert not ruling.drops_draft or (paired and state is RoundState.DRAFTED)
    assert ruling.on_time or not correction


def test_a_round_is_complete_when_every_result_is_final():
    assert rounds.complete([True, True])
    assert not rounds.complete([True, False])
    assert rounds.complete([])  # a round of byes only has nothing to wait for
