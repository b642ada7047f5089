"""Issue 22 over HTTP: a club night as it really goes. A late tap never undoes a timely
sign-off, the bye player can be absent too, a result settled is not disputed after, an old
reminder knows its round is over, a new opponent comes with the result buttons, the schedule
refuses a start already gone and warns of a shared day, Dutch dates sign off what they say,
and a group that becomes a supergroup keeps the bot."""

from __future__ import annotations

import datetime as dt

from bot.flows import admin
from bot.language import texts
from bot.language.i18n import words
from storage import club, roster
from storage.errors import StoreError, StoreProblem
from tests.bot.conftest import ARBITER, GROUP, boards, confirm_question, pairing_title
from tests.bot.steps import (
    games_of,
    pass_deadline,
    play_round,
    publish,
    round_absences,
    set_up_club,
    tap,
)

SUPERGROUP = -1009876543210


def refusal(problem: StoreProblem, **facts: object) -> str:
    return texts.store_problem(words("nl"), StoreError(problem, **facts))


def by_name(members) -> dict:
    return {f"{u.first_name} {u.last_name}": u for u in members}


async def test_a_late_tap_or_message_keeps_the_sign_off_made_in_time(bot, members):
    await set_up_club(bot, members, rounds=1)
    bot.clock.now = bot.clock.now.replace(month=12, day=2, hour=20)  # a day before round 1
    group = await bot.tg.wait_for(lambda s: s.chat_id == GROUP and "Herinnering" in s.text)
    assert "externe partij op de clubavond" in (await tap(bot, members[0], group, "ext"))["text"]
    sent = await bot.ask(members[1], "/afmelden ziek")
    assert sent.text.startswith("Bram de Boer is afgemeld voor ronde 1 (do 3 dec).")
    await pass_deadline(bot, 1)
    mark = len(bot.tg.sent)
    late = await tap(bot, members[0], group, "off")
    assert late["text"] == ("Anna Visser was al op tijd afgemeld voor ronde 1 (do 3 dec) voor "
                            "een externe partij op de clubavond. Dat blijft zo: de deadline is "
                            "voorbij, dus veranderen kan nu alleen de wedstrijdleider.")
    again = await bot.ask(members[1], "/afmelden")
    assert again.text.startswith("Bram de Boer was al op tijd afgemeld voor ronde 1 (do 3 dec). "
                                 "Dat blijft zo")
    assert await round_absences(bot, 1) == {"Anna Visser": "external", "Bram de Boer": "notice"}
    # Nothing changed, so nobody is told of a late sign-off.
    assert not [s for s in bot.tg.sent[mark:] if "Te late afmelding" in s.text]
    # Who had not signed off in time is recorded late, as before.
    first_late = await bot.ask(members[2], "/afmelden")
    assert "maar te laat" in first_late.text
    await bot.tg.next_to(ARBITER.id, "Te late afmelding: Cor Jansen", after=mark)


