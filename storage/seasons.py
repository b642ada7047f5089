"""The active season: rows to and from a `keizer-season/1` season, and lookups by number/code.

The database holds facts; every change is checked by the core (through the same validator as
a season file) before it is committed, and `load_season` builds what is stored into the core's
Season as it is (`stored_season`); the core computes everything else.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import json
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any, cast

from core.rounds import RoundState
from core.rules import Unannounced, rules_from_source
from core.season import (
    EXTERNAL_RESULTS,
    FORMAT,
    Absence,
    AbsenceReason,
    ExternalDay,
    Game,
    Outline,
    Player,
    Result,
    Round,
    Season,
    data_to_json,
    external_result_text,
    round_from_data,
    season_from_data,
    season_to_data,
    with_round_data,
)
from core.season.file import absence_data, game_data, player_data, with_planned
from storage import audit
from storage.db import Database, inserted
from storage.errors import InputStoreError, StoreError, StoreProblem
from storage.sql import Connection, Row

SEASON = "season"


ACTIVE = "season.active"
"""The unit of work's active season (`Cache.unit`)."""


async def season_id(db: Database) -> int:
    """The active season, the one the repositories serve: a unit of work looks it up once
    and keeps it (a season it starts, it keeps instead); a read outside one looks it up."""
    return await db.cache.unit(ACTIVE, lambda: active_season(db.conn))


async def active_season(conn: Connection) -> int:
    """The active season as `conn` sees it: for a read in a snapshot of its own (the whole
    season, the club file), which must not take the id from another."""
    async with conn.execute("SELECT id FROM season WHERE active = 1 ORDER BY id DESC LIMIT 1") \
            as cur:
        row = await cur.fetchone()
    if row is None:
        raise StoreError(StoreProblem.NO_SEASON)
    return int(row[0])


async def has_season(db: Database) -> bool:
    """Whether a season is active (looked up as `season_id` is: once in a unit)."""
    try:
        await season_id(db)
    except StoreError as exc:
        if exc.problem is StoreProblem.NO_SEASON:
            return False
        raise
    return True


async def holds_club_data(db: Database) -> bool:
    """Whether the store holds what a club made in use, beyond a season file: a member
    linked, a result, the club's group. Replacing such a store keeps a copy first."""
    async with db.conn.execute(
            "SELECT EXISTS (SELECT 1 FROM player WHERE telegram_id IS NOT NULL) "
            "OR EXISTS (SELECT 1 FROM game WHERE result IS NOT NULL) "
            "OR EXISTS (SELECT 1 FROM club WHERE group_chat_id IS NOT NULL)") as cur:
        row = await cur.fetchone()
    return bool(row and row[0])


async def player_id(conn: Connection, season: int, code: str) -> int:
    async with conn.execute("SELECT id FROM player WHERE season_id = ? AND code = ?",
                            (season, code)) as cur:
        row = await cur.fetchone()
    if row is None:
        raise InputStoreError(StoreProblem.UNKNOWN_PLAYER, player=code)
    return int(row[0])


async def round_row(conn: Connection, season: int, number: int) -> Row:
    async with conn.execute("SELECT * FROM round WHERE season_id = ? AND number = ?",
                            (season, number)) as cur:
        row = await cur.fetchone()
    if row is None:
        raise InputStoreError(StoreProblem.UNKNOWN_ROUND, round=number)
    return row


async def import_season(db: Database, season: Season, *, replace: bool = False,
                        actor: int | None = None) -> int:
    """Load a season into the database; refuses a database that has one unless `replace`."""
    async with db.transaction() as conn:
        async with conn.execute("SELECT count(*) FROM season") as cur:
            row = await cur.fetchone()
        existing = int(row[0]) if row else 0
        if existing and not replace:
            raise StoreError(StoreProblem.NOT_EMPTY, seasons=existing)
        # The games first: they point at players, which go with their season.
        await conn.execute("DELETE FROM game")
        await conn.execute("DELETE FROM season")
        sid = await _insert(conn, season, actor)
        db.cache.keep(ACTIVE, sid)
    return sid


