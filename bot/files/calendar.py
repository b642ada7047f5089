"""The season's rounds as an iCalendar file (RFC 5545, written by `icalendar`): one event a
round on its club night, at the club's start time in the club's time zone (its VTIMEZONE
included, so summer and winter time come out right in every calendar program). A member's
own calendar names his opponent for the rounds already published, and holds his team's
matches beside them (a day's event: the time is the federation's, not the club's).

The VTIMEZONE states the clock changes as yearly rules (RRULE), read from the zone itself:
icalendar's own lists every change as a date up to 2038 (RDATE), which some readers (vobject)
take as winter time all year."""

from __future__ import annotations

import datetime as dt
import functools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING
from zoneinfo import ZoneInfo

from bot.language import texts
from bot.language.i18n import Words
from bot.language.notice import Said, plain
from core.names import slug

if TYPE_CHECKING:
    from icalendar import Component

LENGTH = dt.timedelta(hours=3, minutes=30)
"""How long a club night's event lasts (90 minutes each and the increments, with margin)."""


@dataclass(frozen=True, slots=True)
class CalendarRound:
    number: int
    date: dt.date
    game: Said | str = ""
    """For a member's own calendar: his game, in words."""


@dataclass(frozen=True, slots=True)
class CalendarMatch:
    """A team match of the member's, in words (`Eerste uit bij De Toren`)."""

    team: int
    date: dt.date
    said: Said


@dataclass(frozen=True, slots=True)
class Agenda:
    """What a calendar file holds: the dated rounds of a club's season, its night's start
    in its time zone, and when the file is made."""

    rounds: Sequence[CalendarRound]
    club: str
    season: str
    start: dt.time
    zone: ZoneInfo
    stamp: dt.datetime
    matches: Sequence[CalendarMatch] = ()


def rounds_ics(w: Words, agenda: Agenda) -> bytes:
    """The calendar file, in the words `w`. Each event's UID stays the same for the round,
    so importing a newer file updates the events instead of adding them twice; it names the
    club, so two clubs' calendars in one client keep their own events."""
    from icalendar import Calendar, Event  # 50 ms at every start of the bot otherwise

    rounds, club, season, zone = agenda.rounds, agenda.club, agenda.season, agenda.zone
    start, stamp = agenda.start, agenda.stamp
    calendar = Calendar()
    calendar.add("prodid", "-//keizerbot//NL")
    calendar.add("version", "2.0")
    calendar.add("x-wr-calname", w(texts.CALENDAR_NAME).format(club=club, season=season))
    if rounds:  # before the events that name it, as some readers want
        calendar.add_component(_vtimezone(zone, min(r.date for r in rounds).year - 1))
    for rnd in rounds:
        begins = dt.datetime.combine(rnd.date, start, tzinfo=zone)
        event = Event()
        event.add("uid", f"{season}-ronde-{rnd.number}.{slug(club)}@keizerbot")
        event.add("dtstamp", stamp.astimezone(dt.UTC))
        event.add("dtstart", begins)
        event.add("dtend", begins + LENGTH)
        summary = w(texts.CALENDAR_ROUND).format(club=club, round=rnd.number)
        event.add("summary", f"{summary}: {plain(rnd.game, w)}" if rnd.game else summary)
        calendar.add_component(event)
    for match in agenda.matches:
        event = Event()
        event.add("uid", f"{season}-team-{match.team}-{match.date.isoformat()}."
                         f"{slug(club)}@keizerbot")
        event.add("dtstamp", stamp.astimezone(dt.UTC))
        event.add("dtstart", match.date)
        event.add("dtend", match.date + dt.timedelta(days=1))
        event.add("summary", plain(match.said, w))
        calendar.add_component(event)
    return bytes(calendar.to_ical())


def _vtimezone(zone: ZoneInfo, year: int) -> Component:
    """The zone's clock changes in `year` as yearly rules from then on (a zone without
    changes: one standard time from that year)."""
    from icalendar import Timezone, TimezoneDaylight, TimezoneStandard

    timezone = Timezone()
    timezone.add("tzid", zone.key)
    changes = _changes(zone, year)
    if not changes:
        start = dt.datetime(year, 1, 1)
        offset = start.replace(tzinfo=zone).utcoffset() or dt.timedelta(0)
        standard = TimezoneStandard()
        for key, value in (("dtstart", start), ("tzoffsetfrom", offset),
                           ("tzoffsetto", offset), ("tzname", start.replace(tzinfo=zone).tzname())):
            standard.add(key, value)
        timezone.add_component(standard)
        return timezone
    for wall, before, after, name, summer in changes:
        part = TimezoneDaylight() if summer else TimezoneStandard()
        part.add("dtstart", wall)
        part.add("tzoffsetfrom", before)
        part.add("tzoffsetto", after)
        part.add("tzname", name)
        last = (wall + dt.timedelta(days=7)).month != wall.month
        nth = -1 if last else (wall.day - 1) // 7 + 1
        part.add("rrule", {"freq": "yearly", "bymonth": wall.month,
                           "byday": f"{nth}{WEEKDAYS[wall.weekday()]}"})
        timezone.add_component(part)
    return timezone


WEEKDAYS = ("MO", "TU", "WE", "TH", "FR", "SA", "SU")


@functools.cache
def _changes(zone: ZoneInfo, year: int) \
        -> tuple[tuple[dt.datetime, dt.timedelta, dt.timedelta, str | None, bool], ...]:
    """Each clock change in `year`: the wall time it happens at (in the old offset), the
    offsets before and after, the new name, and whether it is summer time. Found hour by
    hour, so kept: every member's calendar asks for the same zone and year."""
    found = []
    moment = dt.datetime(year, 1, 1, tzinfo=dt.UTC)
    hour = dt.timedelta(hours=1)
    offset = moment.astimezone(zone).utcoffset()
    while moment.year == year:
        later = moment + hour
        new = later.astimezone(zone).utcoffset()
        if new != offset and offset is not None and new is not None:
            local = later.astimezone(zone)
            found.append(((later + offset).replace(tzinfo=None), offset, new, local.tzname(),
                          bool(local.dst())))
            offset = new
        moment = later
    return tuple(found)
