"""The `keizer-season/1` file: read, validate, write (`read_season`, `season_to_json`).

Reading collects every problem with its place (`rounds[3].games[2].result`) and raises once.
Writing produces the canonical form: optional fields only where they differ from the default,
so `write(read(x)) == x` for every canonical file.
"""

from __future__ import annotations

import datetime as dt
import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from decimal import Decimal
from fractions import Fraction
from typing import Any

from core.errors import Expected, InvalidSeasonError, ProblemCode, Problems, join_path
from core.rules import Rules, check_rules_source
from core.season.model import (
    Absence,
    AbsenceReason,
    ExternalDay,
    Game,
    Player,
    Result,
    Round,
    Season,
)

FORMAT = "keizer-season/1"

EXTERNAL_RESULTS: Mapping[str, Fraction] = {
    "1": Fraction(1), "1/2": Fraction(1, 2), "0": Fraction(0),
}
"""An external result as a season file writes it."""


# --- reading -----------------------------------------------------------------------------------

_TOP_KEYS = ("format", "club", "season", "rules", "planned_rounds", "players", "initial_ranking",
             "rounds")
_PLAYER_KEYS = ("id", "name", "rating", "youth", "joined", "withdrawn", "group", "flexible",
               "knsb", "fide_id", "federation", "sex", "title", "birth", "name_as_written",
               "surname")
IDENTITY_FORMS: Mapping[str, tuple[re.Pattern[str], Expected]] = {
    "federation": (re.compile(r"[A-Z]{3}"), Expected.FEDERATION),
    "sex": (re.compile(r"[mw]"), Expected.SEX),
    "title": (re.compile(r"[A-Z]{1,3}|[a-z]{1,3}"), Expected.TITLE),
    "birth": (re.compile(r"\d{4}(-\d{2}-\d{2})?"), Expected.BIRTH),
}
"""The text fields of a player's identity, and the form each must have."""
_ROUND_KEYS = ("round", "date", "games", "absent")
_GAME_KEYS = ("white", "black", "result")
_ABSENCE_KEYS = ("player", "reason", "day", "team", "result")


def read_season(text: str) -> Season:
    """Parse and validate a season file's text; raises InvalidSeasonError with every problem."""
    try:
        data = json.loads(text, parse_float=Decimal)
    except json.JSONDecodeError as exc:
        problems = Problems()
        problems.add("", ProblemCode.NOT_JSON, line=exc.lineno, column=exc.colno, reason=exc.msg)
        raise InvalidSeasonError(problems.items) from exc
    return season_from_data(data)


def season_from_data(data: Any) -> Season:
    """Validate parsed JSON (numbers as int/Decimal) into a Season; raises InvalidSeasonError."""
    problems = Problems()
    season = _Reader(problems).season(data)
    if problems or season is None:
        raise InvalidSeasonError(problems.items)
    return season


@dataclass(frozen=True, slots=True)
class Outline:
    """What checking one round's data needs of a season: its players, its rules, and which of
    the rounds it lists are paired. A write to one round is checked against it without the
    season's games (at thousands of players, their read takes a second)."""

    players: tuple[Player, ...]
    rules: Rules
    paired: tuple[bool, ...]
    """Per round the season lists (through the first not paired yet): whether it is paired."""

    @classmethod
    def of(cls, season: Season) -> Outline:
        return cls(season.players, season.rules, tuple(r.is_paired for r in season.rounds))


def round_from_data(outline: Outline, data: Any) -> Round:
    """One round of the season read anew from that round's data, checked exactly as
    `season_from_data` checks it in the whole file; raises InvalidSeasonError. Whether the
    round is paired must not change (that decides which rounds the file lists after it)."""
    problems = Problems()
    number = data.get("round") if isinstance(data, Mapping) else None
    listed = len(outline.paired)
    if not isinstance(number, int) or not 1 <= number <= listed:
        raise ValueError(f"round {number!r} is not one of the season's")
    rnd = _Reader(problems).round(data, number - 1, {p.id: p for p in outline.players},
                                  outline.rules, last=number == listed)
    if problems or rnd is None:
        raise InvalidSeasonError(problems.items)
    if rnd.is_paired != outline.paired[number - 1]:
        raise ValueError(f"round {number} became {'' if rnd.is_paired else 'un'}paired")
    return rnd


def with_round_data(season: Season, data: Any) -> Season:
    """`season` with one of its rounds read anew from that round's data (`round_from_data`)."""
    rnd = round_from_data(Outline.of(season), data)
    rounds = season.rounds
    return replace(season, rounds=(*rounds[:rnd.number - 1], rnd, *rounds[rnd.number:]))


