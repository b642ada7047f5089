"""The three club rulebooks as presets (docs/rules.md): what each club decided, over the
model's defaults."""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from types import MappingProxyType

from core.rules.model import CompensationKind, Fade, Rules, Titles, TopException, TopValue, Weekday

PRESETS: Mapping[str, Rules] = MappingProxyType(
    {
        "sliedrecht": Rules(
            preset="sliedrecht",
            club_night=Weekday.THURSDAY,
            top_value=TopValue(Fraction(3, 2), per_player=True),
            compensation=MappingProxyType(
                {
                    CompensationKind.NOTICE: Fraction(33, 100),
                    CompensationKind.NO_NOTICE: Fraction(0),
                    CompensationKind.BYE: Fraction(66, 100),
                    CompensationKind.OPPONENT_ABSENT: Fraction(66, 100),
                    CompensationKind.ARBITER: Fraction(66, 100),
                    CompensationKind.EXTERNAL_CLUB_NIGHT: Fraction(66, 100),
                    CompensationKind.EXTERNAL_OTHER_DAY: Fraction(33, 100),
                    CompensationKind.LATE_JOIN: Fraction(33, 100),
                }
            ),
            notice_cap=10,
            late_join_counts_to_cap=True,
            planned_rounds=30,
            periods=2,
            period_length=15,
            max_rank_distance=12,
            max_meetings=2,
            per_period=1,
            top_exception=TopException(from_round=16, top=10),
            titles=Titles.PLAYOFF,
        ),
        "drie-groepen": Rules(
            preset="drie-groepen",
            club_night=Weekday.MONDAY,
            compensation=MappingProxyType(
                {
                    CompensationKind.NOTICE: Fraction(1, 3),
                    CompensationKind.NO_NOTICE: Fraction(0),
                    CompensationKind.BYE: Fraction(2, 3),
                    CompensationKind.OPPONENT_ABSENT: Fraction(2, 3),
                    CompensationKind.ARBITER: Fraction(2, 3),
                    CompensationKind.EXTERNAL_CLUB_NIGHT: Fraction(0),
                    CompensationKind.EXTERNAL_OTHER_DAY: Fraction(0),
                    CompensationKind.LATE_JOIN: Fraction(1, 3),
                }
            ),
            team_valued=frozenset(
                {CompensationKind.EXTERNAL_CLUB_NIGHT, CompensationKind.EXTERNAL_OTHER_DAY}
            ),
            team_table=MappingProxyType(
                {
                    1: (Fraction(57), Fraction(28), Fraction(19)),
                    2: (Fraction(49), Fraction(24), Fraction(16)),
                    3: (Fraction(41), Fraction(20), Fraction(14)),
                }
            ),
            planned_rounds=30,
            periods=2,
            per_period=1,
            min_rounds_between=2,
            titles=Titles.PERIOD_GROUPS,
        ),
        "drie-cycli": Rules(
            preset="drie-cycli",
            start_bonus=Fraction(3),
            start_bonus_fade=Fade.LINEAR,
            compensation=MappingProxyType(
                {
                    CompensationKind.NOTICE: Fraction(1, 3),
                    CompensationKind.NO_NOTICE: Fraction(0),
                    CompensationKind.BYE: Fraction(1),
                    CompensationKind.OPPONENT_ABSENT: Fraction(1),
                    CompensationKind.ARBITER: Fraction(1),
                    CompensationKind.EXTERNAL_CLUB_NIGHT: Fraction(7, 10),
                    CompensationKind.EXTERNAL_OTHER_DAY: Fraction(1, 3),
                    CompensationKind.LATE_JOIN: Fraction(1, 3),
                }
            ),
            planned_rounds=27,
            periods=3,
            period_length=9,
            max_meetings=3,
            per_period=1,
            titles=Titles.SUBGROUPS,
        ),
    }
)
