"""The fast exact engine: one maximum-weight perfect matching (Edmonds' blossom, rustworkx).

The lexicographic objective is packed into one integer per edge, most important field
highest, each field wide enough for its total over a whole round of MAX_PLAYERS, so no sum of
lower fields can ever outweigh one unit of a higher field. rustworkx computes in 128-bit
integers; the packed cost stays below 2^124.
"""

from __future__ import annotations

import numpy as np
import rustworkx as rx

from core.pairing.evaluate import TIE_WIDTH, TIER_WIDTHS, EdgeTable, IntArray, tier_weights
from core.pairing.selection import Selection

_PREFERENCE = 14   # colour preference per board + the bye's preference (<= 8000)
_DISTANCE2 = 29    # at most 501 boards x 999^2
_D2_SHIFT = TIE_WIDTH + _PREFERENCE
_LOW = _D2_SHIFT + _DISTANCE2
_TOP = _LOW + sum(TIER_WIDTHS)


def build(table: EdgeTable) -> rx.PyGraph:
    """The round as a graph: a node per player, one for the bye, an edge per allowed board."""
    n = len(table.players)
    graph = rx.PyGraph()
    graph.add_nodes_from(range(n + 1))  # node n: the bye
    tiers = table.tiers()
    allowed = table.allowed.nonzero()[0]
    weights = _weights(tiers[allowed], table.distance2[allowed], table.preference[allowed],
                       table.tie[allowed])
    graph.add_edges_from(list(zip(table.i[allowed].tolist(), table.j[allowed].tolist(),
                                  weights, strict=True)))
    if table.needs_bye:
        bye_players = table.bye_allowed.nonzero()[0]
        bye_weights = _weights(table.bye_tiers()[bye_players],
                               np.zeros(len(bye_players), dtype=np.int64),
                               table.bye_preference[bye_players], table.bye_tie[bye_players])
        graph.add_edges_from([(int(p), n, w) for p, w in zip(bye_players, bye_weights,
                                                             strict=True)])
    return graph


def solve(table: EdgeTable, graph: rx.PyGraph) -> Selection | None:
    """The optimal boards and bye; None if the arbiter's fixes leave no complete pairing."""
    n = len(table.players)
    matching = rx.max_weight_matching(graph, max_cardinality=True, weight_fn=int)
    if 2 * len(matching) != n + (1 if table.needs_bye else 0):
        return None
    edges, bye = [], None
    for a, b in matching:
        if n in (a, b):
            bye = a if b == n else b
        else:
            edges.append(table.edge(a, b))
    return Selection(tuple(sorted(edges)), bye)


def _weights(tiers: IntArray, distance2: IntArray, preference: IntArray,
             tie: IntArray) -> list[int]:
    """Maximum-weight form of the packed cost: (2^_TOP - cost), always positive. The fields
    are combined in numpy where they fit 64 bits; only the final join is Python integers."""
    high = tiers @ np.array(tier_weights(), dtype=np.int64)
    low = (preference.astype(np.int64) << TIE_WIDTH) | tie
    top = 1 << _TOP
    return [top - ((h << _LOW) | (d << _D2_SHIFT) | lo)
            for h, d, lo in zip(high.tolist(), distance2.tolist(), low.tolist(), strict=True)]
