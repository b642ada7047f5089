"""Issue 26 over HTTP: a member whose Telegram speaks English links, signs off, reports a
result and reads the standings and his breakdown entirely in English, while the group, the
arbiter and the Dutch members read Dutch. `/taal` switches, the club's language is its own."""

from __future__ import annotations

import html
import re

from bot.demo.fakeapi import User
from bot.flows import refused
from bot.language import i18n, texts
from bot.language.notice import Text
from core.errors import Problem, ProblemCode
from core.ratings import ListProblem, RatingListError
from core.trf import Assumed, TrfError, TrfProblem
from storage import roster
from storage.errors import StoreError, StoreProblem
from tests.bot.conftest import ARBITER, GROUP, boards, fits, said, stored_rows
from tests.bot.refusal_cases import FACTS, REFUSALS
from tests.bot.steps import pass_deadline, publish, set_up_club

DUTCH = re.compile(r"\b(ronde|afgemeld|punten|tegen|uitslag|indeling|speelt|waarde|gekoppeld|"
                   r"wedstrijdleider|stand|bord|klopt)\b", re.IGNORECASE)
ENGLISH = re.compile(r"\b(round|signed|points|against|result|pairing|plays|value|linked|"
                     r"arbiter|standings|board|right)\b", re.IGNORECASE)


def words(message) -> str:
    """What a message says: its text and its buttons, without markup or names."""
    labels = [text for text, _ in message.buttons] if message.reply_markup else []
    text = html.unescape(re.sub(r"<[^>]+>", "", " ".join([message.text, *labels])))
    for name in ("Anna Visser", "Bram de Boer", "Cor Jansen", "Daan Smit", "Eva Bos",
                 "Femke Kok", "Testclub", "Wim Leider"):
        text = text.replace(name, "")
    return text


def said_to(bot, chat_id: int, after: int = 0) -> list:
    return [s for s in bot.tg.sent[after:] if s.chat_id == chat_id]


