"""Issue 14 over HTTP: long absences and dates as members and the arbiter type them;
flexible members, who play only when they sign on."""

from __future__ import annotations

from bot.language import texts
from tests.bot.conftest import ARBITER, GROUP, STRANGER, boards, confirm_question
from tests.bot.steps import games_of, pass_deadline, publish, round_absences, set_up_club, tap


async def test_a_holiday_by_dates_signs_off_every_round_in_it(bot, members):
    await set_up_club(bot, members, rounds=3)  # Thursdays 3, 10 and 17 December
    answer = await bot.ask(members[0], "/afmelden van 3 t/m 10 december vakantie")
    lines = answer.text.splitlines()
    assert lines[0].startswith("Anna Visser is afgemeld voor ronde 1 (do 3 dec).")
    assert lines[1].startswith("Anna Visser is afgemeld voor ronde 2 (do 10 dec).")
    assert len(lines) == 2
    mine = await bot.ask(members[0], "/mijn")
    assert "Afgemeld voor: 1, 2." in mine.text


async def test_until_a_date_starts_at_the_open_round_and_leaves_that_day_out(bot, members):
    await set_up_club(bot, members, rounds=3)
    answer = await bot.ask(members[1], "/afmelden tot 17 dec blessure")
    assert [line.split(" (")[0] for line in answer.text.splitlines()] == [
        "Bram de Boer is afgemeld voor ronde 1", "Bram de Boer is afgemeld voor ronde 2"]
    again = await bot.ask(members[2], "/afmelden t/m 17 dec")
    assert len(again.text.splitlines()) == 3


async def test_weekdays_and_next_week(bot, members):
    await set_up_club(bot, members, rounds=3)  # the clock: Monday 30 November
    answer = await bot.ask(members[3], "/afmelden donderdag")
    assert answer.text.startswith("Daan Smit is afgemeld voor ronde 1 (do 3 dec).")
    answer = await bot.ask(members[4], "/afmelden volgende week werk")
    assert answer.text.startswith("Eva Bos is afgemeld voor ronde 2 (do 10 dec).")


async def test_a_number_that_is_no_round_is_asked_about_not_guessed(bot, members):
    await set_up_club(bot, members, rounds=3)
    answer = await bot.ask(members[0], "/afmelden 13")
    assert answer.text.startswith("Er is geen ronde 13. Bedoel je een datum? Schrijf dan "
                                  "bijvoorbeeld <code>13 december</code>.")
    assert "Afgemeld voor" not in (await bot.ask(members[0], "/mijn")).text


async def test_the_arbiter_plans_and_moves_rounds_in_words(bot, members):
    await set_up_club(bot, members, rounds=1)  # Thursday 3 December; today Monday 30 November
    added = await bot.ask(ARBITER, "/ronde nieuw volgende week")
    assert added.text.startswith("Ronde 2 gepland op do 10 dec")
    added = await bot.ask(ARBITER, "/ronde nieuw do 24 dec")
    assert added.text.startswith("Ronde 3 gepland op do 24 dec")
    moved = await bot.ask(ARBITER, "/ronde uitstel 3 31 december")
    assert moved.text.startswith("Ronde 3 verplaatst naar do 31 dec")
    refused = await bot.ask(ARBITER, "/ronde nieuw eind december")
    assert refused.text.startswith("'eind december' is geen datum.")


async def test_the_cap_on_paid_sign_offs_is_shown_where_it_bites(bot, members):
    await set_up_club(bot, members, rounds=3)
    assert "Opgeslagen" in (await bot.ask(ARBITER, "/instellingen regel notice_cap 2")).text
    answer = await bot.ask(members[5], "/afmelden t/m 17 dec")
    lines = answer.text.splitlines()
    assert lines[0].startswith("Femke Kok is afgemeld voor ronde 1") and "33%" in lines[0]
    assert lines[1].startswith("Femke Kok is afgemeld voor ronde 2") and "33%" in lines[1]
    assert lines[2].startswith("Femke Kok is afgemeld voor ronde 3")
    assert "Het maximum van 2 betaalde afmeldingen is bereikt" in lines[2]
    assert lines[3] == ("Afmelden levert punten op tot en met de 2e keer in het seizoen; "
                        "daarna niet meer.")


