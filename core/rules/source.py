"""Reading a rules source: a preset name, or `{"preset": NAME, ...overrides}` (TOML or
JSON); every problem reported at once with its place. And writing rules back as a source."""

from __future__ import annotations

import re
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import fields, replace
from decimal import Decimal
from enum import StrEnum
from fractions import Fraction
from types import MappingProxyType
from typing import Any

from core.errors import Expected, InvalidRulesError, ProblemCode, Problems, join_path
from core.numbers import exact_text, to_fraction
from core.rules.model import (
    EXTERNAL_KINDS,
    TEAM_AWARD,
    Colour,
    CompensationKind,
    Fade,
    FixedPointStart,
    ForfeitScoring,
    FrozenBonus,
    Ladder,
    Revaluation,
    Rounding,
    Rules,
    Ties,
    Titles,
    TopException,
    TopValue,
    Unannounced,
    Weekday,
    Withdrawn,
)
from core.rules.presets import PRESETS

COMPENSATION = "compensation"
"""`forfeit_scoring` (or one side of it): the season format's compensation rule."""

_Parser = Callable[[Any, Any, str, Problems], Any]
"""(raw value, current value, path, problems) -> new value, or the current one after a problem."""


def _number(low: Fraction | None = None, high: Fraction | None = None) -> _Parser:
    def parse(raw: Any, current: Any, path: str, problems: Problems) -> Any:
        value = to_fraction(raw)
        if value is None:
            problems.add(path, ProblemCode.WRONG_TYPE, value=_show(raw), expected=Expected.NUMBER)
            return current
        if (low is not None and value < low) or (high is not None and value > high):
            problems.add(path, ProblemCode.OUT_OF_RANGE, value=_show(raw), low=exact_text(low),
                         high=exact_text(high))
            return current
        return value

    return parse


def _integer(low: int, high: int | None = None, *, nullable: bool = False) -> _Parser:
    def parse(raw: Any, current: Any, path: str, problems: Problems) -> Any:
        if raw is None and nullable:
            return None
        if isinstance(raw, bool) or not isinstance(raw, int):
            expected = Expected.INTEGER_OR_NULL if nullable else Expected.INTEGER
            problems.add(path, ProblemCode.WRONG_TYPE, value=_show(raw), expected=expected)
            return current
        if raw < low or (high is not None and raw > high):
            problems.add(path, ProblemCode.OUT_OF_RANGE, value=raw, low=low, high=exact_text(high))
            return current
        return raw

    return parse


def _boolean(raw: Any, current: Any, path: str, problems: Problems) -> Any:
    if not isinstance(raw, bool):
        problems.add(path, ProblemCode.WRONG_TYPE, value=_show(raw), expected=Expected.BOOLEAN)
        return current
    return raw


def _choice(enum: type[StrEnum]) -> _Parser:
    def parse(raw: Any, current: Any, path: str, problems: Problems) -> Any:
        try:
            return enum(raw)
        except ValueError:
            problems.add(path, ProblemCode.BAD_VALUE, value=_show(raw),
                         expected=" | ".join(m.value for m in enum))
            return current

    return parse


_TOP_PER_PLAYER = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*n\s*$")


def _top_value(raw: Any, current: Any, path: str, problems: Problems) -> Any:
    if isinstance(raw, str) and (match := _TOP_PER_PLAYER.match(raw)):
        factor = Fraction(Decimal(match.group(1)))
        if factor > 0:
            return TopValue(factor, per_player=True)
    else:
        value = to_fraction(raw)
        if value is not None and value > 0:
            return TopValue(value)
    problems.add(path, ProblemCode.BAD_VALUE, value=_show(raw), expected=Expected.TOP_VALUE)
    return current


def _compensation(raw: Any, current: Any, path: str, problems: Problems) -> Any:
    """Merges key by key; returns (table, team_valued, points) for the caller to split."""
    table, team, points = dict(current[0]), set(current[1]), dict(current[2])
    if not _is_table(raw, path, problems):
        return current
    for key, value in raw.items():
        here = join_path(path, str(key))
        try:
            kind = CompensationKind(key)
        except ValueError:
            problems.add(here, ProblemCode.UNKNOWN_KEY, key=key,
                         expected=" | ".join(k.value for k in CompensationKind))
            continue
        if value == TEAM_AWARD:
            if kind not in EXTERNAL_KINDS:
                problems.add(here, ProblemCode.BAD_VALUE, value=_show(value),
                             expected=Expected.FRACTION_OR_TEAM)
                continue
            team.add(kind)
            points.pop(kind, None)
            continue
        if isinstance(value, Mapping):
            fixed = _fixed_points(value, here, problems)
            if fixed is not None:
                points[kind] = fixed
                team.discard(kind)
            continue
        fraction = _number(Fraction(0), Fraction(1))(value, None, here, problems)
        if fraction is not None:
            table[kind] = fraction
            team.discard(kind)
            points.pop(kind, None)
    return MappingProxyType(table), frozenset(team), MappingProxyType(points)


