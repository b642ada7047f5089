"""The scenarios of issue 5, end to end over real HTTP against the fake Bot API."""

from __future__ import annotations

import re

from bot.demo.fakeapi import User
from bot.language import texts
from bot.language.i18n import words
from bot.language.notice import Text
from core.rounds import RoundState
from core.rules import CompensationKind
from storage.errors import StoreProblem
from tests.bot.conftest import (
    ARBITER,
    GROUP,
    boards,
    drafted,
    fits,
    heard,
    meaning,
    pairing_title,
    refused,
    says,
)
from tests.bot.steps import pass_deadline, publish, set_up_club


def drafts(bot, number: int) -> list:
    return [s for s in bot.tg.to(ARBITER.id) if drafted(number) in s.text]


async def test_sign_off_before_and_after_the_deadline(bot, members):
    await set_up_club(bot, members, rounds=2)
    anna, bram = members[0], members[1]
    early = await bot.ask(anna, "/afmelden 1")
    assert fits(early.text, "SIGNED_OFF", who="Anna Visser", round=1)
    assert not fits(early.text, "SIGNED_OFF_LATE")
    undo = await bot.ask(anna, "/aanmelden")
    assert undo.text == says("AANMELDEN_DONE", round=1)
    await pass_deadline(bot, 1)
    await publish(bot, 1)
    # After the deadline, already paired: recorded as late; arbiter and opponent are told.
    mark = len(bot.tg.sent)
    late = await bot.ask(bram, "/afmelden 1 ziek")
    assert fits(late.text, "SIGNED_OFF_LATE", who="Bram de Boer", round=1)
    told = await bot.tg.next_to(ARBITER.id, meaning("LATE_TO_ARBITER", who="Bram de Boer",
                                                    round=1), after=mark)
    who = next(u for u in members if fits(told.text, "LATE_PAIRED",
                                          opponent=f"{u.first_name} {u.last_name}"))
    await bot.tg.next_to(who.id, says("LATE_TO_OPPONENT", who="Bram de Boer", round=1),
                         after=mark)


async def test_arbiter_signs_off_for_a_member_with_a_reason(bot, members):
    await set_up_club(bot, members, rounds=1)
    answer = await bot.ask(ARBITER, "/afmelden Cor Jansen extern-clubavond")
    assert fits(answer.text, "SIGNED_OFF", who="Cor Jansen", round=1,
                kind=Text("SIGNED_OFF_FOR", pick=CompensationKind.EXTERNAL_CLUB_NIGHT))
    assert fits(answer.text, "EARNS", whom="Cor Jansen ", fraction="66%")


async def test_the_deadline_is_processed_once_however_often_the_job_fires(bot, members):
    await set_up_club(bot, members, rounds=1)
    await pass_deadline(bot, 1)
    await bot.ticks(5)  # five more ticks, each one looking at the deadline
    assert len(drafts(bot, 1)) == 1


async def test_restart_between_deadline_and_publication(bot, members):
    await set_up_club(bot, members, rounds=1)
    first = await pass_deadline(bot, 1)
    await bot.stop()
    await bot.start()
    await bot.settled()
    assert len(drafts(bot, 1)) == 1  # not paired again
    post = await publish(bot, 1)
    assert post.text.count(pairing_title(1)) == 1 and pairing_title(1) in first.text


async def test_a_deadline_missed_while_down_is_processed_at_start(bot, members):
    await set_up_club(bot, members, rounds=1)
    await bot.ask(members[0], "/afmelden")
    await bot.stop()
    bot.clock.now = bot.clock.now.replace(month=12, day=5)  # two days past the deadline
    await bot.start()
    draft = await bot.tg.wait_for(lambda s: s.chat_id == ARBITER.id and
                                  drafted(1) in s.text)
    boards = [x for x in draft.plain.splitlines() if re.match(r"\d+\. ", x)]
    assert boards and not any("Anna" in x for x in boards)


