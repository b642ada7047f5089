"""Dates as members type them, in Dutch or in English: each language its own words.

Written dates (`3-12`, `3/12`, `3-12-2026`, `2026-12-03`, `3 december`, `3 dec`, `do 3 dec`;
`3 Dec`, `Dec 3`, `Thu 10 Dec`) are read by dateparser, in the member's language, day before
month. The relative ones are this module's own grammar, counted from today (dateparser counts
from the current moment, and would skip today's date or count from the day before):

- Dutch: `vandaag`, `morgen`, `overmorgen`, `gisteren`, `eergisteren`; a weekday (`vrijdag`,
  `vr`: the next such day, today included; `komende`/`aanstaande`/`deze vrijdag` the same,
  `volgende vrijdag` after today); `volgende week` (the club night of next week) and
  `volgende week vrijdag` (that day of next week); `over 3 dagen`, `over twee weken`.
- English: `today`, `tomorrow`, `day after tomorrow`, `yesterday`; a weekday (`friday`,
  `fri`; `this`/`coming friday` the same); `next week`, and `next friday`, `next week
  friday` or `friday next week` (that day of next week); `in 3 days`,
  `in two weeks`, `in a week`.

A date is one phrase of at most four words, and it never runs over a word that joins or
bounds a range (`tot`, `t/m`, `en`, `van`, `ronde`; `to`, `until`, `and`, `from`, `round`):
`11 december tot 8 januari` is two dates, never the one dateparser would make of `11 december
tot 8`. The longest phrase that reads as a day wins, so `3 dec vakantie` is a date and a
reason.

dateparser takes most of a second to load, so callers run in a worker thread
(`asyncio.to_thread`).
"""

from __future__ import annotations

import datetime as dt
import functools
import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from dateparser.date import DateDataParser

MAX_WORDS = 4


@dataclass(frozen=True, slots=True)
class Words:
    """One language's words for days."""

    languages: tuple[str, ...]
    """dateparser's names of the languages its written dates are read in (a Dutch member may
    write `15 March` too)."""
    boundary: frozenset[str]
    """Words that end a date: they join dates into ranges and lists, or name rounds."""
    relative: Mapping[tuple[str, ...], int]
    """Days from today, by the words that say it."""
    weekdays: Mapping[str, int]
    coming: frozenset[str]
    """Before a weekday: the next such day, today included (as the weekday alone)."""
    following: str
    """With `week`: next week. Before a weekday: the next such day after today, or with
    `following_next_week` that day of next week (`next friday`, as the British say it)."""
    following_next_week: bool
    week: str
    within: str
    """Before `N days`: counted from today."""
    counts: Mapping[str, int]
    units: Mapping[str, int]
    """After `within N`: days per unit."""


DUTCH = Words(
    ("nl", "en"),
    boundary=frozenset({"tot", "t/m", "tm", "t.e.m.", "en", ",", "van", "vanaf", "ronde",
                        "rondes", "ronden"}),
    relative={("vandaag",): 0, ("morgen",): 1, ("overmorgen",): 2, ("gisteren",): -1,
              ("eergisteren",): -2},
    weekdays={"maandag": 0, "ma": 0, "dinsdag": 1, "di": 1, "woensdag": 2, "wo": 2,
              "donderdag": 3, "do": 3, "vrijdag": 4, "vr": 4, "zaterdag": 5, "za": 5,
              "zondag": 6, "zo": 6},
    coming=frozenset({"komende", "aanstaande", "deze"}), following="volgende",
    following_next_week=False, week="week",
    within="over",
    counts={"een": 1, "één": 1, "twee": 2, "drie": 3, "vier": 4, "vijf": 5, "zes": 6,
            "zeven": 7, "acht": 8, "negen": 9, "tien": 10},
    units={"dag": 1, "dagen": 1, "week": 7, "weken": 7})
ENGLISH = Words(
    ("en",),
    boundary=frozenset({"to", "through", "thru", "until", "till", "til", "and", ",", "from",
                        "round", "rounds"}),
    relative={("today",): 0, ("tonight",): 0, ("tomorrow",): 1,
              ("day", "after", "tomorrow"): 2, ("the", "day", "after", "tomorrow"): 2,
              ("yesterday",): -1, ("day", "before", "yesterday"): -2},
    weekdays={"monday": 0, "mon": 0, "tuesday": 1, "tue": 1, "tues": 1, "wednesday": 2,
              "wed": 2, "thursday": 3, "thu": 3, "thur": 3, "thurs": 3, "friday": 4,
              "fri": 4, "saturday": 5, "sat": 5, "sunday": 6, "sun": 6},
    coming=frozenset({"this", "coming"}), following="next", following_next_week=True,
    week="week",
    within="in",
    counts={"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6,
            "seven": 7, "eight": 8, "nine": 9, "ten": 10},
    units={"day": 1, "days": 1, "week": 7, "weeks": 7})

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


