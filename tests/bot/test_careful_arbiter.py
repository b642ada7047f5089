"""Issue 12 end to end: what a careful arbiter and his members expect around the happy path
(swaps by full name, decisions both players hear, no news of a game never published)."""

from __future__ import annotations

import asyncio
import datetime as dt
import json

from bot.demo.fakeapi import User
from bot.flows import admin
from bot.language import texts
from bot.language.i18n import words
from bot.language.notice import Dated, Text
from storage.errors import StoreProblem
from tests.bot.conftest import (
    ARBITER,
    GROUP,
    MEMBERS,
    asks_to_confirm,
    boards,
    fits,
    meaning,
    refused,
    said,
    says,
)
from tests.bot.steps import pass_deadline, publish, set_up_club

DEC_10 = dt.date(2026, 12, 10)


def by_name(members):
    return {f"{u.first_name} {u.last_name}": u for u in members}


async def test_a_swap_takes_full_names_with_or_without_en_or_a_comma(bot, members):
    await set_up_club(bot, members, rounds=1)
    draft = await pass_deadline(bot, 1)
    (w1, b1), (w2, b2) = boards(draft.text)[:2]
    for text in (f"{w1} {w2}", f"{w1} en {w2}", f"{w1}, {w2}"):
        answer = await bot.ask(ARBITER, f"/indeling ruil {text}")
        swapped = boards(answer.text)
        assert {frozenset(b) for b in swapped[:2]} in (
            {frozenset((w2, b1)), frozenset((w1, b2))},
            {frozenset((w1, b1)), frozenset((w2, b2))}), (text, answer.text)
    assert (await bot.ask(ARBITER, f"/indeling ruil {w1} {w1}")).text == \
        texts.SWAP_SAME.format(name=w1)
    unclear = await bot.ask(ARBITER, "/indeling ruil Niemand Bekend")
    assert unclear.text == says("SWAP_WHO", text="Niemand Bekend")


async def test_a_swap_with_someone_not_in_the_draft_is_refused(bot, members):
    await set_up_club(bot, members, rounds=1)
    await bot.ask(members[5], "/afmelden")
    await bot.ask(members[4], "/afmelden")
    draft = await pass_deadline(bot, 1)
    white = boards(draft.text)[0][0]
    answer = await bot.ask(ARBITER, f"/indeling ruil {white} en Femke Kok")
    assert answer.text == refused(StoreProblem.NOT_IN_DRAFT, player="Femke Kok", round=1)
    again = await bot.ask(ARBITER, "/indeling opnieuw")
    assert "Femke Kok" not in again.text and boards(again.text)


async def test_the_arbiters_decision_reaches_both_players_and_the_stale_buttons_go(bot,
                                                                                   members):
    await set_up_club(bot, members, rounds=1)
    await pass_deadline(bot, 1)
    post = await publish(bot, 1)
    white_name, black_name = boards(post.text)[0]
    white, black = by_name(members)[white_name], by_name(members)[black_name]
    mark = len(bot.tg.sent)
    await bot.ask(white, "/uitslag 1-0", chat_id=GROUP, reply_to=post)
    ask = await bot.tg.wait_for(lambda s: s.chat_id == black.id and asks_to_confirm(s),
                                after=mark)
    bot.tg.press(black, ask, ask.buttons[1][1])  # "Klopt niet"
    await bot.tg.next_to(white.id, meaning("DISPUTE_TO_REPORTER", who=black_name, round=1,
                                           board=1), after=mark)
    mark = len(bot.tg.sent)
    await bot.ask(white, "/uitslag 1-0", chat_id=GROUP, reply_to=post)
    second = await bot.tg.wait_for(lambda s: s.chat_id == black.id and asks_to_confirm(s),
                                   after=mark)
    mark = len(bot.tg.sent)
    settled = await bot.ask(ARBITER, "/uitslag 1 1/2-1/2")
    draw = Text("RESULT_WORDS", {"white": white_name, "black": black_name}, pick="1/2-1/2")
    assert settled.text == says("RESULT_FINAL", round=1, board=1, words=draw)
    for player in (white, black):
        await bot.tg.next_to(player.id, says("RESULT_DECIDED", round=1, board=1, words=draw),
                             after=mark)
    for _ in range(50):
        if second.reply_markup is None:
            break
        await asyncio.sleep(0.1)
    assert second.reply_markup is None


async def test_a_late_sign_off_from_a_draft_tells_the_arbiter_not_the_opponent(bot, members):
    await set_up_club(bot, members, rounds=1)
    draft = await pass_deadline(bot, 1)
    white_name, black_name = boards(draft.text)[0]
    white, black = by_name(members)[white_name], by_name(members)[black_name]
    mark = len(bot.tg.sent)
    late = await bot.ask(white, "/afmelden")
    assert fits(late.text, "SIGNED_OFF_LATE", who=white_name, round=1)
    await bot.tg.next_to(ARBITER.id, meaning("LATE_TO_ARBITER", who=white_name, round=1),
                         after=mark)
    await bot.settled()
    assert not [s for s in bot.tg.sent[mark:] if s.chat_id == black.id]


