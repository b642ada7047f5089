"""Linking a Telegram user to a member: the member says who he is, an arbiter approves."""

from __future__ import annotations

from telegram import InlineKeyboardButton, InlineKeyboardMarkup, Update

from bot import texts
from bot.chat import answer, edit, esc, reply
from bot.flows import members
from bot.handlers.common import button, command, is_arbiter
from bot.services import App, Context


async def ik(update: Update, context: Context) -> None:
    name = " ".join(context.args or [])
    if not name:
        await reply(update, context, texts.IK_USAGE)
        return
    found = await members.matching(context.services, name)
    if not found:
        await reply(update, context, texts.IK_UNKNOWN.format(name=esc(name)))
    elif len(found) > 1:
        buttons = [[InlineKeyboardButton(m.name, callback_data=f"ik:v2:{members.key_of(m)}")]
                   for m in found[:10]]
        await reply(update, context, texts.IK_CHOOSE, markup=InlineKeyboardMarkup(buttons))
    else:
        await _ask(update, context, found[0])


async def chosen(update: Update, context: Context) -> None:
    query = update.callback_query
    assert query is not None and query.data is not None
    match = await members.by_key(context.services, query.data.split(":", 2)[2])
    await answer(update, None if match is not None else texts.BUTTON_STALE)
    if match is not None:
        await _ask(update, context, match)


async def _ask(update: Update, context: Context, who: members.Member) -> None:
    user = update.effective_user
    assert user is not None
    applicant = members.Applicant(user.id, user.full_name, user.username)
    if await members.ask_link(context.services, who, applicant):
        await reply(update, context, texts.IK_WELCOME.format(name=esc(who.name)))
    else:
        await reply(update, context, texts.IK_SENT.format(name=esc(who.name)))


async def decide(update: Update, context: Context) -> None:
    query = update.callback_query
    assert query is not None and query.data is not None
    if not await is_arbiter(update, context):
        await answer(update, texts.ONLY_ARBITER, alert=True)
        return
    kind, _, *rest = query.data.split(":")
    user_id = int(rest[-1])
    who = None if kind == "nolink" else await members.by_key(context.services, rest[0])
    if kind != "nolink" and who is None:
        await answer(update, texts.BUTTON_STALE)
        return
    done = await members.decide(context.services, user_id, who, actor=query.from_user.id,
                                take_over=kind == "take")
    await answer(update, texts.ALREADY_HANDLED if done.already else None)
    if who is None:
        await edit(update, texts.IK_REFUSED)
    elif done.to_confirm:
        await edit(update, texts.IK_CONFIRM_TAKE_OVER.format(user=user_id, name=esc(who.name)),
                   markup=members.link_buttons(who, user_id, take_over=True))
    else:
        await edit(update, texts.IK_LINKED.format(user=user_id, name=esc(done.name)))


def register(app: App) -> None:
    app.add_handler(command("ik", ik))
    app.add_handler(button(r"ik:v[12]:[^:]+", chosen))
    app.add_handler(button(r"((link|take):v[12]:[^:]+|nolink:v[12]):[0-9]{1,15}", decide))
