"""What a handler answers, as a value: the reply in the chat (or a file, or a personal
message), and for a button press the toast, the edit of the message it sits on and the
buttons a decision made stale. One runner (`bot.handlers.common`) owes the reply, the edit and
the stale buttons through the outbox inside the transaction of what it reports, commits, and
only then answers the button press (the toast), outside every lock: a slow or failing
Telegram holds up nobody else's write, and a toast that fails (or a crash before it) cancels
nothing that was owed. The answer to what changed nothing goes out at once."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from telegram import Update
from telegram.constants import ChatType
from telegram.error import Forbidden, TelegramError

from bot.keyboard import Keyboard
from bot.language.formatting import split
from bot.language.i18n import Words, words
from bot.language.notice import Said, Text, plain, render
from bot.notices import owe_dropped_buttons, owe_edit
from bot.services import Context
from bot.telegram.chat import owe_reply, say

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Toast:
    """The answer to a button press: a short notice (None: just the press acknowledged), as
    an `alert` the member must close, or a `url` (`t.me/<bot>?start=…`) to open."""

    text: Said | str | None = None
    alert: bool = False
    url: str | None = None


@dataclass(frozen=True, slots=True)
class Edit:
    """The message the button sits on, changed (its buttons go, unless `markup` is given)."""

    text: Said | str
    markup: Keyboard | None = None


@dataclass(frozen=True, slots=True)
class File:
    """A file sent in the chat: a document, or a picture shown as one (`photo`)."""

    content: bytes
    name: str
    caption: Said | str
    photo: bool = False


@dataclass(frozen=True, slots=True)
class Answer:
    reply: Said | str | None = None
    """Said in the chat the update came from."""
    markup: Keyboard | None = None
    """Buttons under the reply."""
    toast: Toast = Toast()
    edit: Edit | None = None
    drop: tuple[tuple[int, int], ...] = ()
    """Messages (chat, message) whose buttons the decision made stale."""
    file: File | None = None
    """Sent in the chat (only for what changed nothing: it is not owed)."""
    personal: Said | str | None = None
    """Personal details: said in the sender's private chat, also when he asked in a group,
    where the reply says whether it arrived (only for what changed nothing)."""
    then: Callable[[], Awaitable[None]] | None = None
    """A convenience Telegram is asked for after the commit (a member's command menu)."""
    language: str | None = None
    """The language the answer is made in, where it is not the one the update is handled
    in: the one a member just chose, or his own for what he is told personally in a group."""


def spoken(context: Context, done: Answer) -> Words:
    """The words `done` is made in: its own language, or the update's."""
    return context.words if done.language is None else words(done.language)


class Refused(Exception):
    """The request cannot go on as it stands: `text` says why (in the sender's language), with
    `markup` to choose from where there is a choice. Raised by the questions handlers ask
    first (who is this, which member is meant); nothing is stored, and the runner answers
    at once."""

    def __init__(self, text: Said | str, markup: Keyboard | None = None) -> None:
        super().__init__(str(text))
        self.text = text
        self.markup = markup


@dataclass(frozen=True, slots=True)
class Write:
    """What a command that reads first (slow, outside any transaction) then stores: the
    runner calls `store` in the unit of work and owes its answer in the same transaction."""

    store: Callable[[], Awaitable[Answer]]


async def owe(update: Update, context: Context, done: Answer) -> None:
    """Inside the unit of work: the reply, the edit of the pressed message and the stale
    buttons, owed with what they report."""
    if done.file is not None or done.personal is not None:
        raise ValueError("only a question's answer is sent")
    w = spoken(context, done)
    if done.reply is not None:
        await owe_reply(update, context, done.reply, w, markup=done.markup)
    pressed = update.callback_query.message if update.callback_query else None
    if done.edit is not None and pressed is not None:
        await owe_edit(context.services, w, pressed.chat.id, pressed.message_id,
                       done.edit.text, markup=done.edit.markup)
    await owe_dropped_buttons(context.services, done.drop)


async def at_once(update: Update, context: Context, done: Answer) -> None:
    """The answer to what changed nothing, sent now (no transaction is open)."""
    chat, w = update.effective_chat, spoken(context, done)
    if done.personal is not None:  # his own words; whether they arrived, in the chat's
        told = await _personally(update, context, render(done.personal, w))
        if told is not None:
            await say(update, context, told, context.words, markup=done.markup)
    elif done.reply is not None:
        await say(update, context, done.reply, w, markup=done.markup)
    if done.file is not None and chat is not None:
        if done.file.photo:
            await context.bot.send_photo(chat.id, done.file.content,
                                         caption=render(done.file.caption, w))
        else:
            await context.bot.send_document(chat.id, done.file.content,
                                            filename=done.file.name,
                                            caption=render(done.file.caption, w))
    await after_commit(update, context, done, owed=False)


async def _personally(update: Update, context: Context, text: str) -> Said | None:
    """Personal details (made in his words) go to the private chat, sent at once, not owed:
    the answer in the group depends on whether they arrived, and a question can be asked
    again. What is said where it was asked (None: it was asked in private, and that is
    all)."""
    chat, user = update.effective_chat, update.effective_user
    if chat is None or user is None or chat.type == ChatType.PRIVATE:
        await say(update, context, text, context.words)
        return None
    try:
        for piece in split(text):
            await context.bot.send_message(user.id, piece)
    except Forbidden:
        return Text("START_PRIVATE_FIRST")
    return Text("SENT_PRIVATELY")


async def after_commit(update: Update, context: Context, done: Answer, *,
                       owed: bool = True) -> None:
    """The direct calls of an answer: the button press answered (its toast), and what was
    not `owed` in a unit of work (the edit and the stale buttons of what changed nothing),
    owed now. A press Telegram has forgotten ("query is too old") or could not take cannot
    be answered: it is only the toast."""
    query, w = update.callback_query, spoken(context, done)
    if query is not None:
        try:
            await query.answer(None if done.toast.text is None else plain(done.toast.text, w),
                               show_alert=done.toast.alert,
                               url=done.toast.url)
        except TelegramError as exc:
            log.info("button press not answered: %s", exc)
    if not owed and (done.edit is not None or done.drop):
        async with context.services.db.transaction():
            await owe(update, context, Answer(edit=done.edit, drop=done.drop,
                                              language=done.language))
    if done.then is not None:
        await done.then()
