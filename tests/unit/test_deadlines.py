"""Deadlines count real minutes, also across the two changes of the clocks (issue 11)."""

from __future__ import annotations

import datetime as dt
from zoneinfo import ZoneInfo

import pytest

from bot.services import deadline_for, round_start
from storage.club import ClubSettings

AMSTERDAM = ZoneInfo("Europe/Amsterdam")


def settings(start: str, minutes: int) -> ClubSettings:
    return ClubSettings("Club", dt.time.fromisoformat(start), minutes, 1440, None, None)


@pytest.mark.parametrize(("date", "start", "minutes", "deadline_utc"), [
    # 25 October 2026, clocks go back at 03:00 CEST: 03:30 is CET (UTC+1), 02:30 UTC.
    (dt.date(2026, 10, 25), "03:30", 60, dt.datetime(2026, 10, 25, 1, 30, tzinfo=dt.UTC)),
    # 29 March 2026, clocks jump from 02:00 to 03:00: 03:30 is CEST (UTC+2), 01:30 UTC;
    # "60 minutes before" is 01:30 CET, not the 02:30 that does not exist.
    (dt.date(2026, 3, 29), "03:30", 60, dt.datetime(2026, 3, 29, 0, 30, tzinfo=dt.UTC)),
    # An ordinary club night: 20:00 CET, two hours before.
    (dt.date(2026, 12, 1), "20:00", 120, dt.datetime(2026, 12, 1, 17, 0, tzinfo=dt.UTC)),
])
def test_the_deadline_is_real_minutes_before_the_start(date, start, minutes, deadline_utc):
    rules = settings(start, minutes)
    deadline = deadline_for(date, rules, AMSTERDAM)
    assert deadline == deadline_utc
    assert round_start(date, rules, AMSTERDAM) - deadline == dt.timedelta(minutes=minutes)


def test_a_start_that_does_not_exist_counts_from_before_the_jump():
    # 02:30 on 29 March 2026 does not exist in Amsterdam; it is read as 02:30 CET.
    start = round_start(dt.date(2026, 3, 29), settings("02:30", 0), AMSTERDAM)
    assert start == dt.datetime(2026, 3, 29, 1, 30, tzinfo=dt.UTC)
