"""A club's season with two teams, played through the bot (issue 49; shared by the team tests
on SQLite and on PostgreSQL): the arbiter names two teams and their captains; the captains set
their players and matches (one on the club's night, one on a Saturday); availability is asked
(by the bot a week before, and by the captain) and answered with buttons; a substitute is
found; the lineups sign their players off for the club's round of that week as externals;
the board results become their external results, priced as each rulebook says (by hand)."""

from __future__ import annotations

import datetime as dt
import json
from fractions import Fraction

from bot.language.notice import Text
from core.rules import CompensationKind
from core.season import Absence, AbsenceReason, ExternalDay, read_season, season_from_data
from core.standings import compute_standings
from storage.seasons import export_json
from tests.bot.conftest import ARBITER, GROUP, MEMBERS, fits, said
from tests.bot.steps import pass_deadline, play_round, publish, set_up_club
from tests.meaning import meaning

PRESETS = ["sliedrecht", "drie-groepen", "drie-cycli"]


def season_for(preset: str):
    return season_from_data(json.loads(json.dumps({
        "format": "keizer-season/1", "club": "Testclub", "season": "2026-2027",
        "rules": {"preset": preset},
        "players": [{"id": f"p{k}", "name": name, "rating": 2000 - 50 * k}
                    for k, name in enumerate(MEMBERS)],
        "rounds": []})))


def asks(user):
    """The question to `user` whether he can play, with its buttons."""
    return lambda sent: sent.chat_id == user.id and any(
        data.startswith("team:") for _, data in sent.buttons)


async def answer(bot, user, question, yes: bool) -> str:
    answered = len(bot.tg.answered)
    data = next(d for _, d in question.buttons if d.endswith(":yes" if yes else ":no"))
    bot.tg.press(user, question, data)
    return await bot.tg.toast(answered)


async def absences(bot, number: int) -> set[Absence]:
    season = read_season(await export_json(bot.app.bot_data.db))
    return set(season.round(number).absent)


