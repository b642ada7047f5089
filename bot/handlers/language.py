"""The language each update is answered in, and `/taal` to choose it."""

from __future__ import annotations

import logging

from telegram import BotCommand, BotCommandScopeChat, Update
from telegram.constants import ChatType
from telegram.error import TelegramError
from telegram.ext import TypeHandler

from bot import i18n, texts
from bot.answer import Answer
from bot.flows import members
from bot.handlers.common import actor, command
from bot.services import App, Context

log = logging.getLogger(__name__)


async def speak(update: Update, context: Context) -> None:
    """Before any handler: a private chat is answered in the member's language, a group in
    the club's. Set for the update's own task, so it holds for every handler of it."""
    chat, user = update.effective_chat, update.effective_user
    services = context.services
    if (chat is not None and chat.type != ChatType.PRIVATE) or user is None:
        i18n.speak(await services.club_language())
    else:
        i18n.speak(await services.first_contact(user.id, user.language_code))


async def taal(update: Update, context: Context) -> Answer:
    """/taal en|nl: the language the bot speaks to this member, in private and on his pages."""
    words = [w.lower() for w in context.args or []]
    if len(words) != 1 or words[0] not in i18n.LANGUAGES:
        return Answer(texts.TAAL_USAGE.format(language=texts.LANGUAGE_NAMES[i18n.current()]))
    chosen = words[0]
    await members.set_language(context.services, actor(update), chosen)
    with i18n.use(chosen):
        return Answer(texts.TAAL_DONE.format(language=texts.LANGUAGE_NAMES[chosen]),
                      then=lambda: menu(context, actor(update), chosen))


async def menu(context: Context, user_id: int, language: str) -> None:
    """The command menu of this member's private chat, in his language. A convenience: the
    commands work without it."""
    from bot.app import commands

    arbiter = user_id in await context.services.arbiters()
    with i18n.use(language):
        listed = [BotCommand(name, text) for name, text in commands(arbiter=arbiter)]
    try:
        await context.bot.set_my_commands(listed, scope=BotCommandScopeChat(user_id))
    except TelegramError as exc:
        log.info("no command menu for %d: %s", user_id, exc)


def register(app: App) -> None:
    app.add_handler(TypeHandler(Update, speak), group=-1)
    app.add_handler(command("taal", taal))

