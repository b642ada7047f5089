"""Every rule of rules.md section 5, evaluated once for every possible board of a round.

Each rule depends only on the two players of a board and who gets white, so the round is a
matching problem: this module prices every (pair, colour), keeps the better colour per pair,
and hands one table to whichever engine matches (blossom, CP-SAT, the top-down baseline).
The table keeps each rule's count separately, so broken rules are named from the same numbers
the solver minimised. Arrays are indexed by edge; players by their place among those paired.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TypeVar

import numpy as np
import numpy.typing as npt

from core.errors import Expected, InvalidInputError, ProblemCode, Problems
from core.pairing.model import PairingRequest, Rule, Tier
from core.rules import Colour

IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]
_Places = TypeVar("_Places", int, IntArray)

TIE_BITS = 30
"""Bits of the canonical tie-break per edge. With weights drawn from 2^30 values the optimum is
unique unless a 1-in-(2^30 / edges) coincidence happens (isolation lemma)."""
MAX_PLAYERS = 1000
"""Bounds every total below, so the objective's fields never overflow into each other."""
TIE_WIDTH = TIE_BITS + 9
"""Room for the tie-break's total over a round (at most 501 boards)."""
TIER_WIDTHS: tuple[int, ...] = (9, 9, 10, 12, 2, 9)
"""Room for each tier's total over a round, in Tier order: kept apart and meetings (<= 501
boards each), period (2 rules per board), colour (5 per board), bye (at most 1), distance
(1 per board)."""


def tier_weights() -> tuple[int, ...]:
    """One unit of a tier outweighs every possible total of the tiers below it."""
    weights, at = [], 0
    for width in reversed(TIER_WIDTHS):
        weights.append(1 << at)
        at += width
    return tuple(reversed(weights))

# Per-edge counts kept in `EdgeTable.counts`, by rule and side.
COLOUR_PARTS = ("diff_white", "diff_black", "run_white", "run_black", "rematch")


@dataclass(frozen=True, slots=True)
class EdgeTable:
    """All boards the round could have, with what each costs in the better colour."""

    players: tuple[str, ...]
    """Players to pair, best-ranked first."""
    within: int | None
    """Only the boards of players at most this many places apart here; None: every board."""
    rank: IntArray
    """Each player's place (1-based) in the full ranking."""
    i: IntArray
    j: IntArray
    """Edge endpoints, i placed above j."""
    i_white: BoolArray
    allowed: BoolArray
    """False where the arbiter's fixes rule the board out, or he keeps its players apart."""
    counts: Mapping[str, IntArray]
    """Per edge: `kept_apart`, `max_meetings`, `per_period`, `min_rounds_between`,
    `max_rank_distance` and the colour parts of COLOUR_PARTS."""
    tiers: IntArray
    """Per edge, broken rules per tier (columns in Tier order; the bye column is 0)."""
    distance2: IntArray
    preference: IntArray
    """1 where the colours go against preference."""
    tie: IntArray
    bye_allowed: BoolArray
    """Per player: may he have the bye (only with an odd number)."""
    bye_broken: IntArray
    """Per player: 1 if giving him the bye breaks the bye rule."""
    bye_preference: IntArray
    bye_tie: IntArray
    due_bye: str | None
    """Who the bye rule gives the bye to (None with an even number)."""
    context: Mapping[str, IntArray]
    """What the broken-rule report needs: meetings, period meetings, last round, balances,
    runs."""

    @property
    def needs_bye(self) -> bool:
        return len(self.players) % 2 == 1

    def edge(self, a: int, b: int) -> int:
        """Index of the edge between players a and b (any order)."""
        k = edge_index(len(self.players), a, b, self.within)
        if k is None:
            raise KeyError(f"players {a} and {b} are more than {self.within} places apart")
        return k

    def bye_tiers(self) -> IntArray:
        out = np.zeros((len(self.players), len(Tier)), dtype=np.int64)
        out[:, Tier.BYE] = self.bye_broken
        return out


