"""Linking a member's lichess account as a test does it: the key the tokens are sealed with,
the link the bot sends, the page the member opens."""

from __future__ import annotations

import aiohttp

from tests.bot.web import PUBLIC_URL

KEY = "3q2-7wJ8TgrVTA7aQG9nqW5oWnWnW9qVqDk1kJxQ4Xw="


def link_of(sent) -> str:
    [row] = sent.reply_markup["inline_keyboard"]
    return row[0]["url"]


async def browse(bot, url: str, *, language: str = "nl") -> tuple[int, str]:
    """The member's browser: the bot's pages through its proxy (the public address), lichess
    where it is; redirects followed, the last page read."""
    async with aiohttp.ClientSession() as session:
        for _ in range(5):
            local = bot.runtime.web.url + url.removeprefix(PUBLIC_URL) \
                if url.startswith(PUBLIC_URL) else url
            async with session.get(local, allow_redirects=False,
                                   headers={"Accept-Language": language}) as response:
                if response.status != 302:
                    return response.status, await response.text()
                url = response.headers["Location"]
    raise AssertionError("redirected in a circle")


