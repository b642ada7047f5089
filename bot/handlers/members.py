"""Linking a Telegram user to a member: the member says who he is, an arbiter approves."""

from __future__ import annotations

from telegram import InlineKeyboardButton, InlineKeyboardMarkup, Update
from telegram.ext import Application, CallbackQueryHandler

from bot import texts
from bot.chat import answer, edit, esc, reply, send, tell_arbiters
from bot.handlers.common import command, is_arbiter, refusing_store_errors, unit_of_work
from bot.services import Context
from storage import club


async def ik(update: Update, context: Context) -> None:
    name = " ".join(context.args or [])
    if not name:
        await reply(update, context, texts.IK_USAGE)
        return
    found = club.find(await club.members(context.services.db), name)
    if not found:
        await reply(update, context, texts.IK_UNKNOWN.format(name=esc(name)))
    elif len(found) > 1:
        buttons = [[InlineKeyboardButton(m.name, callback_data=f"ik:v1:{m.code}")]
                   for m in found[:10]]
        await reply(update, context, texts.IK_CHOOSE, markup=InlineKeyboardMarkup(buttons))
    else:
        await _ask(update, context, found[0])


async def chosen(update: Update, context: Context) -> None:
    query = update.callback_query
    assert query is not None and query.data is not None
    code = query.data.split(":")[2]
    match = next((m for m in await club.members(context.services.db) if m.code == code), None)
    await answer(update)
    if match is not None:
        await _ask(update, context, match)


async def _ask(update: Update, context: Context, who: club.Member) -> None:
    user = update.effective_user
    assert user is not None
    if await is_arbiter(update, context):
        await club.link(context.services.db, who.code, user.id, actor=user.id)
        await reply(update, context, texts.IK_WELCOME.format(name=esc(who.name)))
        return
    label = esc(user.full_name) + (f" (@{esc(user.username)})" if user.username else "") + \
        f" [{user.id}]"
    buttons = InlineKeyboardMarkup([[
        InlineKeyboardButton(texts.IK_YES, callback_data=f"link:v1:{who.code}:{user.id}"),
        InlineKeyboardButton(texts.IK_NO, callback_data=f"nolink:v1:{user.id}")]])
    await tell_arbiters(context, texts.IK_ASK_ARBITER.format(user=label, name=esc(who.name)),
                        markup=buttons)
    await reply(update, context, texts.IK_SENT.format(name=esc(who.name)))


async def decide(update: Update, context: Context) -> None:
    query = update.callback_query
    assert query is not None and query.data is not None
    if not await is_arbiter(update, context):
        await answer(update, texts.ONLY_ARBITER, alert=True)
        return
    parts = query.data.split(":")
    if parts[0] == "link":
        code, user_id = parts[2], int(parts[3])
        linked = await club.member_of(context.services.db, user_id)
        name = next(m.name for m in await club.members(context.services.db) if m.code == code)
        if linked is not None and linked.code == code:  # a second tap: nothing to do
            await answer(update, texts.ALREADY_HANDLED)
            await edit(update, texts.IK_LINKED.format(user=user_id, name=esc(name)))
            return
        await answer(update)
        await club.link(context.services.db, code, user_id, actor=query.from_user.id)
        await edit(update, texts.IK_LINKED.format(user=user_id, name=esc(name)))
        await send(context.services, user_id, texts.IK_WELCOME.format(name=esc(name)))
    else:
        await answer(update)
        await edit(update, texts.IK_REFUSED)
        await send(context.services, int(parts[2]), texts.IK_DECLINED)


def register(app: Application) -> None:  # type: ignore[type-arg]
    app.add_handler(command("ik", ik))
    app.add_handler(CallbackQueryHandler(refusing_store_errors(unit_of_work(chosen)),
                                         pattern=r"^ik:v1:"))
    app.add_handler(CallbackQueryHandler(refusing_store_errors(unit_of_work(decide)),
                                         pattern=r"^(no)?link:v1:"))
