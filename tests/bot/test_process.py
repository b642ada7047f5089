"""Issue 11 against the real `keizerbot` process: SIGKILL at the worst moment and under load,
a second process, a bad token, broken database files, and stopping by signal."""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import os
import random
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bot.demo.fakeapi import User
from bot.language import texts
from bot.language.i18n import words
from bot.language.notice import Text
from storage import roster, rounds
from storage.errors import StoreProblem
from storage.store import open_store
from tests.bot.conftest import (
    ARBITER,
    GROUP,
    TOKEN,
    confirm_question,
    drafted,
    fits,
    heard,
    meaning,
    pairing_title,
    refused,
    said,
    says,
)
from tests.bot.process import BotProcess, make_club, query, run_cycles, until
from tests.integration.conftest import ROOT


def state(db, number: int) -> str | None:
    rows = query(db, "SELECT state FROM round WHERE number = ?", number)
    return str(rows[0][0]) if rows else None


@pytest.mark.slow
async def test_killed_right_after_the_draft_the_arbiter_still_gets_it_once(tg, tmp_path):
    db = tmp_path / "keizer.db"
    await make_club(db, deadline_passed=True)
    # Telegram takes no message for now, so the kill lands after the round became drafted
    # and before the draft it owes the arbiter was delivered.
    tg.outage.add("sendMessage")
    bot = BotProcess(tg, db)
    bot.start()
    await until(lambda: state(db, 1) == "drafted")
    bot.kill()
    await asyncio.sleep(0.3)  # what the dead process had on the wire meets the outage too
    assert not [s for s in tg.to(ARBITER.id) if drafted(1) in s.text]
    tg.outage.clear()
    bot.start()
    await tg.next_to(ARBITER.id, drafted(1), timeout=30)
    await bot.running()
    await asyncio.sleep(1.0)
    assert sum(drafted(1) in s.text for s in tg.to(ARBITER.id)) == 1
    bot.kill()


@pytest.mark.slow
async def test_killed_right_after_the_room_opened_group_and_arbiter_hear_once(tg, tmp_path):
    """Issue 36: a round at the venue whose deadline passed. Killed after the round is
    locked (the room open), before Ik ben er reached the group and the arbiter his word:
    after the restart each comes once, and nothing is paired."""
    db = tmp_path / "keizer.db"
    await make_club(db, deadline_passed=True, on_site=True)
    tg.outage.add("sendMessage")
    bot = BotProcess(tg, db)
    bot.start()
    await until(lambda: state(db, 1) == "locked")
    bot.kill()
    await asyncio.sleep(0.3)
    assert not heard(tg.to(GROUP), "CHECK_IN_OPEN", round=1)
    tg.outage.clear()
    bot.start()
    await tg.next_to(GROUP, meaning("CHECK_IN_OPEN", round=1), timeout=30)
    await tg.next_to(ARBITER.id, meaning("CHECK_IN_TO_ARBITER", round=1), timeout=30)
    await bot.running()
    await asyncio.sleep(1.0)
    assert heard(tg.to(GROUP), "CHECK_IN_OPEN", round=1) == 1
    assert heard(tg.to(ARBITER.id), "CHECK_IN_TO_ARBITER", round=1) == 1
    assert state(db, 1) == "locked" and not heard(tg.to(ARBITER.id), "DRAFT_TO_ARBITER",
                                                  round=1)
    bot.kill()


@pytest.mark.slow
async def test_killed_right_after_a_late_check_in_the_arbiter_hears_once(tg, tmp_path):
    """Issue 36: a round at the venue, two in the room (Ik ben er in the Mini App), paired
    and published; a third comes late. Killed after his check-in is stored, before the
    arbiter's word of it went out: after the restart the arbiter hears it once."""
    import aiohttp

    from tests.bot.process import free_port
    from tests.bot.web import init_data

    db = tmp_path / "keizer.db"
    await make_club(db, deadline_passed=True, on_site=True)
    port = free_port()
    bot = BotProcess(tg, db)
    bot.env.update(KEIZER_WEB_PORT=str(port))
    bot.start()
    await tg.next_to(GROUP, meaning("CHECK_IN_OPEN", round=1), timeout=30)

    async def here(member: int) -> str:
        async with aiohttp.ClientSession() as session, session.post(
                f"http://127.0.0.1:{port}/mij-seizoen", json={"round": 1, "here": True},
                headers={"X-Telegram-Init-Data": init_data(member,
                                                           at=dt.datetime.now(dt.UTC))},
        ) as response:
            assert response.status == 200
            return await response.text()

    for member in (100, 101):
        assert fits(await here(member), "HERE_NOTED", round=1)
    tg.user_says(ARBITER, "/indeling maak")
    await tg.next_to(ARBITER.id, meaning("INDELING_DRAFT_TITLE"), timeout=30)
    tg.user_says(ARBITER, "/indeling bevestig")
    await tg.next_to(GROUP, pairing_title(1), timeout=30)
    await bot.running()
    tg.outage.add("sendMessage")  # the arbiter's word cannot go yet
    assert fits(await here(102), "HERE_LATE", round=1)
    assert query(db, "SELECT count(*) FROM present")[0][0] == 3
    bot.kill()
    await asyncio.sleep(0.3)
    assert not heard(tg.to(ARBITER.id), "CHECK_IN_LATE", round=1)
    tg.outage.clear()
    bot.start()
    await tg.next_to(ARBITER.id, meaning("CHECK_IN_LATE", round=1), timeout=30)
    await bot.running()
    await asyncio.sleep(1.0)
    assert heard(tg.to(ARBITER.id), "CHECK_IN_LATE", round=1) == 1
    bot.kill()


