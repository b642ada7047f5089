"""Issue 47: the evening at the venue when it is busy: the board in the Mini App and the
chat do the same for a member who comes or does not, a late comer without a phone is seated,
and a draft that went says so."""

from __future__ import annotations

import asyncio
import datetime as dt
import re

import pytest

from bot.language.notice import Dated, Text
from core.season import read_season
from storage.errors import StoreProblem
from tests.bot.conftest import ARBITER, GROUP, club_bot, fits, meaning, said, says
from tests.bot.conftest import refused as refused_as
from tests.bot.steps import pass_deadline, publish, round_absences, set_up_club
from tests.bot.venue import four_in_the_room_paired, open_the_room, tapped
from tests.bot.web import PUBLIC_URL, board_of, board_tap, get, own_headers


@pytest.fixture
async def web_bot(tg, tmp_path, processes):
    running = await club_bot(tg, tmp_path / "keizer.db", processes, web_port=0,
                             public_url=PUBLIC_URL)
    yield running
    await running.stop()


async def venue_round_drafted(bot, members) -> tuple[object, str]:
    """Round 1 at the venue: Femke signed off in time, the first four in the room and
    paired; the group's *Ik ben er*, and the board's version."""
    await set_up_club(bot, members, rounds=0)
    await bot.ask(ARBITER, "/ronde nieuw 3-12-2026 ter plaatse")
    await bot.ask(members[5], "/afmelden")
    opened = await open_the_room(bot)
    for member in members[:4]:
        await tapped(bot, member, opened)
    await bot.ask(ARBITER, "/indeling maak")
    status, page, _ = await get(bot, "/mij-bord", **own_headers(bot))
    assert status == 200
    return opened, board_of(page)[0]


async def test_the_boards_erbij_seats_a_member_who_signed_off_as_the_chat_does(web_bot,
                                                                               members):
    """Point 3: Femke signed off in time (her share of the points kept), then came: *Erbij*
    on the board puts her in the room and in the new draft, her sign-off gone."""
    bot = web_bot
    _, version = await venue_round_drafted(bot, members)
    assert (await round_absences(bot, 1))["Femke Kok"] == "notice"
    status, page = await board_tap(bot, ARBITER.id, {"action": "back", "a": "p5",
                                                     "version": version})
    assert status == 200 and fits(page, "BOARD_BACK_DONE", name="Femke Kok")
    from storage import rounds

    stored = await rounds.stored_pairing(bot.app.bot_data.db, 1)
    assert stored is not None and "p5" in {stored.bye, *(p for b in stored.boards
                                                       for p in (b.white, b.black))}
    assert (await round_absences(bot, 1)).get("Femke Kok") in (None, "bye")


async def test_the_boards_afwezig_is_the_chats(web_bot, members):
    """Point 4: one member leaves the room on the board, another in the chat: both are
    absent the same way (without notice: they said they were there, and did not play)."""
    bot = web_bot
    _, version = await venue_round_drafted(bot, members)
    status, page = await board_tap(bot, ARBITER.id, {"action": "absent", "a": "p0",
                                                     "version": version})
    assert status == 200 and fits(page, "BOARD_ABSENT_DONE", name="Anna Visser")
    chat = await bot.ask(ARBITER, "/indeling afwezig Bram de Boer")
    assert fits(chat.text, "ROOM_GONE", name="Bram de Boer", round=1)
    await bot.ask(ARBITER, "/indeling maak")
    absences = await round_absences(bot, 1)
    assert absences["Anna Visser"] == absences["Bram de Boer"] == "no_notice"


@pytest.mark.parametrize("language", ["nl", "en"])
async def test_a_draft_that_went_is_said_and_how_to_make_it_again(bot, members, language):
    """Point 6: `/indeling afwezig` in the room after the draft says the draft went;
    `/indeling bevestig` then says how to make one."""
    await four_in_the_room_paired(bot, members)
    if language == "en":
        await bot.ask(ARBITER, "/taal en")
    gone = await bot.ask(ARBITER, "/indeling afwezig Anna Visser")
    assert fits(gone.text, "ROOM_GONE", language, name="Anna Visser", round=1)
    assert fits(gone.text, "ROOM_DRAFT_DROPPED", language)
    refused = await bot.ask(ARBITER, "/indeling bevestig" if language == "nl"
                            else "/pairing confirm")
    assert refused.text == refused_as(StoreProblem.NO_DRAFT, language)
    assert ("/indeling maak" if language == "nl" else "/pairing make") in refused.text


