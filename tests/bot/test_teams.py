"""The club's teams through the bot (issue 49): a season of two teams for each preset, and
what a captain or a member meets when he types something wrong."""

from __future__ import annotations

import datetime as dt
import json

import pytest
from icalendar import Calendar

from bot.language.notice import Dated, Text
from core.season import Absence, AbsenceReason, ExternalDay, read_season
from storage.club_file import export_club, import_club
from storage.seasons import export_json
from tests.bot.conftest import ARBITER, club_bot, fits, said, stored_rows
from tests.bot.steps import set_up_club
from tests.bot.team_season import PRESETS, answer, asks, play, season_for
from tests.bot.web import get, own_headers, plain
from tests.meaning import meaning
from tests.stores import new_store


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
        (anna, "/team 1 wedstrijd 3-12-2026 thuis De Toren 0", Text("TEAM_USAGE")),
    ]
    before = await stored_rows(bot.app.bot_data.db, ("team", "team_player", "team_match"))
    for user, typed, meant in cases:
        assert (await bot.ask(user, typed)).text == said(meant, language), typed
    assert await stored_rows(bot.app.bot_data.db, ("team", "team_player", "team_match")) \
        == before
    await bot.ask(anna, "/team 1 wedstrijd 3-12-2026 thuis De Toren 2")
    await bot.settled()
    nobody = await bot.ask(anna, "/team 1 opstelling")  # nobody answered yet
    assert nobody.text == said(Text("TEAM_LINEUP_PROPOSAL", {
        "match": Text("TEAM_MATCH", {"team": "Eerste", "date": Dated(dt.date(2026, 12, 3)),
                                     "place": Text("TEAM_HOME", pick=True),
                                     "opponent": "De Toren", "boards": 2}),
        "boards": Text("TEAM_NO_PLAYERS"), "short": 2}, pick=True), language)
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


async def test_a_players_team_matches_stand_beside_his_rounds(bot, members):
    """`/mijn` names his coming team match (his board once the lineup names him), and his
    calendar file holds it as a day's event beside the club's rounds."""


    anna, bram, cor = members[:3]
    await set_up_club(bot, members, rounds=2)
    await bot.ask(ARBITER, "/team nieuw 1 Eerste")
    await bot.ask(ARBITER, "/team 1 aanvoerder Anna Visser")
    await bot.ask(anna, "/team 1 spelers Anna Visser, Bram de Boer")
    await bot.ask(anna, "/team 1 wedstrijd 12-12-2026 uit Het Paard 2")
    match = Text("TEAM_MATCH", {"team": "Eerste", "date": Dated(dt.date(2026, 12, 12)),
                                "place": Text("TEAM_HOME", pick=False),
                                "opponent": "Het Paard", "boards": 2})
    mine = await bot.ask(bram, "/mijn")
    assert said(Text("TEAM_MINE", {"match": match}, pick=False)) in mine.text
    assert "Het Paard" not in (await bot.ask(cor, "/mijn")).text  # not his team
    await bot.ask(anna, "/team 1 opstelling Bram de Boer, Anna Visser",
                  contains=meaning("TEAM_SIGNED_OFF", round=2))
    mine = await bot.ask(bram, "/mijn")
    assert said(Text("TEAM_MINE", {"match": match, "board": 1}, pick=True)) in mine.text
    mark = len(bot.tg.sent)
    bot.says(bram, "/agenda", chat_id=bram.id)
    sent = await bot.tg.wait_for(lambda s: s.chat_id == bram.id and s.filename, after=mark)
    events = Calendar.from_ical(sent.data).walk("VEVENT")
    assert [str(e["summary"]) for e in events] == [
        "Testclub: ronde 1", "Testclub: ronde 2", "Eerste uit bij Het Paard"]
    assert events[2].decoded("dtstart") == dt.date(2026, 12, 12)



async def test_the_club_chooses_how_long_before_a_match_its_players_are_asked(bot, members):
    """`/instellingen teamvraag 3`: a match's players are asked three days before, not
    the week the club starts with; once, however many ticks pass."""
    anna, bram = members[:2]
    await set_up_club(bot, members, rounds=0)
    await bot.ask(ARBITER, "/team nieuw 1 Eerste")
    await bot.ask(ARBITER, "/team 1 aanvoerder Anna Visser")
    await bot.ask(anna, "/team 1 spelers Anna Visser, Bram de Boer")
    assert (await bot.ask(ARBITER, "/instellingen teamvraag 3")).text == \
        said(Text("INSTELLINGEN_DONE"))
    shown = await bot.ask(ARBITER, "/instellingen")
    assert meaning("SETTINGS_TEAM_ASK", days=3)(shown.text)
    mark = len(bot.tg.sent)
    await bot.ask(anna, "/team 1 wedstrijd 12-12-2026 uit Het Paard 2")
    bot.clock.now = dt.datetime(2026, 12, 8, 10, 0, tzinfo=dt.UTC)
    await bot.settled()
    assert not [s for s in bot.tg.sent[mark:] if asks(bram)(s)]
    bot.clock.now = dt.datetime(2026, 12, 9, 10, 0, tzinfo=dt.UTC)
    await bot.tg.wait_for(asks(bram), after=mark)
    bot.clock.now = dt.datetime(2026, 12, 10, 10, 0, tzinfo=dt.UTC)
    await bot.settled()
    assert len([s for s in bot.tg.sent[mark:] if asks(bram)(s)]) == 1



