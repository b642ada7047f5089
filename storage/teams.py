"""The club's teams (issue 49): each team of the active season with its captain and regular
players in board order; its matches, who was asked to play and what he answered, the
lineup and the board results. What a lineup does to the club's rounds (its players signed
off as externals) is the flow's, through `storage.attendance`."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from fractions import Fraction

from core.season import EXTERNAL_RESULTS, external_result_text
from storage import audit
from storage.db import Database, inserted
from storage.seasons import player_id, season_id
from storage.sql import Connection, Row


@dataclass(frozen=True, slots=True)
class Team:
    number: int
    name: str
    captain: str | None
    """The captain's member code."""
    players: tuple[str, ...]
    """The regular players' codes, in board order."""


@dataclass(frozen=True, slots=True)
class Answer:
    code: str
    substitute: bool
    yes: bool | None
    """None: asked, no answer yet."""


@dataclass(frozen=True, slots=True)
class Board:
    board: int
    code: str
    result: Fraction | None


@dataclass(frozen=True, slots=True)
class Match:
    id: int
    team: int
    date: dt.date
    home: bool
    opponent: str
    boards: int
    time: dt.time | None
    """When it starts, local time (None: not given)."""
    first_white: bool | None
    """Whether the club has white on board 1 (and so on every odd board); None: not known."""
    asked: bool
    """Its regular players were asked whether they can play."""
    confirmed: bool
    """The captain confirmed its lineup."""
    answers: tuple[Answer, ...]
    lineup: tuple[Board, ...]


async def teams(db: Database) -> list[Team]:
    """The active season's teams, first team first."""
    conn = db.conn
    async with conn.execute(
            "SELECT t.id, t.number, t.name, c.code AS captain FROM team t LEFT JOIN player c "
            "ON c.id = t.captain_id WHERE t.season_id = ? ORDER BY t.number",
            (await season_id(db),)) as cur:
        rows = await cur.fetchall()
    async with conn.execute(
            "SELECT tp.team_id, p.code FROM team_player tp JOIN player p ON p.id = "
            "tp.player_id JOIN team t ON t.id = tp.team_id WHERE t.season_id = ? "
            "ORDER BY tp.team_id, tp.position", (await season_id(db),)) as cur:
        players: dict[int, list[str]] = {}
        for row in await cur.fetchall():
            players.setdefault(row["team_id"], []).append(row["code"])
    return [Team(row["number"], row["name"], row["captain"], tuple(players.get(row["id"], ())))
            for row in rows]


async def _team_id(conn: Connection, sid: int, number: int) -> int | None:
    async with conn.execute("SELECT id FROM team WHERE season_id = ? AND number = ?",
                            (sid, number)) as cur:
        row = await cur.fetchone()
    return None if row is None else int(row[0])


async def add_team(db: Database, number: int, name: str, *, actor: int | None) -> bool:
    """A new team; False (nothing changed) if the season has one of that number."""
    async with db.transaction() as conn:
        sid = await season_id(db)
        if await _team_id(conn, sid, number) is not None:
            return False
        await conn.execute("INSERT INTO team (season_id, number, name) VALUES (?, ?, ?)",
                           (sid, number, name))
        await audit.record(conn, actor=actor, action="team.add", entity="team",
                           entity_id=number, new={"name": name})
    return True


async def set_captain(db: Database, number: int, code: str, *, actor: int | None) -> bool:
    """The team's captain; False if there is no such team."""
    async with db.transaction() as conn:
        sid = await season_id(db)
        pid = await player_id(conn, sid, code)
        cur = await conn.execute("UPDATE team SET captain_id = ? WHERE season_id = ? AND "
                                 "number = ?", (pid, sid, number))
        if cur.rowcount == 0:
            return False
        await audit.record(conn, actor=actor, action="team.captain", entity="team",
                           entity_id=number, new={"captain": code})
    return True


