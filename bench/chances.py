"""What is at stake (`/stand kansen`, the season page's chart): the time to work out the
chances of a season halfway, and the fifth's next round, by the club's size. Prints a
markdown table.

    uv run python bench/chances.py
"""

from __future__ import annotations

import random
import time
from dataclasses import replace

from core.chances import chances, next_round, runs_for
from core.season import Player, Season
from core.simulation import simulate
from core.standings import compute_standings


def season(players: int, rounds: int) -> Season:
    """A club of `players` halfway through a season of `rounds` rounds."""
    rng = random.Random(players)
    members = tuple(Player(f"p{k:03d}", f"Speler {k:03d}", rating=rng.randint(1100, 2200))
                    for k in range(players))
    played = simulate(rng, rules={"preset": "sliedrecht", "planned_rounds": rounds,
                                  "period_length": rounds},
                      players=members, rounds=rounds // 2)
    return replace(played, planned_rounds=rounds)


def main() -> None:
    print("| players × rounds (half played) | runs | seconds | ms per run | next round (s) "
          "| every way tried |")
    print("|---|---|---|---|---|---|")
    for players, rounds in ((30, 30), (60, 30), (120, 34), (250, 40)):
        made = season(players, rounds)
        start = time.perf_counter()
        found = chances(made)
        took = time.perf_counter() - start
        assert found.runs == runs_for(made)
        fifth = compute_standings(made).ranking[4]
        start = time.perf_counter()
        upcoming = next_round(made, fifth)
        searched = time.perf_counter() - start
        print(f"| {players} × {rounds} | {found.runs} | {took:.1f} | "
              f"{1000 * took / found.runs:.0f} | {searched:.1f} | "
              f"{'yes' if upcoming and upcoming.exact else 'no'} |")


if __name__ == "__main__":
    main()
