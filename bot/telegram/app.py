"""The Telegram application: built around the club's services, handlers registered in
order."""

from __future__ import annotations

import asyncio
import logging
from typing import cast

from telegram.constants import ParseMode
from telegram.error import TelegramError
from telegram.ext import AIORateLimiter, ApplicationBuilder, ContextTypes, Defaults

from bot.flows.admin import give_deadlines
from bot.services import App, Context, Services
from bot.telegram.menu import set_menus
from bot.telegram.request import Outage, TelegramRequest
from bot.telegram.room import command_names
from bot.telegram.rooms import (
    admin,
    errors,
    files,
    general,
    language,
    lichess,
    media,
    members,
    pairing,
    results,
    signoff,
    standings,
    teams,
)
from bot.tls import tls
from storage.errors import StoreError

log = logging.getLogger(__name__)


class _CutOffAtStop(logging.Filter):
    """APScheduler logs a job its scheduler's shutdown cancelled as an error. PTB hands every
    failure of a job to the error handler (`handlers.errors`), so what reaches APScheduler's
    log is only that: a job cut off because the club's bot stops (a club moving to another
    host, a restart). Its work waits in the database for the next run."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not (record.exc_info and isinstance(record.exc_info[1], asyncio.CancelledError))


_CUT_OFF = _CutOffAtStop()


ROOMS = (
    language.room,
    general.room,
    members.room,
    signoff.room,
    results.room,
    standings.room,
    pairing.room,
    admin.room,
    lichess.room,
    media.room,
    files.room,
    teams.room,
    general.fallbacks,
)
"""The bot's rooms, one line each: a feature's commands, buttons and other handlers. Order
matters only for what more than one would take: the catch-alls (`fallbacks`) come last."""


def build(services: Services, *, flood_limits: bool = True) -> App:
    """The club's application around its `services` (made once, by `bot.runtime`). Without
    `flood_limits` (a local fake Telegram) messages are not held back to Telegram's rates; a
    429 is still waited out and retried."""
    config = services.settings
    logging.getLogger("apscheduler.executors.default").addFilter(_CUT_OFF)  # kept once
    limiter = AIORateLimiter(max_retries=3) if flood_limits else \
        AIORateLimiter(overall_max_rate=0, group_max_rate=0, max_retries=3)
    # PTB makes `bot_data` by calling what it is given: here, the services made already.
    context_types = ContextTypes(context=Context,
                                 bot_data=cast(type[Services], lambda: services))
    outage = Outage()
    app = (
        ApplicationBuilder()
        .token(config.token)
        .base_url(config.api_url)
        .base_file_url(f"{config.base_url.rstrip('/')}/file/bot")
        .defaults(Defaults(parse_mode=ParseMode.HTML, tzinfo=config.timezone))
        .request(TelegramRequest(outage, tls=tls()))
        .get_updates_request(TelegramRequest(outage, tls=tls(), connection_pool_size=1))
        .rate_limiter(limiter)
        .context_types(context_types)
        .updater(None)  # bot.telegram.runtime polls: it stores each update before confirming it
        .build()
    )
    for room in ROOMS:
        room.register(app)
    errors.register(app)
    return app


async def introduce(app: App) -> None:
    """What the bot does once it is known to Telegram: deadlines given to rounds that lack
    them, and its name for t.me links."""
    services: Services = app.bot_data
    await give_deadlines(services)
    services.bot_name = app.bot.username or ""


async def offer_menus(app: App) -> None:
    """The command menus, every language and scope: a convenience the bot works without, so
    they are set beside its work, not before it (a round trip to Telegram each: a host
    starting thirty clubs would hold every first answer behind them)."""
    services: Services = app.bot_data
    try:
        await set_menus(app.bot, sorted(await services.arbiters()), command_names(app))
    except (TelegramError, StoreError) as exc:
        log.warning("could not set the command list: %s", exc)
