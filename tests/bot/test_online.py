"""Issue 37: a round played online. At publication the bot makes the round's games on lichess
in one bulk pairing (the club's clock, at the round's start), sends each player his game, names
to the arbiter whom lichess cannot pair, and reads the results back as the games end."""

from __future__ import annotations

import asyncio
import datetime as dt

import pytest

from bot.demo.fakelichess import FakeLichess
from bot.language import texts
from bot.language.i18n import words
from bot.language.notice import Text
from bot.lichess.api import Lichess
from core.online import DEFAULT_CLOCK
from storage import lichess as accounts
from storage.errors import InputStoreError, StoreProblem
from tests.bot.conftest import (
    ARBITER,
    GROUP,
    club_bot,
    fits,
    heard,
    meaning,
    pairing_title,
    says,
)
from tests.bot.conftest import boards as pairs_of
from tests.bot.linking import KEY
from tests.bot.online_night import START, all_made, boards, link, until
from tests.bot.steps import pass_deadline, publish, set_up_club
from tests.bot.web import PUBLIC_URL


@pytest.fixture
async def online_bot(tg, tmp_path, processes, lichess, members):
    running = await club_bot(tg, tmp_path / "keizer.db", processes, web_port=0,
                             public_url=PUBLIC_URL, secret_key=KEY, lichess_url=lichess.url)
    lichess.now = lambda: running.clock.now.timestamp()
    await set_up_club(running, members, rounds=0)
    yield running
    await running.stop()


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
    assert refused.text == texts.store_problem(words("nl"), InputStoreError(
        StoreProblem.NO_ORGANISER, round=1))
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


def _name(code: str, members) -> str:
    user = _user(code, members)
    return f"{user.first_name} {user.last_name}"


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


async def _result(bot, board: int) -> str | None:
    return (await _game(bot, board))[0]


async def _confirmed(bot, board: int) -> bool:
    return (await _game(bot, board))[1]


async def online_round_drafted(bot, lichess, members, *, linked: int,
                               language: str = "nl") -> list[str]:
    """Round 1 online, drafted; the club's account and the first `linked` members' linked;
    their tokens."""
    planned = await bot.ask(ARBITER, "/ronde nieuw 3-12-2026 online")
    assert fits(planned.text, "RONDE_ONLINE", language)
    mark = len(bot.tg.sent)
    bot.clock.now = START - dt.timedelta(hours=1)  # past the deadline: drafted
    await bot.tg.next_to(ARBITER.id, meaning("DRAFT_TO_ARBITER", language, round=1),
                         after=mark)
    tokens = [await link(bot, lichess, ARBITER.id, "SchaakclubOnline", organiser=True)]
    for user in members[:linked]:
        tokens.append(await link(bot, lichess, user.id, user.first_name + "_lichess"))
    return tokens


async def test_lichess_busy_or_down_the_games_are_made_when_it_is_back(online_bot, lichess,
                                                                       members):
    """A 429 at publication: lichess gets its minute's rest, then a 502, and the games are
    made at the next try, none twice; a lichess still down after the start is the
    arbiter's to hear, once."""
    bot = online_bot
    await online_round_drafted(bot, lichess, members, linked=6)
    lichess.failing = [429]
    mark = len(bot.tg.sent)
    await publish(bot, 1)
    await bot.ticks(5)  # lichess asked for a minute's rest, and gets it
    assert lichess.calls == ["POST /api/token/test"] and lichess.bulks == []
    lichess.failing = [502]
    bot.clock.now += dt.timedelta(seconds=61)
    [bulk] = await until(lambda: _made(lichess, 1))
    assert len(bulk.games) == 3
    for user in members:
        await bot.tg.next_to(user.id, meaning("LICHESS_GAME", round=1), after=mark)
    assert heard(bot.tg.sent[mark:], "LICHESS_GAME") == 6  # each his own, once
    assert heard(bot.tg.sent[mark:], "LICHESS_DOWN") == 0  # before the start: nobody bothered
    # Down during the evening: the arbiter hears it once; the results come in when it is back.
    bot.clock.now = START + dt.timedelta(minutes=20)
    lichess.failing = [502] * 10_000
    await bot.tg.next_to(ARBITER.id, meaning("LICHESS_DOWN", round=1), after=mark)
    lichess.failing = []
    game = (await boards(bot))[0]
    lichess.end(game.game_id, "resign", "black")
    await until(lambda: _result(bot, game.board))
    assert await _game(bot, game.board) == ("0-1", False)
    assert heard(bot.tg.sent[mark:], "LICHESS_DOWN") == 1


