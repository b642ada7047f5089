"""The three club rulebooks as presets (docs/rules.md), and three other programs' ways of
scoring (section 9): what each decided, over the model's defaults."""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from types import MappingProxyType

from core.rules.model import (
    CompensationKind,
    Fade,
    FixedPointStart,
    ForfeitScoring,
    FrozenBonus,
    Revaluation,
    Rounding,
    Rules,
    Ties,
    Titles,
    TopException,
    TopValue,
    Weekday,
    Withdrawn,
)


def _kinds(table: Mapping[CompensationKind, Fraction]) -> Mapping[CompensationKind, Fraction]:
    """A club's compensation table; the requested byes, which no club rulebook names, keep
    the model's defaults (a draw, nothing)."""
    return MappingProxyType({CompensationKind.HALF_BYE: Fraction(1, 2),
                             CompensationKind.ZERO_BYE: Fraction(0), **table})


def _other_program(name: str, *, bye: Fraction, notice: Fraction, no_notice: Fraction,
                   external: Fraction, loss: Fraction = Fraction(0), **changes: object) -> Rules:
    """The shape the KNSB's sixths, FreeKeizer and chesspairing share (rules.md section 9):
    top value n, step 1, fixed point, forfeits priced as won or lost, late rounds worth 0,
    five paid absences of either kind."""
    K = CompensationKind
    return Rules(
        preset=name,
        top_value=TopValue(Fraction(1), per_player=True),
        revaluation=Revaluation.FIXED_POINT,
        result_fractions=(Fraction(1), Fraction(1, 2), loss),
        forfeit_scoring=ForfeitScoring(Fraction(1), Fraction(0), Fraction(0)),
        compensation=_kinds({
            K.NOTICE: notice, K.NO_NOTICE: no_notice, K.BYE: bye,
            K.OPPONENT_ABSENT: Fraction(2, 3), K.ARBITER: Fraction(2, 3),
            K.EXTERNAL_CLUB_NIGHT: external, K.EXTERNAL_OTHER_DAY: Fraction(1, 3),
            K.LATE_JOIN: Fraction(0)}),
        compensation_points=MappingProxyType({K.LATE_JOIN: Fraction(0)}),
        notice_cap=5,
        cap_kinds=frozenset({K.NOTICE, K.NO_NOTICE}),
        **changes,  # type: ignore[arg-type]
    )

PRESETS: Mapping[str, Rules] = MappingProxyType(
    {
        "sliedrecht": Rules(
            preset="sliedrecht",
            club_night=Weekday.THURSDAY,
            top_value=TopValue(Fraction(3, 2), per_player=True),
            compensation=_kinds(
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
            compensation=_kinds(
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
            compensation=_kinds(
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
        "knsb-zesden": _other_program(
            "knsb-zesden", bye=Fraction(4, 6), notice=Fraction(2, 6), no_notice=Fraction(2, 6),
            external=Fraction(2, 3)),
        "freekeizer": _other_program(
            "freekeizer", bye=Fraction(4, 6), notice=Fraction(35, 100),
            no_notice=Fraction(2, 6), external=Fraction(70, 100), loss=Fraction(1, 6)),
        "chesspairing": _other_program(
            "chesspairing", bye=Fraction(1, 2), notice=Fraction(35, 100),
            no_notice=Fraction(35, 100), external=Fraction(70, 100),
            fixed_point_start=FixedPointStart.INITIAL, ties=Ties.RATING,
            item_rounding=Rounding.HALF, frozen_bonus=FrozenBonus.CURRENT,
            withdrawn=Withdrawn.HIDE),
    }
)