async def start_next(db: Database, season: Season, *, actor: int | None) -> int:
    """The next season becomes the active one; the one before stays, read-only, and its
    members keep their Telegram links, reminder choice and the pairs kept apart in the new
    one."""
    async with db.transaction() as conn:
        before = await season_id(db)
        await conn.execute("UPDATE season SET active = 0 WHERE id = ?", (before,))
        sid = await _insert(conn, season, actor)
        db.cache.keep(ACTIVE, sid)
        for column in ("telegram_id", "remind", "substitute"):
            await conn.execute(
                f"UPDATE player SET {column} = (SELECT o.{column} FROM player o WHERE "
                "o.season_id = ? AND o.code = player.code) WHERE season_id = ? AND code IN "
                "(SELECT code FROM player WHERE season_id = ?)", (before, sid, before))
        await _keep_apart_again(conn, before, sid)
        await _keep_teams_again(conn, before, sid)
        await checked(db)
    return sid


async def _keep_apart_again(conn: Connection, before: int, sid: int) -> None:
    """The pairs kept apart in season `before` whose two members play on in season `sid`."""
    async with conn.execute(
            "SELECT p.code AS one, o.code AS other FROM apart a JOIN player p ON p.id = "
            "a.player_id JOIN player o ON o.id = a.other_id WHERE p.season_id = ?",
            (before,)) as cur:
        pairs = await cur.fetchall()
    async with conn.execute("SELECT id, code FROM player WHERE season_id = ?", (sid,)) as cur:
        ids = {row["code"]: row["id"] for row in await cur.fetchall()}
    for row in pairs:
        if row["one"] in ids and row["other"] in ids:
            await conn.execute("INSERT INTO apart (player_id, other_id) VALUES (?, ?)",
                               tuple(sorted((ids[row["one"]], ids[row["other"]]))))


async def _keep_teams_again(conn: Connection, before: int, sid: int) -> None:
    """The teams of season `before`, in season `sid`: their names, and their captains and
    regular players (in board order) who play on. Matches are the season's own."""
    async with conn.execute("SELECT id, code FROM player WHERE season_id = ?", (sid,)) as cur:
        ids = {row["code"]: row["id"] for row in await cur.fetchall()}
    async with conn.execute(
            "SELECT t.id, t.number, t.name, c.code AS captain FROM team t LEFT JOIN player c "
            "ON c.id = t.captain_id WHERE t.season_id = ? ORDER BY t.number", (before,)) as cur:
        teams = await cur.fetchall()
    for team in teams:
        made = await inserted(conn, "INSERT INTO team (season_id, number, name, captain_id) "
                              "VALUES (?, ?, ?, ?)",
                              (sid, team["number"], team["name"], ids.get(team["captain"])))
        async with conn.execute(
                "SELECT p.code FROM team_player tp JOIN player p ON p.id = tp.player_id "
                "WHERE tp.team_id = ? ORDER BY tp.position", (team["id"],)) as cur:
            regulars = [row[0] for row in await cur.fetchall() if row[0] in ids]
        for position, code in enumerate(regulars, start=1):
            await conn.execute("INSERT INTO team_player (team_id, player_id, position) "
                               "VALUES (?, ?, ?)", (made, ids[code], position))


async def previous_season(db: Database) -> Season | None:
    """The season before the active one, if the database has one."""
    conn = db.conn
    async with conn.execute("SELECT id FROM season WHERE active = 0 ORDER BY id DESC LIMIT 1") \
            as cur:
        row = await cur.fetchone()
    if row is None:
        return None
    return await stored_season(conn, int(row[0]))