async def test_a_late_comer_without_a_phone_is_seated_by_the_arbiter(bot, members):
    """Point 5: four paired and published, no bye; Eva comes late and has no phone to tap
    *Ik ben er*: `/indeling erbij Eva Bos` gives her the bye, as her own tap would have."""
    await four_in_the_room_paired(bot, members)
    await publish(bot, 1)
    mark = len(bot.tg.sent)
    seated = await bot.ask(ARBITER, "/indeling erbij Eva Bos")
    assert seated.text == says("NIGHT_BYE_LATE", player="Eva Bos")
    await bot.tg.next_to(members[4].id, says("NIGHT_YOU_BYE_LATE", round=1), after=mark)
    assert (await round_absences(bot, 1))["Eva Bos"] == "bye"


async def test_a_postponed_evening_starts_with_an_empty_room_and_a_new_reminder(bot, members):
    """Points 7 and 8: round 1 at the venue, its reminder out and its room open with two in
    it, is postponed a week: the group hears the new date at once, gets a new reminder
    before the new deadline, and the new evening's room starts empty."""
    await set_up_club(bot, members, rounds=0)
    await bot.ask(ARBITER, "/ronde nieuw 3-12-2026 ter plaatse")
    bot.clock.now = bot.clock.now.replace(month=12, day=2, hour=20)
    first = await bot.tg.wait_for(lambda s: s.chat_id == GROUP and fits(s.text, "REMINDER"))
    assert fits(first.text, "REMINDER", round=1, date=Dated(dt.date(2026, 12, 3)))
    opened = await open_the_room(bot)
    for member in members[:2]:
        await tapped(bot, member, opened)
    mark = len(bot.tg.sent)
    moved = await bot.ask(ARBITER, "/ronde uitstel 1 10-12-2026")
    assert fits(moved.text, "RONDE_MOVED", round=1, date=Dated(dt.date(2026, 12, 10)))
    told = await bot.tg.next_to(GROUP, meaning("ROUND_MOVED_GROUP", round=1), after=mark)
    assert fits(told.text, "ROUND_MOVED_GROUP", date=Dated(dt.date(2026, 12, 10)))
    bot.clock.now = bot.clock.now.replace(day=9, hour=20)
    again = await bot.tg.next_to(GROUP, meaning("REMINDER", round=1), after=mark)
    assert fits(again.text, "REMINDER", date=Dated(dt.date(2026, 12, 10)))
    mark = len(bot.tg.sent)
    bot.clock.now = bot.clock.now.replace(day=10, hour=18)
    await bot.tg.next_to(GROUP, meaning("CHECK_IN_OPEN", round=1), after=mark)
    await bot.tg.next_to(ARBITER.id, meaning("CHECK_IN_TO_ARBITER", round=1), after=mark)
    room = await bot.ask(ARBITER, "/indeling")
    assert room.text.startswith(says("ROOM_TITLE", round=1, count=0))


async def two_rounds_open(bot, members) -> tuple[list[str], object]:
    """Round 1 (3 December) published with board 3 still to be played (postponed); round 2
    at the venue tonight (10 December), its room open, board 3's two players and two more
    in it, paired and published. Round 1's board 3 players, and the group's *Ik ben er*."""
    from storage import rounds as stored_rounds

    await set_up_club(bot, members, rounds=1)
    await pass_deadline(bot, 1)
    await publish(bot, 1)
    first = await stored_rounds.stored_pairing(bot.app.bot_data.db, 1)
    assert first is not None
    for board in first.boards[:2]:
        await bot.ask(ARBITER, f"/uitslag {board.number} 1-0 ronde 1")
    waiting = [first.boards[2].white, first.boards[2].black]
    await bot.ask(ARBITER, "/ronde nieuw 10-12-2026 ter plaatse")
    mark = len(bot.tg.sent)
    bot.clock.now = bot.clock.now.replace(day=10, hour=18)
    opened = await bot.tg.next_to(GROUP, meaning("CHECK_IN_OPEN", round=2), after=mark)
    await bot.tg.next_to(ARBITER.id, meaning("CHECK_IN_TO_ARBITER", round=2), after=mark)
    others = [code for code in (f"p{k}" for k in range(6)) if code not in waiting]
    for code in [*waiting, *others[:2]]:
        await tapped(bot, members[int(code[1:])], opened, 2)
    await bot.ask(ARBITER, "/indeling maak")
    await publish(bot, 2)
    return waiting, opened