async def test_a_flexible_member_plays_only_when_he_signs_on(bot, members):
    await set_up_club(bot, members, rounds=2)
    told = await bot.ask(ARBITER, "/speler Cor Jansen flexibel")
    assert told.text.startswith("Cor Jansen is nu flexibel: hij speelt alleen de rondes")
    await bot.ask(ARBITER, "/speler Daan Smit flexibel")
    listed = await bot.ask(ARBITER, "/spelers")
    assert "Cor Jansen (gekoppeld) (flexibel)" in listed.text
    on = await bot.ask(members[3], "/aanmelden")
    assert on.text == "Daan Smit is aangemeld voor ronde 1 (do 3 dec) en wordt ingedeeld."
    again = await bot.ask(members[3], "/aanmelden donderdag")
    assert again.text == "Daan Smit was al aangemeld voor ronde 1 (do 3 dec)."
    # Until the deadline, the round already counts Cor as signed off (as the rules say).
    assert await round_absences(bot, 1) == {"Cor Jansen": "notice"}
    draft = await pass_deadline(bot, 1)
    paired = {name for board in boards(draft.text) for name in board}
    assert "Daan Smit" in paired and "Cor Jansen" not in paired
    recorded = await round_absences(bot, 1)  # five play: one has the bye
    assert recorded.pop("Cor Jansen") == "notice" and list(recorded.values()) == ["bye"]
    late = await bot.ask(members[2], "/aanmelden 1")
    assert late.text.startswith("De afmeldtermijn voor ronde 1 is voorbij.")


async def test_a_flexible_member_who_signs_on_and_then_off_is_signed_off(bot, members):
    await set_up_club(bot, members, rounds=2)
    await bot.ask(ARBITER, "/speler Eva Bos flexibel")
    await bot.ask(members[4], "/aanmelden 1 en 2")
    assert await round_absences(bot, 1) == {}
    await bot.ask(members[4], "/afmelden 2 werk")
    await bot.ask(ARBITER, "/speler Eva Bos vast")
    await pass_deadline(bot, 1)
    assert await round_absences(bot, 1) == {}
    mine = await bot.ask(members[4], "/mijn")
    assert "Afgemeld voor: 2." in mine.text


async def test_the_club_decides_what_not_signing_on_earns(bot, members):
    await set_up_club(bot, members, rounds=1)
    assert "Opgeslagen" in (await bot.ask(
        ARBITER, "/instellingen regel flexible_absent no_notice")).text
    added = await bot.ask(ARBITER, "/speler nieuw Piet Puk 1500 flexibel")
    assert "Piet Puk is nu flexibel" in added.text
    await pass_deadline(bot, 1)
    assert await round_absences(bot, 1) == {"Piet Puk": "no_notice"}


