"""What the store keeps on the club's data version: a value computed once per state of the
data (`memo`), and the values a write transaction offers for it as it goes (`offer`), which
become the memo when it commits without changing the data after them.

The data version (`storage.db.Versions.data`) is the key: the outbox, the inbox and the
messages posted do not move it, so a message sent leaves the season and its standings cached.
"""

from __future__ import annotations

import asyncio
import contextvars
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from typing import Any, Protocol, TypeVar

T = TypeVar("T")


class _Reads:
    """What a unit of reads looked up (`reading`), while it is open."""

    def __init__(self) -> None:
        self.open = True
        self.kept: dict[tuple[int, str], Any] = {}


_reads: contextvars.ContextVar[_Reads | None] = contextvars.ContextVar("reads", default=None)


@contextmanager
def reading() -> Iterator[None]:
    """A unit of reads outside any transaction (the tick): what `Cache.unit` looks up is
    looked up once in it, and again after a write transaction of its own (which may have
    changed it). A task it starts keeps nothing after it ends."""
    reads = _Reads()
    token = _reads.set(reads)
    try:
        yield
    finally:
        reads.open = False
        _reads.reset(token)


def _forget_reads() -> None:
    reads = _reads.get()
    if reads is not None:
        reads.kept.clear()


class _Versions(Protocol):
    @property
    def data(self) -> int: ...

    @property
    def standings(self) -> int: ...


class Versioned(Protocol):
    """What the cache asks of its store (`storage.db.Database`, which holds the cache: the
    store knows its cache, the cache only this)."""

    def inside(self) -> bool: ...

    async def versions(self) -> _Versions: ...

    async def written_version(self) -> int: ...


class Cache:
    """The memo and the open transaction's offers of one store (`Database.cache`)."""

    def __init__(self, db: Versioned) -> None:
        self._db = db
        self._memo: dict[str, tuple[int, Any]] = {}
        self._locks: dict[str, asyncio.Lock] = {}
        self._offers: dict[str, tuple[int, Any]] = {}
        """Values offered in the open transaction, with the data version they were made at."""
        self._unit: dict[str, Any] = {}
        """Values the open transaction looked up once and keeps to its end (`unit`)."""

    def kept(self, key: str) -> Any:
        """The memo of `key` as it stands, whatever version it was made at (a test's look)."""
        cached = self._memo.get(key)
        return None if cached is None else cached[1]

    async def memo(self, key: str, compute: Callable[[], Awaitable[T]], *,
                   standings_only: bool = False) -> T:
        """`await compute()` once per state of the club's data: the season and its standings
        are loaded once, whatever number of messages ask before the next change. A value
        that depends on `standings_only` is kept across the changes that leave them. Inside a
        transaction a value of the data is made once too, and offered (`offer`): a write
        checked on the season's outline offers none, and the reads after it need one."""
        if self._db.inside():
            if standings_only:
                return await compute()
            found = await self.current(key)
            if found is None:
                found = await compute()
                await self.offer(key, found)
            made: T = found
            return made
        async with self._locks.setdefault(key, asyncio.Lock()):  # one computes, all wait
            now = await self._db.versions()
            version = now.standings if standings_only else now.data
            cached = self._memo.get(key)
            if cached is not None and cached[0] == version:
                kept: T = cached[1]
                return kept
            value = await compute()
            self._memo[key] = (version, value)
        return value

    async def offer(self, key: str, value: Any) -> None:
        """Inside a transaction: `value` is what `memo(key)` would compute from the club's
        data as it now stands (the season just checked). It serves `offered` until the data
        changes, and becomes the memo at commit if it did not change after it."""
        self._offers[key] = (await self._db.written_version(), value)

    async def offered(self, key: str) -> Any:
        """Inside a transaction, the value offered for `key` if the data did not change
        since."""
        if not self._db.inside():
            return None
        offer = self._offers.get(key)
        if offer is None or offer[0] != await self._db.written_version():
            return None
        return offer[1]

    async def current(self, key: str) -> Any:
        """Inside a transaction, what `memo(key)` would compute from the club's data as it
        now stands, if that is at hand: the value offered since the last change, or the
        committed memo while nothing changed since it was made. The version only moves up, so
        a memo made at the version the transaction sees now was made at the one it began at,
        and the transaction has changed nothing."""
        offered = await self.offered(key)
        if offered is not None:
            return offered
        cached = self._memo.get(key)
        if not self._db.inside() or cached is None \
                or await self._db.written_version() != cached[0]:
            return None
        return cached[1]

    async def unit(self, key: str, compute: Callable[[], Awaitable[T]]) -> T:
        """Inside a transaction, `await compute()` once for the whole unit of work (what it
        changes itself, it says with `keep`); outside one, once in a unit of reads
        (`reading`), else each time."""
        if not self._db.inside():
            reads = _reads.get()
            if reads is None or not reads.open:
                return await compute()
            if (id(self), key) not in reads.kept:
                reads.kept[id(self), key] = await compute()
            read: T = reads.kept[id(self), key]
            return read
        if key not in self._unit:
            self._unit[key] = await compute()
        kept: T = self._unit[key]
        return kept

    def keep(self, key: str, value: Any) -> None:
        """Inside a transaction: `unit(key)` is `value` from now on (the transaction changed
        what it looked up: a new season started)."""
        if self._db.inside():
            self._unit[key] = value

    def begun(self) -> None:
        """A write transaction began (in a unit of reads: what it looked up may change)."""
        self._offers.clear()
        self._unit.clear()
        _forget_reads()

    @property
    def offering(self) -> bool:
        """Whether the open transaction offered a value: only then does its commit need to
        know the data version it commits (`committed`)."""
        return bool(self._offers)

    def committed(self, written: int | None) -> None:
        """Just committed at data version `written` (the store still holds its lock, so no
        other commit came between; None: nothing was offered): what was offered at it is
        the memo now."""
        for key, (version, value) in self._offers.items():
            if version == written:
                self._memo[key] = (version, value)
        self._offers.clear()
        self._unit.clear()

    def dropped(self) -> None:
        """The transaction rolled back: what it offered never was."""
        self._offers.clear()
        self._unit.clear()
