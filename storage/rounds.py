"""Rounds: the schedule, their state (one lifecycle), and their pairing.

States move `planned -> locked -> drafted -> published -> complete`: sign-offs are on time
while planned, attendance is locked at the deadline, the draft pairing waits for the arbiter,
the published pairing takes results, and a round with every result final is complete. A draft
goes back to locked when attendance changes under it; a complete round goes back to published
when the arbiter clears a result. `TRANSITIONS` is the whole table, and every move is one
guarded UPDATE (`WHERE state = ?`): of two processes or two taps, exactly one wins.
"""

from __future__ import annotations

import datetime as dt
import json
from dataclasses import dataclass

from core.pairing import Board, BrokenRule, Fixes, Pairing, Rule
from core.pairing.request import NO_FIXES
from core.rounds import TRANSITIONS, ResultState, RoundState
from core.season import AbsenceReason, Result
from storage import audit
from storage.db import Database
from storage.errors import InputStoreError, StoreProblem
from storage.seasons import checked, player_id, round_row, season_id
from storage.sql import Connection, Row


async def move(conn: Connection, rnd: Row, target: RoundState, *,
               actor: int | None) -> bool:
    """Move round `rnd` (a row read in this transaction) from its state to `target`: False,
    changing nothing, if the table does not allow it or the row moved meanwhile."""
    source = RoundState(rnd["state"])
    if target not in TRANSITIONS[source]:
        return False
    # A round that completes has its standings still to post; one that leaves complete (a
    # result cleared) posts them again when it completes again.
    cur = await conn.execute("UPDATE round SET state = ?, announced = ? WHERE id = ? AND "
                             "state = ?", (target.value, int(target is not RoundState.COMPLETE),
                                           rnd["id"], source.value))
    if cur.rowcount != 1:
        return False
    await audit.record(conn, actor=actor, action="round.state", entity="round",
                       entity_id=rnd["number"], old=source.value, new=target.value)
    return True


async def drop_draft(conn: Connection, rnd: Row, target: RoundState, *,
                     actor: int | None) -> None:
    """The round's draft goes (its boards, its bye, its broken rules), and the round is back
    at `target`: locked to be paired again, or planned again (postponed)."""
    for table in ("game", "broken_rule"):
        await conn.execute(f"DELETE FROM {table} WHERE round_id = ?", (rnd["id"],))
    await conn.execute("DELETE FROM signoff WHERE round_id = ? AND reason = ?",
                       (rnd["id"], AbsenceReason.BYE))
    await move(conn, rnd, target, actor=actor)


async def unpair(db: Database, number: int, *, actor: int | None) -> None:
    """Round `number`'s draft goes, and the round is locked to be paired again."""
    async with db.transaction() as conn:
        rnd = await round_row(conn, await season_id(db), number)
        if rnd["state"] == RoundState.DRAFTED:
            await drop_draft(conn, rnd, RoundState.LOCKED, actor=actor)


async def unannounced(db: Database) -> list[int]:
    """The complete rounds whose standings were not posted yet."""
    conn = db.conn
    async with conn.execute("SELECT number FROM round WHERE season_id = ? AND state = ? AND "
                            "announced = 0 ORDER BY number",
                            (await season_id(db), RoundState.COMPLETE)) as cur:
        return [int(row[0]) for row in await cur.fetchall()]


async def claim_announcement(db: Database, number: int) -> bool:
    """Inside the transaction that owes the standings: True if this caller posts them (the
    round is still complete and nobody posted them meanwhile)."""
    async with db.transaction() as conn:
        cur = await conn.execute("UPDATE round SET announced = 1 WHERE season_id = ? AND "
                                 "number = ? AND state = ? AND announced = 0",
                                 (await season_id(db), number, RoundState.COMPLETE))
        return cur.rowcount == 1


async def add_round(db: Database, number: int, *, date: dt.date | None = None,
                    deadline: dt.datetime | None = None, on_site: bool = False,
                    online: bool = False, actor: int | None = None) -> None:
    """Schedule a round (the next number, or a later one); `on_site`: paired at the venue
    from those who say they are there; `online`: played on lichess."""
    async with db.transaction() as conn:
        sid = await season_id(db)
        await conn.execute(
            "INSERT INTO round (season_id, number, date, deadline, on_site, online) "
            "VALUES (?, ?, ?, ?, ?, ?)",
            (sid, number, None if date is None else date.isoformat(),
             None if deadline is None else deadline.isoformat(), int(on_site), int(online)))
        await audit.record(conn, actor=actor, action="round.add", entity="round",
                           entity_id=number, new={"date": date, "deadline": deadline,
                                                  **({"on_site": True} if on_site else {}),
                                                  **({"online": True} if online else {})})