async def test_a_result_is_one_tap_under_the_pairing_and_the_opponent_confirms(bot, members):
    await set_up_club(bot, members, rounds=1)
    await pass_deadline(bot, 1)
    post = await publish(bot, 1)
    by = {f"{u.first_name} {u.last_name}": u for u in members}
    white, black = (by[name] for name in boards(post.text)[0])
    mine = await bot.tg.next_to(white.id, "Ronde 1")
    assert [label for label, _ in mine.buttons] == ["1-0", "½-½", "0-1"]
    mark = len(bot.tg.sent)
    answered = len(bot.tg.answered)
    bot.tg.press(white, mine, mine.buttons[0][1])
    assert await bot.tg.toast(answered) == ""
    told = await bot.tg.next_to(white.id, "bord 1", after=mark)
    assert told.text.startswith("Genoteerd, ronde 1 bord 1: ") and "wint met wit" in told.text
    ask = await confirm_question(bot.tg, black.id, after=mark)
    # A second tap changes nothing and asks the opponent nothing again.
    mark = len(bot.tg.sent)
    bot.tg.press(white, mine, mine.buttons[0][1])
    again = await bot.tg.next_to(white.id, "had je al doorgegeven", after=mark)
    assert again.text.startswith("Die uitslag had je al doorgegeven")
    # Somebody who is not linked taps it, or a member of another game (forged presses):
    # refused, nothing changes.
    answered = len(bot.tg.answered)
    bot.tg.press(STRANGER, mine, mine.buttons[2][1])
    assert await bot.tg.toast(answered) == texts.NOT_YOUR_BUTTON
    other = next(u for u in members if u not in (white, black))
    answered = len(bot.tg.answered)
    bot.tg.press(other, mine, mine.buttons[2][1])
    assert await bot.tg.toast(answered) == texts.NOT_YOUR_BUTTON
    bot.tg.press(black, ask, ask.buttons[0][1])
    await bot.tg.edited(ask, "Bevestigd")
    # Once confirmed, a late tap is told why it no longer applies.
    answered = len(bot.tg.answered)
    bot.tg.press(white, mine, mine.buttons[1][1])
    assert (await bot.tg.toast(answered)).startswith("De uitslag van bord 1 in ronde 1 staat al")
    assert said_twice(bot, black.id, "Klopt dat") is False


def said_twice(bot, chat_id: int, text: str) -> bool:
    return sum(text in s.text for s in bot.tg.to(chat_id)) > 1


async def test_the_reminder_is_answered_with_one_tap(bot, members):
    await set_up_club(bot, members, rounds=1)
    await bot.ask(ARBITER, "/speler Femke Kok flexibel")
    opted = await bot.ask(members[1], "/herinnering aan")
    assert opted.text == texts.HERINNERING_ON
    bot.clock.now = bot.clock.now.replace(month=12, day=2, hour=20)  # a day before round 1
    group = await bot.tg.wait_for(lambda s: s.chat_id == GROUP and "Herinnering" in s.text)
    assert [label for label, _ in group.buttons] == ["Ik speel", "Ik kan niet", "Extern"]
    private = await bot.tg.next_to(members[1].id, "Herinnering: ronde 1")
    assert [label for label, _ in private.buttons] == ["Ik speel", "Ik kan niet", "Extern"]
    assert not [s for s in bot.tg.to(members[0].id) if "Herinnering" in s.text]

    off = await tap(bot, members[0], group, "off")
    assert off["text"].startswith("Anna Visser is afgemeld voor ronde 1 (do 3 dec). Dat levert")
    assert off["show_alert"] is True
    assert "Afgemeld voor: 1." in (await bot.ask(members[0], "/mijn")).text
    for _ in range(2):  # twice: the same answer, nothing else changes
        assert (await tap(bot, members[0], group, "play"))["text"] == \
            "Je speelt mee in ronde 1."
    assert "Afgemeld voor" not in (await bot.ask(members[0], "/mijn")).text
    ext = await tap(bot, members[1], private, "ext")
    assert "voor een externe partij op de clubavond" in ext["text"]
    assert (await tap(bot, members[5], group, "play"))["text"] == "Je speelt mee in ronde 1."
    stranger = await tap(bot, STRANGER, group, "play")
    assert stranger["text"] == texts.ATTEND_UNLINKED
    assert stranger["url"] == "https://t.me/keizerbot?start=koppelen"
    await pass_deadline(bot, 1)
    # Signed on: she is paired (or has the bye), not absent for not signing on.
    assert (await round_absences(bot, 1)).get("Femke Kok") in (None, "bye")
    late = await tap(bot, members[5], group, "play")
    assert late["text"].startswith("De afmeldtermijn voor ronde 1 is voorbij.")


async def test_the_private_reminder_is_switched_off(bot, members):
    await set_up_club(bot, members, rounds=1)
    await bot.ask(members[2], "/herinnering aan")
    assert (await bot.ask(members[2], "/herinnering uit")).text == texts.HERINNERING_OFF
    assert (await bot.ask(members[2], "/herinnering")).text == texts.HERINNERING_USAGE
    bot.clock.now = bot.clock.now.replace(month=12, day=2, hour=20)
    await bot.tg.wait_for(lambda s: s.chat_id == GROUP and "Herinnering" in s.text)
    await bot.settled()
    assert not [s for s in bot.tg.to(members[2].id) if "Herinnering" in s.text]


