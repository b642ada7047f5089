"""What each player did in each round, as scoring sees it: the facts, before any pricing.

A forfeit is not a game: the player who came gets `opponent_absent`, the one who did not
`no_notice`, unless the rules price forfeits by the opponent's value. Caps and decay are
applied here, in round order, because which absences earn (and how much of their
compensation) depends only on the order of the rounds, never on values.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from fractions import Fraction

from core.rules import Colour, CompensationKind, Rules, Withdrawn
from core.season import Absence, Player, Result, Round, Season

ZERO, ONE = Fraction(0), Fraction(1)
"""Made once: a large season has a hundred thousand events, and a Fraction is costly to make."""


@dataclass(frozen=True, slots=True)
class Played:
    """A game with a result."""

    round: int
    opponent: str
    score: Fraction
    """This player's points from the game: 1, 1/2 or 0."""
    colour: Colour
    factor: Fraction
    """What the game earns as a fraction of the opponent's value (`result_fractions`)."""


@dataclass(frozen=True, slots=True)
class Forfeited:
    """A forfeit priced by the opponent's value (`forfeit_scoring`): no game, no absence."""

    round: int
    opponent: str
    came: bool
    """Whether this player came (False for both players of a double forfeit)."""
    factor: Fraction


@dataclass(frozen=True, slots=True)
class Compensated:
    """A round without a game, earning a fraction of the player's own value."""

    round: int
    kind: CompensationKind
    fraction: Fraction
    """What it earns of the player's value; 0 when capped or worth fixed points."""
    capped: bool = False
    """Past the notice cap: counted, but earns nothing."""
    decay: Fraction = Fraction(1)
    """`absence_decay ** (k - 1)` for the k-th counted round; 1 without decay."""
    points: Fraction | None = None
    """Fixed points instead of a fraction (`{points = N}`), before decay."""

    @property
    def fixed(self) -> Fraction:
        """What it earns whatever the value."""
        return ZERO if self.points is None else self.points * self.decay


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


Event = Played | Forfeited | Compensated | Awarded | Pending | Awaiting


class CapCounter:
    """Counts each player's absences of the kinds the cap and the decay count."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.used: dict[str, int] = {}

    def take(self, player: str, kind: CompensationKind) -> int | None:
        """Record one round of `kind`: the how-manieth counted round it is, None if the kind
        is not counted."""
        if not self.rules.counts_to_cap(kind):
            return None
        self.used[player] = self.used.get(player, 0) + 1
        return self.used[player]


def round_events(rules: Rules, rnd: Round, caps: CapCounter) -> dict[str, Event]:
    """Each listed player's event in one round."""
    events: dict[str, Event] = {}
    # Each result's points and fractions, worked out once per round, not once per game.
    priced: dict[Result, tuple[Fraction, Fraction, Fraction, Fraction]] = {}
    for game in rnd.games:
        if game.result is None:
            events[game.white] = Pending(rnd.number, game.black, Colour.WHITE)
            events[game.black] = Pending(rnd.number, game.white, Colour.BLACK)
        elif game.result.is_forfeit:
            white_came = game.result is Result.WHITE_BY_FORFEIT
            black_came = game.result is Result.BLACK_BY_FORFEIT
            for pid, other, came in ((game.white, game.black, white_came),
                                     (game.black, game.white, black_came)):
                events[pid] = _forfeit(rules, rnd.number, pid, other, came,
                                       game.result is Result.DOUBLE_FORFEIT, caps)
        else:
            found = priced.get(game.result)
            if found is None:
                white = game.result.white_score
                found = priced[game.result] = (white, 1 - white, rules.result_fraction(white),
                                               rules.result_fraction(1 - white))
            white, black, white_factor, black_factor = found
            events[game.white] = Played(rnd.number, game.black, white, Colour.WHITE,
                                        white_factor)
            events[game.black] = Played(rnd.number, game.white, black, Colour.BLACK,
                                        black_factor)
    for absence in rnd.absent:
        events[absence.player] = _absence_event(rules, rnd.number, absence, caps)
    return events