def _history(request: PairingRequest, index: dict[str, int], edges: int,
             within: int | None) -> tuple[IntArray, IntArray, IntArray, BoolArray]:
    """The meetings so far, per board of the table: how often its players met, how often in
    this round's period, the round they last met, and whether the upper player (i) had
    white then. One numpy pass over the season's games."""
    n, rules = len(index), request.rules
    games = [(index[m.white], index[m.black], m.round) for m in request.meetings
             if m.white in index and m.black in index]
    w, b, rounds = (np.array(column, dtype=np.int64) for column in zip(*games, strict=True)) \
        if games else (np.zeros(0, dtype=np.int64),) * 3
    upper, lower = np.minimum(w, b), np.maximum(w, b)
    width = _width(n, within)
    here = lower - upper <= width
    w, upper, rounds = w[here], upper[here], rounds[here]
    e = _position(n, upper, lower[here], width)
    met = np.bincount(e, minlength=edges).astype(np.int64)
    periods = np.minimum((rounds - 1) // rules.rounds_per_period + 1, rules.periods)
    met_period = np.bincount(e, weights=periods == rules.period_of(request.round),
                             minlength=edges).astype(np.int64)
    last = np.zeros(edges, dtype=np.int64)
    np.maximum.at(last, e, rounds)
    final = rounds == last[e]  # a pair meets at most once a round
    upper_white = np.zeros(edges, dtype=np.bool_)
    upper_white[e[final]] = w[final] == upper[final]
    return met, met_period, last, upper_white


def evaluate(request: PairingRequest, within: int | None = None, *,
             apart_allowed: bool = False) -> EdgeTable:
    """Price every board of the round, or with `within` only those of players at most that
    many places apart (not with boards the arbiter fixed, which may be far); raises
    InvalidInputError for unusable fixes. The boards of pairs kept apart are left out, as the
    arbiter's forbidden boards are, unless `apart_allowed`: then they cost a rule of the
    first tier (for when no pairing keeps them apart)."""
    _check(request)
    rules, fixes = request.rules, request.fixes
    place = {pid: k + 1 for k, pid in enumerate(request.ranking)}
    players = tuple(sorted(request.present - fixes.leave_out, key=place.__getitem__))
    index = {pid: k for k, pid in enumerate(players)}
    n = len(players)
    rank = np.array([place[p] for p in players], dtype=np.int64)
    if within is not None and (within >= n - 1 or fixes.boards):
        within = None
    i, j = _boards(n, within)

    met_ij, met_period_ij, last_ij, last_white_ij = _history(request, index, len(i), within)

    balance = np.array([_balance(request.colours.get(p, ())) for p in players], dtype=np.int64)
    run_colour, run_length = (np.array(a, dtype=np.int64) for a in zip(
        *(_run(request.colours.get(p, ())) for p in players), strict=True)) if n else \
        (np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64))

    # Colour rules per player and colour (+1 white, -1 black).
    def colour_broken(colour: int) -> tuple[IntArray, IntArray]:
        diff = np.zeros(n, dtype=np.int64)
        if rules.max_colour_difference is not None:
            diff = (np.abs(balance + colour) > rules.max_colour_difference).astype(np.int64)
        run = np.zeros(n, dtype=np.int64)
        if rules.max_same_colour_run is not None:
            run = ((run_colour == colour) & (run_length >= rules.max_same_colour_run)) \
                .astype(np.int64)
        return diff, run

    (diff_w, run_w), (diff_b, run_b) = colour_broken(1), colour_broken(-1)
    rematch_on = rules.rematch_reverses_colours
    # Orientation A: i white. B: j white.
    rem_a = (rematch_on & (met_ij > 0) & last_white_ij).astype(np.int64)
    rem_b = (rematch_on & (met_ij > 0) & ~last_white_ij).astype(np.int64)
    # Of the colour rules, the balance and the run ("nooit") come before a rematch's reversed
    # colours: with as many broken either way, the colouring that keeps them wins.
    hard_a = diff_w[i] + run_w[i] + diff_b[j] + run_b[j]
    hard_b = diff_w[j] + run_w[j] + diff_b[i] + run_b[i]
    col_a, col_b = hard_a + rem_a, hard_b + rem_b
    pref_a, pref_b = _preferences(request, balance, i, j, met_ij, rem_a, rem_b)
    i_white = (col_a < col_b) | ((col_a == col_b) & (
        (hard_a < hard_b) | ((hard_a == hard_b) & (pref_a <= pref_b))))

    allowed = np.ones(len(i), dtype=np.bool_)
    fixed_players = [index[pid] for board in fixes.boards for pid in board]
    if fixed_players:
        allowed &= ~(np.isin(i, fixed_players) | np.isin(j, fixed_players))
    for fixed_white, fixed_black in fixes.boards:
        w, b = index[fixed_white], index[fixed_black]
        fixed = edge_index(n, w, b)
        assert fixed is not None  # with fixed boards the table holds every board
        allowed[fixed] = True
        i_white[fixed] = w < b  # the arbiter's colours, whatever they cost
    for pair in fixes.forbidden:
        first, second = (index[pid] for pid in pair)
        forbidden = edge_index(n, first, second, within)
        if forbidden is not None:
            allowed[forbidden] = False

    kept_apart = _apart(request, index, within, len(i))
    if not apart_allowed:
        allowed &= kept_apart == 0

    def pick(a: IntArray, b: IntArray) -> IntArray:
        return np.where(i_white, a, b)

    distance = rank[j] - rank[i]
    counts = {
        "kept_apart": kept_apart,
        "max_meetings": _over(met_ij + 1, rules.max_meetings),
        "per_period": _over(met_period_ij + 1, rules.per_period)
        * ~_top_exception(request, rank[i], rank[j]),
        "min_rounds_between": ((met_ij > 0) & (request.round - last_ij
                                                <= (rules.min_rounds_between or 0))
                               ).astype(np.int64) * (rules.min_rounds_between is not None),
        "max_rank_distance": _over(distance, rules.max_rank_distance),
        "diff_white": pick(diff_w[i], diff_w[j]),
        "diff_black": pick(diff_b[j], diff_b[i]),
        "run_white": pick(run_w[i], run_w[j]),
        "run_black": pick(run_b[j], run_b[i]),
        "rematch": pick(rem_a, rem_b),
    }
    counts = {k: v.astype(np.int64, copy=False) for k, v in counts.items()}

    byes = np.array([request.byes.get(p, 0) for p in players], dtype=np.int64)
    due = _due_bye(players, byes) if n % 2 else None
    bye_allowed = np.full(n, n % 2 == 1)
    bye_allowed[list(fixed_players)] = False
    if fixes.bye is not None:
        bye_allowed[:] = False
        bye_allowed[index[fixes.bye]] = True
    position_from_bottom = np.arange(n - 1, -1, -1, dtype=np.int64)
    fewest = byes.min() if n else 0
    bye_preference = np.minimum(byes - fewest, 7) * n + position_from_bottom
    bye_broken = np.array([p != due for p in players], dtype=np.int64)
    if fixes.bye is not None:
        # A volunteer is the arbiter's choice: it breaks nothing.
        bye_broken[:] = 0
        bye_preference[:] = 0

    return EdgeTable(
        players=players, within=within, rank=rank, i=i, j=j, i_white=i_white, allowed=allowed,
        counts=counts, tiers=_tiers(counts),
        distance2=distance * distance, preference=pick(pref_a, pref_b),
        tie=_tie_break(rank[i], rank[j]), bye_allowed=bye_allowed, bye_broken=bye_broken,
        bye_preference=bye_preference, bye_tie=_tie_break(rank, np.zeros(n, dtype=np.int64)),
        due_bye=due,
        context={"met": met_ij, "met_period": met_period_ij, "last": last_ij,
                 "balance": balance, "run_colour": run_colour, "run_length": run_length},
    )


