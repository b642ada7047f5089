"""The classic pricing's linear part: each player's score as integer coefficients of the
players' values (an item `a` of q's value in p's score), summed exactly. A large season's
sums are made in numpy where they fit 64 bits (the bound is checked first, as the pairing's
weights are); otherwise, and for a club's size, in Python integers."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

VECTOR_FROM = 50_000
"""Items from which the sums are made in numpy: below it Python is as quick, and a club's
process loads no numpy for its standings."""
FITS = 1 << 62
"""What a sum of products may reach in 64 bits, with room to spare."""


class Coefficients:
    """Every player's items, by entry: the players in the order they entered, each item as
    (p, q, a) indexes into them."""

    def __init__(self) -> None:
        self.players: list[str] = []
        self._index: dict[str, int] = {}
        self._p: list[int] = []
        self._q: list[int] = []
        self._a: list[int] = []
        self._arrays: tuple[npt.NDArray[np.int64], npt.NDArray[np.int64],
                            npt.NDArray[np.int64], int] | None = None

    def enter(self, player: str) -> None:
        self._index[player] = len(self.players)
        self.players.append(player)

    def add(self, player: str, of: str, a: int) -> None:
        """An item of `a` times `of`'s value in `player`'s score."""
        self._p.append(self._index[player])
        self._q.append(self._index[of])
        self._a.append(a)

    def sums(self, numerators: Mapping[str, int]) -> list[int]:
        """Each entered player's sum of his items, at these numerators of the values, in
        the order the players entered."""
        values = [numerators[pid] for pid in self.players]
        if len(self._a) >= VECTOR_FROM:
            made = self._vector_sums(values)
            if made is not None:
                return made
        sums = [0] * len(values)
        for p, q, a in zip(self._p, self._q, self._a, strict=True):
            sums[p] += a * values[q]
        return sums

    def _vector_sums(self, values: list[int]) -> list[int] | None:
        """The sums in numpy, or None where they might not fit 64 bits."""
        import numpy as np

        if self._arrays is None or len(self._arrays[0]) < len(self._a):
            self._arrays = self._extended()
        p, q, a, most = self._arrays
        biggest = max(map(abs, values), default=0)
        if biggest >= FITS or most * biggest >= FITS:
            return None
        sums = np.zeros(len(values), dtype=np.int64)
        np.add.at(sums, p, a * np.array(values, dtype=np.int64)[q])
        made: list[int] = sums.tolist()
        return made

    def _extended(self) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64],
                                 npt.NDArray[np.int64], int]:
        """The arrays with the items added since they were made (a round's, each round),
        and the most any one player's items may reach per unit of value."""
        import numpy as np

        done = 0 if self._arrays is None else len(self._arrays[0])
        new = [np.array(items[done:], dtype=np.int64) for items in (self._p, self._q, self._a)]
        if self._arrays is not None:
            new = [np.concatenate((old, more)) for old, more in zip(self._arrays[:3], new,
                                                                    strict=True)]
        p, q, a = new
        return p, q, a, int(np.abs(a).max()) * int(np.bincount(p).max()) if len(a) else 0
