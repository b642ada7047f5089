"""The fast exact engine: one maximum-weight perfect matching (Edmonds' blossom, rustworkx).

The lexicographic objective is packed into one integer per edge, most important field
highest, each field wide enough for its total over a whole round of MAX_PLAYERS, so no sum of
lower fields can ever outweigh one unit of a higher field. rustworkx computes in 128-bit
integers; the packed cost stays below 2^124.

A round of N players has N²/2 boards, and the blossom's time grows with them. Almost all are
far apart and cannot be in the optimum, so the engine matches on a few boards first: those that
break no rule when the rules leave few of them (a rule of distance does), else each player's
cheapest boards. Then it proves with a bound which of the other boards could still take part in
a pairing at least as good. When none could, that pairing is the optimum; otherwise it matches
once more on every board the bound keeps. Either way the result is the optimum over all boards.

Pricing every board costs as much again, so a large round is first priced only for players at
most BAND places apart. The same bound then has to prove that no board beyond the band can
help; when it cannot, `solve` asks for a wider band (`Wider`), at last for every board.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import rustworkx as rx

from core.pairing.evaluate import (
    TIE_WIDTH,
    TIER_WIDTHS,
    BoolArray,
    EdgeTable,
    IntArray,
    tier_weights,
)
from core.pairing.model import PairingRequest, Tier
from core.pairing.selection import Selection

_PREFERENCE = 14   # colour preference per board + the bye's preference (<= 8000)
_DISTANCE2 = 29    # at most 501 boards x 999^2
_D2_SHIFT = TIE_WIDTH + _PREFERENCE
_LOW = _D2_SHIFT + _DISTANCE2
_PACKED = slice(int(Tier.MEETINGS), len(TIER_WIDTHS))
"""The tiers the matching weighs. A board of a pair kept apart is none of its boards
(`evaluate` leaves it out), so the first tier is 0 on every board it has; without it the
packed cost fits rustworkx's 128-bit weights."""
_TOP = _LOW + sum(TIER_WIDTHS[_PACKED])

NEAREST = 4
"""Boards per player in the first matching: his cheapest ones. The first matching only sets
the bound (the second proves the optimum); four give the same pairing as six on every stored
round of 100 to 401 players, and save a millisecond at 400 (docs/performance.md)."""
KEEPING_PER_NODE = 12
"""The first matching is on the boards that break no rule when there are at most this many per
node: a pairing of them breaks no rule, so the bound leaves none of the other boards, and the
one matching on them is cheaper than a first matching on each player's cheapest boards and a
second on what the bound keeps (docs/performance.md)."""
PRUNE_FROM = 60
"""Below this many players one matching on every board is as fast (bench/pairing.py)."""
BAND = 24
"""Places apart of the boards priced first in a large round. The band proves a pairing that
breaks no rule optimal once 2·((BAND + 1)² - the largest floor) exceeds the pairing's slack
(`_past_the_band`); in the stored rounds of 100 to 401 players the slack stays under 800
and the largest floor under 101."""


@dataclass(frozen=True, slots=True)
class Wider:
    """The band could not prove the optimum: price the boards of players at most `within`
    places apart (None: every board) and solve again."""

    within: int | None


def first_band(request: PairingRequest) -> int | None:
    """The band to price first (None: every board)."""
    return BAND if len(request.present - request.fixes.leave_out) >= PRUNE_FROM else None


@dataclass(frozen=True, slots=True)
class Costs:
    """The objective's fields per board, the bye as one more node (index n) with its boards
    after the players' ones."""

    a: IntArray
    b: IntArray
    fields: IntArray
    """One row per board: the broken rules per tier, distance², colour preference, tie-break;
    the order in which they count."""
    source: IntArray
    """Per board: its edge in the table, or the player given the bye."""
    allowed: BoolArray
    board: IntArray
    """Node by node: the allowed board between them, -1 if none."""


def build(table: EdgeTable) -> Costs:
    """Every board of the round, a bye board per player when the number is odd."""
    n = len(table.players)
    edge_fields = np.column_stack([table.tiers, table.distance2, table.preference, table.tie])
    parts = [(table.i, table.j, edge_fields, np.arange(len(table.i)), table.allowed)]
    if table.needs_bye:
        players = np.arange(n, dtype=np.int64)
        bye_fields = np.column_stack([table.bye_tiers(), np.zeros(n, dtype=np.int64),
                                      table.bye_preference, table.bye_tie])
        parts.append((players, np.full(n, n, dtype=np.int64), bye_fields, players,
                      table.bye_allowed))
    a, b, fields, source, allowed = (np.concatenate(column) for column in zip(*parts,
                                                                            strict=True))
    m = n + (1 if table.needs_bye else 0)
    board = np.full((m, m), -1, dtype=np.int64)
    usable = allowed.nonzero()[0]
    board[a[usable], b[usable]] = board[b[usable], a[usable]] = usable
    return Costs(a, b, fields.astype(np.int64, copy=False), source, allowed, board)


