"""What each player did in each round, as scoring sees it: the facts, before any pricing.

A forfeit is not a game: the player who came gets `opponent_absent`, the one who did not
`no_notice`. Caps are applied here, in round order, because which notices earn depends only on
the order of the rounds, never on values.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction

from core.rules import Colour, CompensationKind, Rules
from core.season import Absence, Result, Round, Season


@dataclass(frozen=True, slots=True)
class Played:
    """A game with a result."""

    round: int
    opponent: str
    score: Fraction
    """This player's points from the game: 1, 1/2 or 0."""
    colour: Colour


@dataclass(frozen=True, slots=True)
class Compensated:
    """A round without a game, earning a fraction of the player's own value."""

    round: int
    kind: CompensationKind
    fraction: Fraction
    """What it earns; 0 when capped."""
    capped: bool = False
    """Past the notice cap: counted, but earns nothing."""


@dataclass(frozen=True, slots=True)
class Awarded:
    """An external match valued by the team table: fixed points, no value involved."""

    round: int
    kind: CompensationKind
    team: int
    result: Fraction
    points: Fraction


@dataclass(frozen=True, slots=True)
class Pending:
    """A paired game without a result yet: earns nothing so far."""

    round: int
    opponent: str
    colour: Colour


@dataclass(frozen=True, slots=True)
class Awaiting:
    """A team-valued external match whose team or result is not known yet: nothing so far."""

    round: int
    kind: CompensationKind


Event = Played | Compensated | Awarded | Pending | Awaiting


class CapCounter:
    """Counts capped rounds per player and says whether the next one still earns."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.used: dict[str, int] = {}

    def counts(self, kind: CompensationKind) -> bool:
        return kind is CompensationKind.NOTICE or (
            kind is CompensationKind.LATE_JOIN and self.rules.late_join_counts_to_cap)

    def take(self, player: str, kind: CompensationKind) -> bool:
        """Record one round of `kind`; True if it still earns."""
        cap = self.rules.notice_cap
        if cap is None or not self.counts(kind):
            return True
        self.used[player] = self.used.get(player, 0) + 1
        return self.used[player] <= cap


def round_events(rules: Rules, rnd: Round, caps: CapCounter) -> dict[str, Event]:
    """Each listed player's event in one round."""
    events: dict[str, Event] = {}
    for game in rnd.games:
        if game.result is None:
            events[game.white] = Pending(rnd.number, game.black, Colour.WHITE)
            events[game.black] = Pending(rnd.number, game.white, Colour.BLACK)
        elif game.result.is_forfeit:
            white_came = game.result is Result.WHITE_BY_FORFEIT
            black_came = game.result is Result.BLACK_BY_FORFEIT
            for pid, came in ((game.white, white_came), (game.black, black_came)):
                kind = CompensationKind.OPPONENT_ABSENT if came else CompensationKind.NO_NOTICE
                events[pid] = compensation(rules, rnd.number, pid, kind, caps)
        else:
            white = game.result.white_score
            events[game.white] = Played(rnd.number, game.black, white, Colour.WHITE)
            events[game.black] = Played(rnd.number, game.white, 1 - white, Colour.BLACK)
    for absence in rnd.absent:
        events[absence.player] = _absence_event(rules, rnd.number, absence, caps)
    return events


def _absence_event(rules: Rules, round_no: int, absence: Absence, caps: CapCounter) -> Event:
    kind = absence.kind
    if kind in rules.team_valued:
        if absence.team is None or absence.result is None:
            return Awaiting(round_no, kind)
        points = rules.team_award(absence.team, absence.result)
        return Awarded(round_no, kind, absence.team, absence.result, points)
    return compensation(rules, round_no, absence.player, kind, caps)


def compensation(rules: Rules, round_no: int, player: str, kind: CompensationKind,
                 caps: CapCounter) -> Compensated:
    if caps.take(player, kind):
        return Compensated(round_no, kind, rules.compensation_for(kind))
    return Compensated(round_no, kind, Fraction(0), capped=True)


def late_join_events(rules: Rules, player: str, joined: int, caps: CapCounter) -> list[Compensated]:
    """The rounds before a late joiner's first, compensated as `late_join`."""
    return [compensation(rules, r, player, CompensationKind.LATE_JOIN, caps)
            for r in range(1, joined)]


def one_player(season: Season, player: str) -> Season:
    """The season as far as `player`'s events go: his games and absences alone. A cap counts
    each player's own rounds, so `season_events` of this season give him exactly the events
    of the whole one, at a fraction of the cost (pricing one sign-off)."""
    return replace(season, players=(season.player(player),), rounds=tuple(
        Round(rnd.number, rnd.date,
              tuple(g for g in rnd.games if player in (g.white, g.black)),
              tuple(a for a in rnd.absent if a.player == player))
        for rnd in season.rounds))


def season_events(season: Season, upto: int) -> list[dict[str, list[Event]]]:
    """Per round 1..upto: the events that become known in that round, per player.

    A late joiner's `late_join` rounds become known in the round he joins, and his cap counts
    them before his own notices.
    """
    caps = CapCounter(season.rules)
    joiners: dict[int, list[str]] = {}
    for player in season.players:
        joiners.setdefault(player.joined, []).append(player.id)
    out: list[dict[str, list[Event]]] = []
    for rnd in season.rounds[:upto]:
        known: dict[str, list[Event]] = {}
        for pid in joiners.get(rnd.number, []) if rnd.number > 1 else []:
            known[pid] = list(late_join_events(season.rules, pid, rnd.number, caps))
        for pid, event in round_events(season.rules, rnd, caps).items():
            known.setdefault(pid, []).append(event)
        out.append(known)
    return out