def _name(members, code: str) -> str:
    user = members[int(code[1:])]
    return f"{user.first_name} {user.last_name}"


async def test_with_two_rounds_open_the_evenings_commands_act_on_tonight(bot, members):
    """Points 1 and 2: round 1 has a game still to play and round 2 is tonight. `/indeling
    afwezig` for a player of both changes tonight's board, not his round 1 game; a late
    comer who taps *Ik ben er* is seated in tonight's round by the command the bot gives
    the arbiter."""
    waiting, opened = await two_rounds_open(bot, members)
    name = _name(members, waiting[0])
    gone = await bot.ask(ARBITER, f"/indeling afwezig {name}")
    tonight = await _stored(bot, 2)
    [board] = [b for b in tonight.boards if waiting[0] in (b.white, b.black)]
    assert fits(gone.text, "NIGHT_FORFEIT", board=board.number), gone.text
    from storage import results

    db = bot.app.bot_data.db
    assert (await results.game(db, 2, board.number)).result is not None  # tonight's board
    assert (await results.game(db, 1, 3)).result is None  # his round 1 game: still to play
    late = members[int(sorted({f"p{k}" for k in range(6)} - set(waiting))[-1][1:])]
    late_name = f"{late.first_name} {late.last_name}"
    mark = len(bot.tg.sent)
    assert await tapped(bot, late, opened, 2) == says("HERE_LATE", round=2)
    told = await bot.tg.next_to(ARBITER.id, meaning("CHECK_IN_LATE", name=late_name,
                                                    round=2), after=mark)
    command = told.text.split("<code>")[1].split("</code>")[0]
    seated = await bot.ask(ARBITER, command)
    assert not fits(seated.text, "_STORE_PROBLEMS", pick=StoreProblem.ALREADY_PLAYING)
    stored = await _stored(bot, 2)
    assert waiting[0] not in _seated(stored)
    assert [c for c in _seated(stored) if c == f"p{members.index(late)}"]


async def _stored(bot, number: int):
    from storage import rounds as stored_rounds

    return await stored_rounds.stored_pairing(bot.app.bot_data.db, number)


def _seated(stored) -> set[str]:
    return {stored.bye, *(p for b in stored.boards for p in (b.white, b.black))} - {None}


@pytest.mark.parametrize("language", ["nl", "en"])
async def test_where_two_rounds_fit_and_neither_is_tonight_the_arbiter_is_asked(
        bot, members, language):
    """Point 1's other half: the day after, both rounds' games of a player are still open;
    `/indeling afwezig NAAM` asks which round, a button each, and acts on the one tapped."""
    waiting, _ = await two_rounds_open(bot, members)
    stored = await _stored(bot, 2)
    if waiting[0] not in {p for b in stored.boards for p in (b.white, b.black)}:
        pytest.skip("the pairing gave him the bye tonight")
    if language == "en":
        await bot.ask(ARBITER, "/taal en")
    bot.clock.now = bot.clock.now.replace(day=11, hour=10)
    name = _name(members, waiting[0])
    asked = await bot.ask(ARBITER, f"/indeling afwezig {name}" if language == "nl"
                          else f"/pairing absent {name}")
    assert fits(asked.text, "NIGHT_WHICH_ROUND", language, name=name), asked.text
    assert [text for text, _ in asked.buttons] == [
        said(Text("NIGHT_ROUND_BUTTON", {"round": n, "date": Dated(dt.date(2026, 12, day))}),
             language) for n, day in ((1, 3), (2, 10))]
    bot.tg.press(ARBITER, asked, asked.buttons[0][1])
    from storage import results

    for _ in range(100):
        if (await results.game(bot.app.bot_data.db, 1, 3)).result is not None:
            break
        await asyncio.sleep(0.05)
    assert (await results.game(bot.app.bot_data.db, 1, 3)).result is not None  # round 1's
    [board] = [b for b in stored.boards if waiting[0] in (b.white, b.black)]
    assert (await results.game(bot.app.bot_data.db, 2, board.number)).result is None


