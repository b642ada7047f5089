"""A season as a FIDE Tournament Report File (TRF16), for the KNSB rating administration,
and a TRF read back into a season (a club moving in from Swiss-Manager, Tornelo, Sharly-Chess
or chesspairing).

The file holds the finished rounds. Each game is in both players' `001` lines; a round
without a game is a bye (`U`) or an absence (`Z`), so no game is rated that was not played.
What Keizer needs beyond that travels in comment lines that other programs skip:
`### chesspairing:bye` (the kinds chesspairing documents) and `### keizerbot:` lines with
the season file's own data, so a file written here and read back loses nothing that counts.
Only the order of the boards is not kept: a TRF has none.
"""

from __future__ import annotations

import datetime as dt
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from enum import StrEnum
from fractions import Fraction
from typing import Any

from core import names
from core.encoding import UTF8, fit
from core.errors import KeizerError
from core.numbers import exact_text, format_number
from core.season import (
    FORMAT,
    IDENTITY_FORMS,
    Absence,
    AbsenceReason,
    ExternalDay,
    Player,
    Result,
    Season,
    absence_data,
    data_to_line,
    player_data,
    season_from_data,
)
from core.standings import PlayerStanding, compute_standings

ROUNDS_AT = 91
"""Round r's entry starts at column 92 + 10(r-1) (1-based), as do the dates of `132`."""
NAME_WIDTH = 33
OURS = "### keizerbot:"
CHESSPAIRING = "### chesspairing:bye"

# Keizer absence kinds as chesspairing names bye types, and back.
_BYE_TYPES: Mapping[AbsenceReason, str] = {
    AbsenceReason.BYE: "pab", AbsenceReason.NOTICE: "excused",
    AbsenceReason.NO_NOTICE: "absent", AbsenceReason.EXTERNAL: "clubcommitment",
    AbsenceReason.ARBITER: "excused", AbsenceReason.HALF_BYE: "half",
    AbsenceReason.ZERO_BYE: "zero",
}
_FROM_BYE_TYPES: Mapping[str, AbsenceReason] = {
    "pab": AbsenceReason.BYE, "fullpoint": AbsenceReason.BYE,
    "half": AbsenceReason.HALF_BYE, "excused": AbsenceReason.NOTICE,
    "zero": AbsenceReason.ZERO_BYE, "absent": AbsenceReason.NO_NOTICE,
    "clubcommitment": AbsenceReason.EXTERNAL,
}
# A game's result as each side's code: (white, black).
_CODES: Mapping[Result, tuple[str, str]] = {
    Result.WHITE_WINS: ("1", "0"), Result.BLACK_WINS: ("0", "1"), Result.DRAW: ("=", "="),
    Result.WHITE_BY_FORFEIT: ("+", "-"), Result.BLACK_BY_FORFEIT: ("-", "+"),
    Result.DOUBLE_FORFEIT: ("-", "-"),
}
_RESULTS: Mapping[tuple[str, str], Result | None] = {
    **{codes: result for result, codes in _CODES.items()}, ("*", "*"): None}
"""Both sides' codes as a game's result; TRF-2026's `*` is a game not played yet."""
_UNRATED = {"W": "1", "D": "=", "L": "0"}
"""Won, drawn, lost without being rated (under a move played): read as played results."""
_WITHOUT_GAME = frozenset("UFHZ-+ ")
_ABSENCE_CODES: Mapping[AbsenceReason, str] = {
    AbsenceReason.BYE: "U", AbsenceReason.HALF_BYE: "H", AbsenceReason.ZERO_BYE: "Z"}
"""A round without a game as TRF writes it: the pairing's bye `U`, a requested bye `H` or `Z`
as itself; every other absence `Z` (no points in TRF's reckoning, none rated)."""
_FROM_CODES: Mapping[str, AbsenceReason] = {"H": AbsenceReason.HALF_BYE,
                                            "Z": AbsenceReason.ZERO_BYE}