async def set_players(db: Database, number: int, codes: list[str], *,
                      actor: int | None) -> bool:
    """The team's regular players, in board order (replacing the list before); a member is
    a regular of one team at most, so he leaves another's list. False if no such team."""
    async with db.transaction() as conn:
        sid = await season_id(db)
        tid = await _team_id(conn, sid, number)
        if tid is None:
            return False
        ids = [await player_id(conn, sid, code) for code in codes]
        await conn.execute("DELETE FROM team_player WHERE team_id = ?", (tid,))
        for position, pid in enumerate(ids, start=1):
            await conn.execute("DELETE FROM team_player WHERE player_id = ?", (pid,))
            await conn.execute("INSERT INTO team_player (team_id, player_id, position) "
                               "VALUES (?, ?, ?)", (tid, pid, position))
        await audit.record(conn, actor=actor, action="team.players", entity="team",
                           entity_id=number, new={"players": codes})
    return True


async def add_match(db: Database, number: int, date: dt.date, *, home: bool, opponent: str,
                    boards: int, actor: int | None, time: dt.time | None = None,
                    first_white: bool | None = None) -> int | None:
    """A match of the team; None if the team has one that day already (or no such team)."""
    async with db.transaction() as conn:
        sid = await season_id(db)
        tid = await _team_id(conn, sid, number)
        if tid is None:
            return None
        async with conn.execute("SELECT 1 FROM team_match WHERE team_id = ? AND date = ?",
                                (tid, date.isoformat())) as cur:
            if await cur.fetchone() is not None:
                return None
        made = await inserted(conn, "INSERT INTO team_match (team_id, date, home, opponent, "
                              "boards, time, first_white) VALUES (?, ?, ?, ?, ?, ?, ?)",
                              (tid, date.isoformat(), int(home), opponent, boards,
                               None if time is None else time.isoformat(timespec="minutes"),
                               None if first_white is None else int(first_white)))
        await audit.record(conn, actor=actor, action="team.match", entity="team_match",
                           entity_id=made, new={"team": number, "date": date.isoformat(),
                                                "opponent": opponent})
    return made


async def matches(db: Database, *, since: dt.date | None = None,
                  number: int | None = None) -> list[Match]:
    """The active season's matches in date order (of one team; from a day on)."""
    conn = db.conn
    one = "" if number is None else " AND t.number = ?"
    async with conn.execute(
            "SELECT m.*, t.number FROM team_match m JOIN team t ON t.id = m.team_id "
            f"WHERE t.season_id = ? AND m.date >= ?{one} ORDER BY m.date, t.number",
            (await season_id(db), (since or dt.date.min).isoformat(),
             *(() if number is None else (number,)))) as cur:
        rows = await cur.fetchall()
    return [await _match(conn, row) for row in rows]


async def unasked(db: Database, since: dt.date) -> list[tuple[int, dt.date]]:
    """The matches from `since` on whose players were not asked yet: id and date (one
    query: every tick of the bot asks it)."""
    async with db.conn.execute(
            "SELECT m.id, m.date FROM team_match m JOIN team t ON t.id = m.team_id WHERE "
            "t.season_id = ? AND m.date >= ? AND m.asked = 0 ORDER BY m.date",
            (await season_id(db), since.isoformat())) as cur:
        return [(row[0], dt.date.fromisoformat(row[1])) for row in await cur.fetchall()]


async def match(db: Database, match_id: int) -> Match | None:
    conn = db.conn
    async with conn.execute(
            "SELECT m.*, t.number FROM team_match m JOIN team t ON t.id = m.team_id "
            "WHERE m.id = ? AND t.season_id = ?", (match_id, await season_id(db))) as cur:
        row = await cur.fetchone()
    return None if row is None else await _match(conn, row)


async def _match(conn: Connection, row: Row) -> Match:
    async with conn.execute(
            "SELECT p.code, a.substitute, a.answer FROM team_answer a JOIN player p ON p.id = "
            "a.player_id WHERE a.match_id = ? ORDER BY a.id", (row["id"],)) as cur:
        answers = tuple(Answer(r["code"], bool(r["substitute"]),
                               None if r["answer"] is None else r["answer"] == "yes")
                        for r in await cur.fetchall())
    async with conn.execute(
            "SELECT b.board, p.code, b.result FROM team_board b JOIN player p ON p.id = "
            "b.player_id WHERE b.match_id = ? ORDER BY b.board", (row["id"],)) as cur:
        lineup = tuple(Board(r["board"], r["code"], None if r["result"] is None
                             else EXTERNAL_RESULTS[r["result"]])
                       for r in await cur.fetchall())
    return Match(row["id"], row["number"], dt.date.fromisoformat(row["date"]),
                 bool(row["home"]), row["opponent"], row["boards"],
                 None if row["time"] is None else dt.time.fromisoformat(row["time"]),
                 None if row["first_white"] is None else bool(row["first_white"]),
                 bool(row["asked"]),
                 bool(row["confirmed"]), answers, lineup)