async def test_a_busy_evening_on_the_board_and_in_the_chat(web_bot, members):
    """The whole evening: round 1 has a game still to play; round 2 at the venue is
    postponed after its room opened, and on the new evening members come in by their tap
    and by the arbiter's tick on the board; a late comer without a phone is seated in the
    chat; round 1's game is played that night too. The standings the bot shows are the
    core's for what was kept."""
    from core.standings import compute_standings
    from storage.seasons import export_json
    from tests.bot.venue import room_of

    bot = web_bot
    waiting, _ = await two_rounds_open_postponed(bot, members)
    # 17 December: the new evening's room, empty; two tap, two the arbiter ticks in.
    mark = len(bot.tg.sent)
    bot.clock.now = bot.clock.now.replace(day=17, hour=18)
    opened = await bot.tg.next_to(GROUP, meaning("CHECK_IN_OPEN", round=2), after=mark)
    await bot.tg.next_to(ARBITER.id, meaning("CHECK_IN_TO_ARBITER", round=2), after=mark)
    for code in waiting:
        await tapped(bot, members[int(code[1:])], opened, 2)
    status, page, _ = await get(bot, "/mij-bord", **own_headers(bot))
    version, here, can = room_of(page)
    assert status == 200 and sorted(here) == sorted(waiting)
    for code in [c for c in can if c not in waiting][:2]:
        status, page = await board_tap(bot, ARBITER.id, {"action": "here", "a": code,
                                                         "version": version})
        version, here, can = room_of(page)
    assert len(here) == 4
    await bot.ask(ARBITER, "/indeling maak")
    await publish(bot, 2)
    late = next(c for c in (f"p{k}" for k in range(6)) if c not in here)
    seated = await bot.ask(ARBITER, f"/indeling erbij {_name(members, late)}")
    assert seated.text == says("NIGHT_BYE_LATE", player=_name(members, late))
    tonight = await _stored(bot, 2)
    for board in tonight.boards:
        await bot.ask(ARBITER, f"/uitslag {board.number} 1/2-1/2 ronde 2")
    mark = len(bot.tg.sent)
    await bot.ask(ARBITER, "/uitslag 3 0-1 ronde 1")
    await bot.tg.next_to(GROUP, meaning("ROUND_COMPLETE", round=1), after=mark)
    season = read_season(await export_json(bot.app.bot_data.db))
    expected = compute_standings(season)
    shown = (await bot.ask(members[0], "/stand")).text
    rows = re.findall(r"^\s*\d+\s+(\S.*?\S)\s{2,}[\d,]+\s+\d+\s*$",
                      re.sub(r"<[^>]+>", "", shown), re.M)
    assert rows == [season.player(pid).name for pid in expected.ranking], shown
    assert (await round_absences(bot, 2))[_name(members, late)] == "bye"


async def two_rounds_open_postponed(bot, members) -> tuple[list[str], object]:
    """Round 1 published with board 3 still to play; round 2 at the venue on 10 December,
    its room opened with board 3's players in it, then postponed to the 17th."""
    from storage import rounds as stored_rounds

    await set_up_club(bot, members, rounds=1)
    await pass_deadline(bot, 1)
    await publish(bot, 1)
    first = await stored_rounds.stored_pairing(bot.app.bot_data.db, 1)
    assert first is not None
    for board in first.boards[:2]:
        await bot.ask(ARBITER, f"/uitslag {board.number} 1-0 ronde 1")
    waiting = [first.boards[2].white, first.boards[2].black]
    await bot.ask(ARBITER, "/ronde nieuw 10-12-2026 ter plaatse")
    mark = len(bot.tg.sent)
    bot.clock.now = bot.clock.now.replace(day=10, hour=18)
    opened = await bot.tg.next_to(GROUP, meaning("CHECK_IN_OPEN", round=2), after=mark)
    await bot.tg.next_to(ARBITER.id, meaning("CHECK_IN_TO_ARBITER", round=2), after=mark)
    for code in waiting:
        await tapped(bot, members[int(code[1:])], opened, 2)
    moved = await bot.ask(ARBITER, "/ronde uitstel 2 17-12-2026")
    assert fits(moved.text, "RONDE_MOVED", round=2)
    return waiting, opened
