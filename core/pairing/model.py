"""What a pairing is asked (the request) and what it answers (boards, bye, broken rules)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import IntEnum, StrEnum

from core.errors import KeizerError
from core.rules import Colour, Rules


class PairingImpossibleError(KeizerError):
    """The arbiter's fixes leave no complete pairing (the rules alone never do)."""


class Rule(StrEnum):
    """The hard rules of rules.md section 5, named as their parameters (`bye` for the bye),
    and the arbiter's own: the pairs he keeps apart all season."""

    KEPT_APART = "kept_apart"
    MAX_MEETINGS = "max_meetings"
    PER_PERIOD = "per_period"
    MIN_ROUNDS_BETWEEN = "min_rounds_between"
    MAX_COLOUR_DIFFERENCE = "max_colour_difference"
    MAX_SAME_COLOUR_RUN = "max_same_colour_run"
    REMATCH_REVERSES_COLOURS = "rematch_reverses_colours"
    BYE = "bye"
    MAX_RANK_DISTANCE = "max_rank_distance"

    @property
    def tier(self) -> Tier:
        return _TIERS[self]


class Tier(IntEnum):
    """Importance, high to low: a pairing never breaks one more rule of a tier to spare any
    number of breaks of the tiers below it."""

    APART = 0
    MEETINGS = 1
    PERIOD = 2
    COLOUR = 3
    BYE = 4
    DISTANCE = 5


_TIERS: Mapping[Rule, Tier] = {
    Rule.KEPT_APART: Tier.APART,
    Rule.MAX_MEETINGS: Tier.MEETINGS,
    Rule.PER_PERIOD: Tier.PERIOD,
    Rule.MIN_ROUNDS_BETWEEN: Tier.PERIOD,
    Rule.MAX_COLOUR_DIFFERENCE: Tier.COLOUR,
    Rule.MAX_SAME_COLOUR_RUN: Tier.COLOUR,
    Rule.REMATCH_REVERSES_COLOURS: Tier.COLOUR,
    Rule.BYE: Tier.BYE,
    Rule.MAX_RANK_DISTANCE: Tier.DISTANCE,
}


@dataclass(frozen=True, slots=True)
class Meeting:
    """A game played earlier in the season (forfeits are not meetings)."""

    round: int
    white: str
    black: str


@dataclass(frozen=True, slots=True)
class Fixes:
    """What the arbiter decided by hand; these are never broken."""

    boards: tuple[tuple[str, str], ...] = ()
    """Boards that must be played, as (white, black)."""
    forbidden: frozenset[frozenset[str]] = frozenset()
    """Pairs that must not play each other this round."""
    bye: str | None = None
    """A volunteer for the bye."""
    leave_out: frozenset[str] = frozenset()
    """Present players not to pair this round."""


@dataclass(frozen=True, slots=True)
class PairingRequest:
    """Everything the pairing of one round depends on."""

    round: int
    ranking: tuple[str, ...]
    """The ranking the round is paired on (absent players included: distance counts them)."""
    present: frozenset[str]
    rules: Rules
    meetings: tuple[Meeting, ...] = ()
    colours: Mapping[str, tuple[Colour, ...]] = field(default_factory=dict)
    """Each player's colours in his games so far, in order."""
    byes: Mapping[str, int] = field(default_factory=dict)
    """Byes each player has had."""
    fixes: Fixes = Fixes()
    apart: frozenset[frozenset[str]] = frozenset()
    """Pairs the arbiter keeps apart all season (parents and children, partners): broken only
    where no pairing can keep them, before any rule of the club's."""


@dataclass(frozen=True, slots=True)
class Board:
    number: int
    white: str
    black: str

    def __str__(self) -> str:
        return f"{self.number}. {self.white}-{self.black}"


@dataclass(frozen=True, slots=True)
class BrokenRule:
    """One rule the pairing breaks, for whom, and the facts that show it."""

    rule: Rule
    players: tuple[str, ...]
    facts: Mapping[str, int | str] = field(default_factory=dict)

    @property
    def detail(self) -> str:
        """A short English explanation (the JSON output's `detail`)."""
        f = self.facts
        return {
            Rule.KEPT_APART: "kept apart by the arbiter",
            Rule.MAX_MEETINGS: f"meeting {f.get('meeting')} in the season (max {f.get('limit')})",
            Rule.PER_PERIOD: f"meeting {f.get('meeting')} in period {f.get('period')} "
                             f"(max {f.get('limit')})",
            Rule.MIN_ROUNDS_BETWEEN: f"met in round {f.get('last')}, "
                                     f"earliest again in round {f.get('earliest')}",
            Rule.MAX_COLOUR_DIFFERENCE: f"colour balance would be {f.get('balance')} "
                                        f"(max {f.get('limit')})",
            Rule.MAX_SAME_COLOUR_RUN: f"{f.get('colour')} {f.get('run')} times in a row "
                                      f"(max {f.get('limit')})",
            Rule.REMATCH_REVERSES_COLOURS: f"same colours as in round {f.get('last')}",
            Rule.BYE: f"bye instead of {f.get('due')}",
            Rule.MAX_RANK_DISTANCE: f"{f.get('distance')} places apart (max {f.get('limit')})",
        }[self.rule]


@dataclass(frozen=True, slots=True, order=True)
class Objective:
    """What the pairing minimises, compared in this order."""

    violations: tuple[int, ...]
    """Broken rules per tier, most important first."""
    distance: int
    """Sum over the boards of the squared rank distance."""
    colour: int
    """Boards (and the bye) that go against colour or bye preference."""


@dataclass(frozen=True, slots=True)
class Timings:
    evaluate: float
    build: float
    solve: float

    def __add__(self, other: Timings) -> Timings:
        return Timings(self.evaluate + other.evaluate, self.build + other.build,
                       self.solve + other.solve)


@dataclass(frozen=True, slots=True)
class Pairing:
    round: int
    boards: tuple[Board, ...]
    """In ranking order of the higher-placed player."""
    bye: str | None
    broken: tuple[BrokenRule, ...]
    """In importance order."""
    objective: Objective
    optimal: bool
    """Proved optimal."""
    engine: str
    timings: Timings
