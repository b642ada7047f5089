"""Issue 38 for a club of more than a screenful: `/stand` in a private chat answers with the
top and the asker's own neighbourhood in one message, and `/stand alles` with every row."""

from __future__ import annotations

import html
import re

import pytest

from bot.demo.fakeapi import User
from bot.files import messages
from storage import roster
from tests.bot.conftest import club_bot, fits
from tests.seasons import build

COUNT = 70


@pytest.fixture
async def big(tg, tmp_path, processes):
    players = [{"id": f"p{k}", "name": f"Speler{k:02d} Achternaam", "rating": 2400 - 10 * k}
               for k in range(COUNT)]
    played = ", ".join(f"p{k}-p{k + 1} 1-0" for k in range(0, COUNT, 2))
    season = build({"preset": "sliedrecht", "planned_rounds": 5, "period_length": 5},
                   players, [played])
    running = await club_bot(tg, tmp_path / "keizer.db", processes, season)
    yield running
    await running.stop()


def rows_in(text: str) -> dict[int, int]:
    """Place by player number, of each row of a table in `text`."""
    return {int(player): int(place) for place, player
            in re.findall(r"^\s*(\d+)\s+Speler(\d\d)", html.unescape(text), re.MULTILINE)}


async def test_a_long_table_is_the_top_and_my_place_and_all_of_it_on_request(big):
    """A member ranked in the middle: the top ten and the three above and below him, in one
    message that says how to get all 70; `/stand alles` shows every one of them."""
    me = User(4040, "Speler41", "Achternaam")
    await roster.link(big.app.bot_data.db, "p41", me.id, actor=None)
    answer = await big.ask(me, "/stand")
    shown = rows_in(answer.text)
    mine = shown[41]
    assert 20 < mine < 60
    assert sorted(shown.values()) == [*range(1, messages.EXCERPT_TOP + 1),
                                      *range(mine - messages.NEIGHBOURS,
                                             mine + messages.NEIGHBOURS + 1)]
    assert answer.text.count("…") == 2 and fits(answer.text, "STAND_EXCERPT_MORE", top=10,
                                                count=COUNT, command="/stand alles")
    mark = len(big.tg.sent)
    await big.ask(me, "/stand alles")
    everything = "".join(s.text for s in big.tg.sent[mark:] if s.chat_id == me.id)
    assert sorted(rows_in(everything).values()) == list(range(1, COUNT + 1))
    # A visitor who is no member: the top, and how to see the rest.
    stranger = await big.ask(User(5050, "Gast", "Iemand"), "/stand")
    assert sorted(rows_in(stranger.text).values()) == list(range(1, messages.EXCERPT_TOP + 1))
    english = await big.ask(User(6060, "Guest", "Someone", language_code="en"), "/standings")
    assert fits(english.text, "STAND_EXCERPT_MORE", language="en", top=10, count=COUNT,
                command="/standings all")


async def test_the_list_of_a_big_clubs_players_is_a_file_with_the_counts(big):
    """`/spelers` at 70 players: one file the spreadsheet opens (every player, linked or
    not, flexible or not), its caption the counts, not seventy lines in several messages; in
    English under the English command, file and words alike."""
    from bot.language import texts
    from tests.bot.conftest import ARBITER

    await roster.link(big.app.bot_data.db, "p3", 303, actor=None)
    sent = await big.ask(ARBITER, "/spelers")
    assert sent.method == "sendDocument" and sent.filename == texts.SPELERS_FILE
    assert fits(sent.text, "SPELERS_SUMMARY", count=COUNT, linked=1, flexible=0)
    rows = sent.data.decode("utf-8-sig").splitlines()
    assert rows[0] == ",".join(texts.SPELERS_COLUMNS) and len(rows) == COUNT + 1
    assert rows[4] == "Speler03 Achternaam,ja,nee"
    await big.ask(ARBITER, "/taal en")
    sent = await big.ask(ARBITER, "/players")
    assert sent.filename == "players.csv"
    assert fits(sent.text, "SPELERS_SUMMARY", "en", count=COUNT, linked=1, flexible=0)
    assert sent.data.decode("utf-8-sig").splitlines()[4] == "Speler03 Achternaam,yes,no"
