"""The store on a real SQLite file: round trips, sign-offs, results, pairings, corrections,
refusals that change nothing, backups, migrations."""

from __future__ import annotations

import datetime as dt
import json
import sqlite3
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import replace
from decimal import Decimal
from pathlib import Path

import aiosqlite
import pytest

from core.errors import InvalidSeasonError
from core.pairing import Fixes, before_pairing, pair, request_for_round
from core.pairing.request import NO_FIXES, pairing_ranking, present_in
from core.results import Unsettled
from core.rounds import ResultState
from core.season import AbsenceReason, ExternalDay, Result, read_season
from core.standings import compute_standings
from storage import attendance, audit, results, rounds
from storage.backup import backup
from storage.club import settings as club_settings
from storage.errors import InputStoreError, StoreError, StoreProblem
from storage.migrate import SqliteTarget, upgrade
from storage.schema import MIGRATIONS, VERSION
from storage.seasons import (
    KeptSeason,
    export_json,
    import_season,
    load_season,
    season_since,
    stored_season,
)
from storage.store import open_store
from tests.integration.conftest import EXAMPLES, NOON, ROOT, dump
from tests.seasons import build

SEVILLA = ROOT / "tests" / "data" / "sevilla-2025-26.season.json"


@pytest.mark.parametrize("path", [*EXAMPLES, SEVILLA], ids=lambda p: p.stem)
async def test_export_of_import_is_the_same_season(db, path):
    if not path.exists():
        pytest.skip(f"{path} is not here")
    text = path.read_text(encoding="utf-8")
    await import_season(db, read_season(text))
    exported = await export_json(db)
    assert json.loads(exported, parse_float=Decimal) == json.loads(text, parse_float=Decimal)


async def test_import_refuses_a_database_with_a_season(club):
    season = await load_season(club)
    before = await dump(club)
    with pytest.raises(StoreError) as caught:
        await import_season(club, season)
    assert caught.value.problem is StoreProblem.NOT_EMPTY
    assert await dump(club) == before
    await import_season(club, season, replace=True)


async def deadline_round(db, hours_from_noon: int = 6):
    """Round 21 of the example gets a deadline."""
    await db.writer.execute("UPDATE round SET deadline = ? WHERE number = 21",
                            ((NOON + dt.timedelta(hours=hours_from_noon)).isoformat(),))


async def test_sign_off_in_time_and_late(club):
    await deadline_round(club)
    on_time = await attendance.sign_off(club, 21, "rm0", sent_at=NOON, actor=7)
    assert on_time.on_time and not on_time.paired
    late = await attendance.sign_off(club, 21, "bv1", sent_at=NOON + dt.timedelta(hours=7),
                                     actor=8)
    assert not late.on_time
    absent = {a.player: a.reason for a in (await load_season(club)).rounds[20].absent}
    assert absent["rm0"] is AbsenceReason.NOTICE
    assert absent["bv1"] is AbsenceReason.NO_NOTICE  # late earns what no notice earns


async def test_the_time_the_member_sent_it_counts(club):
    await deadline_round(club)
    # Read by the bot after the deadline, but sent before it.
    sent = await attendance.sign_off(club, 21, "rm0", sent_at=NOON + dt.timedelta(hours=5),
                                     actor=7)
    assert sent.on_time


async def test_cancel_only_before_the_deadline(club):
    await deadline_round(club)
    await attendance.sign_off(club, 21, "rm0", sent_at=NOON, actor=7)
    await attendance.cancel_sign_off(club, 21, "rm0", sent_at=NOON, actor=7)
    await attendance.sign_off(club, 21, "rm0", sent_at=NOON, actor=7)
    with pytest.raises(InputStoreError) as caught:
        await attendance.cancel_sign_off(club, 21, "rm0", sent_at=NOON + dt.timedelta(days=1),
                                         actor=7)
    assert caught.value.problem is StoreProblem.TOO_LATE


async def test_external_sign_off_keeps_its_day(club):
    signed = await attendance.sign_off(club, 21, "rm0", AbsenceReason.EXTERNAL, sent_at=NOON,
                                       actor=7, day=ExternalDay.CLUB_NIGHT)
    assert signed.day is ExternalDay.CLUB_NIGHT
    absent = (await load_season(club)).rounds[20].absent
    assert [(a.player, a.kind.value) for a in absent if a.player == "rm0"] == \
        [("rm0", "external_club_night")]


