"""A season: its values (`model`) and its file (`file`: `read_season`, `season_to_json`)."""

from core.season.file import (
    EXTERNAL_RESULTS,
    FORMAT,
    IDENTITY_FORMS,
    Outline,
    absence_data,
    data_to_json,
    data_to_line,
    external_result_text,
    player_data,
    read_season,
    round_from_data,
    season_from_data,
    season_to_data,
    season_to_json,
    with_round_data,
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
           "ExternalDay", "Game", "Outline", "Player", "Result", "Round", "Season", "absence_data",
           "data_to_json", "data_to_line", "external_result_text", "player_data", "rating_order",
           "read_season", "round_from_data", "season_from_data", "season_to_data", "season_to_json",
           "with_round_data"]