async def test_a_captain_sends_the_federations_schedule_as_a_file(bot, members):
    """The season's schedule at once: the captain sends the competition site's CSV in
    private, and his team's matches are noted (home or away, the opponent); another team's
    lines are not his to enter. Sent again, nothing is noted twice."""
    anna = members[0]
    await set_up_club(bot, members, rounds=0)
    for command in ("/team nieuw 1 Eerste", "/team nieuw 2 Tweede",
                    "/team 1 aanvoerder Anna Visser", "/team 2 aanvoerder Cor Jansen"):
        await bot.ask(ARBITER, command)
    schedule = (b"Ronde;Datum;Thuis;Uit\n1;12-12-2026;Het Paard 1;Testclub\n"
                b"1;12-12-2026;Testclub 2;De Toren 3\n2;09-01-2027;Testclub 1;Schaakmat 1\n"
                b"2;09-01-2027;De Toren 3;Het Paard 1\n")
    for known in (0, 2):
        mark = len(bot.tg.sent)
        bot.tg.user_sends_file(anna, "programma.csv", schedule)
        read = await bot.tg.wait_for(lambda s: s.chat_id == anna.id, after=mark)
        assert read.text == said(Text("TEAM_SCHEDULE_READ", {
            "added": 2 - known, "known": known, "others": 2}))
    shown = await bot.ask(anna, "/team 1")
    assert said(Text("TEAM_HOME", pick=False)) + " Het Paard 1" in shown.text
    stranger = members[4]
    mark = len(bot.tg.sent)
    bot.tg.user_sends_file(stranger, "programma.csv", schedule)
    refused = await bot.tg.wait_for(lambda s: s.chat_id == stranger.id, after=mark)
    assert refused.text == said(Text("FILE_ONLY_ARBITER"))


async def test_an_english_captain_leads_his_team_in_english(bot, members):
    """`/team` is one name in both languages; an English-speaking captain types its words
    and dates in English and is answered in English."""
    anna = members[0]
    await set_up_club(bot, members, rounds=2)
    await bot.ask(ARBITER, "/team nieuw 1 Eerste")
    await bot.ask(ARBITER, "/team 1 captain Anna Visser")
    await bot.ask(anna, "/taal en")
    set_players = await bot.ask(anna, "/team 1 players Anna Visser, Bram de Boer")
    assert set_players.text == said(Text("TEAM_PLAYERS_SET", {
        "team": "Eerste", "names": "Anna Visser, Bram de Boer"}), "en")
    added = await bot.ask(anna, "/team 1 match Sat 12 Dec away Het Paard 4")
    assert added.text == said(Text("TEAM_MATCH_ADDED", {"match": Text("TEAM_MATCH", {
        "team": "Eerste", "date": Dated(dt.date(2026, 12, 12)),
        "place": Text("TEAM_HOME", pick=False), "opponent": "Het Paard", "boards": 4})}), "en")
    proposal = await bot.ask(anna, "/team 1 lineup")
    assert proposal.text.startswith("Lineup Eerste plays Sat 12 Dec away at Het Paard")


async def test_the_captain_sees_who_can_play_in_the_mini_app(web_bot, members):
    """His page in the Mini App holds his team's next match and who said yes, no or
    nothing yet, as the answers come in; a member of no team sees none of it."""
    bot = web_bot
    anna, bram, cor = members[:3]
    await set_up_club(bot, members, rounds=2)
    await bot.ask(ARBITER, "/team nieuw 1 Eerste")
    await bot.ask(ARBITER, "/team 1 aanvoerder Anna Visser")
    await bot.ask(anna, "/team 1 spelers Anna Visser, Bram de Boer, Cor Jansen")
    mark = len(bot.tg.sent)
    await bot.ask(anna, "/team 1 wedstrijd 3-12-2026 thuis Schaakmat 3")
    await answer(bot, bram, await bot.tg.wait_for(asks(bram), after=mark), True)
    await answer(bot, cor, await bot.tg.wait_for(asks(cor), after=mark), False)
    await bot.settled()
    status, page, _ = await get(bot, "/mij", **own_headers(bot, anna.id))
    shown = plain(page)
    match = Text("TEAM_MATCH", {"team": "Eerste", "date": Dated(dt.date(2026, 12, 3)),
                                "place": Text("TEAM_HOME", pick=True),
                                "opponent": "Schaakmat", "boards": 3})
    assert status == 200 and said(match) in shown
    for key, name in (("TEAM_GRID_YES", "Bram de Boer"), ("TEAM_GRID_NO", "Cor Jansen"),
                      ("TEAM_GRID_WAITING", "Anna Visser")):
        assert said(Text(key, {"names": name})) in shown
    other = plain((await get(bot, "/mij", **own_headers(bot, members[4].id)))[1])
    assert "Schaakmat" not in other


