"""What a sign-off earns, as the ledger prices it: the preview a member gets when he signs
off (caps included), before the round is played."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from enum import StrEnum
from fractions import Fraction

from core.ledger import (
    Awaiting,
    Awarded,
    CapCounter,
    Compensated,
    compensation,
    one_player,
    season_events,
)
from core.season import Absence, AbsenceReason, ExternalDay, Round, Season
from core.standings import item_points


class Earning(StrEnum):
    TEAM = "team"
    """Valued by the team table once the external result is in."""
    LATER = "later"
    """A round further ahead than the season has yet: the rule's fraction of that round's
    value (with the cap as a condition, `cap`)."""
    CAPPED = "capped"
    """The cap of paid sign-offs is reached: nothing."""
    NOTHING = "nothing"
    FRACTION = "fraction"
    """`fraction` of the player's current value: `points` now."""
    POINTS = "points"
    """Fixed `points`, whatever his value (`{points = N}`)."""
    UNKNOWN = "unknown"
    """Not priced (the round has no such sign-off, or the player has no value yet)."""


@dataclass(frozen=True, slots=True)
class SignOffPrice:
    earning: Earning
    fraction: Fraction = Fraction(0)
    value: Fraction | None = None
    """The player's value now."""
    points: Fraction | None = None
    cap: int | None = None
    """The rules' cap on paid sign-offs, where it matters."""


def sign_off_price(season: Season, values: Mapping[str, Fraction], player: str,
                   round_no: int, reason: AbsenceReason, day: ExternalDay | None,
                   earlier: int = 0) -> SignOffPrice:
    """What `player`'s sign-off for `round_no` earns; `season` holds the sign-off already
    where the round exists, `values` are the players' values in its current standings. For
    a round further ahead, `earlier` sign-offs of the same request come before it: they
    count towards the cap too. The cap is named on the last round that still earns."""
    rules = season.rules
    if round_no > len(season.rounds):
        kind = Absence(player, reason, day).kind
        if kind in rules.team_valued:
            return SignOffPrice(Earning.TEAM)
        counter = CapCounter(rules)
        counter.used[player] = cap_used(season, player) + earlier
        ahead = compensation(rules, round_no, player, kind, counter)
        cap = rules.notice_cap if rules.counts_to_cap(kind) else None
        if ahead.capped:
            return SignOffPrice(Earning.CAPPED, cap=cap)
        last = cap if cap is not None and counter.used[player] == cap else None
        if ahead.points is not None:
            return SignOffPrice(Earning.POINTS, points=ahead.fixed, cap=last)
        return SignOffPrice(Earning.LATER, ahead.fraction * ahead.decay, cap=last)
    his = season_events(one_player(season, player), round_no)[round_no - 1]
    event = next((e for e in his.get(player, [])
                  if e.round == round_no), None)
    if isinstance(event, Awaiting | Awarded):
        return SignOffPrice(Earning.TEAM)
    if not isinstance(event, Compensated):
        return SignOffPrice(Earning.UNKNOWN)
    if event.capped:
        return SignOffPrice(Earning.CAPPED, cap=rules.notice_cap)
    if event.points is not None:
        return SignOffPrice(Earning.POINTS, points=event.fixed)
    if not event.fraction:
        return SignOffPrice(Earning.NOTHING)
    value = values.get(player)
    if value is None:
        return SignOffPrice(Earning.UNKNOWN)
    return SignOffPrice(Earning.FRACTION, event.fraction * event.decay, value,
                        item_points(rules, event.fraction, value, event.decay))


def cap_used(season: Season, player: str) -> int:
    """How many of the player's rounds so far count towards the cap on paid sign-offs."""
    rules = season.rules
    return sum(1 for known in season_events(one_player(season, player), len(season.rounds))
               for event in known.get(player, [])
               if isinstance(event, Compensated) and rules.counts_to_cap(event.kind))


def after_sign_off(season: Season, player: str, round_no: int, reason: AbsenceReason,
                   day: ExternalDay | None) -> Season | None:
    """The season as it will be once `player` signed off in time for `round_no`, so that the
    sign-off can be priced before it is stored: the round waiting to be paired gets him as
    absent, a round further ahead needs nothing. None for a round already paired (a draft
    that the sign-off would drop): that one is priced after storing."""
    if round_no > len(season.rounds):
        return season
    waiting = season.round(round_no)
    if waiting.is_paired or round_no != len(season.rounds):
        return None
    absent = tuple(a for a in waiting.absent if a.player != player)
    return replace(season, rounds=(*season.rounds[:-1], Round(
        round_no, waiting.date, (), (*absent, Absence(player, reason, day)))))