async def test_an_english_member_goes_through_a_round_in_english(bot, members):
    bram = User(members[1].id, "Bram", "de Boer", language_code="en-GB")
    others = [m for m in members if m.id != bram.id]
    await set_up_club(bot, others, rounds=2)
    services = bot.app.bot_data
    for k, user in enumerate(members):  # the others linked; Bram asks himself
        if user.id != bram.id:
            await roster.link(services.db, f"p{k}", user.id, actor=ARBITER.id)
        else:
            await roster.link(services.db, f"p{k}", None, actor=ARBITER.id)

    # Linking: he asks in English, the arbiter decides in Dutch, he hears it in English.
    asked = await bot.ask(bram, "/iam Bram de Boer")
    assert asked.text == "Your request to be linked to Bram de Boer has been sent to the arbiter."
    request = await bot.tg.wait_for(lambda s: s.chat_id == ARBITER.id and "Koppelen?" in s.text)
    assert [text for text, _ in request.buttons] == ["Ja, koppel", "Nee"]
    bot.tg.press(ARBITER, request, request.buttons[0][1])
    welcome = await bot.tg.wait_for(lambda s: s.chat_id == bram.id and
                                    s.text.startswith("You are linked"))
    assert welcome.text == ("You are linked to Bram de Boer. Send /help for what you can do "
                            "now.")
    assert "/signoff – sign off for the next round" in (await bot.ask(bram, "/help")).text

    # Signing off, under the English command name, in English.
    off = await bot.ask(bram, "/signoff 2")
    assert off.text.startswith("Bram de Boer is signed off for round 2 (Thu 10 Dec). That "
                               "earns ")
    dutch = await bot.ask(members[0], "/afmelden 2")
    assert dutch.text.startswith("Anna Visser is afgemeld voor ronde 2 (do 10 dec).")
    await bot.ask(members[0], "/aanmelden 2")

    # The round: the group reads Dutch, his own game comes in English.
    mark = len(bot.tg.sent)
    await pass_deadline(bot, 1)
    post = await publish(bot, 1)
    assert post.text.startswith("<b>Indeling ronde 1")
    game = await bot.tg.wait_for(lambda s: s.chat_id == bram.id and "Round 1" in s.text,
                                 after=mark)
    assert "Time control: 90+15" in game.text

    # His result, reported in private: the reply in English, the Dutch opponent asked in Dutch.
    reported = await bot.ask(bram, "/result 1-0")
    assert reported.text.startswith("Noted, round 1 board ")
    opponent = next(m for m in members if m.id != bram.id and
                    any(s.chat_id == m.id and "Klopt dat?" in s.text for s in bot.tg.sent))
    ask = next(s for s in bot.tg.sent if s.chat_id == opponent.id and "Klopt dat?" in s.text)
    assert [text for text, _ in ask.buttons] == ["Klopt", "Klopt niet"]
    bot.tg.press(opponent, ask, ask.buttons[0][1])
    await bot.tg.edited(ask, "Bevestigd")
    by_name = {f"{u.first_name} {u.last_name}": u for u in members}
    for white, black in boards(post.text):
        if bram.id in (by_name[white].id, by_name[black].id):
            continue
        before = len(bot.tg.sent)
        await bot.ask(by_name[white], "/uitslag 1-0", chat_id=GROUP, reply_to=post)
        confirm = await bot.tg.wait_for(lambda s, b=by_name[black]: s.chat_id == b.id and
                                        "Klopt dat" in s.text, after=before)
        bot.tg.press(by_name[black], confirm, confirm.buttons[0][1])
        await bot.tg.edited(confirm, "Bevestigd")
    await bot.tg.wait_for(lambda s: s.chat_id == GROUP and "Alle uitslagen" in s.text)

    # The standings and his breakdown, in English, with English numbers; Anna's in Dutch.
    table = await bot.ask(bram, "/standings")
    assert "Pos" in table.text and "Name" in table.text and "Points" in table.text
    mine = await bot.ask(bram, "/standings me")
    assert "Round" in mine.text and "What" in mine.text and "own value (start bonus)" in mine.text
    assert not re.search(r"\d,\d", words(mine))  # 42.5, not 42,5
    anna = await bot.ask(members[0], "/stand mij")
    assert "Ronde" in anna.text and "eigen waarde (startbonus)" in anna.text

    # Everything he was told was English, nothing Dutch; the group and Anna read Dutch.
    to_bram = said_to(bot, bram.id)
    assert to_bram and all(not DUTCH.search(words(s)) for s in to_bram), \
        [words(s) for s in to_bram if DUTCH.search(words(s))]
    assert all(ENGLISH.search(words(s)) or not words(s).strip() for s in to_bram)
    to_group = said_to(bot, GROUP)
    assert to_group and all(not ENGLISH.search(words(s)) for s in to_group)
    assert all(not ENGLISH.search(words(s)) for s in said_to(bot, members[0].id))


async def test_taal_switches_and_the_club_chooses_its_own(bot, members):
    await set_up_club(bot, members, rounds=1)
    assert (await bot.ask(members[2], "/taal")).text.startswith("Ik spreek nu Nederlands")
    done = await bot.ask(members[2], "/taal en")
    assert done.text == "From now on I speak English with you, also on your club page."
    assert (await bot.ask(members[2], "/help")).text.startswith("Hello! I run the club's")
    menu = bot.tg.commands.get((f'{{"chat_id": {members[2].id}, "type": "chat"}}', ""))
    assert menu is not None and menu[0]["command"] == "signoff"
    assert (await bot.ask(members[2], "/language nl")).text.startswith("Vanaf nu spreek ik "
                                                                       "Nederlands")
    refused = await bot.ask(members[2], "/taal fr")
    assert refused.text.startswith("Ik spreek nu Nederlands met je.")
    # The club's language is the group's: the arbiter sets it, the members keep their own.
    assert (await bot.ask(ARBITER, "/instellingen taal en")).text == "Opgeslagen."
    assert (await bot.ask(ARBITER, "/help", chat_id=GROUP)).text.startswith("Hello!")
    assert (await bot.ask(members[2], "/help")).text.startswith("Hallo!")
    # Who never chose and whose app names no language is spoken to in the club's.
    assert "Language of the group and the club page: English." in \
        (await bot.ask(ARBITER, "/instellingen")).text


