"""Issue 15 over HTTP: the arbiter sends the KNSB rating list to the bot; he sees what it
would change, confirms close matches with a button, and nothing is written until he says
so. /export trf sends the games for the rating administration."""

from __future__ import annotations

import html
import io
import zipfile

from bot.language import texts
from core.season import read_season
from storage.audit import entries
from storage.seasons import load_season
from tests.bot.conftest import ARBITER, GROUP, meaning, says
from tests.bot.rating_lists import LIST, rating_list
from tests.bot.refusal_cases import plain_dutch
from tests.bot.steps import pass_deadline, play_round, publish, set_up_club
from tests.integration.conftest import ROOT


async def send_list(bot, data: bytes = LIST, *, user=ARBITER, name: str = "KNSB.zip",
                    size: int | None = None, chat_id: int | None = None):
    mark = len(bot.tg.sent)
    bot.tg.user_sends_file(user, name, data, size=size, chat_id=chat_id)
    return await bot.tg.wait_for(lambda s: s.chat_id == (chat_id or user.id), after=mark)


async def ratings(bot) -> dict[str, tuple]:
    season = await load_season(bot.app.bot_data.db)
    return {p.name: (p.rating, p.knsb) for p in season.players}


async def test_the_list_is_shown_then_written_when_the_arbiter_confirms(bot, members):
    await set_up_club(bot, members, rounds=1)
    before = await ratings(bot)
    shown = await send_list(bot)
    assert shown.text == (
        "KNSB-ratinglijst met 5 spelers, vergeleken met de leden:\n"
        "Bijwerken (3):\n"
        "• Anna Visser: 2000 → 2031 (relatienummer 8000001); ook federatie NED, vrouw, "
        "geboren 1990\n"
        "• Bram de Boer: 1950 → 1950 (relatienummer 8000002); ook federatie NED, man, "
        "geboren 1985\n"
        "• Femke Kok: 1750 → 1750 (relatienummer 8000005); ook federatie NED, vrouw, "
        "geboren 2001\n"
        "Lijkt op, alleen als jij het bevestigt (2):\n"
        "• Cor Jansen = Jansen, C. (8000003, 1888)\n"
        "• Daan Smit = Smith, Daan (8000004, 1870)\n"
        "Niet in de lijst (1): Eva Bos.\n"
        "Er verandert niets tot je op Bijwerken drukt.")
    labels = [text for text, _ in shown.buttons]
    assert labels == ["Cor Jansen = Jansen, C.", "Daan Smit = Smith, Daan", "Bijwerken (3)",
                      "Annuleren"]
    assert await ratings(bot) == before  # nothing written yet
    bot.tg.press(ARBITER, shown, shown.buttons[0][1])
    accepted = await bot.tg.edited(shown, "✓ Cor Jansen")
    assert [text for text, _ in accepted.buttons][2] == "Bijwerken (4)"
    apply = accepted.buttons[2][1]
    bot.tg.press(ARBITER, accepted, apply)
    done = await bot.tg.edited(shown, "bijgewerkt")
    assert done.text == "De ratings zijn bijgewerkt: 4 leden. Het staat in het logboek."
    after = await ratings(bot)
    assert after["Anna Visser"] == (2031, 8000001)
    assert after["Cor Jansen"] == (1888, 8000003)
    assert after["Daan Smit"] == before["Daan Smit"]  # not confirmed: untouched
    assert after["Eva Bos"] == before["Eva Bos"]
    log = [e for e in await entries(bot.app.bot_data.db.conn) if e.action == "player.rating"]
    assert {e.entity_id for e in log} == {"p0", "p1", "p2", "p5"}
    assert all(e.actor == ARBITER.id for e in log)
    # A second tap, or a tap on the old message, changes nothing more.
    mark = len(bot.tg.answered)
    bot.tg.press(ARBITER, shown, apply)
    await bot.tg.toast(mark)
    await bot.tg.edited(shown, texts.RATING_DECIDED)
    assert len([e for e in await entries(bot.app.bot_data.db.conn)
                if e.action == "player.rating"]) == 4
    anna = (await load_season(bot.app.bot_data.db)).player("p0")
    assert (anna.federation, anna.sex, anna.birth) == ("NED", "w", "1990")
    # Next month, by relation number: her name changed, but still agrees.
    again = await send_list(bot, rating_list(["8000001;Visser-de Wit, A.;;NED;2040;30;1990;V"]))
    assert "• Anna Visser: 2031 → 2040\n" in again.text


