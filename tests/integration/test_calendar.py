"""Issue 15: the rounds as an iCalendar file, pinned for an example season, read back by
icalendar: one event a round at the club's start time, summer and winter time right."""

from __future__ import annotations

import datetime as dt
import json
from zoneinfo import ZoneInfo

import pytest
import vobject
from icalendar import Calendar

from bot.cli import main
from bot.files.calendar import Agenda, CalendarRound, rounds_ics
from bot.flows import views
from bot.language import texts
from bot.language.i18n import words
from core.season import read_season
from storage import club
from storage.seasons import import_season
from storage.store import open_store
from tests.integration.conftest import ROOT
from tests.meaning import fits

AMSTERDAM = ZoneInfo("Europe/Amsterdam")
STAMP = dt.datetime(2026, 12, 1, 12, tzinfo=dt.UTC)
NL = words("nl")


async def example_calendar(tmp_path) -> bytes:
    db = await open_store(tmp_path / "keizer.db")
    try:
        season = read_season((ROOT / "examples" / "drie-groepen.json").read_text("utf-8"))
        await import_season(db, season)
        await club.change_settings(db, actor=None, round_start=dt.time(19, 45))
        agenda = await views.calendar(db, AMSTERDAM, stamp=STAMP)
    finally:
        await db.close()
    assert agenda is not None
    return rounds_ics(NL, agenda)


async def test_the_example_season_as_a_calendar(tmp_path, golden):
    made = await example_calendar(tmp_path)
    assert made.count(b"\r\n") == made.count(b"\n")  # RFC 5545 lines end in CRLF
    golden(ROOT / "tests" / "data" / "golden" / "drie-groepen.ics",
           made.decode().replace("\r\n", "\n"))


async def test_each_round_at_the_start_time_in_summer_and_in_winter(tmp_path):
    season = read_season((ROOT / "examples" / "drie-groepen.json").read_text("utf-8"))
    events = Calendar.from_ical(await example_calendar(tmp_path)).walk("VEVENT")
    assert [str(e["summary"]) for e in events] == [
        texts.CALENDAR_ROUND.format(club=season.club, round=r.number)
        for r in season.rounds if r.date is not None]
    starts = [e.decoded("dtstart") for e in events]
    assert all(s.astimezone(AMSTERDAM).time() == dt.time(19, 45) for s in starts)
    # Zomertijd then wintertijd: 17:45 and 18:45 UTC.
    assert {s.astimezone(dt.UTC).time() for s in starts} == {dt.time(17, 45), dt.time(18, 45)}
    assert len({str(e["uid"]) for e in events}) == len(events)


@pytest.mark.parametrize("zone", ["Europe/Amsterdam", "Europe/Brussels", "America/New_York",
                                  "Australia/Sydney", "Asia/Kolkata"])
def test_two_readers_see_each_round_at_its_time_in_summer_and_winter(zone):
    """icalendar and vobject (which took icalendar's own time zone as winter time all year)
    read the same times; so does a zone without clock changes, and one in the south."""
    tz = ZoneInfo(zone)
    days = [dt.date(2026, 9, 3), dt.date(2026, 11, 5), dt.date(2027, 1, 7), dt.date(2027, 4, 1),
            dt.date(2027, 6, 24)]
    made = rounds_ics(NL, Agenda([CalendarRound(k, day) for k, day in enumerate(days, start=1)],
                                 "C", "2026-2027", dt.time(20), tz, STAMP))
    expected = [dt.datetime.combine(day, dt.time(20), tzinfo=tz).astimezone(dt.UTC)
                for day in days]
    by_icalendar = [e.decoded("dtstart").astimezone(dt.UTC)
                    for e in Calendar.from_ical(made).walk("VEVENT")]
    by_vobject = [e.dtstart.value.astimezone(dt.UTC)
                  for e in vobject.readOne(made.decode()).vevent_list]
    assert by_icalendar == expected and by_vobject == expected
    assert b"RDATE" not in made and (b"RRULE:FREQ=YEARLY" in made) == (zone != "Asia/Kolkata")


def test_export_ics_from_the_command_line(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("KEIZER_DB", str(tmp_path / "keizer.db"))
    assert main(["import", str(ROOT / "examples" / "sliedrecht.json")]) == 0
    target = tmp_path / "agenda.ics"
    assert main(["export-ics", str(target)]) == 0
    events = Calendar.from_ical(target.read_bytes()).walk("VEVENT")
    season = json.loads((ROOT / "examples" / "sliedrecht.json").read_text("utf-8"))
    assert len(events) == len(season["rounds"])
    assert fits(capsys.readouterr().out, "EXPORTED_ICS", rounds=len(events), path=target)


def test_no_dated_round_is_said(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("KEIZER_DB", str(tmp_path / "keizer.db"))
    data = json.loads((ROOT / "examples" / "sliedrecht.json").read_text("utf-8"))
    for rnd in data["rounds"]:
        rnd.pop("date", None)
    plain = tmp_path / "zonder.json"
    plain.write_text(json.dumps(data), encoding="utf-8")
    assert main(["import", str(plain)]) == 0
    assert main(["export-ics", str(tmp_path / "a.ics")]) == 1
    assert fits(capsys.readouterr().err, "AGENDA_NONE")


def test_two_clubs_calendars_in_one_client_keep_their_own_events():
    """Issue 33: the UID names the club, so two clubs' round 1 are two events."""
    def uids(name: str) -> set[str]:
        made = rounds_ics(NL, Agenda([CalendarRound(1, dt.date(2026, 12, 3))], name,
                                     "2026-2027", dt.time(20), ZoneInfo("Europe/Amsterdam"),
                                     dt.datetime(2026, 12, 1, tzinfo=dt.UTC)))
        return {str(e["uid"]) for e in Calendar.from_ical(made).walk("VEVENT")}
    assert uids("De Toren") == uids("De Toren")  # a newer file updates its own events
    assert not uids("De Toren") & uids("Het Paard")
