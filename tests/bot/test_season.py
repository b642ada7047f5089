"""End to end over real HTTP: a club runs a season through the bot."""

from __future__ import annotations

import re

from bot.flows import rounds as round_flows
from bot.language import texts
from tests.bot.conftest import (
    ARBITER,
    GROUP,
    club_bot,
    drafted,
    fits,
    meaning,
    says,
)
from tests.bot.steps import pass_deadline, play_round, publish, set_up_club


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


async def test_the_standings_post_reads_no_season_of_its_own(bot, members):
    """Issue 48: the worker that makes the group's table has the season, and makes the titles
    and prizes the round decided too; the post, in its short transaction, reads no season
    (a whole season read there would hold every other member's update)."""
    from bot.flows import results

    await set_up_club(bot, members, rounds=1)
    await pass_deadline(bot, 1)
    post = await publish(bot, 1)
    await play_round(bot, members, 1, post)
    await bot.tg.next_to(GROUP, meaning("ROUND_COMPLETE", round=1))
    services = bot.app.bot_data
    db = services.db
    queue = bot.app.job_queue
    [tick] = queue.get_jobs_by_name("tick")
    await bot.ticks(1)  # one just ended, so none is under way while it is switched off:
    tick.enabled = False  # the tick posts what was not posted too; here the test does
    async with db.transaction() as conn:  # as if the bot died before it posted them
        await conn.execute("UPDATE round SET announced = 0")
    read: list[str] = []
    for conn in (db.writer, db.reader, db.bulk):
        await conn.raw.set_trace_callback(read.append)
    try:
        mark = len(bot.tg.sent)
        assert await results.post_standings(services) == [1]
    finally:
        for conn in (db.writer, db.reader, db.bulk):
            await conn.raw.set_trace_callback(None)
        tick.enabled = True
    await bot.tg.next_to(GROUP, meaning("ROUND_COMPLETE", round=1), after=mark)
    assert not [sql for sql in read if re.search(r"FROM game\b", sql)]