def solve(table: EdgeTable, costs: Costs, *, prune: bool = True) -> Selection | Wider | None:
    """The optimal boards and bye; None if the arbiter's fixes leave no complete pairing;
    Wider when the table is a band that cannot prove the optimum. Without `prune`, one
    matching on every board (what the pruning is checked against)."""
    keys = _keys(costs) if prune and _nodes(table) >= PRUNE_FROM else None
    if keys is None:
        return _on_every_board(table, costs)
    floor, near = _cheapest(costs, keys)
    if floor is None:
        return _on_every_board(table, costs)
    first, matched_on = _first(table, costs, near)
    if first is None:
        return _on_every_board(table, costs)
    if table.within is not None:
        wider = _past_the_band(table, costs, floor, first)
        if wider is not None:
            return wider
    if matched_on is near:
        keep = _may_improve(costs, floor, first)
        if (keep & ~near).any():
            return _selection(table, costs, _match(table, costs, keep))
    # Else it was made on every board that breaks no rule and breaks none: each other board
    # breaks one, so no pairing with it is as good, and no bound need say so.
    return _selection(table, costs, first)


def _first(table: EdgeTable, costs: Costs, near: BoolArray) \
        -> tuple[list[int] | None, BoolArray]:
    """The first matching and the boards it is made on: the boards that break no rule when
    they are few, else each node's cheapest. When those few hold no pairing, no pairing of
    this table keeps every rule: a band then proves nothing (None: `_past_the_band` needs a
    pairing that keeps them all, and a wider table may hold one), and on every board the
    first matching is on each node's cheapest."""
    nodes = _nodes(table)
    keeping = costs.allowed & ~costs.fields[:, :len(TIER_WIDTHS)].any(axis=1)
    if keeping.sum() > KEEPING_PER_NODE * nodes:
        return _match(table, costs, near), near
    ends = np.bincount(np.concatenate([costs.a[keeping], costs.b[keeping]]), minlength=nodes)
    # A node without such a board is a quick "none": it saves a matching bound to fail.
    matching = _match(table, costs, keeping) if ends.all() else None
    if matching is not None or table.within is not None:
        return matching, keeping
    return _match(table, costs, near), near


def _on_every_board(table: EdgeTable, costs: Costs) -> Selection | Wider | None:
    if table.within is not None:
        return Wider(None)
    return _selection(table, costs, _match(table, costs, costs.allowed))


def _nodes(table: EdgeTable) -> int:
    return len(table.players) + (1 if table.needs_bye else 0)


def _keys(costs: Costs) -> IntArray | None:
    """Per board, one integer ordered as its fields are, the tie-break left out (it only
    makes the bound below weaker); None when they do not fit 63 bits."""
    fields = costs.fields[:, :-1]
    widths = [int(column.max(initial=0)).bit_length() for column in fields.T]
    if sum(widths) > 62:
        return None
    key = np.zeros(len(fields), dtype=np.int64)
    for column, width in zip(fields.T, widths, strict=True):
        key = (key << width) | column
    return key


def _cheapest(costs: Costs, keys: IntArray) -> tuple[IntArray | None, BoolArray]:
    """Per node, the fields of its cheapest board (None when a node has no board at all), and
    each node's NEAREST cheapest boards. Read from the boards' ends sorted by node, then key:
    the band's few boards per node, not a node-by-node grid."""
    usable = costs.allowed.nonzero()[0]
    board = np.concatenate([usable, usable])
    node = np.concatenate([costs.a[usable], costs.b[usable]])
    by_key = np.argsort(keys[board], kind="stable")
    order = by_key[np.argsort(node[by_key], kind="stable")]
    node, board = node[order], board[order]
    starts = np.searchsorted(node, np.arange(len(costs.board)))
    near = np.zeros(len(costs.a), dtype=np.bool_)
    near[board[np.arange(len(node)) - starts[node] < NEAREST]] = True
    if (np.diff(np.append(starts, len(node))) == 0).any():
        return None, near
    floor: IntArray = costs.fields[board[starts]]
    return floor, near


