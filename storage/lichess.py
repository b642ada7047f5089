"""lichess accounts: each member's, and the club's organiser account (the one that makes a
round's games), with their tokens as the caller sealed them; and the sign-ins under way.

The tokens are stored as given: sealing them is the caller's (`storage.seal`), so that
the key never reaches the database or its backups."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass

from storage import audit
from storage.db import Database
from storage.seasons import round_row, season_id

LOGIN_VALID = dt.timedelta(minutes=10)
"""How long a sign-in link works: long enough to sign in at lichess, short enough that a link
found later in a chat's history leads nowhere."""


@dataclass(frozen=True, slots=True)
class Account:
    username: str
    token: str
    """Sealed."""


@dataclass(frozen=True, slots=True)
class Login:
    """A sign-in under way: who asked, the PKCE verifier, and for which account."""

    telegram_id: int
    verifier: str
    organiser: bool


async def begin(db: Database, state: str, telegram_id: int, verifier: str, *,
                organiser: bool, now: dt.datetime) -> None:
    """Keep a sign-in under way (and forget the ones whose link has run out)."""
    async with db.transaction() as conn:
        await conn.execute("DELETE FROM lichess_login WHERE created_at < ?",
                           ((now - LOGIN_VALID).isoformat(),))
        await conn.execute("INSERT INTO lichess_login (state, telegram_id, verifier, organiser,"
                           " created_at) VALUES (?, ?, ?, ?, ?)",
                           (state, telegram_id, verifier, int(organiser), now.isoformat()))


async def login(db: Database, state: str, *, now: dt.datetime) -> Login | None:
    """The sign-in `state` names, if its link still works."""
    async with db.conn.execute("SELECT telegram_id, verifier, organiser FROM lichess_login "
                               "WHERE state = ? AND created_at >= ?",
                               (state, (now - LOGIN_VALID).isoformat())) as cur:
        row = await cur.fetchone()
    return None if row is None else Login(int(row[0]), str(row[1]), bool(row[2]))


async def linked_elsewhere(db: Database, username: str, telegram_id: int) -> bool:
    """Whether another member linked the lichess account `username` (lichess's names are
    one whatever their case)."""
    async with db.conn.execute("SELECT count(*) FROM lichess WHERE lower(username) = ? "
                               "AND telegram_id <> ?", (username.lower(), telegram_id)) as cur:
        row = await cur.fetchone()
    return bool(row and row[0])


async def drop_login(db: Database, state: str) -> None:
    """A sign-in used up without a link."""
    async with db.transaction() as conn:
        await conn.execute("DELETE FROM lichess_login WHERE state = ?", (state,))


async def link(db: Database, state: str, login: Login, username: str, token: str, *,
               now: dt.datetime) -> None:
    """The sign-in done: its account kept (over one linked before), its link used up."""
    async with db.transaction() as conn:
        await conn.execute("DELETE FROM lichess_login WHERE state = ?", (state,))
        if login.organiser:
            await conn.execute("UPDATE club SET lichess_organiser = ?, "
                               "lichess_organiser_token = ? WHERE id = 1", (username, token))
        else:
            # Replaced, not upserted: PostgreSQL's key is the club's and the member's.
            await conn.execute("DELETE FROM lichess WHERE telegram_id = ?", (login.telegram_id,))
            await conn.execute("INSERT INTO lichess (telegram_id, username, token, linked_at) "
                               "VALUES (?, ?, ?, ?)",
                               (login.telegram_id, username, token, now.isoformat()))
        await audit.record(conn, actor=login.telegram_id, action="lichess_link",
                           entity="club" if login.organiser else "lichess",
                           entity_id=login.telegram_id, new={"username": username})


async def account(db: Database, telegram_id: int) -> Account | None:
    async with db.conn.execute("SELECT username, token FROM lichess WHERE telegram_id = ?",
                               (telegram_id,)) as cur:
        row = await cur.fetchone()
    return None if row is None else Account(str(row[0]), str(row[1]))


async def organiser(db: Database) -> Account | None:
    """The club's organiser account, if the arbiter linked one."""
    async with db.conn.execute("SELECT lichess_organiser, lichess_organiser_token FROM club "
                               "WHERE id = 1") as cur:
        row = await cur.fetchone()
    return None if row is None or row[0] is None else Account(str(row[0]), str(row[1]))