@pytest.mark.parametrize("language", ["nl", "en"])
async def test_a_closed_account_is_left_out_and_the_others_play(online_bot, lichess, members,
                                                                 language):
    """lichess takes a bulk pairing whole or not at all: a token it no longer takes (a
    closed account, a scope not granted) is found before, its board left out and named, the
    rest made; each in his own language."""
    bot = online_bot
    for user in (ARBITER, *members) if language == "en" else ():
        await bot.ask(user, "/taal en")
    await online_round_drafted(bot, lichess, members, linked=6, language=language)
    bram, cor = members[1], members[2]
    lichess.closed.add("Bram_lichess")
    [cor_token] = [t for t, (who, _) in lichess.tokens.items() if who == "Cor_lichess"]
    lichess.tokens[cor_token] = ("Cor_lichess", "preference:read")  # not allowed to play
    mark = len(bot.tg.sent)
    await bot.ask(ARBITER, "/indeling bevestig")
    await bot.tg.next_to(GROUP, pairing_title(1), after=mark)
    [bulk] = await until(lambda: _made(lichess, 1))
    out = [b for b in await boards(bot) if {bram.id, cor.id} & _ids(b, members)]
    assert len(bulk.games) == 3 - len(out)

    def sees(text: str, key: str, **facts) -> None:
        assert fits(text, key, language, **facts), text
        assert language == "nl" or not fits(text, key, "nl", **facts), text

    left = await bot.tg.next_to(ARBITER.id, meaning("LICHESS_LEFT_OUT", language, round=1),
                                after=mark)
    for board in out:
        sees(left.text, "LICHESS_LEFT_OUT_BOARD", board=board.board)
    sees(left.text, "LICHESS_LEFT_OUT_WHAT")
    for user in (bram, cor):
        await bot.tg.next_to(user.id, meaning("LICHESS_YOU_LEFT_OUT", language, round=1),
                             after=mark)
    played = next(u for u in members if not {u.id} & {i for b in out for i in _ids(b, members)})
    sees((await bot.tg.next_to(played.id, meaning("LICHESS_GAME", language, round=1),
                               after=mark)).text, "LICHESS_GAME")
    missing = words(language)(texts.LICHESS_STATES)["missing"]
    assert missing in (await bot.ask(bram, "/indeling")).text


@pytest.mark.parametrize("language", ["nl", "en"])
async def test_what_an_arbiter_may_get_wrong_is_said_in_his_language(online_bot, lichess,
                                                                     members, language):
    bot = online_bot
    if language == "en":
        await bot.ask(ARBITER, "/taal en")
    command = {"nl": "/instellingen", "en": "/settings"}[language]

    def sees(answer: str, key: str, **facts) -> None:
        assert fits(answer, key, language, **facts), answer
        assert language == "nl" or not fits(answer, key, "nl", **facts), answer

    sees((await bot.ask(ARBITER, f"{command} online tempo 300+0")).text, "BAD_CLOCK",
         text="300+0")
    sees((await bot.ask(ARBITER, f"{command} online tempo snel")).text, "BAD_CLOCK")
    sees((await bot.ask(ARBITER, f"{command} online misschien")).text, "INSTELLINGEN_USAGE")
    typed = {"nl": "online tempo 30+5", "en": "online clock 30+5"}[language]
    sees((await bot.ask(ARBITER, f"{command} {typed}")).text, "INSTELLINGEN_DONE")
    switch = {"nl": "online rated ja", "en": "online rated yes"}[language]
    sees((await bot.ask(ARBITER, f"{command} {switch}")).text, "INSTELLINGEN_DONE")
    sees((await bot.ask(ARBITER, f"{command} online aan")).text if language == "nl" else
         (await bot.ask(ARBITER, f"{command} online on")).text, "INSTELLINGEN_DONE")
    shown = (await bot.ask(ARBITER, command)).text
    sees(shown, "ONLINE_SETTINGS", clock="30+5")
    # The club plays online now: a new round is online unless the arbiter says otherwise.
    new = {"nl": "/ronde nieuw", "en": "/round new"}[language]
    sees((await bot.ask(ARBITER, f"{new} 3-12-2026")).text, "RONDE_ONLINE", clock="30+5")
    planned = (await bot.ask(ARBITER, f"{new} 10-12-2026 offline")).text
    assert not fits(planned, "RONDE_ONLINE", language), planned
    mark = len(bot.tg.sent)
    bot.clock.now = START - dt.timedelta(hours=1)
    await bot.tg.next_to(ARBITER.id, meaning("DRAFT_TO_ARBITER", language, round=1),
                         after=mark)
    refused = (await bot.ask(ARBITER, {"nl": "/indeling bevestig",
                                       "en": "/pairing confirm"}[language])).text
    assert refused == texts.store_problem(words(language), InputStoreError(
        StoreProblem.NO_ORGANISER, round=1))
    assert "/lichess club" in refused and ("Ronde 1" in refused) == (language == "nl")
    # A member may not change the club's settings.
    assert fits((await bot.ask(members[0], "/instellingen online uit")).text, "ONLY_ARBITER")
    # Where lichess is set up, /help says how to link (the arbiter: how to play online).
    sees((await bot.ask(ARBITER, "/help")).text, "HELP_ARBITER_LICHESS")
    assert fits((await bot.ask(members[0], "/help")).text, "HELP_LICHESS")


