"""End to end over real HTTP: a club runs a season through the bot."""

from __future__ import annotations

import datetime as dt
import re

from bot.flows import admin
from bot.flows import rounds as round_flows
from bot.language import texts
from bot.language.notice import Text
from storage import club, roster
from tests.bot.conftest import (
    ARBITER,
    GROUP,
    boards,
    club_bot,
    drafted,
    fits,
    meaning,
    pairing_title,
    said,
    says,
)


async def link_everyone(bot, members) -> None:
    """Each member says who he is; the arbiter approves with one tap."""
    await bot.ask(ARBITER, "/ik Wim")  # unknown name: the arbiter is not a player
    for user in members:
        mark = len(bot.tg.sent)
        name = f"{user.first_name} {user.last_name}"
        await bot.ask(user, f"/ik {name}", contains=says("IK_SENT", name=name))
        ask = await bot.tg.next_to(ARBITER.id, meaning("IK_ASK_ARBITER", name=name), after=mark)
        data = next(d for text, d in ask.buttons if text == says("IK_YES"))
        mark = len(bot.tg.sent)
        bot.tg.press(ARBITER, ask, data)
        welcome = await bot.tg.wait_for(lambda s, u=user: s.chat_id == u.id, after=mark)
        assert welcome.text == says("IK_WELCOME", name=name)


async def set_up_club(bot, members, rounds: int = 3, *, by_chat: bool = False) -> None:
    """Everyone linked, the club group set, `rounds` Thursdays from 3 December. `by_chat`
    does it as a club would, through the bot (the season test); the others take the short
    way through the same flows, since linking and planning have tests of their own."""
    if by_chat:
        await link_everyone(bot, members)
        answer = await bot.ask(ARBITER, "/club", chat_id=GROUP)
        assert answer.text == says("CLUB_SET")
        for k in range(rounds):
            answer = await bot.ask(ARBITER, f"/ronde nieuw {3 + 7 * k}-12-2026")
            assert fits(answer.text, "RONDE_ADDED", round=k + 1)
        return
    services = bot.app.bot_data
    for k, user in enumerate(members):
        await roster.link(services.db, f"p{k}", user.id, actor=ARBITER.id)
    await club.change_settings(services.db, actor=ARBITER.id, group_chat_id=GROUP)
    for k in range(rounds):
        await admin.plan_round(services, dt.date(2026, 12, 3 + 7 * k), actor=ARBITER.id)


async def pass_deadline(bot, number: int):
    """Move the clock past the round's deadline; the tick drafts it and tells the arbiter."""
    mark = len(bot.tg.sent)
    bot.clock.now = bot.clock.now.replace(year=2026, month=12, day=3 + 7 * (number - 1),
                                          hour=18)
    return await bot.tg.next_to(ARBITER.id, drafted(number), after=mark)


async def publish(bot, number: int):
    mark = len(bot.tg.sent)
    answer = await bot.ask(ARBITER, "/indeling bevestig")
    said_first = answer.text.split("\n")[0]  # unlinked players follow, by name
    assert any(said_first == texts.published(number, count) for count in range(50))
    return await bot.tg.next_to(GROUP, pairing_title(number), after=mark)


async def play_round(bot, members, number: int, post) -> None:
    """Each white player reports 1-0 replying to the pairing; black confirms by button."""
    by_name = {f"{u.first_name} {u.last_name}": u for u in members}
    for board, (white, black) in enumerate(boards(post.text), start=1):
        mark = len(bot.tg.sent)
        answer = await bot.ask(by_name[white], "/uitslag 1-0", chat_id=GROUP, reply_to=post)
        words = Text("RESULT_WORDS", {"white": white, "black": black}, pick="1-0")
        facts = {"round": number, "board": board, "words": words}
        assert answer.text == said(Text("RESULT_RECORDED", {**facts, "opponent": black}))
        asked = said(Text("CONFIRM_ASK", {**facts, "reporter": white}))
        ask = await bot.tg.wait_for(lambda s, b=by_name[black], t=asked: s.chat_id == b.id and
                                    s.text == t, after=mark)
        bot.tg.press(by_name[black], ask, ask.buttons[0][1])
        await bot.tg.edited(ask, said(Text("CONFIRMED", {"words": words})))


async def test_a_three_round_season_from_linking_to_final_standings(bot, members):
    await set_up_club(bot, members, by_chat=True)
    # Round 1: Femke signs off in time.
    answer = await bot.ask(members[5], "/afmelden")
    assert fits(answer.text, "SIGNED_OFF", who="Femke Kok", round=1)
    assert fits(answer.text, "EARNS", fraction="33%")
    for number in (1, 2, 3):
        mark = len(bot.tg.sent)
        draft = await pass_deadline(bot, number)
        assert fits(draft.text, "INDELING_DRAFT_TITLE")
        post = await publish(bot, number)
        personal = [s for s in bot.tg.sent[mark:] if s.chat_id in {u.id for u in members}
                    and (fits(s.text, "PERSONAL_PAIRING", round=number)
                         or fits(s.text, "PERSONAL_BYE", round=number))]
        present = 5 if number == 1 else 6
        assert len(personal) == present  # every present player, his board or his bye
        mark = len(bot.tg.sent)
        await play_round(bot, members, number, post)
        standings = await bot.tg.next_to(GROUP, meaning("ROUND_COMPLETE", round=number),
                                         after=mark)
        assert " ".join(texts.COMPACT_COLUMNS) in re.sub(r" +", " ", standings.plain)
    title = await bot.tg.wait_for(lambda s: s.chat_id == GROUP and any(
        fits(s.text, key) for key in ("CHAMPION", "PLAYOFF_MATCH", "PLAYOFF_ROUND_ROBIN")))
    assert "Anna" in title.text or "Bram" in title.text or "Cor" in title.text or \
        "Daan" in title.text or "Eva" in title.text or "Femke" in title.text
    final = await bot.ask(members[0], "/stand")
    assert says("STANDINGS_TITLE", round=3) in final.text
    table = [line.split() for line in final.text.splitlines() if re.match(r"\s*\d+\s", line)]
    assert len(table) == 6
    assert final.plain.splitlines()[2].split() == list(texts.COMPACT_COLUMNS)
    mine = await bot.ask(members[0], "/stand mij")
    assert fits(mine.text, "BREAKDOWN_HEAD", name="Anna Visser", round=3)
    assert says("BREAKDOWN_TOTAL") in mine.text


async def test_the_result_that_completes_a_round_brings_its_standings_without_the_tick(
        tg, tmp_path, members, processes):
    """Issue 34: the flow that completes a round says so, and its standings follow that
    commit (made by the worker `/stand` asks), not the next tick, which here comes once an
    hour."""
    bot = await club_bot(tg, tmp_path / "keizer.db", processes, tick_seconds=3600)
    try:
        await set_up_club(bot, members, rounds=1)
        bot.clock.now = bot.clock.now.replace(month=12, day=3, hour=18)
        await round_flows.tick(bot.app.bot_data)  # the deadline, as the tick would meet it
        await bot.tg.next_to(ARBITER.id, drafted(1))
        post = await publish(bot, 1)
        mark = len(bot.tg.sent)
        await play_round(bot, members, 1, post)
        standings = await bot.tg.next_to(GROUP, meaning("ROUND_COMPLETE", round=1), after=mark)
        shown = await bot.ask(members[0], "/stand")
        # The group's table is the worker's: the rows /stand shows, in the same order.
        assert standings.text.split("Pos", 1)[1].splitlines()[1:4] == \
            shown.text.split("Pos", 1)[1].splitlines()[1:4]
    finally:
        await bot.stop()
