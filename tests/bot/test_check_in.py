"""Issue 36 over HTTP: a round paired at the venue (`/ronde nieuw ... ter plaatse`). At its
deadline the sign-offs close as always and the group gets *Ik ben er*; nothing is paired. The
members in the room tap it (or the arbiter says it for them), `/indeling maak` pairs only
those, the others are absent (with notice as they signed off, else without), a member who
comes after the draft is paired in again, and one who comes after the pairing is out is the
arbiter's to give a board."""

from __future__ import annotations

import re

from bot.demo.fakeapi import User
from bot.language import texts
from bot.language.i18n import words
from bot.language.notice import Text
from core.rounds import RoundState
from storage import programme
from storage.errors import StoreError, StoreProblem
from tests.bot.conftest import ARBITER, GROUP, STRANGER, boards, drafted, fits, meaning, said, says
from tests.bot.steps import publish, round_absences, set_up_club
from tests.bot.venue import four_in_the_room_paired, open_the_room, room_of, tapped
from tests.bot.web import board_tap, get, own_headers, tap


async def test_a_round_at_the_venue_pairs_those_in_the_room(bot, members):
    await set_up_club(bot, members, rounds=0)
    planned = await bot.ask(ARBITER, "/ronde nieuw 3-12-2026 ter plaatse")
    assert fits(planned.text, "RONDE_ADDED", round=1)
    assert says("RONDE_ON_SITE") in planned.text
    assert says("ON_SITE_MARK") in (await bot.ask(ARBITER, "/ronde")).text
    anna, bram, cor, _, eva, femke = members
    await bot.ask(femke, "/afmelden ziek")

    opened = await open_the_room(bot)
    assert not [s for s in bot.tg.sent if s.text == drafted(1)]  # nothing paired by itself
    for member in (anna, bram, cor):
        assert await tapped(bot, member, opened) == says("HERE_NOTED", round=1)
    assert await tapped(bot, anna, opened) == says("HERE_ALREADY", round=1)
    assert await tapped(bot, STRANGER, opened) == says("ATTEND_UNLINKED")
    ticked = await bot.ask(ARBITER, "/indeling erbij Daan Smit")
    assert ticked.text == says("ROOM_HERE", name="Daan Smit", round=1, count=4)
    room = await bot.ask(ARBITER, "/indeling")
    assert room.text.startswith(says("ROOM_TITLE", round=1, count=4))
    assert says("ROOM_MISSING", names="Eva Bos") in room.text
    assert says("ROOM_OFF", names="Femke Kok") in room.text

    made = await bot.ask(ARBITER, "/indeling maak")
    assert {name for board in boards(made.text) for name in board} == \
        {"Anna Visser", "Bram de Boer", "Cor Jansen", "Daan Smit"}
    assert await round_absences(bot, 1) == {"Eva Bos": "no_notice", "Femke Kok": "notice"}

    # Eva comes in after the draft: she is paired in, and the arbiter sees the new draft.
    mark = len(bot.tg.sent)
    assert await tapped(bot, eva, opened) == says("HERE_NOTED", round=1)
    again = await bot.tg.next_to(ARBITER.id, meaning("DRAFT_CAME", name="Eva Bos", round=1),
                                 after=mark)
    assert "Eva Bos" in again.text
    assert await round_absences(bot, 1) in ({"Femke Kok": "notice"},  # she plays, or has
                                            {"Femke Kok": "notice", "Eva Bos": "bye"})  # the bye

    post = await publish(bot, 1)
    assert len(boards(post.text)) == 2  # five in the room: one has the bye
    # Femke comes after all, with the pairing out: the arbiter decides.
    mark = len(bot.tg.sent)
    assert await tapped(bot, femke, opened) == says("HERE_LATE", round=1)
    await bot.tg.next_to(ARBITER.id, meaning("CHECK_IN_LATE", name="Femke Kok", round=1),
                         after=mark)
    given = await bot.ask(ARBITER, "/indeling erbij Femke Kok")
    assert "Femke Kok" in given.text and "Traceback" not in given.text
    assert "Femke Kok" not in await round_absences(bot, 1)