async def test_a_sign_off_for_several_rounds_is_all_or_nothing(bot, members):
    await set_up_club(bot, members, rounds=3)
    signed = await bot.ask(members[2], "/afmelden van 2 t/m 3")
    lines = signed.text.splitlines()
    assert [fits(line, "SIGNED_OFF", who="Cor Jansen", round=n)
            for n, line in zip((2, 3), lines, strict=False)] == [True, True]
    await pass_deadline(bot, 1)
    await play_by_the_arbiter(bot, await publish(bot, 1))
    # Round 1 is over: a member cannot sign off for it any more, so round 2 is not stored.
    answer = await bot.ask(members[3], "/afmelden 1 t/m 2")
    assert answer.text == refused(StoreProblem.ROUND_CLOSED, round=1)
    mine = await bot.ask(members[3], "/mijn")
    assert texts.MIJN_NO_SIGNOFFS in mine.text


async def play_by_the_arbiter(bot, post) -> None:
    mark = len(bot.tg.sent)
    for board in range(1, len(boards(post.text)) + 1):
        await bot.ask(ARBITER, f"/uitslag {board} 1-0")
    await bot.tg.next_to(GROUP, meaning("ROUND_COMPLETE"), after=mark)


async def test_my_breakdown_before_my_first_round(bot, members):
    await set_up_club(bot, members, rounds=2)
    await pass_deadline(bot, 1)
    post = await publish(bot, 1)
    await bot.ask(ARBITER, "/speler nieuw Gert Nieuw 1500")
    await play_by_the_arbiter(bot, post)
    gert = User(300, "Gert", "Nieuw")
    mark = len(bot.tg.sent)
    await bot.ask(gert, "/ik Gert Nieuw")
    ask = await bot.tg.next_to(ARBITER.id, meaning("IK_ASK_ARBITER", name="Gert Nieuw"),
                               after=mark)
    bot.tg.press(ARBITER, ask, ask.buttons[0][1])
    await bot.tg.next_to(gert.id, says("IK_WELCOME", name="Gert Nieuw"), after=mark)
    answer = await bot.ask(gert, "/stand mij")
    assert answer.text == texts.STAND_NOT_YET.format(round=2)


async def test_a_rules_change_in_mid_season_is_shown_first_and_stored_when_confirmed(bot,
                                                                                    members):
    await set_up_club(bot, members, rounds=2)
    shown = await bot.ask(ARBITER, "/instellingen")
    assert fits(shown.text, "INSTELLINGEN", rules=texts.rules_in_words(words("nl"),
        {"preset": "sliedrecht", "planned_rounds": 3, "period_length": 3}))
    assert "{" not in shown.text
    await pass_deadline(bot, 1)
    await play_by_the_arbiter(bot, await publish(bot, 1))
    before = await bot.ask(members[0], "/stand")
    preview = await bot.ask(ARBITER, "/instellingen regel top_value 10")
    assert fits(preview.text, "RULES_PREVIEW", round=1)
    assert "<code>/instellingen regel top_value 10 bevestig</code>" in preview.text
    assert (await bot.ask(members[0], "/stand")).text == before.text
    done = await bot.ask(ARBITER, "/instellingen regel top_value 10 bevestig")
    assert done.text == texts.INSTELLINGEN_DONE
    assert (await bot.ask(members[0], "/stand")).text != before.text
    shown = await bot.ask(ARBITER, "/instellingen")
    assert f"{said(Text('RULE_WORDS', pick='top_value'))}: 10" in shown.text


async def test_a_sign_off_reads_as_written_for_whom_it_is(bot, members):
    await set_up_club(bot, members, rounds=3)
    own = await bot.ask(members[0], "/afmelden")
    assert own.text == ("Anna Visser is afgemeld voor ronde 1 (do 3 dec). Dat levert 33% van "
                        "je waarde op (nu 9: 3,0 punten).")
    for_her = await bot.ask(ARBITER, "/afmelden Femke Kok 3")
    assert for_her.text.splitlines() == [
        "Femke Kok is afgemeld voor ronde 3 (do 17 dec). Dat levert Femke Kok 33% van de "
        "eigen waarde in die ronde op."]
    away = await bot.ask(members[1], "/afmelden 2 extern-clubavond")
    assert away.text.startswith("Bram de Boer is afgemeld voor ronde 2 (do 10 dec) voor een "
                                "externe partij op de clubavond.")


