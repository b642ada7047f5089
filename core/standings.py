"""Keizer standings, exactly as the club's rules say (rules.md sections 2-4).

The engine walks the rounds in order, because every revaluation mode needs the previous
ranking. A score is linear in the values: `score(p) = sum_q A[p][q] * v(q) + C[p]`, where `A`
holds game results (against q) and compensation fractions (against p himself) and `C` the
fixed team awards. `A` is kept as integers over one common denominator, so re-pricing a whole
season with new values is an integer dot product, still exact.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from core.ledger import Awaiting, Awarded, Compensated, Event, Played, season_events
from core.rules import Colour, CompensationKind, Fade, Ladder, Revaluation, Rules
from core.season import Player, Season, rating_order
from core.values import Valuation, valuation

MAX_FIXED_POINT_PASSES = 20


@dataclass(frozen=True, slots=True)
class BreakdownLine:
    """One contribution to a player's score: why his points are what they are."""

    round: int
    """The round it belongs to; 0 for the own-value bonus."""
    kind: CompensationKind | None
    """None for a game (or the bonus, round 0); else the kind of round without a game."""
    opponent: str | None = None
    result: Fraction | None = None
    """Game points (1, 1/2, 0), or the external result for a team award."""
    value: Fraction | None = None
    """The value priced with (the opponent's, or his own); None for a team award."""
    factor: Fraction | None = None
    """What the value is multiplied by (result, compensation fraction, bonus multiplier)."""
    points: Fraction = Fraction(0)
    pending: bool = False
    """A game without a result yet."""
    capped: bool = False
    """A notice past the cap."""
    colour: Colour | None = None
    """His colour in a game."""


@dataclass(frozen=True, slots=True)
class PlayerStanding:
    """One line of the standings."""

    rank: int
    player: Player
    score: Fraction
    value: Fraction
    """His value in this ranking (what the next round prices him at)."""
    played: int
    won: int
    drawn: int
    lost: int
    colour_balance: int
    """Games with white minus games with black."""

    @property
    def id(self) -> str:
        return self.player.id

    @property
    def percentage(self) -> Fraction | None:
        """Game points as a share of games played; None before his first game."""
        if not self.played:
            return None
        return Fraction(2 * self.won + self.drawn, 2 * self.played)


@dataclass(frozen=True, slots=True)
class Standings:
    """The ranking after a round, with what it is made of."""

    after_round: int
    rows: tuple[PlayerStanding, ...]
    """Best first."""
    _known: Sequence[Mapping[str, list[Event]]] = field(repr=False)
    _prices: Sequence[Valuation] = field(repr=False)
    _bonus_values: Valuation = field(repr=False)
    _bonus_factor: Fraction = field(repr=False)
    _by_id: Mapping[str, PlayerStanding] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_by_id", {row.id: row for row in self.rows})

    @property
    def ranking(self) -> tuple[str, ...]:
        return tuple(row.id for row in self.rows)

    @property
    def values(self) -> dict[str, Fraction]:
        return {row.id: row.value for row in self.rows}

    def row(self, player_id: str) -> PlayerStanding:
        return self._by_id[player_id]

    def breakdown(self, player_id: str) -> tuple[BreakdownLine, ...]:
        """Every contribution to the player's score, in round order; they sum to the score."""
        own = self._bonus_values[player_id]
        lines = [BreakdownLine(0, None, value=own, factor=self._bonus_factor,
                               points=self._bonus_factor * own)]
        for known, prices in zip(self._known, self._prices, strict=True):
            lines += [_line(event, player_id, prices) for event in known.get(player_id, ())]
        return tuple(sorted(lines, key=lambda line: line.round))


def _line(event: Event, player: str, prices: Valuation) -> BreakdownLine:
    if isinstance(event, Played):
        value = prices[event.opponent]
        return BreakdownLine(event.round, None, event.opponent, event.score, value, event.score,
                             event.score * value, colour=event.colour)
    if isinstance(event, Compensated):
        own = prices[player]
        return BreakdownLine(event.round, event.kind, value=own, factor=event.fraction,
                             points=event.fraction * own, capped=event.capped)
    if isinstance(event, Awarded):
        return BreakdownLine(event.round, event.kind, result=event.result, points=event.points)
    if isinstance(event, Awaiting):
        return BreakdownLine(event.round, event.kind, pending=True)
    return BreakdownLine(event.round, None, event.opponent, pending=True, colour=event.colour)


def compute_standings(season: Season, after_round: int | None = None) -> Standings:
    """The standings after `after_round` (default: the last complete round)."""
    upto = season.complete_rounds if after_round is None else after_round
    return _Engine(season).run(upto, every_round=False)[-1]


