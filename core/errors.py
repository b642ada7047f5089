"""One exception tree for the domain, and the located problems that validation collects.

Problems carry a stable code and the facts that explain it; the words (Dutch, for users) are
chosen by the outer layer's text catalogue, so the domain stays language-free.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum


class ProblemCode(StrEnum):
    """What is wrong with an input; stored and rendered by code, so values are stable."""

    UNKNOWN_KEY = "unknown_key"
    MISSING_KEY = "missing_key"
    WRONG_TYPE = "wrong_type"
    OUT_OF_RANGE = "out_of_range"
    BAD_VALUE = "bad_value"
    UNKNOWN_PRESET = "unknown_preset"
    DUPLICATE_PLAYER_ID = "duplicate_player_id"
    UNKNOWN_PLAYER = "unknown_player"
    PLAYER_TWICE = "player_twice"
    PLAYER_MISSING = "player_missing"
    PLAYER_NOT_ACTIVE = "player_not_active"
    SELF_PAIRED = "self_paired"
    BAD_RESULT = "bad_result"
    ROUND_ORDER = "round_order"
    CONFLICT = "conflict"
    NOT_JSON = "not_json"
    NOT_TOML = "not_toml"
    NOT_A_NAME = "not_a_name"
    """A line of a list of members with no name in it (`line`, `value`)."""


class Expected(StrEnum):
    """What a value should have been, in a problem's `expected` fact. The words are the file
    format's (English, as the format's own docs); the bot says each in its reader's language
    (`bot.texts`). Lists of allowed values (`1-0 | 0-1 | …`) are facts of their own."""

    INTEGER = 'integer'
    INTEGER_OR_NULL = 'integer or null'
    NUMBER = 'number'
    TEXT = 'text'
    NON_EMPTY_TEXT = 'non-empty text'
    OBJECT = 'object'
    LIST = 'list'
    TABLE = 'table'
    BOOLEAN = 'true or false'
    PLAYER_ID = 'player id'
    PRESET_OR_TABLE = 'preset name or table'
    WIN_DRAW_LOSS = '[win, draw, loss]'
    TOP_EXCEPTION = '{from_round, top} or null'
    TEAM_NUMBER = 'team number >= 1'
    TEAM_OF_TABLE = 'a team of team_table'
    TEAM_OF_RULES_TABLE = "a team of the rules' team_table"
    TOP_VALUE = 'number > 0 or "1.5n"'
    ODD_PLAYERS = 'an odd number of players'
    FRACTION_OR_TEAM = 'fraction (only external kinds can be "team")'
    DATE = 'YYYY-MM-DD'
    DECAY = 'null or a fraction > 0 and <= 1'
    FEDERATION = 'three capital letters (NED)'
    SEX = '"m" or "w"'
    TITLE = 'a title (GM, WIM; or as JaVaFo writes them: g, wm)'
    SURNAME = 'the last words of the name'
    BIRTH = 'YYYY or YYYY-MM-DD'


@dataclass(frozen=True, slots=True)
class Problem:
    """One thing wrong with an input, and where it is."""

    path: str
    """Where in the input, as `rounds[3].games[2].result`; empty for the whole input."""
    code: ProblemCode
    """What kind of problem it is."""
    facts: Mapping[str, str] = field(default_factory=dict)
    """The values that explain it (`value`, `expected`, `player`, ...), already as text."""

    def __str__(self) -> str:
        facts = ", ".join(f"{k}={v}" for k, v in self.facts.items())
        where = self.path or "<input>"
        return f"{where}: {self.code.value}" + (f" ({facts})" if facts else "")


class KeizerError(Exception):
    """Root of every error the domain raises."""


class InvalidInputError(KeizerError, ValueError):
    """An input (rules, season file, pairing request) that cannot be used; lists every problem."""

    def __init__(self, problems: Iterable[Problem]) -> None:
        self.problems: tuple[Problem, ...] = tuple(problems)
        super().__init__("; ".join(str(p) for p in self.problems))

    def __reduce__(self) -> tuple[type[InvalidInputError], tuple[tuple[Problem, ...]]]:
        # Read back as raised (from a worker process), not from the message.
        return type(self), (self.problems,)


class InvalidRulesError(InvalidInputError):
    """Rules (a preset with overrides) that name unknown parameters or values out of range."""


class InvalidSeasonError(InvalidInputError):
    """A season file that breaks the `keizer-season/1` format."""


class Problems:
    """Collects problems during validation; the caller decides whether to raise."""

    def __init__(self) -> None:
        self.items: list[Problem] = []

    def add(self, path: str, code: ProblemCode, **facts: object) -> None:
        self.items.append(Problem(path, code, {k: str(v) for k, v in facts.items()}))

    def extend(self, problems: Iterable[Problem], prefix: str = "") -> None:
        for p in problems:
            path = join_path(prefix, p.path) if prefix else p.path
            self.items.append(Problem(path, p.code, p.facts))

    def __bool__(self) -> bool:
        return bool(self.items)


def join_path(prefix: str, key: str | int) -> str:
    """`join_path("rounds[3]", "games")` is `rounds[3].games`; ints become `[i]`."""
    if isinstance(key, int):
        return f"{prefix}[{key}]"
    if not prefix:
        return key
    if not key:
        return prefix
    return f"{prefix}.{key}"