async def test_late_comers_after_the_pairing_get_the_bye_then_each_other(bot, members):
    """Four in the room, paired and published; the fifth comes late and the arbiter puts him
    in: nobody is free, so he has the bye; the sixth comes later still and plays him."""
    opened = await four_in_the_room_paired(bot, members)
    await publish(bot, 1)
    eva, femke = members[4:]
    for late, name in ((eva, "Eva Bos"), (femke, "Femke Kok")):
        mark = len(bot.tg.sent)
        assert await tapped(bot, late, opened) == says("HERE_LATE", round=1)
        await bot.tg.next_to(ARBITER.id, meaning("CHECK_IN_LATE", name=name, round=1),
                             after=mark)
    mark = len(bot.tg.sent)
    first = await bot.ask(ARBITER, "/indeling erbij Eva Bos")
    assert first.text == says("NIGHT_BYE_LATE", player="Eva Bos")
    await bot.tg.next_to(eva.id, says("NIGHT_YOU_BYE_LATE", round=1), after=mark)
    assert (await round_absences(bot, 1))["Eva Bos"] == "bye"
    second = await bot.ask(ARBITER, "/indeling erbij Femke Kok")
    assert fits(second.text, "NIGHT_REPAIRED", board=3)
    assert {"Eva Bos", "Femke Kok"} <= set(second.text.replace(".", "").split(": ")[1]
                                           .split(" – "))
    assert await round_absences(bot, 1) == {}


async def test_the_arbiter_takes_back_a_tick_and_the_draft_goes(bot, members):
    await four_in_the_room_paired(bot, members)
    gone = await bot.ask(ARBITER, "/indeling afwezig Daan Smit")
    assert gone.text == says("ROOM_GONE", name="Daan Smit", round=1, count=3) + "\n" \
        + says("ROOM_DRAFT_DROPPED")  # issue 47: the draft that went is said
    assert [r.state for r in await programme.schedule(bot.app.bot_data.db)] == \
        [RoundState.LOCKED]
    not_there = await bot.ask(ARBITER, "/indeling afwezig Daan Smit")
    assert not_there.text == says("ROOM_NOT", name="Daan Smit", round=1)
    made = await bot.ask(ARBITER, "/indeling maak")
    assert "Daan Smit" not in {name for board in boards(made.text) for name in board}


async def test_refusals_at_the_venue_in_both_languages(bot, members):
    """Ik ben er before the room opens, or for a round paired as usual; pairing with one in
    the room: each refused in the reader's language, nothing stored."""
    english = User(members[1].id, "Bram", "de Boer", language_code="en-GB")
    await set_up_club(bot, members, rounds=1)  # round 1 as usual, on 3 December
    await bot.ask(members[0], "/indeling")  # Anna speaks Dutch from here on; Bram English
    await bot.ask(ARBITER, "/ronde nieuw 10-12-2026 ter plaatse")
    reminder = await bot.ask(ARBITER, "/ronde")
    for user, language in ((members[0], "nl"), (english, "en")):
        refused = await tapped(bot, user, reminder, 1)
        assert refused == _problem(StoreProblem.NOT_ON_SITE, language, round=1)
        refused = await tapped(bot, user, reminder, 2)
        assert refused == _problem(StoreProblem.CHECK_IN_LATER, language, round=2)
    await bot.ask(ARBITER, "/taal en")
    english_arbiter = await bot.ask(ARBITER, "/round new 17-12-2026 on site")
    assert fits(english_arbiter.text, "RONDE_ADDED", "en", round=3)
    assert said(Text("RONDE_ON_SITE"), "en") in english_arbiter.text

    # Round 1 out of the way (paired as usual), round 2's room open with one member in it.
    bot.clock.now = bot.clock.now.replace(month=12, day=3, hour=18)
    await bot.tg.wait_for(lambda s: s.text.startswith(drafted(1, "en")))
    await bot.ask(ARBITER, "/pairing confirm")
    bot.clock.now = bot.clock.now.replace(month=12, day=10, hour=18)
    opened = await bot.tg.wait_for(meaning_of("CHECK_IN_OPEN", round=2))
    await tapped(bot, members[0], opened, 2)
    alone = await bot.ask(ARBITER, "/pairing make")
    assert alone.text == _problem(StoreProblem.NOBODY_HERE, "en", round=2, count=1)
    assert [r.state for r in await programme.schedule(bot.app.bot_data.db)][1] is \
        RoundState.LOCKED
    assert await round_absences(bot, 2) == {}


def _problem(problem: StoreProblem, language: str, **facts: object) -> str:
    return texts.store_problem(words(language), StoreError(problem, **facts))


def meaning_of(key: str, **facts: object):
    test = meaning(key, **facts)
    return lambda sent: sent.chat_id == GROUP and test(sent.text)


