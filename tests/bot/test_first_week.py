"""Issue 33 in the chat: a new club's first week, met over HTTP against the Bot API fake.
Two rounds published at once, results that are not final yet, and the arbiter's rough edges."""

from __future__ import annotations

import io
import zipfile

from bot import i18n, texts
from storage import attendance, results
from storage.seasons import load_season
from tests.bot.conftest import ARBITER, GROUP, boards
from tests.bot.test_season import pass_deadline, publish, set_up_club


def dutch(text: str, **facts: object) -> str:
    with i18n.use("nl"):
        return str(getattr(texts, text)).format(**facts)


async def two_rounds_out(bot, members):
    """Round 1 published and not played yet, round 2 paired early and published too."""
    await set_up_club(bot, members, rounds=2)
    await pass_deadline(bot, 1)
    first = await publish(bot, 1)
    await pass_deadline(bot, 2)
    second = await publish(bot, 2)
    return first, second


def opponents(post, members) -> dict[int, tuple[int, int]]:
    """Each member's opponent's id and his board in a pairing post."""
    by_name = {f"{u.first_name} {u.last_name}": u for u in members}
    found = {}
    for board, (white, black) in enumerate(boards(post.text), start=1):
        found[by_name[white].id] = (by_name[black].id, board)
        found[by_name[black].id] = (by_name[white].id, board)
    return found


async def test_a_result_without_a_round_asks_which_while_two_games_wait(bot, members):
    first, _ = await two_rounds_out(bot, members)
    anna = members[0]
    asked = await bot.ask(anna, "/uitslag 1-0")
    assert asked.text == dutch("WHICH_ROUND", result="1-0")
    labels = [label for label, _ in asked.buttons]
    assert [label.split(":")[0] for label in labels] == ["Ronde 1", "Ronde 2"]
    # Nothing is stored before he says which.
    store = bot.app.bot_data.db
    waiting = await results.open_games(store, "p0")
    assert [g.round for g in waiting] == [1, 2]
    for game in waiting:
        assert (await results.game(store, game.round, game.board)).result is None
    # He taps round 1: the question becomes the answer, for round 1.
    bot.tg.press(anna, asked, asked.buttons[0][1])
    answered = await bot.tg.edited(asked, "ronde 1")
    _, board = opponents(first, members)[anna.id]
    assert answered.text.startswith(f"Genoteerd, ronde 1 bord {board}:")
    game = await results.game(store, 1, board)
    assert game.result is not None and not game.confirmed
    for other in range(1, 4):
        assert (await results.game(store, 2, other)).result is None


async def test_a_result_without_a_round_goes_to_the_only_game_that_waits(bot, members):
    first, second = await two_rounds_out(bot, members)
    anna = members[0]
    opponent_id, _ = opponents(first, members)[anna.id]
    opponent = next(m for m in members if m.id == opponent_id)
    # Round 1 settled: Anna's report confirmed by her opponent's button.
    mark = len(bot.tg.sent)
    await bot.ask(anna, "/uitslag 1-0", chat_id=GROUP, reply_to=first)
    ask = await bot.tg.next_to(opponent.id, "Klopt dat", after=mark)
    bot.tg.press(opponent, ask, ask.buttons[0][1])
    await bot.tg.edited(ask, "Bevestigd")
    # Her next result without a round is for round 2, the one game left without one.
    _, board2 = opponents(second, members)[anna.id]
    again = await bot.ask(anna, "/uitslag 0-1")
    assert again.text.startswith(f"Genoteerd, ronde 2 bord {board2}:")


async def test_the_result_buttons_of_an_old_pairing_report_for_their_round(bot, members):
    await two_rounds_out(bot, members)
    anna = members[0]
    own = [s for s in bot.tg.to(anna.id) if s.buttons and
           any(d.startswith("uit:") for _, d in s.buttons)]
    assert len(own) == 2  # her pairing of round 1 and of round 2, each with its buttons
    old = own[0]
    assert "Ronde 1" in old.text
    mark = len(bot.tg.sent)
    bot.tg.press(anna, old, old.buttons[0][1])
    answer = await bot.tg.next_to(anna.id, "Genoteerd", after=mark)
    assert answer.text.startswith("Genoteerd, ronde 1 ")


