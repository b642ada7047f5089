"""The arbiter's tools, end to end: adjusting a draft, members, schedule, settings, externals;
the reminder; a member's own overview."""

from __future__ import annotations

import asyncio

from tests.bot.conftest import ARBITER, GROUP, boards
from tests.bot.test_season import pass_deadline, publish, set_up_club


def opponent(pairs: list[tuple[str, str]], who: str) -> tuple[str, str]:
    """(colour, opponent) of `who`."""
    white, black = next(p for p in pairs if who in p)
    return ("white", black) if white == who else ("black", white)


async def test_draft_adjustments_bye_swap_and_repair(bot, members):
    await set_up_club(bot, members, rounds=1)
    await bot.ask(members[0], "/afmelden")  # five present: somebody gets the bye
    await pass_deadline(bot, 1)
    volunteer = await bot.ask(ARBITER, "/indeling bye Bram de Boer")
    assert "Vrij (bye): Bram de Boer" in volunteer.text
    before = boards(volunteer.text)
    swapped = await bot.ask(ARBITER, "/indeling ruil Cor Jansen en Eva Bos")
    after = boards(swapped.text)
    # Cor and Eva changed places: each now has the other's opponent and colour.
    assert opponent(after, "Cor Jansen") == opponent(before, "Eva Bos")
    assert opponent(after, "Eva Bos") == opponent(before, "Cor Jansen")
    again = await bot.ask(ARBITER, "/indeling opnieuw")
    # Re-pairing keeps what the arbiter fixed by hand: the volunteer and the swapped boards.
    assert "Vrij (bye): Bram de Boer" in again.text
    assert {p for p in after if {"Cor Jansen", "Eva Bos"} & set(p)} <= set(boards(again.text))
    post = await publish(bot, 1)
    assert "Bram de Boer" in post.text.split("Vrij (bye)")[1]


async def test_members_come_and_go(bot, members):
    await set_up_club(bot, members, rounds=2)
    added = await bot.ask(ARBITER, "/speler nieuw Gijs Post 1650 jeugd")
    assert "Gijs Post doet mee vanaf ronde 1" in added.text
    gone = await bot.ask(ARBITER, "/speler weg Femke Kok")
    assert "Femke Kok doet niet meer mee" in gone.text
    listing = await bot.ask(ARBITER, "/spelers")
    # Femke never played: she is removed rather than marked as stopped.
    assert "Spelers (6)" in listing.text and "Gijs Post" in listing.text
    assert "Femke" not in listing.text
    await pass_deadline(bot, 1)
    post = await publish(bot, 1)
    assert "Gijs Post" in post.text and "Femke Kok" not in post.text


async def test_schedule_postpone_and_cancel(bot, members):
    await set_up_club(bot, members, rounds=3)
    moved = await bot.ask(ARBITER, "/ronde uitstel 2 12-12-2026")
    assert "Ronde 2 verplaatst naar za 12 dec" in moved.text
    cancelled = await bot.ask(ARBITER, "/ronde vervalt 2")
    assert "Ronde 2 vervalt" in cancelled.text
    schedule = await bot.ask(ARBITER, "/ronde")
    assert schedule.text.count("Ronde") == 2 and "do 17 dec" in schedule.text
    bad = await bot.ask(ARBITER, "/ronde nieuw 31-2")
    assert "geen datum" in bad.text


async def test_settings_and_arbiters(bot, members):
    await set_up_club(bot, members, rounds=1)
    shown = await bot.ask(ARBITER, "/instellingen")
    assert "20:00" in shown.text and "sliedrecht" in shown.text
    assert "Opgeslagen" in (await bot.ask(ARBITER, "/instellingen deadline 60")).text
    assert "Opgeslagen" in (await bot.ask(ARBITER, "/instellingen start 19:30")).text
    shown = await bot.ask(ARBITER, "/instellingen")
    assert "19:30" in shown.text and "tot 60 minuten" in shown.text
    await bot.ask(ARBITER, f"/arbiter {members[1].id}")
    assert "Dit overzicht" not in (await bot.ask(members[1], "/spelers")).text
    assert "Spelers (6)" in (await bot.ask(members[1], "/spelers")).text
    await bot.ask(ARBITER, f"/arbiter weg {members[1].id}")
    assert "alleen de wedstrijdleider" in (await bot.ask(members[1], "/spelers")).text


async def test_external_match_is_booked(bot, members):
    await set_up_club(bot, members, rounds=1)
    booked = await bot.ask(ARBITER, "/extern Daan Smit 2 1 anderedag")
    assert booked.text == ("Externe partij van Daan Smit voor team 2 (op een andere dag): "
                           "gewonnen. Geboekt in ronde 1.")
    mine = await bot.ask(members[3], "/mijn")
    assert "Afgemeld voor: 1" in mine.text


async def test_an_external_result_goes_to_the_round_he_signed_off_for(bot, members):
    """Signed off round 2 for an external game on club night; the result, entered while
    round 1 is still open, is booked in round 2 with his day, not in the open round."""
    await set_up_club(bot, members, rounds=2)
    await bot.ask(members[3], "/afmelden 2 extern-clubavond")
    booked = await bot.ask(ARBITER, "/extern Daan Smit 2 ½")
    assert booked.text == ("Externe partij van Daan Smit voor team 2 (op de clubavond): "
                           "remise. Geboekt in ronde 2.")
    named = await bot.ask(ARBITER, "/extern Daan Smit 2 0 anderedag ronde 1")
    assert named.text.endswith("verloren. Geboekt in ronde 1.")
    mine = await bot.ask(members[3], "/mijn")
    assert "Afgemeld voor: 1, 2" in mine.text


