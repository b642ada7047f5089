"""Issue 33 in the chat: a new club's first week, met over HTTP against the Bot API fake.
Two rounds published at once, results that are not final yet, and the arbiter's rough edges."""

from __future__ import annotations

import datetime as dt
import io
import zipfile

from bot.demo.fakeapi import User
from bot.language import texts
from bot.language.i18n import words
from core.season import season_from_data
from storage import attendance, results
from storage.seasons import load_season
from tests.bot.conftest import ARBITER, GROUP, boards, confirm_question, drafted, pairing_title
from tests.bot.steps import pass_deadline, play_round, publish, set_up_club


def dutch(text: str, **facts: object) -> str:
    return str(getattr(texts, text)).format(**facts)


async def first_board_reported(bot, members):
    """Round 1 published; white of board 1 reports 1-0 in the group. The pairing post, the
    reporter, his opponent and the question the opponent got."""
    await set_up_club(bot, members, rounds=2)
    await pass_deadline(bot, 1)
    post = await publish(bot, 1)
    white, black = boards(post.text)[0]
    by_name = {f"{u.first_name} {u.last_name}": u for u in members}
    reporter, opponent = by_name[white], by_name[black]
    mark = len(bot.tg.sent)
    await bot.ask(reporter, "/uitslag 1-0", chat_id=GROUP, reply_to=post)
    ask = await confirm_question(bot.tg, opponent.id, after=mark)
    return post, reporter, opponent, ask


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
    ask = await confirm_question(bot.tg, opponent.id, after=mark)
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
    assert titles == [pairing_title(1), pairing_title(2)]
    assert shown.plain.index(pairing_title(1)) < shown.plain.index(pairing_title(2))


async def test_a_result_not_final_is_marked_everywhere_and_counts_nowhere(tg, tmp_path,
                                                                          members, processes):
    from tests.bot.conftest import club_bot
    from tests.bot.web import PUBLIC_URL, get, plain

    bot = await club_bot(tg, tmp_path / "keizer.db", processes, web_port=0, public_url=PUBLIC_URL)
    try:
        _, reporter, opponent, ask = await first_board_reported(bot, members)
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


async def test_a_personal_answer_asked_in_the_group_is_in_the_members_language(bot, members):
    await set_up_club(bot, members, rounds=1)
    bram, anna = members[1], members[0]
    await bot.ask(bram, "/language en")
    mark = len(bot.tg.sent)
    said = await bot.ask(bram, "/mine", chat_id=GROUP)
    assert said.text == dutch("SENT_PRIVATELY")  # the group reads the club's language
    private = await bot.tg.next_to(bram.id, "", after=mark)
    assert "signed off" in private.text.lower() or "sign-offs" in private.text.lower()
    assert "afmelding" not in private.text.lower()
    # And the reverse: a Dutch member in an English club's group.
    await bot.ask(ARBITER, "/instellingen taal en")
    await bot.ask(anna, "/taal nl")
    mark = len(bot.tg.sent)
    await bot.ask(anna, "/mijn", chat_id=GROUP)
    private = await bot.tg.next_to(anna.id, "", after=mark)
    assert "afmeldingen" in private.text.lower()


async def test_an_english_arbiter_is_told_commands_in_english(bot, members):
    await set_up_club(bot, members, rounds=1)
    await pass_deadline(bot, 1)
    await play_round(bot, members, 1, await publish(bot, 1))
    await bot.ask(ARBITER, "/language en")
    shown = await bot.ask(ARBITER, "/settings")
    assert "KNSB rating list: classical." in shown.text
    proposed = await bot.ask(ARBITER, "/season new")
    assert "<code>/season new confirm</code>" in proposed.text
    dutch_typed = await bot.ask(ARBITER, "/seizoen nieuw")
    assert "<code>/seizoen nieuw bevestig</code>" in dutch_typed.text
    preview = await bot.ask(ARBITER, "/settings rules drie-cycli")
    assert "Then send <code>/settings rules drie-cycli confirm</code>." in preview.text
    table = await bot.ask(members[1], "/standings crosstable")
    assert table.filename == "kruistabel.html"  # a Dutch member
    await bot.ask(members[1], "/language en")
    table = await bot.ask(members[1], "/standings crosstable")
    assert table.filename == "crosstable.html"


