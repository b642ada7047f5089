"""Every unexpected error: logged in full, told briefly to the arbiters and the sender."""

from __future__ import annotations

import logging

from telegram import Update
from telegram.ext import Application

from bot import texts
from bot.handlers.common import esc, reply, tell_arbiters
from bot.services import Context

log = logging.getLogger(__name__)


async def on_error(update: object, context: Context) -> None:
    log.error("error while handling %r", update, exc_info=context.error)
    summary = f"{type(context.error).__name__}: {context.error}"[:300]
    try:
        await tell_arbiters(context, texts.ERROR_TO_ARBITER.format(error=esc(summary)))
        if isinstance(update, Update):
            await reply(update, texts.SOMETHING_WRONG)
    except Exception:  # the error handler itself must never raise
        log.exception("could not report the error")


def register(app: Application) -> None:  # type: ignore[type-arg]
    app.add_error_handler(on_error)