@pytest.mark.slow
async def test_killed_right_then_make_games_everyone_still_hears_once(tg, tmp_path):
    db = tmp_path / "keizer.db"
    await make_club(db, deadline_passed=True)
    bot = BotProcess(tg, db)
    bot.start()
    await tg.next_to(ARBITER.id, drafted(1), timeout=30)
    await bot.running()
    await asyncio.sleep(0.5)  # the draft's messages are out; nothing is in flight
    tg.outage.add("sendMessage")
    tg.user_says(ARBITER, "/indeling bevestig")
    await until(lambda: state(db, 1) == "published")
    bot.kill()
    await asyncio.sleep(0.3)  # what the dead process had on the wire meets the outage too
    tg.outage.clear()
    bot.start()
    await tg.next_to(GROUP, pairing_title(1), timeout=30)
    for member in range(100, 106):
        await tg.next_to(member, meaning("PERSONAL_PAIRING", round=1), timeout=30)
    await asyncio.sleep(1.0)
    assert sum(pairing_title(1) in s.text for s in tg.to(GROUP)) == 1
    assert all(heard(tg.to(m), "PERSONAL_PAIRING", round=1) == 1 for m in range(100, 106))
    assert sum(s.text == texts.publish_note(words("nl"), 1, 6) for s in tg.to(ARBITER.id)) == 1
    bot.kill()


@pytest.mark.slow
async def test_killed_right_after_a_lineup_each_player_hears_his_board_once(tg, tmp_path):
    """Issue 49: the captain confirms his team's lineup (its players signed off for the
    club's round of that week) and the process is killed before any of it went out: after
    the restart each player hears his board once, the captain his answer once."""
    from storage import teams

    db = tmp_path / "keizer.db"
    await make_club(db, rounds_ahead=1)
    store = await open_store(db)
    try:
        (date,) = query(db, "SELECT date FROM round WHERE number = 1")[0]
        await teams.add_team(store, 1, "Eerste", actor=None)
        await teams.set_captain(store, 1, "p0", actor=None)
        await teams.set_players(store, 1, ["p0", "p1"], actor=None)
        await teams.add_match(store, 1, dt.date.fromisoformat(str(date)), home=True,
                              opponent="Schaakmat", boards=2, actor=None)
    finally:
        await store.close()
    bot = BotProcess(tg, db)
    bot.start()
    for member in (100, 101):  # the week before: the bot asks them at once
        await tg.wait_for(lambda s, m=member: s.chat_id == m and any(
            d.startswith("team:") for _, d in s.buttons), timeout=30)
    await bot.running()
    await until(lambda: not owed(db))  # the questions are out; nothing is in flight
    tg.outage.add("sendMessage")
    tg.user_says(User(100, "Anna", "Visser"), "/team 1 opstelling Anna Visser, Bram de Boer")
    await until(lambda: len(query(db, "SELECT 1 FROM team_board")) == 2)
    bot.kill()
    await asyncio.sleep(0.3)  # what the dead process had on the wire meets the outage too
    tg.outage.clear()
    bot.start()
    await tg.next_to(101, meaning("TEAM_LINEUP_TO_PLAYER", pick=False, board=2), timeout=30)
    await tg.next_to(100, meaning("TEAM_SIGNED_OFF", round=1), timeout=30)
    await until(lambda: not owed(db))  # everything owed went out: what came twice is here
    assert heard(tg.to(100), "TEAM_LINEUP_TO_PLAYER", pick=False, board=1) == 1
    assert heard(tg.to(101), "TEAM_LINEUP_TO_PLAYER", pick=False, board=2) == 1
    assert heard(tg.to(100), "TEAM_SIGNED_OFF", round=1) == 1
    assert len(query(db, "SELECT 1 FROM signoff WHERE reason = 'external'")) == 2
    bot.kill()


def owed(db) -> int:
    """Messages the bot owes and has not sent (nor given up on)."""
    return int(str(query(db, "SELECT count(*) FROM outbox WHERE sent_at IS NULL AND "
                             "failed_at IS NULL")[0][0]))


def players_of_board(db, number: int, board: int) -> tuple[int, int]:
    """The Telegram ids of white and black on a board."""
    ((white, black),) = query(
        db, "SELECT w.telegram_id, b.telegram_id FROM game g JOIN round r ON r.id = g.round_id "
            "JOIN player w ON w.id = g.white_id JOIN player b ON b.id = g.black_id "
            "WHERE r.number = ? AND g.board = ?", number, board)
    return int(str(white)), int(str(black))


