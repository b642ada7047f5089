"""The store's seams (issue 11): one bot per file, transactions that join, updates marked
done with their effect, the outbox's order, and one round lifecycle."""

from __future__ import annotations

import ast
import asyncio
import datetime as dt

import pytest

from core.rounds import TRANSITIONS, RoundState
from core.season import season_from_data
from storage import attendance, inbox, outbox, rounds
from storage.errors import StoreError, StoreProblem
from storage.store import open_store, snapshot
from tests.integration.conftest import NOON, ROOT, dump
from tests.source import nodes


async def test_one_bot_per_database_file(tmp_path):
    first = await open_store(tmp_path / "keizer.db", exclusive=True)
    with pytest.raises(StoreError) as refused:
        await open_store(tmp_path / "keizer.db", exclusive=True)
    assert refused.value.problem is StoreProblem.IN_USE
    await first.close()
    again = await open_store(tmp_path / "keizer.db", exclusive=True)  # released on close
    await again.close()


async def test_a_nested_transaction_commits_or_rolls_back_with_the_outer(club):
    before = await dump(club)
    with pytest.raises(ZeroDivisionError):
        async with club.transaction():
            await attendance.sign_off(club, 21, "rm0", sent_at=NOON, actor=1)
            await outbox.owe(club, [outbox.Outgoing(1, "afgemeld")])
            1 / 0  # noqa: B018
    assert await dump(club) == before


async def test_the_outbox_listener_hears_the_commits_that_owed_and_only_those(club):
    """The sender wakes up when a message is owed; an update stored, a sign-off, or a
    message owed and rolled back leave it asleep. Every-commit listeners hear each."""
    owed: list[str] = []
    every: list[str] = []
    club.commits.on(lambda: owed.append("woken"), topic=outbox.TOPIC)
    club.commits.on(lambda: every.append("commit"))
    await inbox.store(club, [{"update_id": 7, "message": {}}])
    await attendance.sign_off(club, 21, "rm0", sent_at=NOON, actor=1)
    with pytest.raises(ZeroDivisionError):
        async with club.transaction():
            await outbox.owe(club, [outbox.Outgoing(1, "never")])
            1 / 0  # noqa: B018
    assert owed == [] and len(every) == 2
    async with club.transaction():
        await attendance.cancel_sign_off(club, 21, "rm0", sent_at=NOON, actor=1)
        await outbox.owe(club, [outbox.Outgoing(1, "afmelding ingetrokken")])
    assert owed == ["woken"] and len(every) == 3


async def test_the_commit_of_an_effect_marks_its_update_done(club):
    await inbox.store(club, [{"update_id": 7, "message": {}}, {"update_id": 8, "message": {}}])
    await inbox.store(club, [{"update_id": 7, "message": {}}])  # delivered again: kept once
    assert [u.update_id for u in await inbox.pending(club)] == [7, 8]
    with inbox.handling(club, 7) as refused, pytest.raises(StoreError):
        async with club.transaction():
            await outbox.owe(club, [outbox.Outgoing(1, "x")])
            await attendance.sign_off(club, 21, "nobody", sent_at=NOON, actor=1)
    assert [u.update_id for u in await inbox.pending(club)] == [7, 8]  # rolled back: not done
    assert not refused.marked  # the runtime marks it done after it
    with inbox.handling(club, 7) as stored:
        await attendance.sign_off(club, 21, "rm0", sent_at=NOON, actor=1)
    assert [u.update_id for u in await inbox.pending(club)] == [8]
    assert stored.marked  # with its effect: nothing left to mark
    assert await inbox.last_id(club) == 8


async def test_a_chat_waiting_for_a_retry_holds_back_its_later_messages(club):
    await outbox.owe(club, [outbox.Outgoing(1, "eerste"), outbox.Outgoing(1, "tweede"),
                            outbox.Outgoing(2, "ander")])
    now = dt.datetime.now(dt.UTC)
    first, *_ = await outbox.due(club, now, chat=1)
    await outbox.retry(club, first, now + dt.timedelta(minutes=1), "502")
    assert await outbox.due_chats(club, now) == [2]
    assert await outbox.due(club, now, chat=1) == []
    assert [p.message.text for p in await outbox.due(club, now, chat=2)] == ["ander"]
    # Chat 1 is next due when its first message is, not when the one held back behind it
    # was written (the sender would look again and again, for nothing).
    assert await outbox.next_due(club, besides={2}) == now + dt.timedelta(minutes=1)
    later = now + dt.timedelta(minutes=2)
    assert await outbox.due_chats(club, later) == [1, 2]
    assert [p.message.text for p in await outbox.due(club, later, chat=1)] == ["eerste",
                                                                               "tweede"]