async def _insert(conn: Connection, season: Season, actor: int | None) -> int:
    """The season's rows, as the active season (the caller holds the transaction)."""
    data = season_to_data(season)
    sid = await inserted(conn, (
        "INSERT INTO season (club, name, rules, planned_rounds, initial_ranking, created_at)"
        " VALUES (?, ?, ?, ?, ?, ?)"),
        (season.club, season.name, data_to_json(data["rules"]),
         season.planned_rounds,
         None if season.initial_ranking is None else json.dumps(season.initial_ranking),
         audit.now()))
    ids: dict[str, int] = {}
    for position, p in enumerate(season.players):
        ids[p.id] = await inserted(conn, (
            "INSERT INTO player (season_id, code, name, rating, youth, joined, withdrawn, "
            "grp, flexible, knsb, fide_id, federation, sex, title, birth, name_as_written, "
            "surname, position) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"),
            (sid, p.id, p.name, p.rating, int(p.youth), p.joined, p.withdrawn, p.group,
             int(p.flexible), p.knsb, p.fide_id, p.federation, p.sex, p.title, p.birth,
             int(p.name_as_written), p.surname, position))
    for rnd in season.rounds:
        state = RoundState.COMPLETE if rnd.is_complete else RoundState.PUBLISHED \
            if rnd.is_paired else RoundState.PLANNED
        rid = await inserted(conn, (
            "INSERT INTO round (season_id, number, date, state) VALUES (?, ?, ?, ?)"),
            (sid, rnd.number, None if rnd.date is None else rnd.date.isoformat(), state))
        # Results in a season file are final: imported as confirmed.
        await conn.executemany(
            "INSERT INTO game (round_id, board, white_id, black_id, result, confirmed_by, "
            "confirmed_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
            [(rid, board, ids[g.white], ids[g.black],
              None if g.result is None else g.result.value,
              None if g.result is None else actor,
              None if g.result is None else audit.now())
             for board, g in enumerate(rnd.games, start=1)])
        await conn.executemany(
            "INSERT INTO signoff (round_id, player_id, reason, day, team, result) "
            "VALUES (?, ?, ?, ?, ?, ?)",
            [(rid, ids[a.player], a.reason.value, None if a.day is None else a.day.value,
              a.team, None if a.result is None else external_result_text(a.result))
             for a in rnd.absent])
    await audit.record(conn, actor=actor, action="import", entity="season", entity_id=sid,
                       new={"club": season.club, "season": season.name,
                            "players": len(season.players), "rounds": len(season.rounds)})
    return int(sid or 0)


@dataclass(frozen=True, slots=True)
class _Stored:
    """A season's rows: read in a few queries (the reader serves everyone), made into the
    season file's data or, trusted, into the core's values."""

    season: Row
    players: list[Row]
    rounds: list[Row]
    """Up to the first round not paired yet (later rounds are only planned)."""
    games: dict[int, list[Row]]
    signoffs: dict[int, list[Row]]
    waiting: dict[int, list[Row]]
    """A planned round's flexible members who did not sign on (`unannounced`)."""
    codes: dict[int, str]
    """Every player's code by his id (also where `players` holds one player alone)."""
    same: dict[int, Round]
    """The rounds a reader kept that are as stored (`KeptSeason.unchanged`), by id: their
    games and sign-offs were not read."""

    @property
    def rules_source(self) -> Any:
        return json.loads(self.season["rules"], parse_float=Decimal)


async def _stored(conn: Connection, sid: int | None, player: str | None = None,
                  kept: KeptSeason | None = None) -> _Stored:
    """The season's rows; with `player`, only his own (his row, his games, his sign-offs):
    what pricing his sign-off reads (`core.ledger.one_player` of the whole season); with
    `kept`, no games or sign-offs of the rounds it holds as stored."""
    sid = sid or await active_season(conn)
    async with conn.execute("SELECT * FROM season WHERE id = ?", (sid,)) as cur:
        s = await cur.fetchone()
    assert s is not None
    whose, his = ("", ()) if player is None else (" AND code = ?", (player,))
    async with conn.execute(f"SELECT * FROM player WHERE season_id = ?{whose} "
                            "ORDER BY position", (sid, *his)) as cur:
        players = list(await cur.fetchall())
    async with conn.execute("SELECT r.*, COALESCE(e.edits, 0) AS edits FROM round r "
                            "LEFT JOIN round_edits e ON e.round_id = r.id "
                            "WHERE r.season_id = ? ORDER BY r.number", (sid,)) as cur:
        rounds = list(await cur.fetchall())
    if player is None:
        codes = {p["id"]: p["code"] for p in players}
    else:
        async with conn.execute("SELECT id, code FROM player WHERE season_id = ?",
                                (sid,)) as cur:
            codes = {row[0]: row[1] for row in await cur.fetchall()}
    rounds = rounds[:_listed(rounds, await _paired(conn, sid))]
    same = {} if kept is None else kept.unchanged(sid, codes, rounds)
    own = None if player is None else (players[0]["id"] if players else 0)
    games, signoffs = await _by_round(conn, sid, own, [r["id"] for r in rounds
                                                       if r["id"] not in same])
    waiting = {r["id"]: [w for w in await unannounced(conn, sid, r)
                         if player is None or w["code"] == player]
               for r in rounds if r["state"] == RoundState.PLANNED}
    return _Stored(s, players, rounds, games, signoffs, waiting, codes, same)