async def published_club(tg, db) -> BotProcess:
    """A running bot whose round 1 is published and whose messages are all out."""
    await make_club(db, deadline_passed=True)
    bot = BotProcess(tg, db)
    bot.start()
    await tg.next_to(ARBITER.id, drafted(1), timeout=30)
    await bot.running()
    tg.user_says(ARBITER, "/indeling bevestig")
    await tg.next_to(GROUP, pairing_title(1), timeout=30)
    await asyncio.sleep(0.5)
    return bot


@pytest.mark.slow
async def test_killed_right_after_the_arbiter_settles_a_result_both_players_hear_once(
        tg, tmp_path):
    db = tmp_path / "keizer.db"
    bot = await published_club(tg, db)
    white, black = players_of_board(db, 1, 1)
    tg.user_says(User(white, "Wit"), "/uitslag 1-0")
    await confirm_question(tg, black, timeout=30)
    tg.outage.add("sendMessage")
    tg.user_says(ARBITER, "/uitslag 1 1/2-1/2")
    await until(lambda: query(db, "SELECT confirmed_at FROM game WHERE board = 1")[0][0])
    bot.kill()
    await asyncio.sleep(0.3)
    tg.outage.clear()
    bot.start()
    for player in (white, black):
        await tg.next_to(player, meaning("RESULT_DECIDED", round=1, board=1), timeout=30)
    await asyncio.sleep(1.0)
    for player in (white, black):
        assert heard(tg.to(player), "RESULT_DECIDED", round=1, board=1) == 1
    assert heard(tg.to(ARBITER.id), "RESULT_FINAL", round=1, board=1) == 1
    bot.kill()


@pytest.mark.slow
async def test_killed_right_after_a_confirmation_the_question_is_still_edited_once(
        tg, tmp_path):
    """Issue 33: a *Klopt* tap is stored, and then the process dies before Telegram took
    the toast or the edit. After the restart the question says "Bevestigd", once, and has
    no buttons left."""
    db = tmp_path / "keizer.db"
    bot = await published_club(tg, db)
    white, black = players_of_board(db, 1, 1)
    tg.user_says(User(white, "Wit"), "/uitslag 1-0")
    ask = await confirm_question(tg, black, timeout=30)
    tg.outage.update({"answerCallbackQuery", "editMessageText"})
    tg.press(User(black, "Zwart"), ask, ask.buttons[0][1])
    await until(lambda: query(db, "SELECT confirmed_at FROM game WHERE board = 1")[0][0])
    bot.kill()
    await asyncio.sleep(0.3)
    tg.outage.clear()
    bot.start()
    await tg.edited(ask, "Bevestigd", timeout=30)
    await asyncio.sleep(1.0)
    assert len(ask.edits) == 1 and not ask.buttons
    bot.kill()


@pytest.mark.slow
@pytest.mark.parametrize("moment", ["completed", "claimed"])
async def test_killed_around_a_rounds_last_result_the_group_gets_the_standings_once(
        tg, tmp_path, moment):
    """Issue 23: the standings are computed after the commit that completed the round, and
    claimed in a transaction of their own. Killed as soon as the round is complete (most
    often before the claim), or once they are claimed and owed (Telegram taking nothing),
    the group gets them once after the restart."""
    db = tmp_path / "keizer.db"
    bot = await published_club(tg, db)
    boards = int(str(query(db, "SELECT count(*) FROM game")[0][0]))
    for board in range(1, boards):
        tg.user_says(ARBITER, f"/uitslag {board} 1-0")
        await tg.next_to(ARBITER.id, f"Vastgelegd, ronde 1 bord {board}", timeout=30)
    tg.outage.add("sendMessage")
    tg.user_says(ARBITER, f"/uitslag {boards} 0-1")
    if moment == "completed":
        await until(lambda: state(db, 1) == "complete", every=0.001)
    else:
        await until(lambda: query(db, "SELECT announced FROM round WHERE number = 1")
                    == [(1,)] and state(db, 1) == "complete")
    bot.kill()
    await asyncio.sleep(0.3)
    tg.outage.clear()
    bot.start()
    await tg.next_to(GROUP, meaning("ROUND_COMPLETE", round=1), timeout=30)
    await bot.running()
    await asyncio.sleep(1.0)
    assert heard(tg.to(GROUP), "ROUND_COMPLETE", round=1) == 1
    bot.kill()


