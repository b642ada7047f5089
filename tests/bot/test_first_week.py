"""Issue 33 in the chat: a new club's first week, met over HTTP against the Bot API fake.
Two rounds published at once, results that are not final yet, and the arbiter's rough edges."""

from __future__ import annotations

from bot import i18n, texts
from storage import results
from tests.bot.conftest import GROUP, boards
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