def standings_history(season: Season, upto: int | None = None) -> list[Standings]:
    """Standings after round 0 (the initial ranking), 1, ..., `upto`, computed in one walk."""
    return _Engine(season).run(season.complete_rounds if upto is None else upto,
                               every_round=True)


def insert_by_rating(ranking: Sequence[str], joiners: Sequence[Player],
                     rating: Callable[[str], int | None]) -> list[str]:
    """Late joiners go just above the first player rated below them; unrated ones go last."""
    out = list(ranking)
    for joiner in [p for pid in rating_order(joiners) for p in joiners if p.id == pid]:
        if joiner.rating is None:
            out.append(joiner.id)
            continue
        at = next((i for i, pid in enumerate(out) if (rating(pid) or -1) < joiner.rating),
                  len(out))
        out.insert(at, joiner.id)
    return out


class _Engine:
    def __init__(self, season: Season) -> None:
        self.season = season
        self.rules: Rules = season.rules
        self.scale = _common_denominator(self.rules)
        # A[p][q] * scale: integer coefficients of q's value in p's score.
        self.coef: dict[str, dict[str, int]] = {}
        self.fixed: dict[str, Fraction] = {}
        self.frozen: dict[str, Fraction] = {}
        self.stats: dict[str, list[int]] = {}  # played, won, drawn, lost, whites - blacks

    def run(self, upto: int, *, every_round: bool) -> list[Standings]:
        """Walk rounds 1..upto; return the standings after each (or only the last)."""
        season, rules = self.season, self.rules
        upto = max(0, min(upto, len(season.rounds)))
        known_by_round = season_events(season, upto)
        ranking = list(season.starting_order())
        for pid in ranking:
            self._enter(pid)
        values = valuation(rules, ranking)
        scores = _Scores.of({pid: rules.start_bonus * v for pid, v in values.items()})
        bonus_values = dict(values)
        prices: list[Valuation] = []
        history = []
        if every_round or upto == 0:
            history.append(self._standings(0, ranking, scores, values, known_by_round, prices,
                                           bonus_values))
        frozen = rules.revaluation is Revaluation.FROZEN
        for number in range(1, upto + 1):
            joiners = [p for p in season.players if p.joined == number and number > 1]
            if joiners:
                ranking = insert_by_rating(ranking, joiners, self._rating)
                values = self._values(ranking, scores)
                for p in joiners:
                    self._enter(p.id)
                    bonus_values[p.id] = values[p.id]
            self._add(known_by_round[number - 1], values if frozen else None)
            if frozen:
                prices.append(values)
                bonus = self._bonus_factor(number)
                scores = _Scores.of({pid: self.frozen[pid] + bonus * bonus_values[pid]
                                     for pid in ranking})
                ranking = self._rank(scores, ranking)
            else:
                used, scores, ranking = self._reprice(number, ranking, values)
                bonus_values = dict(used)
                prices = [used] * number
            values = self._values(ranking, scores)
            if every_round or number == upto:
                history.append(self._standings(number, ranking, scores, values, known_by_round,
                                               prices, bonus_values))
        return history

    def _values(self, ranking: Sequence[str], scores: _Scores) -> dict[str, Fraction]:
        by_score = scores.fractions() if self.rules.ladder is Ladder.SCORE else None
        return valuation(self.rules, ranking, by_score)

    def _rating(self, pid: str) -> int | None:
        return self.season.player(pid).rating

    def _enter(self, pid: str) -> None:
        self.coef[pid] = {}
        self.fixed[pid] = Fraction(0)
        self.frozen[pid] = Fraction(0)
        self.stats[pid] = [0, 0, 0, 0, 0]

    def _add(self, known: Mapping[str, list[Event]], values: Valuation | None) -> None:
        """Fold one round's events into the coefficients and the stats, and, when `values`
        are given (frozen pricing), into the frozen sums."""
        for pid, events in known.items():
            row, stats = self.coef[pid], self.stats[pid]
            for event in events:
                if isinstance(event, Played):
                    add = int(event.score * self.scale)
                    row[event.opponent] = row.get(event.opponent, 0) + add
                    if values is not None:
                        self.frozen[pid] += event.score * values[event.opponent]
                    stats[0] += 1
                    stats[1 if event.score == 1 else 2 if event.score else 3] += 1
                    stats[4] += 1 if event.colour is Colour.WHITE else -1
                elif isinstance(event, Compensated):
                    row[pid] = row.get(pid, 0) + int(event.fraction * self.scale)
                    if values is not None:
                        self.frozen[pid] += event.fraction * values[pid]
                elif isinstance(event, Awarded):
                    self.fixed[pid] += event.points
                    self.frozen[pid] += event.points

    def _bonus_factor(self, round_no: int) -> Fraction:
        rules = self.rules
        if rules.start_bonus_fade is Fade.LINEAR:
            planned = rules.planned_rounds
            return rules.start_bonus * Fraction(max(planned - round_no, 0), planned)
        return rules.start_bonus

    def _price(self, round_no: int, values: Valuation) -> _Scores:
        """Every score with every past result priced at `values` (classic pricing)."""
        denominator = math.lcm(*(v.denominator for v in values.values()))
        numerators = {pid: v.numerator * (denominator // v.denominator)
                      for pid, v in values.items()}
        bonus = int(self._bonus_factor(round_no) * self.scale)
        total = self.scale * denominator
        out: dict[str, int] = {}
        for pid, row in self.coef.items():
            acc = bonus * numerators[pid] + int(self.fixed[pid] * total)
            for q, a in row.items():
                acc += a * numerators[q]
            out[pid] = acc
        return _Scores(out, total)

    def _reprice(self, round_no: int, ranking: list[str],
                 values: Valuation) -> tuple[Valuation, _Scores, list[str]]:
        """Classic: one pass. Fixed point: until the ranking stops changing, or the mean over
        a cycle (by linearity, pricing at the mean valuation gives the mean scores)."""
        scores = self._price(round_no, values)
        new = self._rank(scores, ranking)
        if self.rules.revaluation is Revaluation.CLASSIC:
            return values, scores, new
        rankings, valuations = [ranking], [values]
        # The pricing above is the first pass (classic is "one pass"): at most 19 more.
        for _ in range(MAX_FIXED_POINT_PASSES - 1):
            if new == rankings[-1]:
                break
            if new in rankings:
                cycle = valuations[rankings.index(new):]
                used = {pid: sum((v[pid] for v in cycle), Fraction(0)) / len(cycle)
                        for pid in ranking}
                scores = self._price(round_no, used)
                return used, scores, self._rank(scores, ranking)
            rankings.append(new)
            valuations.append(self._values(new, scores))
            scores = self._price(round_no, valuations[-1])
            new = self._rank(scores, ranking)
        return valuations[-1], scores, new

    @staticmethod
    def _rank(scores: _Scores, previous: Sequence[str]) -> list[str]:
        """By score, highest first; equal scores keep the previous order."""
        place = {pid: i for i, pid in enumerate(previous)}
        numerators = scores.numerators
        return sorted(previous, key=lambda pid: (-numerators[pid], place[pid]))

    def _standings(self, number: int, ranking: Sequence[str], scores: _Scores,
                   values: Valuation, known: Sequence[Mapping[str, list[Event]]],
                   prices: Sequence[Valuation], bonus_values: Valuation) -> Standings:
        exact = scores.fractions()
        rows = tuple(
            PlayerStanding(rank, self.season.player(pid), exact[pid], values[pid],
                           *self.stats[pid])
            for rank, pid in enumerate(ranking, start=1))
        return Standings(number, rows, known[:number], list(prices), dict(bonus_values),
                         self._bonus_factor(number))


@dataclass(frozen=True, slots=True)
class _Scores:
    """Scores as integers over one denominator: exact, and cheap to compare."""

    numerators: dict[str, int]
    denominator: int

    @classmethod
    def of(cls, scores: Mapping[str, Fraction]) -> _Scores:
        denominator = math.lcm(*(s.denominator for s in scores.values())) if scores else 1
        return cls({pid: s.numerator * (denominator // s.denominator)
                    for pid, s in scores.items()}, denominator)

    def fractions(self) -> dict[str, Fraction]:
        return {pid: Fraction(n, self.denominator) for pid, n in self.numerators.items()}


def _common_denominator(rules: Rules) -> int:
    """One denominator that makes every coefficient an integer: results (1/2), compensation
    fractions, the bonus multiplier (with its fade) and team awards."""
    parts = [2, *(f.denominator for f in rules.compensation.values())]
    parts.append(rules.start_bonus.denominator * (rules.planned_rounds
                                                  if rules.start_bonus_fade is Fade.LINEAR else 1))
    parts += [a.denominator for row in rules.team_table.values() for a in row]
    return math.lcm(*parts)


__all__ = ["BreakdownLine", "PlayerStanding", "Standings", "compute_standings",
           "insert_by_rating", "standings_history"]