@pytest.mark.slow
async def test_killed_right_after_a_change_at_the_board_everyone_it_concerns_hears_once(
        tg, tmp_path):
    db = tmp_path / "keizer.db"
    bot = await published_club(tg, db)
    white, black = players_of_board(db, 1, 1)
    ((name,),) = query(db, "SELECT name FROM player WHERE telegram_id = ?", white)
    tg.outage.add("sendMessage")
    tg.user_says(ARBITER, f"/indeling afwezig {name}")  # six play: nobody free, a forfeit
    await until(lambda: query(db, "SELECT result FROM game WHERE board = 1")[0][0] == "-+")
    bot.kill()
    await asyncio.sleep(0.3)
    tg.outage.clear()
    bot.start()
    await tg.next_to(GROUP, meaning("NIGHT_ABSENT_GROUP", round=1, absent=name), timeout=30)
    await tg.next_to(black, meaning("NIGHT_YOU_WIN", round=1), timeout=30)
    await tg.next_to(white, meaning("NIGHT_YOU_ABSENT", round=1), timeout=30)
    await tg.next_to(ARBITER.id, meaning("NIGHT_FORFEIT", board=1), timeout=30)
    await asyncio.sleep(1.0)
    assert heard(tg.to(GROUP), "NIGHT_ABSENT_GROUP", round=1, absent=name) == 1
    assert heard(tg.to(black), "NIGHT_YOU_WIN", round=1) == 1
    assert heard(tg.to(white), "NIGHT_YOU_ABSENT", round=1) == 1
    assert heard(tg.to(ARBITER.id), "NIGHT_FORFEIT", board=1) == 1
    bot.kill()


@pytest.mark.slow
async def test_killed_right_after_the_reminder_is_marked_group_and_member_hear_once(
        tg, tmp_path):
    db = tmp_path / "keizer.db"
    await make_club(db)
    handle = await open_store(db)
    try:
        now = dt.datetime.now(dt.UTC)  # the reminder is due: the deadline is an hour away
        await rounds.add_round(handle, 1, date=now.date(), deadline=now + dt.timedelta(hours=1))
        await roster.set_reminder(handle, "p2", True, actor=None)
    finally:
        await handle.close()
    tg.outage.add("sendMessage")
    bot = BotProcess(tg, db)
    bot.start()
    await until(lambda: query(db, "SELECT reminded_at FROM round WHERE number = 1")[0][0])
    bot.kill()
    await asyncio.sleep(0.3)
    tg.outage.clear()
    bot.start()
    group = await tg.next_to(GROUP, meaning("REMINDER", round=1), timeout=30)
    private = await tg.next_to(102, meaning("REMINDER_PRIVATE", round=1), timeout=30)
    assert group.buttons and private.buttons
    await asyncio.sleep(1.0)
    assert heard(tg.to(GROUP), "REMINDER") == 1
    assert heard(tg.to(102), "REMINDER_PRIVATE") == 1
    assert not tg.to(100)  # did not ask for it
    bot.kill()


@pytest.mark.slow
async def test_killed_around_the_rating_list_the_arbiter_hears_once_and_it_is_written_once(
        tg, tmp_path):
    from tests.bot.rating_lists import LIST

    db = tmp_path / "keizer.db"
    await make_club(db)
    bot = BotProcess(tg, db)
    bot.start()
    await bot.running()
    tg.outage.add("sendMessage")  # the proposal is stored; its message cannot go yet
    tg.user_sends_file(ARBITER, "KNSB.zip", LIST)
    await until(lambda: query(db, "SELECT count(*) FROM rating_proposal")[0][0] == 1)
    bot.kill()
    await asyncio.sleep(0.3)
    tg.outage.clear()
    bot.start()
    shown = await tg.next_to(ARBITER.id, meaning("RATING_HEAD"), timeout=30)
    await asyncio.sleep(1.0)
    assert heard(tg.to(ARBITER.id), "RATING_HEAD") == 1
    assert query(db, "SELECT count(*) FROM rating_proposal")[0][0] == 1  # read once
    # Confirmed, and killed before the message is edited: written once, and a second tap
    # after the restart writes nothing more.
    tg.outage.add("editMessageText")
    apply = next(data for text, data in shown.buttons
                 if text == says("RATING_BUTTON_APPLY", count=3))
    tg.press(ARBITER, shown, apply)
    await until(lambda: query(db, "SELECT done_at FROM rating_proposal")[0][0] is not None)
    bot.kill()
    tg.outage.clear()
    written = query(db, "SELECT count(*) FROM audit WHERE action = 'player.rating'")[0][0]
    assert written == 3 and query(db, "SELECT rating FROM player WHERE code = 'p0'") == [(2031,)]
    bot.start()
    await bot.running()
    tg.press(ARBITER, shown, apply)
    await tg.edited(shown, says("RATING_DECIDED"), timeout=30)
    assert query(db, "SELECT count(*) FROM audit WHERE action = 'player.rating'")[0][0] == 3
    bot.kill()


