"""The arbiter's tools, end to end: adjusting a draft, members, schedule, settings, externals;
the reminder; a member's own overview."""

from __future__ import annotations

import asyncio
import datetime as dt

from bot.language.notice import Dated, Text
from core.errors import ProblemCode
from core.season import ExternalDay
from tests.bot.conftest import ARBITER, GROUP, boards, fits, said, says
from tests.bot.steps import pass_deadline, publish, set_up_club


def opponent(pairs: list[tuple[str, str]], who: str) -> tuple[str, str]:
    """(colour, opponent) of `who`."""
    white, black = next(p for p in pairs if who in p)
    return ("white", black) if white == who else ("black", white)


async def test_draft_adjustments_bye_swap_and_repair(bot, members):
    await set_up_club(bot, members, rounds=1)
    await bot.ask(members[0], "/afmelden")  # five present: somebody gets the bye
    await pass_deadline(bot, 1)
    volunteer = await bot.ask(ARBITER, "/indeling bye Bram de Boer")
    assert says("PAIRING_BYE", name="Bram de Boer") in volunteer.text
    before = boards(volunteer.text)
    swapped = await bot.ask(ARBITER, "/indeling ruil Cor Jansen en Eva Bos")
    after = boards(swapped.text)
    # Cor and Eva changed places: each now has the other's opponent and colour.
    assert opponent(after, "Cor Jansen") == opponent(before, "Eva Bos")
    assert opponent(after, "Eva Bos") == opponent(before, "Cor Jansen")
    again = await bot.ask(ARBITER, "/indeling opnieuw")
    # Re-pairing keeps what the arbiter fixed by hand: the volunteer and the swapped boards.
    assert says("PAIRING_BYE", name="Bram de Boer") in again.text
    assert {p for p in after if {"Cor Jansen", "Eva Bos"} & set(p)} <= set(boards(again.text))
    post = await publish(bot, 1)
    assert says("PAIRING_BYE", name="Bram de Boer") in post.text


async def test_members_come_and_go(bot, members):
    await set_up_club(bot, members, rounds=2)
    added = await bot.ask(ARBITER, "/speler nieuw Gijs Post 1650 jeugd")
    assert says("SPELER_ADDED", name="Gijs Post", round=1) in added.text
    gone = await bot.ask(ARBITER, "/speler weg Femke Kok")
    assert gone.text == says("SPELER_REMOVED", name="Femke Kok")
    listing = await bot.ask(ARBITER, "/spelers")
    # Femke never played: she is removed rather than marked as stopped.
    assert says("SPELERS_TITLE", count=6) in listing.text and "Gijs Post" in listing.text
    assert "Femke" not in listing.text
    await pass_deadline(bot, 1)
    post = await publish(bot, 1)
    assert "Gijs Post" in post.text and "Femke Kok" not in post.text


async def test_schedule_postpone_and_cancel(bot, members):
    await set_up_club(bot, members, rounds=3)
    moved = await bot.ask(ARBITER, "/ronde uitstel 2 12-12-2026")
    assert fits(moved.text, "RONDE_MOVED", round=2, date=Dated(dt.date(2026, 12, 12)))
    cancelled = await bot.ask(ARBITER, "/ronde vervalt 2")
    assert says("RONDE_CANCELLED", round=2) in cancelled.text
    schedule = await bot.ask(ARBITER, "/ronde")
    lines = [line for line in schedule.text.splitlines() if fits(line, "RONDE_LINE")]
    assert len(lines) == 2 and fits(lines[1], "RONDE_LINE", round=2,
                                    date=Dated(dt.date(2026, 12, 17)))
    bad = await bot.ask(ARBITER, "/ronde nieuw 31-2")
    assert fits(bad.text, "BAD_DATE", text="31-2")
    # Issue 46: a list that crosses the new year says which year a round falls in.
    await bot.ask(ARBITER, "/ronde nieuw 7-1-2027")
    schedule = await bot.ask(ARBITER, "/ronde")
    lines = [line for line in schedule.text.splitlines() if fits(line, "RONDE_LINE")]
    assert fits(lines[0], "RONDE_LINE", date=Dated(dt.date(2026, 12, 3)))
    assert fits(lines[-1], "RONDE_LINE", date=f"{said(Dated(dt.date(2027, 1, 7)))} 2027")


