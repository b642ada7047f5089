"""The parameters of a Keizer competition (docs/rules.md): every field with its
default, and the kinds they are made of."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from fractions import Fraction
from types import MappingProxyType

from core.numbers import exact_text, round_half_up


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


class Unannounced(StrEnum):
    """How a flexible member who did not sign on for a round is recorded (an absence
    reason of the season file)."""

    NOTICE = "notice"
    NO_NOTICE = "no_notice"


class Titles(StrEnum):
    """What the season's prizes are decided by, beside the club championship (section 6)."""

    NONE = "none"
    PLAYOFF = "playoff"
    """`sliedrecht`: a play-off when #2 is within half the top value of #1."""
    PERIOD_GROUPS = "period_groups"
    """`drie-groepen`: per period, the ranking cut into groups, champions by match points."""
    SUBGROUPS = "subgroups"
    """`drie-cycli`: two groups with prizes and promotion at mid-season."""


class Withdrawn(StrEnum):
    """How the rounds after a player's withdrawal count (rules.md section 9)."""

    KEEP = "keep"
    ABSENT = "absent"
    """Each later round is a `no_notice` round for him."""
    HIDE = "hide"
    """From the round after his withdrawal he is out of the ranking, the table and `n`."""


class Ties(StrEnum):
    """The order of equal scores in every ranking."""

    PREVIOUS = "previous"
    RATING = "rating"
    """Higher rating first, then name, unrated last (Sevilla, chesspairing)."""


class FrozenBonus(StrEnum):
    """Frozen mode: the own-value bonus at the initial value, or at the current one."""

    INITIAL = "initial"
    CURRENT = "current"


class Rounding(StrEnum):
    """The grid every item of a score is rounded to before it is summed."""

    EXACT = "exact"
    HALF = "half"
    WHOLE = "whole"

    @property
    def grid(self) -> Fraction | None:
        return {"half": Fraction(1, 2), "whole": Fraction(1)}.get(self.value)


class FixedPointStart(StrEnum):
    """Fixed-point mode: the ranking the iteration starts from."""

    PREVIOUS = "previous"
    INITIAL = "initial"


class CompensationKind(StrEnum):
    """A round without a game, and why (rules.md sections 3 and 9)."""

    NOTICE = "notice"
    NO_NOTICE = "no_notice"
    BYE = "bye"
    OPPONENT_ABSENT = "opponent_absent"
    ARBITER = "arbiter"
    EXTERNAL_CLUB_NIGHT = "external_club_night"
    EXTERNAL_OTHER_DAY = "external_other_day"
    LATE_JOIN = "late_join"
    HALF_BYE = "half_bye"
    """A bye the player asked for, worth a draw (not the pairing's bye)."""
    ZERO_BYE = "zero_bye"
    """A bye the player asked for, worth nothing."""


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
        return f"{exact_text(self.amount)}n" if self.per_player else exact_text(self.amount)


