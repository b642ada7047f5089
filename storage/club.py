"""The club around the competition: settings, arbiters, which Telegram user is which member,
new and leaving members, the schedule, and the messages a round was posted in."""

from __future__ import annotations

import datetime as dt
import re
import unicodedata
from dataclasses import dataclass

import aiosqlite

from core.season import data_to_json
from storage import audit
from storage.db import Database
from storage.errors import InputStoreError, StoreProblem
from storage.seasons import checked, player_id, round_row, season_id
from storage.states import PUBLIC, RoundState


@dataclass(frozen=True, slots=True)
class ClubSettings:
    name: str
    round_start: dt.time
    """When a round starts, local time."""
    deadline_minutes: int
    """Sign-off deadline: this many minutes before the round starts."""
    reminder_minutes: int
    """Reminder to the group: this many minutes before the round starts."""
    group_chat_id: int | None
    group_thread_id: int | None
    web: str = "openbaar"
    """Who sees the live pages: `openbaar` (everyone), `leden` (linked members, inside
    Telegram) or `uit`."""


async def settings(db: Database) -> ClubSettings:
    async with db.conn.execute("SELECT * FROM club WHERE id = 1") as cur:
        row = await cur.fetchone()
    assert row is not None
    return ClubSettings(row["name"], dt.time.fromisoformat(row["round_start"]),
                        row["deadline_minutes"], row["reminder_minutes"], row["group_chat_id"],
                        row["group_thread_id"], row["web"])


_SETTING_COLUMNS = {"name", "round_start", "deadline_minutes", "reminder_minutes",
                    "group_chat_id", "group_thread_id", "web"}


async def change_settings(db: Database, *, actor: int | None, **changes: object) -> None:
    unknown = set(changes) - _SETTING_COLUMNS
    if unknown:
        raise ValueError(f"unknown club settings: {sorted(unknown)}")
    async with db.transaction() as conn:
        async with conn.execute("SELECT * FROM club WHERE id = 1") as cur:
            old = dict(await cur.fetchone() or {})
        for column, value in changes.items():
            stored = value.isoformat(timespec="minutes") if isinstance(value, dt.time) else value
            await conn.execute(f"UPDATE club SET {column} = ? WHERE id = 1", (stored,))
        await audit.record(conn, actor=actor, action="club.settings", entity="club",
                           entity_id=1, old={k: old.get(k) for k in changes}, new=changes)


async def follow_group(db: Database, old: int, new: int, *, actor: int | None) -> bool:
    """The club group moved from chat `old` to `new` (it became a supergroup); True if it was
    the club group and this call moved it (a second call, for the same move, changes
    nothing)."""
    async with db.transaction() as conn:
        cur = await conn.execute("UPDATE club SET group_chat_id = ? WHERE id = 1 AND "
                                 "group_chat_id = ?", (new, old))
        if cur.rowcount == 0:
            return False
        await audit.record(conn, actor=actor, action="club.group_migrated", entity="club",
                           entity_id=1, old={"group_chat_id": old},
                           new={"group_chat_id": new})
    return True


async def arbiters(db: Database) -> set[int]:
    async with db.conn.execute("SELECT telegram_id FROM arbiter") as cur:
        return {int(r[0]) for r in await cur.fetchall()}


async def set_arbiter(db: Database, telegram_id: int, *, name: str = "", on: bool = True,
                      actor: int | None) -> None:
    async with db.transaction() as conn:
        if on:
            await conn.execute("INSERT OR IGNORE INTO arbiter (telegram_id, name, added_at) "
                               "VALUES (?, ?, ?)", (telegram_id, name, audit.now()))
        else:
            await conn.execute("DELETE FROM arbiter WHERE telegram_id = ?", (telegram_id,))
        await audit.record(conn, actor=actor, action="arbiter.add" if on else "arbiter.remove",
                           entity="arbiter", entity_id=telegram_id)


@dataclass(frozen=True, slots=True)
class Member:
    code: str
    name: str
    telegram_id: int | None
    flexible: bool = False
    """Plays only the rounds he signs on for."""


async def members(db: Database) -> list[Member]:
    """The members of the active season, in registration order."""
    conn = db.conn
    sid = await season_id(conn)
    async with conn.execute("SELECT code, name, telegram_id, flexible FROM player WHERE "
                            "season_id = ? ORDER BY position", (sid,)) as cur:
        return [_member(r) for r in await cur.fetchall()]


