"""Dates as members type them, in Dutch.

`3-12`, `3/12`, `3-12-2026`, `2026-12-03`, `3 december`, `3 dec`, `do 3 dec`, a weekday
(`donderdag`, `do`: the next such day, today included), `vandaag`, `morgen`, `overmorgen`
and `volgende week` (the club night of next week). dateparser reads the dates and weekdays.
The four relative words are this module's own, because dateparser counts from the current
moment and would skip today's date. A date never has more than four words; the longest
phrase that reads as a day wins, so `3 dec vakantie` is a date and a reason.

dateparser takes most of a second to load, so callers run in a worker thread
(`asyncio.to_thread`).
"""

from __future__ import annotations

import datetime as dt
import functools
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from dateparser.date import DateDataParser

MAX_WORDS = 4
RELATIVE = {"vandaag": 0, "morgen": 1, "overmorgen": 2}
NEXT_WEEK = ("volgende", "week")
DIGITS = re.compile(r"[0-9]{1,15}")
SHAPED = re.compile(r"[0-9]+([-/.][0-9]*)+")
"""Written as a date, valid or not (`31-2`): never a reason or a name."""


@dataclass(frozen=True, slots=True)
class Found:
    date: dt.date
    words: int
    """How many of the words it took."""


def is_number(word: str) -> bool:
    """ASCII digits only (`'²'.isdigit()` is true too), and short enough for the database."""
    return DIGITS.fullmatch(word) is not None


def looks_like_date(word: str) -> bool:
    return SHAPED.fullmatch(word) is not None


def read(words: Sequence[str], today: dt.date, club_day: int | None = None) -> Found | None:
    """The date the first words say, or None when they start none. A bare number is not a
    date (it is a round number); `club_day` is the weekday of the club night (Monday 0), for
    `volgende week`."""
    if not words:
        return None
    lowered = [w.lower() for w in words[:MAX_WORDS]]
    if lowered[0] in RELATIVE:
        return Found(today + dt.timedelta(days=RELATIVE[lowered[0]]), 1)
    if tuple(lowered[:2]) == NEXT_WEEK:
        return Found(next_week(today, club_day), 2)
    for size in range(len(lowered), 0, -1):
        if size == 1 and is_number(lowered[0]):
            return None
        if any(_foreign_digits(w) for w in lowered[:size]):
            continue  # dateparser reads `²` and `٣` as days; a member does not mean that
        date = _parse(" ".join(lowered[:size]), today)
        if date is not None:
            return Found(date, size)
    return None


def _foreign_digits(word: str) -> bool:
    return any(c.isdigit() and not c.isascii() for c in word)


def club_day(days: Iterable[dt.date | None]) -> int | None:
    """The club night's weekday: the one most rounds are on (None without dated rounds)."""
    common = Counter(d.weekday() for d in days if d is not None).most_common(1)
    return common[0][0] if common else None


def next_week(today: dt.date, club_day: int | None) -> dt.date:
    """The club night in the week after this one (Monday to Sunday); without a known club
    night, a week from today."""
    if club_day is None:
        return today + dt.timedelta(days=7)
    monday = today - dt.timedelta(days=today.weekday()) + dt.timedelta(days=7)
    return monday + dt.timedelta(days=club_day)


def _parse(phrase: str, today: dt.date) -> dt.date | None:
    """A phrase that names one day. dateparser looks into the future from the day before, so
    today's date and today's weekday are today."""
    parsed = _parser(today - dt.timedelta(days=1)).get_date_data(phrase)
    if parsed.date_obj is None or parsed.period != "day":
        return None  # nothing, or a month (`dec`) or a time (`3.12`, `20:00`)
    return parsed.date_obj.date()


@functools.lru_cache(maxsize=4)
def _parser(base: dt.date) -> DateDataParser:
    from dateparser.date import DateDataParser

    settings = {"RELATIVE_BASE": dt.datetime.combine(base, dt.time(12)),
                "PREFER_DATES_FROM": "future", "DATE_ORDER": "DMY",
                "RETURN_TIME_AS_PERIOD": True}
    return DateDataParser(languages=["nl"], settings=settings)