async def test_cancelled_nothing_changes(bot, members):
    await set_up_club(bot, members, rounds=0)
    before = await ratings(bot)
    shown = await send_list(bot)
    bot.tg.press(ARBITER, shown, shown.buttons[-1][1])
    await bot.tg.edited(shown, texts.RATING_CANCELLED)
    assert await ratings(bot) == before


async def test_a_file_that_is_no_rating_list_gets_a_dutch_reason(bot, members):
    await set_up_club(bot, members, rounds=0)
    before = await ratings(bot)
    for data, name, reason in [
        (b"Nr;Naam;Elo\r\n1;A;1500", "lijst.csv",
         "de eerste regel is niet de kop van de KNSB-lijst"),
        (zipfile_empty(), "leeg.zip", "het zip-bestand is leeg"),
        ("Relatienummer;Naam".encode("utf-16"), "lijst.csv", "Windows-1252"),
        (b"x", "foto.jpg", "Ik ken de ratinglijst van de KNSB"),
        (b"012 Alleen een kop\r\n", "toernooi.trf", "Dit TRF-bestand kan ik niet lezen: er "
                                                     "staan geen spelers in"),
    ]:
        answer = await send_list(bot, data, name=name)
        assert reason in answer.text and plain_dutch(answer.text), answer.text
    calls = len([c for c in bot.tg.calls if c[0] == "getFile"])
    huge = await send_list(bot, b"PK", name="groot.zip", size=50 * 1024 * 1024)
    assert huge.text == ("Deze ratinglijst kan ik niet gebruiken: het bestand is te groot "
                         "(meer dan 20 MB); de KNSB-lijst is veel kleiner. Er is niets "
                         "veranderd.")
    assert len([c for c in bot.tg.calls if c[0] == "getFile"]) == calls  # never fetched
    assert await ratings(bot) == before


def zipfile_empty() -> bytes:
    out = io.BytesIO()
    zipfile.ZipFile(out, "w").close()
    return out.getvalue()


async def test_only_the_arbiter_sends_a_list_or_decides_one(bot, members):
    await set_up_club(bot, members, rounds=0)
    refused = await send_list(bot, user=members[0])
    assert refused.text == texts.FILE_ONLY_ARBITER
    shown = await send_list(bot)
    mark = len(bot.tg.answered)
    bot.tg.press(members[0], shown, shown.buttons[-2][1])
    assert await bot.tg.toast(mark) == texts.ONLY_ARBITER
    before = await ratings(bot)
    assert before["Anna Visser"] == (2000, None)


async def test_a_trf_from_another_program_comes_back_as_a_season_file(bot, members):
    await set_up_club(bot, members, rounds=0)
    before = await ratings(bot)
    foreign = (ROOT / "examples" / "toernooi.trf").read_bytes()
    mark = len(bot.tg.sent)
    bot.tg.user_sends_file(ARBITER, "toernooi.trf", foreign)
    report = await bot.tg.next_to(ARBITER.id, meaning("TRF_READ"), after=mark)
    assert report.text.startswith(says("TRF_READ", players=20, rounds=18, games=143))
    assert "• 20 speler-id's gemaakt uit de namen" in html.unescape(report.text)
    assert report.text.endswith(says("TRF_READ_NEXT"))
    assert plain_dutch(report.text.replace("speler-id's", "")), report.text
    sent = await bot.tg.wait_for(lambda s: s.method == "sendDocument", after=mark)
    season = read_season(sent.data.decode())
    assert (sent.filename, len(season.players), len(season.rounds)) == ("seizoen.json", 20, 18)
    assert await ratings(bot) == before  # the club's own season is untouched


