"""What every handler uses: who is asking, arbiter checks, refusals as replies, units of work,
commands, members by name, numbers as typed."""

from __future__ import annotations

import logging
import re
from contextlib import AbstractAsyncContextManager

from telegram import Update
from telegram.ext import CallbackQueryHandler, CommandHandler, filters

from bot import dates, texts
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


def button(pattern: str, handler: Handler, *,
           opens_transaction: bool = False) -> CallbackQueryHandler[Context, None]:
    """A button whose data matches `pattern` (whole), handled as one unit of work (or, when
    it `opens_transaction`, one the handler opens itself, to say what happened only once it
    is stored). Data that does not match is a stale button: PTB hands a press without data
    to the first button handler whatever its pattern, so the pattern is checked here too."""
    async def checked(update: Update, context: Context) -> None:
        data = update.callback_query.data if update.callback_query else None
        if not isinstance(data, str) or not re.fullmatch(pattern, data):
            await stale_button(update, context)
            return
        await handler(update, context)
    return CallbackQueryHandler(refusing(checked if opens_transaction else unit_of_work(checked)),
                                pattern=pattern)


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


