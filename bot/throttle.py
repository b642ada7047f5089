"""Telling the arbiters about a recurring fault once, not once per tick."""

from __future__ import annotations

import time
from collections.abc import Callable

HOUR = 3600.0


class Throttle:
    """`first(key)` is True once per `every` seconds for each key. Kept in memory on purpose:
    it must work when the database is the thing that fails."""

    def __init__(self, every: float = HOUR, clock: Callable[[], float] = time.monotonic) -> None:
        self.every, self.clock = every, clock
        self._last: dict[str, float] = {}

    def first(self, key: str) -> bool:
        now = self.clock()
        last = self._last.get(key)
        if last is not None and now - last < self.every:
            return False
        self._last[key] = now
        return True