def _fixed_points(raw: Mapping[str, Any], path: str, problems: Problems) -> Fraction | None:
    """`{points = N}`: N points whatever the player's value (N may be 0 or negative)."""
    if set(raw) != {"points"}:
        for key in sorted(set(raw) - {"points"}, key=str):
            problems.add(join_path(path, str(key)), ProblemCode.UNKNOWN_KEY, key=key,
                         expected="points")
        if "points" not in raw:
            problems.add(join_path(path, "points"), ProblemCode.MISSING_KEY, key="points")
        return None
    result: Fraction | None = _number()(raw["points"], None, join_path(path, "points"),
                                        problems)
    return result


def _fraction_table(keys: tuple[str, ...], *, compensation: bool = False) -> _Parser:
    """A table of fractions merged key by key into the current tuple (in `keys` order); with
    `compensation`, an entry may be `"compensation"` (None: that side keeps the default
    rule), and the whole value may be that word too."""

    def parse(raw: Any, current: Any, path: str, problems: Problems) -> Any:
        if compensation and raw == COMPENSATION:
            return None
        if not _is_table(raw, path, problems):
            return current
        merged = dict(zip(keys, current if current is not None else (None,) * len(keys),
                          strict=True))
        for key, value in raw.items():
            here = join_path(path, str(key))
            if key not in keys:
                problems.add(here, ProblemCode.UNKNOWN_KEY, key=key, expected=" | ".join(keys))
            elif compensation and value == COMPENSATION:
                merged[key] = None
            else:
                merged[key] = _number(Fraction(0), Fraction(1))(value, merged[key], here,
                                                                 problems)
        return tuple(merged[k] for k in keys)

    return parse


_result_fractions = _fraction_table(("win", "draw", "loss"))
_forfeit_table = _fraction_table(("win", "loss", "double"), compensation=True)


def _forfeit_scoring(raw: Any, current: Any, path: str, problems: Problems) -> Any:
    sides = _forfeit_table(raw, None if current is None else
                           (current.win, current.loss, current.double), path, problems)
    if sides is None or all(side is None for side in sides):
        return None
    return ForfeitScoring(*sides)


def _cap_kinds(raw: Any, current: Any, path: str, problems: Problems) -> Any:
    if not isinstance(raw, list | tuple):
        problems.add(path, ProblemCode.WRONG_TYPE, value=_show(raw), expected=Expected.LIST)
        return current
    kinds = set()
    for i, value in enumerate(raw):
        kind = _choice(CompensationKind)(value, None, join_path(path, i), problems)
        if kind is not None:
            kinds.add(kind)
    return frozenset(kinds)


def _decay(raw: Any, current: Any, path: str, problems: Problems) -> Any:
    if raw is None:
        return None
    value = to_fraction(raw)
    if value is None or not 0 < value <= 1:
        problems.add(path, ProblemCode.BAD_VALUE, value=_show(raw), expected=Expected.DECAY)
        return current
    return value


def _is_table(raw: Any, path: str, problems: Problems) -> bool:
    if isinstance(raw, Mapping):
        return True
    problems.add(path, ProblemCode.WRONG_TYPE, value=_show(raw), expected=Expected.TABLE)
    return False


def _team_key(key: Any, path: str, problems: Problems) -> int | None:
    try:
        team = int(str(key))
    except ValueError:
        team = 0
    if team < 1:
        problems.add(path, ProblemCode.BAD_VALUE, value=_show(key), expected=Expected.TEAM_NUMBER)
        return None
    return team


def _team_table(raw: Any, current: Any, path: str, problems: Problems) -> Any:
    if not _is_table(raw, path, problems):
        return current
    table = dict(current)
    for key, row in raw.items():
        here = join_path(path, str(key))
        team = _team_key(key, here, problems)
        if team is None:
            continue
        if not isinstance(row, list | tuple) or len(row) != 3:
            problems.add(here, ProblemCode.WRONG_TYPE, value=_show(row),
                         expected=Expected.WIN_DRAW_LOSS)
            continue
        awards = [_number(Fraction(0))(v, None, join_path(here, i), problems)
                  for i, v in enumerate(row)]
        if all(a is not None for a in awards):
            table[team] = (awards[0], awards[1], awards[2])
    return MappingProxyType(table)


