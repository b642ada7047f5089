"""Telling a `keizer-club/1` file (`storage/club_file.py`) from a season file, and the season
inside it, without loading the store: the command line reads both."""

from __future__ import annotations

import json

from core.season import data_to_json

FORMAT = "keizer-club/1"


def is_club_file(text: str) -> bool:
    try:
        data = json.loads(text)
    except ValueError:
        return False
    return isinstance(data, dict) and data.get("format") == FORMAT


def season_part(text: str) -> str:
    """The season file inside a club file (other text as it is): what `standings` and
    `pair` read."""
    return data_to_json(json.loads(text)["season"]) if is_club_file(text) else text
