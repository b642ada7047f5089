"""Random realistic seasons of every preset, for property tests."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import strategies as st

from core.season import Season, season_from_data
from tests.seasons import season_data

PRESETS = ("sliedrecht", "drie-groepen", "drie-cycli")
RESULTS = ("1-0", "0-1", "1/2-1/2")
FORFEITS = ("+-", "-+", "--")


def random_season_data(rng: random.Random, *, players: int, rounds: int, preset: str,
                       overrides: dict[str, Any] | None = None, late: bool = True,
                       pair_last: bool = True) -> dict[str, Any]:
    """A season whose rounds are paired at random (any legal attendance, any results)."""
    people: list[dict[str, Any]] = []
    for i in range(players):
        player: dict[str, Any] = {"id": f"p{i:02d}", "name": f"Speler {i:02d}"}
        if rng.random() < 0.9:
            player["rating"] = rng.randint(1000, 2300)
        if late and rounds > 1 and i >= 2 and rng.random() < 0.15:
            player["joined"] = rng.randint(2, rounds)
        if late and rng.random() < 0.08:
            player["withdrawn"] = rng.randint(player.get("joined", 1), max(rounds, 1))
        people.append(player)
    team_valued = preset == "drie-groepen"
    specs = []
    for number in range(1, rounds + 1):
        active = [p["id"] for p in people
                  if p.get("joined", 1) <= number <= p.get("withdrawn", number)]
        rng.shuffle(active)
        entries, present = [], []
        for pid in active:
            roll = rng.random()
            if roll < 0.12:
                entries.append(f"{pid} notice")
            elif roll < 0.15:
                entries.append(f"{pid} no_notice")
            elif roll < 0.17:
                entries.append(f"{pid} arbiter")
            elif roll < 0.20:
                day = rng.choice(("club_night", "other_day"))
                extra = f" {rng.randint(1, 3)} {rng.choice(('1', '1/2', '0'))}" if team_valued \
                    else ""
                entries.append(f"{pid} external {day}{extra}")
            else:
                present.append(pid)
        if number == rounds and not pair_last:
            specs.append(", ".join(entries))
            continue
        if len(present) % 2:
            entries.append(f"{present.pop()} bye")
        for white, black in zip(present[::2], present[1::2], strict=True):
            result = rng.choice(FORFEITS) if rng.random() < 0.03 else rng.choice(RESULTS)
            entries.append(f"{white}-{black} {result}")
        specs.append(", ".join(entries))
    rules: Any = preset if not overrides else {"preset": preset, **overrides}
    return season_data(rules, people, specs)


@st.composite
def seasons(draw: st.DrawFn, *, min_players: int = 2, max_players: int = 16,
            max_rounds: int = 8, modes: bool = True, ladders: bool = True) -> Season:
    preset = draw(st.sampled_from(PRESETS))
    overrides: dict[str, Any] = {}
    if modes:
        overrides["revaluation"] = draw(st.sampled_from(("classic", "fixed_point", "frozen")))
    if ladders:
        ladder = draw(st.sampled_from(("step", "step", "spread", "score")))
        if ladder != "step":
            overrides |= {"ladder": ladder, "top_value": 100, "bottom_value": 40}
    rng = random.Random(draw(st.integers(0, 2**32)))
    return random_season(rng, players=draw(st.integers(min_players, max_players)),
                         rounds=draw(st.integers(0, max_rounds)), preset=preset,
                         overrides=overrides)


def random_season(rng: random.Random, *, players: int, rounds: int, preset: str,
                  overrides: dict[str, Any]) -> Season:
    """`random_season_data` as a season. Rounds in which nobody could play are not real
    rounds: it ends before the first of them."""
    data = random_season_data(rng, players=players, rounds=rounds, preset=preset,
                              overrides=overrides)
    for i, rnd in enumerate(data["rounds"]):
        if "games" not in rnd:
            data["rounds"] = data["rounds"][:i]
            break
    return season_from_data(data)
