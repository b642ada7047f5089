"""Sign-offs: who will not play a round, why, and whether he said so in time."""

from __future__ import annotations

import datetime as dt
import json
from dataclasses import dataclass
from fractions import Fraction

from core.attendance import Earlier, on_time, rule_sign_off
from core.rounds import RoundState
from core.season import Absence, AbsenceReason, ExternalDay, external_result_text
from storage import audit
from storage.db import Database
from storage.errors import InputStoreError, StoreProblem
from storage.rounds import drop_draft
from storage.seasons import checked, current, player_id, round_row, season_id, unannounced
from storage.sql import Row


@dataclass(frozen=True, slots=True)
class SignOff:
    round: int
    player: str
    reason: AbsenceReason
    on_time: bool
    day: ExternalDay | None = None
    team: int | None = None
    result: Fraction | None = None
    paired: bool = False
    """He was already paired in this round (his opponent must be told)."""
    draft_dropped: bool = False
    """It was in time, but the round had been drafted already: the draft is gone and the
    round must be paired again."""
    kept: bool = False
    """Sent after the deadline while a sign-off made in time stands: nothing changed, and
    `reason` and `day` are those of the one that stands."""


def _deadline(rnd: Row) -> dt.datetime | None:
    return None if rnd["deadline"] is None else dt.datetime.fromisoformat(rnd["deadline"])


async def _in_time(db: Database, round_no: int, player: str,
                   sent_at: dt.datetime, correction: bool) -> tuple[Row, int]:
    """The round and the player's id, for a change members may make only before the
    deadline (the arbiter always)."""
    conn, sid = db.conn, await season_id(db)
    rnd = await round_row(conn, sid, round_no)
    if not correction and not on_time(sent_at, _deadline(rnd), RoundState(rnd["state"])):
        raise InputStoreError(StoreProblem.TOO_LATE, round=round_no)
    return rnd, await player_id(conn, sid, player)


