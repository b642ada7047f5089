"""Standings benchmark: a 60-player, 30-round season, standings recomputed from scratch after
every round (as after a correction), per revaluation mode. Prints a markdown table.

    uv run python bench/standings.py
    uv run python bench/standings.py --store /tmp/startbench/season-5000x76.db

With `--store` (a club's database, such as the one `bench/start.py --keep` builds), the
season in it instead: how long its read takes (as stored, and through the season file's
checks) and its standings from scratch in each revaluation mode (every round priced anew, as
after a correction of round 1); then, on a copy of the store, a correction of round 1 as the
standings worker meets it: the season it keeps read again (`season_since`: round 1 alone)
and the standings made anew from the events it keeps (`KeptEvents`: round 1's made again).
"""

from __future__ import annotations

import argparse
import asyncio
import random
import shutil
import statistics
import sys
import tempfile
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
    read, made = asyncio.run(corrected(path))
    print(f"| a correction of round 1: the kept season read again | {read:.2f} |\n"
          f"| its standings, as the season's rules price them | {made:.2f} |\n"
          f"| the correction's new standings, in all | {read + made:.2f} |")


async def corrected(path: Path) -> tuple[float, float]:
    """On a copy of the store: the season and its events kept as the standings worker keeps
    them, a result of round 1 corrected, and the seconds the worker then takes to read the
    season again and to make its standings."""
    from core.ledger import KeptEvents
    from core.season import Result
    from storage.results import correct
    from storage.seasons import KeptSeason, season_since
    from storage.store import open_store

    with tempfile.TemporaryDirectory() as folder:
        copy = Path(folder) / path.name
        shutil.copy(path, copy)
        db = await open_store(copy)
        try:
            kept, events = KeptSeason(), KeptEvents()
            before = await season_since(db.reader, kept)
            compute_standings(before, kept=events)
            game = before.rounds[0].games[0]
            await correct(db, 1, 1, Result.DRAW if game.result is not Result.DRAW
                          else Result.WHITE_WINS, actor=None)
            start = time.perf_counter()
            season = await season_since(db.reader, kept)
            read = time.perf_counter() - start
        finally:
            await db.close()
    start = time.perf_counter()
    compute_standings(season, kept=events)
    return read, time.perf_counter() - start


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--store", type=Path, default=None)
    given = parser.parse_args()
    if given.store is None:
        main()
    else:
        stored(given.store)