async def setup_two_teams(bot, members) -> None:
    """Two teams, Anna and Cor their captains, Anna and Bram regulars of the first, Cor and
    Daan of the second; Eva and Femke willing to substitute."""
    anna, _, cor, _, eva, femke = members
    await set_up_club(bot, members, rounds=2)
    for command in ("/team nieuw 1 Eerste", "/team nieuw 2 Tweede",
                    "/team 1 aanvoerder Anna Visser", "/team 2 aanvoerder Cor Jansen"):
        await bot.ask(ARBITER, command)
    await bot.ask(anna, "/team 1 spelers Anna Visser, Bram de Boer")
    await bot.ask(cor, "/team 2 spelers Cor Jansen, Daan Smit")
    for user in (eva, femke):
        await bot.ask(user, "/team invaller aan")


async def test_a_substitute_asked_by_two_teams_for_one_day_is_asked_once(bot, members):
    anna, _, cor, _, eva, femke = members
    await setup_two_teams(bot, members)
    await bot.ask(anna, "/team 1 wedstrijd 12-12-2026 thuis Schaakmat 4")
    await bot.ask(cor, "/team 2 wedstrijd 12-12-2026 uit Het Paard 4")
    await bot.settled()
    mark = len(bot.tg.sent)
    first = await bot.ask(anna, "/team 1 invallers 2")
    assert fits(first.text, "TEAM_SUBSTITUTES_ASKED", names="Eva Bos, Femke Kok")
    again = await bot.ask(cor, "/team 2 invallers 2")
    assert again.text == said(Text("TEAM_NO_SUBSTITUTES"))
    await bot.settled()
    assert len([s for s in bot.tg.sent[mark:] if asks(eva)(s)]) == 1
    assert len([s for s in bot.tg.sent[mark:] if asks(femke)(s)]) == 1


async def test_a_lineup_turns_a_sign_off_into_one_external_and_late_is_told(bot, members):
    """Bram had signed off for round 1 already: the lineup keeps one sign-off, now external.
    Confirmed after the round's deadline, the lineup signs its players off late and the
    arbiter hears it; a player it then leaves out cannot be taken back, and the arbiter
    hears that too."""
    anna, bram = members[:2]
    await setup_two_teams(bot, members)
    await bot.ask(bram, "/afmelden 1", contains=meaning("SIGNED_OFF", who="Bram de Boer",
                                                          round=1))
    await bot.ask(anna, "/team 1 wedstrijd 3-12-2026 thuis Schaakmat 2")
    await bot.ask(anna, "/team 1 opstelling Bram de Boer",
                  contains=meaning("TEAM_SIGNED_OFF", round=1))
    assert await absences_of(bot, 1) == {
        Absence("p1", AbsenceReason.EXTERNAL, ExternalDay.CLUB_NIGHT, 1)}
    bot.clock.now = dt.datetime(2026, 12, 3, 18, 0, tzinfo=dt.UTC)  # past the deadline
    await bot.settled()
    mark = len(bot.tg.sent)
    late = await bot.ask(anna, "/team 1 opstelling Anna Visser, Daan Smit",
                         contains=meaning("TEAM_SIGNED_OFF", round=1))
    assert fits(late.text, "TEAM_LATE", names="Anna Visser, Daan Smit")
    told = await bot.tg.wait_for(lambda s: s.chat_id == ARBITER.id and "Bram de Boer" in s.text,
                                 after=mark)
    assert fits(told.text, "TEAM_NOT_TAKEN_BACK", name="Bram de Boer", round=1)
    await bot.tg.wait_for(lambda s: s.chat_id == ARBITER.id
                          and meaning("LATE_TO_ARBITER", who="Daan Smit", round=1)(s.text),
                          after=mark)


async def absences_of(bot, number: int) -> set[Absence]:
    season = read_season(await export_json(bot.app.bot_data.db))
    return set(season.round(number).absent)
