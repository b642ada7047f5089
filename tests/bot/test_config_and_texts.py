"""Configuration is checked at start with Dutch reasons; long messages are split safely."""

from __future__ import annotations

import os
import re
import signal
import ssl
import subprocess
import sys
import time
from typing import cast

import pytest

from bot.config import ConfigError, load
from bot.language.formatting import LIMIT, split, units
from bot.services import Services
from bot.telegram.app import build
from bot.worker import Processes, Worker
from storage.address import PostgresUrl
from storage.db import Database
from tests.bot.conftest import TOKEN, says, written
from tests.integration.conftest import ROOT

GOOD = {"TELEGRAM_BOT_TOKEN": TOKEN}


@pytest.mark.parametrize(("env", "says"), [
    ({}, "BotFather"),
    ({"TELEGRAM_BOT_TOKEN": "abc"}, "ziet er niet uit als een token"),
    ({**GOOD, "KEIZER_ARBITERS": "12,wim"}, "'wim' is geen Telegram-gebruikersnummer"),
    ({**GOOD, "KEIZER_TIMEZONE": "Mars/Olympus"}, "geen tijdzone"),
    ({**GOOD, "TELEGRAM_BASE_URL": "localhost"}, "moet een adres zijn"),
    ({**GOOD, "KEIZER_WEB_PORT": "80a"}, "KEIZER_WEB_PORT moet een poortnummer zijn"),
    ({**GOOD, "KEIZER_WEB_PORT": "70000"}, "KEIZER_WEB_PORT moet een poortnummer zijn"),
    ({**GOOD, "KEIZER_PUBLIC_URL": "schaak.nl"}, "KEIZER_PUBLIC_URL moet een adres zijn"),
    ({**GOOD, "KEIZER_WEB_APP": "t.me/x"}, "KEIZER_WEB_APP moet de korte naam"),
    ({**GOOD, "KEIZER_WEB_HOST": "overal"}, "KEIZER_WEB_HOST moet een IP-adres zijn"),
    ({**GOOD, "KEIZER_WEBHOOK": "1"}, "zet dan ook KEIZER_WEB_PORT"),
    # Issue 33: without the address Telegram reaches the server at, no webhook to register.
    ({**GOOD, "KEIZER_WEBHOOK": "1", "KEIZER_WEB_PORT": "8080"}, "en KEIZER_PUBLIC_URL"),
])
def test_a_bad_setting_is_named_with_how_to_fix_it(env, says):
    with pytest.raises(ConfigError) as caught:
        load(env)
    assert says in written(caught.value.said)


def test_good_settings(tmp_path):
    config = load({**GOOD, "KEIZER_ARBITERS": "12, 34", "KEIZER_DB": str(tmp_path / "k.db"),
                   "TELEGRAM_BASE_URL": "http://127.0.0.1:8081"})
    assert config.arbiters == (12, 34) and config.api_url == "http://127.0.0.1:8081/bot"
    assert (config.web_port, config.public_url) == (None, "")  # no pages unless asked for
    pages = load({**GOOD, "KEIZER_WEB_PORT": "8080",
                  "KEIZER_PUBLIC_URL": "https://schaak.example.nl/keizer/",
                  "KEIZER_WEB_APP": "stand"})
    assert (pages.web_port, pages.public_url, pages.web_app) == (
        8080, "https://schaak.example.nl/keizer", "stand")
    # Issue 22: behind the proxy on this machine only, unless the set-up needs more.
    assert pages.web_host == "127.0.0.1"
    assert load({**GOOD, "KEIZER_WEB_HOST": "0.0.0.0"}).web_host == "0.0.0.0"
    # Issue 27: a PostgreSQL address stays one; the webhook with the pages' server.
    assert load({**GOOD, "KEIZER_DB": "postgresql://keizer@db/clubs"}).database == PostgresUrl(
        "postgresql://keizer@db/clubs")
    hooked = load({**GOOD, "KEIZER_WEB_PORT": "8080", "KEIZER_WEBHOOK": "ja",
                   "KEIZER_PUBLIC_URL": "https://schaak.example.nl"})
    assert hooked.webhook and not pages.webhook and TOKEN not in hooked.webhook_key