async def test_a_round_moves_only_as_the_table_says_and_once(club):
    assert await rounds.advance(club, 21, RoundState.PLANNED, RoundState.LOCKED, actor=1)
    assert not await rounds.advance(club, 21, RoundState.PLANNED, RoundState.LOCKED, actor=1)
    assert not await rounds.advance(club, 21, RoundState.LOCKED, RoundState.PUBLISHED, actor=1)
    assert await rounds.state(club, 21) is RoundState.LOCKED
    assert set(TRANSITIONS) == set(RoundState)


def test_a_round_state_is_spelled_only_by_round_state():
    """No module but the lifecycle (and the schema) writes a state as a string."""
    states = {s.value for s in RoundState}
    allowed = {ROOT / "core" / "rounds.py", ROOT / "storage" / "schema.py"}
    found = []
    for folder in ("core", "storage", "bot"):
        for path in (ROOT / folder).rglob("*.py"):
            if path in allowed:
                continue
            for node in nodes(path):
                if isinstance(node, ast.Constant) and node.value in states:
                    found.append(f"{path.relative_to(ROOT)}:{node.lineno} {node.value!r}")
    assert not found


async def test_the_check_of_a_write_serves_the_reads_after_it_and_is_the_truth(club):
    from storage.seasons import load_season, season_data

    async with club.transaction():
        await attendance.sign_off(club, 21, "rm0", sent_at=NOON, actor=1)
        await outbox.owe(club, [outbox.Outgoing(1, "afgemeld")])  # not part of the season
        inside = await load_season(club)
    after = await load_season(club)
    fresh = season_from_data(await season_data(club.reader))
    assert inside is after  # one load and check for the whole message
    assert after == fresh and "rm0" in {a.player for a in fresh.rounds[20].absent}


async def test_a_message_marked_sent_is_not_due_again_whatever_else_reads_meanwhile(club):
    """A read still under way on the shared reader (a snapshot: the standings worker's,
    the pages') keeps that connection on an old state; the sender must not see its own sent
    message as due there (it sent a reply
    twice, once in a CI run)."""
    await outbox.owe(club, [outbox.Outgoing(5, "een"), outbox.Outgoing(5, "twee")])
    now = dt.datetime.now(dt.UTC) + dt.timedelta(seconds=1)
    first, second = await outbox.due(club, now, chat=5)
    async with snapshot(club.reader) as busy:  # a read still under way on the reader
        await busy.execute("SELECT * FROM player")
        await outbox.sent(club, first, 1)
        assert [p.id for p in await outbox.due(club, now, chat=5)] == [second.id]


async def test_an_update_handled_is_not_pending_again_whatever_else_reads_meanwhile(club):
    await inbox.store(club, [{"update_id": 7}, {"update_id": 8}])
    async with snapshot(club.reader) as busy:  # a read still under way on the reader
        await busy.execute("SELECT * FROM player")
        await inbox.mark_done(club, 7)
        assert [u.update_id for u in await inbox.pending(club)] == [8]


async def test_the_club_data_version_moves_with_the_clubs_data_only(club):
    """Issue 22: the caches of the season and the pages are kept on this version, so the
    transport's rows (every message in and out) must leave it alone."""
    from storage.seasons import load_season

    season = await load_season(club)
    version = (await club.versions()).data
    await inbox.store(club, [{"update_id": 41, "message": {}}])
    await outbox.owe(club, [outbox.Outgoing(1, "hallo")])
    (pending,) = await outbox.due(club, dt.datetime.now(dt.UTC), chat=1)
    await outbox.sent(club, pending, 77)
    await inbox.mark_done(club, 41)
    await outbox.move_chat(club, 1, 2)
    assert (await club.versions()).data == version
    assert await load_season(club) is season  # the memo still serves
    await attendance.sign_off(club, 21, "rm0", sent_at=NOON, actor=1)
    assert (await club.versions()).data > version
    assert await load_season(club) is not season


async def test_a_task_started_inside_a_transaction_waits_for_it(club):
    """A transaction belongs to the task that opened it: what that task opens inside joins
    it, but a task it starts waits for the lock like any other (it never writes on the
    open transaction's connection behind its back)."""
    order = []

    async def child() -> None:
        async with club.transaction() as conn:
            order.append("child")
            await conn.execute("UPDATE club SET round_start = '19:30'")

    async with club.transaction() as conn:
        started = asyncio.create_task(child())
        await asyncio.sleep(0.05)
        async with club.transaction() as joined:
            assert joined is conn
        order.append("parent")
    await started
    assert order == ["parent", "child"]