async def _by_round(conn: Connection, sid: int, own: int | None, rounds: list[int]) \
        -> tuple[dict[int, list[Row]], dict[int, list[Row]]]:
    """The games and sign-offs of these rounds of the season, by round id; with `own`, that
    player's alone. Only the columns a season holds: a large season has a hundred thousand
    games."""
    if not rounds:
        return {}, {}
    plays, signs, mine = ("", "", ()) if own is None else (
        " AND ? IN (g.white_id, g.black_id)", " AND s.player_id = ?", (own,))
    among = f" AND r.id IN ({', '.join('?' * len(rounds))})"
    games: dict[int, list[Row]] = {}
    async with conn.execute("SELECT g.round_id, g.white_id, g.black_id, g.result, "
                            "g.confirmed_at FROM game g JOIN round r ON r.id = g.round_id "
                            f"WHERE r.season_id = ?{among}{plays} ORDER BY g.round_id, g.board",
                            (sid, *rounds, *mine)) as cur:
        for row in await cur.fetchall():
            games.setdefault(row["round_id"], []).append(row)
    signoffs: dict[int, list[Row]] = {}
    async with conn.execute("SELECT s.round_id, s.player_id, s.reason, s.on_time, s.day, "
                            "s.team, s.result FROM signoff s JOIN round r ON r.id = s.round_id "
                            f"WHERE r.season_id = ?{among}{signs} ORDER BY s.round_id, s.id",
                            (sid, *rounds, *mine)) as cur:
        for row in await cur.fetchall():
            signoffs.setdefault(row["round_id"], []).append(row)
    return games, signoffs


async def _paired(conn: Connection, sid: int) -> set[int]:
    """The ids of the season's rounds that hold games."""
    async with conn.execute("SELECT r.id FROM round r WHERE r.season_id = ? AND EXISTS "
                            "(SELECT 1 FROM game g WHERE g.round_id = r.id)", (sid,)) as cur:
        return {row[0] for row in await cur.fetchall()}


def _listed(rounds: list[Row], paired: set[int]) -> int:
    """How many rounds the season lists: through the first not paired yet (the one waiting
    to be paired; later rounds are only planned)."""
    return next((k + 1 for k, r in enumerate(rounds) if r["id"] not in paired), len(rounds))


async def _outline(conn: Connection, sid: int) -> Outline:
    """What checking a write to one round needs (`core.season.Outline`): the players, the
    rules and which listed rounds are paired; no games."""
    async with conn.execute("SELECT rules, planned_rounds FROM season WHERE id = ?",
                            (sid,)) as cur:
        s = await cur.fetchone()
    assert s is not None
    async with conn.execute("SELECT * FROM player WHERE season_id = ? ORDER BY position",
                            (sid,)) as cur:
        players = tuple(_player(p) for p in await cur.fetchall())
    async with conn.execute("SELECT id FROM round WHERE season_id = ? ORDER BY number",
                            (sid,)) as cur:
        rounds = list(await cur.fetchall())
    paired = await _paired(conn, sid)
    source = json.loads(s["rules"], parse_float=Decimal)
    return Outline(players, rules_from_source(with_planned(source, s["planned_rounds"])),
                   tuple(r["id"] in paired for r in rounds[:_listed(rounds, paired)]))


