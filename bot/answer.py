"""What a handler answers, as a value: the reply in the chat, and for a button press the
toast, the edit of the message it sits on and the buttons a decision made stale. One runner
(`bot.handlers.common.button`) owes the reply through the outbox inside the transaction of
what it reports, commits, and only then makes the direct calls to Telegram, outside every
lock: a slow or failing Telegram holds up nobody else's write."""

from __future__ import annotations

import logging
from dataclasses import dataclass

from telegram import InlineKeyboardMarkup, Update
from telegram.error import BadRequest

from bot.chat import drop_buttons
from bot.services import Context

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Toast:
    """The answer to a button press: a short notice (None: just the press acknowledged), as
    an `alert` the member must close, or a `url` (`t.me/<bot>?start=…`) to open."""

    text: str | None = None
    alert: bool = False
    url: str | None = None


@dataclass(frozen=True, slots=True)
class Edit:
    """The message the button sits on, changed (its buttons go, unless `markup` is given)."""

    text: str
    markup: InlineKeyboardMarkup | None = None


@dataclass(frozen=True, slots=True)
class Answer:
    reply: str | None = None
    """Said in the chat the update came from."""
    markup: InlineKeyboardMarkup | None = None
    """Buttons under the reply."""
    toast: Toast = Toast()
    edit: Edit | None = None
    drop: tuple[tuple[int, int], ...] = ()
    """Messages (chat, message) whose buttons the decision made stale."""


async def after_commit(update: Update, context: Context, done: Answer) -> None:
    """The direct calls of a button's answer. A press Telegram has forgotten ("query is too
    old") cannot be answered, and a second tap's edit changes nothing: both are fine."""
    query = update.callback_query
    if query is not None:
        try:
            await query.answer(done.toast.text, show_alert=done.toast.alert,
                               url=done.toast.url)
        except BadRequest as exc:
            log.info("button press not answered: %s", exc.message)
        if done.edit is not None:
            try:
                await query.edit_message_text(done.edit.text, reply_markup=done.edit.markup)
            except BadRequest as exc:
                if "not modified" not in exc.message.lower():
                    raise
    await drop_buttons(context.bot, done.drop)