async def test_settings_and_arbiters(bot, members):
    await set_up_club(bot, members, rounds=1)
    shown = await bot.ask(ARBITER, "/instellingen")
    assert "20:00" in shown.text and "sliedrecht" in shown.text
    saved = says("INSTELLINGEN_DONE")
    assert saved in (await bot.ask(ARBITER, "/instellingen deadline 60")).text
    assert saved in (await bot.ask(ARBITER, "/instellingen start 19:30")).text
    shown = await bot.ask(ARBITER, "/instellingen")
    assert fits(shown.text, "INSTELLINGEN", start="19:30", deadline=60)
    await bot.ask(ARBITER, f"/arbiter {members[1].id}")
    assert says("SPELERS_TITLE", count=6) in (await bot.ask(members[1], "/spelers")).text
    await bot.ask(ARBITER, f"/arbiter weg {members[1].id}")
    assert (await bot.ask(members[1], "/spelers")).text == says("ONLY_ARBITER")


async def test_external_match_is_booked(bot, members):
    await set_up_club(bot, members, rounds=1)
    booked = await bot.ask(ARBITER, "/extern Daan Smit 2 1 anderedag")
    assert booked.text == says("EXTERN_DONE", name="Daan Smit", team=2, round=1,
                               result=Text("EXTERNAL_RESULT_WORDS", pick=1),
                               day=Text("EXTERNAL_DAY_WORDS", pick=ExternalDay.OTHER_DAY))
    mine = await bot.ask(members[3], "/mijn")
    assert says("MIJN_SIGNOFFS", rounds="1") in mine.text


async def test_an_external_result_goes_to_the_round_he_signed_off_for(bot, members):
    """Signed off round 2 for an external game on club night; the result, entered while
    round 1 is still open, is booked in round 2 with his day, not in the open round."""
    await set_up_club(bot, members, rounds=2)
    await bot.ask(members[3], "/afmelden 2 extern-clubavond")
    booked = await bot.ask(ARBITER, "/extern Daan Smit 2 ½")
    assert booked.text == says("EXTERN_DONE", name="Daan Smit", team=2, round=2,
                               result=Text("EXTERNAL_RESULT_WORDS", pick=0.5),
                               day=Text("EXTERNAL_DAY_WORDS", pick=ExternalDay.CLUB_NIGHT))
    named = await bot.ask(ARBITER, "/extern Daan Smit 2 0 anderedag ronde 1")
    assert fits(named.text, "EXTERN_DONE", round=1,
                result=Text("EXTERNAL_RESULT_WORDS", pick=0))
    mine = await bot.ask(members[3], "/mijn")
    assert says("MIJN_SIGNOFFS", rounds="1, 2") in mine.text


async def test_reminder_goes_to_the_group_once(bot, members):
    await set_up_club(bot, members, rounds=1)
    bot.clock.now = bot.clock.now.replace(month=12, day=2, hour=20)  # a day before round 1
    reminder = await bot.tg.wait_for(lambda s: s.chat_id == GROUP and fits(s.text, "REMINDER"))
    assert fits(reminder.text, "REMINDER", round=1, date=Dated(dt.date(2026, 12, 3)))
    await bot.ticks(3)  # each tick looks at the reminder again
    assert len([s for s in bot.tg.to(GROUP) if fits(s.text, "REMINDER")]) == 1


async def test_my_overview(bot, members):
    await set_up_club(bot, members, rounds=2)
    await bot.ask(members[0], "/afmelden 2")
    await pass_deadline(bot, 1)
    await publish(bot, 1)
    mine = await bot.ask(members[0], "/mijn")
    assert says("MIJN_SIGNOFFS", rounds="2") in mine.text and fits(mine.text, "MIJN_GAME", round=1)