def read(words: Sequence[str], today: dt.date, club_day: int | None = None,
         grammar: Words = DUTCH) -> Found | None:
    """The date the first words say, in `grammar`'s language, or None when they start none.
    A bare number is not a date (it is a round number); `club_day` is the weekday of the club
    night (Monday 0), for `volgende week` / `next week`."""
    lowered: list[str] = []
    for word in words[:MAX_WORDS]:
        if word.lower() in grammar.boundary:
            break
        lowered.append(word.lower())
    if not lowered:
        return None
    return _relative(lowered, today, club_day, grammar) or _written(lowered, today, grammar)


def _relative(words: list[str], today: dt.date, club_day: int | None,
              grammar: Words) -> Found | None:
    """The phrases counted from today: this module's grammar, never dateparser's."""
    first, weekdays = words[0], grammar.weekdays
    said = next((size for size in range(len(words), 0, -1)
                 if tuple(words[:size]) in grammar.relative), 0)
    if said:
        return Found(today + dt.timedelta(days=grammar.relative[tuple(words[:said])]), said)
    if first == grammar.within and len(words) >= 3 and words[2] in grammar.units:
        count = int(words[1]) if is_number(words[1]) else grammar.counts.get(words[1])
        if count is None:
            return None
        try:
            return Found(today + dt.timedelta(days=count * grammar.units[words[2]]), 3)
        except OverflowError:  # past the year 9999
            return None
    if tuple(words[:2]) == (grammar.following, grammar.week):
        if len(words) > 2 and words[2] in weekdays:
            return Found(_monday_after(today) + dt.timedelta(days=weekdays[words[2]]), 3)
        return Found(next_week(today, club_day), 2)
    if first in weekdays and tuple(words[1:3]) == (grammar.following, grammar.week):
        return Found(_monday_after(today) + dt.timedelta(days=weekdays[first]), 3)
    if len(words) > 1 and words[1] in weekdays and first == grammar.following \
            and grammar.following_next_week:
        return Found(_monday_after(today) + dt.timedelta(days=weekdays[words[1]]), 2)
    if len(words) > 1 and words[1] in weekdays and \
            (first in grammar.coming or first == grammar.following):
        return Found(_weekday_from(today, weekdays[words[1]],
                                   today_too=first != grammar.following), 2)
    if first in weekdays:
        dated = _written(words, today, grammar) if len(words) > 1 else None  # `vr 11 dec`
        return dated if dated is not None and dated.words > 1 \
            else Found(_weekday_from(today, weekdays[first], today_too=True), 1)
    return None


def _written(words: list[str], today: dt.date, grammar: Words) -> Found | None:
    """A written date (`3 dec`, `vr 11 december 2026`, `3-12`): the longest phrase that
    dateparser reads as one day."""
    for size in range(len(words), 0, -1):
        if size == 1 and is_number(words[0]):
            return None
        phrase = words[:size]
        if any(_foreign_digits(w) for w in phrase):
            continue  # dateparser reads `²` and `٣` as days; a member does not mean that
        date = _parse(" ".join(phrase), today, grammar.languages)
        # A year nobody wrote (`4 december 25` read as 2125): not what was meant.
        if date is not None and (date.year in (today.year, today.year + 1)
                                 or any(str(date.year) in w for w in phrase)):
            return Found(date, size)
    return None


def _weekday_from(today: dt.date, weekday: int, *, today_too: bool) -> dt.date:
    ahead = (weekday - today.weekday()) % 7
    return today + dt.timedelta(days=ahead or (0 if today_too else 7))


def _monday_after(today: dt.date) -> dt.date:
    """The Monday that starts next week."""
    return today - dt.timedelta(days=today.weekday()) + dt.timedelta(days=7)


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
    return _monday_after(today) + dt.timedelta(days=club_day)


def _parse(phrase: str, today: dt.date, languages: tuple[str, ...]) -> dt.date | None:
    """A phrase that names one day. dateparser looks into the future from the day before, so
    today's date and today's weekday are today."""
    parsed = _parser(today - dt.timedelta(days=1), languages).get_date_data(phrase)
    if parsed.date_obj is None or parsed.period != "day":
        return None  # nothing, or a month (`dec`) or a time (`3.12`, `20:00`)
    return parsed.date_obj.date()


@functools.lru_cache(maxsize=8)
def _parser(base: dt.date, languages: tuple[str, ...]) -> DateDataParser:
    from dateparser.date import DateDataParser

    settings = {"RELATIVE_BASE": dt.datetime.combine(base, dt.time(12)),
                "PREFER_DATES_FROM": "future", "DATE_ORDER": "DMY",
                "RETURN_TIME_AS_PERIOD": True}
    return DateDataParser(languages=list(languages), settings=settings)
