"""Talking to Telegram from a handler: replies (through the outbox, or at once for what
changed nothing), button answers, and Telegram's markup of a keyboard. What the bot owes by
itself is `bot.notices`."""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Callable, Coroutine
from typing import Any

from telegram import InlineKeyboardMarkup, Message, Update
from telegram.error import BadRequest, NetworkError, RetryAfter, TelegramError
from telegram.ext import ExtBot

from bot.keyboard import Keyboard
from bot.language.formatting import split
from bot.language.i18n import Words
from bot.language.notice import Said, render
from bot.notices import Fallback, send
from bot.services import Context

log = logging.getLogger(__name__)

Handler = Callable[[Update, Context], Coroutine[Any, Any, None]]


def telegram_markup(keyboard: Keyboard | None, w: Words) -> InlineKeyboardMarkup | None:
    """A keyboard as Telegram's class, its words in `w`, for what is sent at once (the outbox
    keeps its JSON)."""
    return None if keyboard is None \
        else InlineKeyboardMarkup.de_json(keyboard.as_dict(w), None)


def direct(bot: ExtBot[None]) -> Fallback:
    """The direct send `bot.notices.send` falls back on when the store cannot be written
    (a failure of that is no news: the store's is told)."""
    async def sent(chat_id: int, text: str, thread_id: int | None) -> None:
        with contextlib.suppress(TelegramError):
            await bot.send_message(chat_id, text, message_thread_id=thread_id)
    return sent


async def owe_reply(update: Update, context: Context, text: Said | str, w: Words, *,
                    markup: Keyboard | None = None) -> None:
    """Owe the answer in the chat (and forum topic) the update came from, made in the words
    `w`, through the outbox: in the transaction of what it reports if one is open, so stored
    and answered are one fact, and a reply Telegram does not take at once is sent again."""
    message = update.effective_message
    if message is None:
        return
    await send(context.services, w, message.chat_id, text, markup=markup,
               thread_id=_topic(message), fallback=direct(context.bot))


def _topic(message: Message) -> int | None:
    """The forum topic a message was sent in, where the answer goes too."""
    return message.message_thread_id if message.is_topic_message else None


async def say(update: Update, context: Context, text: Said | str, w: Words, *,
              markup: Keyboard | None = None) -> None:
    """Answer at once, in the words `w`, what changed nothing (a question, a refusal): it
    waits for no writer; what Telegram does not take goes through the outbox. Its update is
    marked handled after it went."""
    message = update.effective_message
    if message is None:
        return
    thread = _topic(message)
    pieces = split(render(text, w))
    for k, piece in enumerate(pieces):
        try:
            await context.bot.send_message(message.chat_id, piece, message_thread_id=thread,
                                           reply_markup=telegram_markup(markup, w)
                                           if k == len(pieces) - 1 else None)
        except (NetworkError, RetryAfter) as exc:
            log.info("answer not sent at once (%s); the outbox takes it", exc)
            await owe_reply(update, context, "\n".join(pieces[k:]), w, markup=markup)
            return


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