async def test_reminder_goes_to_the_group_once(bot, members):
    await set_up_club(bot, members, rounds=1)
    bot.clock.now = bot.clock.now.replace(month=12, day=2, hour=20)  # a day before round 1
    reminder = await bot.tg.wait_for(lambda s: s.chat_id == GROUP and "Herinnering" in s.text)
    assert "afmelden" in reminder.text.lower()
    await asyncio.sleep(0.6)
    assert len([s for s in bot.tg.to(GROUP) if "Herinnering" in s.text]) == 1


async def test_my_overview(bot, members):
    await set_up_club(bot, members, rounds=2)
    await bot.ask(members[0], "/afmelden 2")
    await pass_deadline(bot, 1)
    await publish(bot, 1)
    mine = await bot.ask(members[0], "/mijn")
    assert "Afgemeld voor: 2" in mine.text and "Ronde 1: bord" in mine.text


async def test_rules_are_changed_and_checked(bot, members):
    await set_up_club(bot, members, rounds=1)
    assert "Opgeslagen" in (await bot.ask(ARBITER, "/instellingen regel notice_cap 8")).text
    assert "Opgeslagen" in (await bot.ask(ARBITER, "/instellingen reglement drie-cycli")).text
    shown = await bot.ask(ARBITER, "/instellingen")
    assert "voorinstelling drie-cycli" in shown.text \
        and "betaalde afmeldingen (maximaal): 8" in shown.text
    refused = await bot.ask(ARBITER, "/instellingen regel notice_kap 8")
    assert "onbekend veld 'notice_kap'" in refused.plain
    refused = await bot.ask(ARBITER, "/instellingen reglement zwolle")
    assert "onbekende voorinstelling" in refused.text
    assert "notice_kap" not in (await bot.ask(ARBITER, "/instellingen")).text


async def test_personal_details_asked_in_the_group_go_privately(bot, members):
    await set_up_club(bot, members, rounds=1)
    mark = len(bot.tg.sent)
    note = await bot.ask(members[0], "/mijn", chat_id=GROUP)
    assert "privé gestuurd" in note.text
    private = await bot.tg.wait_for(lambda s: s.chat_id == members[0].id, after=mark)
    assert "Afmeldingen" in private.text or "afmeldingen" in private.text
    bot.tg.fail_next("sendMessage", 403, chat_id=members[1].id)
    note = await bot.ask(members[1], "/mijn", chat_id=GROUP)
    assert "Start eerst een privégesprek" in note.text


async def test_chart_export_and_crosstable_are_sent(bot, members):
    await set_up_club(bot, members, rounds=1)
    assert "nog geen ronde" in (await bot.ask(members[0], "/grafiek")).text
    await pass_deadline(bot, 1)
    await publish(bot, 1)
    for board in range(1, 4):
        await bot.ask(ARBITER, f"/uitslag {board} 1-0")
    photo = await bot.ask(members[0], "/grafiek")
    assert photo.method == "sendPhoto" and "verloop" in photo.text
    document = await bot.ask(ARBITER, "/export")
    assert document.method == "sendDocument" and "CSV" in document.text
    cross = await bot.ask(members[0], "/stand kruistabel")
    assert cross.method == "sendDocument" and "Kruistabel na ronde 1" in cross.text
    refused = await bot.ask(members[0], "/export")
    assert "alleen de wedstrijdleider" in refused.text


async def test_period_and_group_tables_follow_the_rules(bot, members):
    await set_up_club(bot, members, rounds=1)
    assert "geen periodegroepen" in (await bot.ask(members[0], "/stand periode")).text
    await bot.ask(ARBITER, "/instellingen reglement drie-groepen")
    await pass_deadline(bot, 1)
    await publish(bot, 1)
    for board in range(1, 4):
        await bot.ask(ARBITER, f"/uitslag {board} 1-0")
    tables = await bot.ask(members[0], "/stand periode")
    assert "Periode 1" in tables.plain and "groep 3" in tables.plain
    assert "geen subgroepen" in (await bot.ask(members[0], "/stand groep")).text
    preview = await bot.ask(ARBITER, "/instellingen reglement drie-cycli")
    assert preview.text.startswith("Nog niet opgeslagen")  # a round is played: shown first
    await bot.ask(ARBITER, "/instellingen reglement drie-cycli bevestig")
    groups = await bot.ask(members[0], "/stand groep")
    assert "Groep 1" in groups.plain and "Groep 2" in groups.plain


async def test_the_daily_backup_job_writes_a_copy(bot, members):
    from bot.telegram import jobs

    backups = bot.config.database.parent / "backups"
    bot.app.job_queue.run_once(jobs.daily_backup, 0)
    for _ in range(50):
        if list(backups.glob("keizer-*.db")):
            break
        await asyncio.sleep(0.1)
    assert len(list(backups.glob("keizer-*.db"))) == 1


async def test_the_arbiters_fixes_survive_a_restart(bot, members):
    await set_up_club(bot, members, rounds=1)
    await bot.ask(members[0], "/afmelden")
    await pass_deadline(bot, 1)
    await bot.ask(ARBITER, "/indeling bye Bram de Boer")
    await bot.stop()
    await bot.start()
    again = await bot.ask(ARBITER, "/indeling opnieuw")
    assert "Vrij (bye): Bram de Boer" in again.text