async def test_at_the_board_who_does_not_come_and_who_comes_late(bot, members):
    await set_up_club(bot, members, rounds=1)
    await bot.ask(members[5], "/afmelden")  # five play: one has the bye
    await pass_deadline(bot, 1)
    post = await publish(bot, 1)
    (w1, b1), (w2, b2) = boards(post.text)
    bye = next(n for n, r in (await round_absences(bot, 1)).items() if r == "bye")
    by = {f"{u.first_name} {u.last_name}": u for u in members}
    mark = len(bot.tg.sent)
    # Board 1's white does not come: black plays the bye player instead.
    told = await bot.ask(ARBITER, f"/indeling afwezig {w1}")
    assert told.text.startswith("Bord 1: ") and b1 in told.text and bye in told.text
    group = await bot.tg.next_to(GROUP, "Wijziging ronde 1", after=mark)
    assert group.text.startswith(f"Wijziging ronde 1: {w1} is er niet. Bord 1: ")
    assert group.reply_to == post.message_id  # a correction under the published pairing
    for name in (b1, bye):
        heard = await bot.tg.next_to(by[name].id, "Wijziging ronde 1: je speelt nu", after=mark)
        assert "(bord 1)" in heard.text
    await bot.tg.next_to(by[w1].id, "als afwezig genoteerd", after=mark)
    assert (await round_absences(bot, 1)) == {w1: "no_notice", "Femke Kok": "notice"}
    assert {frozenset(g[:2]) for g in await games_of(bot, 1)} == {
        frozenset((b1, bye)), frozenset((w2, b2))}
    # Board 2's black does not come either: nobody is free, white wins by forfeit.
    mark = len(bot.tg.sent)
    told = await bot.ask(ARBITER, f"/indeling afwezig {b2}")
    assert told.text == f"{w2} wint bord 2 reglementair."
    await bot.tg.next_to(by[w2].id, "je wint reglementair", after=mark)
    assert (w2, b2, "+-") in await games_of(bot, 1)
    # Femke comes after all: she plays the one whose opponent did not come.
    mark = len(bot.tg.sent)
    told = await bot.ask(ARBITER, "/indeling erbij Femke Kok")
    assert told.text.startswith("Bord 2: ") and w2 in told.text and "Femke Kok" in told.text
    await bot.tg.next_to(GROUP, "Femke Kok is er toch", after=mark)
    assert (await round_absences(bot, 1)) == {w1: "no_notice", b2: "no_notice"}
    assert {frozenset(g[:2]) for g in await games_of(bot, 1)} == {
        frozenset((b1, bye)), frozenset((w2, "Femke Kok"))}
    # What cannot be done is said, and changes nothing.
    before = await games_of(bot, 1)
    refused = await bot.ask(ARBITER, f"/indeling erbij {w2}")
    assert refused.text == f"{w2} staat al in de indeling van ronde 1."
    refused = await bot.ask(ARBITER, f"/indeling erbij {w1}")
    assert refused.text.startswith(f"Er is niemand vrij om tegen {w1} te spelen in ronde 1")
    refused = await bot.ask(ARBITER, f"/indeling afwezig {w1}")
    assert refused.text == f"{w1} heeft geen partij in ronde 1."
    assert await games_of(bot, 1) == before


async def test_a_result_already_in_stays(bot, members):
    await set_up_club(bot, members, rounds=1)
    await pass_deadline(bot, 1)
    post = await publish(bot, 1)
    white, _ = boards(post.text)[0]
    await bot.ask(ARBITER, "/uitslag 1 1-0")
    refused = await bot.ask(ARBITER, f"/indeling afwezig {white}")
    assert refused.text.startswith("Bord 1 van ronde 1 heeft al een uitslag; die blijft staan.")
    assert (await games_of(bot, 1))[0][2] == "1-0"
