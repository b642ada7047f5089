"""/start and /help; unknown commands, edited messages and plain text get a short answer."""

from __future__ import annotations

from telegram import Update
from telegram.ext import CallbackQueryHandler, MessageHandler, filters

from bot.flows import members, online
from bot.language.notice import Text, lines
from bot.language.vocabulary import key
from bot.services import Context
from bot.telegram.answer import Answer
from bot.telegram.chat import say
from bot.telegram.grammar import Command, form
from bot.telegram.room import Room, is_arbiter, stale_button


async def start(update: Update, context: Context) -> Answer:
    """What the bot does and the commands; how to link first, for whoever is not linked."""
    user = update.effective_user
    linked = user is not None and await members.is_linked(context.services, user.id)
    playing_online = online.ready(context.services)
    commands = lines(None if linked else Text("START_LINK"), Text("START_COMMANDS"),
                     Text("HELP_LICHESS") if playing_online else None)
    arbiter = await is_arbiter(update, context)
    extra = lines(Text("HELP_ARBITER") if arbiter else None,
                  Text("HELP_ARBITER_LICHESS") if arbiter and playing_online else None)
    return Answer(lines(lines(Text("START"), commands, between="\n\n"), extra, between=""))


async def unknown(update: Update, context: Context) -> None:
    """A command no handler took: answered, unless it is addressed to another bot in a group
    (`/afmelden@andere_bot`), which is none of our business."""
    message = update.effective_message
    text = "" if message is None or message.text is None else message.text
    _, at, addressee = text.split(maxsplit=1)[0].partition("@") if text else ("", "", "")
    if at and addressee.lower() != (context.bot.username or "").lower():
        return
    await say(update, context, Text("UNKNOWN_COMMAND"), context.words)


async def edited(update: Update, context: Context) -> None:
    await say(update, context, Text("EDITED"), context.words)


async def chatter(update: Update, context: Context) -> None:
    await say(update, context, Text("PRIVATE_HINT"), context.words)


room = Room(commands=tuple(  # `/start koppelen`, a link's payload, is answered alike
    Command(key(name), (form(start),), usage=start, reads_only=True)
    for name in ("start", "help")))

fallbacks = Room(handlers=(
    CallbackQueryHandler(stale_button),
    MessageHandler(filters.UpdateType.EDITED_MESSAGE & filters.COMMAND, edited),
    MessageHandler(filters.UpdateType.MESSAGE & filters.COMMAND, unknown),
    MessageHandler(filters.UpdateType.MESSAGE & filters.ChatType.PRIVATE & filters.TEXT,
                   chatter)))
"""Last in line: whatever no other room took."""