def test_env_file_is_read(tmp_path, monkeypatch):
    (tmp_path / ".env").write_text(f"TELEGRAM_BOT_TOKEN={TOKEN}\nKEIZER_ARBITERS=7\n")
    monkeypatch.delenv("TELEGRAM_BOT_TOKEN", raising=False)
    monkeypatch.delenv("KEIZER_ARBITERS", raising=False)
    assert load(env_file=tmp_path / ".env").arbiters == (7,)


def test_long_messages_are_split_at_lines_and_keep_pre_blocks_whole():
    text = "<pre>" + "\n".join(f"{k:4d}  Speler {k}" for k in range(900)) + "</pre>"
    pieces = split(text)
    assert len(pieces) > 1 and all(len(p) <= LIMIT for p in pieces)
    assert all(p.count("<pre>") == p.count("</pre>") == 1 for p in pieces)
    joined = "".join(p.removeprefix("<pre>").removesuffix("</pre>") + "\n" for p in pieces)
    assert joined.split() == text.removeprefix("<pre>").removesuffix("</pre>").split()


def test_pieces_fit_telegram_counting_utf16_and_cut_no_entity():
    """Telegram counts UTF-16 units: a line of emoji is twice as long as it looks. A line
    longer than a message is cut in order, inside its own <pre> block, never through an
    HTML entity."""
    wide = "<pre>" + "♞" * 10 + "🏆" * 3000 + "&amp;" * 500 + "</pre>"
    pieces = split(wide)
    assert all(units(p) <= LIMIT for p in pieces), [units(p) for p in pieces]
    assert all(p.startswith("<pre>") and p.endswith("</pre>") for p in pieces)
    inner = "".join(p.removeprefix("<pre>").removesuffix("</pre>") for p in pieces)
    assert inner == wide.removeprefix("<pre>").removesuffix("</pre>")
    assert all(re.fullmatch(r"<pre>[^&]*(&amp;)*</pre>", p) or "&" not in p for p in pieces)


async def test_keizerbot_runs_the_bot_against_a_bot_api_server(tg, tmp_path):
    """The main job, as a real process: `keizerbot` with a token and a Bot API address."""
    env = {**os.environ, "TELEGRAM_BOT_TOKEN": TOKEN, "TELEGRAM_BASE_URL": tg.url,
           "KEIZER_DB": str(tmp_path / "keizer.db"), "KEIZER_ARBITERS": "1"}
    process = subprocess.Popen([sys.executable, "-m", "bot.cli"], cwd=ROOT, env=env,
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        deadline = time.monotonic() + 30
        while not any(method == "getUpdates" for method, _ in tg.calls):
            assert process.poll() is None and time.monotonic() < deadline
            await __import__("asyncio").sleep(0.1)
        from bot.demo.fakeapi import User
        answer = await tg.reply_to(User(1, "Wim"), "/start")
        assert answer.text.startswith(says("START"))
    finally:
        process.send_signal(signal.SIGINT)
        out, _ = process.communicate(timeout=30)
    assert process.returncode == 0, out
    assert TOKEN not in out  # the token never reaches the log


async def test_both_of_the_bots_http_clients_check_telegrams_certificate():
    """They share one TLS context (made once, not per client): it verifies the server and
    its name against the certificate bundle. (aiohttp keeps the context in its connector.)"""
    config = load({"TELEGRAM_BOT_TOKEN": TOKEN, "KEIZER_ARBITERS": "1",
                   "KEIZER_DB": "unused.db"})
    # Building opens nothing: the store and the worker are first used once it runs.
    app = build(Services(config, cast(Database, None), Worker(config.database, None,
                                                              Processes())))
    requests = app.bot._request
    for request in requests:
        await request.initialize()
    try:
        contexts = {id(request._session.connector._ssl) for request in requests}
        context = requests[0]._session.connector._ssl
    finally:
        for request in requests:
            await request.shutdown()
    assert len(contexts) == 1
    assert context.verify_mode is ssl.CERT_REQUIRED and context.check_hostname
    assert context.cert_store_stats()["x509_ca"] > 0
