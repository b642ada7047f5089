"""The members: which Telegram user is which member, finding members by name, new and
leaving members, flexible members and who asked for a private reminder."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from storage import audit
from storage.db import Database
from storage.seasons import checked, player_id, season_id
from storage.sql import Row


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
    sid = await season_id(db)
    async with conn.execute("SELECT code, name, telegram_id, flexible FROM player WHERE "
                            "season_id = ? ORDER BY position", (sid,)) as cur:
        return [_member(r) for r in await cur.fetchall()]


async def member_of(db: Database, telegram_id: int) -> Member | None:
    """The member a Telegram user is linked to, if any (every message asks: one lookup)."""
    conn = db.conn
    async with conn.execute("SELECT code, name, telegram_id, flexible FROM player WHERE "
                            "season_id = ? AND telegram_id = ?",
                            (await season_id(db), telegram_id)) as cur:
        row = await cur.fetchone()
    return None if row is None else _member(row)


def _member(row: Row) -> Member:
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
        sid = await season_id(db)
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
        sid = await season_id(db)
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
        pid = await player_id(conn, await season_id(db), code)
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
        pid = await player_id(conn, await season_id(db), code)
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
            (await season_id(db), number, number)) as cur:
        return [_member(r) for r in await cur.fetchall()]


async def apart(db: Database) -> frozenset[frozenset[str]]:
    """The pairs of the active season's members the arbiter keeps apart, by code."""
    conn = db.conn
    async with conn.execute(
            "SELECT p.code AS one, o.code AS other FROM apart a JOIN player p ON p.id = "
            "a.player_id JOIN player o ON o.id = a.other_id WHERE p.season_id = ?",
            (await season_id(db),)) as cur:
        return frozenset(frozenset((r["one"], r["other"])) for r in await cur.fetchall())


async def keep_apart(db: Database, one: str, other: str, on: bool, *,
                     actor: int | None) -> bool:
    """The two members never meet in a pairing that can keep them apart (or may meet again,
    not `on`); False when that was so already."""
    async with db.transaction() as conn:
        sid = await season_id(db)
        first, second = sorted([await player_id(conn, sid, one),
                                await player_id(conn, sid, other)])
        async with conn.execute("SELECT count(*) FROM apart WHERE player_id = ? AND "
                                "other_id = ?", (first, second)) as cur:
            row = await cur.fetchone()
        if bool(row and row[0]) == on:
            return False
        if on:
            await conn.execute("INSERT INTO apart (player_id, other_id) VALUES (?, ?)",
                               (first, second))
        else:
            await conn.execute("DELETE FROM apart WHERE player_id = ? AND other_id = ?",
                               (first, second))
        await audit.record(conn, actor=actor, action="player.apart", entity="player",
                           entity_id=f"{one} {other}", new=on)
    return True


async def withdraw(db: Database, code: str, *, last_round: int, actor: int | None) -> None:
    """A member stops: `last_round` is the last round he took part in. One who never took
    part (nothing played, nothing signed off) is simply removed."""
    async with db.transaction() as conn:
        sid = await season_id(db)
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
