"""Issue 27: the bot itself on a PostgreSQL store (`KEIZER_DB=postgresql://...`), over HTTP
against the local Bot API fake: a round from sign-off to standings, the standings worker
reading PostgreSQL, and a second bot on the same database refused."""

from __future__ import annotations

import contextlib

import pytest

from bot.worker import Processes
from storage.errors import StoreError, StoreProblem
from storage.seal import Seal
from tests.bot.conftest import ARBITER, GROUP, club_bot, fits, meaning, says
from tests.bot.linking import KEY
from tests.bot.steps import pass_deadline, play_round, publish, set_up_club
from tests.bot.team_season import play, season_for


@pytest.fixture
def own_processes():
    """A worker of its own: the shared one would keep its PostgreSQL readers after the
    server of these tests has stopped, and retry them for the rest of the run."""
    with contextlib.closing(Processes()) as processes:
        yield processes


async def test_a_round_on_postgresql_from_sign_off_to_standings(tg, postgres,
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


async def test_a_round_at_the_venue_on_postgresql(tg, postgres, members,
                                                  own_processes):
    """Issue 36 on PostgreSQL: the room's rows (migration 19) are the club's; four tap in,
    the arbiter pairs them, a late comer after publication gets the bye."""
    from tests.bot.steps import round_absences
    from tests.bot.venue import four_in_the_room_paired, tapped

    bot = await club_bot(tg, postgres, own_processes)
    try:
        opened = await four_in_the_room_paired(bot, members)
        assert await round_absences(bot, 1) == {"Eva Bos": "no_notice",
                                                "Femke Kok": "no_notice"}
        await publish(bot, 1)
        mark = len(bot.tg.sent)
        assert await tapped(bot, members[4], opened) == says("HERE_LATE", round=1)
        await bot.tg.next_to(ARBITER.id, meaning("CHECK_IN_LATE", name="Eva Bos", round=1),
                             after=mark)
        late = await bot.ask(ARBITER, "/indeling erbij Eva Bos")
        assert late.text == says("NIGHT_BYE_LATE", player="Eva Bos")
    finally:
        await bot.stop()


async def test_a_lichess_account_linked_on_postgresql_is_its_clubs_alone(
        tg, postgres, members, own_processes):
    """Issue 37 on PostgreSQL: the sign-in under way and the account (migration 20) are the
    club's rows; another club of the database sees neither."""
    from bot.demo.fakelichess import FakeLichess
    from storage.postgres import add_club
    from storage.store import open_store
    from tests.bot.linking import browse, link_of
    from tests.bot.web import PUBLIC_URL

    lichess = FakeLichess()
    await lichess.start()
    bot = await club_bot(tg, postgres, own_processes, web_port=0, public_url=PUBLIC_URL,
                         secret_key=KEY, lichess_url=lichess.url)
    try:
        await set_up_club(bot, members, rounds=1)
        link = link_of(await bot.ask(members[0], "/lichess"))
        assert (await browse(bot, link))[0] == 200
        pion = await add_club(postgres, "De Pion", "2:b", Seal(KEY))
        other = await open_store(postgres, club=pion.id)
        try:
            async with other.conn.execute("SELECT count(*) FROM lichess") as cur:
                assert (await cur.fetchone())[0] == 0
        finally:
            await other.close()
        assert fits((await bot.ask(members[0], "/lichess")).text, "LICHESS_NOW",
                    name="Anna_Schaakt")
    finally:
        await bot.stop()
        await lichess.stop()


async def test_a_round_played_on_lichess_on_postgresql(tg, postgres, members,
                                                       own_processes):
    """Issue 37 on PostgreSQL: an online round's games (migration 21) made, kept as the
    club's rows, and a result read back into the standings."""
    from bot.demo.fakelichess import FakeLichess
    from tests.bot.online_night import START, all_made, link, until
    from tests.bot.web import PUBLIC_URL

    lichess = FakeLichess()
    await lichess.start()
    bot = await club_bot(tg, postgres, own_processes, web_port=0, public_url=PUBLIC_URL,
                         secret_key=KEY, lichess_url=lichess.url)
    lichess.now = lambda: bot.clock.now.timestamp()
    try:
        await set_up_club(bot, members, rounds=0)
        assert (await bot.ask(ARBITER, "/instellingen online bevestig auto")).text \
            == says("INSTELLINGEN_DONE")
        assert fits((await bot.ask(ARBITER, "/ronde nieuw 3-12-2026 online")).text,
                    "RONDE_ONLINE", clock="90+15")
        await pass_deadline(bot, 1)
        await link(bot, lichess, ARBITER.id, "Club", organiser=True)
        for user in members:
            await link(bot, lichess, user.id, user.first_name)
        await publish(bot, 1)
        made = await until(lambda: all_made(bot))
        bot.clock.now = START
        for board in made:
            lichess.end(board.game_id, "resign", "black")
        await bot.tg.next_to(GROUP, meaning("ROUND_COMPLETE", round=1))
    finally:
        await bot.stop()
        await lichess.stop()



async def test_a_season_with_two_teams_on_postgresql(tg, postgres, members, own_processes):
    """Issue 49 on a PostgreSQL store: the teams, their matches, answers, lineups and board
    results are the club's rows there as on SQLite, and price the same."""
    bot = await club_bot(tg, postgres, own_processes, season=season_for("drie-groepen"))
    try:
        await play(bot, members)
    finally:
        await bot.stop()
