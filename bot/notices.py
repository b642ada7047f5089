"""The messages the bot owes, made once per reader: a flow says what happened and whom it
concerns (`tell` a member, `tell_group` the club's group, `owe_to_arbiters`), each notice is
made here in its reader's language and owed in the outbox inside the flow's transaction; the
sender delivers it after the commit. Nothing here speaks to Telegram."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from bot.keyboard import Keyboard
from bot.language import texts
from bot.language.formatting import split
from bot.language.i18n import Words, words
from bot.language.notice import Said, render
from bot.services import Services
from storage import outbox
from storage.club import ClubSettings
from storage.errors import StoreError, StoreProblem

UNWRITABLE = frozenset({StoreProblem.READ_ONLY, StoreProblem.DISK_FULL})

Fallback = Callable[[int, str, int | None], Awaitable[None]]
"""A direct send (chat, text, forum topic) for when the store cannot be written."""


async def send(services: Services, w: Words, chat_id: int, text: Said | str, *,
               markup: Keyboard | None = None, thread_id: int | None = None,
               about: str = "", round_no: int | None = None, kind: str | None = None,
               player: str | None = None, reply_to: int | None = None,
               fallback: Fallback | None = None) -> None:
    """Owe a message to one chat, made in the words `w` (split to Telegram's size; buttons
    on the last piece).
    `about` names the addressee if it cannot be delivered; `round_no` and `kind` remember
    the sent message as the round's (a reply to it names the round); `reply_to` a message
    of that chat it answers. With `fallback` (the Telegram side's direct send), a database
    that cannot be written does not silence the bot: the text goes out directly."""
    pieces = split(render(text, w))
    messages = [outbox.Outgoing(chat_id, piece, thread_id,
                                markup.as_dict(w) if markup and k == len(pieces) - 1 else None,
                                round_no, kind, player, about,
                                reply_to if k == 0 else None)
                for k, piece in enumerate(pieces)]
    try:
        await outbox.owe(services.db, messages)
    except StoreError as exc:
        if fallback is None or exc.problem not in UNWRITABLE:
            raise
        for piece in messages:
            await fallback(chat_id, piece.text, thread_id)


async def tell(services: Services, chat_id: int, said: Said, *,
               markup: Keyboard | None = None, **owed: Any) -> None:
    """Owe one member a message, made in his own language; `owed` as `send` takes it."""
    await send(services, words(await services.languages.of(chat_id)), chat_id, said,
               markup=markup, **owed)


async def tell_group(services: Services, settings: ClubSettings, said: Said, *,
                     markup: Keyboard | None = None, **owed: Any) -> None:
    """Owe the club's group (in its topic) a message, made in the club's language; nothing
    when the club has no group."""
    if settings.group_chat_id is None:
        return
    w = words(settings.language)
    await send(services, w, settings.group_chat_id, said, markup=markup,
               thread_id=settings.group_thread_id, about=w(texts.THE_GROUP), **owed)


async def owe_to_arbiters(services: Services, said: Said, *, markup: Keyboard | None = None,
                          fallback: Fallback | None = None) -> None:
    """Owe each arbiter a message, made in his own language."""
    for arbiter in sorted(await services.arbiters()):
        await send(services, words(await services.languages.of(arbiter)), arbiter, said,
                   markup=markup, fallback=fallback)


async def owe_edit(services: Services, w: Words, chat_id: int, message_id: int,
                   text: Said | str = "", *, markup: Keyboard | None = None) -> None:
    """Owe an edit of a message already sent, made in the words `w`, through the outbox as
    messages are: `text` (empty: only the buttons change) with `markup` (none: the buttons
    go). A Telegram that fails or a crash after the commit delays it; nothing cancels it."""
    await outbox.owe(services.db, [outbox.Outgoing(
        chat_id, render(text, w), markup=markup.as_dict(w) if markup else None,
        edits=message_id)])


async def owe_dropped_buttons(services: Services,
                              messages: tuple[tuple[int, int], ...]) -> None:
    """Owe taking the buttons off messages (chat, message) a decision made stale."""
    if messages:
        await outbox.owe(services.db, [outbox.Outgoing(chat_id, "", edits=message_id)
                                       for chat_id, message_id in messages])
