"""The example seasons pinned: standings after every round in all three revaluation modes,
and the pairing of the next round, as golden files in tests/data/golden/. A change that
moves any of them fails here, with the difference.

    uv run pytest tests/unit/test_golden.py --update-golden

writes them anew and prints the diff; commit them only if every line of it is meant."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from bot.cli import pairing_json
from core.pairing import pair, request_for_round
from core.rules import Revaluation
from core.season import Season, read_season
from core.standings import standings_history

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = ROOT / "tests" / "data" / "golden"
EXAMPLES = sorted((ROOT / "examples").glob("*.json"))


def pinned(season: Season) -> dict[str, object]:
    modes = {}
    for mode in Revaluation:
        history = standings_history(replace(season, rules=replace(season.rules,
                                                                  revaluation=mode)))
        modes[mode.value] = [[[row.id, row.rank, str(row.score), str(row.value)]
                              for row in standings.rows] for standings in history]
    return {"standings": modes,
            "pairing": pairing_json(pair(request_for_round(season, len(season.rounds))))}


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_the_examples_give_what_they_gave(path, golden):
    text = json.dumps(pinned(read_season(path.read_text(encoding="utf-8"))),
                      indent=1) + "\n"
    golden(GOLDEN / path.name, text)
