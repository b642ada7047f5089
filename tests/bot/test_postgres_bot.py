"""Issue 27: the bot itself on a PostgreSQL store (`KEIZER_DB=postgresql://...`), over HTTP
against the local Bot API fake: a round from sign-off to standings, the standings worker
reading PostgreSQL, and a second bot on the same database refused."""

from __future__ import annotations

import contextlib

import pytest

from bot.worker import Processes
from storage.errors import StoreError, StoreProblem
from tests.bot.conftest import ARBITER, GROUP, club_bot, fits, meaning, says
from tests.bot.test_season import pass_deadline, play_round, publish, set_up_club
from tests.postgres import postgres, postgres_server  # noqa: F401 (the fixtures)


@pytest.fixture
def own_processes():
    """A worker of its own: the shared one would keep its PostgreSQL readers after the
    server of these tests has stopped, and retry them for the rest of the run."""
    with contextlib.closing(Processes()) as processes:
        yield processes


async def test_a_round_on_postgresql_from_sign_off_to_standings(tg, postgres,  # noqa: F811
                                                                members, own_processes):
    bot = await club_bot(tg, postgres, own_processes)
    try:
        await set_up_club(bot, members, rounds=2)
        off = await bot.ask(members[5], "/afmelden")
        assert fits(off.text, "SIGNED_OFF", who="Femke Kok", round=1)
        await pass_deadline(bot, 1)
        post = await publish(bot, 1)
        await play_round(bot, members, 1, post)
        standings = await bot.tg.next_to(GROUP, meaning("ROUND_COMPLETE", round=1))
        assert "Anna Visser" in standings.text
        mine = await bot.ask(members[0], "/stand mij")  # made by the worker, from PostgreSQL
        assert fits(mine.text, "BREAKDOWN_HEAD", name="Anna Visser", round=1)
        assert says("BREAKDOWN_TOTAL") in mine.text
        assert (await bot.ask(ARBITER, "/stand")).text.count("Femke Kok") == 1
        # One bot per database: a second one is refused while this one runs.
        from storage.store import open_store

        with pytest.raises(StoreError) as refused:
            await open_store(postgres, exclusive=True)
        assert refused.value.problem is StoreProblem.IN_USE
    finally:
        await bot.stop()
