"""/lichess: a member links his lichess account (in private); `/lichess club`: the arbiter
links the club's, which makes a round's games; `uit` forgets either."""

from __future__ import annotations

from telegram import Update
from telegram.constants import ChatType

from bot.flows import lichess, online
from bot.keyboard import Button, Keyboard
from bot.language.notice import Text, lines
from bot.services import App, Context
from bot.telegram.answer import Answer, Refused
from bot.telegram.handlers.common import actor, command, is_arbiter, member, not_arbiter


async def lichess_command(update: Update, context: Context) -> Answer:
    words = [w.lower() for w in context.args or []]
    chat = update.effective_chat
    if chat is None or chat.type != ChatType.PRIVATE:
        raise Refused(Text("LICHESS_PRIVATE"))
    organiser = words[:1] == ["club"]
    if organiser and not await is_arbiter(update, context):
        raise Refused(await not_arbiter(update, context))
    if not organiser:
        await member(update, context)  # a lichess account is a player's: who is he?
    words = words[1:] if organiser else words
    if words == ["uit"]:
        return await _forget(context, actor(update), organiser)
    if words:
        return Answer(Text("LICHESS_USAGE"))
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


def register(app: App) -> None:
    app.add_handler(command("lichess", lichess_command))