def with_planned(rules_source: Any, planned: int | None) -> Any:
    """The rules as written, with the file's top-level `planned_rounds` (its shorthand)."""
    if planned is None:
        return rules_source
    if isinstance(rules_source, Mapping):
        return {**rules_source, "planned_rounds": planned}
    return {"preset": rules_source, "planned_rounds": planned}


class _Reader:
    def __init__(self, problems: Problems) -> None:
        self.problems = problems

    def season(self, data: Any) -> Season | None:
        if not self._object(data, "", _TOP_KEYS, required=("format", "rules", "players",
                                                          "rounds")):
            return None
        if "format" in data and data["format"] != FORMAT:
            self.problems.add("format", ProblemCode.BAD_VALUE, value=repr(data["format"]),
                              expected=FORMAT)
        club = self._text(data.get("club", ""), "club", allow_empty=True)
        name = self._text(data.get("season", ""), "season", allow_empty=True)
        rules_source = data.get("rules", "sliedrecht")
        planned = self._optional_int(data, "planned_rounds", "", 1)
        # The top-level key is shorthand for the rules parameter; both must agree.
        if planned is not None and isinstance(rules_source, Mapping) \
                and rules_source.get("planned_rounds", planned) != planned:
            self.problems.add("planned_rounds", ProblemCode.CONFLICT, value=planned,
                              other="rules.planned_rounds",
                              other_value=rules_source["planned_rounds"])
        rules, rule_problems = check_rules_source(with_planned(rules_source, planned), "rules")
        self.problems.extend(rule_problems.items)
        players = self._players(data.get("players"))
        by_id = {p.id: p for p in players}
        initial = self._initial_ranking(data.get("initial_ranking"), by_id)
        rounds = self._rounds(data.get("rounds"), by_id, rules)
        return Season(club=club, name=name, rules=rules, players=tuple(players),
                      rounds=tuple(rounds), initial_ranking=initial, rules_source=rules_source,
                      planned_rounds=planned)

    # generic checks ---------------------------------------------------------------------------

    def _object(self, data: Any, path: str, allowed: Sequence[str],
                required: Sequence[str] = ()) -> bool:
        if not isinstance(data, Mapping):
            self.problems.add(path, ProblemCode.WRONG_TYPE, value=_short(data),
                              expected=Expected.OBJECT)
            return False
        for key in data:
            if key not in allowed:
                self.problems.add(join_path(path, str(key)), ProblemCode.UNKNOWN_KEY, key=key,
                                  expected=" | ".join(allowed))
        for key in required:
            if key not in data:
                self.problems.add(join_path(path, key), ProblemCode.MISSING_KEY, key=key)
        return True

    def _list(self, data: Any, path: str) -> list[Any]:
        if not isinstance(data, list):
            self.problems.add(path, ProblemCode.WRONG_TYPE, value=_short(data),
                              expected=Expected.LIST)
            return []
        return data

    def _text(self, data: Any, path: str, *, allow_empty: bool = False) -> str:
        if not isinstance(data, str) or (not allow_empty and not data.strip()):
            self.problems.add(path, ProblemCode.WRONG_TYPE, value=_short(data),
                              expected=Expected.TEXT if allow_empty else Expected.NON_EMPTY_TEXT)
            return ""
        return data

    def _int(self, data: Any, path: str, low: int) -> int | None:
        if isinstance(data, bool) or not isinstance(data, int):
            self.problems.add(path, ProblemCode.WRONG_TYPE, value=_short(data),
                              expected=Expected.INTEGER)
            return None
        if data < low:
            self.problems.add(path, ProblemCode.OUT_OF_RANGE, value=data, low=low)
            return None
        return data

    def _player_ref(self, data: Any, path: str, by_id: Mapping[str, Player]) -> str | None:
        if not isinstance(data, str):
            self.problems.add(path, ProblemCode.WRONG_TYPE, value=_short(data),
                              expected=Expected.PLAYER_ID)
            return None
        if data not in by_id:
            self.problems.add(path, ProblemCode.UNKNOWN_PLAYER, player=data)
            return None
        return data

    # parts --------------------------------------------------------------------------------------

    def _players(self, data: Any) -> list[Player]:
        players: list[Player] = []
        seen: set[str] = set()
        for i, raw in enumerate(self._list(data, "players")):
            path = join_path("players", i)
            if not self._object(raw, path, _PLAYER_KEYS, required=("id", "name")):
                continue
            pid = self._text(raw["id"], join_path(path, "id")) if "id" in raw else ""
            name = self._text(raw["name"], join_path(path, "name")) if "name" in raw else ""
            if pid in seen:
                self.problems.add(join_path(path, "id"), ProblemCode.DUPLICATE_PLAYER_ID,
                                  player=pid)
                continue
            rating = self._optional_int(raw, "rating", path, 0)
            joined = self._optional_int(raw, "joined", path, 1) or 1
            withdrawn = self._optional_int(raw, "withdrawn", path, 1)
            group = self._optional_int(raw, "group", path, 1)
            youth = self._optional_bool(raw, "youth", path)
            flexible = self._optional_bool(raw, "flexible", path)
            knsb = self._optional_int(raw, "knsb", path, 1)
            identity = self._identity(raw, path)
            if withdrawn is not None and withdrawn < joined:
                self.problems.add(join_path(path, "withdrawn"), ProblemCode.OUT_OF_RANGE,
                                  value=withdrawn, low=joined)
            surname = raw.get("surname")
            if surname is not None:
                if isinstance(surname, str) and surname.strip() and isinstance(name, str) \
                        and name.endswith(" " + surname.strip()):
                    identity["surname"] = surname.strip()
                else:
                    self.problems.add(join_path(path, "surname"), ProblemCode.BAD_VALUE,
                                      value=_short(surname), expected=Expected.SURNAME)
            if pid:
                seen.add(pid)
                players.append(Player(pid, name, rating, youth, joined, withdrawn, group,
                                      flexible, knsb, **identity))
        return players

    def _identity(self, raw: Mapping[str, Any], path: str) -> dict[str, Any]:
        """The fields kept for the federation's files, each checked against its form."""
        found: dict[str, Any] = {"fide_id": self._optional_int(raw, "fide_id", path, 1),
                                 "name_as_written": self._optional_bool(raw, "name_as_written",
                                                                        path)}
        for key, (form, expected) in IDENTITY_FORMS.items():
            value = raw.get(key)
            if value is None:
                continue
            if isinstance(value, str) and form.fullmatch(value):
                found[key] = value
            else:
                self.problems.add(join_path(path, key), ProblemCode.BAD_VALUE,
                                  value=_short(value), expected=expected)
        return found

    def _optional_bool(self, raw: Mapping[str, Any], key: str, path: str) -> bool:
        value = raw.get(key, False)
        if isinstance(value, bool):
            return value
        self.problems.add(join_path(path, key), ProblemCode.WRONG_TYPE, value=_short(value),
                          expected=Expected.BOOLEAN)
        return False

    def _optional_int(self, raw: Mapping[str, Any], key: str, path: str, low: int) -> int | None:
        if key not in raw:
            return None
        return self._int(raw[key], join_path(path, key), low)

    def _initial_ranking(self, data: Any, by_id: Mapping[str, Player]) -> tuple[str, ...] | None:
        if data is None:
            return None
        ranking: list[str] = []
        for i, raw in enumerate(self._list(data, "initial_ranking")):
            path = join_path("initial_ranking", i)
            pid = self._player_ref(raw, path, by_id)
            if pid is None:
                continue
            if pid in ranking:
                self.problems.add(path, ProblemCode.PLAYER_TWICE, player=pid)
            elif by_id[pid].joined > 1:
                self.problems.add(path, ProblemCode.PLAYER_NOT_ACTIVE, player=pid, round=1)
            else:
                ranking.append(pid)
        return tuple(ranking)

    def _rounds(self, data: Any, by_id: Mapping[str, Player], rules: Rules) -> list[Round]:
        raw_rounds = self._list(data, "rounds")
        rounds = [self.round(raw, i, by_id, rules, last=i == len(raw_rounds) - 1)
                  for i, raw in enumerate(raw_rounds)]
        return [rnd for rnd in rounds if rnd is not None]

    def round(self, raw: Any, i: int, by_id: Mapping[str, Player], rules: Rules, *,
              last: bool) -> Round | None:
        """The round at index `i` of the file's list (only the `last` may be unpaired)."""
        path = join_path("rounds", i)
        if not self._object(raw, path, _ROUND_KEYS, required=("round",)):
            return None
        number = self._int(raw.get("round"), join_path(path, "round"), 1)
        if number is not None and number != i + 1:
            self.problems.add(join_path(path, "round"), ProblemCode.ROUND_ORDER, value=number,
                              expected=i + 1)
        number = i + 1
        date = self._date(raw.get("date"), join_path(path, "date"))
        games_path, absent_path = join_path(path, "games"), join_path(path, "absent")
        games = [self._game(g, join_path(games_path, j), by_id)
                 for j, g in enumerate(self._list(raw.get("games", []), games_path))]
        absent = [self._absence(a, join_path(absent_path, j), by_id, rules)
                  for j, a in enumerate(self._list(raw.get("absent", []), absent_path))]
        rnd = Round(number, date, tuple(g for g in games if g), tuple(a for a in absent if a))
        if not rnd.is_paired and not last:
            self.problems.add(join_path(path, "games"), ProblemCode.ROUND_ORDER,
                              reason="last_round_only")
        self._attendance(rnd, path, by_id, _named_ids(raw, by_id))
        return rnd

    def _date(self, data: Any, path: str) -> dt.date | None:
        if data is None:
            return None
        if isinstance(data, str) and len(data) == 10:
            try:
                return dt.date.fromisoformat(data)
            except ValueError:
                pass
        self.problems.add(path, ProblemCode.BAD_VALUE, value=_short(data), expected=Expected.DATE)
        return None

    def _game(self, raw: Any, path: str, by_id: Mapping[str, Player]) -> Game | None:
        if not self._object(raw, path, _GAME_KEYS, required=("white", "black")):
            return None
        white = self._player_ref(raw.get("white"), join_path(path, "white"), by_id)
        black = self._player_ref(raw.get("black"), join_path(path, "black"), by_id)
        result = None
        if "result" in raw:
            result = _parse_result(raw["result"])
            if result is None:
                self.problems.add(join_path(path, "result"), ProblemCode.BAD_RESULT,
                                  value=_short(raw["result"]),
                                  expected="1-0 | 0-1 | 1/2-1/2 | +- | -+ | --")
        if white is None or black is None:
            return None
        if white == black:
            self.problems.add(path, ProblemCode.SELF_PAIRED, player=white)
            return None
        return Game(white, black, result)

    def _external_result(self, raw: Mapping[str, Any], path: str) -> Fraction | None:
        """The score of the external game, if given (it may come after the sign-off)."""
        if "result" not in raw:
            return None
        result = EXTERNAL_RESULTS.get(raw["result"]) if isinstance(raw["result"], str) else None
        if result is None:
            self.problems.add(join_path(path, "result"), ProblemCode.BAD_RESULT,
                              value=_short(raw["result"]), expected='"1" | "1/2" | "0"')
        return result

    def _absence(self, raw: Any, path: str, by_id: Mapping[str, Player],
                 rules: Rules) -> Absence | None:
        if not self._object(raw, path, _ABSENCE_KEYS, required=("player", "reason")):
            return None
        pid = self._player_ref(raw.get("player"), join_path(path, "player"), by_id)
        try:
            reason = AbsenceReason(raw.get("reason"))
        except ValueError:
            if "reason" in raw:
                self.problems.add(join_path(path, "reason"), ProblemCode.BAD_VALUE,
                                  value=_short(raw.get("reason")),
                                  expected=" | ".join(r.value for r in AbsenceReason))
            return None
        extra = {k for k in ("day", "team", "result") if k in raw}
        if reason is not AbsenceReason.EXTERNAL:
            for key in sorted(extra):
                self.problems.add(join_path(path, key), ProblemCode.UNKNOWN_KEY, key=key,
                                  reason="only_external")
            return Absence(pid, reason) if pid else None
        day = None
        try:
            day = ExternalDay(raw.get("day"))
        except ValueError:
            self.problems.add(join_path(path, "day"), ProblemCode.BAD_VALUE,
                              value=_short(raw.get("day")), expected="club_night | other_day")
        team = self._optional_int(raw, "team", path, 1)
        result = self._external_result(raw, path)
        absence = Absence(pid or "", reason, day, team, result)
        # Team and result may come later (the match is played after the sign-off), but a team
        # that is given must be one of the table's.
        if day is not None and absence.kind in rules.team_valued and team is not None \
                and team not in rules.team_table:
            self.problems.add(join_path(path, "team"), ProblemCode.BAD_VALUE, value=team,
                              expected=Expected.TEAM_OF_RULES_TABLE)
        return absence if pid and day is not None else None

    def _attendance(self, rnd: Round, path: str, by_id: Mapping[str, Player],
                    named: Sequence[str]) -> None:
        """Each player of the competition once per round; nobody who is not in it."""
        seen: set[str] = set()
        for pid in named:
            if pid in seen:
                self.problems.add(path, ProblemCode.PLAYER_TWICE, player=pid, round=rnd.number)
                continue
            seen.add(pid)
            if not by_id[pid].active_in(rnd.number):
                self.problems.add(path, ProblemCode.PLAYER_NOT_ACTIVE, player=pid,
                                  round=rnd.number)
        if rnd.is_paired:
            for pid, player in by_id.items():
                if player.active_in(rnd.number) and pid not in seen:
                    self.problems.add(path, ProblemCode.PLAYER_MISSING, player=pid,
                                      round=rnd.number)