async def member_of(db: Database, telegram_id: int) -> Member | None:
    """The member a Telegram user is linked to, if any (every message asks: one lookup)."""
    conn = db.conn
    async with conn.execute("SELECT code, name, telegram_id, flexible FROM player WHERE "
                            "season_id = ? AND telegram_id = ?",
                            (await season_id(conn), telegram_id)) as cur:
        row = await cur.fetchone()
    return None if row is None else _member(row)


def _member(row: aiosqlite.Row) -> Member:
    return Member(row["code"], row["name"], row["telegram_id"], bool(row["flexible"]))


def exact(candidates: list[Member], text: str) -> list[Member]:
    """Members whose name is `text` (ignoring case and accents) or whose code is `text`."""
    wanted = _fold(text)
    return [m for m in candidates if _fold(m.name) == wanted or m.code == text.strip()]


def find(candidates: list[Member], text: str) -> list[Member]:
    """Members matching `text`: exact first, else every name containing it."""
    wanted = _fold(text)
    return exact(candidates, text) or [m for m in candidates
                                       if wanted and wanted in _fold(m.name)]


def _fold(text: str) -> str:
    plain = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return " ".join(plain.lower().split())


async def link(db: Database, code: str, telegram_id: int | None, *, actor: int | None) -> None:
    """Link a member to a Telegram user (None: unlink); a user is one member at most."""
    async with db.transaction() as conn:
        sid = await season_id(conn)
        pid = await player_id(conn, sid, code)
        await conn.execute("UPDATE player SET telegram_id = NULL WHERE season_id = ? AND "
                           "telegram_id = ?", (sid, telegram_id))
        await conn.execute("UPDATE player SET telegram_id = ? WHERE id = ?", (telegram_id, pid))
        await audit.record(conn, actor=actor, action="member.link", entity="player",
                           entity_id=code, new=telegram_id)


async def add_player(db: Database, name: str, *, rating: int | None, youth: bool,
                     joined: int, actor: int | None, flexible: bool = False) -> str:
    """A new member who plays from round `joined`; returns his code."""
    async with db.transaction() as conn:
        sid = await season_id(conn)
        async with conn.execute("SELECT code FROM player WHERE season_id = ?", (sid,)) as cur:
            taken = {r[0] for r in await cur.fetchall()}
        base = re.sub(r"[^a-z]", "", _fold(name))[:12] or "lid"
        code = next(f"{base}{k}" if k else base for k in range(len(taken) + 2)
                    if (f"{base}{k}" if k else base) not in taken)
        await conn.execute(
            "INSERT INTO player (season_id, code, name, rating, youth, flexible, joined, "
            "position) VALUES (?, ?, ?, ?, ?, ?, ?, (SELECT coalesce(max(position), -1) + 1 "
            "FROM player WHERE season_id = ?))",
            (sid, code, name, rating, int(youth), int(flexible), joined, sid))
        await audit.record(conn, actor=actor, action="player.add", entity="player",
                           entity_id=code, new={"name": name, "rating": rating,
                                                "youth": youth, "flexible": flexible,
                                                "joined": joined})
        await checked(db)
    return code


async def set_flexible(db: Database, code: str, flexible: bool, *, actor: int | None) -> None:
    """A member becomes flexible (plays only when he signs on) or fixed (plays unless he
    signs off). Rounds already locked keep what was recorded for him."""
    async with db.transaction() as conn:
        pid = await player_id(conn, await season_id(conn), code)
        async with conn.execute("SELECT flexible FROM player WHERE id = ?", (pid,)) as cur:
            row = await cur.fetchone()
        await conn.execute("UPDATE player SET flexible = ? WHERE id = ?", (int(flexible), pid))
        await audit.record(conn, actor=actor, action="player.flexible", entity="player",
                           entity_id=code, old=None if row is None else bool(row[0]),
                           new=flexible)
        await checked(db)


async def set_reminder(db: Database, code: str, on: bool, *, actor: int | None) -> None:
    """The member gets the round's reminder in private too (or no longer)."""
    async with db.transaction() as conn:
        pid = await player_id(conn, await season_id(conn), code)
        await conn.execute("UPDATE player SET remind = ? WHERE id = ?", (int(on), pid))
        await audit.record(conn, actor=actor, action="player.remind", entity="player",
                           entity_id=code, new=on)


