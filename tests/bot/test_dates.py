"""Issue 14: dates as members type them, and which rounds a sign-off names."""

from __future__ import annotations

import datetime as dt

import pytest

from bot.language import dates
from bot.language.phrases import parse
from core.rounds import RoundState
from core.season import AbsenceReason, ExternalDay
from storage.programme import ScheduledRound
from tests.meaning import said

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
def test_what_cannot_be_read_is_said(text, problem, schedule=ROUNDS):
    request = parse(text.split(), schedule, 1, TUESDAY)
    assert request.problem is not None and said(request.problem).startswith(problem), \
        request.problem


# Issue 22: a Friday club. Today is Tuesday 1 December 2026; fourteen Fridays from 4 December
# (round 1) to 5 March (round 14): 4, 11, 18, 25 Dec; 1, 8, 15, 22, 29 Jan; 5, 12, 19, 26 Feb;
# 5 Mar. Round 1 is open.
FRIDAYS = [ScheduledRound(k + 1, dt.date(2026, 12, 4) + dt.timedelta(weeks=k), None,
                          RoundState.PLANNED) for k in range(14)]


def on_fridays(text: str) -> tuple[list[int], str]:
    request = parse(text.split(), FRIDAYS, 1, TUESDAY)
    assert request.problem is None, request.problem
    return request.rounds, request.note


@pytest.mark.parametrize(("text", "rounds", "note"), [
    # Weekdays, this week and next.
    ("vrijdag", [1], ""),
    ("vr", [1], ""),
    ("Vrijdag", [1], ""),
    ("komende vrijdag", [1], ""),
    ("aanstaande vrijdag", [1], ""),
    ("deze vrijdag", [1], ""),
    ("volgende vrijdag", [1], ""),  # the first Friday after today
    ("volgende week", [2], ""),  # the club night of next week
    ("volgende week vrijdag", [2], ""),  # one date: never this Friday and next
    ("volgende week vr", [2], ""),
    ("volgende week vrijdag ziek", [2], "ziek"),
    ("vrijdag en volgende week vrijdag", [1, 2], ""),
    # Counted from today, not from yesterday.
    ("over 3 dagen", [1], ""),
    ("over 10 dagen", [2], ""),
    ("over 17 dagen", [3], ""),
    ("over drie dagen", [1], ""),
    # Written dates.
    ("4 december", [1], ""),
    ("4 dec", [1], ""),
    ("vr 4 dec", [1], ""),
    ("vrijdag 11 december", [2], ""),
    ("11-12", [2], ""),
    ("11/12", [2], ""),
    ("11-12-2026", [2], ""),
    ("2026-12-11", [2], ""),
    ("25 dec", [4], ""),
    ("4 dec vakantie", [1], "vakantie"),
    # Over the turn of the year: January is next year's.
    ("1 januari", [5], ""),
    ("8 januari", [6], ""),
    ("8 jan 2027", [6], ""),
    ("5 maart", [14], ""),
    # Rounds by number.
    ("3", [3], ""),
    ("ronde 3", [3], ""),
    ("2 en 4", [2, 4], ""),
    ("ronde 2 en 5", [2, 5], ""),
    ("4 dec en 18 dec", [1, 3], ""),
    # Ranges: `tot` leaves the end day out, `t/m` and `tot en met` take it in.
    ("van 2 t/m 4", [2, 3, 4], ""),
    ("2 tm 4", [2, 3, 4], ""),
    ("van 2 tot en met 4", [2, 3, 4], ""),
    ("van 11 december tot 8 januari", [2, 3, 4, 5], ""),
    ("van 11 december t/m 8 januari", [2, 3, 4, 5, 6], ""),
    ("van 11 december tot en met 8 januari", [2, 3, 4, 5, 6], ""),
    ("4 december tot 25 december", [1, 2, 3], ""),
    ("4 december t/m 25 december", [1, 2, 3, 4], ""),
    ("van 18 december tot 15 januari", [3, 4, 5, 6], ""),
    ("van 28 december t/m 10 januari", [5, 6], ""),
    ("van 28 t/m 10 januari", [5, 6], ""),  # the 28th of the month before
    ("van 18 t/m 31 december", [3, 4], ""),
    ("4 t/m 18 december", [1, 2, 3], ""),
    ("tot 18 december", [1, 2], ""),  # from the open round
    ("t/m 18 december", [1, 2, 3], ""),
    ("tot en met 18 december", [1, 2, 3], ""),
    ("Tot En Met 18 dec ziek", [1, 2, 3], "ziek"),
    ("tot 1 januari", [1, 2, 3, 4], ""),
    ("t/m 1 januari", [1, 2, 3, 4, 5], ""),
    ("t/m 8 januari 2027", [1, 2, 3, 4, 5, 6], ""),
    ("van 8 januari t/m ronde 9", [6, 7, 8, 9], ""),
    ("ronde 10 t/m 26 februari", [10, 11, 12, 13], ""),
    ("ronde 2 t/m 18 december", [2, 3], ""),
    ("van 20 november t/m 4 december", [1], ""),  # a start already past
    ("vanaf 5 februari", [10, 11, 12, 13, 14], ""),  # to the last round
    ("vanaf ronde 12 blessure", [12, 13, 14], "blessure"),
    ("vanaf 5 februari t/m 12 februari", [10, 11], ""),
])
def test_which_rounds_a_phrase_signs_off_on_a_friday_club(text, rounds, note):
    assert on_fridays(text) == (rounds, note)