async def season_data(conn: Connection, sid: int | None = None) -> dict[str, Any]:
    """The active season (or season `sid`) as season-file data (canonical form)."""
    return _data_of(await _stored(conn, sid))


async def stored_season(conn: Connection, sid: int | None = None) -> Season:
    """The active season (or season `sid`) as the core's values, trusted: every change was
    checked by the core before it was committed (`checked`), so the rows are built into a
    Season without the season file's checks, off the event loop (a large season takes a
    while). `tests/integration/test_round_check.py` holds it equal to the checked read."""
    return await asyncio.to_thread(_season_of, await _stored(conn, sid))


@dataclass
class KeptSeason:
    """A season's rounds as a reader last read them (`season_since`): by round id, each
    round's value with the row it was read at (its number, date, state and count of edits,
    migration 26)."""

    season: int | None = None
    codes: dict[int, str] = field(default_factory=dict)
    rounds: dict[int, tuple[tuple[Any, ...], Round]] = field(default_factory=dict)

    def unchanged(self, sid: int, codes: dict[int, str], rounds: list[Row]) -> dict[int, Round]:
        """The kept rounds still as stored, by id: of the same season and players, their
        rows alike, and paired (a planned round's flexible members follow the sign-ons)."""
        if sid != self.season or codes != self.codes:
            return {}
        return {r["id"]: self.rounds[r["id"]][1] for r in rounds
                if r["state"] != RoundState.PLANNED
                and self.rounds.get(r["id"], ((),))[0] == tuple(r)}

    def keep(self, stored: _Stored, season: Season) -> None:
        self.season, self.codes = stored.season["id"], stored.codes
        self.rounds = {r["id"]: (tuple(r), built)
                       for r, built in zip(stored.rounds, season.rounds, strict=True)}


async def season_since(conn: Connection, kept: KeptSeason) -> Season:
    """The active season, as `stored_season` reads it, reading again only the games and
    sign-offs of the rounds written since `kept` was read (the rest it takes from `kept`,
    which it brings up to date): after a correction of round 1 of a large season, round 1."""
    stored = await _stored(conn, None, kept=kept)
    season = await asyncio.to_thread(_season_of, stored)
    kept.keep(stored, season)
    return season


async def player_season(db: Database, player: str) -> Season:
    """The active season as far as `player`'s own rounds go, as `core.ledger.one_player`
    makes it of the whole season: what pricing his sign-off needs, read in milliseconds at
    any size (the whole season takes a second at thousands of players)."""
    return _season_of(await _stored(db.conn, await season_id(db), player))


def _data_of(stored: _Stored) -> dict[str, Any]:
    s = stored.season
    data: dict[str, Any] = {"format": FORMAT, "club": s["club"], "season": s["name"],
                            "rules": stored.rules_source}
    if s["planned_rounds"] is not None:
        data["planned_rounds"] = s["planned_rounds"]
    data["players"] = [player_data(_player(p)) for p in stored.players]
    if s["initial_ranking"] is not None:
        data["initial_ranking"] = json.loads(s["initial_ranking"])
    codes = stored.codes
    flexible_absent = rules_from_source(data["rules"]).flexible_absent
    data["rounds"] = [_round_entry(rnd, stored.games.get(rnd["id"], []),
                                   stored.signoffs.get(rnd["id"], []),
                                   stored.waiting.get(rnd["id"], []), codes, flexible_absent)
                      for rnd in stored.rounds]
    return data