def _may_improve(costs: Costs, floor: IntArray, matching: list[int]) -> BoolArray:
    """The boards that could be in a pairing at least as good as `matching`.

    A pairing with board e costs at least e plus, for every other node, half its floor (a
    board costs at least as much as either end's cheapest one). Board e is dropped when twice
    that bound already exceeds twice the matching's cost. Sums and comparisons are field by
    field, most important first: the order of the packed objective."""
    over = np.zeros(len(costs.a), dtype=np.bool_)
    undecided = np.ones(len(costs.a), dtype=np.bool_)
    # The tie-break is left out (the keys left it out); so is a field no board has, where
    # every bound equals the limit (0).
    for column in range(costs.fields.shape[1] - 1):
        field = costs.fields[:, column]
        if not field.any():
            continue
        cheapest = floor[:, column]
        bound = 2 * field + cheapest.sum() - cheapest[costs.a] - cheapest[costs.b]
        limit = 2 * field[matching].sum()
        over |= undecided & (bound > limit)
        undecided &= bound == limit
    return costs.allowed & ~over


_FAR = np.int64(1) << 60
"""Stands for "no player beyond the band on this side"; two of them still fit 63 bits."""


def _past_the_band(table: EdgeTable, costs: Costs, floor: IntArray, matching: list[int]) \
        -> Wider | None:
    """None when no board beyond the table's band can be in a pairing as good as
    `matching`; else the band that would prove it.

    The bound of `_may_improve`, for the boards not priced. It needs a matching that breaks
    no rule: then so does each node's cheapest board in the band (his own board is one),
    and it is cheaper than any board beyond, which lies further apart. A far board e = (a, b)
    then ties in the tiers, and in distance² its bound exceeds the limit when 2·d(e)² - floor
    (a) - floor(b) exceeds the matching's slack (twice its distance² less the floors' sum).
    As d(e)² is at least the distance² to either end's nearest player beyond the band, one
    pass over the players checks every far board."""
    assert table.within is not None
    tiers = len(TIER_WIDTHS)
    if costs.fields[matching, :tiers].any():
        return Wider(None)  # a far board might keep the rule: no bound says how far
    n, within = len(table.players), table.within
    floor_d2 = floor[:, tiers]
    slack = 2 * int(costs.fields[matching, tiers].sum()) - int(floor_d2.sum())
    gap = (table.rank[within + 1:] - table.rank[:n - within - 1]) ** 2
    beyond = np.full(n, _FAR)
    beyond[:n - within - 1] = gap
    beyond[within + 1:] = np.minimum(beyond[within + 1:], gap)
    spare = beyond - floor_d2[:n]
    # For a above b beyond his band, b >= a + within + 1: the least spare from there down.
    least_below = np.minimum.accumulate(spare[::-1])[::-1]
    if int((spare[:n - within - 1] + least_below[within + 1:]).min()) > slack:
        return None
    # Every far board is at least within + 1 places apart; this width is enough.
    width = math.isqrt(-(-slack // 2) + int(floor_d2[:n].max()))
    return Wider(width if width < n - 1 else None)


def _match(table: EdgeTable, costs: Costs, use: BoolArray) -> list[int] | None:
    """The maximum-weight perfect matching on the boards in `use`, as board indices; None if
    they hold no perfect matching."""
    boards = use.nonzero()[0]
    graph = rx.PyGraph()
    graph.add_nodes_from(range(_nodes(table)))
    graph.add_edges_from(list(zip(costs.a[boards].tolist(), costs.b[boards].tolist(),
                                  _weights(costs.fields[boards]), strict=True)))
    matching = rx.max_weight_matching(graph, max_cardinality=True, weight_fn=int)
    if 2 * len(matching) != _nodes(table):
        return None
    return [int(costs.board[x, y]) for x, y in matching]


def _selection(table: EdgeTable, costs: Costs, matching: list[int] | None) -> Selection | None:
    if matching is None:
        return None
    n = len(table.players)
    edges = sorted(int(costs.source[k]) for k in matching if costs.b[k] != n)
    bye = next((int(costs.source[k]) for k in matching if costs.b[k] == n), None)
    return Selection(tuple(edges), bye)


def _weights(fields: IntArray) -> list[tuple[int, int]]:
    """Maximum-weight form of the packed cost: (2^_TOP - cost), always positive. The fields
    are combined in numpy where they fit 64 bits; only the final join is Python integers."""
    tiers = fields[:, _PACKED]
    distance2, preference, tie = fields[:, -3], fields[:, -2], fields[:, -1]
    high = tiers @ np.array(tier_weights()[_PACKED], dtype=np.int64)
    low = (preference << TIE_WIDTH) | tie
    top = 1 << _TOP
    return [top - ((h << _LOW) | (d << _D2_SHIFT) | lo)
            for h, d, lo in zip(high.tolist(), distance2.tolist(), low.tolist(), strict=True)]
