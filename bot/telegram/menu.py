"""The command menus Telegram shows beside the text field: for members everywhere, for each
arbiter in his chat, in every language (Telegram shows the one of the member's app; the
source language where it has none of ours). A convenience: the commands work without them."""

from __future__ import annotations

import logging
from collections.abc import Mapping

from telegram import (
    Bot,
    BotCommand,
    BotCommandScopeAllPrivateChats,
    BotCommandScopeChat,
    BotCommandScopeDefault,
)
from telegram.error import TelegramError

from bot.language import texts
from bot.language.i18n import LANGUAGES, SOURCE, Words, words

log = logging.getLogger(__name__)


def commands(w: Words, english: Mapping[str, str], *,
             arbiter: bool) -> list[tuple[str, str]]:
    """The command menu in the words `w`: each command by its name in that language
    (`/afmelden`, `/signoff`: `english` names them by their Dutch names) and what it does."""
    names = {} if w.language == SOURCE else english
    menu = {**w(texts.COMMAND_MENU), **(w(texts.ARBITER_MENU) if arbiter else {})}
    return [(names.get(name, name), text) for name, text in menu.items()]


def _listed(language: str, english: Mapping[str, str], *, arbiter: bool) -> list[BotCommand]:
    return [BotCommand(*c) for c in commands(words(language), english, arbiter=arbiter)]


async def set_menus(bot: Bot, arbiters: list[int], english: Mapping[str, str]) -> None:
    """Every menu, in every language (at start: the arbiters may have changed)."""
    for spoken in LANGUAGES:
        code = None if spoken == SOURCE else spoken
        members = _listed(spoken, english, arbiter=False)
        for scope in (BotCommandScopeDefault(), BotCommandScopeAllPrivateChats()):
            await bot.set_my_commands(members, scope=scope, language_code=code)
        arbiter_menu = _listed(spoken, english, arbiter=True)
        for arbiter in arbiters:
            await bot.set_my_commands(arbiter_menu, scope=BotCommandScopeChat(arbiter),
                                      language_code=code)


async def set_member_menu(bot: Bot, user_id: int, language: str, english: Mapping[str, str], *,
                          arbiter: bool) -> None:
    """The menu of this member's private chat, in the language he chose."""
    try:
        await bot.set_my_commands(_listed(language, english, arbiter=arbiter),
                                  scope=BotCommandScopeChat(user_id))
    except TelegramError as exc:
        log.info("no command menu for %d: %s", user_id, exc)
