"""A club's season through the bot, step by step: the club set up, a deadline passed, a round
published and played, what a round's absences and games are (shared by the bot tests)."""

from __future__ import annotations

import datetime as dt

from bot.flows import admin
from bot.language import texts
from bot.language.i18n import words
from bot.language.notice import Text
from core.season import read_season
from storage import club, roster
from storage.seasons import export_json
from tests.bot.conftest import (
    ARBITER,
    GROUP,
    boards,
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
    async with services.db.transaction():  # one commit: 10 ms of CPU less a test
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
    assert any(said_first == texts.publish_note(words("nl"), number, count) for count in range(50))
    return await bot.tg.next_to(GROUP, pairing_title(number), after=mark)


async def play_round(bot, members, number: int, post) -> None:
    """Each white player reports 1-0 replying to the pairing; black confirms by button."""
    by_name = {f"{u.first_name} {u.last_name}": u for u in members}
    for board, (white, black) in enumerate(boards(post.text), start=1):
        mark = len(bot.tg.sent)
        # Its answer, not whatever the group hears next (round before's standings, a team's
        # result: posted by the bot's jobs whenever they run).
        answer = await bot.ask(by_name[white], "/uitslag 1-0", chat_id=GROUP, reply_to=post,
                               contains=meaning("RESULT_RECORDED", round=number, board=board))
        words = Text("RESULT_WORDS", {"white": white, "black": black}, pick="1-0")
        facts = {"round": number, "board": board, "words": words}
        assert answer.text == said(Text("RESULT_RECORDED", {**facts, "opponent": black}))
        asked = said(Text("CONFIRM_ASK", {**facts, "reporter": white}))
        ask = await bot.tg.wait_for(lambda s, b=by_name[black], t=asked: s.chat_id == b.id and
                                    s.text == t, after=mark)
        bot.tg.press(by_name[black], ask, ask.buttons[0][1])
        await bot.tg.edited(ask, said(Text("CONFIRMED", {"words": words})))


async def round_absences(bot, number: int) -> dict[str, str]:
    season = read_season(await export_json(bot.app.bot_data.db))
    names = {p.id: p.name for p in season.players}
    return {names[a.player]: a.reason.value for a in season.round(number).absent}


async def tap(bot, user, message, choice: str) -> dict:
    """Press a reminder button; the answer Telegram got for it (text, alert, url)."""
    answered = len(bot.tg.answered)
    bot.tg.press(user, message, f"att:v1:1:{choice}")
    await bot.tg.toast(answered)
    return bot.tg.answered[answered]


async def games_of(bot, number: int) -> list[tuple[str, str, str | None]]:
    season = read_season(await export_json(bot.app.bot_data.db))
    names = {p.id: p.name for p in season.players}
    return [(names[g.white], names[g.black], None if g.result is None else g.result.value)
            for g in season.round(number).games]


