"""Issue 15 over HTTP: /agenda sends the rounds as a calendar file; in private with the
member's own games once they are published."""

from __future__ import annotations

from icalendar import Calendar

from bot.language import texts
from tests.bot.conftest import GROUP, boards
from tests.bot.steps import pass_deadline, publish, set_up_club


async def agenda(bot, user, chat=None):
    mark = len(bot.tg.sent)
    bot.says(user, "/agenda", chat_id=chat or user.id)
    sent = await bot.tg.wait_for(lambda s: s.chat_id == (chat or user.id), after=mark)
    assert sent.method == "sendDocument" and sent.filename == "keizer-agenda.ics"
    return sent, Calendar.from_ical(sent.data).walk("VEVENT")


async def test_the_agenda_holds_every_round_and_my_games(bot, members):
    await set_up_club(bot, members, rounds=3)
    sent, events = await agenda(bot, members[0])
    assert sent.text == texts.AGENDA_CAPTION_OWN
    assert [str(e["summary"]) for e in events] == [
        f"Testclub: ronde {k}" for k in (1, 2, 3)]
    await pass_deadline(bot, 1)
    post = await publish(bot, 1)
    (white, black), *_ = boards(post.text)
    by = {f"{u.first_name} {u.last_name}": u for u in members}
    _, events = await agenda(bot, by[white])
    assert str(events[0]["summary"]) == f"Testclub: ronde 1: met wit tegen {black} (bord 1)"
    assert str(events[1]["summary"]) == "Testclub: ronde 2"
    sent, events = await agenda(bot, by[white], GROUP)  # the group's calendar names nobody
    assert sent.text == texts.AGENDA_CAPTION
    assert str(events[0]["summary"]) == "Testclub: ronde 1"


async def test_no_dated_round_yet(bot, members):
    await set_up_club(bot, members, rounds=0)
    answer = await bot.ask(members[0], "/agenda")
    assert answer.text == texts.AGENDA_NONE