async def reminded(db: Database, number: int) -> list[Member]:
    """The linked members of round `number` who asked for the reminder in private."""
    conn = db.conn
    async with conn.execute(
            "SELECT code, name, telegram_id, flexible FROM player WHERE season_id = ? AND "
            "remind = 1 AND telegram_id IS NOT NULL AND joined <= ? AND (withdrawn IS NULL "
            "OR withdrawn >= ?) ORDER BY position",
            (await season_id(conn), number, number)) as cur:
        return [_member(r) for r in await cur.fetchall()]


async def withdraw(db: Database, code: str, *, last_round: int, actor: int | None) -> None:
    """A member stops: `last_round` is the last round he took part in. One who never took
    part (nothing played, nothing signed off) is simply removed."""
    async with db.transaction() as conn:
        sid = await season_id(conn)
        pid = await player_id(conn, sid, code)
        async with conn.execute("SELECT joined FROM player WHERE id = ?", (pid,)) as cur:
            row = await cur.fetchone()
        if row is not None and last_round < row["joined"]:
            await conn.execute("DELETE FROM signoff WHERE player_id = ?", (pid,))
            await conn.execute("DELETE FROM player WHERE id = ?", (pid,))
        else:
            await conn.execute("UPDATE player SET withdrawn = ? WHERE id = ?",
                               (last_round, pid))
        await audit.record(conn, actor=actor, action="player.withdraw", entity="player",
                           entity_id=code, new=last_round)
        await checked(db)


@dataclass(frozen=True, slots=True)
class ScheduledRound:
    number: int
    date: dt.date | None
    deadline: dt.datetime | None
    state: RoundState


async def schedule(db: Database) -> list[ScheduledRound]:
    conn = db.conn
    sid = await season_id(conn)
    async with conn.execute("SELECT number, date, deadline, state FROM round WHERE "
                            "season_id = ? ORDER BY number", (sid,)) as cur:
        return [ScheduledRound(r["number"],
                               None if r["date"] is None else dt.date.fromisoformat(r["date"]),
                               None if r["deadline"] is None
                               else dt.datetime.fromisoformat(r["deadline"]),
                               RoundState(r["state"]))
                for r in await cur.fetchall()]


async def set_schedule(db: Database, number: int, *, date: dt.date,
                       deadline: dt.datetime | None, actor: int | None) -> None:
    """Move a planned round to another date (postpone)."""
    async with db.transaction() as conn:
        rnd = await round_row(conn, await season_id(conn), number)
        if rnd["state"] != RoundState.PLANNED:
            raise InputStoreError(StoreProblem.BAD_STATE, round=number, state=rnd["state"])
        await conn.execute("UPDATE round SET date = ?, deadline = ? WHERE id = ?",
                           (date.isoformat(), None if deadline is None else deadline.isoformat(),
                            rnd["id"]))
        await audit.record(conn, actor=actor, action="round.move", entity="round",
                           entity_id=number, old={"date": rnd["date"]},
                           new={"date": date.isoformat()})


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
            (await season_id(conn), round_no, kind)) as cur:
        return [(int(r[0]), int(r[1]), r[2]) for r in await cur.fetchall()]


async def mark_reminded(db: Database, number: int) -> bool:
    """Note that the reminder for a round went out; False if it already had (send once)."""
    async with db.transaction() as conn:
        rnd = await round_row(conn, await season_id(conn), number)
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
        sid = await season_id(conn)
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


async def set_rules(db: Database, source: object, *, actor: int | None) -> None:
    """Replace the season's rules (preset and overrides, as written); the core validates the
    whole season with them before anything is kept."""
    async with db.transaction() as conn:
        sid = await season_id(conn)
        async with conn.execute("SELECT rules FROM season WHERE id = ?", (sid,)) as cur:
            row = await cur.fetchone()
        await conn.execute("UPDATE season SET rules = ? WHERE id = ?",
                           (data_to_json(source), sid))
        await audit.record(conn, actor=actor, action="season.rules", entity="season",
                           entity_id=sid, old=None if row is None else row["rules"],
                           new=source)
        await checked(db)
