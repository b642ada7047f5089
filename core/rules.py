"""The club's rules as one typed structure, the three presets, and reading overrides.

The model is `shared/spec/rules.md`; each field documents its default where it is declared.
A rules source is a preset name, or a mapping `{"preset": NAME, ...overrides}`; overrides
replace single parameters, nested tables merge key by key. Unknown keys and values out of range
are reported all at once with their place.
"""

from __future__ import annotations

import math
import re
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields, replace
from decimal import Decimal
from enum import StrEnum
from fractions import Fraction
from types import MappingProxyType
from typing import Any

from core.errors import InvalidRulesError, ProblemCode, Problems, join_path
from core.numbers import round_half_up, to_fraction


class Ladder(StrEnum):
    """How the ranking is turned into values (rules.md section 2)."""

    STEP = "step"
    SPREAD = "spread"
    SCORE = "score"


class Revaluation(StrEnum):
    """How past results are re-priced (rules.md section 4)."""

    CLASSIC = "classic"
    FIXED_POINT = "fixed_point"
    FROZEN = "frozen"


class Fade(StrEnum):
    NONE = "none"
    LINEAR = "linear"


class Colour(StrEnum):
    WHITE = "white"
    BLACK = "black"


class Weekday(StrEnum):
    MONDAY = "monday"
    TUESDAY = "tuesday"
    WEDNESDAY = "wednesday"
    THURSDAY = "thursday"
    FRIDAY = "friday"
    SATURDAY = "saturday"
    SUNDAY = "sunday"


class Titles(StrEnum):
    """What the season's prizes are decided by, beside the club championship (section 6)."""

    NONE = "none"
    PLAYOFF = "playoff"
    """`sliedrecht`: a play-off when #2 is within half the top value of #1."""
    PERIOD_GROUPS = "period_groups"
    """`drie-groepen`: per period, the ranking cut into groups, champions by match points."""
    SUBGROUPS = "subgroups"
    """`drie-cycli`: two groups with prizes and promotion at mid-season."""


class CompensationKind(StrEnum):
    """A round without a game, and why (rules.md section 3)."""

    NOTICE = "notice"
    NO_NOTICE = "no_notice"
    BYE = "bye"
    OPPONENT_ABSENT = "opponent_absent"
    ARBITER = "arbiter"
    EXTERNAL_CLUB_NIGHT = "external_club_night"
    EXTERNAL_OTHER_DAY = "external_other_day"
    LATE_JOIN = "late_join"


EXTERNAL_KINDS = frozenset(
    {CompensationKind.EXTERNAL_CLUB_NIGHT, CompensationKind.EXTERNAL_OTHER_DAY}
)
TEAM_AWARD = "team"
"""Written as a compensation value: this external kind is valued by the team table."""


@dataclass(frozen=True, slots=True)
class TopValue:
    """The value of rank 1: a fixed number, or a factor times the number of players."""

    amount: Fraction
    """The number itself, or the factor when `per_player`."""
    per_player: bool = False
    """`"1.5n"`: `amount * n`, rounded half up."""

    def resolve(self, players: int) -> Fraction:
        if self.per_player:
            return round_half_up(self.amount * players)
        return self.amount

    def __str__(self) -> str:
        return f"{_plain(self.amount)}n" if self.per_player else _plain(self.amount)


@dataclass(frozen=True, slots=True)
class TopException:
    """From `from_round` on, two players both in the top `top` may meet again inside a period."""

    from_round: int
    top: int