async def test_a_bulk_made_just_before_a_kill_is_found_not_made_again(online_bot, lichess,
                                                                      members):
    """The bot made the round's bulk pairing and was killed before it kept the games: at the
    next try it finds them among the organiser's pairings to come and sends each player his
    game, with no second game for anyone at lichess."""
    bot = online_bot
    organiser, *players = await online_round_drafted(bot, lichess, members, linked=6)
    draft = (await bot.ask(ARBITER, "/indeling")).text
    by_name = {f"{u.first_name} {u.last_name}": k for k, u in enumerate(members)}
    pairs = [(players[by_name[w]], players[by_name[b]]) for w, b in pairs_of(draft)]
    await Lichess(lichess.url).bulk(organiser, pairs, clock=DEFAULT_CLOCK, rated=False,
                                    at=START)
    mark = len(bot.tg.sent)
    await publish(bot, 1)
    for user in members:
        await bot.tg.next_to(user.id, meaning("LICHESS_GAME", round=1), after=mark)
    assert len(lichess.bulks) == 1
    assert {b.game_id for b in await boards(bot)} == {g.id for g in lichess.bulks[0].games}


async def test_lichess_refusing_the_games_is_the_arbiters_to_hear_at_once(online_bot, lichess,
                                                                         members):
    """Not a passing fault: the club's account lost its scope (a token revoked at lichess)
    and the games are refused; the arbiter hears it before the round, once, with what to
    check; the tick keeps trying."""
    bot = online_bot
    organiser, *_ = await online_round_drafted(bot, lichess, members, linked=6)
    lichess.tokens[organiser] = ("SchaakclubOnline", "preference:read")
    mark = len(bot.tg.sent)
    await publish(bot, 1)
    told = await bot.tg.next_to(ARBITER.id, meaning("LICHESS_REFUSED", round=1, status=403),
                                after=mark)
    assert "/lichess club" in told.text
    await bot.ticks(5)
    assert heard(bot.tg.sent[mark:], "LICHESS_REFUSED", round=1) == 1
    assert lichess.bulks == []


@pytest.mark.parametrize("language", ["nl", "en"])
async def test_a_round_online_where_lichess_is_not_set_up_says_so(bot, members, language):
    """A bot without the key and the pages lichess needs plans no round online: the
    arbiter reads why, in his language, and no round is added."""
    await set_up_club(bot, members, rounds=0)
    if language == "en":
        await bot.ask(ARBITER, "/taal en")
    answer = (await bot.ask(ARBITER, "/ronde nieuw 3-12-2026 online")).text
    assert fits(answer, "LICHESS_NOT_SET_UP", language), answer
    assert language == "nl" or not fits(answer, "LICHESS_NOT_SET_UP", "nl")
    assert fits((await bot.ask(ARBITER, "/ronde")).text, "RONDE_NONE", language)


async def test_a_game_read_back_twice_at_once_is_taken_once(online_bot, lichess, members):
    """Two looks at lichess at the same moment (the tick and a deadline's job, or two
    processes): the ended game's result is taken once and each player asked once."""
    from bot.flows import online

    bot = online_bot
    await online_round_drafted(bot, lichess, members, linked=6)
    await publish(bot, 1)
    made = await until(lambda: all_made(bot))
    bot.clock.now = START + dt.timedelta(minutes=5)
    mark = len(bot.tg.sent)
    lichess.end(made[0].game_id, "mate", "black")
    services = bot.app.bot_data
    await asyncio.gather(*(online.read_back(services, 1) for _ in range(3)))
    white = _user(made[0].white, members)
    await bot.tg.next_to(white.id, meaning("LICHESS_RESULT_ASK", round=1, board=1), after=mark)
    await bot.settled()
    assert heard(bot.tg.sent[mark:], "LICHESS_RESULT_ASK", round=1, board=1) == 2  # both