def _named_ids(raw_round: Mapping[str, Any], by_id: Mapping[str, Player]) -> list[str]:
    """The known player ids a raw round names, even in entries that are otherwise broken."""
    names: list[Any] = []
    for game in raw_round.get("games", []) if isinstance(raw_round.get("games"), list) else []:
        if isinstance(game, Mapping):
            names += [game.get("white"), game.get("black")]
    for absence in raw_round.get("absent", []) if isinstance(raw_round.get("absent"), list) \
            else []:
        if isinstance(absence, Mapping):
            names.append(absence.get("player"))
    return [n for n in names if isinstance(n, str) and n in by_id]


def _parse_result(raw: Any) -> Result | None:
    if not isinstance(raw, str):
        return None
    try:
        return Result.parse(raw)
    except ValueError:
        return None


def _short(data: Any) -> str:
    text = json.dumps(data, default=str, ensure_ascii=False)
    return text if len(text) <= 40 else text[:37] + "..."


# --- writing -----------------------------------------------------------------------------------

def season_to_data(season: Season) -> dict[str, Any]:
    """The canonical JSON data of a season (numbers in `rules` as written when read)."""
    data: dict[str, Any] = {"format": FORMAT, "club": season.club, "season": season.name,
                            "rules": season.rules_source}
    if season.planned_rounds is not None:
        data["planned_rounds"] = season.planned_rounds
    data["players"] = [player_data(p) for p in season.players]
    if season.initial_ranking is not None:
        data["initial_ranking"] = list(season.initial_ranking)
    data["rounds"] = [_round_data(r) for r in season.rounds]
    return data