async def insert_round(db: Database, date: dt.date, deadline: dt.datetime, *,
                       on_site: bool = False, online: bool = False,
                       actor: int | None) -> int:
    """Schedule a round on `date`, keeping the rounds numbered by date: a date before rounds
    already planned takes its place among them, and they move up one number (they have no
    pairing yet). Refused if a later round is already under way. Returns its number."""
    async with db.transaction() as conn:
        sid = await season_id(db)
        async with conn.execute("SELECT number, date, state FROM round WHERE season_id = ? "
                                "ORDER BY number", (sid,)) as cur:
            schedule = list(await cur.fetchall())
        later = [r for r in schedule if r["date"] is not None and r["date"] > date.isoformat()]
        number = later[0]["number"] if later else len(schedule) + 1
        busy = next((r for r in later if r["state"] != RoundState.PLANNED), None)
        if busy is not None:
            raise InputStoreError(StoreProblem.ROUND_ORDER, round=busy["number"],
                                  date=busy["date"])
        # Two steps, because (season, number) is unique at every row of an UPDATE.
        await conn.execute("UPDATE round SET number = -number - 1 WHERE season_id = ? AND "
                           "number >= ?", (sid, number))
        await conn.execute("UPDATE round SET number = -number WHERE season_id = ? AND "
                           "number < 0", (sid,))
        await add_round(db, number, date=date, deadline=deadline, on_site=on_site,
                        online=online, actor=actor)
    return number


async def on_site(db: Database, number: int) -> bool:
    """Is the round paired at the venue (from those who say they are there)?"""
    conn = db.conn
    return bool((await round_row(conn, await season_id(db), number))["on_site"])


async def advance(db: Database, number: int, source: RoundState, target: RoundState, *,
                  actor: int | None) -> bool:
    """Move round `number` from `source` to `target`; False (nothing changed) if it was not
    in `source`: so a job that fires twice, or two processes, act once."""
    async with db.transaction() as conn:
        rnd = await round_row(conn, await season_id(db), number)
        if rnd["state"] != source:
            return False
        return await move(conn, rnd, target, actor=actor)


async def state(db: Database, number: int) -> RoundState:
    rnd = await round_row(db.conn, await season_id(db), number)
    return RoundState(rnd["state"])


async def save_pairing(db: Database, pairing: Pairing, *, actor: int | None) -> None:
    """Store a (draft) pairing: boards, the bye, the broken rules. Replaces an earlier draft;
    a published round is changed by `replace_boards` instead."""
    async with db.transaction() as conn:
        sid = await season_id(db)
        rnd = await round_row(conn, sid, pairing.round)
        if not await move(conn, rnd, RoundState.DRAFTED, actor=actor):
            raise InputStoreError(StoreProblem.BAD_STATE, round=pairing.round,
                                  state=rnd["state"])
        await _write_boards(conn, sid, rnd["id"], pairing.round, pairing.boards, pairing.bye,
                            actor)
        await conn.execute("DELETE FROM broken_rule WHERE round_id = ?", (rnd["id"],))
        await conn.executemany(
            "INSERT INTO broken_rule (round_id, rule, players, facts) VALUES (?, ?, ?, ?)",
            [(rnd["id"], r.rule.value, json.dumps(r.players), json.dumps(dict(r.facts)))
             for r in pairing.broken])
        await audit.record(conn, actor=actor, action="pairing.draft", entity="round",
                           entity_id=pairing.round, old=rnd["state"],
                           new={"boards": [(b.white, b.black) for b in pairing.boards],
                                "bye": pairing.bye})
        await checked(db)


async def replace_boards(db: Database, number: int, boards: tuple[Board, ...],
                         bye: str | None, *, actor: int | None) -> None:
    """The arbiter's correction of a pairing in any state; results of boards that keep the
    same players and colours are kept."""
    async with db.transaction() as conn:
        sid = await season_id(db)
        rnd = await round_row(conn, sid, number)
        await _write_boards(conn, sid, rnd["id"], number, boards, bye, actor)
        await checked(db)


