"""A season: its values (`model`) and its file (`file`, through `Season.from_json` and
`Season.to_json`)."""

from core.season.file import EXTERNAL_RESULTS, FORMAT, data_to_json, external_result_text
from core.season.model import (
    Absence,
    AbsenceReason,
    ExternalDay,
    Game,
    Player,
    Result,
    Round,
    Season,
    rating_order,
)

__all__ = ["EXTERNAL_RESULTS", "FORMAT", "Absence", "AbsenceReason", "ExternalDay", "Game",
           "Player", "Result", "Round", "Season", "data_to_json", "external_result_text",
           "rating_order"]