def data_to_json(data: Any) -> str:
    """Season-file data as canonical text (decimals written as they were read)."""
    return json.dumps(data, ensure_ascii=False, indent=2, default=_decimal) + "\n"


def data_to_line(data: Any) -> str:
    """Season-file data on one line, in ASCII (for a file that embeds it in another encoding,
    such as a TRF comment)."""
    return json.dumps(data, default=_decimal)


def external_result_text(result: Fraction) -> str:
    """`1`, `1/2` or `0`, as an external result is written in a season file."""
    return {v: k for k, v in EXTERNAL_RESULTS.items()}[result]


def _decimal(value: Any) -> Any:
    if isinstance(value, Decimal):
        # The shortest float spelling of a file's decimal is the decimal itself.
        return int(value) if value == value.to_integral_value() and "." not in str(value) \
            else float(value)
    raise TypeError(f"cannot write {value!r} to a season file")


def player_data(player: Player) -> dict[str, Any]:
    data: dict[str, Any] = {"id": player.id, "name": player.name}
    if player.rating is not None:
        data["rating"] = player.rating
    if player.youth:
        data["youth"] = True
    if player.joined != 1:
        data["joined"] = player.joined
    if player.withdrawn is not None:
        data["withdrawn"] = player.withdrawn
    if player.group is not None:
        data["group"] = player.group
    if player.flexible:
        data["flexible"] = True
    if player.knsb is not None:
        data["knsb"] = player.knsb
    for key in ("fide_id", "federation", "sex", "title", "birth"):
        if getattr(player, key) is not None:
            data[key] = getattr(player, key)
    if player.name_as_written:
        data["name_as_written"] = True
    if player.surname is not None:
        data["surname"] = player.surname
    return data


def _round_data(rnd: Round) -> dict[str, Any]:
    data: dict[str, Any] = {"round": rnd.number}
    if rnd.date is not None:
        data["date"] = rnd.date.isoformat()
    if rnd.games:
        data["games"] = [game_data(g) for g in rnd.games]
    data["absent"] = [absence_data(a) for a in rnd.absent]
    return data


def game_data(game: Game) -> dict[str, Any]:
    data: dict[str, Any] = {"white": game.white, "black": game.black}
    if game.result is not None:
        data["result"] = game.result.value
    return data


def absence_data(absence: Absence) -> dict[str, Any]:
    data: dict[str, Any] = {"player": absence.player, "reason": absence.reason.value}
    if absence.day is not None:
        data["day"] = absence.day.value
    if absence.team is not None:
        data["team"] = absence.team
    if absence.result is not None:
        data["result"] = external_result_text(absence.result)
    return data


def season_to_json(season: Season) -> str:
    """The canonical text of the season file."""
    return data_to_json(season_to_data(season))
