"""Files sent to the bot by the arbiter, in private: the KNSB rating list (the answer is a
proposal with buttons; nothing changes until he confirms), or a TRF from another program
(read into a season file, sent back with what had to be assumed; nothing changes)."""

from __future__ import annotations

from telegram import InlineKeyboardButton, InlineKeyboardMarkup, Update
from telegram.error import BadRequest
from telegram.ext import MessageHandler, filters

from bot import texts
from bot.chat import answer, edit, esc, reply
from bot.flows import files, ratings
from bot.handlers.common import atomically, button, is_arbiter
from bot.refusals import refusing
from bot.services import App, Context
from core.ratings import MAX_BYTES, ListProblem, RatingListError

LABEL = 60
"""Button labels are cut to this many characters (Telegram shows little more)."""


def _markup(shown: ratings.Shown) -> InlineKeyboardMarkup | None:
    proposal = shown.proposal
    if not proposal.updates and not proposal.close:
        return None
    rows = [[InlineKeyboardButton(
        texts.RATING_BUTTON_ACCEPT.format(mark="✓ " if k in proposal.accepted else "",
                                          name=c.name, listed=c.listed.name)[:LABEL],
        callback_data=f"rat:v1:{shown.number}:c{k}")] for k, c in enumerate(proposal.close)]
    rows.append([InlineKeyboardButton(
        texts.RATING_BUTTON_APPLY.format(count=len(proposal.to_apply())),
        callback_data=f"rat:v1:{shown.number}:ok"),
        InlineKeyboardButton(texts.RATING_BUTTON_CANCEL,
                             callback_data=f"rat:v1:{shown.number}:no")])
    return InlineKeyboardMarkup(rows)


def _text(shown: ratings.Shown) -> str:
    return texts.rating_proposal(shown.proposal, shown.names, escape=esc)


async def received(update: Update, context: Context) -> None:
    """A file in a private chat: the arbiter's rating list, compared with the members."""
    message, user = update.effective_message, update.effective_user
    assert message is not None and user is not None
    document = message.document
    assert document is not None
    if not await is_arbiter(update, context):
        await reply(update, context, texts.FILE_ONLY_ARBITER)
        return
    name = (document.file_name or "").lower()
    if not name.endswith((".zip", ".csv", ".trf", ".trfx", ".txt")):
        await reply(update, context, texts.FILE_UNKNOWN_KIND)
        return
    try:
        if (document.file_size or 0) > MAX_BYTES:  # not fetched at all
            raise RatingListError(ListProblem.TOO_BIG, limit=MAX_BYTES // (1024 * 1024))
        try:
            data = bytes(await (await document.get_file()).download_as_bytearray())
        except BadRequest as exc:  # a network failure is not caught: the update comes again
            if "too big" not in exc.message.lower():
                raise
            raise RatingListError(ListProblem.TOO_BIG,
                                  limit=MAX_BYTES // (1024 * 1024)) from None
        if not name.endswith((".zip", ".csv")):
            await _tournament(update, context, data)
            return
        async with atomically(context):
            shown = await ratings.compare(context.services, data, actor=user.id)
            await reply(update, context, _text(shown), markup=_markup(shown))
    except RatingListError as exc:
        await reply(update, context, esc(texts.rating_list_problem(exc)))


async def _tournament(update: Update, context: Context, data: bytes) -> None:
    """A TRF read into a season file: sent back, with what the file did not say."""
    chat = update.effective_chat
    assert chat is not None
    read = await files.season_from_trf(data)
    if isinstance(read, str):
        await reply(update, context, esc(read))
        return
    season, report = read
    await reply(update, context, esc(report))
    await context.bot.send_document(chat.id, season.to_json().encode(),
                                    filename="seizoen.json", caption=texts.TRF_READ_CAPTION)


async def proposal_button(update: Update, context: Context) -> None:
    query = update.callback_query
    assert query is not None and query.data is not None
    if not await is_arbiter(update, context):
        await answer(update, texts.ONLY_ARBITER, alert=True)
        return
    _, _, number_, what = query.data.split(":")
    number = int(number_)
    # What the arbiter is told follows the commit: "bijgewerkt" only once it is stored.
    if what.startswith("c"):
        async with atomically(context):
            shown = await ratings.accept(context.services, number, int(what[1:]))
        if shown is None:
            await answer(update)
            await edit(update, texts.RATING_DECIDED)
            return
        await answer(update, texts.RATING_ACCEPTED)
        await edit(update, _text(shown), markup=_markup(shown))
        return
    async with atomically(context):
        done = await ratings.decide(context.services, number, confirm=what == "ok",
                                    actor=query.from_user.id)
    await answer(update)
    if done is None:
        await edit(update, texts.RATING_DECIDED)
    elif what == "ok":
        await edit(update, texts.RATING_APPLIED.format(count=len(done)))
    else:
        await edit(update, texts.RATING_CANCELLED)


def register(app: App) -> None:
    app.add_handler(MessageHandler(filters.UpdateType.MESSAGE & filters.ChatType.PRIVATE
                                   & filters.Document.ALL, refusing(received)))
    app.add_handler(button(r"rat:v1:[0-9]{1,9}:(ok|no|c[0-9]{1,3})", proposal_button,
                           opens_transaction=True))