def _season_of(stored: _Stored) -> Season:
    s, codes, source = stored.season, stored.codes, stored.rules_source
    rules = rules_from_source(with_planned(source, s["planned_rounds"]))
    absent = AbsenceReason(rules.flexible_absent.value)
    rounds = []
    for rnd in stored.rounds:
        if rnd["id"] in stored.same:
            rounds.append(stored.same[rnd["id"]])
            continue
        games = stored.games.get(rnd["id"], [])
        playing = {g["white_id"] for g in games} | {g["black_id"] for g in games}
        away = [_absence(a, codes) for a in stored.signoffs.get(rnd["id"], [])
                if a["player_id"] not in playing]
        away += [Absence(row["code"], absent) for row in stored.waiting.get(rnd["id"], [])]
        rounds.append(Round(rnd["number"], None if rnd["date"] is None
                            else dt.date.fromisoformat(rnd["date"]),
                            tuple(_game(g, codes) for g in games), tuple(away)))
    ranking = s["initial_ranking"]
    return Season(club=s["club"], name=s["name"], rules=rules,
                  players=tuple(_player(p) for p in stored.players), rounds=tuple(rounds),
                  initial_ranking=None if ranking is None else tuple(json.loads(ranking)),
                  rules_source=source, planned_rounds=s["planned_rounds"])


async def round_data(db: Database, number: int) -> dict[str, Any]:
    """One round of the active season as season-file data, as `season_data` lists it."""
    conn, sid = db.conn, await season_id(db)
    rnd = await round_row(conn, sid, number)
    async with conn.execute("SELECT id, code FROM player WHERE season_id = ?", (sid,)) as cur:
        codes = {row[0]: row[1] for row in await cur.fetchall()}
    async with conn.execute("SELECT * FROM game WHERE round_id = ? ORDER BY board",
                            (rnd["id"],)) as cur:
        games = list(await cur.fetchall())
    async with conn.execute("SELECT * FROM signoff WHERE round_id = ? ORDER BY id",
                            (rnd["id"],)) as cur:
        signoffs = list(await cur.fetchall())
    async with conn.execute("SELECT rules FROM season WHERE id = ?", (sid,)) as cur:
        row = await cur.fetchone()
    assert row is not None
    rules = rules_from_source(json.loads(row[0], parse_float=Decimal))
    waiting = await unannounced(conn, sid, rnd) if rnd["state"] == RoundState.PLANNED else []
    return _round_entry(rnd, games, signoffs, waiting, codes, rules.flexible_absent)


def _round_entry(rnd: Row, games: list[Row], signoffs: list[Row], waiting: list[Row],
                 codes: dict[int, str], flexible_absent: Unannounced) -> dict[str, Any]:
    entry: dict[str, Any] = {"round": rnd["number"]}
    if rnd["date"] is not None:
        entry["date"] = rnd["date"]
    playing = {g["white_id"] for g in games} | {g["black_id"] for g in games}
    if games:
        entry["games"] = [game_data(_game(g, codes)) for g in games]
    # A late sign-off of a paired player is settled by the game's result (a forfeit).
    entry["absent"] = [absence_data(_absence(a, codes)) for a in signoffs
                       if a["player_id"] not in playing]
    # A planned round's flexible members: recorded when the round is locked; until then
    # what it will be.
    entry["absent"] += [{"player": row["code"], "reason": flexible_absent.value}
                        for row in waiting]
    return entry


async def unannounced(conn: Connection, sid: int, rnd: Row, *,
                      in_the_room: bool = False) -> list[Row]:
    """The flexible members of a round who did not sign on for it (nor off, nor play); or,
    `in_the_room`, every member who did not say he is there (a round paired at the venue)."""
    number = rnd["number"]
    said = "p.flexible = 1 AND NOT EXISTS (SELECT 1 FROM signon o WHERE o.round_id = ? " \
        "AND o.player_id = p.id)" if not in_the_room else \
        "NOT EXISTS (SELECT 1 FROM present h WHERE h.round_id = ? AND h.player_id = p.id)"
    async with conn.execute(
            f"SELECT p.id, p.code FROM player p WHERE p.season_id = ? AND {said} "
            "AND p.joined <= ? AND (p.withdrawn IS NULL OR p.withdrawn >= ?) "
            "AND NOT EXISTS (SELECT 1 FROM signoff s WHERE s.round_id = ? "
            "AND s.player_id = p.id) "
            "AND NOT EXISTS (SELECT 1 FROM game g WHERE g.round_id = ? "
            "AND p.id IN (g.white_id, g.black_id)) ORDER BY p.position",
            (sid, rnd["id"], number, number, rnd["id"], rnd["id"])) as cur:
        return list(await cur.fetchall())


