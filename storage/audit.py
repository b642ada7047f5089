"""The audit log: one row for every change (who, when, what, old value, new value)."""

from __future__ import annotations

import datetime as dt
import json
from dataclasses import dataclass
from typing import Any

from storage.sql import Connection


def now() -> str:
    return dt.datetime.now(dt.UTC).isoformat(timespec="microseconds")


async def record(conn: Connection, *, actor: int | None, action: str, entity: str,
                 entity_id: object, old: Any = None, new: Any = None) -> None:
    """Write one audit row inside the caller's transaction."""
    await conn.execute(
        "INSERT INTO audit (at, actor, action, entity, entity_id, old, new) "
        "VALUES (?, ?, ?, ?, ?, ?, ?)",
        (now(), actor, action, entity, str(entity_id),
         None if old is None else json.dumps(old, default=str, ensure_ascii=False),
         None if new is None else json.dumps(new, default=str, ensure_ascii=False)))


@dataclass(frozen=True, slots=True)
class AuditEntry:
    at: str
    actor: int | None
    action: str
    entity: str
    entity_id: str
    old: Any
    new: Any


async def entries(conn: Connection, limit: int = 100) -> list[AuditEntry]:
    """The newest entries first."""
    async with conn.execute("SELECT * FROM audit ORDER BY id DESC LIMIT ?", (limit,)) as cur:
        rows = await cur.fetchall()
    return [AuditEntry(r["at"], r["actor"], r["action"], r["entity"], r["entity_id"],
                       None if r["old"] is None else json.loads(r["old"]),
                       None if r["new"] is None else json.loads(r["new"])) for r in rows]

