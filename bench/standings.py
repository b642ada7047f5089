"""Standings benchmark: a 60-player, 30-round season, standings recomputed from scratch after
every round (as after a correction), per revaluation mode. Prints a markdown table.

    uv run python bench/standings.py
"""

from __future__ import annotations

import random
import statistics
import time
from dataclasses import replace

from core.rules import Revaluation
from core.season import Player, Season
from core.simulation import simulate
from core.standings import compute_standings, standings_history


def season() -> Season:
    rng = random.Random(60)
    players = tuple(Player(f"p{k:02d}", f"Speler {k:02d}", rating=rng.randint(1100, 2200))
                    for k in range(60))
    return simulate(rng, rules="sliedrecht", players=players, rounds=30)


def main() -> None:
    base = season()
    print("Standings of a 60-player, 30-round season (ms per recompute from scratch after "
          "round R, R = 1..30)\n")
    print("| revaluation | median | p95 | max | whole history in one walk |")
    print("|---|---|---|---|---|")
    for mode in Revaluation:
        s = replace(base, rules=replace(base.rules, revaluation=mode))
        times = []
        for after in range(1, 31):
            start = time.perf_counter()
            compute_standings(s, after)
            times.append(time.perf_counter() - start)
        start = time.perf_counter()
        standings_history(s)
        walk = time.perf_counter() - start
        ordered = sorted(times)
        p95 = ordered[round(0.95 * (len(ordered) - 1))]
        print(f"| {mode.value} | {statistics.median(times) * 1000:.1f} | {p95 * 1000:.1f} "
              f"| {ordered[-1] * 1000:.1f} | {walk * 1000:.1f} |")


if __name__ == "__main__":
    main()