async def test_a_non_arbiter_tries_every_arbiter_command(bot, members):
    await set_up_club(bot, members, rounds=1)
    outsider = members[2]
    for text in ["/indeling maak", "/indeling bevestig", "/indeling opnieuw",
                 "/indeling bye Anna", "/indeling ruil Anna Bram", "/uitslag 1 1-0",
                 "/speler nieuw Piet", "/speler weg Anna", "/spelers", "/ronde",
                 "/ronde nieuw 1-1-2027", "/club", "/arbiter 103", "/instellingen",
                 "/instellingen start 19:00", "/extern Anna 1 1"]:
        answer = await bot.ask(outsider, text)
        assert answer.text in (says("ONLY_ARBITER"), says("UITSLAG_ONLY_OWN")), text
    # Nothing changed: still one round, still not drafted, still not an arbiter.
    schedule = await bot.ask(ARBITER, "/ronde")
    lines = [line for line in schedule.text.splitlines() if fits(line, "RONDE_LINE")]
    assert len(lines) == 1 and fits(lines[0], "RONDE_LINE", round=1,
                                    state=Text("STATE_WORDS", pick=RoundState.PLANNED))


async def test_a_member_cannot_report_a_game_that_is_not_his(bot, members):
    await set_up_club(bot, members, rounds=1)
    await bot.ask(members[5], "/afmelden")
    await pass_deadline(bot, 1)
    post = await publish(bot, 1)
    answer = await bot.ask(members[5], "/uitslag 1-0", chat_id=GROUP, reply_to=post)
    assert answer.text == refused(StoreProblem.NOT_IN_GAME, player="Femke Kok", round=1)


async def test_conflicting_results_go_to_the_arbiter(bot, members):
    await set_up_club(bot, members, rounds=1)
    await pass_deadline(bot, 1)
    post = await publish(bot, 1)
    white_name, black_name = boards(post.text)[0]
    by_name = {f"{u.first_name} {u.last_name}": u for u in members}
    white, black = by_name[white_name], by_name[black_name]
    await bot.ask(white, "/uitslag 1-0", chat_id=GROUP, reply_to=post)
    mark = len(bot.tg.sent)
    clash = await bot.ask(black, "/uitslag 0-1", chat_id=GROUP, reply_to=post)
    assert fits(clash.text, "RESULT_CONFLICT", opponent=white_name, round=1, board=1)
    await bot.tg.next_to(ARBITER.id, meaning("CONFLICT_TO_ARBITER", round=1, board=1),
                         after=mark)
    settled = await bot.ask(ARBITER, "/uitslag 1 1/2-1/2")
    assert settled.text == says("RESULT_FINAL", round=1, board=1, words=Text(
        "RESULT_WORDS", {"white": white_name, "black": black_name}, pick="1/2-1/2"))


async def test_a_member_who_blocked_the_bot_does_not_stop_publication(bot, members):
    await set_up_club(bot, members, rounds=1)
    await pass_deadline(bot, 1)
    bot.tg.fail_next("sendMessage", 403, chat_id=members[3].id)
    bot.tg.fail_next("sendMessage", 429, chat_id=members[4].id, retry_after=1)
    mark = len(bot.tg.sent)
    answer = await bot.ask(ARBITER, "/indeling bevestig", timeout=20)
    assert answer.text == texts.publish_note(words("nl"), 1, 6)
    # The arbiter hears, by name, whom the pairing did not reach; only once.
    blocked = says("UNDELIVERABLE", who="Daan Smit", reason=Text("UNDELIVERABLE_BLOCKED"))
    await bot.tg.next_to(ARBITER.id, blocked, after=mark)
    # The 429 was retried: Eva still got her board, and everyone else theirs.
    personal = meaning("PERSONAL_PAIRING", round=1)
    await bot.tg.next_to(members[4].id, personal, after=mark)
    reached = {s.chat_id for s in bot.tg.sent[mark:] if personal(s.text)}
    assert reached == {m.id for m in members} - {members[3].id}
    assert heard(bot.tg.to(ARBITER.id), "UNDELIVERABLE") == 1