@pytest.mark.slow
async def test_killed_right_after_a_link_is_taken_over_both_accounts_hear_once(tg, tmp_path):
    db = tmp_path / "keizer.db"
    bot = await published_club(tg, db)
    newcomer = User(777, "Nieuw", "Account")
    tg.user_says(newcomer, "/ik Anna Visser")
    ask = await tg.next_to(ARBITER.id, meaning("IK_ASK_ARBITER", name="Anna Visser"),
                           timeout=30)
    tg.press(ARBITER, ask, ask.buttons[0][1])
    confirm = await tg.edited(ask, meaning("IK_CONFIRM_TAKE_OVER", name="Anna Visser"),
                              timeout=30)
    tg.outage.add("sendMessage")
    tg.press(ARBITER, confirm, confirm.buttons[0][1])
    await until(lambda: query(db, "SELECT telegram_id FROM player WHERE code = 'p0'")[0][0]
                == newcomer.id)
    bot.kill()
    await asyncio.sleep(0.3)
    tg.outage.clear()
    bot.start()
    await tg.next_to(100, says("IK_TAKEN_OVER", name="Anna Visser"), timeout=30)
    await tg.next_to(newcomer.id, says("IK_WELCOME", name="Anna Visser"), timeout=30)
    await asyncio.sleep(1.0)
    assert heard(tg.to(100), "IK_TAKEN_OVER", name="Anna Visser") == 1
    assert heard(tg.to(newcomer.id), "IK_WELCOME", name="Anna Visser") == 1
    bot.kill()


@pytest.mark.slow
@pytest.mark.parametrize("cycles", [pytest.param(2, id="quick"), pytest.param(5, id="full")])
async def test_sign_offs_survive_sigkill_under_load(tg, tmp_path, cycles):
    """Kill -9 cycles while members sign off: every message taken from Telegram is handled
    and answered (bench/crash.py runs a hundred)."""
    result = await run_cycles(tg, tmp_path / "keizer.db", cycles=cycles,
                              rng=random.Random(11))
    assert result.lost == 0 and result.unanswered == 0 and result.owed_unsent == 0, result


async def test_a_second_bot_on_the_same_database_refuses_to_start(tg, tmp_path):
    db = tmp_path / "keizer.db"
    await make_club(db, rounds_ahead=1)
    first = BotProcess(tg, db)
    first.start()
    await first.running()
    second = BotProcess(tg, db)
    second.start()
    assert await second.exited() == 1
    assert second.output.strip().splitlines()[-1] == refused(StoreProblem.IN_USE, path=db)
    assert "Traceback" not in second.output
    answer = await tg.reply_to(ARBITER, "/help")  # the first one carries on
    assert answer.text.startswith(says("START"))
    first.kill()


async def test_a_rejected_token_is_one_dutch_line_without_the_token(tg, tmp_path):
    db = tmp_path / "keizer.db"
    tg.fail_next("getMe", 401)
    bot = BotProcess(tg, db)
    bot.start()
    assert await bot.exited() == 1
    assert TOKEN not in bot.output and "Traceback" not in bot.output
    assert bot.output.strip().splitlines() == [says("START_BAD_TOKEN")]


async def test_a_corrupt_database_is_one_dutch_line(tg, tmp_path):
    db = tmp_path / "keizer.db"
    db.write_bytes(b"dit is geen database " * 500)
    bot = BotProcess(tg, db)
    bot.start()
    assert await bot.exited() == 1
    last = bot.output.strip().splitlines()[-1]
    assert last == refused(StoreProblem.CORRUPT, path=db) and "Traceback" not in bot.output


async def test_the_database_and_its_backups_are_private(tg, tmp_path):
    db = tmp_path / "data" / "keizer.db"
    db.parent.mkdir(mode=0o755)
    await make_club(db, rounds_ahead=1)
    bot = BotProcess(tg, db)
    bot.start()
    await bot.running()
    await tg.reply_to(ARBITER, "/help")
    bot.kill()
    subprocess.run([*bot.command, "backup"], cwd=ROOT, env=bot.env, check=True,
                   capture_output=True)
    for path in [db, db.with_name("keizer.db-wal"), *db.parent.joinpath("backups").iterdir()]:
        if path.exists():
            assert path.stat().st_mode & 0o777 == 0o600, path
    # The folder the bot made is private; the one the owner made is his choice (issue 33).
    assert (db.parent / "backups").stat().st_mode & 0o777 == 0o700
    assert db.parent.stat().st_mode & 0o777 == 0o755


@pytest.mark.skipif(shutil.which("uv") is None, reason="uv runs the bot as `uv run keizerbot`")
@pytest.mark.parametrize("signals", [1, 3], ids=["once", "repeated"])
async def test_sigterm_to_the_process_group_of_uv_run_stops_it(tg, tmp_path, signals):
    db = tmp_path / "keizer.db"
    await make_club(db, rounds_ahead=1)
    bot = BotProcess(tg, db, command=["uv", "run", "--frozen", "keizerbot"])
    process = bot.start()
    await bot.running(timeout=60)
    started = time.monotonic()
    for _ in range(signals):  # what a supervisor or a terminal multiplexer does
        os.killpg(process.pid, signal.SIGTERM)
        await asyncio.sleep(0.05)
    code = await bot.exited(timeout=20)
    assert time.monotonic() - started < 10, bot.output
    assert code in (0, -signal.SIGTERM, 128 + signal.SIGTERM), bot.output


