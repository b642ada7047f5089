"""A round played online, on lichess: the club's clock for it, and what a finished game's
status means for the round."""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum

from core.season import Result

MOST_MINUTES = 180
"""The longest clock lichess makes a real-time game with (`clock.limit` up to 10800 s)."""
MOST_INCREMENT = 180

_CLOCK = re.compile(r"\s*([0-9]{1,3})\s*\+\s*([0-9]{1,3})\s*")


@dataclass(frozen=True, slots=True)
class Clock:
    """Minutes for the game, seconds added a move (`45+15`)."""

    minutes: int
    increment: int

    @classmethod
    def parse(cls, text: str) -> Clock | None:
        """`45+15` as typed; None when it is no clock lichess plays."""
        found = _CLOCK.fullmatch(text)
        if found is None:
            return None
        clock = cls(int(found.group(1)), int(found.group(2)))
        return clock if 1 <= clock.minutes <= MOST_MINUTES \
            and clock.increment <= MOST_INCREMENT else None

    def __str__(self) -> str:
        return f"{self.minutes}+{self.increment}"


DEFAULT_CLOCK = Clock(45, 15)
"""An online club night's clock where the club's own tempo is none lichess plays (`30' + 30'
KO`): a game that fits an evening at a screen."""

_IN_TEMPO = re.compile(r"([0-9]{1,3})\s*\+\s*([0-9]{1,3})")


def online_clock(chosen: Clock | None, time_control: str) -> Clock:
    """The clock an online round is played at: the one the arbiter chose for online rounds,
    else the club's own tempo (the first `minutes+seconds` of its rules' time control, as
    `90+15`), else DEFAULT_CLOCK."""
    if chosen is not None:
        return chosen
    found = _IN_TEMPO.search(time_control)
    return (Clock.parse(found.group(0)) if found else None) or DEFAULT_CLOCK


class Ending(Enum):
    """How a lichess game stands for the round."""

    WAITING = "waiting"
    """Not made yet (before its start), or made and not begun."""
    PLAYING = "playing"
    DECIDED = "decided"
    """Finished with a result the round takes (`result_of`)."""
    NOT_PLAYED = "not_played"
    """Never begun or aborted: the arbiter decides."""


NOT_PLAYED = frozenset({"aborted", "noStart", "unknownFinish"})
"""Never begun, aborted, or an ending lichess could not call: the arbiter's to decide."""


def ending(status: str) -> Ending:
    """What lichess's `status` of a game means for the round."""
    if status == "created":
        return Ending.WAITING
    if status == "started":
        return Ending.PLAYING
    return Ending.NOT_PLAYED if status in NOT_PLAYED else Ending.DECIDED


def result_of(status: str, winner: str | None) -> Result | None:
    """The result a finished game gives the round (a finished game without a winner is
    drawn: agreed, stalemate, or out of time against too little to mate); None when it
    gives none."""
    if ending(status) is not Ending.DECIDED:
        return None
    return {"white": Result.WHITE_WINS, "black": Result.BLACK_WINS}.get(winner or "",
                                                                        Result.DRAW)