async def ask(db: Database, match_id: int, codes: list[str], *, substitute: bool) -> list[str]:
    """Those of `codes` now asked to play in the match: not those asked for it before, nor
    those asked for another match that day (a member asked by two teams for one day is
    asked once). A match whose regulars are asked is marked so."""
    asked = []
    async with db.transaction() as conn:
        sid = await season_id(db)
        async with conn.execute(
                "SELECT p.code FROM team_answer a JOIN player p ON p.id = a.player_id "
                "JOIN team_match m ON m.id = a.match_id WHERE m.date = (SELECT date FROM "
                "team_match WHERE id = ?)", (match_id,)) as cur:
            before = {row[0] for row in await cur.fetchall()}
        for code in codes:
            if code in before:
                continue
            await conn.execute("INSERT INTO team_answer (match_id, player_id, substitute, "
                               "asked_at) VALUES (?, ?, ?, ?)",
                               (match_id, await player_id(conn, sid, code), int(substitute),
                                audit.now()))
            asked.append(code)
        if not substitute:
            await conn.execute("UPDATE team_match SET asked = 1 WHERE id = ?", (match_id,))
    return asked


async def answer(db: Database, match_id: int, code: str, yes: bool) -> bool:
    """His answer (he may change it); False if he was not asked for the match."""
    async with db.transaction() as conn:
        pid = await player_id(conn, await season_id(db), code)
        cur = await conn.execute("UPDATE team_answer SET answer = ? WHERE match_id = ? AND "
                                 "player_id = ?", ("yes" if yes else "no", match_id, pid))
        return cur.rowcount > 0


async def set_lineup(db: Database, match_id: int, codes: list[str], *,
                     actor: int | None) -> None:
    """The match's lineup, board 1 first, confirmed (replacing one before, results too)."""
    async with db.transaction() as conn:
        sid = await season_id(db)
        await conn.execute("DELETE FROM team_board WHERE match_id = ?", (match_id,))
        for board, code in enumerate(codes, start=1):
            await conn.execute("INSERT INTO team_board (match_id, board, player_id) VALUES "
                               "(?, ?, ?)", (match_id, board, await player_id(conn, sid, code)))
        await conn.execute("UPDATE team_match SET confirmed = 1 WHERE id = ?", (match_id,))
        await audit.record(conn, actor=actor, action="team.lineup", entity="team_match",
                           entity_id=match_id, new={"lineup": codes})


async def set_result(db: Database, match_id: int, board: int, result: Fraction, *,
                     actor: int | None) -> None:
    """One board's result."""
    async with db.transaction() as conn:
        await conn.execute("UPDATE team_board SET result = ? WHERE match_id = ? AND "
                           "board = ?", (external_result_text(result), match_id, board))
        await audit.record(conn, actor=actor, action="team.result", entity="team_match",
                           entity_id=match_id,
                           new={"board": board, "result": external_result_text(result)})


async def set_substitute(db: Database, code: str, willing: bool, *, actor: int | None) -> None:
    """Whether the member is willing to substitute in any team."""
    async with db.transaction() as conn:
        pid = await player_id(conn, await season_id(db), code)
        await conn.execute("UPDATE player SET substitute = ? WHERE id = ?", (int(willing), pid))
        await audit.record(conn, actor=actor, action="team.substitute", entity="player",
                           entity_id=code, new={"substitute": willing})


async def willing(db: Database) -> list[str]:
    """The members willing to substitute, in registration order."""
    async with db.conn.execute("SELECT code FROM player WHERE season_id = ? AND substitute = 1 "
                               "ORDER BY position", (await season_id(db),)) as cur:
        return [row[0] for row in await cur.fetchall()]
