"""The rules of a Keizer competition, in three parts: `model` (every parameter, with its
default, as docs/rules.md has it), `presets` (the three club rulebooks) and `source`
(reading a preset name or `{"preset": NAME, ...overrides}` from TOML or JSON, every problem at
once with its place, and writing rules back). Overrides replace single parameters; nested
tables merge key by key."""

from __future__ import annotations

from core.rules.model import (
    EXTERNAL_KINDS,
    TEAM_AWARD,
    Colour,
    CompensationKind,
    Fade,
    FixedPointStart,
    ForfeitScoring,
    FrozenBonus,
    Ladder,
    Revaluation,
    Rounding,
    Rules,
    Ties,
    Titles,
    TopException,
    TopValue,
    Unannounced,
    Weekday,
    Withdrawn,
)
from core.rules.presets import PRESETS
from core.rules.source import (
    PARAMETERS,
    check_rules_source,
    rules_from_source,
    rules_from_toml,
    rules_to_mapping,
)

__all__ = ["EXTERNAL_KINDS", "PARAMETERS", "PRESETS", "TEAM_AWARD", "Colour", "CompensationKind",
           "Fade", "FixedPointStart", "ForfeitScoring", "FrozenBonus", "Ladder", "Revaluation",
           "Rounding", "Rules", "Ties", "Titles", "TopException", "TopValue", "Unannounced",
           "Weekday", "Withdrawn", "check_rules_source", "rules_from_source", "rules_from_toml",
           "rules_to_mapping"]
