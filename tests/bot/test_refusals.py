"""Issue 12: every refusal a user can meet, sent through the bot, in plain Dutch: no internal
id, no field path, no English; inputs that used to crash a handler are refused or done."""

from __future__ import annotations

import pytest

from bot.demo.fakeapi import User
from bot.flows import refused
from bot.language import texts
from bot.language.i18n import words
from bot.language.notice import Text
from bot.services import Services
from core.errors import Expected, Problem, ProblemCode
from core.ratings import ListProblem, RatingListError
from core.trf import Assumed, TrfError, TrfProblem
from storage.errors import StoreError, StoreProblem
from tests.bot.conftest import ARBITER, GROUP, asks_to_confirm, said, stored_rows
from tests.bot.refusal_cases import FACTS, REFUSALS, plain_dutch
from tests.bot.steps import pass_deadline, publish, set_up_club

STRANGER = User(555, "Vreemde", "Eend")


async def test_every_refusal_in_plain_dutch_and_nothing_stored(bot, members, subtests):
    """Each refusal of the catalogue (`REFUSALS`) sent in turn to one club's bot, a subtest
    each: answered in plain Dutch (or, in the group, not at all), and the store left as it
    was, so the next meets the same club."""
    await set_up_club(bot, members, rounds=3)
    for who, text, expected in REFUSALS:
        with subtests.test(text):
            before = await _stored(bot)
            user = ARBITER if who == "arbiter" else members[1]
            if expected is None:
                mark = len(bot.tg.sent)
                bot.says(user, text, chat_id=GROUP)
                await bot.settled()
                assert not bot.tg.sent[mark:]
            else:
                answer = await bot.ask(user, text)
                if isinstance(expected, Text):  # a sign-off's refusal: then how to sign off
                    assert answer.text.startswith(said(expected)), answer.text
                else:
                    assert answer.text.startswith(expected) or expected in answer.text, \
                        answer.text
                assert plain_dutch(answer.text), answer.text
            assert await _stored(bot) == before


async def _stored(bot) -> list:
    return await stored_rows(bot.app.bot_data.db,
                             ("round", "signoff", "player", "club", "arbiter", "season",
                              "apart"))


async def test_every_store_refusal_reads_as_dutch(bot):
    """Each refusal of the store, with the facts the store gives it, as the chat shows it
    (players by name, states in words)."""
    services: Services = bot.app.bot_data
    for problem in StoreProblem:
        error = StoreError(problem, player="p1", round=3, board=2, state="drafted",
                           result="1-0", path="keizer.db", reason="schijf", version=9,
                           known=3, date="3 dec", other=4, time="20:00", club=2,
                           role="clubs", name="Caissa", count=1, hosts="web-1")
        text = said(await refused.said(services, error))
        assert "?" not in text and plain_dutch(text.replace("keizer.db", "")), text


@pytest.mark.parametrize("code", list(ProblemCode))
def test_every_problem_of_a_change_reads_as_dutch(code):
    problems = (Problem("rounds[0].games[1].white", code,
                        {"player": "p7", "value": "3", "key": "kleur", "round": "1",
                         "expected": "an odd number of players", "other": "x",
                         "other_value": "y", "line": "1", "column": "2", "reason": "fout"}),
                Problem("rules.top_value", code, {"value": "nul", "expected": "integer"}))
    text = texts.chat_problems(words("nl"), problems, {"p7": "Anna Visser"})
    assert "p7" not in text and "rounds" not in text and "[" not in text, text
    assert "regel top_value" in text


@pytest.mark.parametrize("problem", list(ListProblem))
def test_every_problem_of_a_rating_list_reads_as_dutch(problem):
    text = texts.rating_list_problem(words("nl"), RatingListError(problem, **FACTS))
    assert "?" not in text and plain_dutch(text.replace("KLASSIEK.csv", "")
                                           .replace("RAPID.csv", "")), text


@pytest.mark.parametrize("problem", list(TrfProblem))
def test_every_problem_of_a_trf_reads_as_dutch(problem):
    text = texts.trf_problem(words("nl"), TrfError(problem, 3, round="2", opponent="7"))
    assert "?" not in text and plain_dutch(text), text


def test_everything_a_trf_import_assumes_reads_as_dutch():
    lines = texts.assumed(words("nl"), dict.fromkeys(Assumed, 2), "sliedrecht")
    assert len(lines) == len(Assumed)
    assert all("?" not in line and plain_dutch(line) for line in lines), lines


async def test_a_forged_confirmation_of_ones_own_report_is_refused(bot, members):
    await set_up_club(bot, members, rounds=1)
    await pass_deadline(bot, 1)
    post = await publish(bot, 1)
    by_name = {f"{u.first_name} {u.last_name}": u for u in members}
    white = by_name[post.text.split("1. ", 1)[1].split(" (", 1)[0]]
    mark = len(bot.tg.sent)
    await bot.ask(white, "/uitslag 1-0", chat_id=GROUP, reply_to=post)
    ask = await bot.tg.wait_for(asks_to_confirm, after=mark)
    answered = len(bot.tg.answered)
    bot.tg.press(white, ask, ask.buttons[0][1])  # his opponent's button, pressed by him
    assert await bot.tg.toast(answered) == texts.NOT_YOUR_BUTTON
    assert ask.edits == []
    assert plain_dutch(texts.NOT_YOUR_BUTTON)