@contextlib.contextmanager
def small_disk(folder, size: str = "3m"):
    """A tmpfs of `size` at `folder` (root only: CI and the project machines run as root)."""
    folder.mkdir()
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs",
                              str(folder)], capture_output=True, text=True)
    if mounted.returncode != 0:
        pytest.skip(f"a full disk is made with a small tmpfs, which needs root: "
                    f"{mounted.stderr.strip()}")
    try:
        yield folder
    finally:
        subprocess.run(["umount", "-l", str(folder)], check=False)


def fill(folder) -> None:
    with contextlib.suppress(OSError), (folder / "filler").open("wb") as out:
        while True:
            out.write(b"\0" * 65536)
            out.flush()


async def test_a_full_disk_refuses_writes_serves_reads_and_tells_the_arbiter_once(tg,
                                                                                  tmp_path):
    with small_disk(tmp_path / "disk") as disk:
        db = disk / "keizer.db"
        await make_club(db, rounds_ahead=2)
        bot = BotProcess(tg, db)
        bot.start()
        await bot.running()
        mark = len(tg.sent)
        fill(disk)
        anna, bram = User(100, "Anna"), User(101, "Bram")
        full = refused(StoreProblem.DISK_FULL)
        assert (await tg.reply_to(anna, "/afmelden 1 vakantie")).text == full
        assert (await tg.reply_to(bram, "/afmelden 1")).text == full
        stand = await tg.reply_to(bram, "/stand")
        assert stand.text == says("STAND_EMPTY")
        told = [s for s in tg.sent[mark:] if s.chat_id == ARBITER.id]
        assert len(told) == 1 and told[0].text == full
        assert bot.process is not None and bot.process.poll() is None
        (disk / "filler").unlink()
        stored = await tg.reply_to(anna, "/afmelden 1 vakantie")
        assert fits(stored.text, "SIGNED_OFF", round=1)
        bot.kill()
        assert query(db, "SELECT count(*) FROM signoff")[0][0] == 1


async def test_a_backup_on_a_full_disk_leaves_nothing_half_and_says_so_in_dutch(tg, tmp_path):
    db = tmp_path / "keizer.db"
    await make_club(db, rounds_ahead=30, players=60)
    with small_disk(tmp_path / "backups", size="64k") as target:
        done = subprocess.run([sys.executable, "-m", "bot.cli", "backup", str(target),
                               "--db", str(db)], cwd=ROOT, capture_output=True, text=True)
        assert done.returncode != 0
        assert said(Text("BACKUP_REASONS", pick=StoreProblem.DISK_FULL)) in done.stderr
        assert "Traceback" not in done.stderr
        assert list(target.iterdir()) == []


async def test_the_nightly_backup_job_on_a_full_disk_tells_the_arbiter_why(tg, tmp_path,
                                                                           caplog, processes):
    """Issue 28: the job itself, not only the command. The disk that refuses the copy also
    refuses the outbox, so the reason goes to the arbiter directly; a warning is logged, no
    error, and nothing half is left."""
    from bot.config import Config
    from bot.demo.runner import LocalBot, ManualClock
    from bot.language import texts
    from bot.telegram import jobs
    from storage.errors import StoreProblem

    with small_disk(tmp_path / "disk") as disk:
        db = disk / "keizer.db"
        await make_club(db, rounds_ahead=2)
        bot = LocalBot(tg, Config(token=TOKEN, base_url=tg.url, database=db,
                                  arbiters=(ARBITER.id,)),
                       ManualClock(dt.datetime(2026, 11, 30, 4, tzinfo=dt.UTC)), processes)
        await bot.start()
        try:
            fill(disk)
            mark = len(tg.sent)
            queue = bot.app.job_queue
            assert queue is not None
            queue.run_once(jobs.daily_backup, 0)
            told = await tg.wait_for(lambda s: s.chat_id == ARBITER.id, after=mark)
            assert told.text == texts.BACKUP_FAILED.format(
                error=texts.BACKUP_REASONS[StoreProblem.DISK_FULL])
            queue.run_once(jobs.daily_backup, 0)  # the next night tries again
            await until(lambda: len(failures(caplog)) == 2)
            assert [s.text for s in tg.sent[mark:]] == [told.text]  # heard once
        finally:
            await bot.stop()
        assert [p.name for p in (disk / "backups").iterdir()] == []
    assert {r.levelname for r in failures(caplog)} == {"WARNING"}


def failures(caplog) -> list:
    return [r for r in caplog.records if "daily backup failed" in r.getMessage()]