async def draft_and_publish(db, round_no: int = 21, fixes: Fixes = NO_FIXES):
    season = await load_season(db)
    pairing = pair(request_for_round(season, round_no, fixes))
    await rounds.advance(db, round_no, rounds.RoundState.PLANNED, rounds.RoundState.LOCKED,
                         actor=1)
    await rounds.save_pairing(db, pairing, actor=1)
    await rounds.advance(db, round_no, rounds.RoundState.DRAFTED, rounds.RoundState.PUBLISHED,
                         actor=1)
    return pairing


async def test_pairing_is_stored_with_its_bye_and_broken_rules(club):
    """An odd round (one signs off) with the top and the bottom player fixed on a board: the
    stored pairing has the same boards, the bye and the broken distance rule."""
    season = await load_season(club)
    present = present_in(before_pairing(season, 21), 21)
    if len(present) % 2 == 0:
        await attendance.sign_off(club, 21, sorted(present)[0], sent_at=NOON, actor=7)
    ranking = pairing_ranking(await load_season(club), 21)
    playing = [p for p in ranking if p in present_in(before_pairing(await load_season(club),
                                                                    21), 21)]
    pairing = await draft_and_publish(club, fixes=Fixes(boards=((playing[0], playing[-2]),)))
    assert pairing.bye is not None and pairing.broken
    stored = await rounds.stored_pairing(club, 21)
    assert stored is not None
    assert stored.boards == pairing.boards and stored.bye == pairing.bye
    assert stored.broken == pairing.broken
    absent = (await load_season(club)).rounds[20].absent
    assert any(a.player == pairing.bye and a.reason is AbsenceReason.BYE for a in absent)


async def test_result_reported_then_confirmed_by_the_opponent(club):
    pairing = await draft_and_publish(club)
    board = pairing.boards[0]
    first = await results.report(club, 21, 1, Result.WHITE_WINS, player=board.white, actor=11)
    assert first.outcome is results.Outcome.RECORDED
    second = await results.report(club, 21, 1, Result.WHITE_WINS, player=board.black,
                                  actor=12)
    assert second.outcome is results.Outcome.CONFIRMED


async def test_conflicting_reports_mark_the_game_disputed_and_go_to_the_arbiter(club):
    pairing = await draft_and_publish(club)
    board = pairing.boards[0]
    await results.report(club, 21, 1, Result.WHITE_WINS, player=board.white, actor=11)
    clash = await results.report(club, 21, 1, Result.BLACK_WINS, player=board.black, actor=12)
    assert clash.outcome is results.Outcome.CONFLICT and clash.result is Result.WHITE_WINS
    # The first report stays, disputed until the arbiter decides; it counts nowhere.
    stored = await rounds.stored_pairing(club, 21)
    assert stored is not None
    assert (stored.results[0], stored.states[0]) == (Result.WHITE_WINS, ResultState.DISPUTED)
    found = await results.unsettled(club)
    assert found[21, board.white] == found[21, board.black] == Unsettled(
        1, Result.WHITE_WINS, ResultState.DISPUTED)
    assert (await load_season(club)).round(21).games[0].result is None
    await results.correct(club, 21, 1, Result.DRAW, actor=1)
    stored = await rounds.stored_pairing(club, 21)
    assert stored is not None and stored.states[0] is ResultState.FINAL
    assert (21, board.white) not in await results.unsettled(club)


async def test_a_club_removed_under_its_running_bot_is_named_not_asserted(db):
    """Issue 34: a host's club removed while its bot still runs: reading its settings is a
    StoreError the bot knows (it stops at the host's next look), not an AssertionError."""
    async with db.transaction() as conn:
        await conn.execute("DELETE FROM club")
    with pytest.raises(StoreError) as caught:
        await club_settings(db)
    assert caught.value.problem is StoreProblem.NO_CLUB


async def test_round_completes_when_every_result_is_final(club):
    pairing = await draft_and_publish(club)
    outcomes = [await results.report(club, 21, b.number, Result.DRAW, player=None, actor=1)
                for b in pairing.boards]
    assert [o.round_complete for o in outcomes] == [False] * (len(outcomes) - 1) + [True]
    assert (await load_season(club)).complete_rounds == 21


