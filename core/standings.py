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

from core.coefficients import Coefficients
from core.ledger import (
    ONE,
    Awaiting,
    Awarded,
    Compensated,
    Event,
    Forfeited,
    KeptEvents,
    Played,
    season_events,
)
from core.numbers import to_grid
from core.rules import (
    Colour,
    CompensationKind,
    Fade,
    FixedPointStart,
    FrozenBonus,
    Ladder,
    Revaluation,
    Rules,
    Ties,
    Withdrawn,
)
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
    decay: Fraction = Fraction(1)
    """What a decayed absence keeps of its compensation (`absence_decay`)."""
    fixed: bool = False
    """Fixed points (`{points = N}`), whatever the value."""
    forfeit: bool = False
    """A forfeit priced by the opponent's value: `kind` says whether he came."""


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
    _rules: Rules = field(repr=False)
    _known: Sequence[Mapping[str, list[Event]]] = field(repr=False)
    _prices: Sequence[Valuation] = field(repr=False)
    _bonus_values: Valuation = field(repr=False)
    _bonus_factor: Fraction = field(repr=False)
    left_out: tuple[Player, ...] = ()
    """Players out of the ranking after their withdrawal (`withdrawn = "hide"`), whose games
    still count for their opponents."""
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
        rules = self._rules
        own = self._bonus_values[player_id]
        lines = [BreakdownLine(0, None, value=own, factor=self._bonus_factor,
                               points=item_points(rules, self._bonus_factor, own))]
        for known, prices in zip(self._known, self._prices, strict=True):
            lines += [_line(rules, event, player_id, prices)
                      for event in known.get(player_id, ())]
        return tuple(sorted(lines, key=lambda line: line.round))


def item_points(rules: Rules, factor: Fraction, value: Fraction,
                decay: Fraction = Fraction(1)) -> Fraction:
    """One item of a score: `factor * value`, on the rules' grid (`item_rounding`); a
    decayed item is the rounded item times its decay, rounded down to that grid."""
    grid = rules.item_rounding.grid
    if grid is None:
        return factor * value * decay
    rounded = to_grid(factor * value, grid)
    return rounded if decay == 1 else to_grid(rounded * decay, grid, down=True)


def _line(rules: Rules, event: Event, player: str, prices: Valuation) -> BreakdownLine:
    if isinstance(event, Played):
        value = prices[event.opponent]
        return BreakdownLine(event.round, None, event.opponent, event.score, value, event.factor,
                             item_points(rules, event.factor, value), colour=event.colour)
    if isinstance(event, Forfeited):
        value = prices[event.opponent]
        kind = CompensationKind.OPPONENT_ABSENT if event.came else CompensationKind.NO_NOTICE
        return BreakdownLine(event.round, kind, event.opponent, value=value, factor=event.factor,
                             points=item_points(rules, event.factor, value), forfeit=True)
    if isinstance(event, Compensated):
        if event.points is not None:
            return BreakdownLine(event.round, event.kind, points=event.fixed, decay=event.decay,
                                 fixed=True)
        own = prices[player]
        return BreakdownLine(event.round, event.kind, value=own, factor=event.fraction,
                             points=item_points(rules, event.fraction, own, event.decay),
                             capped=event.capped, decay=event.decay)
    if isinstance(event, Awarded):
        return BreakdownLine(event.round, event.kind, result=event.result, points=event.points)
    if isinstance(event, Awaiting):
        return BreakdownLine(event.round, event.kind, pending=True)
    return BreakdownLine(event.round, None, event.opponent, pending=True, colour=event.colour)


