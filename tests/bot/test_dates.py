"""Issue 14: dates as members type them, and which rounds a sign-off names."""

from __future__ import annotations

import datetime as dt

import pytest

from bot import dates
from bot.handlers.signoff import parse
from core.season import AbsenceReason, ExternalDay
from storage.club import ScheduledRound
from storage.states import RoundState

TUESDAY = dt.date(2026, 12, 1)
THURSDAY = 3


@pytest.mark.parametrize(("text", "date", "words"), [
    ("3-12", dt.date(2026, 12, 3), 1),
    ("3/12", dt.date(2026, 12, 3), 1),
    ("3-12-2026", dt.date(2026, 12, 3), 1),
    ("2026-12-03", dt.date(2026, 12, 3), 1),
    ("3 december", dt.date(2026, 12, 3), 2),
    ("3 dec", dt.date(2026, 12, 3), 2),
    ("do 3 dec", dt.date(2026, 12, 3), 3),
    ("donderdag", dt.date(2026, 12, 3), 1),
    ("do", dt.date(2026, 12, 3), 1),
    ("dinsdag", TUESDAY, 1),  # today's weekday is today
    ("maandag", dt.date(2026, 12, 7), 1),
    ("vandaag", TUESDAY, 1),
    ("morgen", dt.date(2026, 12, 2), 1),
    ("overmorgen", dt.date(2026, 12, 3), 1),
    ("volgende week", dt.date(2026, 12, 10), 2),  # the club night of next week
    ("3 december vakantie", dt.date(2026, 12, 3), 2),
    ("15 maart blessure", dt.date(2027, 3, 15), 2),
    ("1 dec", TUESDAY, 2),
    ("30 nov", dt.date(2027, 11, 30), 2),  # gone this year: next year's
])
def test_every_form_of_a_date(text, date, words):
    assert dates.read(text.split(), TUESDAY, THURSDAY) == dates.Found(date, words)


@pytest.mark.parametrize("text", ["3", "12", "ziek", "vakantie", "extern", "Anna", "dec",
                                  "maart", "3.12", "20:00", "31-2", "²", "٣", ""])
def test_what_is_no_date(text):
    assert dates.read(text.split(), TUESDAY, THURSDAY) is None


def test_next_week_without_a_club_night_is_a_week_on():
    assert dates.read(["volgende", "week"], TUESDAY, None) == dates.Found(
        dt.date(2026, 12, 8), 2)


def test_the_club_night_is_the_day_most_rounds_are_on():
    assert dates.club_day([dt.date(2026, 12, 3), dt.date(2026, 12, 10), None,
                           dt.date(2026, 12, 12)]) == THURSDAY
    assert dates.club_day([None]) is None


# Thursdays from 3 December to 18 February; round 1 is open.
ROUNDS = [ScheduledRound(k + 1, dt.date(2026, 12, 3) + dt.timedelta(weeks=k), None,
                         RoundState.PLANNED) for k in range(12)]


def rounds_of(text: str, today: dt.date = TUESDAY):
    request = parse(text.split(), ROUNDS, 1, today)
    assert request.problem is None, request.problem
    return request.rounds, request.note


@pytest.mark.parametrize(("text", "rounds", "note"), [
    ("", [], ""),
    ("2", [2], ""),
    ("ronde 2", [2], ""),
    ("3 december vakantie", [1], "vakantie"),
    ("do 10 dec", [2], ""),
    ("donderdag", [1], ""),
    ("volgende week ziek", [2], "ziek"),
    ("van 2 t/m 4", [2, 3, 4], ""),
    ("van 3 t/m 17 december", [1, 2, 3], ""),
    ("tot 17 dec", [1, 2], ""),  # `tot` leaves the day itself out
    ("t/m 17 dec", [1, 2, 3], ""),
    ("tot 15 maart blessure", list(range(1, 13)), "blessure"),
    ("tot 14 januari blessure", [1, 2, 3, 4, 5, 6], "blessure"),
    ("van 10 dec t/m ronde 4 werk", [2, 3, 4], "werk"),
    ("ronde 2 t/m 17 december", [2, 3], ""),
    ("2 en 4", [2, 4], ""),
    ("3 dec en 17 dec en nog wat", [1, 3], "en nog wat"),
])
def test_which_rounds_a_sign_off_names(text, rounds, note):
    assert rounds_of(text) == (rounds, note)


def test_external_keeps_its_day_and_the_reason_follows():
    words = ["volgende", "week", "extern-clubavond", "tegen", "Zukertort"]
    request = parse(words, ROUNDS, 1, TUESDAY)
    assert (request.rounds, request.reason, request.day, request.note) == (
        [2], AbsenceReason.EXTERNAL, ExternalDay.CLUB_NIGHT, "tegen Zukertort")


@pytest.mark.parametrize(("text", "problem"), [
    # Ask, never guess: round 13 or the 13th of this month?
    ("13", "Er is geen ronde 13. Bedoel je een datum? Schrijf dan bijvoorbeeld "
           "<code>13 december</code>."),
    ("40", "Ronde 40 staat niet op het programma."),
    ("2 dec", "Op wo 2 dec staat geen ronde op het programma."),
    ("van 4 t/m 2", "Van ronde 4 tot ronde 2 kan niet"),
    ("van 17 dec t/m 3 dec", "Van do 17 dec tot do 3 dec kan niet"),
    ("van 4 t/m", "Na 't/m' of 'tot' hoort de laatste ronde of datum"),
    ("tot ziek", "'ziek' is geen rondenummer of datum."),
    ("31-2", "'31-2' is geen datum."),
    ("²", "'²' is geen rondenummer of datum."),
    ("van 1 jan t/m 5 jan", "Van vr 1 jan tot di 5 jan staat geen ronde op het programma."),
])
def test_what_cannot_be_read_is_said(text, problem):
    request = parse(text.split(), ROUNDS, 1, TUESDAY)
    assert request.problem is not None and request.problem.startswith(problem), request.problem
