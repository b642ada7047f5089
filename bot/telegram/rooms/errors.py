"""Every unexpected error: logged in full, told briefly to the sender, and to the arbiters at
most once an hour per kind of error. Expected conditions are not errors: Telegram briefly
unreachable, a member who blocked the bot, a season not loaded yet."""

from __future__ import annotations

import logging

from telegram import Update
from telegram.error import BadRequest, Forbidden, NetworkError

from bot.language.notice import Text
from bot.notices import owe_to_arbiters
from bot.services import App, Context
from bot.telegram.chat import answer, direct, owe_reply
from bot.telegram.refusals import club_gone, database_away, no_season
from bot.telegram.rooms.language import speak

log = logging.getLogger(__name__)


async def on_error(update: object, context: Context) -> None:
    error = context.error
    try:
        if isinstance(error, NetworkError):  # also timeouts; the outbox retries what it owes
            log.info("Telegram not reachable while handling an update: %s", error)
            return
        if isinstance(error, Forbidden):
            log.info("a chat blocked the bot: %s", error)
            return
        if isinstance(error, BadRequest) and "query is too old" in error.message.lower():
            log.info("an old button press: %s", error)
            return
        if database_away(error):
            # The database away for a moment (restarted, a standby taking over): what was not
            # stored is tried again (the update waits in Telegram or in the inbox).
            log.warning("the database cannot be reached: %s", error)
            return
        if club_gone(error):
            log.info("the club is no longer in the database; its bot stops at the host's "
                     "next look")
            return
        if no_season(error):
            if isinstance(update, Update):
                await speak(update, context)  # an error's context is not the update's
                await owe_reply(update, context, Text("NO_SEASON"), context.words)
            return
        log.error("error while handling %r", update, exc_info=error)
        if isinstance(update, Update):
            await answer(update)
            await speak(update, context)
            await owe_reply(update, context, Text("SOMETHING_WRONG"), context.words)
        kind = type(error).__name__
        if context.services.throttle.first(f"error:{kind}"):
            await owe_to_arbiters(context.services, Text("ERROR_TO_ARBITER"),
                                  fallback=direct(context.bot))
    except Exception:  # the error handler itself must never raise
        log.exception("could not report the error")


def register(app: App) -> None:
    """The error handler: registered after every room, for whatever any of them raised."""
    app.add_error_handler(on_error)
