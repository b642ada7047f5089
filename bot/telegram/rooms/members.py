"""Linking a Telegram user to a member: the member says who he is, an arbiter approves."""

from __future__ import annotations

from telegram import Update

from bot.callbacks import Choose, Link, NoLink, TakeOver
from bot.flows import members
from bot.keyboard import Button, Keyboard
from bot.language.notice import Text
from bot.language.vocabulary import key
from bot.services import Context
from bot.telegram.answer import Answer, Edit, Toast
from bot.telegram.grammar import Command, Rest, form
from bot.telegram.room import Room, button


async def ik(update: Update, context: Context, name: str) -> Answer:
    found = await members.matching(context.services, name)
    if not found:
        return Answer(Text("IK_UNKNOWN", {"name": name}))
    if len(found) > 1:
        buttons = Keyboard.of([Button(m.name, Choose(members.key_of(m)).pack())]
                              for m in found[:10])
        return Answer(Text("IK_CHOOSE"), markup=buttons)
    return Answer(await _ask(update, context, found[0]))


async def chosen(update: Update, context: Context, pressed: Choose) -> Answer:
    match = await members.by_key(context.services, pressed.key)
    if match is None:
        return Answer(toast=Toast(Text("BUTTON_STALE")))
    return Answer(reply=await _ask(update, context, match))


async def _ask(update: Update, context: Context, who: members.Member) -> Text:
    """Ask the arbiters to link the sender to `who`; what he is told."""
    user = update.effective_user
    assert user is not None
    applicant = members.Applicant(user.id, user.full_name, user.username)
    if await members.ask_link(context.services, who, applicant):
        return Text("IK_WELCOME", {"name": who.name})
    return Text("IK_SENT", {"name": who.name})


async def decide(update: Update, context: Context, pressed: Link | TakeOver | NoLink) -> Answer:
    query = update.callback_query
    assert query is not None
    who = None if isinstance(pressed, NoLink) else \
        await members.by_key(context.services, pressed.key)
    if not isinstance(pressed, NoLink) and who is None:
        return Answer(toast=Toast(Text("BUTTON_STALE")))
    done = await members.decide(context.services, pressed.user, who, actor=query.from_user.id,
                                take_over=isinstance(pressed, TakeOver))
    toast = Toast(Text("ALREADY_HANDLED") if done.already else None)
    if who is None:
        return Answer(toast=toast, edit=Edit(Text("IK_REFUSED")))
    if done.to_confirm:
        return Answer(toast=toast, edit=Edit(
            Text("IK_CONFIRM_TAKE_OVER", {"user": pressed.user, "name": who.name}),
            markup=members.link_buttons(who, pressed.user, take_over=True)))
    return Answer(toast=toast, edit=Edit(Text("IK_LINKED", {"user": pressed.user,
                                                           "name": done.name})))


room = Room(commands=(Command(key("ik", "iam"), (form(ik, Rest("name")),), "IK_USAGE"),),
            handlers=(button((Choose,), chosen),
                      button((Link, TakeOver, NoLink), decide, arbiter=True)))