def children(pid: int) -> list[int]:
    """The processes whose parent is `pid` and that still run (not zombies)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError):
                stat = (entry / "stat").read_text().rsplit(")", 1)[1].split()
                if int(stat[1]) == pid and stat[0] != "Z":
                    found.append(int(entry.name))
    return found


def running(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


async def bot_after_a_stand(tg, tmp_path) -> tuple[BotProcess, set[int]]:
    """The real bot, asked `/stand` once; with the processes it started (the standings
    worker, which it starts at once to have the standings ready, and Python's resource
    tracker beside it)."""
    db = tmp_path / "keizer.db"
    await make_club(db, rounds_ahead=1)
    bot = BotProcess(tg, db)
    process = bot.start()
    await bot.running()
    assert (await tg.reply_to(User(100, "Anna"), "/stand")).text == says("STAND_EMPTY")
    return bot, set(children(process.pid))


async def test_the_standings_worker_does_not_outlive_a_killed_bot(tg, tmp_path):
    """Killed alone (SIGKILL to the bot, not its group: the out-of-memory killer's way), the
    bot cannot shut its worker down; the worker sees its parent go and ends too."""
    bot, started = await bot_after_a_stand(tg, tmp_path)
    assert started, "the standings were made in a process of their own"
    assert bot.process is not None
    os.kill(bot.process.pid, signal.SIGKILL)
    bot.finish()
    await until(lambda: not any(running(pid) for pid in started), timeout=10, every=0.05)


async def test_a_bot_stopped_after_a_stand_ends_and_so_does_its_worker(tg, tmp_path):
    """The worker holds a database connection with a thread of its own: left open, the
    worker never ended when the pool shut down, and the bot's exit waited for it."""
    bot, started = await bot_after_a_stand(tg, tmp_path)
    assert bot.process is not None
    os.kill(bot.process.pid, signal.SIGTERM)
    code = await bot.exited(timeout=20)
    assert code in (0, -signal.SIGTERM, 128 + signal.SIGTERM), bot.output
    await until(lambda: not any(running(pid) for pid in started), timeout=10, every=0.05)


async def test_a_killed_standings_worker_is_replaced(tg, tmp_path):
    """The worker killed (out of memory, by hand): the next question that needs it starts
    another, and the member gets his answer; nothing is logged as an error."""
    bot, started = await bot_after_a_stand(tg, tmp_path)
    workers = {pid for pid in started
               if b"spawn_main" in Path(f"/proc/{pid}/cmdline").read_bytes()}
    assert len(workers) == 1
    os.kill(workers.pop(), signal.SIGKILL)
    # A new member moves the standings: the texts kept are no longer the standings.
    await tg.reply_to(ARBITER, "/speler nieuw Piet Puk 1500", contains="Piet Puk")
    assert (await tg.reply_to(User(101, "Bram"), "/stand")).text == says("STAND_EMPTY")
    bot.kill()
    assert "standings worker died" in bot.output
    assert " ERROR " not in bot.output


@pytest.mark.slow
async def test_killed_after_a_webhook_update_was_handled_its_answer_comes_once(tg, tmp_path):
    """Issue 27, the real process on a webhook: an update Telegram brought is kept and
    handled; killed before its answer went out, the bot answers it once after a restart."""
    import socket

    db = tmp_path / "keizer.db"
    await make_club(db, rounds_ahead=1)
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    bot = BotProcess(tg, db)
    bot.env.update(KEIZER_WEBHOOK="1", KEIZER_WEB_PORT=str(port),
                   KEIZER_PUBLIC_URL=f"http://127.0.0.1:{port}")
    bot.start()
    await until(lambda: tg.webhook is not None)
    tg.outage.add("sendMessage")  # the answer cannot go out yet
    anna = User(100, "Anna", "Visser")
    tg.user_says(anna, "/afmelden")
    await until(lambda: query(db, "SELECT count(*) FROM signoff")[0][0] == 1)
    bot.kill()
    await asyncio.sleep(0.3)  # what the dead process had on the wire meets the outage too
    assert tg.delivered == [1] and "getUpdates" not in {m for m, _ in tg.calls}
    tg.outage.clear()
    bot.start()
    await tg.next_to(anna.id, meaning("SIGNED_OFF", round=1), timeout=30)
    await asyncio.sleep(1.0)
    assert heard(tg.to(anna.id), "SIGNED_OFF", round=1) == 1
    assert query(db, "SELECT count(*) FROM signoff")[0][0] == 1
    bot.kill()


@pytest.mark.slow
async def test_killed_right_after_a_tap_in_the_mini_app_the_member_hears_once(tg, tmp_path):
    """Issue 36: a member signs off with a tap in his season (the club's pages beside the
    real process). Killed after the sign-off is stored, before its message to his chat went
    out: after the restart he hears it once."""
    import aiohttp

    from tests.bot.process import free_port
    from tests.bot.web import init_data

    db = tmp_path / "keizer.db"
    await make_club(db, rounds_ahead=2)
    port = free_port()
    bot = BotProcess(tg, db)
    bot.env.update(KEIZER_WEB_PORT=str(port))
    tg.outage.add("sendMessage")  # the chat's copy cannot go yet
    bot.start()
    await bot.running()
    member = 100
    async with aiohttp.ClientSession() as session, session.post(
            f"http://127.0.0.1:{port}/mij-seizoen", json={"round": 1, "play": False},
            headers={"X-Telegram-Init-Data": init_data(member, at=dt.datetime.now(dt.UTC))},
    ) as response:
        assert response.status == 200
        assert fits(await response.text(), "SIGNED_OFF", round=1)
    assert query(db, "SELECT count(*) FROM signoff")[0][0] == 1
    bot.kill()
    await asyncio.sleep(0.3)
    assert not heard(tg.to(member), "SIGNED_OFF", round=1)
    tg.outage.clear()
    bot.start()
    await tg.next_to(member, meaning("SIGNED_OFF", round=1), timeout=30)
    await bot.running()
    await asyncio.sleep(1.0)
    assert heard(tg.to(member), "SIGNED_OFF", round=1) == 1
    bot.kill()


@pytest.mark.slow
async def test_killed_right_after_a_lichess_account_is_linked_the_member_hears_once(
        tg, tmp_path):
    """Issue 37: lichess sends the member back, the real process keeps his account; killed
    before its word of it went out, after the restart he hears it once."""
    import aiohttp

    from bot.demo.fakelichess import FakeLichess
    from tests.bot.linking import KEY, link_of
    from tests.bot.process import free_port

    lichess = FakeLichess()
    await lichess.start()
    db = tmp_path / "keizer.db"
    await make_club(db, rounds_ahead=1)
    port = free_port()
    bot = BotProcess(tg, db)
    bot.env.update(KEIZER_WEB_PORT=str(port), KEIZER_PUBLIC_URL=f"http://127.0.0.1:{port}",
                   KEIZER_SECRET_KEY=KEY, KEIZER_LICHESS_URL=lichess.url)
    bot.start()
    await bot.running()
    member = User(100, "Anna")
    mark = len(tg.sent)
    tg.user_says(member, "/lichess")
    link = link_of(await tg.next_to(member.id, meaning("LICHESS_SIGN_IN"), after=mark))
    tg.outage.add("sendMessage")  # the word of it cannot go yet
    async with aiohttp.ClientSession() as session, session.get(link) as page:
        assert page.status == 200
    assert query(db, "SELECT username FROM lichess") == [("Anna_Schaakt",)]
    bot.kill()
    await asyncio.sleep(0.3)
    assert not heard(tg.to(member.id), "LICHESS_LINKED", name="Anna_Schaakt")
    tg.outage.clear()
    bot.start()
    await tg.next_to(member.id, meaning("LICHESS_LINKED", name="Anna_Schaakt"), timeout=30)
    await bot.running()
    await asyncio.sleep(1.0)
    assert heard(tg.to(member.id), "LICHESS_LINKED", name="Anna_Schaakt") == 1
    bot.kill()
    await lichess.stop()


@pytest.mark.slow
async def test_killed_once_an_online_rounds_games_are_made_each_player_gets_his_once(
        tg, tmp_path):
    """Issue 37: the real process publishes a round played online and makes its games at
    lichess; killed before any player's game link went out, after the restart each player
    gets his once, and lichess has each game once."""
    from bot.demo.fakelichess import FakeLichess
    from storage import lichess as accounts
    from storage.seal import Seal
    from tests.bot.linking import KEY
    from tests.bot.process import free_port

    lichess = FakeLichess()
    await lichess.start()
    db = tmp_path / "keizer.db"
    await make_club(db, deadline_passed=True, online=True)
    store = await open_store(db)
    try:
        for user_id, name, organiser in [(ARBITER.id, "Club", True),
                                         *((100 + k, f"Speler{k}", False) for k in range(6))]:
            token = lichess.token_of(name, "challenge:bulk" if organiser else "challenge:write")
            await accounts.link(store, f"s{user_id}", accounts.Login(user_id, "v", organiser),
                                name, Seal(KEY).close(token), now=dt.datetime.now(dt.UTC))
    finally:
        await store.close()
    port = free_port()
    bot = BotProcess(tg, db)
    bot.env.update(KEIZER_WEB_PORT=str(port), KEIZER_PUBLIC_URL=f"http://127.0.0.1:{port}",
                   KEIZER_SECRET_KEY=KEY, KEIZER_LICHESS_URL=lichess.url)
    bot.start()
    await tg.next_to(ARBITER.id, drafted(1), timeout=30)
    await bot.running()
    tg.outage.add("sendMessage")  # nothing the publication owes can go yet
    tg.user_says(ARBITER, "/indeling bevestig")
    for _ in range(1500):
        if len(query(db, "SELECT game_id FROM lichess_game WHERE game_id IS NOT NULL")) == 3:
            break
        await asyncio.sleep(0.02)
    bot.kill()
    assert len(lichess.bulks) == 1 and len(lichess.bulks[0].games) == 3
    tg.outage.clear()
    bot.start()
    for member in range(100, 106):
        await tg.next_to(member, meaning("LICHESS_GAME", round=1), timeout=30)
    await bot.running()
    await asyncio.sleep(1.0)
    assert [heard(tg.to(member), "LICHESS_GAME", round=1) for member in range(100, 106)] \
        == [1] * 6
    assert len(lichess.bulks) == 1
    bot.kill()
    await lichess.stop()