"""TRF's requested byes in FIDE's meaning, read as the same reasons (rules.md section 9)."""
_KEIZER_CODES: Mapping[str, AbsenceReason] = {
    "U": AbsenceReason.BYE, "F": AbsenceReason.BYE, "+": AbsenceReason.BYE,
    "H": AbsenceReason.NOTICE, "Z": AbsenceReason.NOTICE}
"""A round without a game whose kind the file does not carry, as a Dutch club means it: a
requested bye (`H`, `Z`) in a Keizer competition is a sign-off; anything else not listed is
an absence without notice."""


# --- writing ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TrfHeader:
    """What a TRF's header says beyond the season: where the club plays, who led it."""

    city: str = ""
    arbiter: str = ""


def trf_bytes(season: Season, header: TrfHeader = TrfHeader(), charset: str = UTF8) -> bytes:
    """The file as bytes: UTF-8, or Windows-1252 for a reader that needs it."""
    return write_trf(season, header, charset).encode(charset)


def write_trf(season: Season, header: TrfHeader = TrfHeader(), charset: str = UTF8) -> str:
    """The season's finished rounds (an unbroken run from round 1) as TRF16 text, its words
    fitted to `charset` (a letter it lacks is written in Latin letters, column by column)."""
    rounds = season.rounds[:season.complete_rounds]
    order = _start_order(season)
    number = {pid: k for k, pid in enumerate(order, start=1)}
    rows = {row.id: row for row in compute_standings(season, len(rounds)).rows}
    dated = [r.date for r in rounds if r.date is not None]
    lines = [fit(f"012 {season.club} {season.name}".rstrip(), charset)]
    if header.city:
        lines.append(fit(f"022 {header.city}", charset))
    lines.append("032 NED")
    if dated:
        lines += [f"042 {dated[0]:%Y/%m/%d}", f"052 {dated[-1]:%Y/%m/%d}"]
    lines += [f"062 {len(order)}",
              f"072 {sum(season.player(pid).rating is not None for pid in order)}",
              "092 Keizer"]
    if header.arbiter:
        lines.append(fit(f"102 {header.arbiter}", charset))
    lines.append(f"122 {season.rules.time_control}")
    if dated:
        lines.append(("132".ljust(ROUNDS_AT) + "  ".join(
            f"{r.date:%y/%m/%d}" if r.date else " " * 8 for r in rounds)).rstrip())
    lines += [f"XXR {max(season.rules.planned_rounds, len(season.rounds))}",
              RANKED_BY.format(round=len(rounds))]
    entries = _entries(season, len(rounds), number)
    for pid in order:
        row = rows.get(pid)
        lines.append(_player_line(season.player(pid), number[pid], entries[pid], charset,
                                  rank=0 if row is None else row.rank))
    lines += _comments(season, len(rounds), number)
    lines += [f"{OURS}keizer {data_to_line(_keizer(number[pid], rows[pid]))}"
              for pid in order if pid in rows]
    return "\r\n".join(lines) + "\r\n"


RANKED_BY = ("### Punten (kolom 81-84): de partijpunten. De rang (kolom 86-89) volgt de "
             "Keizerstand na ronde {round}; de Keizerscore staat onderaan per speler "
             "(### keizerbot:keizer).")
"""The file says which ranking its rank follows: a rating officer sees game points in the
points column, as FIDE's readers add them up, and a rank that does not follow them."""


def _keizer(start: int, row: PlayerStanding) -> dict[str, Any]:
    """A player's Keizer score and rank, as the file's comment keeps them."""
    return {"number": start, "score": exact_text(row.score), "rank": row.rank}


def _start_order(season: Season) -> list[str]:
    """Start numbers: the initial ranking, then those who joined later, as listed."""
    first = list(season.starting_order())
    return first + [p.id for p in season.players if p.id not in first]


def _entries(season: Season, count: int, number: Mapping[str, int]) \
        -> dict[str, list[str]]:
    """Each player's ten columns for each round: `  0012 w 1`, `  0000 - Z`, or blank."""
    blank = " " * 10
    entries = {p.id: [blank] * count for p in season.players}
    for rnd in season.rounds[:count]:
        at = rnd.number - 1
        for game in rnd.games:
            assert game.result is not None  # the written rounds are complete
            white, black = _CODES[game.result]
            entries[game.white][at] = f"  {number[game.black]:04d} w {white}"
            entries[game.black][at] = f"  {number[game.white]:04d} b {black}"
        for absence in rnd.absent:
            code = _ABSENCE_CODES.get(absence.reason, "Z")
            entries[absence.player][at] = f"  0000 - {code}"
    return entries