def _player(row: Row) -> Player:
    return Player(row["code"], row["name"], rating=row["rating"], youth=bool(row["youth"]),
                  joined=row["joined"], withdrawn=row["withdrawn"], group=row["grp"],
                  flexible=bool(row["flexible"]), knsb=row["knsb"], fide_id=row["fide_id"],
                  federation=row["federation"], sex=row["sex"], title=row["title"],
                  birth=row["birth"], name_as_written=bool(row["name_as_written"]),
                  surname=row["surname"])


# What the rows hold, by value: a lookup, not an enum's call, for each of a large season's rows.
_RESULTS: dict[str | None, Result] = {r.value: r for r in Result}
_REASONS: dict[str, AbsenceReason] = {r.value: r for r in AbsenceReason}
_DAYS: dict[str | None, ExternalDay | None] = {None: None, **{d.value: d for d in ExternalDay}}


def _game(row: Row, codes: dict[int, str]) -> Game:
    # Only a final result is a fact of the season: one reported and not confirmed yet (or
    # disputed) is shown as such by the views (`results.shown`), and counts nowhere.
    result = None if row["confirmed_at"] is None else _RESULTS.get(row["result"])
    return Game(codes[row["white_id"]], codes[row["black_id"]], result)


def _absence(row: Row, codes: dict[int, str]) -> Absence:
    reason = _REASONS[row["reason"]]
    if reason is AbsenceReason.NOTICE and not row["on_time"]:
        reason = AbsenceReason.NO_NOTICE  # late: earns what no notice earns
    return Absence(codes[row["player_id"]], reason, day=_DAYS[row["day"]], team=row["team"],
                   result=None if row["result"] is None else EXTERNAL_RESULTS[row["result"]])


async def load_season(db: Database) -> Season:
    """The active season as the core sees it: read once per change of the file (the check
    of the last write serves the reads after it), and built off the event loop (a large
    season takes a while)."""
    async def load() -> Season:
        return await stored_season(db.bulk_conn)
    season: Season = await db.cache.memo(SEASON, load)
    return season


async def export_json(db: Database) -> str:
    return data_to_json(await season_data(db.conn))


async def checked(db: Database, *, round_no: int | None = None,
                  before: Season | Outline | None = None) -> None:
    """The season as it stands inside the caller's transaction, validated by the core; raises
    InvalidSeasonError (and so rolls the transaction back) if a change broke it. A season
    checked whole serves the reads that follow, in the transaction and after its commit.

    A write that touched only round `round_no` (its games, sign-offs or sign-ons) and knew
    the season, or its outline, `before` it (`current`) has that round read and checked anew
    on it. The whole season is read and checked (off the event loop: a large season takes a
    while) when neither is at hand, or the round became paired or unpaired (that decides
    which rounds follow it)."""
    season: Season | Outline | None = None
    if round_no is not None and before is not None:
        season = await _with_round(db, before, round_no)
    if season is None:
        season = await asyncio.to_thread(season_from_data,
                                         await season_data(db.writer, await season_id(db)))
    if isinstance(season, Season):
        await db.cache.offer(SEASON, season)


async def current(db: Database) -> Season | Outline:
    """Inside a transaction, what a write to one round is checked against (`checked`): the
    checked season where it is at hand, else the season's outline (its players, rules and
    paired rounds, no games), so a write after a start, or after another process's change,
    reads no whole season."""
    found = await db.cache.current(SEASON)
    return cast(Season, found) if found is not None else \
        await _outline(db.writer, await season_id(db))


async def _with_round(db: Database, before: Season | Outline, round_no: int) \
        -> Season | Outline | None:
    outline = before if isinstance(before, Outline) else Outline.of(before)
    if round_no > len(outline.paired):
        return before  # a round after the one waiting to be paired: not in the season yet
    data = await round_data(db, round_no)
    if bool(data.get("games")) != outline.paired[round_no - 1]:
        return None
    if isinstance(before, Outline):
        round_from_data(before, data)
        return before
    return with_round_data(before, data)
