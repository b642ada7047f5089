"""Writes the example seasons (invented members, simulated games): one per preset.

    uv run python examples/generate.py

The output is deterministic; the tests check that the files are valid and round-trip.
"""

from __future__ import annotations

import datetime as dt
import random
from pathlib import Path

from core.season import Player
from core.simulation import Habits, simulate

FIRST = ["Jan", "Piet", "Kees", "Anna", "Marieke", "Sander", "Joost", "Femke", "Bart", "Lotte",
         "Willem", "Sanne", "Ruud", "Inge", "Henk", "Eva", "Daan", "Noor", "Gert", "Mirjam",
         "Thijs", "Roos", "Wouter", "Ilse", "Bram", "Jolien", "Koen", "Esther", "Frank", "Tessa",
         "Gijs", "Hanneke"]
LAST = ["de Vries", "Jansen", "Bakker", "Visser", "Smit", "Meijer", "de Boer", "Mulder",
        "de Groot", "Bos", "Vos", "Peters", "Hendriks", "van Leeuwen", "Dekker", "Brouwer",
        "de Wit", "Dijkstra", "Smits", "de Graaf", "van der Meer", "Kok", "Jacobs", "Vermeulen",
        "van den Berg", "Schouten", "Willems", "Hoekstra", "Koster", "Prins", "Kuipers", "Post"]

EXAMPLES = {
    # preset: (club, club night, members, rounds played, rules)
    "sliedrecht": ("Schaakvereniging De Merwedetoren", dt.date(2026, 9, 3), 28, 21,
                   "sliedrecht"),
    "drie-groepen": ("Schaakclub Het Paard van Ome Loek", dt.date(2026, 9, 7), 24, 17,
                     "drie-groepen"),
    "drie-cycli": ("Schaakclub De Toren van Ter Aar", dt.date(2026, 9, 3), 20, 19,
                   "drie-cycli"),
}


def members(rng: random.Random, count: int, rounds: int, *, groups: bool) -> tuple[Player, ...]:
    names = rng.sample([f"{f} {last}" for f in FIRST for last in LAST], count)
    out = []
    for k, name in enumerate(names):
        youth = k >= count - 3
        rating = None if k == count - 1 else rng.randint(1150, 2150) - (300 if youth else 0)
        joined = rng.randint(3, rounds - 3) if k in (count - 2, count - 5) else 1
        withdrawn = rng.randint(rounds // 2, rounds - 2) if k == count - 7 else None
        pid = "".join(part[0] for part in name.lower().split()) + str(k)
        out.append(Player(pid, name, rating, youth, joined, withdrawn,
                          (1 if k < count // 2 else 2) if groups else None))
    return tuple(out)


def main() -> None:
    here = Path(__file__).parent
    for preset, (club, start, count, rounds, rules) in EXAMPLES.items():
        rng = random.Random(preset)
        players = members(rng, count, rounds, groups=preset == "drie-cycli")
        season = simulate(rng, rules=rules, players=players, rounds=rounds, club=club,
                          name="2026-2027", start=start, pair_last=False,
                          habits=Habits(arbiter=0.01 if preset == "drie-groepen" else 0.0))
        (here / f"{preset}.json").write_text(season.to_json(), encoding="utf-8")
        print(f"{preset}: {count} members, {rounds} rounds")


if __name__ == "__main__":
    main()
