"""Issue 33: English sign-off phrases read by a grammar of their own, never rewritten into
Dutch. Today is Wednesday 2 December 2026; twelve Thursdays from 3 December (round 1) to
18 February; round 1 is open."""

from __future__ import annotations

import datetime as dt

import pytest

from bot.language import dates
from bot.language.phrases import ENGLISH, parse
from core.rounds import RoundState
from core.season import AbsenceReason, ExternalDay
from storage.programme import ScheduledRound
from tests.meaning import said

WEDNESDAY = dt.date(2026, 12, 2)
THURSDAY = 3
ROUNDS = [ScheduledRound(k + 1, dt.date(2026, 12, 3) + dt.timedelta(weeks=k), None,
                         RoundState.PLANNED) for k in range(12)]
ALL_FROM_4 = list(range(4, 13))


def read(text: str):
    return parse(text.split(), ROUNDS, 1, WEDNESDAY, ENGLISH)


@pytest.mark.parametrize(("text", "rounds", "note"), [
    ("", [], ""),
    # Weekdays: this week's, and next week's.
    ("thursday", [1], ""),
    ("Thursday", [1], ""),
    ("thu", [1], ""),
    ("this thursday", [1], ""),
    ("coming thursday", [1], ""),
    ("next thursday", [2], ""),  # that day of next week
    ("thursday next week", [2], ""),
    ("next week thursday", [2], ""),
    ("next week", [2], ""),  # the club night of next week
    ("next week sick", [2], "sick"),
    ("thursday and thursday next week", [1, 2], ""),
    # Counted from today.
    ("tomorrow", [1], ""),
    ("in 8 days", [2], ""),
    ("in eight days", [2], ""),
    ("in 15 days", [3], ""),
    # Written dates, day before month or month before day.
    ("3 Dec", [1], ""),
    ("Dec 10", [2], ""),
    ("December 17", [3], ""),
    ("17 December", [3], ""),
    ("Thu 10 Dec", [2], ""),
    ("10/12", [2], ""),
    ("2026-12-24", [4], ""),
    ("7 January", [6], ""),  # January is next year's
    # Rounds by number.
    ("2", [2], ""),
    ("round 3", [3], ""),
    ("2 and 4", [2, 4], ""),
    ("round 2 and 5", [2, 5], ""),
    # From a point on: every round to the last.
    ("from 24 December", ALL_FROM_4, ""),
    ("from round 4", ALL_FROM_4, ""),
    ("from 4", ALL_FROM_4, ""),
    # Ranges: `until` leaves the end day out, `to`, `through` and `until and including` take
    # it in.
    ("from 2 to 4", [2, 3, 4], ""),
    ("2 through 4", [2, 3, 4], ""),
    ("2 thru 4", [2, 3, 4], ""),
    ("from 10 Dec until 24 Dec", [2, 3], ""),
    ("from 10 Dec to 24 Dec", [2, 3, 4], ""),
    ("until 17 Dec", [1, 2], ""),  # from the open round
    ("till 17 Dec", [1, 2], ""),
    ("through 17 Dec", [1, 2, 3], ""),
    ("until and including 17 Dec", [1, 2, 3], ""),
    ("from 7 January through round 9", [6, 7, 8, 9], ""),
    # The reason stays as it was typed, its English words too.
    ("10 Dec off to Spain with my new family on holiday", [2],
     "off to Spain with my new family on holiday"),
    ("2 to Spain", [2], "to Spain"),  # `to` ranges only to a round or a date
    ("next week from work", [2], "from work"),
])
def test_which_rounds_an_english_sign_off_names(text, rounds, note):
    request = read(text)
    assert request.problem is None, request.problem
    assert (request.rounds, request.note) == (rounds, note)


def test_external_in_english_keeps_its_day_and_the_reason_follows():
    request = read("next week external-clubnight against Zukertort")
    assert (request.rounds, request.reason, request.day, request.note) == (
        [2], AbsenceReason.EXTERNAL, ExternalDay.CLUB_NIGHT, "against Zukertort")
    assert read("3 Dec external").day is ExternalDay.OTHER_DAY
    assert read("3 Dec halfbye").reason is AbsenceReason.HALF_BYE


@pytest.mark.parametrize(("text", "problem"), [
    ("13", "There is no round 13. Do you mean a date? Then write for example "
           "<code>13 December</code>."),
    ("40", "Round 40 is not on the schedule."),
    ("today", "There is no round on the schedule on Wed 2 Dec."),
    ("yesterday", "There is no round on the schedule on Tue 1 Dec."),
    ("in a week", "There is no round on the schedule on Wed 9 Dec."),
    ("day after tomorrow", "There is no round on the schedule on Fri 4 Dec."),
    ("from 4 through 2", "From round 4 to round 2 cannot be"),
    ("from 4 until", "After"),
    ("until sick", "'sick' is no round number or date."),
    ("31-2", "'31-2' is no date."),
])
def test_what_an_english_sign_off_cannot_read_is_said_in_english(text, problem):
    request = read(text)
    assert request.problem is not None and said(request.problem, "en").startswith(problem), \
        request.problem


@pytest.mark.parametrize(("text", "date", "words"), [
    ("today", WEDNESDAY, 1),
    ("tomorrow", dt.date(2026, 12, 3), 1),
    ("day after tomorrow", dt.date(2026, 12, 4), 3),
    ("yesterday", dt.date(2026, 12, 1), 1),
    ("wednesday", WEDNESDAY, 1),  # today's weekday is today
    ("next wednesday", dt.date(2026, 12, 9), 2),
    ("in 8 days", dt.date(2026, 12, 10), 3),
    ("in a week", dt.date(2026, 12, 9), 3),
    ("in two weeks", dt.date(2026, 12, 16), 3),
    ("3 December holiday", dt.date(2026, 12, 3), 2),
])
def test_every_english_form_of_a_date(text, date, words):
    assert dates.read(text.split(), WEDNESDAY, THURSDAY, dates.ENGLISH) == \
        dates.Found(date, words)


@pytest.mark.parametrize("text", ["3", "sick", "holiday", "external", "Anna", "dec", "to",
                                  "3.12", "20:00", "31-2", ""])
def test_what_is_no_english_date(text):
    assert dates.read(text.split(), WEDNESDAY, THURSDAY, dates.ENGLISH) is None