def test_a_phrase_with_a_reason_for_an_external_game():
    text = "volgende week vrijdag extern-clubavond tegen Zukertort"
    request = parse(text.split(), FRIDAYS, 1, TUESDAY)
    assert (request.rounds, request.reason, request.day, request.note) == (
        [2], AbsenceReason.EXTERNAL, ExternalDay.CLUB_NIGHT, "tegen Zukertort")


@pytest.mark.parametrize(("text", "problem"), [
    # Dates with no round say which day they were read as, so a misreading shows.
    ("vandaag", "Op di 1 dec staat geen ronde op het programma."),
    ("morgen", "Op wo 2 dec staat geen ronde op het programma."),
    ("overmorgen", "Op do 3 dec staat geen ronde op het programma."),
    ("gisteren", "Op ma 30 nov staat geen ronde op het programma."),
    ("eergisteren", "Op zo 29 nov staat geen ronde op het programma."),
    ("zaterdag", "Op za 5 dec staat geen ronde op het programma."),
    ("volgende week donderdag", "Op do 10 dec staat geen ronde op het programma."),
    ("over een week", "Op di 8 dec staat geen ronde op het programma."),
    ("over twee weken", "Op di 15 dec staat geen ronde op het programma."),
    ("31 december", "Op do 31 dec staat geen ronde op het programma."),
    ("van 25 december tot 4 december", "Van vr 25 dec tot vr 4 dec kan niet"),
    ("tot en met", "Na 't/m' of 'tot' hoort de laatste ronde of datum"),
    ("van 2 tot en met", "Na 't/m' of 'tot' hoort de laatste ronde of datum"),
    ("over 1000 dagen", "Op ma 27 aug 2029 staat geen ronde op het programma."),
])
def test_what_a_friday_club_cannot_sign_off_is_said(text, problem):
    test_what_cannot_be_read_is_said(text, problem, FRIDAYS)


@pytest.mark.parametrize(("text", "date", "words"), [
    ("gisteren", dt.date(2026, 11, 30), 1),
    ("eergisteren", dt.date(2026, 11, 29), 1),
    ("over 3 dagen", dt.date(2026, 12, 4), 3),
    ("volgende week vrijdag", dt.date(2026, 12, 11), 3),
    ("volgende week maandag", dt.date(2026, 12, 7), 3),
    ("volgende dinsdag", dt.date(2026, 12, 8), 2),
    ("komende dinsdag", TUESDAY, 2),
    ("11 december tot 8 januari", dt.date(2026, 12, 11), 2),  # never `11 december tot 8`
    ("4 december tot 25", dt.date(2026, 12, 4), 2),  # never the year 2125
    ("4 december 25", dt.date(2026, 12, 4), 2),
    ("3 dec en 17 dec", dt.date(2026, 12, 3), 2),
])
def test_a_date_is_one_phrase_counted_from_today(text, date, words):
    assert dates.read(text.split(), TUESDAY, 4) == dates.Found(date, words)