@dataclass(frozen=True, slots=True)
class ForfeitScoring:
    """A forfeit priced by the opponent's value (rules.md section 9); a side that is None
    keeps the compensation rule (`opponent_absent` / `no_notice`)."""

    win: Fraction | None
    """Who came: `win * v(opponent)`."""
    loss: Fraction | None
    """Who did not come: `loss * v(opponent)`."""
    double: Fraction | None
    """Each player of a double forfeit: `double * v(other)`."""


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
    """How values follow from the ranking: equal steps, spread from top to bottom, or by
    score."""
    top_value: TopValue = TopValue(Fraction(60))
    """Value of rank 1."""
    bottom_value: Fraction = Fraction(1)
    """Value of the last rank (ladders `spread` and `score`)."""
    step: Fraction = Fraction(1)
    """Value difference between neighbours (ladder `step`)."""
    min_value: Fraction = Fraction(1)
    """Floor of the `step` ladder."""
    revaluation: Revaluation = Revaluation.CLASSIC
    """How past results are re-priced when values change (rules.md section 4)."""
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
                CompensationKind.HALF_BYE: Fraction(1, 2),
                CompensationKind.ZERO_BYE: Fraction(0),
            }
        )
    )
    """Fraction of own value per kind of round without a game."""
    compensation_points: Mapping[CompensationKind, Fraction] = field(
        default_factory=lambda: MappingProxyType({}))
    """Kinds worth a fixed number of points whatever the value (written `{points = N}`);
    they take the place of the fraction."""
    team_valued: frozenset[CompensationKind] = frozenset()
    """External kinds valued by the team table instead of a fraction (written `"team"`)."""
    notice_cap: int | None = None
    """Only the first N `notice` rounds earn compensation; None: no cap."""
    late_join_counts_to_cap: bool = False
    """Late-join rounds count toward `notice_cap` (and are capped with it)."""
    cap_kinds: frozenset[CompensationKind] = frozenset({CompensationKind.NOTICE})
    """The kinds whose rounds count toward `notice_cap` and decay."""
    absence_decay: Fraction | None = None
    """The k-th counted round earns its compensation times `d^(k-1)`; None: no decay."""
    result_fractions: tuple[Fraction, Fraction, Fraction] = (Fraction(1), Fraction(1, 2),
                                                             Fraction(0))
    """What a win, a draw and a loss earn, as a fraction of the opponent's value."""
    forfeit_scoring: ForfeitScoring | None = None
    """None: a forfeit is compensated (`opponent_absent` / `no_notice`); else priced."""
    withdrawn: Withdrawn = Withdrawn.KEEP
    """How the rounds after a withdrawal count."""
    ties: Ties = Ties.PREVIOUS
    """The order of equal scores."""
    frozen_bonus: FrozenBonus = FrozenBonus.INITIAL
    """Frozen mode: the bonus at the initial value, or at the value of the current sums."""
    item_rounding: Rounding = Rounding.EXACT
    """Every item of a score rounded to this grid before it is summed."""
    fixed_point_start: FixedPointStart = FixedPointStart.PREVIOUS
    """Fixed-point mode: iterate from the previous ranking or from the initial one."""
    flexible_absent: Unannounced = Unannounced.NOTICE
    """A flexible member (absent unless he signs on, `players[].flexible`) who did not sign
    on: recorded as signed off with notice, or as absent without notice."""
    team_table: Mapping[int, tuple[Fraction, Fraction, Fraction]] = field(
        default_factory=lambda: MappingProxyType({})
    )
    """Team number -> award for (win, draw, loss) in an external match."""
    team_class: Mapping[int, int] = field(default_factory=lambda: MappingProxyType({}))
    """Team -> higher team in the same class, whose row it uses."""
    planned_rounds: int = 30
    """Rounds the season is planned to have (periods, fades and mid-season follow from it)."""
    periods: int = 2
    """Number of periods (cycles) in the season."""
    period_length: int | None = None
    """Rounds per period; None: `planned_rounds / periods` rounded up (the last may be shorter)."""
    max_rank_distance: int | None = None
    """Pairing: opponents at most this many places apart in the current ranking (absent
    players counted); None: no limit."""
    max_meetings: int | None = None
    """Pairing: how often two players may meet in the season; None: no limit."""
    per_period: int | None = 1
    """Pairing: how often two players may meet within one period; None: no limit."""
    min_rounds_between: int | None = None
    """Pairing: a rematch needs more than this many rounds since the last meeting."""
    top_exception: TopException | None = None
    """Pairing: from a round on, the top of the ranking may meet again within a period."""
    max_colour_difference: int | None = 2
    """Pairing: a player's whites minus blacks never passes plus or minus this."""
    max_same_colour_run: int | None = 2
    """Pairing: at most this many games in a row with the same colour."""
    rematch_reverses_colours: bool = True
    """Pairing: a rematch has the other colours than the last meeting (gives way to the two
    rules above when it cannot keep all three)."""
    equal_balance_higher_gets: Colour = Colour.BLACK
    """Pairing: with equal colour balance, the colour the higher-placed player gets."""
    display_decimals: int = 1
    """Decimals a club publishes scores with (rounded half up)."""
    titles: Titles = Titles.NONE
    """What the season's ranking decides: a champion or play-off, period groups, or
    subgroups with promotion."""
    period_groups: int = 3
    """`period_groups`: how many groups each period's ranking is cut into."""
    promotion: int = 3
    """`subgroups`: how many go up (and at most how many go down) at mid-season."""
    time_control: str = "90+15"
    """Minutes per player + seconds per move."""
    youth_time_control: str = "50+15"
    """The time control of youth members (`youth` in the season file)."""
    playoff_time_control: str = "30+5"
    """The time control of a play-off for the title."""

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

    def counts_to_cap(self, kind: CompensationKind) -> bool:
        """Whether a round of `kind` is counted for the cap and the decay."""
        return kind in self.cap_kinds or (
            kind is CompensationKind.LATE_JOIN and self.late_join_counts_to_cap)

    def result_fraction(self, points: Fraction) -> Fraction:
        """What a game's points (1, 1/2, 0) earn as a fraction of the opponent's value."""
        win, draw, loss = self.result_fractions
        return win if points == 1 else draw if points else loss

    def team_award(self, team: int, result: Fraction) -> Fraction:
        """The team table's award for `result` (1, 1/2, 0) in a match of `team`."""
        row = self.team_table[self.team_class.get(team, team)]
        return row[0] if result == 1 else row[1] if result == Fraction(1, 2) else row[2]