async def forget(db: Database, telegram_id: int, *, of_club: bool,
                 actor: int) -> Account | None:
    """Forget a member's account (`of_club`: the club's organiser account); the one
    forgotten."""
    async with db.transaction() as conn:
        was = await (organiser(db) if of_club else account(db, telegram_id))
        if was is None:
            return None
        if of_club:
            await conn.execute("UPDATE club SET lichess_organiser = NULL, "
                               "lichess_organiser_token = NULL WHERE id = 1")
        else:
            await conn.execute("DELETE FROM lichess WHERE telegram_id = ?", (telegram_id,))
        await audit.record(conn, actor=actor, action="lichess_unlink",
                           entity="club" if of_club else "lichess", entity_id=telegram_id,
                           old={"username": was.username})
    return was


MISSING = "missing"
"""A board of an online round without its lichess game: a player has no account lichess
takes (the arbiter was told), so far."""


@dataclass(frozen=True, slots=True)
class OnlineBoard:
    """A board of an online round as lichess has it: its game (None: not made yet) and what
    lichess last said of it (`created`, `started`, or how it ended; `MISSING`)."""

    board: int
    white: str
    black: str
    game_id: str | None
    status: str | None
    """None: nothing tried for this board yet."""
    final: bool
    """Its result in the round is final (entered, confirmed)."""


async def online_boards(db: Database, number: int) -> list[OnlineBoard]:
    """The round's boards, each with its lichess game where one was made for these two
    players (a board the arbiter changed since has none)."""
    conn = db.conn
    sid = await season_id(db)
    async with conn.execute(
            "SELECT g.board, w.code, b.code, lg.game_id, lg.status, g.confirmed_at "
            "FROM game g JOIN round r ON r.id = g.round_id "
            "JOIN player w ON w.id = g.white_id JOIN player b ON b.id = g.black_id "
            "LEFT JOIN lichess_game lg ON lg.round_id = g.round_id AND lg.board = g.board "
            "AND lg.white_id = g.white_id AND lg.black_id = g.black_id "
            "WHERE r.season_id = ? AND r.number = ? ORDER BY g.board", (sid, number)) as cur:
        return [OnlineBoard(int(r[0]), str(r[1]), str(r[2]), r[3], r[4], r[5] is not None)
                for r in await cur.fetchall()]


async def keep_game(db: Database, number: int, board: OnlineBoard, game_id: str | None,
                    status: str) -> None:
    """What lichess has for a board: its game made (`game_id`), left out (`MISSING`), or how
    it stands now."""
    async with db.transaction() as conn:
        rid = (await round_row(conn, await season_id(db), number))["id"]
        await conn.execute("DELETE FROM lichess_game WHERE round_id = ? AND board = ?",
                           (rid, board.board))
        await conn.execute(
            "INSERT INTO lichess_game (round_id, board, white_id, black_id, game_id, status) "
            "SELECT ?, ?, w.id, b.id, ?, ? FROM player w, player b WHERE w.season_id = ? "
            "AND w.code = ? AND b.season_id = w.season_id AND b.code = ?",
            (rid, board.board, game_id, status, await season_id(db), board.white,
             board.black))


async def accounts_of(db: Database) -> dict[str, Account]:
    """The linked lichess account of each of the season's players who has one, by code."""
    conn = db.conn
    async with conn.execute(
            "SELECT p.code, l.username, l.token FROM player p "
            "JOIN lichess l ON l.telegram_id = p.telegram_id WHERE p.season_id = ?",
            (await season_id(db),)) as cur:
        return {str(r[0]): Account(str(r[1]), str(r[2])) for r in await cur.fetchall()}


async def reseal(db: Database, rekey: Callable[[str], str | None]) -> int:
    """The club's lichess tokens sealed with the new key (`storage.seal.Rekey`); how many no
    key given opens, left as they are (a wrong old key loses nothing)."""
    unopened = 0
    async with db.transaction() as conn:
        async with conn.execute("SELECT telegram_id, token FROM lichess") as cur:
            members = [(row[1], "UPDATE lichess SET token = ? WHERE telegram_id = ?", row[0])
                       for row in await cur.fetchall()]
        async with conn.execute("SELECT lichess_organiser_token, id FROM club WHERE id = 1 "
                                "AND lichess_organiser_token IS NOT NULL") as cur:
            organiser = [(row[0], "UPDATE club SET lichess_organiser_token = ? WHERE id = ?",
                          row[1]) for row in await cur.fetchall()]
        for token, change, key in members + organiser:
            sealed = rekey(str(token))
            if sealed is None:
                unopened += 1
            else:
                await conn.execute(change, (sealed, key))
    return unopened
