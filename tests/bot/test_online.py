"""Issue 37: a round played online. At publication the bot makes the round's games on lichess
in one bulk pairing (the club's clock, at the round's start), sends each player his game, names
to the arbiter whom lichess cannot pair, and reads the results back as the games end."""

from __future__ import annotations

import asyncio
import datetime as dt

import pytest

from bot.demo.fakelichess import FakeLichess
from bot.language import texts
from bot.lichess.seal import Seal
from storage import lichess as accounts
from storage.errors import InputStoreError, StoreProblem
from tests.bot.conftest import ARBITER, GROUP, club_bot, fits, heard, meaning, says
from tests.bot.test_lichess import KEY
from tests.bot.test_season import pass_deadline, publish, set_up_club
from tests.bot.test_web import PUBLIC_URL

START = dt.datetime(2026, 12, 3, 19, 0, tzinfo=dt.UTC)
"""Round 1's start: Thursday 3 December, 20:00 in Amsterdam."""


@pytest.fixture
async def lichess():
    fake = FakeLichess()
    await fake.start()
    yield fake
    await fake.stop()


@pytest.fixture
async def online_bot(tg, tmp_path, processes, lichess, members):
    running = await club_bot(tg, tmp_path / "keizer.db", processes, web_port=0,
                             public_url=PUBLIC_URL, secret_key=KEY, lichess_url=lichess.url)
    lichess.now = lambda: running.clock.now.timestamp()
    await set_up_club(running, members, rounds=0)
    yield running
    await running.stop()


async def link(bot, lichess: FakeLichess, user_id: int, username: str, *,
               organiser: bool = False) -> str:
    """An account linked as `/lichess` would (that way has tests of its own); its token."""
    token = lichess.token_of(username, "challenge:bulk" if organiser else "challenge:write")
    login = accounts.Login(user_id, "verifier", organiser)
    await accounts.link(bot.app.bot_data.db, f"state-{username}", login, username,
                        Seal(KEY).close(token), now=bot.clock.now)
    return token


async def boards(bot) -> list[accounts.OnlineBoard]:
    return await accounts.online_boards(bot.app.bot_data.db, 1)


async def until(check, timeout: float = 10.0):
    """The tick's work, waited for: `check()` once it holds."""
    for _ in range(int(timeout / 0.02)):
        found = await check()
        if found:
            return found
        await asyncio.sleep(0.02)
    raise AssertionError("the tick did not get there")