async def test_mijn_and_indeling_show_every_round_still_going_the_earliest_first(bot, members):
    await two_rounds_out(bot, members)
    anna = members[0]
    mine = await bot.ask(anna, "/mijn")
    games = [line for line in mine.text.splitlines() if line.startswith("Ronde ")]
    assert [line.split(":")[0] for line in games] == ["Ronde 1", "Ronde 2"]
    shown = await bot.ask(anna, "/indeling")
    titles = [line for line in shown.plain.splitlines() if line.startswith("Indeling ronde")]
    assert titles == ["Indeling ronde 1", "Indeling ronde 2"]
    assert shown.plain.index("Indeling ronde 1") < shown.plain.index("Indeling ronde 2")


async def test_a_result_not_final_is_marked_everywhere_and_counts_nowhere(tg, tmp_path,
                                                                          members):
    from tests.bot.conftest import club_bot
    from tests.bot.test_web import PUBLIC_URL, get, plain

    bot = await club_bot(tg, tmp_path / "keizer.db", web_port=0, public_url=PUBLIC_URL)
    try:
        await set_up_club(bot, members, rounds=2)
        await pass_deadline(bot, 1)
        post = await publish(bot, 1)
        white, black = boards(post.text)[0]
        by_name = {f"{u.first_name} {u.last_name}": u for u in members}
        reporter, opponent = by_name[white], by_name[black]
        mark = len(bot.tg.sent)
        await bot.ask(reporter, "/uitslag 1-0", chat_id=GROUP, reply_to=post)
        ask = await bot.tg.next_to(opponent.id, "Klopt dat", after=mark)
        waiting = dutch("RESULT_WAITING", result="1-0")

        # Waiting for the opponent: marked in the chat, on the round page and in the files.
        assert f"): {waiting}" in (await bot.ask(reporter, "/indeling")).plain
        assert f"({waiting})" in (await bot.ask(reporter, "/mijn")).text
        status, page, _ = await get(bot, "/ronde-1")
        assert status == 200 and waiting in plain(page)
        exported = await bot.ask(ARBITER, "/export")
        with zipfile.ZipFile(io.BytesIO(exported.data)) as archive:
            games = archive.read("partijen.csv").decode("utf-8-sig")
            assert waiting in games
            assert waiting in archive.read("ronde-1.html").decode("utf-8")
        # Not final: no result of the season, so in no standings.
        season = await load_season(bot.app.bot_data.db)
        assert season.round(1).games[0].result is None and season.complete_rounds == 0

        # Disputed: every view says so until the arbiter decides.
        bot.tg.press(opponent, ask, ask.buttons[1][1])
        await bot.tg.edited(ask, "")
        disputed = dutch("RESULT_DISPUTED", result="1-0")
        assert f": {disputed}" in (await bot.ask(opponent, "/indeling")).plain
        assert f"({disputed})" in (await bot.ask(opponent, "/mijn")).text
        status, page, _ = await get(bot, "/ronde-1")
        assert disputed in plain(page)

        # The arbiter decides: final, shown as it is.
        await bot.ask(ARBITER, "/uitslag 1 0-1 ronde 1")
        indeling = (await bot.ask(opponent, "/indeling")).plain
        assert ": 0-1" in indeling and disputed not in indeling and waiting not in indeling
        status, page, _ = await get(bot, "/ronde-1")
        assert "0-1" in plain(page) and disputed not in plain(page)
    finally:
        await bot.stop()


async def test_an_english_sign_off_names_the_rounds_it_says(bot, members):
    await set_up_club(bot, members, rounds=5)
    bot.clock.now = bot.clock.now.replace(month=12, day=2)  # Wednesday 2 December
    bram = members[1]
    await bot.ask(bram, "/language en")
    said = await bot.ask(bram, "/signoff thursday next week")
    assert said.text.startswith("Bram de Boer is signed off for round 2 (Thu 10 Dec).")
    assert len(said.text.splitlines()) == 1
    said = await bot.ask(bram, "/signoff in 8 days")
    assert "round 2 (Thu 10 Dec)" in said.text
    said = await bot.ask(bram, "/signoff from 24 December off to Spain with my new family")
    assert [line.split(" (")[0] for line in said.text.splitlines()
            if line.startswith("Bram")] == [f"Bram de Boer is signed off for round {n}"
                                            for n in (4, 5)]
    store = bot.app.bot_data.db
    assert await attendance.signed_off_rounds(store, "p1", from_round=1) == [2, 4, 5]
    # The reason is kept as he typed it, not a word of it made Dutch.
    async with store.fresh() as conn, conn.execute(
            "SELECT DISTINCT note FROM signoff WHERE note <> ''") as cur:
        assert [row[0] for row in await cur.fetchall()] == ["off to Spain with my new family"]
