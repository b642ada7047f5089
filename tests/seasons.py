"""Seasons for tests, written compactly and built through the real file validator.

Players: `"a:2000 b:1900 c"` (id, optional rating; the name is the id in capitals).
Rounds: `"a-b 1-0, c-d 1/2-1/2, e notice, f bye, g external club_night 1 1"`; a game without a
result is `"a-b"`; an external absence is `PLAYER external DAY [TEAM RESULT]`.
"""

from __future__ import annotations

import json
from decimal import Decimal
from typing import Any

from core.season import Season, season_from_data, season_to_json


def players_data(spec: str) -> list[dict[str, Any]]:
    out = []
    for token in spec.split():
        pid, _, rating = token.partition(":")
        player: dict[str, Any] = {"id": pid, "name": pid.upper()}
        if rating:
            player["rating"] = int(rating)
        out.append(player)
    return out


def round_data(number: int, spec: str) -> dict[str, Any]:
    games, absent = [], []
    for entry in filter(None, (e.strip() for e in spec.split(","))):
        words = entry.split()
        if "-" in words[0] and len(words[0]) > 1:
            white, black = words[0].split("-")
            game = {"white": white, "black": black}
            if len(words) > 1:
                game["result"] = words[1]
            games.append(game)
            continue
        absence: dict[str, Any] = {"player": words[0], "reason": words[1]}
        if words[1] == "external":
            absence["day"] = words[2]
            if len(words) > 3:
                absence["team"], absence["result"] = int(words[3]), words[4]
        absent.append(absence)
    data: dict[str, Any] = {"round": number}
    if games:
        data["games"] = games
    data["absent"] = absent
    return data


def season_data(rules: Any, players: str | list[dict[str, Any]], rounds: list[str],
                **extra: Any) -> dict[str, Any]:
    if isinstance(rules, dict):
        rules = json.loads(json.dumps(rules), parse_float=Decimal)
    return {
        "format": "keizer-season/1", "club": "Testclub", "season": "2026-2027", "rules": rules,
        **({"planned_rounds": extra.pop("planned_rounds")} if "planned_rounds" in extra else {}),
        "players": players_data(players) if isinstance(players, str) else players,
        **extra,
        "rounds": [round_data(i, spec) for i, spec in enumerate(rounds, start=1)],
    }


def build(rules: Any, players: str | list[dict[str, Any]], rounds: list[str],
          **extra: Any) -> Season:
    return season_from_data(season_data(rules, players, rounds, **extra))


def as_data(season: Season) -> Any:
    return json.loads(season_to_json(season), parse_float=Decimal)