async def sign_off(db: Database, round_no: int, player: str,
                   reason: AbsenceReason = AbsenceReason.NOTICE, *, sent_at: dt.datetime,
                   actor: int | None, day: ExternalDay | None = None, team: int | None = None,
                   result: Fraction | None = None, note: str = "",
                   correction: bool = False) -> SignOff:
    """Record (or change) a player's sign-off. Members cannot touch a finished round; the
    arbiter can (`correction`)."""
    async with db.transaction() as conn:
        sid = await season_id(db)
        rnd = await round_row(conn, sid, round_no)
        if rnd["state"] == RoundState.COMPLETE and not correction:
            raise InputStoreError(StoreProblem.ROUND_CLOSED, round=round_no)
        pid = await player_id(conn, sid, player)
        async with conn.execute("SELECT * FROM signoff WHERE round_id = ? AND player_id = ?",
                                (rnd["id"], pid)) as cur:
            old = await cur.fetchone()
        async with conn.execute("SELECT 1 FROM game WHERE round_id = ? AND ? IN "
                                "(white_id, black_id)", (rnd["id"], pid)) as cur:
            paired = await cur.fetchone() is not None
        ruling = rule_sign_off(
            RoundState(rnd["state"]), _deadline(rnd), sent_at, paired=paired,
            correction=correction,
            earlier=None if old is None else Earlier(AbsenceReason(old["reason"]),
                                                     bool(old["on_time"])))
        if ruling.keeps_earlier:
            assert old is not None
            return SignOff(round_no, player, AbsenceReason(old["reason"]), True,
                           None if old["day"] is None else ExternalDay(old["day"]),
                           old["team"], kept=True)
        draft_dropped = ruling.drops_draft
        before = await current(db)  # as it stands before the write (a refusal reads none)
        if draft_dropped:
            await drop_draft(conn, rnd, RoundState.LOCKED, actor=actor)
            paired = False
        values = (reason.value, None if day is None else day.value, team,
                  None if result is None else external_result_text(result), note,
                  sent_at.isoformat(), actor, int(ruling.on_time))
        if old is None:
            await conn.execute(
                "INSERT INTO signoff (reason, day, team, result, note, sent_at, entered_by, "
                "on_time, round_id, player_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (*values, rnd["id"], pid))
        else:
            await conn.execute(
                "UPDATE signoff SET reason = ?, day = ?, team = ?, result = ?, note = ?, "
                "sent_at = ?, entered_by = ?, on_time = ? WHERE id = ?", (*values, old["id"]))
        # A flexible member who signed on and now signs off: the sign-off is what counts.
        await conn.execute("DELETE FROM signon WHERE round_id = ? AND player_id = ?",
                           (rnd["id"], pid))
        new = {"reason": reason.value, "day": values[1], "team": team, "result": values[3],
               "on_time": ruling.on_time}
        await audit.record(conn, actor=actor, action="signoff.set", entity="signoff",
                           entity_id=f"{round_no}/{player}",
                           old=None if old is None else dict(old),
                           new={**new, "draft_dropped": draft_dropped})
        await checked(db, round_no=round_no, before=before)
    return SignOff(round_no, player, reason, ruling.on_time, day, team, result, paired,
                   draft_dropped)


async def cancel_sign_off(db: Database, round_no: int, player: str, *, sent_at: dt.datetime,
                          actor: int | None, correction: bool = False) -> None:
    """Undo a sign-off: members only before the deadline, the arbiter always."""
    async with db.transaction() as conn:
        rnd, pid = await _in_time(db, round_no, player, sent_at, correction)
        async with conn.execute("SELECT * FROM signoff WHERE round_id = ? AND player_id = ? "
                                "AND reason != ?", (rnd["id"], pid, AbsenceReason.BYE)) as cur:
            old = await cur.fetchone()
        if old is None:
            raise InputStoreError(StoreProblem.NO_SIGNOFF, round=round_no, player=player)
        before = await current(db)
        await conn.execute("DELETE FROM signoff WHERE id = ?", (old["id"],))
        await audit.record(conn, actor=actor, action="signoff.cancel", entity="signoff",
                           entity_id=f"{round_no}/{player}", old=dict(old))
        await checked(db, round_no=round_no, before=before)


async def sign_on(db: Database, round_no: int, player: str, *, sent_at: dt.datetime,
                  actor: int | None, correction: bool = False) -> bool:
    """A flexible member will play: before the deadline, or by the arbiter. A sign-off he
    had for the round goes. True if he was not signed on yet."""
    async with db.transaction() as conn:
        rnd, pid = await _in_time(db, round_no, player, sent_at, correction)
        before = await current(db)
        await conn.execute("DELETE FROM signoff WHERE round_id = ? AND player_id = ? AND "
                           "reason != ?", (rnd["id"], pid, AbsenceReason.BYE))
        cur = await conn.execute(
            "INSERT INTO signon (round_id, player_id, sent_at, entered_by) VALUES (?, ?, ?, ?) "
            "ON CONFLICT (round_id, player_id) DO NOTHING",
            (rnd["id"], pid, sent_at.isoformat(), actor))
        new = cur.rowcount > 0
        await audit.record(conn, actor=actor, action="signon.set", entity="signon",
                           entity_id=f"{round_no}/{player}", new={"new": new})
        await checked(db, round_no=round_no, before=before)
    return new


async def record_unannounced(db: Database, round_no: int, reason: AbsenceReason, *,
                             actor: int | None, in_the_room: bool = False) -> list[str]:
    """When a round is locked: every flexible member who did not sign on is absent, as the
    rules say (`reason`); when a round at the venue is paired (`in_the_room`), every member
    who did not say he is there. Returns their codes."""
    async with db.transaction() as conn:
        before = await current(db)
        sid = await season_id(db)
        rnd = await round_row(conn, sid, round_no)
        absent = await unannounced(conn, sid, rnd, in_the_room=in_the_room)
        now = audit.now()
        await conn.executemany(
            "INSERT INTO signoff (round_id, player_id, reason, note, sent_at, entered_by, "
            "on_time) VALUES (?, ?, ?, '', ?, ?, 1)",
            [(rnd["id"], row["id"], reason.value, now, actor) for row in absent])
        if absent:
            await audit.record(conn, actor=actor, action="signoff.unannounced",
                               entity="round", entity_id=str(round_no),
                               new=[row["code"] for row in absent])
            await checked(db, round_no=round_no, before=before)
    return [row["code"] for row in absent]


@dataclass(frozen=True, slots=True)
class CheckIn:
    """A member said he is in the room (or the arbiter said it for him)."""

    round: int
    player: str
    new: bool
    """He had not said it yet."""
    draft_dropped: bool = False
    """The round had been paired without him: it goes back to be paired again."""
    late: bool = False
    """The pairing was out already: the arbiter gives him a board, or not."""


async def check_in(db: Database, round_no: int, player: str, *, at: dt.datetime,
                   actor: int | None, correction: bool = False) -> CheckIn:
    """He is in the room, for a round paired at the venue: from its deadline (the arbiter
    always). Before the pairing is out, a sign-off of his goes (he came after all) and a
    draft without him with it; after, he is only noted."""
    async with db.transaction() as conn:
        sid = await season_id(db)
        rnd = await round_row(conn, sid, round_no)
        state = RoundState(rnd["state"])
        if not rnd["on_site"]:
            raise InputStoreError(StoreProblem.NOT_ON_SITE, round=round_no)
        if state is RoundState.COMPLETE:
            raise InputStoreError(StoreProblem.ROUND_CLOSED, round=round_no)
        if state is RoundState.PLANNED and not correction:
            raise InputStoreError(StoreProblem.CHECK_IN_LATER, round=round_no,
                                  deadline=rnd["deadline"])
        pid = await player_id(conn, sid, player)
        before = await current(db)
        cur = await conn.execute(
            "INSERT INTO present (round_id, player_id, at, entered_by) VALUES (?, ?, ?, ?) "
            "ON CONFLICT (round_id, player_id) DO NOTHING",
            (rnd["id"], pid, at.isoformat(), actor))
        new = cur.rowcount > 0
        late = state is RoundState.PUBLISHED
        dropped = False
        if not late:
            gone = await conn.execute("DELETE FROM signoff WHERE round_id = ? AND "
                                      "player_id = ? AND reason != ?",
                                      (rnd["id"], pid, AbsenceReason.BYE))
            if state is RoundState.DRAFTED and (new or gone.rowcount):
                await drop_draft(conn, rnd, RoundState.LOCKED, actor=actor)
                dropped = True
        if new:
            await audit.record(conn, actor=actor, action="present.set", entity="present",
                               entity_id=f"{round_no}/{player}",
                               new={"late": late, "draft_dropped": dropped})
        await checked(db, round_no=round_no, before=None if dropped else before)
    return CheckIn(round_no, player, new, dropped, late)


async def check_out(db: Database, round_no: int, player: str, *, actor: int | None) -> bool:
    """The arbiter takes back that he is there (ticked by mistake, or he left before the
    pairing); a draft with him goes. False if he was not there."""
    async with db.transaction() as conn:
        sid = await season_id(db)
        rnd = await round_row(conn, sid, round_no)
        if RoundState(rnd["state"]) in (RoundState.PUBLISHED, RoundState.COMPLETE):
            raise InputStoreError(StoreProblem.ROUND_OUT, round=round_no)
        cur = await conn.execute("DELETE FROM present WHERE round_id = ? AND player_id = ?",
                                 (rnd["id"], await player_id(conn, sid, player)))
        if not cur.rowcount:
            return False
        if RoundState(rnd["state"]) is RoundState.DRAFTED:
            await drop_draft(conn, rnd, RoundState.LOCKED, actor=actor)
        await audit.record(conn, actor=actor, action="present.cancel", entity="present",
                           entity_id=f"{round_no}/{player}")
    return True


async def present(db: Database, round_no: int) -> list[str]:
    """Who said he is in the room for the round, in the order of the list."""
    conn = db.conn
    async with conn.execute(
            "SELECT p.code FROM present h JOIN player p ON p.id = h.player_id JOIN round r "
            "ON r.id = h.round_id WHERE r.season_id = ? AND r.number = ? ORDER BY p.position",
            (await season_id(db), round_no)) as cur:
        return [row[0] for row in await cur.fetchall()]


async def lost_bye(db: Database, round_no: int, player: str) -> bool:
    """Was the player's latest change in this round that his bye became an absence (the
    arbiter marked him absent at the board)? The audit log is where that is kept."""
    # The old row is read here rather than in SQL: SQLite's json_extract is not PostgreSQL's.
    async with db.conn.execute(
            "SELECT action, old FROM audit WHERE entity = 'signoff' AND entity_id = ? "
            "ORDER BY id DESC LIMIT 1", (f"{round_no}/{player}",)) as cur:
        row = await cur.fetchone()
    if row is None or row[0] != "signoff.set" or not row[1]:
        return False
    return bool(json.loads(row[1]).get("reason") == AbsenceReason.BYE)


async def signed_off_rounds(db: Database, player: str, *, from_round: int) -> list[int]:
    """The rounds from `from_round` on that a player signed off for (not byes)."""
    return list(await signed_off(db, player, from_round=from_round))


async def signed_off(db: Database, player: str, *, from_round: int) -> dict[int, Absence]:
    """His sign-offs (not byes) from round `from_round` on, by round, in order: also those
    for rounds after the next, which the season does not hold yet."""
    conn = db.conn
    sid = await season_id(db)
    pid = await player_id(conn, sid, player)
    async with conn.execute(
            "SELECT r.number, s.reason, s.day FROM signoff s JOIN round r ON "
            "r.id = s.round_id WHERE s.player_id = ? AND s.reason != ? AND r.number >= ? "
            "ORDER BY r.number", (pid, AbsenceReason.BYE, from_round)) as cur:
        return {int(row[0]): Absence(player, AbsenceReason(row[1]),
                                     None if row[2] is None else ExternalDay(row[2]))
                for row in await cur.fetchall()}


async def signed_on_rounds(db: Database, player: str, *, from_round: int) -> list[int]:
    """The rounds from `from_round` on that a flexible player signed on for."""
    conn = db.conn
    pid = await player_id(conn, await season_id(db), player)
    async with conn.execute(
            "SELECT r.number FROM signon s JOIN round r ON r.id = s.round_id "
            "WHERE s.player_id = ? AND r.number >= ? ORDER BY r.number",
            (pid, from_round)) as cur:
        return [int(row[0]) for row in await cur.fetchall()]


async def external_without_result(db: Database, player: str) -> tuple[int, ExternalDay] | None:
    """The newest round a player signed off for an external game whose result is not in yet,
    with the day it is played."""
    conn = db.conn
    sid = await season_id(db)
    pid = await player_id(conn, sid, player)
    async with conn.execute(
            "SELECT r.number, s.day FROM signoff s JOIN round r ON r.id = s.round_id "
            "WHERE s.player_id = ? AND s.reason = ? AND s.result IS NULL "
            "ORDER BY r.number DESC LIMIT 1", (pid, AbsenceReason.EXTERNAL.value)) as cur:
        row = await cur.fetchone()
    return None if row is None else (int(row[0]), ExternalDay(row[1] or ExternalDay.CLUB_NIGHT))