async def test_everything_the_store_holds_survives_export_and_import(bot, members, tmp_path):
    """A season built through the bot: links, settings, an extra arbiter, sign-offs for
    rounds ahead (with reasons), a flexible member and his sign-on, a draft with the
    arbiter's fix, a reported result. Export
    with --alles, import into a new database, export again: the same file."""
    from storage.club_file import export_club, import_club
    from storage.seasons import export_json
    from storage.store import open_store

    await set_up_club(bot, members, rounds=3)
    await bot.ask(ARBITER, "/instellingen deadline 90")
    await bot.ask(ARBITER, "/instellingen online tempo 30+5")
    await admin.plan_round(bot.app.bot_data, dt.date(2026, 12, 31), online=True,
                           actor=ARBITER.id)
    await bot.ask(ARBITER, "/arbiter 4242")
    await bot.ask(members[0], "/afmelden van 2 t/m 3 vakantie")
    await bot.ask(members[1], "/afmelden 3 extern-clubavond")
    await bot.ask(ARBITER, "/speler Femke Kok flexibel")
    await bot.ask(members[5], "/aanmelden 2")
    draft = await pass_deadline(bot, 1)
    (w1, _), (w2, _) = boards(draft.text)[:2]
    await bot.ask(ARBITER, f"/indeling ruil {w1} en {w2}")
    post = await publish(bot, 1)
    by = by_name(members)
    await bot.ask(by[boards(post.text)[0][0]], "/uitslag 1-0", chat_id=GROUP, reply_to=post)
    first = await export_club(bot.app.bot_data.db)
    assert '"note": "vakantie"' in first and '"number": 3' in first
    assert '"online_clock": "30+5"' in first and '"online": 1' in first
    stored = json.loads(first)
    assert [r["signons"][0]["player"] for r in stored["rounds"] if r["signons"]] == ["p5"]
    assert [p["id"] for p in stored["season"]["players"] if p.get("flexible")] == ["p5"]
    copy = await open_store(tmp_path / "kopie.db")
    try:
        await import_club(copy, first)
        assert await export_club(copy) == first
        assert await export_json(copy) == await export_json(bot.app.bot_data.db)
    finally:
        await copy.close()


async def test_an_external_without_its_result_is_shown_open_until_booked(bot, members):
    await set_up_club(bot, members, rounds=2)
    await bot.ask(ARBITER, "/instellingen reglement drie-groepen")  # externals by team table
    await bot.ask(members[3], "/afmelden 1 extern-clubavond")
    shown = await bot.ask(ARBITER, "/ronde")
    assert fits(shown.text, "EXTERNAL_OPEN", name="Daan Smit", round=1)
    await bot.ask(ARBITER, "/extern Daan Smit 2 1")
    assert not fits((await bot.ask(ARBITER, "/ronde")).text, "EXTERNAL_OPEN")


async def test_rounds_stay_in_date_order(bot, members):
    await set_up_club(bot, members, rounds=3)  # 3, 10 and 17 December
    moved = await bot.ask(ARBITER, "/ronde uitstel 1 12-12-2026")
    assert moved.text == refused(StoreProblem.MOVE_ORDER, round=1, other=2,
                                 date=said(Dated(DEC_10)))
    inserted = await bot.ask(ARBITER, "/ronde nieuw 8-12-2026")
    assert inserted.text.splitlines() == [
        "Ronde 2 gepland op di 8 dec; afmelden kan tot di 8 dec 18:00.",
        texts.RONDE_RENUMBERED]
    listed = await bot.ask(ARBITER, "/ronde")
    assert [line.split(",")[0] for line in listed.text.splitlines()] == [
        "Ronde 1: do 3 dec", "Ronde 2: di 8 dec", "Ronde 3: do 10 dec", "Ronde 4: do 17 dec"]
    later = await bot.ask(ARBITER, "/ronde nieuw 3-12-2027")
    assert "vr 3 dec 2027" in later.text


async def test_a_swap_with_a_name_that_fits_several_asks_which_with_buttons(bot, members):
    await set_up_club(bot, members, rounds=1)
    await bot.ask(ARBITER, "/speler nieuw Anna Vos 1500")  # a second Anna, from round 2 on
    await bot.ask(ARBITER, "/speler nieuw Anna de Wit 1400")
    draft = await pass_deadline(bot, 1)
    white, black = boards(draft.text)[0]
    other = next(p for p in (x for b in boards(draft.text) for x in b)
                 if p not in (white, black) and not p.startswith("Anna"))
    asked = await bot.ask(ARBITER, f"/indeling ruil {other} en Anna")
    assert asked.text == says("SWAP_WHICH", name="Anna")
    labels = [label for label, _ in asked.buttons]
    assert f"{other} ↔ Anna Visser" in labels and f"{other} ↔ Anna Vos" in labels
    bot.tg.press(ARBITER, asked, dict(asked.buttons)[f"{other} ↔ Anna Visser"])
    done = await bot.tg.edited(asked, meaning("INDELING_DRAFT_TITLE"))
    assert boards(done.text) != boards(draft.text) and done.reply_markup is None


