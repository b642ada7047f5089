"""The club's teams beside the internal competition (issue 49): which club round a team match
takes its players from and how their absence is priced, whom the captain asks to substitute
and in what order, the lineup the answers make, and a match's board results.

A team is known by its number (1 is the first team), as the rules' team table is."""

from __future__ import annotations

import csv
import datetime as dt
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from core.season import EXTERNAL_RESULTS, ExternalDay


def round_of_match(match: dt.date, rounds: Iterable[tuple[int, dt.date | None]]
                   ) -> tuple[int, ExternalDay] | None:
    """The club round of the match's week (Monday to Sunday) and the day its players'
    absence is priced as: the club's night when the match is on the round's own date,
    another day otherwise. None when the club plays no round that week. Of two rounds in
    one week (a double round), the one on the match's date, else the first."""
    week = match.isocalendar()[:2]
    same = sorted((number, date) for number, date in rounds
                  if date is not None and date.isocalendar()[:2] == week)
    if not same:
        return None
    on_the_day = next((number for number, date in same if date == match), None)
    if on_the_day is not None:
        return on_the_day, ExternalDay.CLUB_NIGHT
    return same[0][0], ExternalDay.OTHER_DAY


@dataclass(frozen=True, slots=True)
class Candidate:
    """A member who may play for a team: his code, rating and own team (None: none)."""

    code: str
    rating: int | None
    team: int | None


def substitute_order(team: int, willing: Iterable[Candidate]) -> list[str]:
    """Whom a team's captain asks to substitute, in order (KNSB's rules let a player of a
    lower team play in a higher one, not the other way): the nearest lower team first, then
    the members of no team, each strongest first. Players of this team or a higher one are
    not asked."""
    def rank(c: Candidate) -> tuple[bool, int, int, str]:
        return c.team is None, c.team or 0, -(c.rating or 0), c.code
    return [c.code for c in sorted(willing, key=rank) if c.team is None or c.team > team]


def lineup(boards: int, regulars: Sequence[str], available: Iterable[str],
           substitutes: Sequence[str]) -> list[str]:
    """The lineup the answers make: the regulars who said yes, in board order, then the
    substitutes who said yes, in the order they were asked; at most `boards`."""
    yes = set(available)
    chosen = [code for code in regulars if code in yes]
    chosen += [code for code in substitutes if code in yes and code not in chosen]
    return chosen[:boards]


BOARD_RESULTS = {**EXTERNAL_RESULTS, "½": Fraction(1, 2), "=": Fraction(1, 2),
                 "0.5": Fraction(1, 2), "0,5": Fraction(1, 2), "r": Fraction(1, 2)}
"""How a board's result may be typed: 1, ½ (1/2, 0.5, =, r) or 0."""


def board_result(word: str) -> Fraction | None:
    """One board's result as typed (None: not one)."""
    return BOARD_RESULTS.get(word.lower())


def board_results(words: Sequence[str], boards: int) -> list[Fraction] | None:
    """The board results as typed, one per board in board order (None: not that)."""
    read = [board_result(word) for word in words]
    if len(read) != boards or any(r is None for r in read):
        return None
    return [r for r in read if r is not None]


def points(value: Fraction) -> str:
    """A score as a chess player writes it: 5½, ½, 3."""
    whole, half = divmod(value, 1)
    return ("" if whole == 0 and half else str(int(whole))) + ("½" if half else "")


def match_score(results: Iterable[Fraction]) -> tuple[Fraction, Fraction]:
    """The team's points and the opponent's: 5½-2½."""
    played = list(results)
    ours = sum(played, Fraction(0))
    return ours, len(played) - ours


@dataclass(frozen=True, slots=True)
class Fixture:
    """A line of a federation's schedule: its date, round, and the two teams by name."""

    date: dt.date
    round: int | None
    home: str
    away: str


_COLUMNS = {"date": ("datum", "date", "dag"), "round": ("ronde", "round", "rnd"),
            "home": ("thuis", "thuisteam", "home", "home team"),
            "away": ("uit", "uitteam", "away", "away team")}
"""Each column a schedule file must have (the round may be missing), by the names the
federations' competition sites and a hand-made sheet give it, in Dutch or English."""
_DATE_FORMATS = ("%d-%m-%Y", "%Y-%m-%d", "%d/%m/%Y", "%d.%m.%Y", "%d-%m-%y")


def read_fixtures(text: str) -> list[Fixture] | None:
    """A team schedule as a competition site exports it (CSV with a header line: date,
    round, home team, away team; comma or semicolon); None when the text is no such file.
    Lines without a readable date are left out."""
    lines = text.lstrip("\ufeff").splitlines()
    if not lines:
        return None
    dialect = csv.Sniffer().sniff(lines[0], delimiters=",;\t") if any(
        d in lines[0] for d in ",;\t") else csv.excel
    rows = list(csv.reader(lines, dialect))
    header = [cell.strip().lower() for cell in rows[0]]
    where = {key: next((k for k, name in enumerate(header) if name in names), None)
             for key, names in _COLUMNS.items()}
    if None in (where["date"], where["home"], where["away"]):
        return None
    fixtures = []
    for row in rows[1:]:
        cells = {key: row[k].strip() if k is not None and k < len(row) else ""
                 for key, k in where.items()}
        day = _date(cells["date"])
        if day is None or not cells["home"] or not cells["away"]:
            continue
        fixtures.append(Fixture(day, int(cells["round"]) if cells["round"].isdigit() else None,
                                cells["home"], cells["away"]))
    return fixtures


def _date(text: str) -> dt.date | None:
    for form in _DATE_FORMATS:
        try:
            return dt.datetime.strptime(text.split()[0] if text else "", form).date()
        except ValueError:
            continue
    return None


def our_side(fixture: Fixture, club: str) -> tuple[int, bool, str] | None:
    """Which of our teams plays in the fixture: its number, whether at home, and the
    opponent. A team is the club's name and its number (`Sliedrecht 2`); the name alone is
    the first team. None when neither side is the club's."""
    for side, other, home in ((fixture.home, fixture.away, True),
                              (fixture.away, fixture.home, False)):
        number = _team_number(side, club)
        if number is not None:
            return number, home, other
    return None


def _team_number(name: str, club: str) -> int | None:
    words, own = name.lower().split(), club.lower().split()
    if words[:len(own)] != own:
        return None
    rest = words[len(own):]
    if not rest:
        return 1
    return int(rest[0]) if len(rest) == 1 and rest[0].isdigit() and int(rest[0]) > 0 \
        else None