async def test_an_english_sign_off_reads_english_words_for_rounds_and_days(bot, members):
    """Under the English name, the words of a sign-off are English too; the answer is in the
    member's language (Dutch here, the fixture's members have no other)."""
    await set_up_club(bot, members, rounds=3)
    anna = members[0]
    assert "afgemeld voor ronde 1 (do 3 dec)" in (await bot.ask(anna, "/signoff thursday")).text
    both = await bot.ask(anna, "/signoff from 2 through 3 external")
    assert "ronde 2" in both.text and "ronde 3" in both.text and "extern" in both.text
    until = await bot.ask(members[1], "/signoff until 17 December")  # not that day itself
    assert "ronde 1" in until.text and "ronde 2" in until.text and "ronde 3" not in until.text
    dated = await bot.ask(members[2], "/signoff 10 Dec")
    assert "afgemeld voor ronde 2 (do 10 dec)" in dated.text


DUTCH_WORDS = re.compile(r"\b(de|het|een|niet|geen|ronde|kan|staat|je|is er|dat|van|voor|"
                         r"wedstrijdleider|speler|afmelden|uitslag)\b", re.IGNORECASE)


async def test_every_refusal_in_english_for_an_english_speaker(bot, members, subtests):
    """The refusals of the Dutch catalogue test, sent in turn to one club's bot by members
    and an arbiter whose Telegram speaks English, a subtest each: each answered in English,
    nothing stored."""
    await set_up_club(bot, members, rounds=3)
    tables = ("round", "signoff", "player", "club", "apart")
    for who, text, expected in [r for r in REFUSALS if r[2] is not None]:
        with subtests.test(text):
            before = await stored_rows(bot.app.bot_data.db, tables)
            english = User(ARBITER.id, "Wim", "Leider", language_code="en") \
                if who == "arbiter" else User(members[1].id, "Bram", "de Boer", language_code="en")
            answer = await bot.ask(english, text)
            if isinstance(expected, Text):  # the same meaning, in English words
                assert answer.text.startswith(said(expected, "en")), answer.text
            shown = re.sub(r"<code>.*?</code>|rule [a-z_]+|Anna Visser|Bram de Boer|Cor Jansen|"
                           r"Onbekend Iemand|KEIZER_\w+", "", answer.text)
            assert shown.strip() and not DUTCH_WORDS.search(shown), answer.text
            assert not re.search(r"\bp\d+\b|\[\d*\]|\b(rules|rounds|players)\.", answer.text)
            assert await stored_rows(bot.app.bot_data.db, tables) == before


def english_only(text: str) -> bool:
    shown = re.sub(r"<code>.*?</code>|rule [a-z_]+|keizer\.db|KLASSIEK\.csv|RAPID\.csv|"
                   r"Anna Visser|Bram de Boer|--\w+", "", text)
    return bool(shown.strip()) and "?" not in shown and not DUTCH_WORDS.search(shown)


async def test_every_problem_the_store_and_the_files_name_reads_as_english(bot):
    """Each refusal of the store, each problem of a change, a rating list or a TRF, and
    what an import assumed, in English: the catalogue holds them all."""
    services, english = bot.app.bot_data, i18n.words("en")
    for problem in StoreProblem:
        error = StoreError(problem, player="p1", round=3, board=2, state="drafted",
                           result="1-0", path="keizer.db", reason="disk", version=9,
                           known=3, date="3 Dec", other=4, time="20:00", club=2,
                           role="clubs", name="Caissa", count=1, hosts="web-1")
        text = said(await refused.said(services, error), "en")
        assert english_only(text), text
    for code in ProblemCode:
        text = texts.chat_problems(english, (Problem("rules.top_value", code, {
            "value": "3", "key": "colour", "expected": "integer", "other": "x",
            "other_value": "y", "line": "1", "column": "2", "reason": "bad",
            "player": "p7", "round": "1"}),), {"p7": "Anna Visser"})
        assert english_only(text), text
    for listed in ListProblem:
        assert english_only(texts.rating_list_problem(english, RatingListError(listed, **FACTS)))
    for trf in TrfProblem:
        assert english_only(texts.trf_problem(english, TrfError(trf, 3, round="2", opponent="7")))
    assert all(english_only(line) for line in texts.assumed(english, dict.fromkeys(Assumed, 2),
                                                             "sliedrecht"))