async def test_a_button_no_handler_takes_is_answered(bot, members):
    await set_up_club(bot, members, rounds=1)
    note = await bot.ask(members[0], "/help")
    for data in ("res:v1:x:y:z", "oud:v0:1", "link:v9:abc:1", "ik:v2:onbekend",
                 "res:v1:1:99:1-0"):
        answered = len(bot.tg.answered)
        bot.tg.press(members[0], note, data)
        toast = await bot.tg.toast(answered)
        assert toast and plain_dutch(toast), (data, toast)


async def test_taking_over_a_linked_member_needs_a_second_tap_and_tells_him(bot, members):
    await set_up_club(bot, members, rounds=1)
    hugo = members[4]
    mark = len(bot.tg.sent)
    await bot.ask(STRANGER, "/ik Eva Bos", contains="wedstr")
    ask = await bot.tg.wait_for(lambda s: s.chat_id == ARBITER.id and "Koppelen" in s.text,
                                after=mark)
    assert "Eva Bos is al gekoppeld aan een ander Telegram-account" in ask.text
    bot.tg.press(ARBITER, ask, ask.buttons[0][1])
    again = await bot.tg.edited(ask, "echt overzetten")
    assert not [s for s in bot.tg.sent[mark:] if s.chat_id == hugo.id]
    still = await bot.ask(hugo, "/mijn")
    assert "Ik weet nog niet wie je bent" not in still.text
    bot.tg.press(ARBITER, again, again.buttons[0][1])
    told = await bot.tg.wait_for(lambda s: s.chat_id == hugo.id and "niet meer gekoppeld"
                                 in s.text, after=mark)
    assert "Eva Bos" in told.text
    welcome = await bot.tg.wait_for(lambda s: s.chat_id == STRANGER.id and "gekoppeld aan"
                                    in s.text, after=mark)
    assert "Eva Bos" in welcome.text


async def test_a_member_with_a_long_id_can_be_linked(bot, members):
    """Button data stays within Telegram's 64 bytes whatever the player id (the fake refuses
    longer data with BUTTON_DATA_INVALID, as Telegram does)."""
    await set_up_club(bot, members, rounds=1)
    name = "Maria Theresia Walburga Amalia Christina van Oostenrijk-Habsburg"
    await bot.ask(ARBITER, f"/speler nieuw {name} 1500")
    mark = len(bot.tg.sent)
    sent = await bot.ask(STRANGER, f"/ik {name}", contains="wedstr")
    assert "gestuurd" in sent.text
    ask = await bot.tg.wait_for(lambda s: s.chat_id == ARBITER.id and "Koppelen" in s.text,
                                after=mark)
    assert all(len(data.encode()) <= 64 for _, data in ask.buttons)
    bot.tg.press(ARBITER, ask, ask.buttons[0][1])
    welcome = await bot.tg.wait_for(lambda s: s.chat_id == STRANGER.id and
                                    "Je bent gekoppeld" in s.text, after=mark)
    assert name in welcome.text


@pytest.mark.parametrize("expected", list(Expected))
def test_every_expected_value_is_said_in_dutch(expected):
    """What the core says a value should have been reaches the user in Dutch, whichever."""
    text = texts.problem(words("nl"), Problem("", ProblemCode.WRONG_TYPE,
                                 {"value": "x", "expected": expected.value}))
    assert text.startswith("verwacht ") and f"verwacht {expected.value}," not in text


@pytest.mark.parametrize("language", ["nl", "en"])
@pytest.mark.parametrize("club", [None, 3])
async def test_a_club_without_an_arbiter_is_told_how_it_gets_one(tg, tmp_path, processes,
                                                                 members, language, club,
                                                                 caplog):
    """Issue 46: KEIZER_ARBITERS left empty (or a host's club given none): an arbiter's
    command says how the club gets its first arbiter, with the sender's own Telegram id; the
    start's log says so too."""
    from tests.bot.conftest import club_bot

    with caplog.at_level("WARNING", logger="bot.telegram.runtime"):
        bot = await club_bot(tg, tmp_path / "keizer.db", processes, arbiters=(), club=club)
    try:
        how = "KEIZER_ARBITERS" if club is None else f"clubs arbiter {club} --arbiter"
        assert any(how in r.getMessage() for r in caplog.records)
        first = User(members[0].id, members[0].first_name, members[0].last_name,
                     language_code=language)
        answer = await bot.ask(first, "/ronde nieuw 9 december")
        assert answer.text == said(Text("NO_ARBITER_YET", {"id": first.id}) if club is None
                                   else Text("NO_ARBITER_YET_HOSTED", {"id": first.id,
                                                                       "club": club}), language)
    finally:
        await bot.stop()