def _tiers(c: Mapping[str, IntArray]) -> IntArray:
    """The counts per tier, columns in Tier order (`EdgeTable.tiers`)."""
    colour = sum((c[p] for p in COLOUR_PARTS), np.zeros_like(c["max_meetings"]))
    return np.stack([c["kept_apart"], c["max_meetings"],
                     c["per_period"] + c["min_rounds_between"], colour,
                     np.zeros_like(colour), c["max_rank_distance"]], axis=1)


def _apart(request: PairingRequest, index: dict[str, int], within: int | None,
           edges: int) -> IntArray:
    """Per edge, 1 where the arbiter keeps its two players apart."""
    out = np.zeros(edges, dtype=np.int64)
    for pair in request.apart:
        if len(pair) == 2 and pair <= index.keys():
            first, second = (index[pid] for pid in pair)
            k = edge_index(len(index), first, second, within)
            if k is not None:
                out[k] = 1
    return out


def _boards(n: int, within: int | None) -> tuple[IntArray, IntArray]:
    """Every board (i above j) of players at most `within` places apart, row by row: the
    order of `np.triu_indices(n, 1)` with the far boards left out."""
    if within is None:
        upper, lower = np.triu_indices(n, 1)
        return upper.astype(np.int64, copy=False), lower.astype(np.int64, copy=False)
    i = np.repeat(np.arange(n, dtype=np.int64), within)
    j = i + np.tile(np.arange(1, within + 1, dtype=np.int64), n)
    near = j < n
    return i[near], j[near]


def edge_index(n: int, a: int, b: int, within: int | None = None) -> int | None:
    """Where the board of players a and b sits in `_boards(n, within)`; None if they are
    more than `within` places apart."""
    i, j = min(a, b), max(a, b)
    width = _width(n, within)
    return None if j - i > width else int(_position(n, i, j, width))


def _width(n: int, within: int | None) -> int:
    return n - 1 if within is None else min(within, n - 1)


def _position(n: int, i: _Places, j: _Places, width: int) -> _Places:
    """`edge_index` for boards i < j at most `width` apart, on numbers or arrays alike."""
    # The first n - width rows hold `width` boards each; the u later rows before row i hold
    # width - 1, width - 2, ... boards.
    late = i - (n - width)
    u = (late + abs(late)) // 2
    position: _Places = i * width - u * (u + 1) // 2 + (j - i - 1)
    return position


