"""The store, whatever its engine: a unit of work over three connections (writer, reader,
bulk), its hooks and listeners; the values kept on the club's data version are its `cache`
(`storage.cache`). The engines (`storage.sqlite`, `storage.postgres`) open the connections
and say what their failures mean; `storage.store.open_store` picks one by the address.

Every write transaction holds an asyncio lock from its `BEGIN` to its `COMMIT` (the engine's
begin takes the database's own write lock too), so writers queue in the process. Reads go
through the reader, except inside a transaction, where they see what it wrote so far.

A transaction opened inside another one (in the same task) joins it: a flow calls several
repository functions and they commit together. Hooks run inside the outermost transaction
just before its commit (`before_commit`): the inbox marks the update being handled done
there, so the update and its effect are one fact.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, NamedTuple, Protocol, TypeVar

from storage.cache import Cache
from storage.errors import StoreError, StoreProblem
from storage.sql import Connection, Link

log = logging.getLogger(__name__)

T = TypeVar("T")

CommitHook = Callable[[Link], Awaitable[None]]


class Versions(NamedTuple):
    """Versions of the club's data, moved by triggers in the transaction of a write (the
    inbox, the outbox and the messages posted move neither)."""

    data: int
    """Every change to the club's data."""
    standings: int
    """What the standings depend on: the players, the rules, every round's state, and the
    games and attendance of the rounds that are published or complete."""


async def versions(conn: Connection) -> Versions:
    async with conn.execute("SELECT version, standings FROM club_version") as cur:
        row = await cur.fetchone()
    return Versions(row[0], row[1]) if row else Versions(0, 0)


async def inserted(conn: Connection, sql: str, values: tuple[Any, ...]) -> int:
    """The id of the row `sql` inserts (`RETURNING id`, as PostgreSQL writes it too)."""
    async with conn.execute(f"{sql} RETURNING id", values) as cur:
        row = await cur.fetchone()
    assert row is not None
    return int(row[0])


async def schema_version(db: Database) -> int:
    """The schema's version, as `storage.migrate` left it."""
    async with db.reader.execute(db.engine.VERSION_QUERY) as cur:
        row = await cur.fetchone()
    return int(row[0]) if row else 0


class Engine(Protocol):
    """What a database does its own way: beginning a write, naming its failures, and where
    it keeps its schema's version."""

    VERSION_QUERY: str

    async def begin(self, writer: Link) -> None:
        """Begin the write transaction, holding the one writer's place until its end."""

    def problem(self, exc: BaseException) -> StoreProblem | None:
        """What a failure of this database means for the club, if it is one we can name."""

    async def closing(self, writer: Link) -> None:
        """Before the writer closes: leave the store whole in its own place (a clean stop)."""

    async def release(self) -> None:
        """Let go of what the open database holds besides its connections."""


class Commits:
    """Who hears of the store's commits: a listener after every commit, or one of a topic
    after each commit that touched it (the outbox sender wakes up on a commit that owed a
    message, not on every one)."""

    def __init__(self) -> None:
        self._listeners: list[tuple[str | None, Callable[[], None]]] = []
        self._touched: set[str] = set()
        """What the open transaction said it wrote."""

    def on(self, listener: Callable[[], None], *, topic: str | None = None) -> None:
        """Once, however often it is asked for."""
        if (topic, listener) not in self._listeners:
            self._listeners.append((topic, listener))

    def touched(self, topic: str) -> None:
        """Inside a write transaction: it wrote to `topic`."""
        self._touched.add(topic)

    def begun(self) -> None:
        self._touched.clear()  # what a transaction rolled back touched never was

    def committed(self) -> None:
        touched, self._touched = self._touched, set()
        for topic, listener in self._listeners:
            if topic is None or topic in touched:
                listener()


class Database:
    """An open store (`await storage.store.open_store(address)`; `await db.close()`)."""

    def __init__(self, path: Path | str, writer: Link, reader: Link, bulk: Link,
                 engine: Engine) -> None:
        self.path = path
        """The file, or the PostgreSQL address (without its password): what a refusal
        names."""
        self.writer = writer
        self.reader = reader
        self.bulk = bulk
        """For reading the whole season: a connection of its own, so that the small
        questions every message asks never queue behind it."""
        self._lock = asyncio.Lock()
        self.engine = engine
        self._owner: asyncio.Task[Any] | None = None
        """The task whose write transaction is open: what it opens inside joins it."""
        self.commits = Commits()
        self._before_commit: list[CommitHook] = []
        self.cache = Cache(self)

    async def close(self) -> None:
        await self.bulk.close()
        await self.reader.close()
        try:
            await self.engine.closing(self.writer)
        finally:
            await self.writer.close()
            await self.engine.release()

    def inside(self) -> bool:
        """Whether this task has the write transaction open (a task it starts has not: that
        one waits for the lock like any other)."""
        return self._owner is not None and asyncio.current_task() is self._owner

    @property
    def conn(self) -> Link:
        """The connection to read with: the open transaction's, else the reader."""
        return self.writer if self.inside() else self.reader

    @property
    def bulk_conn(self) -> Link:
        """The connection to read the whole season with: the transaction's, else `bulk`."""
        return self.writer if self.inside() else self.bulk

    @asynccontextmanager
    async def fresh(self) -> AsyncIterator[Link]:
        """A connection that sees every commit so far: the writer, between transactions.
        The shared reader can be on an older snapshot while another read on it is under
        way; a reader that must see its own last write (the outbox sender: a message marked
        sent is never due again) reads here."""
        if self.inside():
            yield self.writer
            return
        async with self._lock:
            yield self.writer

    def before_commit(self, hook: CommitHook) -> None:
        """Run `hook` inside every outermost write transaction, just before it commits (once
        per hook, however often it is asked for)."""
        if hook not in self._before_commit:
            self._before_commit.append(hook)

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Link]:
        """A write transaction: all of it commits, or none of it. Nested: joins the outer."""
        if self.inside():
            yield self.writer
            return
        async with self._lock:
            self._owner = asyncio.current_task()
            try:
                await self._begin()
                try:
                    self.cache.begun()
                    self.commits.begun()
                    yield self.writer
                    for hook in self._before_commit:
                        await hook(self.writer)
                    written = await self.written_version() if self.cache.offering else None
                    await self.writer.commit()
                    self.cache.committed(written)
                except BaseException as exc:
                    self.cache.dropped()
                    if self.writer.in_transaction:
                        await self.writer.rollback()
                    problem = self.engine.problem(exc)
                    if problem is not None:
                        raise StoreError(problem, path=self.path, reason=exc) from exc
                    raise
            finally:
                self._owner = None
        self.commits.committed()

    async def _begin(self) -> None:
        try:
            await self.engine.begin(self.writer)
        except Exception as exc:
            problem = self.engine.problem(exc)
            if problem is None:
                raise
            raise StoreError(problem, path=self.path, reason=exc) from exc

    async def versions(self) -> Versions:
        """The committed versions, read on the reader (`data` changes whenever a commit
        changed the club's data)."""
        return await versions(self.reader)

    async def written_version(self) -> int:
        """The data version as the open transaction sees it."""
        return (await versions(self.writer)).data
