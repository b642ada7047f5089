"""What every handler uses: replies (split, escaped), who is asking, arbiter checks, dates."""

from __future__ import annotations

import contextlib
import datetime as dt
import html
import logging
import re
from collections.abc import Callable, Coroutine
from typing import Any

from telegram import InlineKeyboardMarkup, Update
from telegram.error import BadRequest, TelegramError
from telegram.ext import CommandHandler, ExtBot, filters

from bot import texts
from bot.services import Context, Services
from core.errors import InvalidInputError
from storage import club, outbox
from storage.errors import StoreError, StoreProblem

log = logging.getLogger(__name__)

LIMIT = 4096
UNWRITABLE = frozenset({StoreProblem.READ_ONLY, StoreProblem.DISK_FULL})
Handler = Callable[[Update, Context], Coroutine[Any, Any, None]]


def esc(text: object) -> str:
    return html.escape(str(text))


def split(text: str, limit: int = LIMIT) -> list[str]:
    """Pieces of at most `limit` characters, cut at line ends (a `<pre>` block is closed and
    reopened around a cut)."""
    pieces: list[str] = []
    current = ""
    for line in text.split("\n"):
        while len(line) > limit:
            pieces.append(line[:limit])
            line = line[limit:]
        if current and len(current) + 1 + len(line) > limit - 12:
            pieces.append(current)
            current = line
        else:
            current = f"{current}\n{line}" if current else line
    if current:
        pieces.append(current)
    balanced = []
    open_pre = False
    for piece in pieces:
        if open_pre:
            piece = "<pre>" + piece
        open_pre = piece.count("<pre>") > piece.count("</pre>")
        balanced.append(piece + ("</pre>" if open_pre else ""))
    return balanced


async def reply(update: Update, context: Context, text: str, *,
                markup: InlineKeyboardMarkup | None = None) -> None:
    """Answer in the chat (and forum topic) the update came from. The answer is owed through
    the outbox, in the transaction of what it reports if one is open: stored and answered
    are one fact, and a reply Telegram does not take at once is sent again."""
    message = update.effective_message
    if message is None:
        return
    thread = message.message_thread_id if message.is_topic_message else None
    await send(context.services, message.chat_id, text, markup=markup, thread_id=thread,
               fallback=context.bot)


async def send(services: Services, chat_id: int, text: str, *,
               markup: InlineKeyboardMarkup | None = None, thread_id: int | None = None,
               about: str = "", round_no: int | None = None, kind: str | None = None,
               player: str | None = None, fallback: ExtBot[None] | None = None) -> None:
    """Owe a message to one chat (split to Telegram's size; buttons on the last piece).
    `about` names the addressee if it cannot be delivered; `round_no` and `kind` remember
    the sent message as the round's (a reply to it names the round). With `fallback`, a
    database that cannot be written does not silence the bot: the text goes out directly."""
    pieces = split(text)
    messages = [outbox.Outgoing(chat_id, piece, thread_id,
                                markup.to_dict() if markup and k == len(pieces) - 1 else None,
                                round_no, kind, player, about)
                for k, piece in enumerate(pieces)]
    try:
        await outbox.owe(services.db, messages)
    except StoreError as exc:
        if fallback is None or exc.problem not in UNWRITABLE:
            raise
        for piece in messages:
            with contextlib.suppress(TelegramError):
                await fallback.send_message(chat_id, piece.text, message_thread_id=thread_id)


async def owe_to_arbiters(services: Services, text: str, *,
                          markup: InlineKeyboardMarkup | None = None,
                          fallback: ExtBot[None] | None = None) -> None:
    for arbiter in sorted(await services.arbiters()):
        await send(services, arbiter, text, markup=markup, fallback=fallback)


async def tell_arbiters(context: Context, text: str, *,
                        markup: InlineKeyboardMarkup | None = None) -> None:
    await owe_to_arbiters(context.services, text, markup=markup)


async def answer(update: Update, text: str | None = None, *, alert: bool = False) -> None:
    """Answer a button press (the toast). A press Telegram has forgotten (pressed while the
    bot was down: "query is too old") cannot be answered, and that is fine."""
    query = update.callback_query
    if query is None:
        return
    try:
        await query.answer(text, show_alert=alert)
    except BadRequest as exc:
        log.info("button press not answered: %s", exc.message)