async def test_a_round_played_on_lichess_from_publication_to_standings(
        online_bot, lichess, members, caplog):
    bot = online_bot
    names = {f"{u.first_name} {u.last_name}": u for u in members}
    assert (await bot.ask(ARBITER, "/instellingen online tempo 60+10")).text \
        == says("INSTELLINGEN_DONE")
    planned = await bot.ask(ARBITER, "/ronde nieuw 3-12-2026 online")
    assert fits(planned.text, "RONDE_ADDED", round=1)
    assert fits(planned.text, "RONDE_ONLINE", clock="60+10")
    assert fits(planned.text, "RONDE_ONLINE_NO_CLUB")
    assert fits((await bot.ask(ARBITER, "/ronde")).text, "ONLINE_MARK")
    await pass_deadline(bot, 1)
    # Without the club's account no game can be made: refused, and nothing published.
    refused = await bot.ask(ARBITER, "/indeling bevestig")
    assert refused.text == texts.store_problem(InputStoreError(StoreProblem.NO_ORGANISER,
                                                               round=1))
    tokens = [await link(bot, lichess, ARBITER.id, "SchaakclubOnline", organiser=True)]
    femke = members[-1]  # has not linked an account
    for user in members[:-1]:
        tokens.append(await link(bot, lichess, user.id, user.first_name + "_lichess"))

    mark = len(bot.tg.sent)
    await publish(bot, 1)
    [bulk] = await until(lambda: _made(lichess, 1))
    assert bulk.clock == (3600, 10) and not bulk.rated
    assert bulk.pair_at == int(START.timestamp() * 1000)  # made at the round's start
    assert len(bulk.games) == 2
    left_out = next(b for b in await boards(bot) if femke.id in _ids(b, members))
    await bot.tg.next_to(ARBITER.id, meaning("LICHESS_LEFT_OUT", round=1), after=mark)
    await bot.tg.next_to(femke.id, meaning("LICHESS_YOU_LEFT_OUT", round=1), after=mark)
    for game in bulk.games:
        for username in (game.white, game.black):
            user = names[next(n for n in names if n.startswith(username.split("_")[0]))]
            sent = await bot.tg.next_to(user.id, meaning("LICHESS_GAME", round=1), after=mark)
            assert f"{lichess.url}/{game.id}" in sent.text
    # Femke links her account: her game is made at once, and she and her opponent get it.
    mark = len(bot.tg.sent)
    tokens.append(await link(bot, lichess, femke.id, "Femke_lichess"))
    [_, late] = await until(lambda: _made(lichess, 2))
    assert len(late.games) == 1 and late.pair_at == bulk.pair_at
    await bot.tg.next_to(femke.id, meaning("LICHESS_GAME", round=1), after=mark)
    assert heard(bot.tg.sent[mark:], "LICHESS_LEFT_OUT", round=1) == 0  # told once
    # A game link lost is found again with /mijn.
    anna = members[0]
    [anna_game] = [b for b in await boards(bot) if anna.id in _ids(b, members)]
    mine = await bot.ask(anna, "/mijn")
    assert f"{lichess.url}/{anna_game.game_id}" in mine.text

    # The evening: lichess makes the games; the arbiter sees them live in /indeling.
    bot.clock.now = START + dt.timedelta(minutes=2)
    games = {b.board: b for b in await boards(bot)}
    assert None not in {b.game_id for b in games.values()}
    lichess.end(games[1].game_id, "started")
    await until(lambda: _status(bot, 1, "started"))
    shown = (await bot.ask(ARBITER, "/indeling")).text
    assert says("LICHESS_LIVE_BOARD", board=1, state=texts.LICHESS_STATES["playing"]) in shown
    assert says("LICHESS_LIVE_BOARD", board=2, state=texts.LICHESS_STATES["waiting"]) in shown

    # Mate: the result is reported, for a player of the game to confirm.
    mark = len(bot.tg.sent)
    lichess.end(games[1].game_id, "mate", "white")
    white = _user(games[1].white, members)
    asked = await bot.tg.next_to(white.id, meaning("LICHESS_RESULT_ASK", round=1, board=1),
                                 after=mark)
    stored = await _game(bot, 1)
    assert stored == ("1-0", False)
    bot.tg.press(white, asked, asked.buttons[0][1])
    await until(lambda: _confirmed(bot, 1))
    # The arbiter lets lichess's results count at once: a draw is final when it ends.
    assert (await bot.ask(ARBITER, "/instellingen online bevestig auto")).text \
        == says("INSTELLINGEN_DONE")
    mark = len(bot.tg.sent)
    lichess.end(games[2].game_id, "draw")
    await until(lambda: _confirmed(bot, 2))
    assert await _game(bot, 2) == ("1/2-1/2", True)
    await bot.tg.next_to(_user(games[2].black, members).id,
                         meaning("LICHESS_RESULT", round=1, board=2), after=mark)
    # Never begun: the arbiter decides, and the round is complete.
    lichess.end(games[3].game_id, "noStart")
    await bot.tg.next_to(ARBITER.id, meaning("LICHESS_NOT_PLAYED", round=1, board=3,
                                             how=texts.LICHESS_HOW["noStart"]), after=mark)
    assert await _game(bot, 3) == (None, False)
    mark = len(bot.tg.sent)
    await bot.ask(ARBITER, "/uitslag 3 0-1 ronde 1")
    await bot.tg.next_to(GROUP, meaning("ROUND_COMPLETE", round=1), after=mark)
    assert left_out.board in games
    # No token in any message or log line.
    assert not [t for t in tokens if any(t in m.text for m in bot.tg.sent) or t in caplog.text]


async def _made(lichess: FakeLichess, count: int) -> list | None:
    return lichess.bulks if len(lichess.bulks) == count else None


def _ids(board: accounts.OnlineBoard, members) -> set[int]:
    return {_user(board.white, members).id, _user(board.black, members).id}


def _user(code: str, members):
    return members[int(code.removeprefix("p"))]


async def _status(bot, board: int, status: str) -> bool:
    return any(b.board == board and b.status == status for b in await boards(bot))


async def _game(bot, board: int) -> tuple[str | None, bool]:
    async with bot.app.bot_data.db.conn.execute(
            "SELECT g.result, g.confirmed_at IS NOT NULL FROM game g JOIN round r "
            "ON r.id = g.round_id WHERE r.number = 1 AND g.board = ?", (board,)) as cur:
        row = await cur.fetchone()
    return row[0], bool(row[1])


async def _confirmed(bot, board: int) -> bool:
    return (await _game(bot, board))[1]