def compute_standings(season: Season, after_round: int | None = None, *,
                      kept: KeptEvents | None = None) -> Standings:
    """The standings after `after_round` (default: the last complete round); with `kept`,
    the events of the rounds nothing changed in since it was last given are taken from it
    (`core.ledger.KeptEvents`)."""
    upto = season.complete_rounds if after_round is None else after_round
    return _Engine(season, kept).run(upto, every_round=False)[-1]


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
    def __init__(self, season: Season, kept: KeptEvents | None = None) -> None:
        self.season = season
        self.kept = kept
        self.rules: Rules = season.rules
        self.grid = self.rules.item_rounding.grid
        self.scale = 1
        # A[p][q] * scale: integer coefficients of q's value in p's score (exact items).
        self.coef = Coefficients()
        # With item rounding a score is no longer linear in the values: each item priced
        # on its own, as (q, factor, decay).
        self.items: dict[str, list[tuple[str, Fraction, Fraction]]] = {}
        self.fixed: dict[str, Fraction] = {}
        self.fixed_units: dict[str, int] = {}
        """`fixed` over `scale`: the integer the classic pricing adds."""
        self.frozen: dict[str, Fraction] = {}
        self.stats: dict[str, list[int]] = {}  # played, won, drawn, lost, whites - blacks
        self.hidden: dict[str, Fraction] = {}
        """Players left out after their withdrawal (`withdrawn = "hide"`): their last value."""
        self.ladders: dict[int, tuple[Fraction, ...]] = {}
        """The values by place of a ranking of n players, where they depend on n alone."""
        self.units: dict[tuple[int, int], tuple[int, Fraction, Fraction]] = {}
        """An item's coefficient (its factor times its decay, over `scale`), by the few
        factor and decay objects a season's events share (by identity: a Fraction's hash
        costs more than the product; the objects are kept with it, so an id stays theirs)."""
        self.tie_place: dict[str, int] | None = None
        if self.rules.ties is Ties.RATING:
            self.tie_place = {pid: i for i, pid in enumerate(rating_order(season.players))}

    def run(self, upto: int, *, every_round: bool) -> list[Standings]:
        """Walk rounds 1..upto; return the standings after each (or only the last)."""
        season, rules = self.season, self.rules
        upto = max(0, min(upto, len(season.rounds)))
        known_by_round = season_events(season, upto, self.kept)
        self.scale = _common_denominator(rules, known_by_round)
        ranking = list(season.starting_order())
        initial = list(ranking)
        for pid in ranking:
            self._enter(pid)
        values = valuation(rules, ranking)
        scores = _Scores.of({pid: self._item(rules.start_bonus, v) for pid, v in values.items()})
        bonus_values = dict(values)
        prices: list[Valuation] = []
        history = []
        if every_round or upto == 0:
            history.append(self._standings(0, ranking, scores, values, known_by_round, prices,
                                           bonus_values))
        frozen = rules.revaluation is Revaluation.FROZEN
        for number in range(1, upto + 1):
            joiners = [p for p in season.players if p.joined == number and number > 1]
            leavers = [p.id for p in season.players if p.withdrawn == number - 1
                       and rules.withdrawn is Withdrawn.HIDE and p.id in ranking]
            for pid in leavers:
                self.hidden[pid] = values[pid]
                ranking.remove(pid)
                initial.remove(pid)
            if joiners:
                ranking = insert_by_rating(ranking, joiners, self._rating)
                initial = insert_by_rating(initial, joiners, self._rating)
            if joiners or leavers:
                values = self._values(ranking, scores)
                for p in joiners:
                    self._enter(p.id)
                    bonus_values[p.id] = values[p.id]
            self._add(known_by_round[number - 1], values if frozen else None)
            if frozen:
                prices.append(values)
                scores, ranking, bonus_values = self._frozen(number, ranking, bonus_values)
            else:
                used, scores, ranking = self._reprice(number, ranking, values, initial)
                bonus_values = dict(used)
                prices = [used] * number
            values = self._values(ranking, scores)
            if every_round or number == upto:
                history.append(self._standings(number, ranking, scores, values, known_by_round,
                                               prices, bonus_values))
        return history

    def _values(self, ranking: Sequence[str], scores: _Scores | None) -> dict[str, Fraction]:
        """Values for the ranking, and the hidden players' last ones (their opponents'
        games are still priced with them)."""
        if self.rules.ladder is Ladder.SCORE and scores is not None:
            exact = scores.fractions()
            by_score = {pid: exact[pid] for pid in ranking if pid in exact}
            return {**self.hidden, **valuation(self.rules, ranking, by_score)}
        return {**self.hidden, **dict(zip(ranking, self._ladder(len(ranking)), strict=True))}

    def _ladder(self, n: int) -> tuple[Fraction, ...]:
        """The values by place for n players, made once per n: a large season's rounds
        would make the same thousands of values anew each round."""
        found = self.ladders.get(n)
        if found is None:
            found = self.ladders[n] = tuple(valuation(self.rules,
                                                      [str(k) for k in range(n)]).values())
        return found

    def _rating(self, pid: str) -> int | None:
        return self.season.player(pid).rating

    def _enter(self, pid: str) -> None:
        self.coef.enter(pid)
        self.items[pid] = []
        self.fixed[pid] = Fraction(0)
        self.fixed_units[pid] = 0
        self.frozen[pid] = Fraction(0)
        self.stats[pid] = [0, 0, 0, 0, 0]

    def _item(self, factor: Fraction, value: Fraction, decay: Fraction = ONE) -> Fraction:
        return item_points(self.rules, factor, value, decay)

    def _add(self, known: Mapping[str, list[Event]], values: Valuation | None) -> None:
        """Fold one round's events into the coefficients and the stats, and, when `values`
        are given (frozen pricing), into the frozen sums."""
        for pid, events in known.items():
            stats = self.stats[pid]
            for event in events:
                if isinstance(event, Played | Forfeited):
                    self._priced(pid, event.opponent, event.factor, ONE, values)
                    if isinstance(event, Played):
                        stats[0] += 1
                        stats[1 if event.score == 1 else 2 if event.score else 3] += 1
                        stats[4] += 1 if event.colour is Colour.WHITE else -1
                elif isinstance(event, Compensated):
                    if event.points is None:
                        self._priced(pid, pid, event.fraction, event.decay, values)
                        continue  # earns nothing fixed
                    self.fixed[pid] += event.fixed
                    self.fixed_units[pid] += int(event.fixed * self.scale)
                    self.frozen[pid] += event.fixed
                elif isinstance(event, Awarded):
                    self.fixed[pid] += event.points
                    self.fixed_units[pid] += int(event.points * self.scale)
                    self.frozen[pid] += event.points

    def _priced(self, pid: str, q: str, factor: Fraction, decay: Fraction,
                values: Valuation | None) -> None:
        """One item of p's score worth `factor` (times `decay`) of q's value."""
        if self.grid is None:
            known = self.units.get((id(factor), id(decay)))
            if known is None:
                known = self.units[id(factor), id(decay)] = (int(factor * decay * self.scale),
                                                             factor, decay)
            self.coef.add(pid, q, known[0])
        else:
            self.items[pid].append((q, factor, decay))
        if values is not None:
            self.frozen[pid] += self._item(factor, values[q], decay)

    def _bonus_factor(self, round_no: int) -> Fraction:
        rules = self.rules
        if rules.start_bonus_fade is Fade.LINEAR:
            planned = rules.planned_rounds
            return rules.start_bonus * Fraction(max(planned - round_no, 0), planned)
        return rules.start_bonus

    def _frozen(self, round_no: int, ranking: list[str], bonus_values: dict[str, Fraction]) \
            -> tuple[_Scores, list[str], dict[str, Fraction]]:
        """Frozen: the sums of the rounds as priced, plus the bonus at the initial value, or
        (`frozen_bonus = "current"`) at the value of the ranking of those sums."""
        if self.rules.frozen_bonus is FrozenBonus.CURRENT:
            sums = _Scores.of({pid: self.frozen[pid] for pid in ranking})
            ranking = self._rank(sums, ranking)
            bonus_values = {**bonus_values, **self._values(ranking, sums)}
        bonus = self._bonus_factor(round_no)
        scores = _Scores.of({pid: self.frozen[pid] + self._item(bonus, bonus_values[pid])
                             for pid in ranking})
        return scores, self._rank(scores, ranking), bonus_values

    def _price(self, round_no: int, values: Valuation) -> _Scores:
        """Every score with every past result priced at `values` (classic pricing)."""
        if self.grid is not None:
            bonus_factor = self._bonus_factor(round_no)
            return _Scores.of({
                pid: self.fixed[pid] + self._item(bonus_factor, values[pid]) + sum(
                    (self._item(f, values[q], d) for q, f, d in items), Fraction(0))
                for pid, items in self.items.items()})
        denominator = math.lcm(*(v.denominator for v in values.values()))
        numerators = {pid: v.numerator * (denominator // v.denominator)
                      for pid, v in values.items()}
        bonus = int(self._bonus_factor(round_no) * self.scale)
        total = self.scale * denominator
        fixed = self.fixed_units
        return _Scores({pid: bonus * numerators[pid] + fixed[pid] * denominator + items
                        for pid, items in zip(self.coef.players, self.coef.sums(numerators),
                                              strict=True)}, total)

    def _reprice(self, round_no: int, ranking: list[str], values: Valuation,
                 initial: list[str]) -> tuple[Valuation, _Scores, list[str]]:
        """Classic: one pass. Fixed point: from the previous ranking (or the initial one),
        until the ranking stops changing, or the mean over a cycle."""
        rules = self.rules
        if rules.revaluation is Revaluation.FIXED_POINT \
                and rules.fixed_point_start is FixedPointStart.INITIAL:
            start = initial
            values = self._values(initial, None)
        else:
            start = ranking
        scores = self._price(round_no, values)
        new = self._rank(scores, ranking)
        if rules.revaluation is Revaluation.CLASSIC:
            return values, scores, new
        rankings, valuations = [start], [values]
        # The pricing above is the first pass (classic is "one pass"): at most 19 more.
        for _ in range(MAX_FIXED_POINT_PASSES - 1):
            if new == rankings[-1]:
                break
            if new in rankings:
                return self._cycle_mean(round_no, ranking, valuations[rankings.index(new):])
            rankings.append(new)
            valuations.append(self._values(new, scores))
            scores = self._price(round_no, valuations[-1])
            new = self._rank(scores, ranking)
        return valuations[-1], scores, new

    def _cycle_mean(self, round_no: int, ranking: list[str], cycle: Sequence[Valuation]) \
            -> tuple[Valuation, _Scores, list[str]]:
        """Each score the mean of its scores over the cycle. Exact items are linear, so
        pricing at the mean valuation gives the mean scores; rounded items are priced per
        valuation, and the mean put on the grid."""
        used = {pid: sum((v[pid] for v in cycle), Fraction(0)) / len(cycle) for pid in cycle[0]}
        if self.grid is None:
            scores = self._price(round_no, used)
        else:
            priced = [self._price(round_no, v).fractions() for v in cycle]
            scores = _Scores.of({pid: to_grid(sum((p[pid] for p in priced), Fraction(0))
                                              / len(cycle), self.grid) for pid in priced[0]})
        return used, scores, self._rank(scores, ranking)

    def _rank(self, scores: _Scores, previous: Sequence[str]) -> list[str]:
        """By score, highest first; equal scores keep the previous order (or, with
        `ties = "rating"`, go by rating, then name, unrated last)."""
        place = self.tie_place or {pid: i for i, pid in enumerate(previous)}
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
        return Standings(number, rows, self.rules, known[:number], list(prices),
                         dict(bonus_values), self._bonus_factor(number),
                         tuple(self.season.player(pid) for pid in self.hidden))


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


def _common_denominator(rules: Rules, known: Sequence[Mapping[str, list[Event]]]) -> int:
    """One denominator that makes every coefficient an integer: the bonus multiplier (with
    its fade), and each event's factor (with its decay) and fixed points."""
    parts = {2, rules.start_bonus.denominator * (rules.planned_rounds
                                                 if rules.start_bonus_fade is Fade.LINEAR else 1)}
    for by_player in known:
        for events in by_player.values():
            for event in events:
                if isinstance(event, Played | Forfeited):
                    parts.add(event.factor.denominator)
                elif isinstance(event, Compensated):
                    parts.add(event.fraction.denominator if event.decay is ONE
                              else (event.fraction * event.decay).denominator)
                    if event.points is not None:
                        parts.add(event.fixed.denominator)
                elif isinstance(event, Awarded):
                    parts.add(event.points.denominator)
    return math.lcm(*parts)


__all__ = ["BreakdownLine", "PlayerStanding", "Standings", "compute_standings",
           "insert_by_rating", "item_points", "standings_history"]
