"""The club's pages and the Mini App as a test reaches them: signed init data, a page got,
a tap on a member's season or on the arbiter's board, a board read back; and a bot that
serves its pages (`web_bot`)."""

from __future__ import annotations

import datetime as dt
import html
import json
import re

import aiohttp
import pytest

from bot.web.initdata import sign
from tests.bot.conftest import ARBITER, TOKEN, club_bot

PUBLIC_URL = "https://schaak.example.nl/keizer"


NOW = dt.datetime(2026, 11, 30, 9, 0, tzinfo=dt.UTC)  # the fixture's clock


def init_data(user_id: int, *, token: str = TOKEN, at: dt.datetime = NOW,
              forge: bool = False) -> str:
    signed = sign({"auth_date": str(int(at.timestamp())), "query_id": "AAE",
                   "user": json.dumps({"id": user_id, "first_name": "Anna"})}, token)
    return signed.replace("hash=", "hash=0") if forge else signed


async def get(bot, path: str, **headers: str) -> tuple[int, str, dict]:
    assert bot.runtime.web is not None
    async with aiohttp.ClientSession() as session, \
            session.get(bot.runtime.web.url + path, headers=headers) as response:
        return response.status, await response.text(), response.headers.copy()


def plain(page: str) -> str:
    """The text a reader sees: tags gone, entities read, spaces folded."""
    page = re.sub(r"<(script|style)\b.*?</\1>", "", page, flags=re.S)
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", page)).split())


async def posted(bot, page: str, user_id: int, body: object,
                 **headers: str) -> tuple[int, str]:
    """A tap in the Mini App, as its script posts it to `page` for `user_id`."""
    assert bot.runtime.web is not None
    headers.setdefault("X-Telegram-Init-Data", init_data(user_id, at=bot.clock.now))
    async with aiohttp.ClientSession() as session, session.post(
            bot.runtime.web.url + page, json=body, headers=headers) as response:
        return response.status, await response.text()


async def tap(bot, user_id: int, body: object, **headers: str) -> tuple[int, str]:
    """A member's tap in his season."""
    return await posted(bot, "/mij-seizoen", user_id, body, **headers)


async def board_tap(bot, user_id: int, body: object, **headers: str) -> tuple[int, str]:
    """The arbiter's tap on the draft's board."""
    return await posted(bot, "/mij-bord", user_id, body, **headers)


def board_of(page: str) -> tuple[str, list[tuple[str, str]]]:
    """The version a board shows and its boards (white, black) as player codes."""
    version = re.search(r'data-version="([0-9a-f]+)"', page)
    assert version is not None, page
    return version.group(1), re.findall(
        r'data-player="(\w+)">[^<]*</button> – <button type="button" data-player="(\w+)"',
        page)


def own_headers(bot, user_id: int = ARBITER.id) -> dict[str, str]:
    return {"X-Telegram-Init-Data": init_data(user_id, at=bot.clock.now)}


@pytest.fixture
async def web_bot(tg, tmp_path, request, processes):
    season = getattr(request, "param", None)
    running = await club_bot(tg, tmp_path / "keizer.db", processes, season, web_port=0,
                             public_url=PUBLIC_URL, web_app="stand")
    yield running
    await running.stop()