async def test_help_says_how_to_link_only_to_who_is_not_linked(bot, members):
    await set_up_club(bot, members, rounds=1)
    link = texts.START_LINK.split("\n")[0]
    linked = await bot.ask(members[0], "/help")
    assert link not in linked.text and "/taal en | nl" in linked.text
    stranger = User(999, "Nieuw", "Lid")
    assert link in (await bot.ask(stranger, "/help")).text
    await bot.ask(members[1], "/language en")
    english = await bot.ask(members[1], "/help")
    assert english.text.startswith("Hello!") and "First link yourself" not in english.text


async def test_a_drafted_round_is_postponed_and_a_published_one_is_not(bot, members):
    await set_up_club(bot, members, rounds=3)
    await pass_deadline(bot, 1)
    moved = await bot.ask(ARBITER, "/ronde uitstel 1 7-12")
    assert moved.text.startswith("Ronde 1 verplaatst naar ma 7 dec")
    assert dutch("RONDE_DRAFT_DROPPED") in moved.text
    store = bot.app.bot_data.db
    from storage import rounds
    assert await rounds.stored_pairing(store, 1) is None
    assert (await rounds.state(store, 1)).value == "planned"
    # Members may sign off until the new deadline, on time.
    said = await bot.ask(members[2], "/afmelden 1")
    assert said.text.startswith("Cor Jansen is afgemeld voor ronde 1 (ma 7 dec)")
    # At the new deadline it is drafted again, without the member who signed off.
    mark = len(bot.tg.sent)
    bot.clock.now = bot.clock.now.replace(month=12, day=7, hour=18)
    draft = await bot.tg.wait_for(lambda s: s.chat_id == ARBITER.id and
                                  drafted(1) in s.text, after=mark)
    assert "Cor Jansen" not in draft.text.split("\n\n")[0] or "Cor Jansen" not in "".join(
        f"{w} {b}" for w, b in boards(draft.text))
    await publish(bot, 1)
    refused = await bot.ask(ARBITER, "/ronde uitstel 1 8-12")
    assert refused.text.startswith("Ronde 1 is al gepubliceerd; die verzet ik niet meer.")


async def test_the_arbiter_signing_off_a_member_with_no_round_left_is_told_about_him(bot,
                                                                                    members):
    await set_up_club(bot, members, rounds=0)
    said = await bot.ask(ARBITER, "/afmelden Anna Visser")
    assert said.text == dutch("SIGN_OFF_NO_ROUND_FOR", name="Anna Visser")
    own = await bot.ask(members[0], "/afmelden")
    assert own.text == dutch("SIGN_OFF_NO_ROUND")


async def test_ronde_on_an_imported_season_lists_what_is_to_come_with_deadlines(tg, tmp_path,
                                                                           processes):
    """A season file with two rounds played and the third waiting to be paired."""
    from tests.bot.conftest import MEMBERS, club_bot

    data = {"format": "keizer-season/1", "club": "Testclub", "season": "2026-2027",
            "rules": {"preset": "sliedrecht", "planned_rounds": 5, "period_length": 5},
            "players": [{"id": f"p{k}", "name": name, "rating": 2000 - 50 * k}
                        for k, name in enumerate(MEMBERS)],
            "rounds": [{"round": 1, "date": "2026-11-19", "games": [
                           {"white": "p0", "black": "p1", "result": "1-0"},
                           {"white": "p2", "black": "p3", "result": "0-1"},
                           {"white": "p4", "black": "p5", "result": "1/2-1/2"}]},
                       {"round": 2, "date": "2026-11-26", "games": [
                           {"white": "p1", "black": "p2", "result": "1-0"},
                           {"white": "p3", "black": "p4", "result": "0-1"},
                           {"white": "p5", "black": "p0", "result": "1-0"}]},
                       {"round": 3, "date": "2026-12-03", "absent": []}]}
    bot = await club_bot(tg, tmp_path / "keizer.db", processes, season_from_data(data))
    try:
        shown = (await bot.ask(ARBITER, "/ronde")).text.splitlines()
        assert [line.split(" ")[1].rstrip(":") for line in shown] == ["2", "3"]
        assert shown[0] == "Ronde 2: do 26 nov – afgelopen"
        assert shown[1] == "Ronde 3: do 3 dec, afmelden tot do 3 dec 18:00 – gepland"
        # Its deadline is real: at it the round is drafted.
        bot.clock.now = bot.clock.now.replace(month=12, day=3, hour=18)
        await bot.tg.next_to(ARBITER.id, drafted(3))
    finally:
        await bot.stop()


