"""Standings benchmark: a 60-player, 30-round season, standings recomputed from scratch after
every round (as after a correction), per revaluation mode. Prints a markdown table.

    uv run python bench/standings.py
    uv run python bench/standings.py --store /tmp/startbench/season-5000x76.db

With `--store` (a club's database, such as the one `bench/start.py --keep` builds), the
season in it instead: how long its read takes (as stored, and through the season file's
checks) and its standings after a correction of round 1 (every round priced anew).
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import time
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

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


def stored(path: Path) -> None:
    from core.season import season_from_data
    from storage.seasons import season_data, stored_season
    from storage.store import open_store

    async def read() -> tuple[Season, float, float]:
        db = await open_store(path)
        try:
            start = time.perf_counter()
            season = await stored_season(db.reader)
            trusted = time.perf_counter() - start
            start = time.perf_counter()
            season_from_data(await season_data(db.reader))
            return season, trusted, time.perf_counter() - start
        finally:
            await db.close()
    season, trusted, checked = asyncio.run(read())
    print(f"A {len(season.players)}-player season after {len(season.rounds) - 1} rounds "
          f"({path.name}), seconds\n")
    print("| what | s |\n|---|---|")
    print(f"| read as stored | {trusted:.2f} |\n| read through the file's checks | {checked:.2f} |")
    for mode in Revaluation:
        start = time.perf_counter()
        compute_standings(replace(season, rules=replace(season.rules, revaluation=mode)))
        print(f"| standings, {mode.value} | {time.perf_counter() - start:.2f} |")


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--store", type=Path, default=None)
    given = parser.parse_args()
    if given.store is None:
        main()
    else:
        stored(given.store)
