"""The bot's HTTP to Telegram (`bot.telegram.request`, over aiohttp): what PTB expects of a
request, against the local Bot API: its errors, its timeouts, its uploads, its outage said
once each way."""

from __future__ import annotations

import asyncio
import logging
import socket
import traceback

import pytest
from telegram import Bot, InputFile
from telegram.error import NetworkError, TimedOut

from bot.demo.fakeapi import FakeTelegram
from bot.telegram.request import Outage, TelegramRequest
from bot.tls import tls

TOKEN = "123:REQUEST"


def bot_at(url: str, **limits: int) -> Bot:
    request = TelegramRequest(Outage(), tls=tls(), **limits)
    return Bot(TOKEN, base_url=f"{url.rstrip('/')}/bot", request=request,
               get_updates_request=TelegramRequest(Outage(), tls=tls()))


def closed_port() -> str:
    """An address where nothing listens: the connection is refused."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return f"http://127.0.0.1:{probe.getsockname()[1]}"


async def test_a_document_goes_up_with_its_name_and_bytes_and_the_caption(tg: FakeTelegram):
    async with bot_at(tg.url) as bot:
        await bot.send_document(42, InputFile(b"1. Anna 3\n", filename="stand.txt"),
                                caption="Testclub 2026-2027")
    sent = tg.sent[-1]
    assert (sent.method, sent.chat_id, sent.text) == ("sendDocument", 42, "Testclub 2026-2027")
    assert (sent.filename, sent.data) == ("stand.txt", b"1. Anna 3\n")


async def test_an_answer_later_than_the_read_timeout_is_timed_out(tg: FakeTelegram):
    """Only the call that must time out is given a short timeout: on a busy machine the
    others keep the bot's own."""
    tg.slow["sendMessage"] = 1.0
    async with bot_at(tg.url) as bot:
        with pytest.raises(TimedOut):
            await bot.send_message(42, "te laat", read_timeout=0.2)
        del tg.slow["sendMessage"]
        assert (await bot.send_message(42, "on time")).text == "on time"


async def test_a_timeout_names_no_token_not_even_in_its_traceback(tg: FakeTelegram):
    """aiohttp's own message for a connection it waited for in vain holds the URL, and so the
    token: the bot's error and its traceback do not."""
    release = tg.hold("sendMessage")
    async with bot_at(tg.url, connection_pool_size=1) as bot:
        first = asyncio.create_task(bot.send_message(42, "vast"))
        while not tg.held:
            await asyncio.sleep(0.01)
        with pytest.raises(TimedOut) as waited:  # its one connection is taken until released
            await bot.send_message(42, "wacht op een verbinding", pool_timeout=0.1,
                                   connect_timeout=0.1)
        release.set()
        await first
    assert TOKEN not in "".join(traceback.format_exception(waited.value))
    assert waited.value.__suppress_context__


async def test_no_connection_is_a_network_error_said_once_and_its_end_too(tg: FakeTelegram,
                                                                        caplog):
    """The outage is the bot's, shared by its two requests: a warning when the first fails,
    a line when one is answered again."""
    caplog.set_level(logging.INFO, logger="bot.telegram.request")
    outage = Outage()
    down, up = (Bot(TOKEN, base_url=f"{url}/bot", request=TelegramRequest(outage, tls=tls()))
                for url in (closed_port(), tg.url.rstrip("/")))
    async with up:
        await down.request.initialize()
        try:
            for _ in range(3):
                with pytest.raises(NetworkError) as refused:
                    await down.send_message(42, "niemand thuis")
                assert not isinstance(refused.value, TimedOut)
        finally:
            await down.request.shutdown()
        await up.send_message(42, "weer bereikbaar")
    said = [(r.levelno, r.getMessage()) for r in caplog.records
            if r.name == "bot.telegram.request"]
    assert [level for level, _ in said] == [logging.WARNING, logging.INFO]
    assert "not reachable" in said[0][1] and "ClientConnectorError" in said[0][1]
    assert said[1][1] == "Telegram is reachable again"


async def test_a_request_not_initialized_or_shut_down_refuses_to_send(tg: FakeTelegram):
    """Before PTB initializes it and after it shuts it down, a request opens no connection
    of its own (one that nobody would close)."""
    bot = bot_at(tg.url)
    getme = f"{tg.url.rstrip('/')}/bot{TOKEN}/getMe"
    with pytest.raises(NetworkError, match="not initialized"):
        await bot.request.post(getme)
    async with bot:
        assert (await bot.get_me()).id == tg.bot["id"]
    with pytest.raises(NetworkError, match="not initialized"):
        await bot.request.post(getme)
