"""A season: its values (`model`) and its file (`file`, through `Season.from_json` and
`Season.to_json`)."""

from core.season.file import (
    EXTERNAL_RESULTS,
    FORMAT,
    IDENTITY_FORMS,
    absence_data,
    data_to_json,
    data_to_line,
    external_result_text,
    player_data,
)
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

__all__ = ["EXTERNAL_RESULTS", "FORMAT", "IDENTITY_FORMS", "Absence", "AbsenceReason",
           "ExternalDay", "Game", "Player", "Result", "Round", "Season", "absence_data",
           "data_to_json", "data_to_line", "external_result_text", "player_data", "rating_order"]
