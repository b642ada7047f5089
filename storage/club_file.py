"""The whole store as one file (`keizer-club/1`): the season file, plus what a season file
cannot hold: rounds planned beyond the next, every sign-off with its note and send time,
the sign-ons of flexible members, who said he was in the room for a round paired at the
venue, who asked for reminders in private, the pairs kept apart, the club's teams (their
captains, regular players, matches, answers, lineups and board results) and who is willing
to substitute,
deadlines and states, the arbiter's fixes, report and confirmation details, Telegram links,
the club's settings and its arbiters. Export then import gives the same store.

Only what a restart needs is left out: the inbox and outbox (handled and delivered), the
ids of messages already posted, and the audit log (which stays in the database and its
backups); and the lichess accounts, whose tokens are sealed with this deployment's key (in
another, the members link again)."""

from __future__ import annotations

import json
from typing import Any

from core.season import data_to_json, season_from_data
from storage import audit
from storage.club_format import FORMAT
from storage.db import Database, inserted
from storage.errors import InputStoreError, StoreError, StoreProblem
from storage.seasons import active_season, checked, import_season, season_data
from storage.sql import Connection, Row

ROUND = ("number", "date", "deadline", "reminded_at", "fixes", "state", "on_site", "online")
ROUND_DEFAULTS = {"on_site": 0, "online": 0}
"""What a round of a file written before these columns were is."""
SIGNOFF = ("reason", "day", "team", "result", "note", "sent_at", "entered_by", "on_time")
SIGNON = ("sent_at", "entered_by")
PRESENT = ("at", "entered_by")
GAME = ("board", "result", "reported_by", "reported_at", "confirmed_by", "confirmed_at",
        "disputed_at")
BROKEN = ("rule", "players", "facts")
CLUB = ("name", "round_start", "deadline_minutes", "reminder_minutes", "group_chat_id",
        "group_thread_id", "web", "online", "online_clock", "online_rated", "online_auto",
        "team_ask_days")
MATCH = ("date", "home", "opponent", "boards", "asked", "confirmed", "time", "first_white")
ANSWER = ("substitute", "answer", "asked_at")


async def export_club(db: Database) -> str:
    """Everything the store holds, as `keizer-club/1` text (canonical, stable order), read in
    one snapshot on the whole-season reader: a bot writing meanwhile cannot make the parts
    disagree. (Outside a write transaction: it reads what is committed.)"""
    conn = db.bulk
    await conn.execute("BEGIN")
    try:
        return data_to_json(await _everything(conn))
    finally:
        await conn.execute("COMMIT")


async def _everything(conn: Connection) -> dict[str, Any]:
    sid = await active_season(conn)
    data: dict[str, Any] = {"format": FORMAT, "season": await season_data(conn)}
    data["club"] = dict(await _one(conn, "SELECT * FROM club WHERE id = 1", (), CLUB))
    data["arbiters"] = [dict(r) for r in await _all(
        conn, "SELECT telegram_id, name, added_at FROM arbiter ORDER BY telegram_id", ())]
    data["links"] = {r["code"]: r["telegram_id"] for r in await _all(
        conn, "SELECT code, telegram_id FROM player WHERE season_id = ? AND telegram_id "
        "IS NOT NULL ORDER BY position", (sid,))}
    data["reminded"] = [r["code"] for r in await _all(
        conn, "SELECT code FROM player WHERE season_id = ? AND remind = 1 ORDER BY position",
        (sid,))]
    data["apart"] = [[r["one"], r["other"]] for r in await _all(
        conn, "SELECT p.code AS one, o.code AS other FROM apart a JOIN player p ON p.id = "
        "a.player_id JOIN player o ON o.id = a.other_id WHERE p.season_id = ? "
        "ORDER BY p.position, o.position", (sid,))]
    data["teams"] = await _teams(conn, sid)
    data["substitutes"] = [r["code"] for r in await _all(
        conn, "SELECT code FROM player WHERE season_id = ? AND substitute = 1 ORDER BY "
        "position", (sid,))]
    rounds = []
    for rnd in await _all(conn, "SELECT * FROM round WHERE season_id = ? ORDER BY number",
                          (sid,)):
        entry = {key: rnd[key] for key in ROUND}
        entry["signoffs"] = [{"player": r["code"], **{k: r[k] for k in SIGNOFF}}
                             for r in await _all(
            conn, "SELECT s.*, p.code FROM signoff s JOIN player p ON p.id = s.player_id "
            "WHERE s.round_id = ? ORDER BY s.id", (rnd["id"],))]
        entry["signons"] = [{"player": r["code"], **{k: r[k] for k in SIGNON}}
                            for r in await _all(
            conn, "SELECT o.*, p.code FROM signon o JOIN player p ON p.id = o.player_id "
            "WHERE o.round_id = ? ORDER BY o.id", (rnd["id"],))]
        entry["present"] = [{"player": r["code"], **{k: r[k] for k in PRESENT}}
                            for r in await _all(
            conn, "SELECT h.*, p.code FROM present h JOIN player p ON p.id = h.player_id "
            "WHERE h.round_id = ? ORDER BY h.id", (rnd["id"],))]
        entry["games"] = [{"white": r["w"], "black": r["b"], **{k: r[k] for k in GAME}}
                          for r in await _all(
            conn, "SELECT g.*, w.code AS w, b.code AS b FROM game g JOIN player w ON "
            "w.id = g.white_id JOIN player b ON b.id = g.black_id WHERE g.round_id = ? "
            "ORDER BY g.board", (rnd["id"],))]
        entry["broken"] = [{k: r[k] for k in BROKEN} for r in await _all(
            conn, "SELECT * FROM broken_rule WHERE round_id = ? ORDER BY id", (rnd["id"],))]
        rounds.append(entry)
    data["rounds"] = rounds
    return data


