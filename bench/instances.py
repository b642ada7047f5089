"""Writes the stored pairing instances the benchmark runs on (season files whose last round
waits to be paired). Deterministic; run once, commit the files:

    uv run python bench/instances.py
"""

from __future__ import annotations

import json
import random
from pathlib import Path

from core.pairing import before_pairing
from core.season import Player, Season, season_to_data
from core.simulation import Habits, simulate

HERE = Path(__file__).parent / "instances"
ALL_PRESENT = Habits(notice=0.0, no_notice=0.0, external_club_night=0.0,
                     external_other_day=0.0, forfeit=0.0)


def members(rng: random.Random, count: int) -> tuple[Player, ...]:
    return tuple(Player(f"m{k:03d}", f"Lid {k:03d}", rating=rng.randint(1000, 2300))
                 for k in range(count))


def write(name: str, season: Season) -> None:
    (HERE / f"{name}.json").write_text(json.dumps(season_to_data(season), default=str) + "\n",
                                       encoding="utf-8")
    print(name)


def main() -> None:
    HERE.mkdir(exist_ok=True)
    for n in (20, 21, 40, 41, 100, 101, 200, 201, 400, 401):
        rng = random.Random(n)
        season = simulate(rng, rules="sliedrecht", players=members(rng, n), rounds=15,
                          habits=ALL_PRESENT)
        for phase, round_no in (("early", 3), ("middle", 8), ("last", 15)):
            write(f"n{n:03d}-{phase}", before_pairing(season, round_no))
    for n in range(13, 18):
        for preset, last in (("sliedrecht", 15), ("drie-groepen", 15), ("drie-cycli", 9)):
            rng = random.Random(f"{preset}{n}")
            season = simulate(rng, rules=preset, players=members(rng, n), rounds=last,
                              habits=ALL_PRESENT)
            write(f"small{n}-{preset}-last", before_pairing(season, last))
    for n in (400, 401):
        # One period for the whole season and at most 8 places apart: by round 28 most players
        # have met everyone within reach.
        rules = {"preset": "sliedrecht", "period_length": 30, "max_rank_distance": 8}
        rng = random.Random(f"impossible{n}")
        season = simulate(rng, rules=rules, players=members(rng, n), rounds=28,
                          habits=ALL_PRESENT)
        write(f"impossible{n}", before_pairing(season, 28))


if __name__ == "__main__":
    main()