@dataclass(frozen=True, slots=True)
class Rules:
    """Every parameter of a Keizer competition. Defaults are the model's defaults (rules.md)."""

    preset: str | None = None
    """The preset these rules started from, if any."""
    club_night: Weekday = Weekday.THURSDAY
    """The weekday of the internal round."""
    ladder: Ladder = Ladder.STEP
    top_value: TopValue = TopValue(Fraction(60))
    """Value of rank 1."""
    bottom_value: Fraction = Fraction(1)
    """Value of the last rank (ladders `spread` and `score`)."""
    step: Fraction = Fraction(1)
    """Value difference between neighbours (ladder `step`)."""
    min_value: Fraction = Fraction(1)
    """Floor of the `step` ladder."""
    revaluation: Revaluation = Revaluation.CLASSIC
    start_bonus: Fraction = Fraction(1)
    """Own-value bonus, as a multiple of the player's value."""
    start_bonus_fade: Fade = Fade.NONE
    """`linear`: the bonus multiplier after round R is `start_bonus * (T - R) / T`."""
    compensation: Mapping[CompensationKind, Fraction] = field(
        default_factory=lambda: MappingProxyType(
            {
                CompensationKind.NOTICE: Fraction(1, 3),
                CompensationKind.NO_NOTICE: Fraction(0),
                CompensationKind.BYE: Fraction(2, 3),
                CompensationKind.OPPONENT_ABSENT: Fraction(2, 3),
                CompensationKind.ARBITER: Fraction(2, 3),
                CompensationKind.EXTERNAL_CLUB_NIGHT: Fraction(2, 3),
                CompensationKind.EXTERNAL_OTHER_DAY: Fraction(1, 3),
                CompensationKind.LATE_JOIN: Fraction(1, 3),
            }
        )
    )
    """Fraction of own value per kind of round without a game."""
    team_valued: frozenset[CompensationKind] = frozenset()
    """External kinds valued by the team table instead of a fraction (written `"team"`)."""
    notice_cap: int | None = None
    """Only the first N `notice` rounds earn compensation; None: no cap."""
    late_join_counts_to_cap: bool = False
    """Late-join rounds count toward `notice_cap` (and are capped with it)."""
    team_table: Mapping[int, tuple[Fraction, Fraction, Fraction]] = field(
        default_factory=lambda: MappingProxyType({})
    )
    """Team number -> award for (win, draw, loss) in an external match."""
    team_class: Mapping[int, int] = field(default_factory=lambda: MappingProxyType({}))
    """Team -> higher team in the same class, whose row it uses."""
    planned_rounds: int = 30
    periods: int = 2
    """Number of periods (cycles) in the season."""
    period_length: int | None = None
    """Rounds per period; None: `planned_rounds / periods` rounded up (the last may be shorter)."""
    max_rank_distance: int | None = None
    max_meetings: int | None = None
    per_period: int | None = 1
    min_rounds_between: int | None = None
    top_exception: TopException | None = None
    max_colour_difference: int | None = 2
    max_same_colour_run: int | None = 2
    rematch_reverses_colours: bool = True
    equal_balance_higher_gets: Colour = Colour.BLACK
    display_decimals: int = 1
    """Decimals a club publishes scores with (rounded half up)."""
    titles: Titles = Titles.NONE
    period_groups: int = 3
    """`period_groups`: how many groups each period's ranking is cut into."""
    promotion: int = 3
    """`subgroups`: how many go up (and at most how many go down) at mid-season."""
    time_control: str = "90+15"
    """Minutes per player + seconds per move."""
    youth_time_control: str = "50+15"
    playoff_time_control: str = "30+5"

    @property
    def rounds_per_period(self) -> int:
        if self.period_length is not None:
            return self.period_length
        return math.ceil(self.planned_rounds / self.periods)

    def period_of(self, round_no: int) -> int:
        """1-based period of a round; rounds past the plan belong to the last period."""
        return min((round_no - 1) // self.rounds_per_period + 1, self.periods)

    def compensation_for(self, kind: CompensationKind) -> Fraction:
        return self.compensation.get(kind, Fraction(0))

    def team_award(self, team: int, result: Fraction) -> Fraction:
        """The team table's award for `result` (1, 1/2, 0) in a match of `team`."""
        row = self.team_table[self.team_class.get(team, team)]
        return row[0] if result == 1 else row[1] if result == Fraction(1, 2) else row[2]


PRESETS: Mapping[str, Rules] = MappingProxyType(
    {
        "sliedrecht": Rules(
            preset="sliedrecht",
            club_night=Weekday.THURSDAY,
            top_value=TopValue(Fraction(3, 2), per_player=True),
            compensation=MappingProxyType(
                {
                    CompensationKind.NOTICE: Fraction(33, 100),
                    CompensationKind.NO_NOTICE: Fraction(0),
                    CompensationKind.BYE: Fraction(66, 100),
                    CompensationKind.OPPONENT_ABSENT: Fraction(66, 100),
                    CompensationKind.ARBITER: Fraction(66, 100),
                    CompensationKind.EXTERNAL_CLUB_NIGHT: Fraction(66, 100),
                    CompensationKind.EXTERNAL_OTHER_DAY: Fraction(33, 100),
                    CompensationKind.LATE_JOIN: Fraction(33, 100),
                }
            ),
            notice_cap=10,
            late_join_counts_to_cap=True,
            planned_rounds=30,
            periods=2,
            period_length=15,
            max_rank_distance=12,
            max_meetings=2,
            per_period=1,
            top_exception=TopException(from_round=16, top=10),
            titles=Titles.PLAYOFF,
        ),
        "drie-groepen": Rules(
            preset="drie-groepen",
            club_night=Weekday.MONDAY,
            compensation=MappingProxyType(
                {
                    CompensationKind.NOTICE: Fraction(1, 3),
                    CompensationKind.NO_NOTICE: Fraction(0),
                    CompensationKind.BYE: Fraction(2, 3),
                    CompensationKind.OPPONENT_ABSENT: Fraction(2, 3),
                    CompensationKind.ARBITER: Fraction(2, 3),
                    CompensationKind.EXTERNAL_CLUB_NIGHT: Fraction(0),
                    CompensationKind.EXTERNAL_OTHER_DAY: Fraction(0),
                    CompensationKind.LATE_JOIN: Fraction(1, 3),
                }
            ),
            team_valued=frozenset(
                {CompensationKind.EXTERNAL_CLUB_NIGHT, CompensationKind.EXTERNAL_OTHER_DAY}
            ),
            team_table=MappingProxyType(
                {
                    1: (Fraction(57), Fraction(28), Fraction(19)),
                    2: (Fraction(49), Fraction(24), Fraction(16)),
                    3: (Fraction(41), Fraction(20), Fraction(14)),
                }
            ),
            planned_rounds=30,
            periods=2,
            per_period=1,
            min_rounds_between=2,
            titles=Titles.PERIOD_GROUPS,
        ),
        "drie-cycli": Rules(
            preset="drie-cycli",
            start_bonus=Fraction(3),
            start_bonus_fade=Fade.LINEAR,
            compensation=MappingProxyType(
                {
                    CompensationKind.NOTICE: Fraction(1, 3),
                    CompensationKind.NO_NOTICE: Fraction(0),
                    CompensationKind.BYE: Fraction(1),
                    CompensationKind.OPPONENT_ABSENT: Fraction(1),
                    CompensationKind.ARBITER: Fraction(1),
                    CompensationKind.EXTERNAL_CLUB_NIGHT: Fraction(7, 10),
                    CompensationKind.EXTERNAL_OTHER_DAY: Fraction(1, 3),
                    CompensationKind.LATE_JOIN: Fraction(1, 3),
                }
            ),
            planned_rounds=27,
            periods=3,
            period_length=9,
            max_meetings=3,
            per_period=1,
            titles=Titles.SUBGROUPS,
        ),
    }
)


# --- reading a rules source -------------------------------------------------------------------

_Parser = Callable[[Any, Any, str, Problems], Any]
"""(raw value, current value, path, problems) -> new value, or the current one after a problem."""


def _number(low: Fraction | None = None, high: Fraction | None = None) -> _Parser:
    def parse(raw: Any, current: Any, path: str, problems: Problems) -> Any:
        value = to_fraction(raw)
        if value is None:
            problems.add(path, ProblemCode.WRONG_TYPE, value=_show(raw), expected="number")
            return current
        if (low is not None and value < low) or (high is not None and value > high):
            problems.add(path, ProblemCode.OUT_OF_RANGE, value=_show(raw), low=_plain(low),
                         high=_plain(high))
            return current
        return value

    return parse


def _integer(low: int, high: int | None = None, *, nullable: bool = False) -> _Parser:
    def parse(raw: Any, current: Any, path: str, problems: Problems) -> Any:
        if raw is None and nullable:
            return None
        if isinstance(raw, bool) or not isinstance(raw, int):
            expected = "integer or null" if nullable else "integer"
            problems.add(path, ProblemCode.WRONG_TYPE, value=_show(raw), expected=expected)
            return current
        if raw < low or (high is not None and raw > high):
            problems.add(path, ProblemCode.OUT_OF_RANGE, value=raw, low=low, high=_plain(high))
            return current
        return raw

    return parse


def _boolean(raw: Any, current: Any, path: str, problems: Problems) -> Any:
    if not isinstance(raw, bool):
        problems.add(path, ProblemCode.WRONG_TYPE, value=_show(raw), expected="true or false")
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
    problems.add(path, ProblemCode.BAD_VALUE, value=_show(raw), expected='number > 0 or "1.5n"')
    return current


def _compensation(raw: Any, current: Any, path: str, problems: Problems) -> Any:
    """Merges key by key; returns (table, team_valued) for the caller to split."""
    table, team = dict(current[0]), set(current[1])
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
                             expected="fraction (only external kinds can be \"team\")")
                continue
            team.add(kind)
            continue
        fraction = _number(Fraction(0), Fraction(1))(value, None, here, problems)
        if fraction is not None:
            table[kind] = fraction
            team.discard(kind)
    return MappingProxyType(table), frozenset(team)