async def test_the_arbiter_marks_the_bye_player_absent_and_back(bot, members):
    await set_up_club(bot, members, rounds=1)
    await bot.ask(members[5], "/afmelden")  # five play: one has the bye
    await pass_deadline(bot, 1)
    post = await publish(bot, 1)
    bye = next(n for n, r in (await round_absences(bot, 1)).items() if r == "bye")
    came = await bot.ask(ARBITER, f"/indeling erbij {bye}")
    assert came.text == refusal(StoreProblem.HAS_BYE, player=bye, round=1)
    mark = len(bot.tg.sent)
    told = await bot.ask(ARBITER, f"/indeling afwezig {bye}")
    assert told.text == (f"{bye} had de bye in ronde 1 en is er niet: hij staat als afwezig "
                         "genoteerd, de bye vervalt.")
    group = await bot.tg.next_to(GROUP, "Wijziging ronde 1", after=mark)
    assert group.text == f"Wijziging ronde 1: {bye} is er niet. Niemand heeft nu de bye."
    assert group.reply_to == post.message_id
    await bot.tg.next_to(by_name(members)[bye].id, "als afwezig genoteerd", after=mark)
    assert await round_absences(bot, 1) == {bye: "no_notice", "Femke Kok": "notice"}
    assert len(await games_of(bot, 1)) == 2
    # He was there after all: nobody is free to play him, so the bye is his again.
    mark = len(bot.tg.sent)
    back = await bot.ask(ARBITER, f"/indeling erbij {bye}")
    assert back.text == f"{bye} heeft de bye weer."
    await bot.tg.next_to(GROUP, f"Wijziging ronde 1: {bye} is er toch. {bye} heeft de bye "
                         "weer.", after=mark)
    await bot.tg.next_to(by_name(members)[bye].id, "hebt de bye weer", after=mark)
    assert await round_absences(bot, 1) == {bye: "bye", "Femke Kok": "notice"}
    # Who lost his board, not a bye, is not given one.
    white = boards(post.text)[0][0]
    await bot.ask(ARBITER, f"/indeling afwezig {white}")
    refused = await bot.ask(ARBITER, f"/indeling erbij {white}")
    assert refused.text == refusal(StoreProblem.NOBODY_FREE, player=white, round=1)


async def test_a_new_opponent_at_the_board_comes_with_the_result_buttons(bot, members):
    await set_up_club(bot, members, rounds=1)
    await bot.ask(members[5], "/afmelden")
    await pass_deadline(bot, 1)
    post = await publish(bot, 1)
    (white, black), _ = boards(post.text)
    bye = next(n for n, r in (await round_absences(bot, 1)).items() if r == "bye")
    mark = len(bot.tg.sent)
    await bot.ask(ARBITER, f"/indeling afwezig {white}")
    players = by_name(members)
    heard = {name: await bot.tg.next_to(players[name].id, "Wijziging ronde 1: je speelt nu",
                                        after=mark) for name in (black, bye)}
    for message in heard.values():
        assert [label for label, _ in message.buttons] == ["1-0", "½-½", "0-1"]
    # The buttons report for the new board, as under one's own pairing.
    new_white = next(name for name, m in heard.items() if "met wit" in m.text)
    mine = heard[new_white]
    mark = len(bot.tg.sent)
    bot.tg.press(players[new_white], mine, mine.buttons[0][1])
    told = await bot.tg.next_to(players[new_white].id, "Genoteerd, ronde 1 bord 1", after=mark)
    assert "wint met wit" in told.text


async def test_a_dispute_after_the_result_was_settled_is_already_handled(bot, members):
    await set_up_club(bot, members, rounds=1)
    await pass_deadline(bot, 1)
    post = await publish(bot, 1)
    players = by_name(members)
    (w1, b1), (_, b2), _ = boards(post.text)
    mine = await bot.tg.next_to(players[w1].id, "Ronde 1")
    mark = len(bot.tg.sent)
    bot.tg.press(players[w1], mine, mine.buttons[0][1])
    ask = await confirm_question(bot.tg, players[b1].id, after=mark)
    (_, yes), (_, no) = ask.buttons
    bot.tg.press(players[b1], ask, yes)
    await bot.tg.edited(ask, "Bevestigd")
    mark = len(bot.tg.sent)
    answered = len(bot.tg.answered)
    bot.tg.press(players[b1], ask, no)  # Klopt niet, after the fact
    await bot.tg.toast(answered)
    await bot.tg.edited(ask, texts.ALREADY_HANDLED)
    # Forged: a dispute of board 2, where nobody reported anything yet.
    answered = len(bot.tg.answered)
    bot.tg.press(players[b2], ask, "resno:v1:1:2:1-0")
    await bot.tg.toast(answered)
    await bot.tg.edited(ask, texts.ALREADY_HANDLED)
    # And the reporter cannot dispute his own report.
    answered = len(bot.tg.answered)
    bot.tg.press(players[w1], ask, "resno:v1:1:1:1-0")
    assert await bot.tg.toast(answered) == texts.NOT_YOUR_BUTTON
    await bot.ask(ARBITER, "/help")  # everything before it has been handled
    bothered = [s for s in bot.tg.sent[mark:] if "betwist" in s.text or "niet klopt" in s.text]
    assert bothered == []
    assert (w1, b1, "1-0") in await games_of(bot, 1)


