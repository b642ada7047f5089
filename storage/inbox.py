"""The inbox: every Telegram update is stored here before its offset is confirmed, so an
update Telegram handed over is never lost, and handled once: the commit of its effect marks it
done (`handling`); an update with no effect is marked done when handled."""

from __future__ import annotations

import contextvars
import datetime as dt
import json
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from storage import audit
from storage.db import Database
from storage.sql import Connection


@dataclass(slots=True)
class Handling:
    """An update under way (`handling`)."""

    update_id: int
    marking: bool = False
    """A transaction of its handling marks it done."""
    marked: bool = False
    """One that did committed: nothing is left to mark (`mark_done`)."""


_handled: contextvars.ContextVar[Handling | None] = contextvars.ContextVar("handled",
                                                                          default=None)


@dataclass(frozen=True, slots=True)
class StoredUpdate:
    update_id: int
    payload: dict[str, Any]


async def store(db: Database, updates: Iterable[dict[str, Any]]) -> int:
    """Keep these updates (one transaction; an update seen before is kept once). Returns the
    highest update id stored so far, the offset to confirm."""
    rows = [(int(u["update_id"]), json.dumps(u, ensure_ascii=False), audit.now())
            for u in updates]
    async with db.transaction() as conn:
        await conn.executemany("INSERT INTO inbox (update_id, payload, received_at) "
                               "VALUES (?, ?, ?) ON CONFLICT DO NOTHING", rows)
        return await _last_id(conn)


async def last_id(db: Database) -> int:
    async with db.fresh() as conn:
        return await _last_id(conn)


async def _last_id(conn: Connection) -> int:
    async with conn.execute("SELECT coalesce(max(update_id), 0) FROM inbox") as cur:
        row = await cur.fetchone()
    return int(row[0]) if row else 0


PAGE = 100
"""Updates read at a time (`pending`): fewer, and none is left after them."""


async def pending(db: Database, *, after: int = 0, limit: int = PAGE) -> list[StoredUpdate]:
    """Updates stored but not handled yet, oldest first. Read where every commit is seen:
    on an older snapshot an update just handled would look pending, and be handled twice."""
    async with db.fresh() as conn, conn.execute(
            "SELECT update_id, payload FROM inbox WHERE done_at IS NULL AND update_id > ? "
            "ORDER BY update_id LIMIT ?", (after, limit)) as cur:
        return [StoredUpdate(int(r[0]), json.loads(r[1])) for r in await cur.fetchall()]


@contextmanager
def handling(db: Database, update_id: int) -> Iterator[Handling]:
    """While the bot handles stored update `update_id`: the commit that stores its effect
    also marks it done (then `marked`: an update whose handling wrote nothing is marked done
    after it)."""
    db.before_commit(_mark_handled)
    db.commits.on(_committed)
    handled = Handling(update_id)
    token = _handled.set(handled)
    try:
        yield handled
    finally:
        _handled.reset(token)


async def _mark_handled(conn: Connection) -> None:
    handled = _handled.get()
    if handled is not None:
        await _mark(conn, handled.update_id)
        handled.marking = True


def _committed() -> None:
    # Every transaction of a handling marks its update: one that committed did.
    handled = _handled.get()
    if handled is not None and handled.marking:
        handled.marked = True


async def mark_done(db: Database, update_id: int) -> None:
    """An update whose handling changed nothing (a question, a refusal) is done now."""
    async with db.transaction() as conn:
        await _mark(conn, update_id)


async def _mark(conn: Connection, update_id: int) -> None:
    await conn.execute("UPDATE inbox SET done_at = ? WHERE update_id = ? AND done_at IS NULL",
                       (audit.now(), update_id))


async def prune(db: Database, *, keep_days: int = 30) -> None:
    """Forget handled updates after a while (the newest is kept: it carries the offset)."""
    async with db.transaction() as conn:
        # Older rows say `YYYY-MM-DD HH:MM:SS` (SQLite's clock), newer ones ISO with a `T`:
        # both sort by time against an ISO moment, to within the day that is kept anyway.
        before = (dt.datetime.now(dt.UTC) - dt.timedelta(days=keep_days)).isoformat()
        await conn.execute("DELETE FROM inbox WHERE done_at IS NOT NULL AND done_at < ? "
                           "AND update_id < (SELECT max(update_id) FROM inbox)", (before,))