async def test_the_sender_tells_each_arbiter_in_his_own_language(bot, members):
    """Issue 34: what the bot sends by itself is made in its reader's language, the outbox
    sender's notice of a message that did not arrive too (it spoke the process's before)."""
    await set_up_club(bot, members, rounds=1)
    await pass_deadline(bot, 1)
    chosen = await bot.ask(ARBITER, "/taal en")
    assert chosen.text == said(Text("TAAL_DONE", {"language": Text("LANGUAGE_NAMES",
                                                                    pick="en")}), "en")
    bot.tg.fail_next("sendMessage", 403, chat_id=members[3].id)
    mark = len(bot.tg.sent)
    await bot.ask(ARBITER, "/indeling bevestig", timeout=20)
    told = await bot.tg.next_to(ARBITER.id, "Daan Smit", after=mark)
    assert told.text == said(Text("UNDELIVERABLE", {
        "who": "Daan Smit", "reason": Text("UNDELIVERABLE_BLOCKED")}), "en")


async def test_a_fault_of_ours_is_said_to_each_in_his_own_language(bot, members, monkeypatch,
                                                                   caplog):
    """Issue 48: the error handler runs outside the update's handlers, and is given the
    language of the update it reports on: the English member hears that something went wrong
    in English, the Dutch arbiter is told in Dutch (there is no language of the moment)."""
    await set_up_club(bot, members, rounds=1)
    await bot.ask(members[1], "/taal en")

    async def broken(*_: object) -> None:
        raise RuntimeError("a fault of ours")

    monkeypatch.setattr("bot.flows.views.mine", broken)
    mark = len(bot.tg.sent)
    answer = await bot.ask(members[1], "/mijn")
    assert answer.text == said(Text("SOMETHING_WRONG"), "en")
    told = await bot.tg.next_to(ARBITER.id, said(Text("ERROR_TO_ARBITER")), after=mark)
    assert told.text == said(Text("ERROR_TO_ARBITER"))
    caplog.clear()  # the error this test is about


async def test_a_command_named_alike_in_both_languages_reads_english_words_too(bot, members):
    """`/arbiter`, `/export` and `/lichess` are one name in both languages: what the English
    usage tells an English speaker to type (`remove`, `previous`, `off`) works."""
    await set_up_club(bot, members, rounds=1)
    await bot.ask(ARBITER, "/taal en")
    await bot.ask(ARBITER, "/arbiter 4242")
    removed = await bot.ask(ARBITER, "/arbiter remove 4242")
    assert removed.text == said(Text("ARBITER_REMOVED", {"id": 4242}), "en")
    assert 4242 not in await bot.app.bot_data.arbiters()
    previous = await bot.ask(ARBITER, "/export previous")
    assert previous.text == said(Text("PREVIOUS_NONE"), "en")


async def test_a_commands_keywords_are_read_in_either_language(bot, members):
    """Issue 48: a command's grammar declares each keyword in both languages, so a Dutch
    command with an English word (`/ronde new … on site`) and an English command with a
    Dutch one (`/round nieuw`) are read alike, and answered in the reader's language."""
    await set_up_club(bot, members, rounds=1)
    added = await bot.ask(ARBITER, "/ronde new 17-12-2026 on site")
    assert fits(added.text, "RONDE_ADDED", round=2) and fits(added.text, "RONDE_ON_SITE")
    again = await bot.ask(ARBITER, "/round nieuw 24-12-2026 ter plaatse")
    assert fits(again.text, "RONDE_ADDED", round=3) and fits(again.text, "RONDE_ON_SITE")
    await bot.ask(ARBITER, "/taal en")
    moved = await bot.ask(ARBITER, "/round postpone 3 31-12-2026")
    assert fits(moved.text, "RONDE_MOVED", "en", round=3)
    gone = await bot.ask(ARBITER, "/ronde vervalt 3")
    assert fits(gone.text, "RONDE_CANCELLED", "en", round=3)
