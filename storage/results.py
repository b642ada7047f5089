"""Results: reported by a player, confirmed by his opponent or the arbiter; corrected by the
arbiter in any round. A round whose every result is confirmed is complete."""

from __future__ import annotations

from dataclasses import dataclass

from core import rounds
from core.results import Outcome, Refusal, Reported, Unsettled, rule_confirm, rule_report
from core.rounds import PUBLIC, ResultState, RoundState
from core.season import Result
from storage import audit
from storage.db import Database
from storage.errors import InputStoreError, StoreProblem
from storage.rounds import move
from storage.seasons import checked, current, player_id, round_row, season_id
from storage.sql import Connection, Row


def _refused(refusal: Refusal, game: Row, round_no: int, board: int,
             player: str | None) -> InputStoreError:
    if refusal is Refusal.NOT_IN_GAME:
        return InputStoreError(StoreProblem.NOT_IN_GAME, round=round_no, player=player)
    if refusal is Refusal.ALREADY_CONFIRMED:
        return InputStoreError(StoreProblem.ALREADY_CONFIRMED, round=round_no, board=board,
                               result=game["result"])
    return InputStoreError(StoreProblem.NO_SUCH_GAME, round=round_no, board=board)


def _reported(game: Row) -> Reported:
    return Reported(None if game["result"] is None else Result(game["result"]),
                    game["reported_by"], game["confirmed_at"] is not None)


@dataclass(frozen=True, slots=True)
class GameResult:
    round: int
    board: int
    white: str
    black: str
    result: Result | None
    outcome: Outcome
    round_complete: bool = False


async def _game(conn: Connection, sid: int, round_no: int,
                board: int) -> tuple[Row, Row]:
    rnd = await round_row(conn, sid, round_no)
    async with conn.execute(
            "SELECT g.*, w.code AS white_code, b.code AS black_code FROM game g "
            "JOIN player w ON w.id = g.white_id JOIN player b ON b.id = g.black_id "
            "WHERE g.round_id = ? AND g.board = ?", (rnd["id"], board)) as cur:
        game = await cur.fetchone()
    if game is None:
        raise InputStoreError(StoreProblem.NO_SUCH_GAME, round=round_no, board=board)
    return rnd, game


@dataclass(frozen=True, slots=True)
class StoredGame:
    white: str
    black: str
    result: Result | None
    confirmed: bool
    reported_by: int | None
    """The Telegram user who reported the result (he cannot confirm it himself)."""


async def game(db: Database, round_no: int, board: int) -> StoredGame:
    _, row = await _game(db.conn, await season_id(db), round_no, board)
    return StoredGame(row["white_code"], row["black_code"],
                      None if row["result"] is None else Result(row["result"]),
                      row["confirmed_at"] is not None, row["reported_by"])


async def board_of(db: Database, round_no: int, player: str) -> int:
    """The board a player plays in a round."""
    conn = db.conn
    sid = await season_id(db)
    rnd = await round_row(conn, sid, round_no)
    pid = await player_id(conn, sid, player)
    async with conn.execute("SELECT board FROM game WHERE round_id = ? AND ? IN "
                            "(white_id, black_id)", (rnd["id"], pid)) as cur:
        row = await cur.fetchone()
    if row is None:
        raise InputStoreError(StoreProblem.NOT_IN_GAME, round=round_no, player=player)
    return int(row[0])


@dataclass(frozen=True, slots=True)
class OpenGame:
    """A published game of a player whose result is not final yet."""

    round: int
    board: int
    opponent: str


