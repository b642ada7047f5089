"""Issue 15 over HTTP: /seizoen nieuw begins the next season from this one; the old one
stays readable with /stand vorig, and the members stay linked."""

from __future__ import annotations

from bot.language import texts
from core.trf import TrfHeader
from storage.errors import StoreError, StoreProblem
from tests.bot.conftest import ARBITER
from tests.bot.test_season import pass_deadline, play_round, publish, set_up_club


async def test_the_next_season_is_shown_then_begun(bot, members):
    await set_up_club(bot, members, rounds=1)
    refused = await bot.ask(ARBITER, "/seizoen nieuw")
    assert refused.text.startswith("Ronde 1 is nog niet klaar.")
    await pass_deadline(bot, 1)
    post = await publish(bot, 1)
    await play_round(bot, members, 1, post)
    await bot.tg.wait_for(lambda s: "Alle uitslagen van ronde 1" in s.text)
    final = await bot.ask(members[0], "/stand")
    assert (await bot.ask(members[0], "/stand vorig")).text == texts.STAND_NO_PREVIOUS
    await bot.ask(ARBITER, "/speler weg Femke Kok")
    shown = await bot.ask(ARBITER, "/seizoen nieuw")
    assert shown.text.startswith("Nieuw seizoen 2027-2028: dezelfde regels, 5 spelers "
                                 "(gestopt: Femke Kok), in de volgorde van de eindstand: ")
    assert "<code>/seizoen nieuw bevestig</code>" in shown.text
    assert (await bot.ask(members[0], "/stand")).text == final.text  # nothing changed yet
    begun = await bot.ask(ARBITER, "/seizoen nieuw bevestig")
    assert begun.text.startswith("Seizoen 2027-2028 is begonnen, met 5 spelers.")
    # Issue 22: the same confirmation again begins no second season (a season without
    # rounds is not finished), and the season just played stays the previous one.
    again = await bot.ask(ARBITER, "/seizoen nieuw bevestig")
    assert again.text == texts.store_problem(StoreError(StoreProblem.SEASON_EMPTY))
    assert again.text.startswith("Dit seizoen heeft nog geen rondes")
    # The old season, as it ended; the new one starts from it, the members still linked.
    previous = await bot.ask(members[0], "/stand vorig")
    assert previous.text.startswith("2026-2027 (eindstand)")
    assert final.text.split("\n", 1)[1] in previous.text
    assert (await bot.ask(members[0], "/stand")).text == texts.STAND_EMPTY
    mine = await bot.ask(members[0], "/mijn")
    assert mine.text != texts.NOT_LINKED  # still linked in the new season
    planned = await bot.ask(ARBITER, "/ronde nieuw 7-1-2027")
    assert planned.text.startswith("Ronde 1 gepland op do 7 jan")
    # The old season's files, for the club's site and the rating administration.
    old = await bot.ask(ARBITER, "/export vorig")
    assert (old.method, old.filename) == ("sendDocument", "keizer-export.zip")
    assert old.text.startswith("Seizoen 2026-2027, dat is afgelopen. Stand, rondes")
    rated = await bot.ask(ARBITER, "/export trf vorig")
    assert (rated.method, rated.filename) == ("sendDocument", "keizer-rating.trf")
    assert rated.text.startswith("Seizoen 2026-2027, dat is afgelopen. De partijen van ronde 1 "
                                 "t/m 1 als TRF16, voor de ratingadministratie van de KNSB.\n")
    # No city and no linked arbiter yet: the caption says what the rating office will miss.
    assert rated.text.endswith(texts.trf_missing(TrfHeader()))
    assert rated.data.count(b"\r\n001 ") == 6
    assert (await bot.ask(ARBITER, "/export trf")).text == texts.TRF_NONE


async def test_a_season_name_that_does_not_count_in_years_is_asked_for(bot, members):
    await set_up_club(bot, members, rounds=1)
    await pass_deadline(bot, 1)
    await play_round(bot, members, 1, await publish(bot, 1))
    await bot.tg.wait_for(lambda s: "Alle uitslagen van ronde 1" in s.text)
    db = bot.app.bot_data.db
    async with db.transaction() as conn:
        await conn.execute("UPDATE season SET name = 'najaar'")
    answer = await bot.ask(ARBITER, "/seizoen nieuw")
    assert answer.text.startswith("Uit 'najaar' volgt geen naam voor het nieuwe seizoen")
    named = await bot.ask(ARBITER, "/seizoen nieuw voorjaar 2027")
    assert "<code>/seizoen nieuw voorjaar 2027 bevestig</code>" in named.text
    begun = await bot.ask(ARBITER, "/seizoen nieuw voorjaar 2027 bevestig")
    assert begun.text.startswith("Seizoen voorjaar 2027 is begonnen")
