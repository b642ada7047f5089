"""The club itself: its settings (the group, times, who may see the pages), its arbiters and
the season's rules."""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal

from core.online import Clock
from core.ratings import RatingList
from core.rules import rules_from_source
from core.season import data_to_json
from core.trf import TrfHeader
from storage import audit
from storage.db import Database
from storage.errors import StoreError, StoreProblem
from storage.seasons import checked, season_id
from storage.states import WebAccess


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
    web: WebAccess = WebAccess.PUBLIC
    """Who sees the live pages."""
    city: str = ""
    """Where the club plays: the city line of a TRF."""
    rating_list: RatingList = RatingList.CLASSICAL
    """Which KNSB list the members' ratings come from."""
    language: str = "nl"
    """The language of the club's group, its pages and its files."""
    online: bool = False
    """New rounds are played online, on lichess (`/ronde nieuw` says otherwise per round)."""
    online_clock: Clock | None = None
    """The clock the arbiter chose for online rounds; None: the club's own tempo
    (`core.online.online_clock`)."""
    online_rated: bool = False
    online_auto: bool = False
    """A result lichess gives is final at once; else a player of the game confirms it."""
    team_ask_days: int = 7
    """How many days before a team match its players are asked whether they can play."""


async def settings(db: Database) -> ClubSettings:
    async with db.conn.execute("SELECT * FROM club WHERE id = 1") as cur:
        row = await cur.fetchone()
    if row is None:  # the club was removed from a host's database while its bot ran
        raise StoreError(StoreProblem.NO_CLUB, club="")
    return ClubSettings(row["name"], dt.time.fromisoformat(row["round_start"]),
                        row["deadline_minutes"], row["reminder_minutes"], row["group_chat_id"],
                        row["group_thread_id"], WebAccess(row["web"]), row["city"],
                        RatingList(row["rating_list"]), row["language"], bool(row["online"]),
                        Clock.parse(row["online_clock"] or ""),
                        bool(row["online_rated"]), bool(row["online_auto"]),
                        row["team_ask_days"])


_SETTING_COLUMNS = {"name", "round_start", "deadline_minutes", "reminder_minutes",
                    "group_chat_id", "group_thread_id", "web", "city", "rating_list",
                    "language", "online", "online_clock", "online_rated", "online_auto",
                    "team_ask_days"}


async def change_settings(db: Database, *, actor: int | None, **changes: object) -> None:
    unknown = set(changes) - _SETTING_COLUMNS
    if unknown:
        raise ValueError(f"unknown club settings: {sorted(unknown)}")
    async with db.transaction() as conn:
        async with conn.execute("SELECT * FROM club WHERE id = 1") as cur:
            old = dict(await cur.fetchone() or {})
        for column, value in changes.items():
            stored = value.isoformat(timespec="minutes") if isinstance(value, dt.time) \
                else str(value) if isinstance(value, Clock) \
                else "" if column == "online_clock" and value is None else value
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


async def trf_header(db: Database, configured: Sequence[int] = ()) -> TrfHeader:
    """The club's city, and as chief arbiter the first arbiter (the configured ones first,
    then by when they were added) who is a linked member: his name is known."""
    async with db.conn.execute("SELECT telegram_id FROM arbiter ORDER BY added_at, telegram_id") \
            as cur:
        added = [row[0] for row in await cur.fetchall()]
    order = list(dict.fromkeys([*configured, *added]))
    async with db.conn.execute(
            "SELECT telegram_id, name FROM player WHERE telegram_id IS NOT NULL AND season_id = "
            "(SELECT id FROM season WHERE active = 1 ORDER BY id DESC LIMIT 1)") as cur:
        linked = {row[0]: row[1] for row in await cur.fetchall()}
    name = next((linked[t] for t in order if t in linked), "")
    return TrfHeader(city=(await settings(db)).city, arbiter=name)


async def set_language(db: Database, telegram_id: int, language: str, *,
                       actor: int | None) -> None:
    async with db.transaction() as conn:
        await conn.execute("DELETE FROM language WHERE telegram_id = ?", (telegram_id,))
        await conn.execute("INSERT INTO language (telegram_id, language) VALUES (?, ?)",
                           (telegram_id, language))
        await audit.record(conn, actor=actor, action="member.language", entity="telegram",
                           entity_id=telegram_id, new={"language": language})


async def languages(db: Database) -> dict[int, str]:
    """Every Telegram user's language, as kept."""
    async with db.conn.execute("SELECT telegram_id, language FROM language") as cur:
        return {int(row[0]): str(row[1]) for row in await cur.fetchall()}


async def keep_language(db: Database, telegram_id: int, language: str) -> None:
    """The language a member first came with, unless one is kept already. Not the season's
    data: the data version does not move, so the season's caches stay."""
    async with db.transaction() as conn:
        await conn.execute("INSERT INTO language (telegram_id, language) VALUES (?, ?) "
                           "ON CONFLICT DO NOTHING", (telegram_id, language))


async def arbiters(db: Database) -> set[int]:
    async with db.conn.execute("SELECT telegram_id FROM arbiter") as cur:
        return {int(r[0]) for r in await cur.fetchall()}


async def set_arbiter(db: Database, telegram_id: int, *, name: str = "", on: bool = True,
                      actor: int | None) -> None:
    async with db.transaction() as conn:
        if on:
            await conn.execute("INSERT INTO arbiter (telegram_id, name, added_at) "
                               "VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
                               (telegram_id, name, audit.now()))
        else:
            await conn.execute("DELETE FROM arbiter WHERE telegram_id = ?", (telegram_id,))
        await audit.record(conn, actor=actor, action="arbiter.add" if on else "arbiter.remove",
                           entity="arbiter", entity_id=telegram_id)


async def time_control(db: Database) -> str:
    """The club's own tempo: the active season's rules' time control (`90+15`)."""
    async with db.conn.execute("SELECT rules FROM season WHERE active = 1 "
                               "ORDER BY id DESC LIMIT 1") as cur:
        row = await cur.fetchone()
    source = "sliedrecht" if row is None else json.loads(row[0], parse_float=Decimal)
    return rules_from_source(source).time_control


async def set_rules(db: Database, source: object, *, actor: int | None) -> None:
    """Replace the season's rules (preset and overrides, as written); the core validates the
    whole season with them before anything is kept."""
    async with db.transaction() as conn:
        sid = await season_id(db)
        async with conn.execute("SELECT rules FROM season WHERE id = ?", (sid,)) as cur:
            row = await cur.fetchone()
        await conn.execute("UPDATE season SET rules = ? WHERE id = ?",
                           (data_to_json(source), sid))
        await audit.record(conn, actor=actor, action="season.rules", entity="season",
                           entity_id=sid, old=None if row is None else row["rules"],
                           new=source)
        await checked(db)