async def test_correcting_an_early_result_changes_every_later_standing(club):
    before = compute_standings(await load_season(club))
    old = (await load_season(club)).rounds[2].games[0]
    flipped = Result.BLACK_WINS if old.result is Result.WHITE_WINS else Result.WHITE_WINS
    await results.correct(club, 3, 1, flipped, actor=1)
    after = compute_standings(await load_season(club))
    assert after.after_round == before.after_round
    assert after.row(old.white).score != before.row(old.white).score
    entry = (await audit.entries(club.reader, 1))[0]
    assert (entry.action, entry.entity_id, entry.old, entry.new) == \
        ("result.correct", "3/1", old.result.value, flipped.value)


@pytest.mark.parametrize(("action", "problem"), [
    (lambda db: attendance.sign_off(db, 21, "nobody", sent_at=NOON, actor=1),
     StoreProblem.UNKNOWN_PLAYER),
    (lambda db: attendance.sign_off(db, 5, "rm0", sent_at=NOON, actor=1),
     StoreProblem.ROUND_CLOSED),
    (lambda db: attendance.sign_off(db, 40, "rm0", sent_at=NOON, actor=1),
     StoreProblem.UNKNOWN_ROUND),
    (lambda db: results.report(db, 5, 99, Result.DRAW, player=None, actor=1),
     StoreProblem.NO_SUCH_GAME),
    (lambda db: results.report(db, 5, 1, Result.DRAW, player="rm0", actor=1),
     StoreProblem.ALREADY_CONFIRMED),
    (lambda db: attendance.cancel_sign_off(db, 21, "rm0", sent_at=NOON, actor=1),
     StoreProblem.NO_SIGNOFF),
])
async def test_bad_requests_are_refused_and_change_nothing(club, action, problem):
    before = await dump(club)
    with pytest.raises(InputStoreError) as caught:
        await action(club)
    assert caught.value.problem is problem
    assert await dump(club) == before


async def test_a_result_for_a_game_you_are_not_in(club):
    pairing = await draft_and_publish(club)
    outsider = next(p.id for p in (await load_season(club)).players
                    if p.id not in (pairing.boards[0].white, pairing.boards[0].black))
    before = await dump(club)
    with pytest.raises(InputStoreError) as caught:
        await results.report(club, 21, 1, Result.DRAW, player=outsider, actor=5)
    assert caught.value.problem is StoreProblem.NOT_IN_GAME
    assert await dump(club) == before


async def test_a_change_that_would_break_the_season_is_rolled_back(club):
    # A pairing that leaves a present player out: the core's validation refuses the season.
    pairing = await draft_and_publish(club)
    before = await dump(club)
    with pytest.raises(InvalidSeasonError):
        await rounds.replace_boards(club, 21, pairing.boards[1:], pairing.bye, actor=1)
    assert await dump(club) == before


async def test_every_change_is_audited(club):
    await attendance.sign_off(club, 21, "rm0", sent_at=NOON, actor=7)
    entry = (await audit.entries(club.reader, 1))[0]
    assert (entry.actor, entry.action, entry.entity_id) == (7, "signoff.set", "21/rm0")
    assert entry.new["reason"] == "notice" and entry.old is None


@pytest.mark.sqlite_only
async def test_backup_is_a_consistent_copy_and_old_ones_are_rotated(club, tmp_path):
    for _ in range(4):
        latest = await backup(club, tmp_path / "backups", keep=3)
    assert len(list((tmp_path / "backups").glob("keizer-*.db"))) == 3
    copy = await open_store(latest)
    try:
        async with copy.reader.execute("PRAGMA integrity_check") as cur:
            assert (await cur.fetchone())[0] == "ok"
        assert await export_json(copy) == await export_json(club)
    finally:
        await copy.close()


async def test_migrations_start_from_an_empty_file(tmp_path):
    db = await open_store(tmp_path / "new.db")
    try:
        async with db.reader.execute("PRAGMA user_version") as cur:
            assert (await cur.fetchone())[0] == VERSION
    finally:
        await db.close()


async def test_a_failed_migration_leaves_the_previous_version(tmp_path):
    path = tmp_path / "old.db"
    await (await open_store(path)).close()  # a file at the shipped version
    conn = await aiosqlite.connect(path, isolation_level=None)
    try:
        with pytest.raises(sqlite3.Error):
            await upgrade(SqliteTarget(conn),
                          (*MIGRATIONS, "CREATE TABLE extra (x INT); SELECT broken("))
        async with conn.execute("PRAGMA user_version") as cur:
            assert (await cur.fetchone())[0] == VERSION
        async with conn.execute("SELECT name FROM sqlite_master WHERE name = 'extra'") as cur:
            assert await cur.fetchone() is None
    finally:
        await conn.close()


