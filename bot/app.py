"""The Telegram application: built from the config, handlers registered in order, the
database opened and closed with it."""

from __future__ import annotations

import functools
import logging
import ssl

import httpx
from telegram.constants import ParseMode
from telegram.error import TelegramError
from telegram.ext import AIORateLimiter, ApplicationBuilder, ContextTypes, Defaults

from bot.config import Config
from bot.flows.admin import give_deadlines
from bot.handlers import (
    admin,
    errors,
    files,
    general,
    language,
    media,
    members,
    pairing,
    results,
    signoff,
    standings,
)
from bot.menu import set_menus
from bot.services import App, Context, Services
from bot.telegram_request import Outage, TelegramRequest
from bot.worker import Worker
from storage.store import open_store

log = logging.getLogger(__name__)

@functools.cache
def _tls() -> ssl.SSLContext:
    """One TLS context for the bot's two HTTP clients (PTB's defaults otherwise): httpx
    loads the certificate bundle for each client it makes, about 35 ms each time."""
    return httpx.create_ssl_context()


def build(config: Config, services: Services | None = None, *,
          flood_limits: bool = True) -> App:
    """The application; `services` lets tests bring their own clock. Without `flood_limits`
    (a local fake Telegram) messages are not held back to Telegram's rates; a 429 is still
    waited out and retried."""
    limiter = AIORateLimiter(max_retries=3) if flood_limits else \
        AIORateLimiter(overall_max_rate=0, group_max_rate=0, max_retries=3)
    context_types = ContextTypes(context=Context, bot_data=Services)
    outage = Outage()
    app = (
        ApplicationBuilder()
        .token(config.token)
        .base_url(config.api_url)
        .base_file_url(f"{config.base_url.rstrip('/')}/file/bot")
        .defaults(Defaults(parse_mode=ParseMode.HTML, tzinfo=config.timezone))
        .request(TelegramRequest(outage, httpx_kwargs={"verify": _tls()}))
        .get_updates_request(TelegramRequest(outage, connection_pool_size=1,
                                             httpx_kwargs={"verify": _tls()}))
        .rate_limiter(limiter)
        .context_types(context_types)
        .updater(None)  # bot.runtime polls: it stores each update before confirming it
        .post_init(_start)
        .post_shutdown(_stop)
        .build()
    )
    shared: Services = app.bot_data
    shared.config = config
    if services is not None:
        shared.clock, shared.database, shared.worker = \
            services.clock, services.database, services.worker
    # Order matters: specific commands and buttons first, the catch-alls last.
    for module in (language, general, members, signoff, results, standings, pairing, admin,
                   media, files):
        module.register(app)
    general.register_fallbacks(app)
    errors.register(app)
    return app


async def _start(app: App) -> None:
    services: Services = app.bot_data
    config = services.settings
    if services.database is None:  # a host (`bot.host`) opens its clubs' stores itself
        services.database = await open_store(config.database, exclusive=True,
                                                club=config.club)
    if services.worker is None:
        services.worker = Worker(config.database, config.club)
    await give_deadlines(services)
    services.bot_name = app.bot.username or ""
    try:
        await set_menus(app.bot, sorted(await services.arbiters()))
    except TelegramError as exc:  # commands are a convenience; the bot works without them
        log.warning("could not set the command list: %s", exc)
    log.info("keizerbot started with database %s", services.settings.database)


async def _stop(app: App) -> None:
    services: Services = app.bot_data
    if services.worker is not None:
        services.worker.close()
        services.worker = None
    if services.database is not None:
        await services.database.close()
        services.database = None
