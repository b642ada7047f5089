"""Ratings from the KNSB list: the proposal the arbiter looks at (stored, so his buttons work
after a restart) and the change he confirms, in one transaction with its audit rows."""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import asdict, replace
from typing import Any

from core.ratings import IDENTITY, Change, Listed, Match, Proposal
from storage import audit
from storage.db import Database, inserted
from storage.seasons import season_id


def _to_text(proposal: Proposal) -> str:
    data = asdict(proposal)
    data["accepted"] = sorted(proposal.accepted)
    return json.dumps(data, ensure_ascii=False)


def _change(data: dict[str, Any]) -> Change:
    return Change(data["player"], data["name"], Listed(**data["listed"]), Match(data["match"]),
                  data["old_rating"], data["old_knsb"], data.get("old_identity", {}))


def _from_text(text: str) -> Proposal:
    data = json.loads(text)
    return Proposal(tuple(_change(c) for c in data["updates"]),
                    tuple(_change(c) for c in data["close"]), tuple(data["unchanged"]),
                    tuple(data["missing"]), data["listed"], frozenset(data["accepted"]))


async def propose(db: Database, proposal: Proposal, *, actor: int | None) -> int:
    """Keep a proposal for the arbiter's decision; its number is returned."""
    async with db.transaction() as conn:
        return await inserted(conn, (
            "INSERT INTO rating_proposal (season_id, proposal, created_at, created_by) "
            "VALUES (?, ?, ?, ?)"), (await season_id(db), _to_text(proposal), audit.now(),
                                     actor))


async def pending(db: Database, number: int) -> Proposal | None:
    """The proposal, while it waits for a decision (in the season it was made for)."""
    async with db.conn.execute(
            "SELECT proposal FROM rating_proposal WHERE id = ? AND done_at IS NULL AND "
            "season_id = (SELECT id FROM season WHERE active = 1 ORDER BY id DESC LIMIT 1)",
            (number,)) as cur:
        row = await cur.fetchone()
    return None if row is None else _from_text(row[0])


async def accept(db: Database, number: int, close: int) -> Proposal | None:
    """The arbiter confirms close match `close`; None when the proposal is decided."""
    async with db.transaction() as conn:
        proposal = await pending(db, number)
        if proposal is None or not 0 <= close < len(proposal.close):
            return proposal
        proposal = replace(proposal, accepted=proposal.accepted | {close})
        await conn.execute("UPDATE rating_proposal SET proposal = ? WHERE id = ?",
                           (_to_text(proposal), number))
    return proposal


async def decide(db: Database, number: int, *, confirm: bool,
                 actor: int | None) -> tuple[Change, ...] | None:
    """Confirm (write the ratings) or drop the proposal; None when it was decided already."""
    async with db.transaction() as conn:
        proposal = await pending(db, number)
        if proposal is None:
            return None
        await conn.execute("UPDATE rating_proposal SET done_at = ? WHERE id = ?",
                           (audit.now(), number))
        changes = proposal.to_apply() if confirm else ()
        await update_players(db, changes, actor=actor)
    return changes


async def update_players(db: Database, changes: Iterable[Change], *,
                         actor: int | None) -> None:
    """The list's ratings, relation numbers and what it says of who they are (title,
    federation, sex, birth) on these members of the active season."""
    async with db.transaction() as conn:
        sid = await season_id(db)
        for change in changes:
            new = {"rating": change.new_rating, "knsb": change.listed.knsb,
                   **change.new_identity}
            columns = {**new, **{k: change.new_identity.get(k) for k in IDENTITY}}
            await conn.execute(
                f"UPDATE player SET {', '.join(f'{k} = ?' for k in columns)} "
                "WHERE season_id = ? AND code = ?", (*columns.values(), sid, change.player))
            await audit.record(conn, actor=actor, action="player.rating", entity="player",
                               entity_id=change.player,
                               old={"rating": change.old_rating, "knsb": change.old_knsb,
                                    **change.old_identity}, new=new)