async def test_an_old_reminders_i_play_says_the_round_is_over(bot, members):
    await set_up_club(bot, members, rounds=2)
    bot.clock.now = bot.clock.now.replace(month=12, day=2, hour=20)
    group = await bot.tg.wait_for(lambda s: s.chat_id == GROUP and "Herinnering" in s.text)
    await pass_deadline(bot, 1)
    await play_round(bot, members, 1, await publish(bot, 1))
    await bot.tg.wait_for(lambda s: "Alle uitslagen van ronde 1" in s.text)
    for choice in ("play", "off"):
        pressed = await tap(bot, members[0], group, choice)
        assert pressed["text"] == refusal(StoreProblem.ROUND_CLOSED, round=1)
    assert "Afgemeld voor" not in (await bot.ask(members[0], "/mijn")).text


async def test_the_arbiter_cannot_plan_a_round_whose_start_has_gone(bot, members):
    await set_up_club(bot, members, rounds=1)
    # Tuesday 1 December, 20:49 in Amsterdam: the 20:00 start of today has gone.
    bot.clock.now = dt.datetime(2026, 12, 1, 19, 49, tzinfo=dt.UTC)
    refused = await bot.ask(ARBITER, "/ronde nieuw vandaag")
    assert refused.text == refusal(StoreProblem.START_PAST, date="di 1 dec", time="20:00")
    assert refused.text.startswith("Een ronde op di 1 dec zou om 20:00 beginnen, en dat is al "
                                   "voorbij. Kies een latere datum")
    moved = await bot.ask(ARBITER, "/ronde uitstel 1 vandaag")
    assert moved.text == refused.text
    listed = await bot.ask(ARBITER, "/ronde")
    assert len(listed.text.splitlines()) == 1 and "do 3 dec" in listed.text
    # An hour earlier the same round is fine: its deadline has gone, so it is paired at once.
    bot.clock.now = dt.datetime(2026, 12, 1, 18, 30, tzinfo=dt.UTC)
    planned = await bot.ask(ARBITER, "/ronde nieuw vandaag")
    assert planned.text.startswith("Ronde 1 gepland op di 1 dec")


async def test_moving_a_round_onto_another_rounds_day_is_warned_about(bot, members):
    await set_up_club(bot, members, rounds=2)  # Thursdays 3 and 10 December
    moved = await bot.ask(ARBITER, "/ronde uitstel 2 3 december")
    assert moved.text.splitlines() == [
        moved.text.splitlines()[0], texts.RONDE_SAME_DAY.format(rounds="1")]
    assert moved.text.startswith("Ronde 2 verplaatst naar do 3 dec")
    alone = await bot.ask(ARBITER, "/ronde uitstel 2 17 december")
    assert len(alone.text.splitlines()) == 1