@asynccontextmanager
async def at_version(path: Path, version: int, rows: str) -> AsyncIterator[aiosqlite.Connection]:
    """A database file of an older `version` holding `rows`, then migrated to this one."""
    conn = await aiosqlite.connect(path, isolation_level=None)
    try:
        await upgrade(SqliteTarget(conn), MIGRATIONS[:version])
        await conn.executescript(rows)
        assert await upgrade(SqliteTarget(conn)) == VERSION
        yield conn
    finally:
        await conn.close()


async def test_a_database_of_version_10_keeps_its_sign_offs_and_takes_the_requested_byes(
        tmp_path):
    async with at_version(tmp_path / "v10.db", 10, """
            INSERT INTO season (id, rules, created_at) VALUES (1, '"sliedrecht"', 'nu');
            INSERT INTO player (id, season_id, code, name, position) VALUES (1, 1, 'a', 'A', 1);
            INSERT INTO round (id, season_id, number, state) VALUES (1, 1, 1, 'complete');
            INSERT INTO signoff (round_id, player_id, reason, note) VALUES (1, 1, 'notice', 'ziek');
            """) as conn:
        async with conn.execute("SELECT reason, note FROM signoff") as cur:
            assert await cur.fetchall() == [("notice", "ziek")]
        async with conn.execute("SELECT version, standings FROM club_version") as cur:
            before = await cur.fetchone()
        await conn.execute("UPDATE signoff SET reason = 'half_bye'")
        async with conn.execute("SELECT version, standings FROM club_version") as cur:
            after = await cur.fetchone()
        # The rebuilt table keeps its triggers: the write moves both versions.
        assert after[0] == before[0] + 1 and after[1] == before[1] + 1


async def test_a_version_25_file_counts_the_edits_of_the_rounds_it_holds(tmp_path):
    """Migration 26 gives each round of an older file its count of edits, so the first write
    after the upgrade, even a deletion alone, makes a kept read (the standings worker's)
    read that round again."""
    path = tmp_path / "v25.db"
    async with at_version(path, 25, """
            INSERT INTO season (id, rules, created_at) VALUES (1, '"sliedrecht"', 'nu');
            INSERT INTO player (id, season_id, code, name, position) VALUES
                (1, 1, 'a', 'A', 1), (2, 1, 'b', 'B', 2), (3, 1, 'c', 'C', 3);
            INSERT INTO round (id, season_id, number, state) VALUES (1, 1, 1, 'complete');
            INSERT INTO game (round_id, board, white_id, black_id, result)
                VALUES (1, 1, 1, 2, '1-0');
            INSERT INTO signoff (round_id, player_id, reason) VALUES (1, 3, 'notice');
            """):
        pass
    db = await open_store(path)
    try:
        kept = KeptSeason()
        before = await season_since(db.reader, kept)
        await db.writer.execute("DELETE FROM signoff")
        await db.writer.commit()
        after = await season_since(db.reader, kept)
        assert before.rounds[0].absent and not after.rounds[0].absent
        assert after == await stored_season(db.reader)
    finally:
        await db.close()


async def test_requested_byes_are_stored_and_read_back(db):
    season = build("sliedrecht", "a:2000 b:1900 c:1800 d:1700",
                   ["a-b 1-0, c half_bye, d zero_bye"])
    await import_season(db, season)
    assert await load_season(db) == season


async def test_a_version_11_file_gains_the_identity_fields_and_the_clubs_choices(tmp_path):
    async with at_version(tmp_path / "v11.db", 11, """
            INSERT INTO season (id, rules, created_at) VALUES (1, '"sliedrecht"', 'nu');
            INSERT INTO player (id, season_id, code, name, knsb, position)
                VALUES (1, 1, 'a', 'A', 8123456, 1);
            """) as conn:
        async with conn.execute("SELECT knsb, fide_id, federation, name_as_written FROM player") \
                as cur:
            assert await cur.fetchall() == [(8123456, None, None, 0)]
        async with conn.execute("SELECT city, rating_list FROM club") as cur:
            assert await cur.fetchall() == [("", "klassiek")]
        with pytest.raises(sqlite3.IntegrityError):
            await conn.execute("UPDATE club SET rating_list = 'blitz'")