def _forfeit(rules: Rules, round_no: int, player: str, opponent: str, came: bool,
             double: bool, caps: CapCounter) -> Event:
    """A forfeit priced by the opponent's value where `forfeit_scoring` says so for this
    side, else the compensation rule (who came `opponent_absent`, who did not `no_notice`)."""
    scoring = rules.forfeit_scoring
    if scoring is not None:
        factor = scoring.double if double else scoring.win if came else scoring.loss
        if factor is not None:
            return Forfeited(round_no, opponent, came, factor)
    kind = CompensationKind.OPPONENT_ABSENT if came else CompensationKind.NO_NOTICE
    return compensation(rules, round_no, player, kind, caps)


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
    """A round without a game: the cap first (the k-th counted round past it earns 0), then
    the decay `d^(k-1)` on what is left."""
    counted = caps.take(player, kind)
    if counted is not None and rules.notice_cap is not None and counted > rules.notice_cap:
        return Compensated(round_no, kind, ZERO, capped=True)
    decay = ONE
    if counted is not None and rules.absence_decay is not None:
        decay = rules.absence_decay ** (counted - 1)
    points = rules.compensation_points.get(kind)
    if points is not None:
        return Compensated(round_no, kind, ZERO, decay=decay, points=points)
    return Compensated(round_no, kind, rules.compensation_for(kind), decay=decay)


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


@dataclass
class KeptEvents:
    """A season's events as last made, round by round, for making them again after a change
    (the standings worker keeps one per club): a round's events are made anew only where the
    round, or the counts of capped absences it starts from, changed, or the rules or players
    did. After a correction of round 1 of a 76-round season, round 1's."""

    basis: tuple[Rules, tuple[Player, ...]] | None = None
    rounds: list[_KeptRound] = field(default_factory=list)

    def found(self, index: int, rnd: Round, used: dict[str, int]) -> _KeptRound | None:
        if index >= len(self.rounds):
            return None
        kept = self.rounds[index]
        return kept if (kept.round is rnd or kept.round == rnd) and kept.before == used \
            else None


@dataclass(frozen=True, slots=True)
class _KeptRound:
    round: Round
    before: dict[str, int]
    """The counted absences per player before the round (`CapCounter.used`)."""
    known: dict[str, list[Event]]
    after: dict[str, int]


def season_events(season: Season, upto: int, kept: KeptEvents | None = None) \
        -> list[dict[str, list[Event]]]:
    """Per round 1..upto: the events that become known in that round, per player; with
    `kept`, each round's taken from it where nothing it depends on changed (and `kept` then
    holds these).

    A late joiner's `late_join` rounds become known in the round he joins, and his cap counts
    them before his own notices.
    """
    rules = season.rules
    caps = CapCounter(rules)
    joiners: dict[int, list[str]] = {}
    for player in season.players:
        joiners.setdefault(player.joined, []).append(player.id)
    gone = [p for p in season.players if p.withdrawn is not None] \
        if rules.withdrawn is Withdrawn.ABSENT else []
    basis = (rules, season.players)
    same = kept is not None and kept.basis == basis
    made: list[_KeptRound] = []
    # Each round's counts after it are the next one's before: one dict, never changed again
    # (a round made anew counts on a copy).
    used: dict[str, int] = {}
    for index, rnd in enumerate(season.rounds[:upto]):
        found = kept.found(index, rnd, used) if kept is not None and same else None
        if found is None:
            caps.used = dict(used)
            known = _known(rules, rnd, joiners.get(rnd.number, []) if rnd.number > 1 else [],
                           gone, caps)
            found = _KeptRound(rnd, used, known, caps.used)
        used = found.after
        made.append(found)
    if kept is not None:
        kept.basis, kept.rounds = basis, made
    return [entry.known for entry in made]


def _known(rules: Rules, rnd: Round, joiners: list[str], gone: list[Player],
           caps: CapCounter) -> dict[str, list[Event]]:
    """The events that become known in one round: the late rounds of who joins in it, each
    listed player's event, and the absence of who is gone for good."""
    known: dict[str, list[Event]] = {}
    for pid in joiners:
        known[pid] = list(late_join_events(rules, pid, rnd.number, caps))
    for pid, event in round_events(rules, rnd, caps).items():
        known.setdefault(pid, []).append(event)
    for player in gone:
        if rnd.number > (player.withdrawn or 0):
            known.setdefault(player.id, []).append(compensation(
                rules, rnd.number, player.id, CompensationKind.NO_NOTICE, caps))
    return known