async def test_group_commands_with_the_bot_name_and_edited_messages(bot, members):
    await set_up_club(bot, members, rounds=1)
    answer = await bot.ask(members[0], "/stand@keizerbot", chat_id=GROUP)
    assert answer.text == says("STAND_EMPTY")
    mark = len(bot.tg.sent)
    bot.says(members[0], "/afmelden", edited=True)
    edited = await bot.tg.wait_for(lambda s: s.chat_id == members[0].id, after=mark)
    assert edited.text == says("EDITED")


async def test_unlinked_users_are_asked_who_they_are(bot):
    stranger = User(555, "Onbekend")
    answer = await bot.ask(stranger, "/afmelden")
    assert answer.text == says("NOT_LINKED")
    answer = await bot.ask(stranger, "/ik Zorro")
    assert answer.text == says("IK_UNKNOWN", name="Zorro")


MALFORMED = ["/afmelden morgen", "/afmelden 99", "/afmelden 31-2", "/afmelden van t/m",
             "/uitslag", "/uitslag 2-0", "/uitslag 1-0 1-0", "/uitslag ½-1", "/stand jij",
             "/indeling zomaar", "/ik", "/aanmelden 77", "/mijn extra", "/onbekend", "hallo",
             "/uitslag remise remise", "/afmelden 1 t/m", "/afmelden 0", "/stand mij mij",
             "/afmelden -5", "/ik " + "x" * 300, "/afmelden " + "1 " * 50, "/uitslag +-"]


async def test_every_malformed_message_is_answered_for_member_and_stranger(bot, members):
    await set_up_club(bot, members, rounds=1)
    for user in (members[0], User(777, "Vreemd")):
        for text in MALFORMED:
            mark = len(bot.tg.sent)
            bot.says(user, text)
            answer = await bot.tg.wait_for(lambda s, u=user: s.chat_id == u.id, after=mark)
            assert answer.text, (user.first_name, text)
    alive = await bot.ask(members[0], "/help")
    assert alive.text.startswith(says("START"))


async def test_a_sign_off_sent_in_time_but_read_after_the_draft_repairs_the_draft(bot, members):
    await set_up_club(bot, members, rounds=1)
    sent_before = bot.clock.now  # still before the deadline
    first = await pass_deadline(bot, 1)
    assert "Anna Visser" in first.plain
    mark = len(bot.tg.sent)
    # The member sent it before the deadline; the bot reads it only now.
    answer = await bot.ask(members[0], "/afmelden", date=sent_before.timestamp())
    assert fits(answer.text, "SIGNED_OFF", who="Anna Visser", round=1)
    assert not fits(answer.text, "SIGNED_OFF_LATE")  # sent in time, read late
    redraft = await bot.tg.next_to(ARBITER.id, says("DRAFT_UPDATED", round=1), after=mark)
    assert all("Anna" not in white + black for white, black in boards(redraft.text))
    post = await publish(bot, 1)
    assert all("Anna" not in white + black for white, black in boards(post.text))


async def test_signing_off_rounds_ahead(bot, members):
    await set_up_club(bot, members, rounds=3)
    answer = await bot.ask(members[0], "/afmelden van 2 t/m 3 vakantie")
    assert [fits(line, "SIGNED_OFF", round=n) for n, line in
            zip((2, 3), answer.plain.splitlines(), strict=True)] == [True, True]
    assert fits(answer.plain, "EARNS_LATER", whom="", fraction="33%")
    assert not fits(answer.plain, "EARNS_CAP")  # two of ten: the cap does not bite
    mine = await bot.ask(members[0], "/mijn")
    assert says("MIJN_SIGNOFFS", rounds="2, 3") in mine.plain
