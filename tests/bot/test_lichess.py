"""Issue 37, the first part: a member links his lichess account (OAuth with PKCE through the
bot's own page), the arbiter links the club's; the token is kept sealed and never shown."""

from __future__ import annotations

import asyncio
import subprocess

import pytest

from bot.config import Config, ConfigError, load
from bot.language.notice import Text
from storage.seal import Seal
from tests.bot.conftest import ARBITER, GROUP, TOKEN, club_bot, fits, meaning, said, says
from tests.bot.linking import KEY, browse, link_of
from tests.bot.steps import set_up_club
from tests.bot.web import PUBLIC_URL


@pytest.fixture
async def linking_bot(tg, tmp_path, processes, lichess, members):
    running = await club_bot(tg, tmp_path / "keizer.db", processes, web_port=0,
                             public_url=PUBLIC_URL, secret_key=KEY, lichess_url=lichess.url)
    await set_up_club(running, members, rounds=1)
    yield running
    await running.stop()


async def stored(bot) -> list[tuple]:
    async with bot.app.bot_data.db.conn.execute(
            "SELECT telegram_id, username, token FROM lichess") as cur:
        return [tuple(row) for row in await cur.fetchall()]


async def test_a_member_links_his_account_the_token_sealed_and_never_shown(
        linking_bot, lichess, members, tmp_path, caplog):
    bot, anna = linking_bot, members[0]
    asked = await bot.ask(anna, "/lichess")
    assert fits(asked.text, "LICHESS_SIGN_IN")
    link = link_of(asked)
    assert link.startswith(f"{PUBLIC_URL}/lichess?s=")
    mark = len(bot.tg.sent)
    status, page = await browse(bot, link)
    assert (status, page) == (200, says("LICHESS_PAGE_DONE", name="Anna_Schaakt"))
    await bot.tg.next_to(anna.id, meaning("LICHESS_LINKED", name="Anna_Schaakt"), after=mark)
    # What lichess gave: a token for the player's games, kept only sealed.
    [(token, (username, scope))] = lichess.tokens.items()
    assert (username, scope) == ("Anna_Schaakt", "challenge:write")
    [(who, name, sealed)] = await stored(bot)
    assert (who, name) == (anna.id, "Anna_Schaakt")
    assert sealed != token and Seal(KEY).open(sealed) == token
    # Read by another process: closing a file this one reads would drop SQLite's locks on
    # it (POSIX locks are the process's), and the standings worker would then make the
    # shared memory anew under the bot's feet (SIGBUS).
    files = subprocess.run(["cat", *(str(p) for p in tmp_path.glob("keizer.db*") if p.is_file())],
                           capture_output=True, check=True).stdout
    assert token.encode() not in files
    assert all(token not in m.text for m in bot.tg.sent)
    assert token not in caplog.text
    # The link is used up; asking again says what is linked.
    assert await browse(bot, link) == (410, says("LICHESS_PAGE_EXPIRED"))
    again = await bot.ask(anna, "/lichess")
    assert fits(again.text, "LICHESS_NOW", name="Anna_Schaakt")
    # Linking again replaces the account kept.
    lichess.signed_in = "Anna_Blitz"
    mark = len(bot.tg.sent)
    assert (await browse(bot, link_of(again)))[0] == 200
    await bot.tg.next_to(anna.id, meaning("LICHESS_LINKED", name="Anna_Blitz"), after=mark)
    [(_, name, sealed)] = await stored(bot)
    assert name == "Anna_Blitz"
    assert lichess.revoked == [token]  # the account it replaced
    token = Seal(KEY).open(sealed)
    # Forgotten here and revoked there.
    gone = await bot.ask(anna, "/lichess uit")
    assert gone.text == says("LICHESS_FORGOTTEN", name="Anna_Blitz")
    for _ in range(200):  # revoked after the commit, beside the answer
        if token in lichess.revoked:
            break
        await asyncio.sleep(0.01)
    assert lichess.revoked[-1] == token
    assert await stored(bot) == [] and token not in lichess.tokens
    assert (await bot.ask(anna, "/lichess uit")).text == says("LICHESS_NONE")


async def test_the_arbiter_links_the_clubs_account_to_make_the_games(linking_bot, lichess):
    bot = linking_bot
    lichess.signed_in = "SchaakclubOnline"
    asked = await bot.ask(ARBITER, "/lichess club")
    assert asked.text == says("LICHESS_SIGN_IN_CLUB")
    mark = len(bot.tg.sent)
    assert (await browse(bot, link_of(asked)))[0] == 200
    await bot.tg.next_to(ARBITER.id, meaning("LICHESS_CLUB_LINKED", name="SchaakclubOnline"),
                         after=mark)
    assert [scope for _, scope in lichess.tokens.values()] == ["challenge:bulk"]
    assert await stored(bot) == []  # the club's, not his own
    gone = await bot.ask(ARBITER, "/lichess club uit")
    assert gone.text == says("LICHESS_CLUB_FORGOTTEN", name="SchaakclubOnline")