async def _teams(conn: Connection, sid: int) -> list[dict[str, Any]]:
    """The season's teams as the file has them: each with its captain, regular players (in
    board order) and matches (their answers and lineup)."""
    teams = []
    for team in await _all(conn, "SELECT t.*, c.code AS captain FROM team t LEFT JOIN "
                           "player c ON c.id = t.captain_id WHERE t.season_id = ? ORDER BY "
                           "t.number", (sid,)):
        matches = []
        for match in await _all(conn, "SELECT * FROM team_match WHERE team_id = ? ORDER BY "
                                "date", (team["id"],)):
            matches.append({**{k: match[k] for k in MATCH}, "answers": [
                {"player": r["code"], **{k: r[k] for k in ANSWER}} for r in await _all(
                    conn, "SELECT a.*, p.code FROM team_answer a JOIN player p ON p.id = "
                    "a.player_id WHERE a.match_id = ? ORDER BY a.id", (match["id"],))],
                "lineup": [{"board": r["board"], "player": r["code"], "result": r["result"]}
                           for r in await _all(
                    conn, "SELECT b.*, p.code FROM team_board b JOIN player p ON p.id = "
                    "b.player_id WHERE b.match_id = ? ORDER BY b.board", (match["id"],))]})
        teams.append({"number": team["number"], "name": team["name"],
                      "captain": team["captain"], "players": [r["code"] for r in await _all(
                          conn, "SELECT p.code FROM team_player tp JOIN player p ON p.id = "
                          "tp.player_id WHERE tp.team_id = ? ORDER BY tp.position",
                          (team["id"],))], "matches": matches})
    return teams


async def _import_teams(conn: Connection, sid: int, ids: dict[str, int],
                        teams: list[dict[str, Any]]) -> None:
    """The file's teams over a season that has none yet."""
    for team in teams:
        if not _counted(team["number"]) or not all(_counted(m["boards"])
                                                    for m in team.get("matches", [])):
            raise ValueError("a team's number and a match's boards count from 1")
        tid = await inserted(conn, "INSERT INTO team (season_id, number, name, captain_id) "
                             "VALUES (?, ?, ?, ?)", (sid, team["number"], team["name"], None
                                                     if team.get("captain") is None
                                                     else _id(ids, team["captain"])))
        for position, code in enumerate(team.get("players", []), start=1):
            await conn.execute("INSERT INTO team_player (team_id, player_id, position) "
                               "VALUES (?, ?, ?)", (tid, _id(ids, code), position))
        for match in team.get("matches", []):
            mid = await inserted(conn, f"INSERT INTO team_match (team_id, {', '.join(MATCH)}) "
                                 f"VALUES ({', '.join('?' * (len(MATCH) + 1))})",
                                 (tid, *(match.get(k) for k in MATCH)))
            for answer in match.get("answers", []):
                await conn.execute(
                    f"INSERT INTO team_answer (match_id, player_id, {', '.join(ANSWER)}) "
                    f"VALUES ({', '.join('?' * (len(ANSWER) + 2))})",
                    (mid, _id(ids, answer["player"]), *(answer[k] for k in ANSWER)))
            for board in match.get("lineup", []):
                await conn.execute("INSERT INTO team_board (match_id, board, player_id, "
                                   "result) VALUES (?, ?, ?, ?)",
                                   (mid, board["board"], _id(ids, board["player"]),
                                    board["result"]))


async def import_club(db: Database, text: str, *, replace: bool = False,
                      actor: int | None = None) -> int:
    """Load a `keizer-club/1` file: the season first (checked as any season file), then
    everything else on top, in one transaction."""
    data = json.loads(text)
    season = season_from_data(data["season"])
    async with db.transaction() as conn:
        sid = await import_season(db, season, replace=replace, actor=actor)
        try:
            await _everything_else(conn, sid, data)
        except StoreError:
            raise  # a refusal that says more (a player the season does not have)
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            # Edited by hand, or cut short: refused whole, as a broken season file is.
            raise InputStoreError(StoreProblem.BAD_CLUB_FILE) from exc
        await audit.record(conn, actor=actor, action="import.club", entity="season",
                           entity_id=sid)
        await checked(db)  # a file edited by hand is refused, not half-loaded
    return sid