async def open_games(db: Database, player: str) -> list[OpenGame]:
    """The player's games in published rounds without a final result, the earliest first."""
    conn = db.conn
    sid = await season_id(db)
    pid = await player_id(conn, sid, player)
    async with conn.execute(
            "SELECT r.number, g.board, CASE WHEN g.white_id = ? THEN b.code ELSE w.code END "
            "FROM game g JOIN round r ON r.id = g.round_id "
            "JOIN player w ON w.id = g.white_id JOIN player b ON b.id = g.black_id "
            "WHERE r.season_id = ? AND r.state IN (?, ?) AND g.confirmed_at IS NULL "
            "AND ? IN (g.white_id, g.black_id) ORDER BY r.number",
            (pid, sid, *sorted(PUBLIC), pid)) as cur:
        return [OpenGame(int(row[0]), int(row[1]), str(row[2])) for row in await cur.fetchall()]


async def report(db: Database, round_no: int, board: int, result: Result, *,
                 player: str | None, actor: int | None, again: bool = True) -> GameResult:
    """A result reported by a player of the game (`player`), or entered by the arbiter
    (`player=None`, final at once). Without `again`, the same player's same result a second
    time changes nothing (a second tap on a button)."""
    async with db.transaction() as conn:
        sid = await season_id(db)
        rnd, game = await _game(conn, sid, round_no, board)
        if rnd["state"] not in PUBLIC:
            raise InputStoreError(StoreProblem.BAD_STATE, round=round_no, state=rnd["state"])
        outcome = rule_report(_reported(game), result, by_player=player is not None,
                              in_game=player in (game["white_code"], game["black_code"]),
                              actor=actor, again=again)
        if isinstance(outcome, Refusal):
            raise _refused(outcome, game, round_no, board, player)
        at = audit.now()
        if outcome is Outcome.UNCHANGED:
            return GameResult(round_no, board, game["white_code"], game["black_code"], result,
                              Outcome.UNCHANGED)
        before = await current(db)  # as it stands before the write (a refusal reads none)
        if player is None:
            await conn.execute("UPDATE game SET result = ?, reported_by = ?, reported_at = ?, "
                               "confirmed_by = ?, confirmed_at = ?, disputed_at = NULL "
                               "WHERE id = ?", (result.value, actor, at, actor, at, game["id"]))
        elif outcome is Outcome.RECORDED:  # a new report: the opponent is asked again
            await conn.execute("UPDATE game SET result = ?, reported_by = ?, reported_at = ?, "
                               "disputed_at = NULL WHERE id = ?",
                               (result.value, actor, at, game["id"]))
        elif outcome is Outcome.CONFIRMED:  # the opponent says the same: a confirmation
            await conn.execute("UPDATE game SET confirmed_by = ?, confirmed_at = ?, "
                               "disputed_at = NULL WHERE id = ?", (actor, at, game["id"]))
        else:
            # The opponent reports another result: disputed until the arbiter decides.
            await conn.execute("UPDATE game SET disputed_at = ? WHERE id = ?", (at, game["id"]))
            await audit.record(conn, actor=actor, action="result.conflict", entity="game",
                               entity_id=f"{round_no}/{board}", old=game["result"],
                               new=result.value)
            return GameResult(round_no, board, game["white_code"], game["black_code"],
                              Result(game["result"]), Outcome.CONFLICT)
        await audit.record(conn, actor=actor, action=f"result.{outcome.value}", entity="game",
                           entity_id=f"{round_no}/{board}", old=game["result"],
                           new=result.value)
        complete = await _complete_if_final(conn, rnd)
        await checked(db, round_no=round_no, before=before)
    return GameResult(round_no, board, game["white_code"], game["black_code"], result, outcome,
                      complete)