def _player_line(player: Player, start: int, entries: list[str], charset: str, *,
                 rank: int) -> str:
    """A `001` line, each field at its columns (1-based, as the FIDE table numbers them)."""
    name = player.name if player.name_as_written else names.surname_first(player.name,
                                                                          player.surname)
    line = [" "] * (ROUNDS_AT - 2)  # each round's ten columns start with two blanks

    def put(column: int, text: str, width: int) -> None:
        line[column - 1:column - 1 + width] = text[:width].rjust(width)

    put(1, "001", 3)
    put(5, str(start), 4)
    put(10, player.sex or "", 1)
    put(11, player.title or "", 3)
    put(15, fit(name, charset)[:NAME_WIDTH].ljust(NAME_WIDTH), NAME_WIDTH)
    put(49, str(player.rating or ""), 4)
    put(54, player.federation or "", 3)
    put(58, str(player.fide_id or ""), 11)
    put(70, (player.birth or "").replace("-", "/"), 10)
    put(81, format_number(_game_points(entries), 1), 4)
    put(86, str(rank or ""), 4)
    return ("".join(line) + "".join(entries)).rstrip()


_POINTS = {"1": Fraction(1), "=": Fraction(1, 2), "+": Fraction(1), "U": Fraction(1),
           "F": Fraction(1), "H": Fraction(1, 2)}
"""What each code of a round's entry adds to the points column, as FIDE's readers add it up
(a code not named adds nothing)."""


def _game_points(entries: list[str]) -> Fraction:
    """The sum of the line's results: the points column a checking reader expects."""
    return sum((_POINTS.get(entry[-1], Fraction(0)) for entry in entries), Fraction(0))


def _comments(season: Season, count: int, number: Mapping[str, int]) -> list[str]:
    head: dict[str, Any] = {"format": FORMAT, "club": season.club, "season": season.name,
                            "rules": season.rules_source}
    if season.planned_rounds is not None:
        head["planned_rounds"] = season.planned_rounds
    if season.initial_ranking is not None:
        head["initial_ranking"] = list(season.initial_ranking)
    lines = [f"{OURS}season {data_to_line(head)}"]
    lines += [f"{OURS}player {data_to_line({'number': number[p.id], **player_data(p)})}"
              for p in season.players]
    for rnd in season.rounds[:count]:
        for absence in rnd.absent:
            who = number[absence.player]
            lines.append(f"{CHESSPAIRING} round={rnd.number} player={who} "
                         f"type={_BYE_TYPES[absence.reason]}")
            if _needs_ours(absence):
                data = {k: v for k, v in absence_data(absence).items() if k != "player"}
                lines.append(f"{OURS}absence "
                             f"{data_to_line({'round': rnd.number, 'player': who, **data})}")
    return lines


def _needs_ours(absence: Absence) -> bool:
    """What chesspairing's bye types cannot say: the arbiter's duty, an external game on
    another day, a team result."""
    return absence.reason is AbsenceReason.ARBITER or absence.day is ExternalDay.OTHER_DAY \
        or absence.team is not None or absence.result is not None


# --- reading ------------------------------------------------------------------------------


class TrfProblem(StrEnum):
    NO_PLAYERS = "no_players"
    BAD_PLAYER_LINE = "bad_player_line"
    BAD_ENTRY = "bad_entry"
    UNKNOWN_OPPONENT = "unknown_opponent"
    OPPONENTS_DISAGREE = "opponents_disagree"
    BAD_COMMENT = "bad_comment"


class TrfError(KeizerError):
    """A file that is not a TRF this reader can use; `line` is 1-based."""

    def __init__(self, problem: TrfProblem, line: int = 0, **facts: object) -> None:
        self.problem, self.line = problem, line
        self.facts = {k: str(v) for k, v in facts.items()}
        super().__init__(f"line {line}: {problem.value} {self.facts}")