async def test_who_a_player_is_is_stored_and_read_back(db):
    season = build("sliedrecht", "a:2000 b:1900", ["a-b 1-0"])
    season = replace(season, players=(
        replace(season.players[0], fide_id=4100018, federation="RUS", sex="m", title="GM",
                birth="1963-04-13"),
        replace(season.players[1], name="Mirzoev Azer", name_as_written=True, birth="1990")))
    await import_season(db, season)
    assert await load_season(db) == season


async def test_a_newer_database_is_refused(tmp_path):
    path = tmp_path / "future.db"
    sqlite3.connect(path).execute(f"PRAGMA user_version = {VERSION + 1}").connection.close()
    with pytest.raises(StoreError) as caught:
        await open_store(path)
    assert caught.value.problem is StoreProblem.NEWER_DATABASE


async def test_arbiter_corrects_a_sign_off_of_a_finished_round(club):
    season = await load_season(club)
    absence = next(a for a in season.rounds[4].absent if a.reason is AbsenceReason.NOTICE)
    before = compute_standings(season).row(absence.player).score
    with pytest.raises(InputStoreError):
        await attendance.sign_off(club, 5, absence.player, AbsenceReason.EXTERNAL,
                                  day=ExternalDay.CLUB_NIGHT, sent_at=NOON, actor=9)
    await attendance.sign_off(club, 5, absence.player, AbsenceReason.EXTERNAL,
                              day=ExternalDay.CLUB_NIGHT, sent_at=NOON, actor=1,
                              correction=True)
    after = compute_standings(await load_season(club)).row(absence.player).score
    assert after > before  # 66% instead of 33% of his value
    entry = (await audit.entries(club.reader, 1))[0]
    assert entry.old["reason"] == "notice" and entry.new["reason"] == "external"


async def test_an_in_time_sign_off_read_after_the_draft_drops_the_draft(club):
    await deadline_round(club)
    season = await load_season(club)
    await rounds.advance(club, 21, rounds.RoundState.PLANNED, rounds.RoundState.LOCKED, actor=1)
    await rounds.save_pairing(club, pair(request_for_round(season, 21)), actor=1)
    player = (await load_season(club)).rounds[20].games[0].white
    signed = await attendance.sign_off(club, 21, player, sent_at=NOON, actor=7)
    assert signed.on_time and signed.draft_dropped and not signed.paired
    after = await load_season(club)
    assert not after.rounds[20].is_paired  # waiting to be paired again
    assert player in {a.player for a in after.rounds[20].absent}
    # Late, the draft stands: he is paired and told so.
    again = pair(request_for_round(after, 21))
    await rounds.save_pairing(club, again, actor=1)
    other = again.boards[0].white
    late = await attendance.sign_off(club, 21, other, sent_at=NOON + dt.timedelta(days=1),
                                     actor=8)
    assert not late.on_time and late.paired and not late.draft_dropped


async def test_a_sqlite_statement_is_one_trip_to_its_connections_thread(tmp_path, monkeypatch):
    """A statement, its rows and its cursor are one call on the connection's thread (aiosqlite's
    own cursor makes three, each waking both threads: most of a bot test's store CPU)."""
    db = await open_store(tmp_path / "keizer.db")
    try:
        raw = db.reader.raw  # type: ignore[attr-defined]
        run, trips = raw._execute, []

        async def counted(fn, *args, **kwargs):
            trips.append(fn)
            return await run(fn, *args, **kwargs)

        monkeypatch.setattr(raw, "_execute", counted)
        async with db.reader.execute("SELECT number FROM round") as cur:
            assert await cur.fetchall() == []
        row = await (await db.reader.execute("SELECT count(*) FROM player")).fetchone()
        assert row is not None and row[0] == 0 and len(trips) == 2
    finally:
        await db.close()


async def test_a_unit_of_work_looks_its_season_up_once(club, asked):
    """Issue 48: the repositories serve the season their unit of work looked up once: a
    sign-off, its undoing and the round's state in one transaction ask for the active
    season once (each looked it up again before), and a read outside a transaction asks
    each time (the reader may be on an older snapshot)."""
    code = (await load_season(club)).players[0].id
    asked.clear()
    async with club.transaction():
        await attendance.sign_off(club, 21, code, sent_at=NOON, actor=None, correction=True)
        await attendance.cancel_sign_off(club, 21, code, sent_at=NOON, actor=None,
                                         correction=True)
        assert await rounds.state(club, 21) is not None
    assert len(asked) == 1
    await rounds.state(club, 21)
    await rounds.state(club, 21)
    assert len(asked) == 3


