"""What every handler uses: who is asking, arbiter checks, refusals as replies, units of work,
commands, members by name, numbers as typed."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from contextlib import AbstractAsyncContextManager
from typing import Any

from telegram import Update
from telegram.ext import CallbackQueryHandler, CommandHandler, filters

from bot import callbacks, dates, texts
from bot.answer import Answer, after_commit
from bot.callbacks import Callback
from bot.chat import Handler, answer, answering_directly, esc, reply
from bot.flows import members
from bot.refusals import refusing
from bot.services import Context

log = logging.getLogger(__name__)


async def member(update: Update, context: Context) -> members.Member | None:
    """The member the sender is linked to; asks him to link if he is not."""
    user = update.effective_user
    found = None if user is None else await members.of_user(context.services, user.id)
    if found is None:
        await reply(update, context, texts.NOT_LINKED)
    return found


def actor(update: Update) -> int:
    """Who sent the update (the audit log's actor)."""
    assert update.effective_user is not None
    return update.effective_user.id


async def is_arbiter(update: Update, context: Context) -> bool:
    user = update.effective_user
    return user is not None and await context.services.is_arbiter(user.id)


def arbiter_only(handler: Handler) -> Handler:
    """Run `handler` for arbiters; everyone else gets a polite refusal."""
    async def guarded(update: Update, context: Context) -> None:
        if not await is_arbiter(update, context):
            await reply(update, context, texts.ONLY_ARBITER)
            return
        await handler(update, context)
    return guarded


def atomically(context: Context) -> AbstractAsyncContextManager[object]:
    """A unit of work: what the flows called inside store, the replies and every message
    they owe commit together with the update being marked done, or none of it does (and the
    update is handled again after a restart)."""
    return context.services.db.transaction()


def unit_of_work(handler: Handler) -> Handler:
    """Run `handler` as one unit of work (`atomically`)."""
    async def inside(update: Update, context: Context) -> None:
        async with atomically(context):
            await handler(update, context)
    return inside


def command(name: str, handler: Handler, *, reads_only: bool = False,
            opens_transaction: bool = False) -> CommandHandler[Context, None]:
    """A command for new messages only (an edited command is answered elsewhere, not re-run).
    A command that may change something is one unit of work; `reads_only` commands (heavy
    views) run outside a transaction, so they never hold up a writer, and still answer when
    the database cannot be written. A command that `opens_transaction` itself does some
    slow work first and then stores and answers in one transaction."""
    body = answering_directly(handler) if reads_only else handler if opens_transaction \
        else unit_of_work(handler)
    return CommandHandler(name, refusing(body), filters=filters.UpdateType.MESSAGE)


async def stale_button(update: Update, context: Context) -> None:
    """A button no handler takes (from an older version, or data no button of ours has)."""
    await answer(update, texts.BUTTON_STALE)


ButtonHandler = Callable[[Update, Context, Any], Awaitable[Answer]]
"""A button's handler: the press, and its data read by its `Callback` class."""


def button(kinds: tuple[type[Callback], ...], handler: ButtonHandler, *,
           opens_transaction: bool = False) -> CallbackQueryHandler[Context, None]:
    """A button of these kinds. The handler runs as one unit of work and returns its
    `Answer`: the reply is owed inside that transaction, and the toast, the edit and the
    buttons to drop go to Telegram after the commit, outside the writer's lock and outside
    the update's handling. A handler
    that `opens_transaction` itself (slow work first, then one write) answers with no reply.
    Data no kind reads is a stale button: PTB hands a press without data to the first button
    handler whatever its pattern, so the data is read here too."""
    async def run(update: Update, context: Context) -> None:
        pressed = callbacks.unpack(kinds, update.callback_query.data
                                   if update.callback_query else None)
        if pressed is None:
            await stale_button(update, context)
            return
        if opens_transaction:
            done = await handler(update, context, pressed)
            assert done.reply is None, "a reply is owed with the effect, in one transaction"
        else:
            async with atomically(context):
                done = await handler(update, context, pressed)
                if done.reply is not None:
                    await reply(update, context, done.reply, markup=done.markup)
        # Off the update's own task too: a Telegram slow to take toasts and edits holds none
        # of the runtime's places for handling updates (while stopping, it is awaited here).
        if context.application.running:
            context.application.create_task(after_commit(update, context, done),
                                            update=update, name="button-answer")
        else:
            await after_commit(update, context, done)
    return CallbackQueryHandler(refusing(run), pattern=callbacks.pattern(kinds))


async def find_member(update: Update, context: Context, text: str) -> members.Member | None:
    """Exactly one member by name, or a reply saying why not."""
    found = await members.matching(context.services, text)
    if len(found) == 1:
        return found[0]
    if not found:
        await reply(update, context, texts.WHO_UNKNOWN.format(name=esc(text)))
    else:
        await reply(update, context, texts.WHO_AMBIGUOUS.format(
            name=esc(text), names=", ".join(esc(m.name) for m in found[:8])))
    return None


def number(text: str) -> int | None:
    """A number as typed: ASCII digits only, short enough for the database."""
    return int(text) if dates.is_number(text) else None


