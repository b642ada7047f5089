"""The language each update is answered in, and `/taal` to choose it."""

from __future__ import annotations

import logging

from telegram import Update
from telegram.constants import ChatType
from telegram.ext import TypeHandler

from bot.flows import members
from bot.language import i18n
from bot.language.notice import Text
from bot.language.vocabulary import key
from bot.services import Context
from bot.telegram.answer import Answer
from bot.telegram.grammar import Choice, Command, form
from bot.telegram.menu import set_member_menu
from bot.telegram.room import Room, actor, command_names

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


async def taal(update: Update, context: Context, chosen: str) -> Answer:
    """/taal en|nl: the language the bot speaks to this member, in private and on his pages."""
    await members.set_language(context.services, actor(update), chosen)
    return Answer(Text("TAAL_DONE", {"language": Text("LANGUAGE_NAMES", pick=chosen)}),
                  language=chosen, then=lambda: _menu(context, actor(update), chosen))


async def _menu(context: Context, user_id: int, language: str) -> None:
    arbiter = user_id in await context.services.arbiters()
    await set_member_menu(context.bot, user_id, language, command_names(context.application),
                          arbiter=arbiter)


async def usage(update: Update, context: Context) -> Answer:
    return Answer(Text("TAAL_USAGE", {"language": Text("LANGUAGE_NAMES",
                                                       pick=context.language)}))


LANGUAGE = Choice("chosen", {key(code): code for code in i18n.LANGUAGES})

room = Room(commands=(Command(key("taal", "language"), (form(taal, LANGUAGE),), usage),),
            first=(TypeHandler(Update, speak),))