async def _everything_else(conn: Connection, sid: int, data: dict[str, Any]) -> None:
    """What the file holds beside the season. A part not as this program writes it raises
    KeyError, TypeError or ValueError."""
    await conn.execute("DELETE FROM arbiter")
    for row in data.get("arbiters", []):
        await conn.execute("INSERT INTO arbiter (telegram_id, name, added_at) VALUES "
                           "(?, ?, ?)", (row["telegram_id"], row["name"], row["added_at"]))
    club = data.get("club", {})
    for column in CLUB:
        if column in club:
            await conn.execute(f"UPDATE club SET {column} = ? WHERE id = 1",
                               (club[column],))
    ids = {r["code"]: r["id"] for r in await _all(
        conn, "SELECT id, code FROM player WHERE season_id = ?", (sid,))}
    for code, telegram_id in data.get("links", {}).items():
        await conn.execute("UPDATE player SET telegram_id = ? WHERE id = ?",
                           (telegram_id, _id(ids, code)))
    for code in data.get("reminded", []):
        await conn.execute("UPDATE player SET remind = 1 WHERE id = ?", (_id(ids, code),))
    for pair in data.get("apart", []):
        await conn.execute("INSERT INTO apart (player_id, other_id) VALUES (?, ?)",
                           tuple(sorted(_id(ids, code) for code in pair)))
    await _import_teams(conn, sid, ids, data.get("teams", []))
    for code in data.get("substitutes", []):
        await conn.execute("UPDATE player SET substitute = 1 WHERE id = ?",
                           (_id(ids, code),))
    for entry in data.get("rounds", []):
        await _round(conn, sid, ids, entry)


async def _players_of_round(conn: Connection, table: str, rid: int, ids: dict[str, int],
                            rows: list[dict[str, Any]], columns: tuple[str, ...]) -> None:
    """A round's rows of one player each (sign-offs, sign-ons, those in the room), as the
    file has them."""
    await conn.execute(f"DELETE FROM {table} WHERE round_id = ?", (rid,))
    for row in rows:
        await conn.execute(
            f"INSERT INTO {table} (round_id, player_id, {', '.join(columns)}) "
            f"VALUES ({', '.join('?' * (len(columns) + 2))})",
            (rid, _id(ids, row["player"]), *(row.get(k) for k in columns)))


async def _round(conn: Connection, sid: int, ids: dict[str, int],
                 entry: dict[str, Any]) -> None:
    """One round of the file over what the season file made of it (or a round planned
    beyond it): its schedule and state, its sign-offs, its games' report details."""
    values = [entry.get(key, ROUND_DEFAULTS.get(key)) for key in ROUND]
    await conn.execute(
        f"INSERT INTO round (season_id, {', '.join(ROUND)}) "
        f"VALUES ({', '.join('?' * (len(ROUND) + 1))}) "
        "ON CONFLICT (season_id, number) DO UPDATE SET "
        + ", ".join(f"{key} = excluded.{key}" for key in ROUND[1:]), (sid, *values))
    rid = (await _one(conn, "SELECT id FROM round WHERE season_id = ? AND number = ?",
                      (sid, entry["number"]), ("id",)))["id"]
    for table, key, columns in (("signoff", "signoffs", SIGNOFF), ("signon", "signons", SIGNON),
                                ("present", "present", PRESENT)):
        await _players_of_round(conn, table, rid, ids, entry.get(key, []), columns)
    for game in entry.get("games", []):
        await conn.execute(
            "INSERT INTO game (round_id, board, white_id, black_id, result, reported_by, "
            "reported_at, confirmed_by, confirmed_at, disputed_at) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
            "ON CONFLICT (round_id, board) DO UPDATE SET result = excluded.result, "
            "reported_by = excluded.reported_by, reported_at = excluded.reported_at, "
            "confirmed_by = excluded.confirmed_by, confirmed_at = excluded.confirmed_at, "
            "disputed_at = excluded.disputed_at",
            (rid, game["board"], _id(ids, game["white"]), _id(ids, game["black"]),
             *(game.get(k) for k in GAME[1:])))
    await conn.execute("DELETE FROM broken_rule WHERE round_id = ?", (rid,))
    for rule in entry.get("broken", []):
        await conn.execute("INSERT INTO broken_rule (round_id, rule, players, facts) VALUES "
                           "(?, ?, ?, ?)", (rid, *(rule[k] for k in BROKEN)))


def _counted(value: object) -> bool:
    return type(value) is int and value > 0


def _id(ids: dict[str, int], code: str) -> int:
    if code not in ids:
        raise InputStoreError(StoreProblem.UNKNOWN_PLAYER, player=code)
    return ids[code]


async def _all(conn: Connection, sql: str,
               params: tuple[Any, ...]) -> list[Row]:
    async with conn.execute(sql, params) as cur:
        return list(await cur.fetchall())


async def _one(conn: Connection, sql: str, params: tuple[Any, ...],
               keys: tuple[str, ...]) -> dict[str, Any]:
    async with conn.execute(sql, params) as cur:
        row = await cur.fetchone()
    assert row is not None
    return {key: row[key] for key in keys}
