"""Issue 12: who may do what. Every arbiter command from a member, a stranger and a member in
the group, and every member action against another member's name or game, is refused in
Dutch and changes nothing: the whole store (the season export and the bot's own tables) is
the same before and after."""

from __future__ import annotations

from bot.callbacks import Link, NightRound, NoLink, Rating, Swap, TakeOver
from bot.language import texts
from storage.seasons import export_json
from tests.bot.conftest import (
    ARBITER,
    GROUP,
    STRANGER,
    boards,
    confirm_question,
    meaning,
    says,
    stored_rows,
)
from tests.bot.steps import pass_deadline, publish, set_up_club

ARBITER_COMMANDS = [
    "/indeling maak", "/indeling opnieuw", "/indeling bevestig", "/indeling wis",
    "/indeling bye Anna Visser", "/indeling ruil Anna Visser en Bram de Boer",
    "/indeling afwezig Anna Visser", "/indeling erbij Anna Visser",
    "/speler Anna Visser flexibel", "/seizoen nieuw", "/seizoen nieuw bevestig",
    "/speler nieuw Piet Puk", "/speler weg Anna Visser", "/spelers", "/ronde",
    "/ronde nieuw 1-1-2027", "/ronde uitstel 2 12-12-2026", "/ronde vervalt 2", "/club",
    "/arbiter 777", "/arbiter weg 1", "/instellingen", "/instellingen start 19:00",
    "/instellingen deadline 60", "/instellingen regel top_value 10",
    "/instellingen reglement drie-cycli", "/extern Anna Visser 1 1", "/export",
    "/export trf", "/export vorig", "/instellingen web uit",
    "/uitslag 1 1-0", "/uitslag 1 0-1 ronde 1",
]
REFUSED = (texts.ONLY_ARBITER, texts.UITSLAG_ONLY_OWN)


async def everything(bot) -> tuple[str, list]:
    db = bot.app.bot_data.db
    tables = await stored_rows(db, ("round", "signoff", "player", "club", "arbiter", "season",
                                    "game"))
    return await export_json(db), tables


async def test_no_arbiter_command_works_for_anyone_else(bot, members):
    await set_up_club(bot, members, rounds=2)
    await pass_deadline(bot, 1)
    await publish(bot, 1)
    before = await everything(bot)
    member = members[2]
    for text in ARBITER_COMMANDS:
        for who, chat in ((member, None), (STRANGER, None), (member, GROUP)):
            answer = await bot.ask(who, text, chat_id=chat or who.id)
            assert answer.text in REFUSED, (who.first_name, chat, text, answer.text)
    assert await everything(bot) == before


async def test_a_member_acts_only_for_himself(bot, members):
    await set_up_club(bot, members, rounds=2)
    await pass_deadline(bot, 1)
    post = await publish(bot, 1)
    by_name = {f"{u.first_name} {u.last_name}": u for u in members}
    (white, black), (other, _) = boards(post.text)[:2]
    before = await everything(bot)
    outsider = by_name[other]
    for text, refusal in [
            (f"/afmelden {white} 2", texts.ONLY_YOURSELF.format(name=white)),
            (f"/aanmelden {white} 2", texts.ONLY_YOURSELF.format(name=white)),
            ("/uitslag 1 1-0", texts.UITSLAG_ONLY_OWN)]:
        assert (await bot.ask(outsider, text)).text == refusal, text
    # A member taps the arbiter's link buttons: refused, nobody linked.
    mark = len(bot.tg.sent)
    await bot.ask(STRANGER, "/ik Eva Bos", contains=says("IK_SENT", name="Eva Bos"))
    link = await bot.tg.next_to(ARBITER.id, meaning("IK_ASK_ARBITER", name="Eva Bos"),
                                after=mark)
    answered = len(bot.tg.answered)
    bot.tg.press(outsider, link, link.buttons[0][1])
    assert await bot.tg.toast(answered) == texts.ONLY_ARBITER
    assert await everything(bot) == before
    # White reports; the stranger and a player of another board press black's button.
    mark = len(bot.tg.sent)
    await bot.ask(by_name[white], "/uitslag 1-0", chat_id=GROUP, reply_to=post)
    ask = await confirm_question(bot.tg, by_name[black].id, after=mark)
    reported = await everything(bot)
    for who in (STRANGER, outsider, by_name[white]):
        answered = len(bot.tg.answered)
        bot.tg.press(who, ask, ask.buttons[0][1])
        assert await bot.tg.toast(answered) == texts.NOT_YOUR_BUTTON, who
    assert ask.edits == []
    assert await everything(bot) == reported


async def test_an_arbiters_button_pressed_by_a_member_changes_nothing(bot, members):
    """Every button the room declares the arbiter's (a swap, the round meant, a link, a
    rating list's decision) answers anyone else with the refusal, and stores nothing, even
    with data forged to look like the arbiter's."""
    await set_up_club(bot, members, rounds=1)
    before = await everything(bot)
    sent = await bot.ask(members[0], "/help")
    for data in (Swap("a" * 12, "b" * 12), NightRound("afwezig", 1, "c" * 12),
                 Link("p1", members[0].id), TakeOver("p1", members[0].id),
                 NoLink(members[0].id), Rating(1, "ok")):
        answered = len(bot.tg.answered)
        bot.tg.press(members[0], sent, data.pack())
        assert await bot.tg.toast(answered) == texts.ONLY_ARBITER, data
    assert await everything(bot) == before