async def test_a_new_start_time_moves_the_open_deadlines_and_says_so(bot, members):
    await set_up_club(bot, members, rounds=2)
    answer = await bot.ask(ARBITER, "/instellingen start 9:30")
    assert answer.text.splitlines() == [
        texts.INSTELLINGEN_DONE,
        "Ronde 1: afmelden kan nu tot do 3 dec 07:30.",
        "Ronde 2: afmelden kan nu tot do 10 dec 07:30."]
    listed = await bot.ask(ARBITER, "/ronde")
    assert "afmelden tot do 3 dec 07:30" in listed.text


async def test_a_linked_account_asking_for_another_name_is_flagged(bot, members):
    await set_up_club(bot, members, rounds=1)
    mark = len(bot.tg.sent)
    await bot.ask(members[0], "/ik Bram de Boer", contains="wedstr")
    ask = await bot.tg.next_to(ARBITER.id, meaning("IK_ASK_ARBITER", name="Bram de Boer"),
                               after=mark)
    assert says("IK_MEMBER_LINKED", name="Bram de Boer") in ask.text
    assert says("IK_ACCOUNT_LINKED", name="Anna Visser") in ask.text


async def test_two_members_kept_apart_are_not_paired_and_the_arbiter_can_let_them_meet(
        bot, members):
    """Issue 36: `/instellingen nooit A en B` (a parent and child): paired again, the draft
    keeps them apart, breaking no rule; `/instellingen` lists them; the club file keeps them;
    `nooit weg` lets them meet again."""
    await set_up_club(bot, members, rounds=1)
    draft = await pass_deadline(bot, 1)
    a, b = boards(draft.text)[0]
    answer = await bot.ask(ARBITER, f"/instellingen nooit {a} en {b}")
    assert answer.text == says("APART_SET", a=a, b=b) + "\n" + says(
        "APART_DRAFT_WAITS", round=1, command="/indeling opnieuw")
    again = await bot.ask(ARBITER, f"/instellingen nooit {a}, {b}")
    assert again.text == says("APART_ALREADY", a=a, b=b)
    shown = await bot.ask(ARBITER, "/instellingen")
    first, second = sorted((a, b), key=MEMBERS.index)  # in the members' order
    assert fits(shown.text, "APART_LIST", pairs=says("APART_PAIR", a=first, b=second))
    repaired = await bot.ask(ARBITER, "/indeling opnieuw")
    paired = [set(board) for board in boards(repaired.text)]
    assert {a, b} not in paired and len(paired) == 3
    assert not fits(repaired.text, "PAIRING_BROKEN_TITLE")
    from storage.club_file import export_club

    assert len(json.loads(await export_club(bot.app.bot_data.db))["apart"]) == 1
    undone = await bot.ask(ARBITER, f"/instellingen nooit weg {b} en {a}")
    assert undone.text == says("APART_REMOVED", a=b, b=a) + "\n" + says(
        "APART_DRAFT_WAITS", round=1, command="/indeling opnieuw")
    assert {a, b} in [set(board) for board in
                      boards((await bot.ask(ARBITER, "/indeling opnieuw")).text)]
    # The same typed in English, by an arbiter whose Telegram speaks it.
    english = User(ARBITER.id, "Wim", "Leider", language_code="en")
    typed = await bot.ask(english, f"/settings never {a} and {b}")
    assert typed.text == said(Text("APART_SET", {"a": a, "b": b}), "en") + "\n" + said(
        Text("APART_DRAFT_WAITS", {"round": 1, "command": "/pairing again"}), "en")
    assert (await bot.ask(english, f"/settings never remove {a} and {b}")).text.startswith(
        said(Text("APART_REMOVED", {"a": a, "b": b}), "en"))


async def test_a_player_the_arbiter_signs_off_after_the_draft_is_left_out_when_paired_again(
        bot, members):
    """The arbiter signs off a player who is in the draft (he called in sick): the draft
    stays until the arbiter pairs again, and then he is not in it."""
    await set_up_club(bot, members, rounds=1)
    draft = await pass_deadline(bot, 1)
    sick = boards(draft.text)[2][0]
    await bot.ask(ARBITER, f"/afmelden {sick}")
    again = await bot.ask(ARBITER, "/indeling opnieuw")
    paired = {name for board in boards(again.text) for name in board}
    assert sick not in paired and len(paired) == len(members) - 2  # and one has the bye

