"""Talking to Telegram, for every part of the bot: replies (split by `bot.formatting`,
through the outbox or at once), messages owed, button answers and edits."""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any

from telegram import InlineKeyboardMarkup, Message, Update
from telegram.error import BadRequest, NetworkError, RetryAfter, TelegramError
from telegram.ext import ExtBot

from bot import i18n, texts
from bot.formatting import split
from bot.keyboard import Keyboard
from bot.notice import Text
from bot.services import Context, Services
from storage import outbox
from storage.club import ClubSettings
from storage.errors import StoreError, StoreProblem

log = logging.getLogger(__name__)

Handler = Callable[[Update, Context], Coroutine[Any, Any, None]]


UNWRITABLE = frozenset({StoreProblem.READ_ONLY, StoreProblem.DISK_FULL})


def telegram_markup(keyboard: Keyboard | None) -> InlineKeyboardMarkup | None:
    """A keyboard as Telegram's class, for what is sent at once (the outbox keeps its JSON)."""
    return None if keyboard is None else InlineKeyboardMarkup.de_json(keyboard.as_dict(), None)


async def owe_reply(update: Update, context: Context, text: str, *,
                    markup: Keyboard | None = None) -> None:
    """Owe the answer in the chat (and forum topic) the update came from, through the outbox:
    in the transaction of what it reports if one is open, so stored and answered are one
    fact, and a reply Telegram does not take at once is sent again."""
    message = update.effective_message
    if message is None:
        return
    await send(context.services, message.chat_id, text, markup=markup,
               thread_id=_topic(message), fallback=context.bot)


def _topic(message: Message) -> int | None:
    """The forum topic a message was sent in, where the answer goes too."""
    return message.message_thread_id if message.is_topic_message else None


async def say(update: Update, context: Context, text: str, *,
              markup: Keyboard | None = None) -> None:
    """Answer at once what changed nothing (a question, a refusal): it waits for no writer;
    what Telegram does not take goes through the outbox. Its update is marked handled
    after it went."""
    message = update.effective_message
    if message is None:
        return
    thread = _topic(message)
    pieces = split(text)
    for k, piece in enumerate(pieces):
        try:
            await context.bot.send_message(message.chat_id, piece, message_thread_id=thread,
                                           reply_markup=telegram_markup(markup)
                                           if k == len(pieces) - 1 else None)
        except (NetworkError, RetryAfter) as exc:
            log.info("answer not sent at once (%s); the outbox takes it", exc)
            await owe_reply(update, context, "\n".join(pieces[k:]), markup=markup)
            return


async def send(services: Services, chat_id: int, text: str, *,
               markup: Keyboard | None = None, thread_id: int | None = None,
               about: str = "", round_no: int | None = None, kind: str | None = None,
               player: str | None = None, reply_to: int | None = None,
               fallback: ExtBot[None] | None = None) -> None:
    """Owe a message to one chat (split to Telegram's size; buttons on the last piece).
    `about` names the addressee if it cannot be delivered; `round_no` and `kind` remember
    the sent message as the round's (a reply to it names the round); `reply_to` a message
    of that chat it answers. With `fallback`, a
    database that cannot be written does not silence the bot: the text goes out directly."""
    pieces = split(text)
    messages = [outbox.Outgoing(chat_id, piece, thread_id,
                                markup.as_dict() if markup and k == len(pieces) - 1 else None,
                                round_no, kind, player, about,
                                reply_to if k == 0 else None)
                for k, piece in enumerate(pieces)]
    try:
        await outbox.owe(services.db, messages)
    except StoreError as exc:
        if fallback is None or exc.problem not in UNWRITABLE:
            raise
        for piece in messages:
            with contextlib.suppress(TelegramError):
                await fallback.send_message(chat_id, piece.text, message_thread_id=thread_id)


Compose = Text | Callable[[], str | Awaitable[str]]
"""A message to make in its reader's language: a catalogue text with its facts, or a
function that makes it in the language of the moment."""


async def _owe_made(services: Services, language: str, chat_id: int, compose: Compose,
                    markup: Callable[[], Keyboard | None] | None, *,
                    about: str | Callable[[], str] = "", **owed: Any) -> None:
    """The one place a notice is made: in its reader's `language`, then owed."""
    with i18n.use(language):
        made = compose.render() if isinstance(compose, Text) else compose()
        text = made if isinstance(made, str) else await made
        await send(services, chat_id, text, markup=None if markup is None else markup(),
                   about=about if isinstance(about, str) else about(), **owed)


async def tell(services: Services, chat_id: int, compose: Compose, *,
               markup: Callable[[], Keyboard | None] | None = None, **owed: Any) -> None:
    """Owe one member a message, made (`compose`, `markup`) in his own language; `owed` as
    `send` takes it."""
    await _owe_made(services, await services.language_of(chat_id), chat_id, compose, markup,
                    **owed)


async def tell_group(services: Services, settings: ClubSettings, compose: Compose, *,
                     markup: Callable[[], Keyboard | None] | None = None, **owed: Any) -> None:
    """Owe the club's group (in its topic) a message, made in the club's language; nothing
    when the club has no group."""
    if settings.group_chat_id is None:
        return
    await _owe_made(services, settings.language, settings.group_chat_id, compose, markup,
                    thread_id=settings.group_thread_id, about=lambda: texts.THE_GROUP, **owed)


async def owe_to_arbiters(services: Services, compose: Compose, *,
                          markup: Callable[[], Keyboard | None] | None = None,
                          fallback: ExtBot[None] | None = None) -> None:
    """Owe each arbiter a message, made (`compose`, `markup`) in his own language."""
    for arbiter in sorted(await services.arbiters()):
        await _owe_made(services, await services.language_of(arbiter), arbiter, compose,
                        markup, fallback=fallback)


async def answer(update: Update, text: str | None = None, *, alert: bool = False,
                 url: str | None = None) -> None:
    """Answer a button press (the toast; `url` a `t.me/<bot>?start=…` link to open). A press
    Telegram has forgotten (pressed while the bot was down: "query is too old") cannot be
    answered, and that is fine."""
    query = update.callback_query
    if query is None:
        return
    try:
        await query.answer(text, show_alert=alert, url=url)
    except BadRequest as exc:
        log.info("button press not answered: %s", exc.message)


async def owe_edit(services: Services, chat_id: int, message_id: int, text: str = "", *,
                   markup: Keyboard | None = None) -> None:
    """Owe an edit of a message already sent, through the outbox as messages are: `text`
    (empty: only the buttons change) with `markup` (none: the buttons go). A Telegram that
    fails or a crash after the commit delays it; nothing cancels it."""
    await outbox.owe(services.db, [outbox.Outgoing(
        chat_id, text, markup=markup.as_dict() if markup else None, edits=message_id)])


async def owe_dropped_buttons(services: Services,
                              messages: tuple[tuple[int, int], ...]) -> None:
    """Owe taking the buttons off messages (chat, message) a decision made stale."""
    for chat_id, message_id in messages:
        await owe_edit(services, chat_id, message_id)