async def test_rules_are_changed_and_checked(bot, members):
    await set_up_club(bot, members, rounds=1)
    saved = says("INSTELLINGEN_DONE")
    assert saved in (await bot.ask(ARBITER, "/instellingen regel notice_cap 8")).text
    assert saved in (await bot.ask(ARBITER, "/instellingen reglement drie-cycli")).text
    shown = await bot.ask(ARBITER, "/instellingen")
    assert "drie-cycli" in shown.text
    assert f"{said(Text('RULE_WORDS', pick='notice_cap'))}: 8" in shown.text
    refused = await bot.ask(ARBITER, "/instellingen regel notice_kap 8")
    assert fits(refused.plain, "_PROBLEMS", pick=ProblemCode.UNKNOWN_KEY, key="notice_kap")
    refused = await bot.ask(ARBITER, "/instellingen reglement zwolle")
    assert fits(refused.plain, "_PROBLEMS", pick=ProblemCode.UNKNOWN_PRESET, value="'zwolle'")
    assert "notice_kap" not in (await bot.ask(ARBITER, "/instellingen")).text


async def test_personal_details_asked_in_the_group_go_privately(bot, members):
    await set_up_club(bot, members, rounds=1)
    mark = len(bot.tg.sent)
    note = await bot.ask(members[0], "/mijn", chat_id=GROUP)
    assert note.text == says("SENT_PRIVATELY")
    private = await bot.tg.wait_for(lambda s: s.chat_id == members[0].id, after=mark)
    assert says("MIJN_NO_SIGNOFFS") in private.text
    bot.tg.fail_next("sendMessage", 403, chat_id=members[1].id)
    note = await bot.ask(members[1], "/mijn", chat_id=GROUP)
    assert note.text == says("START_PRIVATE_FIRST")


async def test_chart_export_and_crosstable_are_sent(bot, members):
    await set_up_club(bot, members, rounds=1)
    assert (await bot.ask(members[0], "/grafiek")).text == says("CHART_NONE")
    await pass_deadline(bot, 1)
    await publish(bot, 1)
    for board in range(1, 4):
        await bot.ask(ARBITER, f"/uitslag {board} 1-0")
    photo = await bot.ask(members[0], "/grafiek")
    assert photo.method == "sendPhoto" and photo.text == says("CHART_CAPTION", round=1)
    document = await bot.ask(ARBITER, "/export")
    assert document.method == "sendDocument" and document.text == says("EXPORT_CAPTION", round=1)
    cross = await bot.ask(members[0], "/stand kruistabel")
    assert cross.method == "sendDocument" and cross.text == says("CROSSTABLE_CAPTION", round=1)
    refused = await bot.ask(members[0], "/export")
    assert refused.text == says("ONLY_ARBITER")


async def test_period_and_group_tables_follow_the_rules(bot, members):
    await set_up_club(bot, members, rounds=1)
    assert (await bot.ask(members[0], "/stand periode")).text == says("NO_PERIOD_GROUPS")
    await bot.ask(ARBITER, "/instellingen reglement drie-groepen")
    await pass_deadline(bot, 1)
    await publish(bot, 1)
    for board in range(1, 4):
        await bot.ask(ARBITER, f"/uitslag {board} 1-0")
    tables = await bot.ask(members[0], "/stand periode")
    assert fits(tables.plain, "PERIOD_TABLE_TITLE", period=1, group=3)
    assert (await bot.ask(members[0], "/stand groep")).text == says("NO_SUBGROUPS")
    preview = await bot.ask(ARBITER, "/instellingen reglement drie-cycli")
    assert fits(preview.text, "RULES_PREVIEW", round=1)  # a round is played: shown first
    await bot.ask(ARBITER, "/instellingen reglement drie-cycli bevestig")
    groups = await bot.ask(members[0], "/stand groep")
    assert all(says("SUBGROUP_TITLE", group=g) in groups.plain for g in (1, 2))


async def test_the_daily_backup_job_writes_a_copy(bot, members):
    from bot.telegram import jobs

    backups = bot.config.database.path.parent / "backups"
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
    assert says("PAIRING_BYE", name="Bram de Boer") in again.text
