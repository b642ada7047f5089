"""A season as domain values: players, rounds, games, absences. The file they are read from
and written to is `core.season.file`."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from fractions import Fraction
from typing import Any

from core.rules import CompensationKind, Rules

_WHITE_SCORES = {"1-0": Fraction(1), "0-1": Fraction(0)}
_HALF = Fraction(1, 2)


class Result(StrEnum):
    """A game's result, white first; the last three are forfeits (not games)."""

    WHITE_WINS = "1-0"
    BLACK_WINS = "0-1"
    DRAW = "1/2-1/2"
    WHITE_BY_FORFEIT = "+-"
    BLACK_BY_FORFEIT = "-+"
    DOUBLE_FORFEIT = "--"

    @classmethod
    def parse(cls, text: str) -> Result:
        """Also takes the spellings players type: `½-½`, `0.5-0.5`."""
        normal = text.strip().replace("½", "1/2").replace("0.5", "1/2").replace("–", "-")
        return cls(normal)

    @property
    def is_forfeit(self) -> bool:
        return self in (Result.WHITE_BY_FORFEIT, Result.BLACK_BY_FORFEIT, Result.DOUBLE_FORFEIT)

    @property
    def white_score(self) -> Fraction:
        """White's game points (1, 1/2, 0); meaningless for forfeits."""
        return _WHITE_SCORES.get(self.value, _HALF)

    def __str__(self) -> str:
        return "½-½" if self is Result.DRAW else self.value


class AbsenceReason(StrEnum):
    NOTICE = "notice"
    NO_NOTICE = "no_notice"
    BYE = "bye"
    ARBITER = "arbiter"
    EXTERNAL = "external"
    HALF_BYE = "half_bye"
    """A bye the player asked for, worth a draw (rules.md section 9)."""
    ZERO_BYE = "zero_bye"
    """A bye the player asked for, worth nothing."""


class ExternalDay(StrEnum):
    CLUB_NIGHT = "club_night"
    OTHER_DAY = "other_day"




@dataclass(frozen=True, slots=True)
class Player:
    """A member in the competition."""

    id: str
    """Unique and stable; what rounds refer to."""
    name: str
    rating: int | None = None
    youth: bool = False
    """Plays with the youth time control."""
    joined: int = 1
    """First round he can play."""
    withdrawn: int | None = None
    """Last round he took part in."""
    group: int | None = None
    """Subgroup, where the rules have them."""
    flexible: bool = False
    """Absent unless he signs on for a round (a *flexibel* member); the others play unless
    they sign off."""
    knsb: int | None = None
    """His KNSB relation number (*relatienummer*), where known: how the rating list and the
    rating administration know him."""
    fide_id: int | None = None
    """His FIDE id: the id column of a TRF. Never his KNSB number, which is another register."""
    federation: str | None = None
    """Three capital letters, as FIDE writes it: `NED`."""
    sex: str | None = None
    """`m` or `w`, as FIDE and the KNSB list write it."""
    title: str | None = None
    """`GM`, `IM`, `WGM`, `FM`, ..."""
    birth: str | None = None
    """`YYYY` or `YYYY-MM-DD`: as much as is known."""
    name_as_written: bool = False
    """The name came from a file without a comma (`Mirzoev Azer`): which word is the surname
    is not known, so files write it as it is instead of surname first."""
    surname: str | None = None
    """The surname as a file wrote it, where the name alone leaves it open: the last words of
    the name (`Gorrochategui Torres` of `Eugenio Gorrochategui Torres`, `de Vries` where the
    file wrote `de Vries, Jan`). Files write it first, the rest after the comma."""

    def active_in(self, round_no: int) -> bool:
        return self.joined <= round_no and (self.withdrawn is None or round_no <= self.withdrawn)


@dataclass(frozen=True, slots=True)
class Game:
    white: str
    black: str
    result: Result | None = None
    """None while the game has not been played."""

    def __str__(self) -> str:
        return f"{self.white}-{self.black} {self.result or '...'}"


@dataclass(frozen=True, slots=True)
class Absence:
    """A player of the round who did not play a game in it."""

    player: str
    reason: AbsenceReason
    day: ExternalDay | None = None
    """External matches: on club night or another day."""
    team: int | None = None
    """External matches valued by team table: the club team he played for."""
    result: Fraction | None = None
    """External matches valued by team table: his result (1, 1/2, 0)."""

    @property
    def kind(self) -> CompensationKind:
        """The compensation kind this absence earns."""
        if self.reason is AbsenceReason.EXTERNAL:
            if self.day is ExternalDay.OTHER_DAY:
                return CompensationKind.EXTERNAL_OTHER_DAY
            return CompensationKind.EXTERNAL_CLUB_NIGHT
        return CompensationKind(self.reason.value)


@dataclass(frozen=True, slots=True)
class Round:
    number: int
    date: dt.date | None = None
    games: tuple[Game, ...] = ()
    absent: tuple[Absence, ...] = ()

    @property
    def is_paired(self) -> bool:
        return bool(self.games)

    @property
    def is_complete(self) -> bool:
        return self.is_paired and all(g.result is not None for g in self.games)


@dataclass(frozen=True, slots=True)
class Season:
    club: str
    name: str
    """The season's label, e.g. `2026-2027`."""
    rules: Rules
    players: tuple[Player, ...]
    rounds: tuple[Round, ...]
    initial_ranking: tuple[str, ...] | None = None
    """As given in the file; None: by rating (see `starting_order`)."""
    rules_source: Any = "sliedrecht"
    """The rules exactly as written (preset name or table), kept for writing back."""
    planned_rounds: int | None = None
    """The file's top-level `planned_rounds`, if it had one."""
    _by_id: Mapping[str, Player] = field(default_factory=dict, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_by_id", {p.id: p for p in self.players})

    def player(self, player_id: str) -> Player:
        return self._by_id[player_id]

    def round(self, number: int) -> Round:
        return self.rounds[number - 1]

    @property
    def complete_rounds(self) -> int:
        """The last round with every result in, counting only an unbroken run from round 1."""
        done = 0
        for rnd in self.rounds:
            if not rnd.is_complete:
                break
            done = rnd.number
        return done

    def starting_order(self) -> tuple[str, ...]:
        """The initial ranking of the players who start in round 1: those `initial_ranking`
        lists first, in its order, then the rest by rating (the season format's default)."""
        listed = self.initial_ranking or ()
        rest = [p for p in self.players if p.joined <= 1 and p.id not in listed]
        return tuple(listed) + rating_order(rest)


def rating_order(players: Sequence[Player]) -> tuple[str, ...]:
    """Rating high to low, then name; unrated last in order of registration."""
    rated = sorted((p for p in players if p.rating is not None),
                   key=lambda p: (-(p.rating or 0), p.name))
    unrated = [p for p in players if p.rating is None]
    return tuple(p.id for p in [*rated, *unrated])
