"""`keizerbot` without a subcommand: run the bot until a signal stops it.

Start-up failures become one line in the shell's language (never the token, never a
traceback). SIGTERM, SIGINT and SIGHUP all stop it, once: a repeated signal during shutdown
(a supervisor, or `uv run` passing on the signal its process group got) changes nothing, and
a shutdown that hangs is cut off after STOP_LIMIT seconds.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
from typing import Protocol

from telegram.error import InvalidToken, NetworkError

from bot.config import Config
from bot.language.notice import Phrase, Said, SaidError, Text
from bot.telegram.runtime import SingleClub
from bot.worker import Processes
from storage.errors import StoreError

log = logging.getLogger(__name__)

STOP_LIMIT = 15.0
SIGNALS = (signal.SIGTERM, signal.SIGINT, signal.SIGHUP)


class StartError(SaidError):
    """The bot could not start, or had to stop of itself; what it says (in the shell's
    language, where it is shown) is why and what to do."""


class Redact(logging.Filter):
    """No log line, and no traceback in one, shows a secret: a bot's token (`add` one more: a
    host's clubs), the database's password."""

    def __init__(self, *secrets: str) -> None:
        super().__init__()
        self.secrets = {secret for secret in secrets if secret}

    def add(self, secret: str) -> None:
        if secret:
            self.secrets.add(secret)

    def _redacted(self, text: str) -> str:
        for secret in sorted(self.secrets, key=len, reverse=True):
            text = text.replace(secret, "<secret>")
        return text

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        redacted = self._redacted(message)
        if redacted != message:
            record.msg, record.args = redacted, None
        if record.exc_info and not record.exc_text:
            record.exc_text = self._redacted(logging.Formatter().formatException(
                record.exc_info))
        return True


class Service(Protocol):
    async def start(self) -> None: ...

    async def stop(self) -> None: ...

    async def ended(self) -> Said:
        """Returns when the service must stop of itself: why, for the administrator."""
        ...


async def serve(config: Config, service: Service | None = None) -> None:
    """Run the club's bot, or `service` (a host's clubs), until a signal stops it."""
    if service is not None:
        await _serve(config, service)
        return
    with contextlib.closing(Processes()) as processes:
        await _serve(config, SingleClub(config, processes))


async def _serve(config: Config, runtime: Service) -> None:
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in SIGNALS:
        loop.add_signal_handler(sig, stop.set)
    try:
        await runtime.start()
    except InvalidToken:
        raise StartError(Text("START_BAD_TOKEN")) from None
    except NetworkError:
        raise StartError(Text("START_NO_TELEGRAM", {"url": config.base_url})) from None
    except StoreError as exc:
        raise StartError(Phrase("store_problem", (exc,))) from None
    except OSError as exc:  # the pages' port is taken, or may not be opened
        raise StartError(Text("START_WEB_PORT", {"port": config.web_port,
                                                 "reason": exc.strerror})) from None
    log.info("keizerbot is running; stop it with Ctrl-C or SIGTERM")
    signalled = asyncio.ensure_future(stop.wait())
    ending = asyncio.ensure_future(runtime.ended())
    await asyncio.wait((signalled, ending), return_when=asyncio.FIRST_COMPLETED)
    why = ending.result() if ending.done() else None
    signalled.cancel()
    ending.cancel()
    log.info("stopping")
    try:
        await asyncio.wait_for(runtime.stop(), STOP_LIMIT)
    except TimeoutError:
        log.warning("shutdown took longer than %.0f s; stopping anyway", STOP_LIMIT)
    if why is not None:
        raise StartError(why)