def _team_class(raw: Any, current: Any, path: str, problems: Problems) -> Any:
    if not _is_table(raw, path, problems):
        return current
    classes = dict(current)
    for key, higher in raw.items():
        here = join_path(path, str(key))
        team = _team_key(key, here, problems)
        other = _team_key(higher, here, problems)
        if team is not None and other is not None:
            classes[team] = other
    return MappingProxyType(classes)


def _top_exception(raw: Any, current: Any, path: str, problems: Problems) -> Any:
    if raw is None:
        return None
    if not isinstance(raw, Mapping):
        problems.add(path, ProblemCode.WRONG_TYPE, value=_show(raw),
                     expected=Expected.TOP_EXCEPTION)
        return current
    merged = {"from_round": current.from_round, "top": current.top} if current else {}
    for key, value in raw.items():
        here = join_path(path, str(key))
        if key not in ("from_round", "top"):
            problems.add(here, ProblemCode.UNKNOWN_KEY, key=key, expected="from_round | top")
            continue
        merged[key] = _integer(1 if key == "from_round" else 2)(value, merged.get(key), here,
                                                               problems)
    for key in ("from_round", "top"):
        if merged.get(key) is None:
            problems.add(join_path(path, key), ProblemCode.MISSING_KEY, key=key)
            return current
    return TopException(from_round=merged["from_round"], top=merged["top"])


_TIME_CONTROL = re.compile(r"^\d{1,3}\+\d{1,3}$")


def _time_control(raw: Any, current: Any, path: str, problems: Problems) -> Any:
    if isinstance(raw, str) and _TIME_CONTROL.match(raw.strip()):
        return raw.strip()
    problems.add(path, ProblemCode.BAD_VALUE, value=_show(raw), expected='"90+15"')
    return current


_PARSERS: Mapping[str, _Parser] = {
    "club_night": _choice(Weekday),
    "ladder": _choice(Ladder),
    "top_value": _top_value,
    "bottom_value": _number(Fraction(0)),
    "step": _number(Fraction(0)),
    "min_value": _number(Fraction(0)),
    "revaluation": _choice(Revaluation),
    "start_bonus": _number(Fraction(0), Fraction(10)),
    "start_bonus_fade": _choice(Fade),
    "compensation": _compensation,
    "notice_cap": _integer(0, nullable=True),
    "late_join_counts_to_cap": _boolean,
    "cap_kinds": _cap_kinds,
    "absence_decay": _decay,
    "result_fractions": _result_fractions,
    "forfeit_scoring": _forfeit_scoring,
    "withdrawn": _choice(Withdrawn),
    "ties": _choice(Ties),
    "frozen_bonus": _choice(FrozenBonus),
    "item_rounding": _choice(Rounding),
    "fixed_point_start": _choice(FixedPointStart),
    "flexible_absent": _choice(Unannounced),
    "team_table": _team_table,
    "team_class": _team_class,
    "planned_rounds": _integer(1, 200),
    "periods": _integer(1, 50),
    "period_length": _integer(1, 200, nullable=True),
    "max_rank_distance": _integer(1, nullable=True),
    "max_meetings": _integer(1, nullable=True),
    "per_period": _integer(1, nullable=True),
    "min_rounds_between": _integer(0, nullable=True),
    "top_exception": _top_exception,
    "max_colour_difference": _integer(1, nullable=True),
    "max_same_colour_run": _integer(1, nullable=True),
    "rematch_reverses_colours": _boolean,
    "equal_balance_higher_gets": _choice(Colour),
    "display_decimals": _integer(0, 4),
    "titles": _choice(Titles),
    "period_groups": _integer(1, 10),
    "promotion": _integer(0, 20),
    "time_control": _time_control,
    "youth_time_control": _time_control,
    "playoff_time_control": _time_control,
}

PARAMETERS: tuple[str, ...] = tuple(_PARSERS)
"""Every parameter a rules file may set (besides `preset`)."""


def rules_from_source(source: Any, path: str = "rules") -> Rules:
    """Rules from a preset name or `{"preset": NAME, ...overrides}`; raises InvalidRulesError."""
    problems = Problems()
    rules = _rules_from_source(source, path, problems)
    if problems:
        raise InvalidRulesError(problems.items)
    return rules


def check_rules_source(source: Any, path: str = "rules") -> tuple[Rules, Problems]:
    """Like `rules_from_source`, but returns the problems (for validators that collect)."""
    problems = Problems()
    return _rules_from_source(source, path, problems), problems


