"""The language each update is answered in, and `/taal` to choose it."""

from __future__ import annotations

import logging

from telegram import Update
from telegram.constants import ChatType
from telegram.ext import TypeHandler

from bot.flows import members
from bot.language import i18n
from bot.language.notice import Text
from bot.services import App, Context
from bot.telegram.answer import Answer
from bot.telegram.handlers.common import actor, command
from bot.telegram.menu import set_member_menu

log = logging.getLogger(__name__)


async def speak(update: Update, context: Context) -> None:
    """Before any handler: a private chat is answered in the member's language, a group in
    the club's. Set on the update's context, which every handler of it shares."""
    chat, user = update.effective_chat, update.effective_user
    services = context.services
    if (chat is not None and chat.type != ChatType.PRIVATE) or user is None:
        context.language = await services.languages.club()
    else:
        context.language = await services.languages.first_contact(user.id, user.language_code)


async def taal(update: Update, context: Context) -> Answer:
    """/taal en|nl: the language the bot speaks to this member, in private and on his pages."""
    words = [w.lower() for w in context.args or []]
    if len(words) != 1 or words[0] not in i18n.LANGUAGES:
        return Answer(Text("TAAL_USAGE", {"language": Text("LANGUAGE_NAMES",
                                                           pick=context.language)}))
    chosen = words[0]
    await members.set_language(context.services, actor(update), chosen)
    return Answer(Text("TAAL_DONE", {"language": Text("LANGUAGE_NAMES", pick=chosen)}),
                  language=chosen, then=lambda: _menu(context, actor(update), chosen))


async def _menu(context: Context, user_id: int, language: str) -> None:
    arbiter = user_id in await context.services.arbiters()
    await set_member_menu(context.bot, user_id, language, arbiter=arbiter)


def register(app: App) -> None:
    app.add_handler(TypeHandler(Update, speak), group=-1)
    app.add_handler(command("taal", taal))

