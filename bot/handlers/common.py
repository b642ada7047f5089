"""What every handler uses: replies (split, escaped), who is asking, arbiter checks, dates."""

from __future__ import annotations

import datetime as dt
import html
import logging
import re
from collections.abc import Callable, Coroutine, Iterable
from typing import Any

from telegram import InlineKeyboardMarkup, Message, Update
from telegram.error import Forbidden, TelegramError
from telegram.ext import CommandHandler, filters

from bot import texts
from bot.services import Context
from core.errors import InvalidInputError
from storage import club
from storage.errors import StoreError, StoreProblem

log = logging.getLogger(__name__)

LIMIT = 4096
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


async def reply(update: Update, text: str, *,
                markup: InlineKeyboardMarkup | None = None) -> Message | None:
    """Answer in the chat (and forum topic) the update came from."""
    message = update.effective_message
    if message is None:
        return None
    sent = None
    pieces = split(text)
    for k, piece in enumerate(pieces):
        sent = await message.reply_text(piece, reply_markup=markup if k == len(pieces) - 1
                                        else None, do_quote=False)
    return sent


async def send(context: Context, chat_id: int, text: str, *,
               markup: InlineKeyboardMarkup | None = None,
               thread_id: int | None = None) -> Message | None:
    """Send to one chat; a member who blocked the bot is logged, not an error."""
    sent = None
    try:
        for piece in split(text):
            sent = await context.bot.send_message(chat_id, piece, reply_markup=markup,
                                                  message_thread_id=thread_id)
    except Forbidden:
        log.info("chat %s blocked the bot or never started it", chat_id)
        return None
    except TelegramError as exc:
        log.warning("could not send to %s: %s", chat_id, exc)
        return None
    return sent


async def broadcast(context: Context, chat_ids: Iterable[int], text: str, *,
                    markup: InlineKeyboardMarkup | None = None) -> list[int]:
    """Send to each chat; returns those that could not be reached."""
    return [chat for chat in chat_ids if await send(context, chat, text, markup=markup) is None]


async def tell_arbiters(context: Context, text: str, *,
                        markup: InlineKeyboardMarkup | None = None) -> None:
    await broadcast(context, sorted(await context.services.arbiters()), text, markup=markup)


async def member(update: Update, context: Context) -> club.Member | None:
    """The member the sender is linked to; asks him to link if he is not."""
    user = update.effective_user
    found = None if user is None else await club.member_of(context.services.db, user.id)
    if found is None:
        await reply(update, texts.NOT_LINKED)
    return found


async def is_arbiter(update: Update, context: Context) -> bool:
    user = update.effective_user
    return user is not None and await context.services.is_arbiter(user.id)


def arbiter_only(handler: Handler) -> Handler:
    """Run `handler` for arbiters; everyone else gets a polite refusal."""
    async def guarded(update: Update, context: Context) -> None:
        if not await is_arbiter(update, context):
            await reply(update, texts.ONLY_ARBITER)
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
            await reply(update, text)
        except InvalidInputError as exc:
            await reply(update, esc(texts.problems_report(texts.CHANGE_REFUSED, exc.problems)))
    return guarded


def command(name: str, handler: Handler) -> CommandHandler[Context, None]:
    """A command for new messages only: an edited command is answered elsewhere, not re-run."""
    return CommandHandler(name, refusing_store_errors(handler),
                          filters=filters.UpdateType.MESSAGE)


async def find_member(update: Update, context: Context, text: str) -> club.Member | None:
    """Exactly one member by name, or a reply saying why not."""
    found = club.find(await club.members(context.services.db), text)
    if len(found) == 1:
        return found[0]
    if not found:
        await reply(update, texts.WHO_UNKNOWN.format(name=esc(text)))
    else:
        await reply(update, texts.WHO_AMBIGUOUS.format(
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
