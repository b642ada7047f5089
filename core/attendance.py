"""The rules of a sign-off: whether it is in time, whether one made earlier stands instead,
and whether it takes away a draft. Storage stores what these decide."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from core.rounds import RoundState
from core.season import AbsenceReason


def on_time(sent_at: dt.datetime, deadline: dt.datetime | None, state: RoundState) -> bool:
    """In time means sent before the deadline; the member's send time counts, not the time
    the bot read it. A round without a deadline is in time until it is locked."""
    if deadline is not None:
        return sent_at <= deadline
    return state is RoundState.PLANNED


@dataclass(frozen=True, slots=True)
class Earlier:
    """The sign-off the player already has for the round."""

    reason: AbsenceReason
    on_time: bool


@dataclass(frozen=True, slots=True)
class Ruling:
    """What a sign-off does."""

    on_time: bool
    keeps_earlier: bool
    """Sent late while one made in time stands: nothing changes (a sign-off made in time is
    never downgraded by a later one; a bye is no sign-off of the member's)."""
    drops_draft: bool
    """In time, but read after the round was drafted with him in it: the draft did not know,
    and it is not public yet, so it goes and the round is paired again."""


def rule_sign_off(state: RoundState, deadline: dt.datetime | None, sent_at: dt.datetime, *,
                  earlier: Earlier | None, paired: bool, correction: bool) -> Ruling:
    """A sign-off of a round in `state`, sent at `sent_at`, by a player who is `paired` in
    it (or not) and has the `earlier` sign-off (or none). The arbiter's `correction` is
    always in time and never drops a draft (he pairs by hand)."""
    timely = correction or on_time(sent_at, deadline, state)
    keeps = not timely and earlier is not None and earlier.on_time \
        and earlier.reason is not AbsenceReason.BYE
    drops = timely and paired and state is RoundState.DRAFTED and not correction
    return Ruling(timely, keeps, drops)