async def test_one_account_on_two_boards_leaves_those_out_and_the_others_play(
        online_bot, lichess, members):
    """Issue 47: two members linked one lichess account (before a second link was refused):
    lichess would refuse the whole bulk (`duplicateUsers`); their boards are left out and
    named, the others play."""
    bot = online_bot
    await online_round_drafted(bot, lichess, members, linked=4)
    twins = members[4:6]
    for user in twins:
        await link(bot, lichess, user.id, "Gedeeld_lichess")
    mark = len(bot.tg.sent)
    await bot.ask(ARBITER, "/indeling bevestig")
    [bulk] = await until(lambda: _made(lichess, 1))
    out = [b for b in await boards(bot) if {u.id for u in twins} & _ids(b, members)]
    assert out and len(bulk.games) == 3 - len(out)
    assert "gedeeld_lichess" not in {name.lower() for g in bulk.games
                                     for name in (g.white, g.black)}
    left = await bot.tg.next_to(ARBITER.id, meaning("LICHESS_LEFT_OUT", round=1), after=mark)
    for board in out:
        assert fits(left.text, "LICHESS_LEFT_OUT_BOARD", board=board.board)


@pytest.mark.parametrize("language", ["nl", "en"])
async def test_a_players_report_lichess_contradicts_names_both(online_bot, lichess, members,
                                                               language):
    """Issue 47: white reports a win, lichess says black won: the arbiter hears both results,
    and which one lichess gave."""
    bot = online_bot
    if language == "en":
        await bot.ask(ARBITER, "/taal en")
    await online_round_drafted(bot, lichess, members, linked=6, language=language)
    await bot.ask(ARBITER, "/indeling bevestig")
    await until(lambda: _made(lichess, 1))
    bot.clock.now = START + dt.timedelta(minutes=2)

    async def made() -> list | None:
        found = await boards(bot)
        return found if all(b.game_id for b in found) else None
    first = (await until(made))[0]
    white = _user(first.white, members)
    # The game's link may still be on its way to him: his report's answer is the next message
    # only once nothing else is (else lichess's result could come before his report).
    await bot.settled()
    await bot.ask(white, "/uitslag 1-0")
    mark = len(bot.tg.sent)
    lichess.end(first.game_id, "resign", "black")
    told = await bot.tg.next_to(ARBITER.id, meaning("CONFLICT_LICHESS_TO_ARBITER", language,
                                                    round=1, board=first.board), after=mark)
    players = {"white": _name(first.white, members), "black": _name(first.black, members)}
    assert fits(told.text, "CONFLICT_LICHESS_TO_ARBITER", language,
                reported=Text("RESULT_WORDS", players, pick="1-0"),
                lichess=Text("RESULT_WORDS", players, pick="0-1")), told.text


@pytest.mark.parametrize("language", ["nl", "en"])
async def test_what_is_shown_is_what_is_played_at_the_clubs_own_tempo(online_bot, lichess,
                                                                      members, language):
    """Issue 47: a club that plays 25+10 plays 25+10 on lichess unless the arbiter sets a
    clock for online rounds; the group's pairing and each player's message show the clock
    the games are made at, not the board's tempo."""
    bot = online_bot
    if language == "en":
        for user in (ARBITER, *members):
            await bot.ask(user, "/taal en")
        await bot.ask(ARBITER, "/instellingen taal en")
    changed = await bot.ask(ARBITER, "/instellingen regel time_control 25+10")
    assert fits(changed.text, "INSTELLINGEN_DONE", language) or "25+10" in changed.text
    await online_round_drafted(bot, lichess, members, linked=6, language=language)
    mark = len(bot.tg.sent)
    await bot.ask(ARBITER, "/indeling bevestig")
    group = await bot.tg.next_to(GROUP, pairing_title(1, language), after=mark)
    [bulk] = await until(lambda: _made(lichess, 1))
    assert bulk.clock == (25 * 60, 10)
    assert fits(group.text, "PAIRING_TEMPO_ONLINE", language, tempo="25+10"), group.text
    assert not fits(group.text, "PAIRING_TEMPO", language, tempo="90+15")
    personal = await bot.tg.next_to(members[0].id, meaning("PERSONAL_PAIRING", language,
                                                           round=1), after=mark)
    assert fits(personal.text, "PERSONAL_PAIRING", language, tempo="25+10"), personal.text
    # A clock of its own for online rounds, and back to the club's.
    await bot.ask(ARBITER, "/instellingen online tempo 60+10" if language == "nl"
                  else "/settings online clock 60+10")
    assert "60+10" in (await bot.ask(ARBITER, "/instellingen")).text
    await bot.ask(ARBITER, "/instellingen online tempo club" if language == "nl"
                  else "/settings online clock club")
    shown = (await bot.ask(ARBITER, "/instellingen")).text
    assert words(language)(texts.CLOCK_OF_CLUB).format(clock="25+10") in shown
