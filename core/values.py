"""The value ladders: from a ranking (and, for `score`, the scores) to each player's value."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction

from core.rules import Ladder, Rules

Valuation = Mapping[str, Fraction]
"""Player id -> value, for every player in a ranking."""


def valuation(rules: Rules, ranking: Sequence[str],
              scores: Mapping[str, Fraction] | None = None) -> dict[str, Fraction]:
    """Values for `ranking` (best first). `scores` are the unrounded scores behind it; the
    `score` ladder needs them and falls back to `spread` without them (before round 1).
    Players of the ranking without a score (late joiners) enter at the lowest score."""
    n = len(ranking)
    top = rules.top_value.resolve(n)
    if rules.ladder is Ladder.STEP:
        return {pid: max(rules.min_value, top - k * rules.step) for k, pid in enumerate(ranking)}
    bottom = rules.bottom_value
    if rules.ladder is Ladder.SCORE and scores:
        low, high = min(scores.values()), max(scores.values())
        if high == low:
            return dict.fromkeys(ranking, top)
        scale = (top - bottom) / (high - low)
        return {pid: bottom + scale * (scores.get(pid, low) - low) for pid in ranking}
    if n == 1:
        return {ranking[0]: top}
    spread = (top - bottom) / (n - 1)
    return {pid: top - spread * k for k, pid in enumerate(ranking)}