async def test_a_member_of_a_friday_club_signs_off_in_words(bot, members):
    services = bot.app.bot_data
    for k, user in enumerate(members):
        await roster.link(services.db, f"p{k}", user.id, actor=ARBITER.id)
    for k in range(6):  # Fridays 4 December to 8 January
        await admin.plan_round(services, dt.date(2026, 12, 4) + dt.timedelta(weeks=k),
                               actor=ARBITER.id)
    bot.clock.now = dt.datetime(2026, 12, 1, 10, 0, tzinfo=dt.UTC)  # Tuesday
    holiday = await bot.ask(members[0], "/afmelden van 11 december tot 8 januari vakantie")
    assert [line.split(". ")[0] for line in holiday.text.splitlines()] == [
        "Anna Visser is afgemeld voor ronde 2 (vr 11 dec)",
        "Anna Visser is afgemeld voor ronde 3 (vr 18 dec)",
        "Anna Visser is afgemeld voor ronde 4 (vr 25 dec)",
        "Anna Visser is afgemeld voor ronde 5 (vr 1 jan)"]
    next_friday = await bot.ask(members[1], "/afmelden volgende week vrijdag")
    assert next_friday.text.startswith("Bram de Boer is afgemeld voor ronde 2 (vr 11 dec).")
    assert len(next_friday.text.splitlines()) == 1
    soon = await bot.ask(members[2], "/afmelden over 3 dagen")
    assert soon.text.startswith("Cor Jansen is afgemeld voor ronde 1 (vr 4 dec).")
    through = await bot.ask(members[3], "/afmelden tot en met 18 december")
    assert [line.split(" (")[0] for line in through.text.splitlines()] == [
        f"Daan Smit is afgemeld voor ronde {n}" for n in (1, 2, 3)]
    thursday = await bot.ask(members[4], "/afmelden volgende week donderdag")
    assert thursday.text.startswith("Op do 10 dec staat geen ronde op het programma.")
    yesterday = await bot.ask(members[4], "/afmelden gisteren")
    assert yesterday.text.startswith("Op ma 30 nov staat geen ronde op het programma.")
    assert "Afgemeld voor" not in (await bot.ask(members[4], "/mijn")).text
    assert "Afgemeld voor: 2, 3, 4, 5." in (await bot.ask(members[0], "/mijn")).text


async def test_a_group_that_becomes_a_supergroup_keeps_the_bot(bot, members):
    await set_up_club(bot, members, rounds=2)
    await pass_deadline(bot, 1)
    mark = len(bot.tg.sent)
    bot.tg.migrate_group(GROUP, SUPERGROUP)  # with Telegram's two service messages
    told = await bot.tg.next_to(ARBITER.id, "supergroep", after=mark)
    assert told.text == texts.GROUP_MIGRATED
    assert (await club.settings(bot.app.bot_data.db)).group_chat_id == SUPERGROUP
    mark = len(bot.tg.sent)
    assert "Ronde 1 is gepubliceerd" in (await bot.ask(ARBITER, "/indeling bevestig")).text
    post = await bot.tg.wait_for(lambda s: pairing_title(1) in s.text, after=mark)
    assert post.chat_id == SUPERGROUP
    assert not [s for s in bot.tg.sent if s.chat_id == GROUP and s.message_id > told.message_id]
    await bot.ask(ARBITER, "/help")
    assert sum(texts.GROUP_MIGRATED in s.text for s in bot.tg.to(ARBITER.id)) == 1


async def test_what_was_owed_to_a_group_gone_super_goes_to_the_new_one(bot, members):
    await set_up_club(bot, members, rounds=1)
    await pass_deadline(bot, 1)
    # Telegram moved the group, and the bot has not read the service message yet: the
    # pairing is refused for the old chat, with the new one named.
    bot.tg.migrate_group(GROUP, SUPERGROUP, announce=False)
    mark = len(bot.tg.sent)
    answer = await bot.ask(ARBITER, "/indeling bevestig")
    assert "Ronde 1 is gepubliceerd" in answer.text
    post = await bot.tg.wait_for(lambda s: pairing_title(1) in s.text, after=mark)
    assert post.chat_id == SUPERGROUP
    await bot.tg.next_to(ARBITER.id, "supergroep", after=mark)
    assert (await club.settings(bot.app.bot_data.db)).group_chat_id == SUPERGROUP
    # The service messages after all: the arbiter is not told twice.
    bot.tg.migrate_group(GROUP, SUPERGROUP)
    await bot.ask(ARBITER, "/help")
    assert sum(texts.GROUP_MIGRATED in s.text for s in bot.tg.to(ARBITER.id)) == 1
    assert not [s for s in bot.tg.to(ARBITER.id) if "niet bezorgd" in s.text.lower()]