class Assumed(StrEnum):
    """What the reader had to decide because the file does not say."""

    RULES = "rules"
    """No Keizer rules in the file: the preset given."""
    ABSENCE_KIND = "absence_kind"
    """An absence whose kind the file does not carry: by its TRF code."""
    BYE_AS_SIGN_OFF = "bye_as_sign_off"
    """A requested bye (`H`, `Z`) of unknown kind: a sign-off, as in a Keizer competition."""
    UNRATED_RESULT = "unrated_result"
    """`W`, `D`, `L` (not rated): read as a win, draw or loss."""
    JOINED_LATER = "joined_later"
    """No entry for his first rounds: joined later."""
    WITHDRAWN = "withdrawn"
    """No entry for his last rounds: withdrawn."""
    IDS = "ids"
    """Player ids made from the names."""
    NAME_AS_WRITTEN = "name_as_written"
    """A name without a comma: kept as written, since which word is the surname is not
    known (`Mirzoev Azer`)."""
    WAITING_ROUND = "waiting_round"
    """The last round holds only byes entered ahead: the round waiting to be paired, its byes
    its sign-offs."""


@dataclass(frozen=True, slots=True)
class Imported:
    season: Season
    assumed: Mapping[Assumed, int] = field(default_factory=dict)
    """How often each thing was assumed."""


@dataclass(frozen=True, slots=True)
class _Entry:
    opponent: int
    colour: str
    code: str


@dataclass(frozen=True, slots=True)
class _Line:
    """A `001` line: where it is, what it says, its rounds (None: blank)."""

    at: int
    text: str
    entries: list[_Entry | None]

    @property
    def name(self) -> str:
        return self.text[14:47].strip()

    @property
    def played(self) -> list[int]:
        """The rounds with an entry."""
        return [r for r, e in enumerate(self.entries, start=1) if e is not None]

    def enter(self, number: int, entry: _Entry) -> None:
        """A bye given ahead in a record of its own, where the line has no entry."""
        self.entries.extend([None] * (number - len(self.entries)))
        if self.entries[number - 1] is None:
            self.entries[number - 1] = entry


