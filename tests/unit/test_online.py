"""Issue 37: the club's clock for an online round, and what a lichess game's status means
for the round."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from core.online import MOST_INCREMENT, MOST_MINUTES, Clock, Ending, ending, result_of
from core.season import Result


@given(st.integers(1, MOST_MINUTES), st.integers(0, MOST_INCREMENT))
def test_a_clock_reads_back_as_it_is_written(minutes, increment):
    clock = Clock(minutes, increment)
    assert Clock.parse(str(clock)) == clock
    assert Clock.parse(f" {minutes} + {increment} ") == clock


@pytest.mark.parametrize("text", ["0+10", "181+0", "45+181", "45", "45+", "snel", "45-15",
                                  "1000+5", ""])
def test_what_lichess_cannot_play_is_no_clock(text):
    assert Clock.parse(text) is None


@pytest.mark.parametrize(("status", "winner", "result"), [
    ("mate", "white", Result.WHITE_WINS), ("resign", "black", Result.BLACK_WINS),
    ("outoftime", "white", Result.WHITE_WINS), ("timeout", "black", Result.BLACK_WINS),
    ("draw", None, Result.DRAW), ("stalemate", None, Result.DRAW),
    # Out of time against a lone king: lichess calls it drawn, with no winner.
    ("outoftime", None, Result.DRAW),
])
def test_a_finished_game_gives_its_result(status, winner, result):
    assert ending(status) is Ending.DECIDED
    assert result_of(status, winner) is result


@pytest.mark.parametrize(("status", "shown"), [
    ("created", Ending.WAITING), ("started", Ending.PLAYING), ("noStart", Ending.NOT_PLAYED),
    ("aborted", Ending.NOT_PLAYED), ("unknownFinish", Ending.NOT_PLAYED)])
def test_a_game_not_finished_or_never_played_gives_no_result(status, shown):
    assert ending(status) is shown
    assert result_of(status, "white") is None