async def test_a_unit_of_reads_looks_its_season_up_once_and_again_after_its_write(
        club, asked):
    """The tick is a unit of reads: its questions ask for the active season once, and once
    more after a write of its own (which may have started another). A task it started asks
    on its own once the unit is over."""
    import asyncio

    from storage import seasons
    from storage.cache import reading

    code = (await load_season(club)).players[0].id
    asked.clear()
    later = asyncio.Event()

    async def after_the_unit() -> None:
        await later.wait()
        await rounds.state(club, 21)

    with reading():
        assert await seasons.has_season(club)
        await rounds.state(club, 21)
        assert len(asked) == 1
        await attendance.sign_off(club, 21, code, sent_at=NOON, actor=None, correction=True)
        await rounds.state(club, 21)
        assert len(asked) == 3  # the write's own, and once again after it
        task = asyncio.create_task(after_the_unit())
    later.set()
    await task
    await rounds.state(club, 21)
    assert len(asked) == 5


async def test_a_season_started_in_a_unit_of_work_is_the_one_it_serves_after(club):
    """A unit of work that starts the next season serves the new one from then on: a player
    added after the start joins it, not the season before."""
    from storage import roster
    from storage.seasons import start_next

    before = await load_season(club)
    fresh = replace(before, name="Next", rounds=(), initial_ranking=None)
    async with club.transaction():
        await roster.members(club)  # the old season, looked up and kept
        await start_next(club, fresh, actor=None)
        await roster.add_player(club, "Nieuw Lid", rating=None, youth=False, joined=1,
                                actor=None)
    now = await load_season(club)
    assert now.name == "Next" and "Nieuw Lid" in {p.name for p in now.players}


async def test_the_next_season_keeps_the_teams_their_captains_and_regulars(club):
    """Issue 49: a new season starts with the club's teams, their captains and their
    regular players who play on (in board order), and who is willing to substitute; the
    matches are the season's own."""
    import datetime as dt

    from storage import teams
    from storage.seasons import start_next

    season = await load_season(club)
    codes = [p.id for p in season.players]
    await teams.add_team(club, 1, "Eerste", actor=None)
    await teams.set_captain(club, 1, codes[1], actor=None)
    await teams.set_players(club, 1, [codes[2], codes[0], codes[1]], actor=None)
    await teams.add_match(club, 1, dt.date(2026, 3, 7), home=True, opponent="De Toren",
                          boards=8, actor=None)
    await teams.set_substitute(club, codes[3], True, actor=None)
    gone = codes[0]
    await start_next(club, replace(season, name="Next", rounds=(), initial_ranking=None,
                                   players=tuple(p for p in season.players if p.id != gone)),
                     actor=None)
    assert await teams.teams(club) == [teams.Team(1, "Eerste", codes[1], (codes[2], codes[1]))]
    assert await teams.matches(club) == []
    assert await teams.willing(club) == [codes[3]]


@pytest.mark.parametrize("spoil", ["no team number", "no boards", "a team of nobody"])
async def test_a_club_file_edited_by_hand_is_refused_whole(club, tmp_path, spoil):
    """A club file whose teams are not as keizerbot writes them is refused with a reason,
    and nothing of it is read (before: a traceback, or the database's own error)."""
    import datetime as dt

    from storage import teams
    from storage.club_file import export_club, import_club

    codes = [p.id for p in (await load_season(club)).players]
    await teams.add_team(club, 1, "Eerste", actor=None)
    await teams.set_players(club, 1, codes[:2], actor=None)
    await teams.add_match(club, 1, dt.date(2026, 3, 7), home=True, opponent="X", boards=8,
                          actor=None)
    data = json.loads(await export_club(club))
    team = data["teams"][0]
    if spoil == "no team number":
        del team["number"]
    elif spoil == "no boards":
        team["matches"][0]["boards"] = 0
    else:
        team["players"].append("nobody")
    other = await open_store(tmp_path / "other.db")
    try:
        with pytest.raises(StoreError) as refused:
            await import_club(other, json.dumps(data))
        assert refused.value.problem is (StoreProblem.UNKNOWN_PLAYER if spoil == "a team of "
                                         "nobody" else StoreProblem.BAD_CLUB_FILE)
        async with other.reader.execute("SELECT count(*) FROM season") as cur:
            assert (await cur.fetchone())[0] == 0
    finally:
        await other.close()