def _is_table(raw: Any, path: str, problems: Problems) -> bool:
    if isinstance(raw, Mapping):
        return True
    problems.add(path, ProblemCode.WRONG_TYPE, value=_show(raw), expected="table")
    return False


def _team_key(key: Any, path: str, problems: Problems) -> int | None:
    try:
        team = int(str(key))
    except ValueError:
        team = 0
    if team < 1:
        problems.add(path, ProblemCode.BAD_VALUE, value=_show(key), expected="team number >= 1")
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
                         expected="[win, draw, loss]")
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
                     expected="{from_round, top} or null")
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
                     expected="preset name or table")
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
            problems.add(here, ProblemCode.UNKNOWN_KEY, key=key)
            continue
        if key == "compensation":
            changes["compensation"], changes["team_valued"] = parser(
                raw, (base.compensation, base.team_valued), here, problems)
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
                     value=_plain(rules.bottom_value), high=str(rules.top_value))
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
                         ProblemCode.BAD_VALUE, value=higher, expected="a team of team_table")


def rules_to_mapping(rules: Rules) -> dict[str, Any]:
    """Every parameter with its effective value, in plain types (for display and storage)."""
    out: dict[str, Any] = {}
    for f in fields(rules):
        value = getattr(rules, f.name)
        if f.name == "compensation":
            value = {k.value: (TEAM_AWARD if k in rules.team_valued else _plain(v))
                     for k, v in value.items()}
        elif f.name == "team_valued":
            continue
        elif f.name == "team_table":
            value = {str(k): [_plain(a) for a in row] for k, row in value.items()}
        elif f.name == "team_class":
            value = {str(k): v for k, v in value.items()}
        elif isinstance(value, TopException):
            value = {"from_round": value.from_round, "top": value.top}
        elif isinstance(value, Fraction):
            value = _plain(value)
        elif isinstance(value, TopValue):
            value = str(value)
        out[f.name] = value
    return out


def _plain(value: Fraction | int | None) -> str:
    """`Fraction(1, 3)` as `1/3`, `Fraction(33, 100)` as `0.33`, `Fraction(60)` as `60`."""
    if value is None:
        return "-"
    value = Fraction(value)
    if value.denominator == 1:
        return str(value.numerator)
    denominator = value.denominator
    for prime in (2, 5):
        while denominator % prime == 0:
            denominator //= prime
    if denominator == 1:
        return str(Decimal(value.numerator) / Decimal(value.denominator))
    return f"{value.numerator}/{value.denominator}"


def _show(raw: Any) -> str:
    return repr(raw) if isinstance(raw, str) else str(raw)
