"""The schedule of the season's rounds (dates, deadlines, states; postponed or cancelled
rounds) and the messages a round was posted in."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from core.rounds import PUBLIC, RoundState
from storage import audit
from storage.db import Database
from storage.errors import InputStoreError, StoreProblem
from storage.rounds import drop_draft
from storage.seasons import checked, round_row, season_id


@dataclass(frozen=True, slots=True)
class ScheduledRound:
    number: int
    date: dt.date | None
    deadline: dt.datetime | None
    state: RoundState
    on_site: bool = False
    """Paired at the venue, from those who say they are there (`attendance.check_in`)."""
    online: bool = False
    """Played on lichess (`bot.flows.online`)."""


async def schedule(db: Database) -> list[ScheduledRound]:
    conn = db.conn
    sid = await season_id(db)
    async with conn.execute("SELECT number, date, deadline, state, on_site, online FROM round "
                            "WHERE "
                            "season_id = ? ORDER BY number", (sid,)) as cur:
        return [ScheduledRound(r["number"],
                               None if r["date"] is None else dt.date.fromisoformat(r["date"]),
                               None if r["deadline"] is None
                               else dt.datetime.fromisoformat(r["deadline"]),
                               RoundState(r["state"]), bool(r["on_site"]), bool(r["online"]))
                for r in await cur.fetchall()]


@dataclass(frozen=True, slots=True)
class Moved:
    draft_dropped: bool
    announced: bool
    """The members had heard of the old date (its reminder went out, or its room opened)."""


async def set_schedule(db: Database, number: int, *, date: dt.date,
                       deadline: dt.datetime | None, actor: int | None) -> Moved:
    """Move a round not yet published to another date (postpone). A round past its deadline
    is planned again: its draft goes (boards, bye, broken rules), and members can sign off
    until the new deadline. The evening that was is over: whoever said he was in its room
    is not in the new one, and the reminder goes out again before the new deadline."""
    async with db.transaction() as conn:
        rnd = await round_row(conn, await season_id(db), number)
        if rnd["state"] in PUBLIC:
            raise InputStoreError(StoreProblem.MOVE_PUBLISHED, round=number)
        reopened = rnd["state"] != RoundState.PLANNED  # past its deadline: open again
        if reopened:
            await drop_draft(conn, rnd, RoundState.PLANNED, actor=actor)
        another_day = rnd["date"] != date.isoformat()
        if another_day:
            await conn.execute("DELETE FROM present WHERE round_id = ?", (rnd["id"],))
            await conn.execute("UPDATE round SET reminded_at = NULL WHERE id = ?",
                               (rnd["id"],))
        await conn.execute("UPDATE round SET date = ?, deadline = ? WHERE id = ?",
                           (date.isoformat(), None if deadline is None else deadline.isoformat(),
                            rnd["id"]))
        await audit.record(conn, actor=actor, action="round.move", entity="round",
                           entity_id=number, old={"date": rnd["date"], "state": rnd["state"]},
                           new={"date": date.isoformat()})
        if reopened:
            await checked(db)
    return Moved(rnd["state"] == RoundState.DRAFTED,
                 another_day and (rnd["reminded_at"] is not None or reopened))


async def message_round(db: Database, chat_id: int, message_id: int) -> int | None:
    """The round a message of ours was about (for replies to a pairing)."""
    async with db.conn.execute(
            "SELECT r.number FROM posted_message m JOIN round r ON r.id = m.round_id "
            "WHERE m.chat_id = ? AND m.message_id = ?", (chat_id, message_id)) as cur:
        row = await cur.fetchone()
    return None if row is None else int(row[0])


async def posted(db: Database, round_no: int, kind: str) -> list[tuple[int, int, str | None]]:
    """The messages of a kind sent about a round: (chat, message, the player it was for)."""
    conn = db.conn
    async with conn.execute(
            "SELECT m.chat_id, m.message_id, p.code FROM posted_message m "
            "JOIN round r ON r.id = m.round_id LEFT JOIN player p ON p.id = m.player_id "
            "WHERE r.season_id = ? AND r.number = ? AND m.kind = ?",
            (await season_id(db), round_no, kind)) as cur:
        return [(int(r[0]), int(r[1]), r[2]) for r in await cur.fetchall()]


async def mark_reminded(db: Database, number: int) -> bool:
    """Note that the reminder for a round went out; False if it already had (send once)."""
    async with db.transaction() as conn:
        rnd = await round_row(conn, await season_id(db), number)
        if rnd["reminded_at"] is not None:
            return False
        await conn.execute("UPDATE round SET reminded_at = ? WHERE id = ?",
                           (audit.now(), rnd["id"]))
    return True


async def cancel_round(db: Database, number: int, *, actor: int | None) -> None:
    """A round that will not be played (a holiday, the hall is closed): it goes, with its
    sign-offs and any draft, and the later rounds move up one number. Only rounds not yet
    published, and only when no later round is."""
    async with db.transaction() as conn:
        sid = await season_id(db)
        rnd = await round_row(conn, sid, number)
        async with conn.execute("SELECT number, state FROM round WHERE season_id = ? AND "
                                "number >= ?", (sid, number)) as cur:
            later = await cur.fetchall()
        busy = next((r for r in later if r["state"] in PUBLIC), None)
        if busy is not None:
            raise InputStoreError(StoreProblem.BAD_STATE, round=busy["number"],
                                  state=busy["state"])
        await conn.execute("DELETE FROM round WHERE id = ?", (rnd["id"],))
        # Two steps, because (season, number) is unique at every row of an UPDATE.
        await conn.execute("UPDATE round SET number = -number WHERE season_id = ? AND "
                           "number > ?", (sid, number))
        await conn.execute("UPDATE round SET number = -number - 1 WHERE season_id = ? AND "
                           "number < 0", (sid,))
        await audit.record(conn, actor=actor, action="round.cancel", entity="round",
                           entity_id=number, old={"date": rnd["date"], "state": rnd["state"]})
        await checked(db)