def read_trf(text: str, *, preset: str = "sliedrecht", fide_byes: bool = False) -> Imported:
    """A season from TRF16 text; raises TrfError, or InvalidSeasonError where what it reads
    is no valid season. A requested bye (`H`, `Z`) of unknown kind is a sign-off, or with
    `fide_byes` FIDE's half-point and zero-point bye."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    header: dict[str, str] = {}
    players: dict[int, _Line] = {}
    ours: dict[str, list[dict[str, Any]]] = {}
    byes: dict[tuple[int, int], str] = {}
    ahead: dict[tuple[int, int], str] = {}
    dates: list[str] = []
    for at, line in enumerate(lines, start=1):
        tag = line[:3]
        if line.startswith(OURS):
            verb, _, rest = line[len(OURS):].partition(" ")
            ours.setdefault(verb, []).append(_comment_data(rest, at))
        elif line.startswith(CHESSPAIRING):
            params = dict(p.split("=", 1) for p in line.split()[2:] if "=" in p)
            if params.get("round", "").isdigit() and params.get("player", "").isdigit():
                byes[int(params["round"]), int(params["player"])] = params.get("type", "")
        elif tag == "001":
            start, entries = _player_entries(line, at)
            players[start] = _Line(at, line, entries)
        elif tag == "132" and len(line) > ROUNDS_AT:
            dates = [line[k:k + 8].strip() for k in range(ROUNDS_AT, len(line), 10)]
        elif tag == "132":  # TRF-2026 and chesspairing: a line for each round
            dates.append(line[4:].strip())
        elif tag == "240":
            ahead.update(_byes_ahead(line, at))
        elif re.fullmatch(r"\d{3}", tag):
            header.setdefault(tag, line[4:].strip())
    if not players:
        raise TrfError(TrfProblem.NO_PLAYERS)
    for (number, start), code in ahead.items():
        if start in players:
            players[start].enter(number, _Entry(0, "-", code))
    return _Reading(players, ours, byes, dates, header, preset, fide_byes).season()


def _byes_ahead(line: str, at: int) -> dict[tuple[int, int], str]:
    """A TRF-2026 `240` record, `240 H 5 12 14`: byes in round 5 for players 12 and 14."""
    words = line[4:].split()
    if len(words) < 2 or words[0] not in ("F", "H", "Z") or \
            not all(w.isdigit() for w in words[1:]):
        raise TrfError(TrfProblem.BAD_ENTRY, at)
    return {(int(words[1]), int(start)): words[0] for start in words[2:]}


def _comment_data(text: str, line: int) -> dict[str, Any]:
    try:
        data = json.loads(text, parse_float=Decimal)
    except json.JSONDecodeError:
        raise TrfError(TrfProblem.BAD_COMMENT, line) from None
    if not isinstance(data, dict):
        raise TrfError(TrfProblem.BAD_COMMENT, line)
    return data


def _player_entries(line: str, at: int) -> tuple[int, list[_Entry | None]]:
    start = line[4:8].strip()
    if not start.isdigit():
        raise TrfError(TrfProblem.BAD_PLAYER_LINE, at, column=5)
    entries: list[_Entry | None] = []
    for k in range(ROUNDS_AT, len(line), 10):
        chunk = line[k:k + 8].ljust(8)
        opponent, colour, code = chunk[:4].strip(), chunk[5], chunk[7]
        if not (opponent or colour.strip() or code.strip()):
            entries.append(None)
            continue
        if not opponent and not colour.strip() and code in _WITHOUT_GAME:
            # lichess writes a round without a game as its code alone: `U`, no `0000`, no `-`
            entries.append(_Entry(0, "-", code))
            continue
        if not opponent.isdigit() or colour not in "wb-" or \
                code not in "10=+-WDLUFHZ* ":
            raise TrfError(TrfProblem.BAD_ENTRY, at, round=len(entries) + 1)
        entries.append(_Entry(int(opponent), colour, code))
    return int(start), entries


class _Reading:
    """One TRF's data on its way to a season file."""

    def __init__(self, players: dict[int, _Line],
                 ours: dict[str, list[dict[str, Any]]], byes: dict[tuple[int, int], str],
                 dates: list[str], header: Mapping[str, str], preset: str,
                 fide_byes: bool) -> None:
        self.players, self.ours, self.byes = players, ours, byes
        self.dates, self.header, self.preset = dates, header, preset
        self.codes = _FROM_CODES if fide_byes else {}
        self.assumed: dict[Assumed, int] = {}
        self.count = max(len(line.entries) for line in players.values())
        self.waiting = self.count > 0 and all(
            len(line.entries) < self.count or line.entries[-1] is None or
            line.entries[-1].opponent == 0 for line in players.values())
        """The last round has no game: byes entered ahead of a round still to be paired."""
        self.last_played = self.count - self.waiting
        self.ids = self._ids()

    def assume(self, what: Assumed, times: int = 1) -> None:
        if times:
            self.assumed[what] = self.assumed.get(what, 0) + times

    def season(self) -> Imported:
        head = (self.ours.get("season") or [{}])[0]
        if "rules" not in head:
            self.assume(Assumed.RULES)
        name = head.get("season", _season_name(self.header.get("042", "")))
        data: dict[str, Any] = {
            "format": FORMAT,
            "club": head.get("club", _club_name(self.header.get("012", ""), name)),
            "season": name,
            "rules": head.get("rules", self.preset)}
        for key in ("planned_rounds", "initial_ranking"):
            if key in head:
                data[key] = head[key]
        if self.waiting:
            self.assume(Assumed.WAITING_ROUND)
        data["players"] = self._players()
        data["rounds"] = [self._round(r) for r in range(1, self.count + 1)]
        return Imported(season_from_data(data), dict(self.assumed))

    def _ids(self) -> dict[int, str]:
        given = {int(p["number"]): str(p["id"]) for p in self.ours.get("player", [])
                 if isinstance(p.get("number"), int) and "id" in p}
        ids: dict[int, str] = {}
        taken: set[str] = set()
        for start, line in sorted(self.players.items()):
            pid = given.get(start) or names.slug(names.given_first(line.name)) or f"speler-{start}"
            base, k = pid, 2
            while pid in taken:
                pid, k = f"{base}-{k}", k + 1
            taken.add(pid)
            ids[start] = pid
        self.assume(Assumed.IDS, len(self.players) - len(given))
        return ids

    def _players(self) -> list[dict[str, Any]]:
        by_number = {int(p["number"]): p for p in self.ours.get("player", [])
                     if isinstance(p.get("number"), int)}
        # The season file's order where the file has it, else by start number.
        order = [n for n in by_number if n in self.players]
        order += sorted(set(self.players) - set(order))
        out = []
        for start in order:
            line, known = self.players[start], by_number.get(start)
            if known is not None:
                out.append({k: v for k, v in known.items() if k != "number"})
                continue
            player: dict[str, Any] = {"id": self.ids[start], **self._name(line.name),
                                      **_identity(line.text)}
            span = self._span(start)
            if span and span[0] > 1:
                player["joined"] = span[0]
                self.assume(Assumed.JOINED_LATER)
            if span and span[1] < self.last_played:
                player["withdrawn"] = span[1]
                self.assume(Assumed.WITHDRAWN)
            out.append(player)
        return out

    def _name(self, name: str) -> dict[str, Any]:
        """`Kasparov, Garry` as `Garry Kasparov`; a name without a comma as it is written."""
        words = name.split()
        if "," in name:
            given = names.given_first(name)
            surname = re.sub(r"\s*,\s*", ", ", " ".join(words)).split(",", 1)[0]
            if names.surname_first(given) == names.surname_first(given, surname) or \
                    not given.endswith(" " + surname):
                return {"name": given}
            # A surname the name alone does not give back: kept as the file wrote it.
            return {"name": given, "surname": surname}
        if len(words) < 2:  # one word: there is no order to guess
            return {"name": name.strip()}
        self.assume(Assumed.NAME_AS_WRITTEN)
        return {"name": " ".join(words), "name_as_written": True}

    def _span(self, start: int) -> tuple[int, int] | None:
        """The first and last round he took part in, by his entries; a bye entered ahead
        makes him a player of every round up to it."""
        played = self.players[start].played
        if not played:
            return None
        ahead = played[-1] > self.last_played
        done = [r for r in played if r <= self.last_played]
        return (done[0] if done else self.count,
                self.last_played if ahead else done[-1])

    def _round(self, number: int) -> dict[str, Any]:
        games: list[dict[str, Any]] = []
        absent: list[dict[str, Any]] = []
        details = {(int(a["round"]), int(a["player"])): a for a in self.ours.get("absence", [])
                   if isinstance(a.get("round"), int) and isinstance(a.get("player"), int)}
        for start, line in sorted(self.players.items()):
            entries = line.entries
            entry = entries[number - 1] if number <= len(entries) else None
            if entry is None:
                if number <= self.last_played and self._active(start, number):
                    absent.append(self._absence(number, start, " ", details))
                continue
            if entry.opponent == 0 or entry.code in "UFHZ":
                absent.append(self._absence(number, start, entry.code, details))
            elif entry.colour == "w" or (entry.colour == "-" and entry.opponent > start):
                games.append(self._game(number, start, line.at, entry))
        if self.dates and number <= len(self.dates) and self.dates[number - 1]:
            return {"round": number, "date": _date(self.dates[number - 1]), "games": games,
                    "absent": absent}
        return {"round": number, "games": games, "absent": absent}

    def _active(self, start: int, number: int) -> bool:
        span = self._span(start)
        return span is not None and span[0] <= number <= span[1]

    def _game(self, number: int, start: int, at: int, entry: _Entry) -> dict[str, Any]:
        other = self.players.get(entry.opponent)
        if other is None:
            raise TrfError(TrfProblem.UNKNOWN_OPPONENT, at, round=number,
                           opponent=entry.opponent)
        theirs = other.entries[number - 1] if number <= len(other.entries) else None
        mine, their_code = _UNRATED.get(entry.code, entry.code), \
            None if theirs is None else _UNRATED.get(theirs.code, theirs.code)
        codes = (mine, their_code or "")
        if theirs is None or theirs.opponent != start or codes not in _RESULTS or \
                theirs.colour == entry.colour != "-":
            raise TrfError(TrfProblem.OPPONENTS_DISAGREE, at, round=number,
                           opponent=entry.opponent)
        if entry.code in _UNRATED:
            self.assume(Assumed.UNRATED_RESULT)
        game = {"white": self.ids[start], "black": self.ids[entry.opponent]}
        result = _RESULTS[codes]
        return game if result is None else {**game, "result": result.value}

    def _absence(self, number: int, start: int, code: str,
                 details: Mapping[tuple[int, int], Mapping[str, Any]]) -> dict[str, Any]:
        detail = details.get((number, start))
        if detail is not None:
            return {"player": self.ids[start],
                    **{k: v for k, v in detail.items() if k not in ("round", "player")}}
        kind = _FROM_BYE_TYPES.get(self.byes.get((number, start), "")) or self.codes.get(code)
        if kind is None:
            kind = _KEIZER_CODES.get(code, AbsenceReason.NO_NOTICE)
            self.assume(Assumed.BYE_AS_SIGN_OFF if kind is AbsenceReason.NOTICE
                        else Assumed.ABSENCE_KIND)
        if kind is AbsenceReason.EXTERNAL:
            return {"player": self.ids[start], "reason": kind.value,
                    "day": ExternalDay.CLUB_NIGHT.value}
        return {"player": self.ids[start], "reason": kind.value}