async def confirm(db: Database, round_no: int, board: int, *, player: str | None,
                  actor: int | None) -> GameResult:
    """The opponent's (or the arbiter's, `player=None`) confirmation of the reported result."""
    async with db.transaction() as conn:
        sid = await season_id(db)
        rnd, game = await _game(conn, sid, round_no, board)
        refusal = rule_confirm(_reported(game), by_player=player is not None,
                               in_game=player in (game["white_code"], game["black_code"]),
                               actor=actor)
        if refusal is not None:
            raise _refused(refusal, game, round_no, board, player)
        await conn.execute("UPDATE game SET confirmed_by = ?, confirmed_at = ?, "
                           "disputed_at = NULL WHERE id = ?", (actor, audit.now(), game["id"]))
        await audit.record(conn, actor=actor, action="result.confirm", entity="game",
                           entity_id=f"{round_no}/{board}", new=game["result"])
        complete = await _complete_if_final(conn, rnd)
    return GameResult(round_no, board, game["white_code"], game["black_code"],
                      Result(game["result"]), Outcome.CONFIRMED, complete)


async def dispute(db: Database, round_no: int, board: int, *, actor: int | None) -> None:
    """The opponent says the reported result is wrong: disputed until the arbiter decides."""
    async with db.transaction() as conn:
        _, game = await _game(conn, await season_id(db), round_no, board)
        await conn.execute("UPDATE game SET disputed_at = ? WHERE id = ?",
                           (audit.now(), game["id"]))
        await audit.record(conn, actor=actor, action="result.dispute", entity="game",
                           entity_id=f"{round_no}/{board}", old=game["result"])


async def unsettled(db: Database) -> dict[tuple[int, str], Unsettled]:
    """The active season's results that are not final, by round and by each of the game's
    two players: what the views mark as waiting or disputed."""
    conn, sid = db.conn, await season_id(db)
    found: dict[tuple[int, str], Unsettled] = {}
    async with conn.execute(
            "SELECT r.number, g.board, g.result, g.disputed_at, w.code, b.code FROM game g "
            "JOIN round r ON r.id = g.round_id JOIN player w ON w.id = g.white_id "
            "JOIN player b ON b.id = g.black_id WHERE r.season_id = ? "
            "AND g.result IS NOT NULL AND g.confirmed_at IS NULL", (sid,)) as cur:
        for row in await cur.fetchall():
            shown = Unsettled(int(row[1]), Result(row[2]), ResultState.WAITING
                              if row[3] is None else ResultState.DISPUTED)
            found[int(row[0]), str(row[4])] = found[int(row[0]), str(row[5])] = shown
    return found


async def correct(db: Database, round_no: int, board: int, result: Result | None, *,
                  actor: int | None) -> GameResult:
    """The arbiter's correction of any result of any round (None clears it); audited, and
    every later standing follows because standings are always computed from the facts."""
    async with db.transaction() as conn:
        before = await current(db)
        sid = await season_id(db)
        rnd, game = await _game(conn, sid, round_no, board)
        at = None if result is None else audit.now()
        await conn.execute("UPDATE game SET result = ?, reported_by = ?, reported_at = ?, "
                           "confirmed_by = ?, confirmed_at = ?, disputed_at = NULL "
                           "WHERE id = ?",
                           (None if result is None else result.value, actor, at,
                            None if result is None else actor, at, game["id"]))
        if result is None:
            await move(conn, rnd, RoundState.PUBLISHED, actor=actor)
        await audit.record(conn, actor=actor, action="result.correct", entity="game",
                           entity_id=f"{round_no}/{board}", old=game["result"],
                           new=None if result is None else result.value)
        complete = await _complete_if_final(conn, rnd)
        await checked(db, round_no=round_no, before=before)
    return GameResult(round_no, board, game["white_code"], game["black_code"], result,
                      Outcome.CONFIRMED, complete)


async def _complete_if_final(conn: Connection, rnd: Row) -> bool:
    """Mark the round complete when its last result became final; True if it did just now."""
    async with conn.execute("SELECT confirmed_at IS NOT NULL FROM game WHERE round_id = ?",
                            (rnd["id"],)) as cur:
        finals = [bool(row[0]) for row in await cur.fetchall()]
    if not rounds.complete(finals):
        return False
    rnd = await round_row(conn, rnd["season_id"], rnd["number"])  # as it is now
    return await move(conn, rnd, RoundState.COMPLETE, actor=None)
