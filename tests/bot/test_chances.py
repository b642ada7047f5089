"""Issue 36 over HTTP: `/stand kansen`, what is at stake. After a round, a member reads the
table's chances and his own (his next round for each result), worked out from the club's
season by the core (the same numbers); in the group only the table's; in English under the
English command."""

from __future__ import annotations

import re

from bot.demo.fakeapi import User
from core.chances import chances, next_round
from core.season import read_season
from storage.seasons import export_json
from tests.bot.conftest import GROUP, fits, meaning
from tests.bot.steps import pass_deadline, play_round, publish, set_up_club
from tests.bot.web import get, own_headers


async def test_what_is_at_stake_after_a_round(bot, members):
    await set_up_club(bot, members, rounds=3)
    await pass_deadline(bot, 1)
    await play_round(bot, members, 1, await publish(bot, 1))
    await bot.tg.next_to(GROUP, meaning("ROUND_COMPLETE", round=1))
    season = read_season(await export_json(bot.app.bot_data.db))
    found = chances(season)
    names = {p.id: p.name for p in season.players}
    bram = members[1]

    answer = await bot.ask(bram, "/stand kansen")
    assert fits(answer.text, "CHANCES_TITLE", round=1, left=found.rounds_left)
    leader = max(found.places, key=lambda code: found.places[code])
    assert fits(answer.text, "CHANCES_LINE", name=names[leader],
                first=round(100 * found.share(leader, 1)))
    likeliest = found.likeliest("p1")
    assert fits(answer.text, "CHANCES_YOU", place=likeliest,
                share=round(100 * found.share("p1", likeliest)))
    upcoming = next_round(season, "p1")
    assert upcoming is not None and upcoming.exact  # six players: every way tried
    assert fits(answer.text, "CHANCES_NEXT", opponent=names[upcoming.opponent],
                win=upcoming.win, draw=upcoming.draw, loss=upcoming.loss)
    assert fits(answer.text, "CHANCES_RANGE", best=upcoming.best, worst=upcoming.worst)
    assert fits(answer.text, "CHANCES_HOW", runs=found.runs)
    assert (await bot.ask(bram, "/stand kansen")).text == answer.text  # seeded: the same

    group = await bot.ask(bram, "/stand kansen", chat_id=GROUP)
    assert fits(group.text, "CHANCES_TITLE", round=1) and not fits(group.text, "CHANCES_YOU")

    english = User(members[2].id, "Cor", "Jansen", language_code="en-GB")
    answer = await bot.ask(english, "/standings chances")
    assert fits(answer.text, "CHANCES_TITLE", "en", round=1)
    assert fits(answer.text, "CHANCES_YOU", "en") and "kampioen" not in answer.text


async def test_the_season_page_shows_the_chart_of_his_final_place(web_bot, members):
    """The member's season in the Mini App: below his rounds, his chance of each final place,
    the same numbers as the chat's."""
    bot = web_bot
    await set_up_club(bot, members, rounds=3)
    anna = members[0]
    assert 'class="bars"' not in (await get(bot, "/mij-seizoen", **own_headers(bot, anna.id)))[1]
    await pass_deadline(bot, 1)
    await play_round(bot, members, 1, await publish(bot, 1))
    await bot.tg.next_to(GROUP, meaning("ROUND_COMPLETE", round=1))
    status, page, _ = await get(bot, "/mij-seizoen", **own_headers(bot, anna.id))
    found = chances(read_season(await export_json(bot.app.bot_data.db)))
    shown = {int(place): int(share) for place, share in re.findall(
        r'<span class="place">(\d+)</span><span class="bar"[^>]*></span>'
        r'<span class="share">(\d+)%</span>', page)}
    assert status == 200 and fits(page, "CHANCES_CHART")
    assert shown == {place: round(100 * found.share("p0", place))
                     for place in range(1, 7) if round(100 * found.share("p0", place))}