@pytest.mark.parametrize("language", ["nl", "en"])
async def test_what_goes_wrong_on_the_way_is_said_and_nothing_is_kept(linking_bot, lichess,
                                                                       members, language):
    bot, anna, bram = linking_bot, members[0], members[1]
    if language == "en":
        for user in (anna, bram):
            await bot.ask(user, "/taal en")

    def sees(text: str, key: str) -> None:
        assert fits(text, key, language), text
        assert language == "nl" or not fits(text, key, "nl"), text  # not the Dutch one

    in_group = await bot.ask(anna, "/lichess", chat_id=GROUP)  # the group hears the club's
    assert in_group.text == says("LICHESS_PRIVATE")
    sees((await bot.ask(anna, "/lichess club")).text, "ONLY_ARBITER")
    sees((await bot.ask(anna, "/lichess nu")).text, "LICHESS_USAGE")
    # Unlinking what is not linked, in the words of his language.
    sees((await bot.ask(anna, {"nl": "/lichess uit", "en": "/lichess off"}[language])).text,
         "LICHESS_NONE")
    # He cancels at lichess.
    lichess.deny = True
    status, page = await browse(bot, link_of(await bot.ask(anna, "/lichess")),
                                language=language)
    assert status == 200
    sees(page, "LICHESS_PAGE_DENIED")
    lichess.deny = False
    # lichess is down when the bot trades the code: nothing kept, and the same link works
    # once it is back.
    link = link_of(await bot.ask(bram, "/lichess"))
    lichess.failing = [502]
    status, page = await browse(bot, link)
    assert status == 503
    sees(page, "LICHESS_PAGE_BUSY")
    assert await stored(bot) == []
    status, page = await browse(bot, link)
    assert status == 200
    sees(page, "LICHESS_PAGE_DONE")
    # A link nobody made, in the browser's language.
    status, page = await browse(bot, f"{PUBLIC_URL}/lichess?s=verzonnen", language=language)
    assert status == 410
    sees(page, "LICHESS_PAGE_EXPIRED")


async def test_without_a_key_nothing_is_linked_and_a_bad_key_stops_the_start(
        tg, tmp_path, processes, members):
    bot = await club_bot(tg, tmp_path / "keizer.db", processes, web_port=0,
                         public_url=PUBLIC_URL)
    try:
        await set_up_club(bot, members, rounds=1)
        assert (await bot.ask(members[0], "/lichess")).text == says("LICHESS_NOT_SET_UP")
    finally:
        await bot.stop()
    with pytest.raises(ConfigError) as refused:
        load({"TELEGRAM_BOT_TOKEN": TOKEN, "KEIZER_SECRET_KEY": "geheim"})
    assert refused.value.said == Text("CONFIG_SECRET_KEY", {"name": "KEIZER_SECRET_KEY"})
    assert isinstance(load({"TELEGRAM_BOT_TOKEN": TOKEN, "KEIZER_SECRET_KEY": KEY}), Config)


@pytest.mark.parametrize("language", ["nl", "en"])
async def test_an_account_another_member_linked_is_refused(linking_bot, lichess, members,
                                                           language):
    """Issue 47: one lichess account plays one game at a time; a second member who signs in
    with it is told so (page and chat), nothing is kept, and the token lichess gave back."""
    bot = linking_bot
    anna, bram = members[0], members[1]
    assert (await browse(bot, link_of(await bot.ask(anna, "/lichess"))))[0] == 200
    if language == "en":
        await bot.ask(bram, "/taal en")
    mark = len(bot.tg.sent)
    status, page = await browse(bot, link_of(await bot.ask(bram, "/lichess")),
                                language=language)
    assert (status, page) == (200, said(Text("LICHESS_PAGE_TAKEN", {"name": "Anna_Schaakt"}),
                                        language))
    await bot.tg.next_to(bram.id, meaning("LICHESS_TAKEN", language, name="Anna_Schaakt"),
                         after=mark)
    [(who, _, sealed)] = await stored(bot)
    assert who == anna.id and len(lichess.revoked) == 1
    assert Seal(KEY).open(sealed) not in lichess.revoked  # Bram's token went back, not hers
