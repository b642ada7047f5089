"""The season's rounds as an iCalendar file (RFC 5545, written by `icalendar`): one event a
round on its club night, at the club's start time in the club's time zone (its VTIMEZONE
included, so summer and winter time come out right in every calendar program). A member's
own calendar names his opponent for the rounds already published."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass
from zoneinfo import ZoneInfo

from bot import texts

LENGTH = dt.timedelta(hours=3, minutes=30)
"""How long a club night's event lasts (90 minutes each and the increments, with margin)."""


@dataclass(frozen=True, slots=True)
class CalendarRound:
    number: int
    date: dt.date
    game: str = ""
    """For a member's own calendar: his game, in words."""


def rounds_ics(rounds: Sequence[CalendarRound], *, club: str, season: str, start: dt.time,
               zone: ZoneInfo, stamp: dt.datetime) -> bytes:
    """The calendar file. Each event's UID stays the same for the round, so importing a
    newer file updates the events instead of adding them twice."""
    from icalendar import Calendar, Event  # 50 ms at every start of the bot otherwise

    calendar = Calendar()
    calendar.add("prodid", "-//keizerbot//NL")
    calendar.add("version", "2.0")
    calendar.add("x-wr-calname", texts.CALENDAR_NAME.format(club=club, season=season))
    for rnd in rounds:
        begins = dt.datetime.combine(rnd.date, start, tzinfo=zone)
        event = Event()
        event.add("uid", f"{season}-ronde-{rnd.number}@keizerbot")
        event.add("dtstamp", stamp.astimezone(dt.UTC))
        event.add("dtstart", begins)
        event.add("dtend", begins + LENGTH)
        summary = texts.CALENDAR_ROUND.format(club=club, round=rnd.number)
        event.add("summary", f"{summary}: {rnd.game}" if rnd.game else summary)
        calendar.add_component(event)
    calendar.add_missing_timezones()
    return bytes(calendar.to_ical())
