"""The traditional pairing, kept as the baseline to measure against: the bye to whom the bye
rule names, then top-down, each highest unpaired player against the nearest opponent that
keeps every rule, backtracking when the rest cannot be paired. It gives up after
NODE_LIMIT tries, as club programs do."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from core.pairing.evaluate import EdgeTable
from core.pairing.selection import Selection

NODE_LIMIT = 200_000


def build(table: EdgeTable) -> npt.NDArray[np.bool_]:
    """Per edge: does this board keep every rule?"""
    legal: npt.NDArray[np.bool_] = table.allowed & (table.tiers.sum(axis=1) == 0)
    return legal


def solve(table: EdgeTable, legal: npt.NDArray[np.bool_]) -> Selection | None:
    """A pairing keeping every rule, or None (none exists, or the search gave up)."""
    n = len(table.players)
    bye = None
    if table.needs_bye:
        candidates = [p for p in range(n) if table.bye_allowed[p] and not table.bye_broken[p]]
        if not candidates:
            return None
        bye = candidates[0]
    free = [p for p in range(n) if p != bye]
    rank = table.rank.tolist()
    options = {p: _nearest_first(p, [q for q in free if q != p and legal[table.edge(p, q)]],
                                 rank)
               for p in free}
    paired: set[int] = set()
    chosen: list[int] = []
    nodes = 0

    def search() -> bool:
        nonlocal nodes
        top = next((p for p in free if p not in paired), None)
        if top is None:
            return True
        for other in options[top]:
            if other in paired:
                continue
            nodes += 1
            if nodes > NODE_LIMIT:
                return False
            paired.update((top, other))
            chosen.append(table.edge(top, other))
            if search():
                return True
            paired.difference_update((top, other))
            chosen.pop()
        return False

    if not search():
        return None
    return Selection(tuple(sorted(chosen)), bye)


def _nearest_first(player: int, others: list[int], rank: list[int]) -> list[int]:
    return sorted(others, key=lambda q: (abs(rank[q] - rank[player]), rank[q]))
