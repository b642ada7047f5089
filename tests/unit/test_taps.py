"""The Mini App's taps read by their declared forms (issue 48): the first form a tap fits,
with its values; a tap that fits none is refused whole."""

from __future__ import annotations

import pytest

from bot.web.taps import BOARD, SEASON, read


@pytest.mark.parametrize(("tap", "expected"), [
    ({"round": 3, "play": False}, ("play", {"round": 3, "play": False})),
    ({"round": 3, "here": True}, ("here", {"round": 3, "here": True})),
    ({"round": 3, "here": True, "play": True}, ("here", {"round": 3, "here": True})),
    ({"round": 3, "here": False}, None),  # not there is said by playing or not
    ({"round": True, "play": True}, None),  # JSON's true is no round
    ({"round": "3", "play": True}, None),
    ({"round": 3}, None),
    ([3, True], None),
    (None, None),
])
def test_a_members_season_tap(tap, expected):
    assert read(SEASON, tap) == expected


@pytest.mark.parametrize(("tap", "expected"), [
    ({"action": "publish", "version": "v"}, {"action": "publish", "version": "v"}),
    ({"action": "swap", "version": "v", "a": "p1", "b": "p2"},
     {"action": "swap", "version": "v", "a": "p1", "b": "p2"}),
    ({"action": "bye", "version": "v", "a": "p1"}, {"action": "bye", "version": "v", "a": "p1"}),
    ({"action": "swap", "version": "v", "a": "p1"}, None),  # a swap needs two
    ({"action": "bye", "version": "v"}, None),
    ({"action": "publish"}, None),  # which board it was made on
    ({"action": "drop table", "version": "v", "a": "p1"}, None),
    ({"action": "apart", "version": "v", "a": "p1", "b": 4}, None),
])
def test_the_arbiters_board_tap(tap, expected):
    found = read(BOARD, tap)
    assert (None if found is None else found[1]) == expected