def rules_from_toml(text: str) -> Rules:
    """A club rules file: `preset = "sliedrecht"` and single parameters; decimals stay exact."""
    try:
        data = tomllib.loads(text, parse_float=Decimal)
    except tomllib.TOMLDecodeError as exc:
        problems = Problems()
        problems.add("", ProblemCode.NOT_TOML, reason=exc)
        raise InvalidRulesError(problems.items) from exc
    return rules_from_source(data, path="")


def _rules_from_source(source: Any, path: str, problems: Problems) -> Rules:
    if isinstance(source, str):
        source = {"preset": source}
    if not isinstance(source, Mapping):
        problems.add(path, ProblemCode.WRONG_TYPE, value=_show(source),
                     expected=Expected.PRESET_OR_TABLE)
        return Rules()
    base = Rules()
    preset = source.get("preset")
    if preset is not None:
        if preset in PRESETS:
            base = PRESETS[preset]
        else:
            problems.add(join_path(path, "preset"), ProblemCode.UNKNOWN_PRESET, value=_show(preset),
                         expected=" | ".join(PRESETS))
    changes: dict[str, Any] = {}
    for key, raw in source.items():
        if key == "preset":
            continue
        here = join_path(path, str(key))
        parser = _PARSERS.get(key)
        if parser is None:
            problems.add(here, ProblemCode.UNKNOWN_KEY, key=key,
                         expected=" | ".join(["preset", *_PARSERS]))
            continue
        if key == "compensation":
            (changes["compensation"], changes["team_valued"],
             changes["compensation_points"]) = parser(
                raw, (base.compensation, base.team_valued, base.compensation_points), here,
                problems)
        else:
            changes[key] = parser(raw, getattr(base, key), here, problems)
    rules = replace(base, **changes)
    _check_consistency(rules, path, problems)
    return rules


def _check_consistency(rules: Rules, path: str, problems: Problems) -> None:
    """Relations between parameters that no single value can break."""
    if not rules.top_value.per_player and rules.ladder is not Ladder.STEP \
            and rules.bottom_value > rules.top_value.amount:
        problems.add(join_path(path, "bottom_value"), ProblemCode.OUT_OF_RANGE,
                     value=exact_text(rules.bottom_value), high=str(rules.top_value))
    if rules.period_length is not None and rules.period_length > rules.planned_rounds:
        problems.add(join_path(path, "period_length"), ProblemCode.OUT_OF_RANGE,
                     value=rules.period_length, high=rules.planned_rounds)
    for kind in sorted(rules.team_valued):
        if not rules.team_table:
            problems.add(join_path(path, "team_table"), ProblemCode.MISSING_KEY,
                         key="team_table", needed_by=kind.value)
            break
    for team, higher in rules.team_class.items():
        if higher not in rules.team_table:
            problems.add(join_path(join_path(path, "team_class"), str(team)),
                         ProblemCode.BAD_VALUE, value=higher, expected=Expected.TEAM_OF_TABLE)


def rules_to_mapping(rules: Rules) -> dict[str, Any]:
    """Every parameter with its effective value, in plain types (for display and storage)."""
    out: dict[str, Any] = {}
    for f in fields(rules):
        value = getattr(rules, f.name)
        if f.name == "compensation":
            value = {k.value: _compensation_text(rules, k) for k in value}
        elif f.name in ("team_valued", "compensation_points"):
            continue
        elif f.name == "result_fractions":
            value = dict(zip(("win", "draw", "loss"), map(exact_text, value), strict=True))
        elif isinstance(value, ForfeitScoring):
            value = {side: COMPENSATION if part is None else exact_text(part)
                     for side, part in (("win", value.win), ("loss", value.loss),
                                        ("double", value.double))}
        elif f.name == "forfeit_scoring":
            value = COMPENSATION
        elif f.name == "cap_kinds":
            value = [k.value for k in CompensationKind if k in value]
        elif f.name == "team_table":
            value = {str(k): [exact_text(a) for a in row] for k, row in value.items()}
        elif f.name == "team_class":
            value = {str(k): v for k, v in value.items()}
        elif isinstance(value, TopException):
            value = {"from_round": value.from_round, "top": value.top}
        elif isinstance(value, Fraction):
            value = exact_text(value)
        elif isinstance(value, TopValue):
            value = str(value)
        out[f.name] = value
    return out


def _compensation_text(rules: Rules, kind: CompensationKind) -> Any:
    if kind in rules.team_valued:
        return TEAM_AWARD
    if kind in rules.compensation_points:
        return {"points": exact_text(rules.compensation_points[kind])}
    return exact_text(rules.compensation[kind])


def _show(raw: Any) -> str:
    return repr(raw) if isinstance(raw, str) else str(raw)