async def _write_boards(conn: Connection, sid: int, round_id: int, number: int,
                        boards: tuple[Board, ...], bye: str | None,
                        actor: int | None) -> None:
    async with conn.execute("SELECT * FROM game WHERE round_id = ?", (round_id,)) as cur:
        old = {(g["white_id"], g["black_id"]): g for g in await cur.fetchall()}
    await conn.execute("DELETE FROM game WHERE round_id = ?", (round_id,))
    await conn.execute("DELETE FROM signoff WHERE round_id = ? AND reason = ?",
                       (round_id, AbsenceReason.BYE))
    for board in boards:
        white = await player_id(conn, sid, board.white)
        black = await player_id(conn, sid, board.black)
        kept = old.get((white, black))
        await conn.execute(
            "INSERT INTO game (round_id, board, white_id, black_id, result, reported_by, "
            "reported_at, confirmed_by, confirmed_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (round_id, board.number, white, black,
             *((kept["result"], kept["reported_by"], kept["reported_at"], kept["confirmed_by"],
                kept["confirmed_at"]) if kept else (None,) * 5)))
    if bye is not None:
        bye_id = await player_id(conn, sid, bye)
        await conn.execute("DELETE FROM signoff WHERE round_id = ? AND player_id = ?",
                           (round_id, bye_id))
        await conn.execute("INSERT INTO signoff (round_id, player_id, reason, entered_by, "
                           "sent_at) VALUES (?, ?, ?, ?, ?)",
                           (round_id, bye_id, AbsenceReason.BYE, actor, audit.now()))
    await audit.record(conn, actor=actor, action="pairing.boards", entity="round",
                       entity_id=number,
                       old=[(k[0], k[1], g["result"]) for k, g in old.items()],
                       new=[(b.white, b.black) for b in boards])


@dataclass(frozen=True, slots=True)
class StoredPairing:
    """A round's pairing as stored: boards (with their results), bye, broken rules."""

    round: int
    state: RoundState
    boards: tuple[Board, ...]
    results: tuple[Result | None, ...]
    """Each board's result as stored: final, or reported and not final yet (`states`)."""
    bye: str | None
    broken: tuple[BrokenRule, ...]
    states: tuple[ResultState | None, ...] = ()
    """Where each board's result stands (None: no result)."""


async def stored_pairing(db: Database, number: int) -> StoredPairing | None:
    conn = db.conn
    sid = await season_id(db)
    rnd = await round_row(conn, sid, number)
    async with conn.execute(
            "SELECT g.board, g.result, g.confirmed_at, g.disputed_at, w.code AS white, "
            "b.code AS black FROM game g "
            "JOIN player w ON w.id = g.white_id JOIN player b ON b.id = g.black_id "
            "WHERE g.round_id = ? ORDER BY g.board", (rnd["id"],)) as cur:
        games = await cur.fetchall()
    if not games:
        return None
    async with conn.execute("SELECT p.code FROM signoff s JOIN player p ON p.id = s.player_id "
                            "WHERE s.round_id = ? AND s.reason = ?",
                            (rnd["id"], AbsenceReason.BYE)) as cur:
        bye = await cur.fetchone()
    async with conn.execute("SELECT * FROM broken_rule WHERE round_id = ? ORDER BY id",
                            (rnd["id"],)) as cur:
        broken = [BrokenRule(Rule(r["rule"]), tuple(json.loads(r["players"])),
                             json.loads(r["facts"])) for r in await cur.fetchall()]
    return StoredPairing(number, RoundState(rnd["state"]),
                         tuple(Board(g["board"], g["white"], g["black"]) for g in games),
                         tuple(None if g["result"] is None else Result(g["result"])
                               for g in games),
                         None if bye is None else bye[0], tuple(broken),
                         tuple(_state(g) for g in games))


def _state(game: Row) -> ResultState | None:
    if game["result"] is None:
        return None
    if game["confirmed_at"] is not None:
        return ResultState.FINAL
    return ResultState.WAITING if game["disputed_at"] is None else ResultState.DISPUTED


async def fixes(db: Database, number: int) -> Fixes:
    """What the arbiter fixed by hand for a round's pairing (kept until it is published)."""
    rnd = await round_row(db.conn, await season_id(db), number)
    if rnd["fixes"] is None:
        return NO_FIXES
    data = json.loads(rnd["fixes"])
    return Fixes(boards=tuple((w, b) for w, b in data["boards"]),
                 forbidden=frozenset(frozenset(pair) for pair in data["forbidden"]),
                 bye=data["bye"], leave_out=frozenset(data["leave_out"]))


async def set_fixes(db: Database, number: int, hand: Fixes, *, actor: int | None) -> None:
    """Store the arbiter's fixes (NO_FIXES clears them)."""
    data = None if hand == NO_FIXES else {
        "boards": [list(b) for b in hand.boards],
        "forbidden": sorted(sorted(pair) for pair in hand.forbidden),
        "bye": hand.bye, "leave_out": sorted(hand.leave_out)}
    async with db.transaction() as conn:
        rnd = await round_row(conn, await season_id(db), number)
        await conn.execute("UPDATE round SET fixes = ? WHERE id = ?",
                           (None if data is None else json.dumps(data), rnd["id"]))
        await audit.record(conn, actor=actor, action="pairing.fixes", entity="round",
                           entity_id=number, new=data)