async def test_the_games_for_the_rating_administration(bot, members):
    await set_up_club(bot, members, rounds=1)
    assert (await bot.ask(ARBITER, "/export trf")).text == texts.TRF_NONE
    await pass_deadline(bot, 1)
    post = await publish(bot, 1)
    await play_round(bot, members, 1, post)
    await bot.tg.next_to(GROUP, meaning("ROUND_COMPLETE", round=1))
    assert (await bot.ask(ARBITER, "/instellingen plaats Hardinxveld-Giessendam")).text == \
        texts.INSTELLINGEN_DONE
    sent = await bot.ask(ARBITER, "/export trf")
    assert (sent.method, sent.filename) == ("sendDocument", "keizer-rating.trf")
    lines = sent.data.decode("utf-8").split("\r\n")
    assert lines[:2] == ["012 Testclub 2026-2027", "022 Hardinxveld-Giessendam"]
    assert "122 90+15" in lines
    players = [line for line in lines if line.startswith("001")]
    assert [line[14:47].rstrip() for line in players] == [
        "Visser, Anna", "Boer, Bram de", "Jansen, Cor", "Smit, Daan", "Bos, Eva", "Kok, Femke"]
    assert sum(line[98] in "10" for line in players) == 6  # three games, both sides
    refused = await bot.ask(members[0], "/export trf")
    assert refused.text == texts.ONLY_ARBITER
    odd = await bot.ask(ARBITER, "/export pdf")
    assert odd.text == texts.EXPORT_UNKNOWN


async def test_the_club_chooses_its_list_and_a_zip_of_another_is_refused_by_name(bot, members):
    await set_up_club(bot, members, rounds=0)
    assert (await bot.ask(ARBITER, "/instellingen ratinglijst snel")).text == \
        texts.INSTELLINGEN_DONE
    shown = (await bot.ask(ARBITER, "/instellingen")).text
    assert "Plaats: niet ingesteld. Ratinglijst van de KNSB: snel." in shown
    refused = await send_list(bot)
    assert refused.text == ("Deze ratinglijst kan ik niet gebruiken: in het zip-bestand staat "
                            "KLASSIEK.csv, niet de lijst die de club gebruikt (SNEL.csv); kies "
                            "een andere lijst met /instellingen ratinglijst. Er is niets "
                            "veranderd.")
    assert (await bot.ask(ARBITER, "/instellingen ratinglijst supersnel")).text == \
        texts.INSTELLINGEN_USAGE
    # The English word for it is taken too, and the list is named as the reader says it.
    assert (await bot.ask(ARBITER, "/instellingen ratinglijst blitz")).text == \
        texts.INSTELLINGEN_DONE
    assert "Ratinglijst van de KNSB: snel." in (await bot.ask(ARBITER, "/instellingen")).text
    assert (await bot.ask(ARBITER, "/instellingen ratinglijst klassiek")).text == \
        texts.INSTELLINGEN_DONE
    assert "Bijwerken (3)" in (await send_list(bot)).text


async def test_a_relation_number_under_another_name_waits_for_the_arbiter(bot, members):
    await set_up_club(bot, members, rounds=0)
    first = await send_list(bot)
    bot.tg.press(ARBITER, first, first.buttons[-2][1])  # Bijwerken: Anna Visser gets 8000001
    await bot.tg.edited(first, "bijgewerkt")
    shown = await send_list(bot, rating_list(["8000001;Kasparov, Garry;GM;RUS;2812;9;1963;M"]))
    assert "• Anna Visser = Kasparov, Garry (8000001, 2812): zelfde relatienummer, andere " \
           "naam" in shown.text
    assert (await ratings(bot))["Anna Visser"] == (2031, 8000001)