async def edit(update: Update, text: str) -> None:
    """Change the message a button sits on; a second tap changes nothing, and that is fine."""
    query = update.callback_query
    if query is None:
        return
    try:
        await query.edit_message_text(text)
    except BadRequest as exc:
        if "not modified" not in exc.message.lower():
            raise


async def member(update: Update, context: Context) -> club.Member | None:
    """The member the sender is linked to; asks him to link if he is not."""
    user = update.effective_user
    found = None if user is None else await club.member_of(context.services.db, user.id)
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


def refusing_store_errors(handler: Handler) -> Handler:
    """A refusal (unknown player, closed round, a change that would break the season, ...)
    becomes a Dutch reply; nothing was written."""
    async def guarded(update: Update, context: Context) -> None:
        try:
            await handler(update, context)
        except StoreError as exc:
            text = texts.NO_SEASON if exc.problem is StoreProblem.NO_SEASON \
                else texts.store_problem(exc)
            await reply(update, context, text)
            if exc.problem in UNWRITABLE and context.services.throttle.first(exc.problem):
                await owe_to_arbiters(context.services, texts.store_problem(exc),
                                      fallback=context.bot)
        except InvalidInputError as exc:
            await reply(update, context,
                        esc(texts.problems_report(texts.CHANGE_REFUSED, exc.problems)))
    return guarded


def unit_of_work(handler: Handler) -> Handler:
    """Run `handler` in one transaction: what it stores, the replies and every message it
    owes commit together with the update being marked done, or none of it does (and the
    update is handled again after a restart)."""
    async def inside(update: Update, context: Context) -> None:
        async with context.services.db.transaction():
            await handler(update, context)
    return inside


def command(name: str, handler: Handler, *, reads_only: bool = False
            ) -> CommandHandler[Context, None]:
    """A command for new messages only (an edited command is answered elsewhere, not re-run).
    A command that may change something is one unit of work; `reads_only` commands (heavy
    views) run outside a transaction, so they never hold up a writer, and still answer when
    the database cannot be written."""
    body = handler if reads_only else unit_of_work(handler)
    return CommandHandler(name, refusing_store_errors(body), filters=filters.UpdateType.MESSAGE)


async def find_member(update: Update, context: Context, text: str) -> club.Member | None:
    """Exactly one member by name, or a reply saying why not."""
    found = club.find(await club.members(context.services.db), text)
    if len(found) == 1:
        return found[0]
    if not found:
        await reply(update, context, texts.WHO_UNKNOWN.format(name=esc(text)))
    else:
        await reply(update, context, texts.WHO_AMBIGUOUS.format(
            name=esc(text), names=", ".join(esc(m.name) for m in found[:8])))
    return None


DATE = re.compile(r"^(\d{1,2})[-/.](\d{1,2})(?:[-/.](\d{2,4}))?$|^(\d{4})-(\d{2})-(\d{2})$")


def parse_date(text: str, today: dt.date) -> dt.date | None:
    """`3-12`, `3/12`, `3-12-2026` or `2026-12-03`; without a year the next such date."""
    match = DATE.match(text.strip())
    if not match:
        return None
    try:
        if match.group(4):
            return dt.date(int(match.group(4)), int(match.group(5)), int(match.group(6)))
        day, month = int(match.group(1)), int(match.group(2))
        if match.group(3):
            year = int(match.group(3))
            return dt.date(year + 2000 if year < 100 else year, month, day)
        guess = dt.date(today.year, month, day)
        return guess if guess >= today else dt.date(today.year + 1, month, day)
    except ValueError:
        return None


def show_date(date: dt.date | None) -> str:
    if date is None:
        return "datum volgt"
    return f"{texts.WEEKDAYS[date.weekday()]} {date.day} {texts.MONTHS[date.month - 1]}"


def show_moment(moment: dt.datetime | None, zone: dt.tzinfo) -> str:
    if moment is None:
        return "-"
    local = moment.astimezone(zone)
    return f"{show_date(local.date())} {local:%H:%M}"