async def test_the_standings_post_says_how_many_more_there_are(tg, tmp_path, processes):
    from tests.bot.conftest import club_bot
    from tests.bot.web import PUBLIC_URL

    players = [{"id": f"p{k}", "name": f"Speler {k:02d}", "rating": 2200 - 10 * k}
               for k in range(14)]
    data = {"format": "keizer-season/1", "club": "Testclub", "season": "2026-2027",
            "rules": {"preset": "sliedrecht", "planned_rounds": 3, "period_length": 3},
            "players": players, "rounds": []}
    bot = await club_bot(tg, tmp_path / "keizer.db", processes, season_from_data(data), web_port=0,
                         public_url=PUBLIC_URL)
    try:
        services = bot.app.bot_data
        from bot.flows import admin
        from storage import club
        await club.change_settings(services.db, actor=ARBITER.id, group_chat_id=GROUP)
        await admin.plan_round(services, dt.date(2026, 12, 3), actor=ARBITER.id)
        await pass_deadline(bot, 1)
        post = await publish(bot, 1)
        for board in range(1, len(boards(post.text)) + 1):
            await bot.ask(ARBITER, f"/uitslag {board} 1-0")
        done = await bot.tg.wait_for(lambda s: s.chat_id == GROUP and
                                     "Alle uitslagen van ronde 1" in s.text)
        assert dutch("STANDINGS_MORE", count=2) in done.plain
        assert done.buttons and done.buttons[0][0] == dutch("WEB_BUTTON")
    finally:
        await bot.stop()


async def test_the_mini_apps_refusals_speak_the_browsers_language(tg, tmp_path, members, processes):
    from tests.bot.conftest import club_bot
    from tests.bot.web import PUBLIC_URL, get, init_data

    bot = await club_bot(tg, tmp_path / "keizer.db", processes, web_port=0, public_url=PUBLIC_URL)
    try:
        await set_up_club(bot, members, rounds=1)
        forged = init_data(members[0].id, at=bot.clock.now, forge=True)
        english = words("en")
        not_signed, not_found = english(texts.WEB_NOT_SIGNED), english(texts.WEB_NOT_FOUND)
        status, page, _ = await get(bot, "/mij", **{"X-Telegram-Init-Data": forged,
                                                    "Accept-Language": "en-GB,en;q=0.9"})
        assert (status, page) == (403, not_signed)
        status, page, _ = await get(bot, "/ronde-9", **{"Accept-Language": "en"})
        assert (status, page) == (404, not_found)
        status, page, _ = await get(bot, "/ronde-9", **{"Accept-Language": "nl"})
        assert (status, page) == (404, dutch("WEB_NOT_FOUND"))
    finally:
        await bot.stop()


async def test_a_toast_telegram_fails_cancels_no_edit(bot, members, caplog):
    """A *Klopt* whose toast Telegram answers with its gateway's 502 page: the question is
    edited all the same, and the outage is one warning, no traceback."""
    _, _, opponent, ask = await first_board_reported(bot, members)
    bot.tg.fail_next("answerCallbackQuery", 502)
    bot.tg.fail_next("editMessageText", 502)
    bot.tg.press(opponent, ask, ask.buttons[0][1])
    await bot.tg.edited(ask, "Bevestigd", timeout=20)
    assert not ask.buttons
    assert not [r for r in caplog.records if r.levelname == "ERROR"]
    assert not [r for r in caplog.records if r.exc_info]
    warned = [r for r in caplog.records if r.levelname == "WARNING" and
              r.name == "bot.telegram.request"]
    assert len(warned) == 1
