"""`keizerbot` without a subcommand: run the bot until a signal stops it.

Start-up failures become one Dutch line (never the token, never a traceback). SIGTERM, SIGINT
and SIGHUP all stop it, once: a repeated signal during shutdown (a supervisor, or `uv run`
passing on the signal its process group got) changes nothing, and a shutdown that hangs is
cut off after STOP_LIMIT seconds.
"""

from __future__ import annotations

import asyncio
import logging
import signal

from telegram.error import InvalidToken, NetworkError

from bot import texts
from bot.app import build
from bot.config import Config
from bot.runtime import Runtime
from storage.errors import StoreError

log = logging.getLogger(__name__)

STOP_LIMIT = 15.0
SIGNALS = (signal.SIGTERM, signal.SIGINT, signal.SIGHUP)


class StartError(Exception):
    """The bot could not start; the message (Dutch) says why and what to do."""


class RedactToken(logging.Filter):
    """No log line, and no traceback in one, shows the bot's token."""

    def __init__(self, token: str) -> None:
        super().__init__()
        self.token = token

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        if self.token in message:
            record.msg, record.args = message.replace(self.token, "<token>"), None
        if record.exc_info and not record.exc_text:
            text = logging.Formatter().formatException(record.exc_info)
            record.exc_text = text.replace(self.token, "<token>")
        return True


async def serve(config: Config) -> None:
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in SIGNALS:
        loop.add_signal_handler(sig, stop.set)
    runtime = Runtime(build(config))
    try:
        await runtime.start()
    except InvalidToken:
        raise StartError(texts.START_BAD_TOKEN) from None
    except NetworkError:
        raise StartError(texts.START_NO_TELEGRAM.format(url=config.base_url)) from None
    except StoreError as exc:
        raise StartError(texts.store_problem(exc)) from None
    except OSError as exc:  # the pages' port is taken, or may not be opened
        raise StartError(texts.START_WEB_PORT.format(port=config.web_port,
                                                     reason=exc.strerror)) from None
    log.info("keizerbot is running; stop it with Ctrl-C or SIGTERM")
    await stop.wait()
    log.info("stopping")
    try:
        await asyncio.wait_for(runtime.stop(), STOP_LIMIT)
    except TimeoutError:
        log.warning("shutdown took longer than %.0f s; stopping anyway", STOP_LIMIT)