def _balance(colours: tuple[Colour, ...]) -> int:
    return 2 * colours.count(Colour.WHITE) - len(colours)


def _run(colours: tuple[Colour, ...]) -> tuple[int, int]:
    """(colour of the current run as +1/-1/0, its length)."""
    if not colours:
        return 0, 0
    length = 1
    while length < len(colours) and colours[-1 - length] is colours[-1]:
        length += 1
    return (1 if colours[-1] is Colour.WHITE else -1), length


def _over(count: IntArray, limit: int | None) -> IntArray:
    if limit is None:
        return np.zeros_like(count)
    return (count > limit).astype(np.int64)


def _top_exception(request: PairingRequest, rank_i: IntArray, rank_j: IntArray) -> BoolArray:
    exception = request.rules.top_exception
    if exception is None or request.round < exception.from_round:
        return np.zeros(len(rank_i), dtype=np.bool_)
    return (rank_i <= exception.top) & (rank_j <= exception.top)


def _preferences(request: PairingRequest, balance: IntArray, i: IntArray, j: IntArray,
                 met: IntArray, rem_a: IntArray, rem_b: IntArray) -> tuple[IntArray, IntArray]:
    """1 where an orientation goes against preference: the lower balance gets white; equal
    balance, the higher-placed gets `equal_balance_higher_gets`; a rematch reverses colours."""
    higher_white = request.rules.equal_balance_higher_gets is Colour.WHITE
    i_wants_white = (balance[i] < balance[j]) | ((balance[i] == balance[j]) & higher_white)
    pref_a = (~i_wants_white).astype(np.int64)
    pref_b = i_wants_white.astype(np.int64)
    if request.rules.rematch_reverses_colours:
        rematch = met > 0
        pref_a = np.where(rematch, rem_a, pref_a)
        pref_b = np.where(rematch, rem_b, pref_b)
    return pref_a, pref_b


def _due_bye(players: tuple[str, ...], byes: IntArray) -> str:
    """The lowest-placed player among those with the fewest byes."""
    fewest = byes.min()
    return next(players[k] for k in range(len(players) - 1, -1, -1) if byes[k] == fewest)


def _tie_break(a: IntArray, b: IntArray) -> IntArray:
    """A fixed pseudo-random weight per pair of places (splitmix64), TIE_BITS wide."""
    with np.errstate(over="ignore"):
        x = a.astype(np.uint64) * np.uint64(0x9E3779B97F4A7C15) + b.astype(np.uint64) \
            * np.uint64(0xBF58476D1CE4E5B9) + np.uint64(0x94D049BB133111EB)
        x = (x ^ (x >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        x = (x ^ (x >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
        x = x ^ (x >> np.uint64(31))
    return (x >> np.uint64(64 - TIE_BITS)).astype(np.int64)


def _check(request: PairingRequest) -> None:
    problems = Problems()
    fixes = request.fixes
    ranked = set(request.ranking)
    if len(request.ranking) > MAX_PLAYERS:
        problems.add("ranking", ProblemCode.OUT_OF_RANGE, value=len(request.ranking),
                     high=MAX_PLAYERS)
    for pid in sorted(request.present - ranked):
        problems.add("present", ProblemCode.UNKNOWN_PLAYER, player=pid)
    playing = request.present - fixes.leave_out
    seen: set[str] = set()
    for k, board in enumerate(fixes.boards):
        for pid in board:
            if pid not in playing:
                problems.add(f"fixes.boards[{k}]", ProblemCode.PLAYER_NOT_ACTIVE, player=pid)
            elif pid in seen:
                problems.add(f"fixes.boards[{k}]", ProblemCode.PLAYER_TWICE, player=pid)
            seen.add(pid)
        if board[0] == board[1]:
            problems.add(f"fixes.boards[{k}]", ProblemCode.SELF_PAIRED, player=board[0])
    for pair in fixes.forbidden:
        for pid in sorted(pair - playing):
            problems.add("fixes.forbidden", ProblemCode.PLAYER_NOT_ACTIVE, player=pid)
    if fixes.bye is not None:
        if fixes.bye not in playing or fixes.bye in seen:
            problems.add("fixes.bye", ProblemCode.PLAYER_NOT_ACTIVE, player=fixes.bye)
        elif len(playing) % 2 == 0:
            problems.add("fixes.bye", ProblemCode.BAD_VALUE, value=fixes.bye,
                         expected=Expected.ODD_PLAYERS)
    if problems:
        raise InvalidInputError(problems.items)


__all__ = ["COLOUR_PARTS", "EdgeTable", "Rule", "evaluate"]
