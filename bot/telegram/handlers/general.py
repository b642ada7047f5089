"""/start and /help; unknown commands, edited messages and plain text get a short answer."""

from __future__ import annotations

from telegram import Update
from telegram.ext import CallbackQueryHandler, MessageHandler, filters

from bot.flows import members, online
from bot.language import texts
from bot.services import App, Context
from bot.telegram.answer import Answer
from bot.telegram.chat import say
from bot.telegram.handlers.common import command, is_arbiter, stale_button


async def start(update: Update, context: Context) -> Answer:
    """What the bot does and the commands; how to link first, for whoever is not linked."""
    user = update.effective_user
    linked = user is not None and await members.is_linked(context.services, user.id)
    parts = [texts.START, "", *(() if linked else (texts.START_LINK,)), texts.START_COMMANDS]
    playing_online = online.ready(context.services)
    if playing_online:
        parts.append(texts.HELP_LICHESS)
    extra = texts.HELP_ARBITER if await is_arbiter(update, context) else ""
    if extra and playing_online:
        extra += "\n" + texts.HELP_ARBITER_LICHESS
    return Answer("\n".join(parts) + extra)


async def unknown(update: Update, context: Context) -> None:
    """A command no handler took: answered, unless it is addressed to another bot in a group
    (`/afmelden@andere_bot`), which is none of our business."""
    message = update.effective_message
    text = "" if message is None or message.text is None else message.text
    _, at, addressee = text.split(maxsplit=1)[0].partition("@") if text else ("", "", "")
    if at and addressee.lower() != (context.bot.username or "").lower():
        return
    await say(update, context, texts.UNKNOWN_COMMAND)


async def edited(update: Update, context: Context) -> None:
    await say(update, context, texts.EDITED)


async def chatter(update: Update, context: Context) -> None:
    await say(update, context, texts.PRIVATE_HINT)


def register(app: App) -> None:
    app.add_handler(command("start", start, reads_only=True))
    app.add_handler(command("help", start, reads_only=True))


def register_fallbacks(app: App) -> None:
    """Last in line: whatever no other handler took."""
    app.add_handler(CallbackQueryHandler(stale_button))
    app.add_handler(MessageHandler(filters.UpdateType.EDITED_MESSAGE & filters.COMMAND, edited))
    app.add_handler(MessageHandler(filters.UpdateType.MESSAGE & filters.COMMAND, unknown))
    app.add_handler(MessageHandler(filters.UpdateType.MESSAGE & filters.ChatType.PRIVATE
                                   & filters.TEXT, chatter))
