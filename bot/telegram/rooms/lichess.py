"""/lichess: a member links his lichess account (in private); `/lichess club`: the arbiter
links the club's, which makes a round's games; `uit` forgets either."""

from __future__ import annotations

from telegram import Update
from telegram.constants import ChatType

from bot.flows import lichess, online
from bot.keyboard import Button, Keyboard
from bot.language.notice import Text, lines
from bot.language.vocabulary import CLUB, OFF, key
from bot.services import Context
from bot.telegram.answer import Answer, Refused
from bot.telegram.grammar import Command, flag, form
from bot.telegram.room import Room, actor, is_arbiter, not_arbiter
from bot.telegram.rooms.common import member


async def lichess_command(update: Update, context: Context, organiser: bool,
                          off: bool) -> Answer:
    """`/lichess [club] [uit]`: link (or forget) his own account, or the club's."""
    chat = update.effective_chat
    if chat is None or chat.type != ChatType.PRIVATE:
        raise Refused(Text("LICHESS_PRIVATE"))
    if organiser and not await is_arbiter(update, context):
        raise Refused(await not_arbiter(update, context))
    if not organiser:
        await member(update, context)  # a lichess account is a player's: who is he?
    if off:
        return await _forget(context, actor(update), organiser)
    if not online.ready(context.services):
        raise Refused(Text("LICHESS_NOT_SET_UP"))
    now = await lichess.linked(context.services, actor(update), organiser=organiser)
    link = await lichess.begin(context.services, actor(update), organiser=organiser)
    said = Text("LICHESS_SIGN_IN_CLUB" if organiser else "LICHESS_SIGN_IN")
    return Answer(said if now is None else lines(Text("LICHESS_NOW", {"name": now}), said,
                                                 between=" "),
                  markup=Keyboard.of([[Button(Text("LICHESS_BUTTON"), url=link)]]))


async def _forget(context: Context, user: int, organiser: bool) -> Answer:
    was = await lichess.forget(context.services, user, organiser=organiser)
    if was is None:
        return Answer(Text("LICHESS_NONE"))
    said = "LICHESS_CLUB_FORGOTTEN" if organiser else "LICHESS_FORGOTTEN"
    return Answer(Text(said, {"name": was.username}),
                  then=lambda: lichess.revoke(context.services, was))


room = Room(commands=(Command(key("lichess"), (
    form(lichess_command, flag("organiser", CLUB), flag("off", OFF)),), "LICHESS_USAGE"),))