def _identity(text: str) -> dict[str, Any]:
    """What a `001` line says of who the player is, each field only where it has its form."""
    found: dict[str, Any] = {}
    rating, fide_id = text[48:52].strip(), text[57:68].strip()
    if rating.isdigit() and int(rating):
        found["rating"] = int(rating)
    if fide_id.isdigit() and int(fide_id):
        found["fide_id"] = int(fide_id)
    sex = _SEXES.get(text[9:10].lower())
    if sex:
        found["sex"] = sex
    for key, value in (("title", text[10:13].strip()),
                       ("federation", text[53:56].strip().upper())):
        if IDENTITY_FORMS[key][0].fullmatch(value):
            found[key] = value
    birth = re.fullmatch(r"(\d{4})(?:[/.-](\d{2})[/.-](\d{2}))?", text[69:79].strip())
    if birth and int(birth[1]):
        full = birth[2] and int(birth[2]) and birth[3] and int(birth[3])
        found["birth"] = f"{birth[1]}-{birth[2]}-{birth[3]}" if full else birth[1]
    return found


_SEXES = {"m": "m", "w": "w", "f": "w"}
"""TRF's sex column (`f` in some programs) as the season file writes it."""


def _club_name(tournament: str, season: str) -> str:
    """The club of a tournament's name (`012`): without the season it ends with (`De Toren
    2026-2027`, `De Toren (2026/27)`, `De Toren 2026`), which the season file holds apart. A
    year of another season stays: it may be the club's own (`Schaakclub Utrecht 1893`)."""
    years = "|".join(season.split("-")) if season else "(?!)"
    found = re.sub(rf"[\s,-]*\(?\b(?:(?:19|20)\d{{2}}\s*[-/]\s*(?:19|20)?\d{{2}}|{years})\)?\s*$",
                   "", tournament).strip()
    return found or tournament.strip()


def _season_name(start: str) -> str:
    """The season a tournament starting on `start` (`2026/09/03`) is in: `2026-2027`."""
    found = re.match(r"(\d{4})/(\d{2})", start)
    if found is None:
        return ""
    year = int(found[1]) - (int(found[2]) < 7)
    return f"{year}-{year + 1}"


def _date(text: str) -> str:
    """`26/09/03` or `2026/09/03` as `2026-09-03`."""
    for pattern in ("%y/%m/%d", "%Y/%m/%d"):
        try:
            return dt.datetime.strptime(text, pattern).date().isoformat()
        except ValueError:
            continue
    return text  # the season file's check names it
