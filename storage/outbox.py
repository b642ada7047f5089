"""The outbox: every message the bot owes is a row, written in the same transaction as the
change that owes it. One sender delivers the rows in order, retries what failed for a while,
and records what cannot be delivered; nothing owed is dropped."""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Collection
from dataclasses import dataclass
from typing import Any

from storage import audit
from storage.db import Database
from storage.seasons import player_id, round_row, season_id


@dataclass(frozen=True, slots=True)
class Outgoing:
    """One message to send."""

    chat_id: int
    text: str
    thread_id: int | None = None
    markup: dict[str, Any] | None = None
    """Inline keyboard, as the Bot API takes it."""
    round: int | None = None
    kind: str | None = None
    """With `round`: remember the sent message as this kind (a reply to it names the round)."""
    player: str | None = None
    about: str = ""
    """Whom it is for, in words (named to the arbiter if it cannot be delivered)."""
    reply_to: int | None = None
    """The message (in the same chat) it answers; sent anyway if that one is gone."""
    edits: int | None = None
    """Not a new message: this message of the chat, edited to `text` with `markup` (an
    empty `text` changes only the buttons; no `markup` takes them off)."""


@dataclass(frozen=True, slots=True)
class Pending:
    id: int
    message: Outgoing
    attempts: int


TOPIC = "outbox"
"""What a transaction that owes messages touched (`Commits.touched`): the sender of this
process wakes up at its commit. Another process's messages are found at its next look."""


async def owe(db: Database, messages: list[Outgoing]) -> None:
    """Owe these messages (inside the caller's transaction, if any)."""
    now = audit.now()
    async with db.transaction() as conn:
        db.commits.touched(TOPIC)
        await conn.executemany(
            "INSERT INTO outbox (chat_id, thread_id, text, markup, round_no, kind, player, "
            "about, reply_to, edits, created_at, due_at) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [(m.chat_id, m.thread_id, m.text, None if m.markup is None else json.dumps(m.markup),
              m.round, m.kind, m.player, m.about, m.reply_to, m.edits, now, now)
             for m in messages])


async def move_chat(db: Database, old: int, new: int) -> int:
    """A group became a supergroup (a new chat id): what it is still owed goes to the new
    chat, now, as a plain message (the messages it answered stayed in the old chat)."""
    async with db.transaction() as conn:
        db.commits.touched(TOPIC)
        # An edit is of a message of the old chat: it stays there, unedited.
        await conn.execute(
            "UPDATE outbox SET failed_at = ?, error = 'the chat moved' WHERE chat_id = ? AND "
            "edits IS NOT NULL AND sent_at IS NULL AND failed_at IS NULL", (audit.now(), old))
        cur = await conn.execute(
            "UPDATE outbox SET chat_id = ?, reply_to = NULL, due_at = ? WHERE chat_id = ? "
            "AND sent_at IS NULL AND failed_at IS NULL", (new, audit.now(), old))
        return cur.rowcount


_DUE = ("sent_at IS NULL AND failed_at IS NULL AND due_at <= ? AND NOT EXISTS (SELECT 1 "
        "FROM outbox e WHERE e.chat_id = o.chat_id AND e.id < o.id AND e.sent_at IS NULL AND "
        "e.failed_at IS NULL AND e.due_at > ?)")
"""A row that should go out now: due, and no earlier row of its chat waits for a retry (a
chat gets its messages in order)."""


async def due_chats(db: Database, now: dt.datetime) -> list[int]:
    """The chats with a message that should go out now, the longest waiting first."""
    async with db.fresh() as conn, conn.execute(
            f"SELECT chat_id, min(id) AS first FROM outbox o WHERE {_DUE} GROUP BY chat_id "
            "ORDER BY first", (_stamp(now), _stamp(now))) as cur:
        return [int(row[0]) for row in await cur.fetchall()]


async def due(db: Database, now: dt.datetime, *, chat: int,
              limit: int = 20) -> list[Pending]:
    """What should go out now to `chat`, oldest first."""
    async with db.fresh() as conn, conn.execute(
            f"SELECT * FROM outbox o WHERE chat_id = ? AND {_DUE} ORDER BY id LIMIT ?",
            (chat, _stamp(now), _stamp(now), limit)) as cur:
        rows = await cur.fetchall()
    return [Pending(r["id"], Outgoing(r["chat_id"], r["text"], r["thread_id"],
                                      None if r["markup"] is None else json.loads(r["markup"]),
                                      r["round_no"], r["kind"], r["player"], r["about"],
                                      r["reply_to"], r["edits"]),
                    r["attempts"]) for r in rows]


async def next_due(db: Database, *, besides: Collection[int] = ()) -> dt.datetime | None:
    """When a message is next due, in a chat not among `besides` (those being sent to): the
    time of each chat's first message not yet sent (those after it wait for it)."""
    async with db.fresh() as conn, conn.execute(
            "SELECT chat_id, due_at FROM outbox o WHERE sent_at IS NULL AND failed_at IS NULL "
            "AND NOT EXISTS (SELECT 1 FROM outbox e WHERE e.chat_id = o.chat_id AND e.id < o.id "
            "AND e.sent_at IS NULL AND e.failed_at IS NULL)") as cur:
        rows = await cur.fetchall()
    moments = [row[1] for row in rows if row[0] not in besides]
    return dt.datetime.fromisoformat(min(moments)) if moments else None


async def sent(db: Database, pending: Pending, message_id: int) -> None:
    """Delivered: marked, and remembered as the round's message where asked."""
    message = pending.message
    async with db.transaction() as conn:
        await conn.execute("UPDATE outbox SET sent_at = ?, message_id = ?, attempts = attempts "
                           "+ 1 WHERE id = ?", (audit.now(), message_id, pending.id))
        if message.round is None or message.kind is None:
            return
        sid = await season_id(db)
        rnd = await round_row(conn, sid, message.round)
        pid = None if message.player is None else await player_id(conn, sid, message.player)
        await conn.execute("INSERT INTO posted_message (round_id, kind, chat_id, message_id, "
                           "player_id) VALUES (?, ?, ?, ?, ?)",
                           (rnd["id"], message.kind, message.chat_id, message_id, pid))


async def retry(db: Database, pending: Pending, at: dt.datetime, error: str) -> None:
    async with db.transaction() as conn:
        await conn.execute("UPDATE outbox SET due_at = ?, attempts = attempts + 1, error = ? "
                           "WHERE id = ?", (_stamp(at), error, pending.id))


async def failed(db: Database, pending: Pending, error: str) -> None:
    """Never deliverable (blocked, no such chat, given up): recorded, not retried."""
    async with db.transaction() as conn:
        await conn.execute("UPDATE outbox SET failed_at = ?, attempts = attempts + 1, error = ? "
                           "WHERE id = ?", (audit.now(), error, pending.id))


def _stamp(moment: dt.datetime) -> str:
    """As `audit.now()` writes times, so that text order is time order."""
    return moment.astimezone(dt.UTC).isoformat(timespec="microseconds")
