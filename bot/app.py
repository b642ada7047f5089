"""The Telegram application: built from the config, handlers registered in order, the
database opened and closed with it."""

from __future__ import annotations

import functools
import logging
import ssl

import httpx
from telegram import (
    BotCommand,
    BotCommandScopeAllPrivateChats,
    BotCommandScopeChat,
    BotCommandScopeDefault,
)
from telegram.constants import ParseMode
from telegram.error import TelegramError
from telegram.ext import AIORateLimiter, ApplicationBuilder, ContextTypes, Defaults

from bot import i18n, texts
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
from bot.handlers.common import ENGLISH
from bot.services import App, Context, Services
from bot.telegram_request import Outage, TelegramRequest
from bot.worker import Worker
from storage.db import Database

log = logging.getLogger(__name__)

def commands(*, arbiter: bool) -> list[tuple[str, str]]:
    """The command menu in the language of the moment: each command by its name in that
    language (`/afmelden`, `/signoff`) and what it does."""
    names = {} if i18n.current() == i18n.SOURCE else ENGLISH
    menu = {**texts.COMMAND_MENU, **(texts.ARBITER_MENU if arbiter else {})}
    return [(names.get(name, name), text) for name, text in menu.items()]


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
        services.database = await Database.open(config.database, exclusive=True,
                                                club=config.club)
    if services.worker is None:
        services.worker = Worker(config.database, config.club)
    await give_deadlines(services)
    services.bot_name = app.bot.username or ""
    try:
        await _menus(app, sorted(await services.arbiters()))
    except TelegramError as exc:  # commands are a convenience; the bot works without them
        log.warning("could not set the command list: %s", exc)
    log.info("keizerbot started with database %s", services.settings.database)


async def _menus(app: App, arbiters: list[int]) -> None:
    """The command menus: for members everywhere and in private chats, for each arbiter in
    his chat; each in every language, Telegram showing the one of the member's app (the
    source language where it has none of ours)."""
    for spoken in i18n.LANGUAGES:
        code = None if spoken == i18n.SOURCE else spoken
        with i18n.use(spoken):
            members = [BotCommand(*c) for c in commands(arbiter=False)]
            arbiter_menu = [BotCommand(*c) for c in commands(arbiter=True)]
        for scope in (BotCommandScopeDefault(), BotCommandScopeAllPrivateChats()):
            await app.bot.set_my_commands(members, scope=scope, language_code=code)
        for arbiter in arbiters:
            await app.bot.set_my_commands(arbiter_menu, scope=BotCommandScopeChat(arbiter),
                                          language_code=code)


async def _stop(app: App) -> None:
    services: Services = app.bot_data
    if services.worker is not None:
        services.worker.close()
        services.worker = None
    if services.database is not None:
        await services.database.close()
        services.database = None