async def test_the_room_in_the_mini_app(web_bot, members):
    """A member taps Ik ben er in his season; the arbiter ticks one in on his board, takes
    one out, and pairs (Indelen): only those in the room are on the draft's boards. A stale
    room changes nothing; a member cannot tick on the board, nor for another."""
    bot = web_bot
    await set_up_club(bot, members, rounds=0)
    await bot.ask(ARBITER, "/ronde nieuw 3-12-2026 ter plaatse")
    anna, bram, cor, daan = members[:4]
    season = (await get(bot, "/mij-seizoen", **own_headers(bot, anna.id)))[1]
    assert 'data-here="1"' not in season  # not before the room opens
    await open_the_room(bot)
    season = (await get(bot, "/mij-seizoen", **own_headers(bot, anna.id)))[1]
    assert 'data-here="1"' in season and fits(season, "MY_ROUND_COMING")
    for member in (anna, bram):
        status, season = await tap(bot, member.id, {"round": 1, "here": True})
        assert status == 200 and fits(season, "HERE_NOTED", round=1)
        assert 'data-here="1"' not in season and fits(season, "MY_ROUND_HERE")

    status, page, _ = await get(bot, "/mij-bord", **own_headers(bot))
    version, here, can = room_of(page)
    assert status == 200 and here == ["p0", "p1"] and {"p2", "p3"} <= set(can)
    assert fits(page, "ROOM_TITLE", round=1, count=2) and 'data-act="pair"' in page
    for tick in ({"action": "here", "a": "p2"}, {"action": "here", "a": "p3"},
                 {"action": "gone", "a": "p1"}):
        status, page = await board_tap(bot, ARBITER.id, {**tick, "version": version})
        assert status == 200, page
        version, here, _ = room_of(page)
    assert here == ["p0", "p2", "p3"] and fits(page, "ROOM_GONE", name="Bram de Boer")
    status, page = await board_tap(bot, ARBITER.id, {"action": "here", "a": "p4",
                                                     "version": "0" * 16})
    assert status == 409 and fits(page, "BOARD_STALE") and room_of(page)[1] == here
    # Nobody else: a member on the board, or for another member in his season.
    assert (await board_tap(bot, cor.id, {"action": "here", "a": "p5",
                                          "version": version}))[0] == 403
    assert (await tap(bot, daan.id, {"round": 1, "here": "p5"}))[0] == 400

    status, page = await board_tap(bot, ARBITER.id, {"action": "pair", "version": version})
    assert status == 200 and 'data-act="publish"' in page
    paired = set(re.findall(r'data-player="(\w+)"', page)) - set(
        re.findall(r'data-player="(\w+)" data-away="1"', page))
    assert paired == {"p0", "p2", "p3"}  # three in the room: one of them has the bye


async def test_late_comers_on_the_arbiters_board(web_bot, members):
    """Published with four in the room; two come in late. The board lists them; a tap on the
    first gives him the bye (nobody free), a tap on the second a board against him; a stale
    board changes nothing; then the board has nobody late left to show."""
    bot = web_bot
    opened = await four_in_the_room_paired(bot, members)
    await publish(bot, 1)
    for late, name in ((members[4], "Eva Bos"), (members[5], "Femke Kok")):
        mark = len(bot.tg.sent)
        await tapped(bot, late, opened)
        await bot.tg.next_to(ARBITER.id, meaning("CHECK_IN_LATE", name=name, round=1),
                             after=mark)
    status, page, _ = await get(bot, "/mij-bord", **own_headers(bot))
    assert status == 200 and fits(page, "LATE_TITLE", round=1)
    version = re.search(r'data-version="([0-9a-f]+)"', page).group(1)
    assert re.findall(r'data-act="arrive" data-a="(\w+)"', page) == ["p4", "p5"]
    status, page = await board_tap(bot, ARBITER.id, {"action": "arrive", "a": "p4",
                                                     "version": version})
    assert status == 200 and fits(page, "NIGHT_BYE_LATE", player="Eva Bos")
    status, again = await board_tap(bot, ARBITER.id, {"action": "arrive", "a": "p5",
                                                      "version": version})
    assert status == 409 and fits(again, "BOARD_STALE")
    version = re.search(r'data-version="([0-9a-f]+)"', page).group(1)
    status, page = await board_tap(bot, ARBITER.id, {"action": "arrive", "a": "p5",
                                                     "version": version})
    assert status == 200 and fits(page, "NIGHT_REPAIRED", board=3)
    assert 'data-act="arrive"' not in page and fits(page, "BOARD_NONE")
    assert await round_absences(bot, 1) == {}


async def test_a_toast_in_the_group_speaks_the_pressers_language(bot, members):
    """Issue 47: *Ik ben er* under the group's (Dutch) message, pressed by a member who
    speaks English, is answered in English: a toast is for one person."""
    await set_up_club(bot, members, rounds=0)
    await bot.ask(ARBITER, "/ronde nieuw 3-12-2026 ter plaatse")
    anna, bram = members[0], members[1]
    await bot.ask(bram, "/taal en")
    opened = await open_the_room(bot)
    assert await tapped(bot, anna, opened) == says("HERE_NOTED", round=1)
    assert await tapped(bot, bram, opened) == said(Text("HERE_NOTED", {"round": 1}), "en")
    assert await tapped(bot, STRANGER, opened) == says("ATTEND_UNLINKED")
