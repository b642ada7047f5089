"""The club's teams through the bot (issue 49): a season of two teams for each preset, and
what a captain or a member meets when he types something wrong."""

from __future__ import annotations

import json

import pytest

from storage.club_file import export_club, import_club
from tests.bot.conftest import club_bot, new_store
from tests.bot.team_season import PRESETS, play, season_for


@pytest.mark.parametrize("preset", PRESETS)
async def test_a_club_with_two_teams_plays_its_season(tg, tmp_path, processes, members, preset):
    bot = await club_bot(tg, tmp_path / "keizer.db", processes, season=season_for(preset))
    try:
        await play(bot, members)
        # The club file holds the teams too: export, import elsewhere, export the same.
        written = await export_club(bot.app.bot_data.db)
        assert [t["name"] for t in json.loads(written)["teams"]] == ["Eerste", "Tweede"]
        copy = await new_store(tmp_path / "copy.db")
        try:
            await import_club(copy, written)
            assert await export_club(copy) == written
        finally:
            await copy.close()
    finally:
        await bot.stop()




@pytest.mark.parametrize("language", ["nl", "en"])
async def test_a_captain_who_types_it_wrong_is_told_what_is_wrong(bot, members, language):
    """Each refusal a captain and a member meet, in his language: what the command needs,
    and nothing stored."""
    from bot.language.notice import Text
    from tests.bot.conftest import ARBITER, said, stored_rows
    from tests.bot.steps import set_up_club
    from tests.meaning import meaning

    anna, bram = members[0], members[1]
    await set_up_club(bot, members, rounds=2)
    await bot.ask(ARBITER, "/team nieuw 1 Eerste")
    await bot.ask(ARBITER, "/team 1 aanvoerder Anna Visser")
    if language == "en":
        for user in (anna, bram):
            await bot.ask(user, "/taal en")
    cases = [
        (anna, "/team 1 opstelling", Text("TEAM_NO_MATCH", {"team": "Eerste"})),
        (anna, "/team 1 uitslag 1 0", Text("TEAM_NO_LINEUP", {"team": "Eerste"})),
        (anna, "/team 1 wedstrijd 31-2 thuis De Toren 8", Text("BAD_DATE", {"text": "31-2"})),
        (bram, "/team 1 vraag", Text("TEAM_ONLY_CAPTAIN", {"team": "Eerste"})),
        (bram, "/team nieuw 2 Tweede", Text("ONLY_ARBITER")),
        (anna, "/team 1 spelers Anna Visser, Niemand", Text("WHO_UNKNOWN", {"name": "Niemand"})),
    ]
    before = await stored_rows(bot.app.bot_data.db, ("team", "team_player", "team_match"))
    for user, typed, meant in cases:
        assert (await bot.ask(user, typed)).text == said(meant, language), typed
    assert await stored_rows(bot.app.bot_data.db, ("team", "team_player", "team_match")) \
        == before
    await bot.ask(anna, "/team 1 wedstrijd 3-12-2026 thuis De Toren 2")
    await bot.settled()
    for user, typed, meant in [
        (anna, "/team 1 opstelling Anna Visser, Anna Visser",
         Text("TEAM_LINEUP_BAD", {"boards": 2})),
        (anna, "/team 1 opstelling Anna Visser, Bram de Boer, Cor Jansen",
         Text("TEAM_LINEUP_BAD", {"boards": 2}))]:
        assert (await bot.ask(user, typed)).text == said(meant, language), typed
    await bot.ask(anna, "/team 1 opstelling Anna Visser, Bram de Boer",
                  contains=meaning("TEAM_SIGNED_OFF", language, round=1))
    bot.clock.now = bot.clock.now.replace(month=12, day=4)
    refused = await bot.ask(anna, "/team 1 uitslag 1 ½ 0")
    assert refused.text == said(Text("TEAM_RESULTS_BAD", {"boards": 2}), language)
