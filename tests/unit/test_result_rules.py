"""Issue 48: a result's lifecycle as a pure function, checked against a hand table: what a
report makes of what stood before it, and who may confirm."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from core.results import Outcome, Refusal, Reported, rule_confirm, rule_report
from core.season import Result

W, B, ARBITER = 1, 2, 9
"""White's and black's Telegram users, and the arbiter's."""
NOTHING = Reported(None, None, False)
WHITE_SAID_WIN = Reported(Result.WHITE_WINS, W, False)
FINAL = Reported(Result.WHITE_WINS, W, True)

REPORTS = [
    # (what stood, who reports, is he in the game, what he says, again?) -> what it makes
    (NOTHING, W, True, Result.WHITE_WINS, True, Outcome.RECORDED),
    (WHITE_SAID_WIN, W, True, Result.DRAW, True, Outcome.RECORDED),  # he changes his mind
    (WHITE_SAID_WIN, W, True, Result.WHITE_WINS, True, Outcome.RECORDED),  # asked again
    (WHITE_SAID_WIN, W, True, Result.WHITE_WINS, False, Outcome.UNCHANGED),  # a second tap
    (WHITE_SAID_WIN, B, True, Result.WHITE_WINS, True, Outcome.CONFIRMED),  # the same: yes
    (WHITE_SAID_WIN, B, True, Result.BLACK_WINS, True, Outcome.CONFLICT),
    (WHITE_SAID_WIN, B, True, Result.WHITE_WINS, False, Outcome.CONFIRMED),
    (NOTHING, 5, False, Result.WHITE_WINS, True, Refusal.NOT_IN_GAME),
    (FINAL, B, True, Result.BLACK_WINS, True, Refusal.ALREADY_CONFIRMED),
    (FINAL, W, True, Result.WHITE_WINS, False, Refusal.ALREADY_CONFIRMED),
]


@pytest.mark.parametrize("stood, actor, in_game, result, again, made", REPORTS)
def test_what_a_players_report_makes(stood, actor, in_game, result, again, made):
    assert rule_report(stood, result, by_player=True, in_game=in_game, actor=actor,
                       again=again) == made


@given(st.sampled_from([NOTHING, WHITE_SAID_WIN, FINAL]), st.sampled_from(list(Result)))
def test_the_arbiters_entry_is_final_whatever_stood(stood, result):
    assert rule_report(stood, result, by_player=False, in_game=False,
                       actor=ARBITER) is Outcome.CONFIRMED


CONFIRMATIONS = [
    (WHITE_SAID_WIN, B, True, True, None),
    (WHITE_SAID_WIN, ARBITER, False, False, None),  # the arbiter confirms any
    (WHITE_SAID_WIN, W, True, True, Refusal.NOT_IN_GAME),  # not his own report
    (WHITE_SAID_WIN, 5, False, True, Refusal.NOT_IN_GAME),
    (NOTHING, B, True, True, Refusal.NOTHING_REPORTED),
    (FINAL, B, True, True, Refusal.ALREADY_CONFIRMED),
]


@pytest.mark.parametrize("stood, actor, in_game, by_player, refused", CONFIRMATIONS)
def test_who_may_confirm(stood, actor, in_game, by_player, refused):
    assert rule_confirm(stood, by_player=by_player, in_game=in_game, actor=actor) == refused