async def play(bot, members) -> None:
    anna, bram, cor, daan, eva, _ = members
    await set_up_club(bot, members, rounds=2)  # Thursdays 3 and 10 December
    for command in ("/team nieuw 1 Eerste", "/team nieuw 2 Tweede"):
        assert fits((await bot.ask(ARBITER, command)).text, "TEAM_ADDED")
    assert fits((await bot.ask(ARBITER, "/team 1 aanvoerder Anna Visser")).text,
                "TEAM_CAPTAIN_SET", name="Anna Visser", team="Eerste")
    await bot.ask(ARBITER, "/team 2 aanvoerder Cor Jansen")
    assert fits((await bot.ask(anna, "/team 1 spelers Anna Visser, Bram de Boer")).text,
                "TEAM_PLAYERS_SET", team="Eerste")
    await bot.ask(cor, "/team 2 spelers Cor Jansen, Daan Smit")
    refused = await bot.ask(bram, "/team 2 spelers Bram de Boer")  # not his team to lead
    assert refused.text == said(meaning_of("TEAM_ONLY_CAPTAIN", team="Tweede"))
    assert (await bot.ask(eva, "/team invaller aan")).text == said(meaning_of("TEAM_WILLING",
                                                                              pick=True))
    # Team 1 plays on the club's night, within the week the bot asks ahead (the club's
    # setting, seven days): it asks its players at once; both can.
    mark = len(bot.tg.sent)
    await bot.ask(anna, "/team 1 wedstrijd 3-12-2026 thuis De Toren 2",
                  contains=meaning("TEAM_MATCH_ADDED"))
    for user in (anna, bram):
        question = await bot.tg.wait_for(asks(user), after=mark)
        assert said(meaning_of("TEAM_ANSWERED", pick=True)) == await answer(bot, user,
                                                                             question, True)
    heard = await bot.tg.wait_for(lambda s: s.chat_id == anna.id and "Bram de Boer" in s.text,
                                  after=mark)
    assert fits(heard.text, "TEAM_ANSWER_TO_CAPTAIN", pick=True, name="Bram de Boer")
    await bot.ask(anna, "/team 1 opstelling bevestig",
                  contains=meaning("TEAM_SIGNED_OFF", round=1))
    assert await absences(bot, 1) == {
        Absence("p0", AbsenceReason.EXTERNAL, ExternalDay.CLUB_NIGHT, 1),
        Absence("p1", AbsenceReason.EXTERNAL, ExternalDay.CLUB_NIGHT, 1)}

    # Team 2 plays on a Saturday, twelve days ahead: its captain asks now. One cannot; a
    # substitute (of no team, willing) can.
    # Each answer is awaited by its meaning: a captain in his team hears its questions too.
    await bot.ask(cor, "/team 2 wedstrijd 12-12-2026 13:00 uit Het Paard 2 zwart",
                  contains=meaning("TEAM_AT", time="13:00"))
    mark = len(bot.tg.sent)
    await bot.ask(cor, "/team 2 vraag", contains=meaning("TEAM_ASKED", count=2))
    await answer(bot, cor, await bot.tg.wait_for(asks(cor), after=mark), True)
    daans = await bot.tg.wait_for(asks(daan), after=mark)
    assert said(meaning_of("TEAM_ANSWERED", pick=False)) == await answer(bot, daan, daans, False)
    await bot.settled()
    await bot.ask(cor, "/team 2 opstelling",
                  contains=meaning("TEAM_LINEUP_PROPOSAL", pick=True, short=1))
    mark = len(bot.tg.sent)
    await bot.ask(cor, "/team 2 invallers",
                  contains=meaning("TEAM_SUBSTITUTES_ASKED", names="Eva Bos"))
    await answer(bot, eva, await bot.tg.wait_for(asks(eva), after=mark), True)
    await bot.settled()
    mark = len(bot.tg.sent)
    await bot.ask(cor, "/team 2 opstelling bevestig", contains=meaning("TEAM_SIGNED_OFF", round=2))
    told = await bot.tg.wait_for(lambda s: s.chat_id == eva.id and "bord" in s.text, after=mark)
    # Black on board 1, so white on board 2: Eva hears her colour.
    assert fits(told.text, "TEAM_LINEUP_TO_PLAYER", pick=True, board=2,
                colour=Text("COLOURS_WORD", pick="white"))

    # Round 1 without team 1's players; then team 1's result.
    await pass_deadline(bot, 1)
    await play_round(bot, members, 1, await publish(bot, 1))
    # Team 1's result a tap per board.
    sheet = await bot.ask(anna, "/team 1 uitslag", contains=meaning("TEAM_RESULTS_SHEET"))
    for board, tap in ((1, "1"), (2, "0")):
        bot.tg.press(anna, sheet, next(d for _, d in sheet.buttons
                                       if d.endswith(f":{board}:{tap}")))
        await bot.tg.edited(sheet, meaning("TEAM_BOARD_RESULT", board=board,
                                           result="1" if tap == "1" else "0"))
    await bot.tg.edited(sheet, meaning("TEAM_SCORE_SO_FAR", ours="1", theirs="1"))
    # Round 2 without team 2's; its result on the Saturday, in the club group too.
    await pass_deadline(bot, 2)
    await play_round(bot, members, 2, await publish(bot, 2))
    bot.clock.now = dt.datetime(2026, 12, 12, 20, 0, tzinfo=dt.UTC)
    mark = len(bot.tg.sent)
    await bot.ask(cor, "/team 2 uitslag ½ 1 groep",
                  contains=meaning("TEAM_RESULTS_SET", ours="1½", theirs="½"))
    await bot.tg.wait_for(lambda s: s.chat_id == GROUP and "1½-½" in s.text, after=mark)

    # The externals as the lineups and results made them, priced as each rulebook says.
    expected = {
        1: {Absence("p0", AbsenceReason.EXTERNAL, ExternalDay.CLUB_NIGHT, 1, Fraction(1)),
            Absence("p1", AbsenceReason.EXTERNAL, ExternalDay.CLUB_NIGHT, 1, Fraction(0))},
        2: {Absence("p2", AbsenceReason.EXTERNAL, ExternalDay.OTHER_DAY, 2, Fraction(1, 2)),
            Absence("p4", AbsenceReason.EXTERNAL, ExternalDay.OTHER_DAY, 2, Fraction(1))}}
    for number, wanted in expected.items():
        assert await absences(bot, number) == wanted
    final = compute_standings(read_season(await export_json(bot.app.bot_data.db)))
    preset = final._rules.preset
    for player, number, kind, by_hand in HAND[preset]:
        line = next(x for x in final.breakdown(player) if x.round == number)
        assert line.kind is kind, (player, line)
        if preset == "drie-groepen":  # the team table's row for the team and the result
            assert line.points == by_hand, (player, line)
        else:  # a share of his own value
            assert (line.factor, line.value) == (by_hand, own_value(final, player, number))


CLUB, OTHER = CompensationKind.EXTERNAL_CLUB_NIGHT, CompensationKind.EXTERNAL_OTHER_DAY
HAND = {
    # Sliedrecht: 66 % of one's value on the club's night, 33 % on another day.
    "sliedrecht": [("p0", 1, CLUB, Fraction(66, 100)), ("p1", 1, CLUB, Fraction(66, 100)),
                   ("p2", 2, OTHER, Fraction(33, 100)), ("p4", 2, OTHER, Fraction(33, 100))],
    # Drie groepen: the team table, team 1 57/28/19, team 2 49/24/16 (won/drawn/lost).
    "drie-groepen": [("p0", 1, CLUB, 57), ("p1", 1, CLUB, 19), ("p2", 2, OTHER, 24),
                     ("p4", 2, OTHER, 49)],
    # Drie cycli: 70 % on the club's night, a third on another day.
    "drie-cycli": [("p0", 1, CLUB, Fraction(7, 10)), ("p1", 1, CLUB, Fraction(7, 10)),
                   ("p2", 2, OTHER, Fraction(1, 3)), ("p4", 2, OTHER, Fraction(1, 3))],
}


def own_value(final, player: str, number: int) -> Fraction:
    """His value as the round was priced: what his game in that round would be worth."""
    line = next(x for x in final.breakdown(player) if x.round == number)
    return line.value


def meaning_of(key: str, pick: object = None, **facts: object) -> Text:
    return Text(key, facts, pick=pick)
