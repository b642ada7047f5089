"""Issue 15 over HTTP: /seizoen nieuw begins the next season from this one; the old one
stays readable with /stand vorig, and the members stay linked."""

from __future__ import annotations

import datetime as dt

from bot.language import texts
from bot.language.i18n import words
from bot.language.notice import Dated
from core.trf import TrfHeader
from storage.errors import StoreProblem
from tests.bot.conftest import ARBITER, GROUP, fits, meaning, refused, says
from tests.bot.steps import pass_deadline, play_round, publish, set_up_club


async def test_the_next_season_is_shown_then_begun(bot, members):
    await set_up_club(bot, members, rounds=1)
    not_done = await bot.ask(ARBITER, "/seizoen nieuw")
    assert fits(not_done.text, "_STORE_PROBLEMS", pick=StoreProblem.SEASON_NOT_DONE, round=1)
    await pass_deadline(bot, 1)
    post = await publish(bot, 1)
    await play_round(bot, members, 1, post)
    await bot.tg.next_to(GROUP, meaning("ROUND_COMPLETE", round=1))
    final = await bot.ask(members[0], "/stand")
    assert (await bot.ask(members[0], "/stand vorig")).text == texts.STAND_NO_PREVIOUS
    await bot.ask(ARBITER, "/speler weg Femke Kok")
    shown = await bot.ask(ARBITER, "/seizoen nieuw")
    assert fits(shown.text, "SEIZOEN_PROPOSAL", name="2027-2028", players=5,
                confirm="/seizoen nieuw bevestig")
    assert "Femke Kok" in shown.text
    assert (await bot.ask(members[0], "/stand")).text == final.text  # nothing changed yet
    await bot.ask(ARBITER, "/instellingen nooit Anna Visser en Bram de Boer")
    await bot.ask(ARBITER, "/instellingen nooit Anna Visser en Femke Kok")
    begun = await bot.ask(ARBITER, "/seizoen nieuw bevestig")
    assert begun.text == says("SEIZOEN_STARTED", name="2027-2028", players=5)
    # Issue 22: the same confirmation again begins no second season (a season without
    # rounds is not finished), and the season just played stays the previous one.
    again = await bot.ask(ARBITER, "/seizoen nieuw bevestig")
    assert again.text == refused(StoreProblem.SEASON_EMPTY)
    # The old season, as it ended; the new one starts from it, the members still linked.
    previous = await bot.ask(members[0], "/stand vorig")
    assert previous.text.startswith(says("STAND_PREVIOUS", season="2026-2027"))
    assert final.text.split("\n", 1)[1] in previous.text
    assert (await bot.ask(members[0], "/stand")).text == texts.STAND_EMPTY
    mine = await bot.ask(members[0], "/mijn")
    assert mine.text != texts.NOT_LINKED  # still linked in the new season
    # Issue 36: the pairs kept apart stay apart, those of a member who left go with him.
    settings = (await bot.ask(ARBITER, "/instellingen")).text
    assert fits(settings, "APART_LIST", pairs=says("APART_PAIR", a="Anna Visser",
                                                   b="Bram de Boer"))
    planned = await bot.ask(ARBITER, "/ronde nieuw 7-1-2027")
    assert fits(planned.text, "RONDE_ADDED", round=1, date=Dated(dt.date(2027, 1, 7)))
    # The old season's files, for the club's site and the rating administration.
    old = await bot.ask(ARBITER, "/export vorig")
    assert (old.method, old.filename) == ("sendDocument", "keizer-export.zip")
    assert old.text == f"{says('PREVIOUS_CAPTION', name='2026-2027')} " \
                       f"{says('EXPORT_CAPTION', round=1)}"
    rated = await bot.ask(ARBITER, "/export trf vorig")
    assert (rated.method, rated.filename) == ("sendDocument", "keizer-rating.trf")
    assert rated.text.startswith(f"{says('PREVIOUS_CAPTION', name='2026-2027')} "
                                 f"{says('TRF_CAPTION', round=1)}\n")
    # No city and no linked arbiter yet: the caption says what the rating office will miss.
    assert rated.text.endswith(texts.trf_missing(words("nl"), TrfHeader()))
    assert rated.data.count(b"\r\n001 ") == 6
    assert (await bot.ask(ARBITER, "/export trf")).text == texts.TRF_NONE


async def test_a_season_name_that_does_not_count_in_years_is_asked_for(bot, members):
    await set_up_club(bot, members, rounds=1)
    await pass_deadline(bot, 1)
    await play_round(bot, members, 1, await publish(bot, 1))
    await bot.tg.next_to(GROUP, meaning("ROUND_COMPLETE", round=1))
    db = bot.app.bot_data.db
    async with db.transaction() as conn:
        await conn.execute("UPDATE season SET name = 'najaar'")
    answer = await bot.ask(ARBITER, "/seizoen nieuw")
    assert answer.text == says("SEIZOEN_NAME", name="najaar")
    named = await bot.ask(ARBITER, "/seizoen nieuw voorjaar 2027")
    assert "<code>/seizoen nieuw voorjaar 2027 bevestig</code>" in named.text
    begun = await bot.ask(ARBITER, "/seizoen nieuw voorjaar 2027 bevestig")
    assert fits(begun.text, "SEIZOEN_STARTED", name="voorjaar 2027")


async def test_a_season_name_with_markup_is_shown_as_written_in_a_caption(tg, tmp_path,
                                                                          processes, members):
    """Issue 48's defect: the season's name in the caption of `/export vorig` went out
    unescaped (a name with `&` or `<` made Telegram refuse the file)."""
    from core.season import season_from_data
    from tests.bot.conftest import MEMBERS, club_bot

    season = season_from_data({
        "format": "keizer-season/1", "club": "Testclub", "season": "Jeugd & <senioren>",
        "rules": {"preset": "sliedrecht", "planned_rounds": 3, "period_length": 3},
        "players": [{"id": f"p{k}", "name": name, "rating": 2000 - 50 * k}
                    for k, name in enumerate(MEMBERS)], "rounds": []})
    bot = await club_bot(tg, tmp_path / "keizer.db", processes, season)
    try:
        await set_up_club(bot, members, rounds=1)
        await pass_deadline(bot, 1)
        post = await publish(bot, 1)
        await play_round(bot, members, 1, post)
        await bot.tg.next_to(GROUP, meaning("ROUND_COMPLETE", round=1))
        await bot.ask(ARBITER, "/seizoen nieuw 2027-2028 bevestig")
        old = await bot.ask(ARBITER, "/export vorig")
        assert (old.method, old.filename) == ("sendDocument", "keizer-export.zip")
        assert old.text.startswith(says("PREVIOUS_CAPTION", name="Jeugd & <senioren>"))
    finally:
        await bot.stop()
