"""A room: one feature's place in the bot (aiogram's routers are the model). It declares its
commands (each a grammar, `bot.telegram.grammar`), its buttons and whatever else it answers;
`bot.telegram.app` registers the rooms in order, one line each. Every command and button runs
through the one runner here: a unit of work, the answer owed in it, refusals said."""

from __future__ import annotations

import functools
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Any

from telegram import Update
from telegram.ext import Application, BaseHandler, CallbackQueryHandler, CommandHandler, filters

from bot import callbacks
from bot.callbacks import Callback
from bot.language.notice import Text, plain
from bot.services import App, Context
from bot.telegram import grammar
from bot.telegram.answer import Answer, Refused, Toast, Write, after_commit, at_once, owe
from bot.telegram.chat import Handler, answer, say
from bot.telegram.refusals import refusing

Made = Answer | Write
"""What a command or a button makes: its answer, or (reading first) what it then stores."""


class Spoken(CommandHandler[Context, None]):
    """A declared command, as the application holds it (so its names are found there).
    `made` is what it makes of an update: its words read, the form they fit run."""

    def __init__(self, command: grammar.Command) -> None:
        name = command.name
        self.made = _reading(command)
        super().__init__(list(dict.fromkeys((name.dutch[0], name.english[0]))),
                         answering(self.made, reads_only=command.reads_only,
                                   reads_first=command.reads_first),
                         filters=filters.UpdateType.MESSAGE)
        self.command = command


@dataclass(frozen=True)
class Room:
    """A feature's commands, buttons (`button`) and other handlers, registered in that
    order; `first` handlers run before any room's (PTB's group -1)."""

    commands: tuple[grammar.Command, ...] = ()
    handlers: tuple[BaseHandler[Any, Context, Any], ...] = ()
    first: tuple[BaseHandler[Any, Context, Any], ...] = ()

    @functools.cached_property
    def spoken(self) -> tuple[Spoken, ...]:
        """Its commands' handlers, made once per process: they hold no club's state, and a
        host starts many clubs (and a test run hundreds of bots)."""
        return tuple(Spoken(command) for command in self.commands)

    def register(self, app: App) -> None:
        for handler in (*self.spoken, *self.handlers):
            app.add_handler(handler)
        for handler in self.first:
            app.add_handler(handler, group=-1)


def command_names(app: Application[Any, Any, Any, Any, Any, Any]) -> Mapping[str, str]:
    """Each declared command's English name by its Dutch one (the menus spell them)."""
    return {handler.command.name.dutch[0]: handler.command.name.english[0]
            for handlers in app.handlers.values() for handler in handlers
            if isinstance(handler, Spoken)}


def _typed(update: Update) -> str:
    """The command's word as typed: `/Signoff@club_bot 3` is `signoff`."""
    message = update.effective_message
    text = (message.text or "") if message is not None else ""
    return text.split(maxsplit=1)[0].split("@")[0].lstrip("/").lower() if text else ""


def _reading(command: grammar.Command) -> Callable[[Update, Context], Awaitable[Made]]:
    """The command's words read by its grammar, and the form they are run."""
    async def run(update: Update, context: Context) -> Made:
        context.english = command.typed_in_english(_typed(update))
        if command.arbiter and not await is_arbiter(update, context):
            raise Refused(await not_arbiter(update, context))
        found = grammar.read(command.forms, list(context.args or []))
        if found is None:
            return await _usage(command.usage, update, context)
        chosen, values = found
        if chosen.arbiter and not command.arbiter and not await is_arbiter(update, context):
            if chosen.others is not None:
                return Answer(Text(chosen.others))
            raise Refused(await not_arbiter(update, context))
        made: Made = await chosen.run(update, context, **values)
        return made
    return run


async def _usage(usage: str | grammar.Run, update: Update, context: Context) -> Made:
    if isinstance(usage, str):
        return Answer(Text(usage))
    made: Made = await usage(update, context)
    return made


def answering(handler: Callable[[Update, Context], Awaitable[Made]], *,
              reads_only: bool = False, reads_first: bool = False) -> Handler:
    """The runner of a message's handler. It runs as one unit of work, and its answer is
    owed in it; the direct calls to Telegram come after the commit. A `reads_only` handler (a
    question) runs outside any transaction, so it never waits for a writer, and its answer
    goes out at once. One that `reads_first` does its slow reading outside too, and returns
    what it then stores as a `Write`. Refusals of the store and the core become replies."""
    outside = reads_only or reads_first

    async def run(update: Update, context: Context) -> None:
        try:
            done, stored = await _run(update, context, lambda: handler(update, context),
                                      outside=outside)
            assert not (reads_only and stored), "a question stores nothing"
        except Refused as refused:
            await say(update, context, refused.text, context.words, markup=refused.markup)
            return
        if stored:
            await after_commit(update, context, done)
        else:
            await at_once(update, context, done)
    return refusing(run)


async def _run(update: Update, context: Context, handler: Callable[[], Awaitable[Made]], *,
               outside: bool) -> tuple[Answer, bool]:
    """Run a handler in the unit of work, or (`outside`) before one; a `Write` it returns is
    run as the unit of work. Its answer, and whether it was owed in a committed unit."""
    if outside:
        made = await handler()
    else:
        async with context.services.db.transaction():
            made = await handler()
            if isinstance(made, Answer):
                await owe(update, context, made)
    if isinstance(made, Write):
        async with context.services.db.transaction():
            done = await made.store()
            await owe(update, context, done)
        return done, True
    return made, not outside


async def stale_button(update: Update, context: Context) -> None:
    """A button no handler takes (from an older version, or data no button of ours has)."""
    await answer(update, plain(Text("BUTTON_STALE"), context.words))


ButtonHandler = Callable[[Update, Context, Any], Awaitable[Made]]
"""A button's handler: the press, and its data read by its `Callback` class."""


def button(kinds: tuple[type[Callback], ...], handler: ButtonHandler, *,
           reads_first: bool = False, personal: bool = False,
           arbiter: bool = False) -> CallbackQueryHandler[Context, None]:
    """A button of these kinds. The handler runs as one unit of work and returns its
    `Answer`: the reply, the edit and the buttons to drop are owed inside that transaction,
    and the toast goes to Telegram after the commit, outside the writer's lock and outside
    the update's handling. A handler that `reads_first` (slow work outside any transaction)
    returns what it then stores as a `Write`, run as the unit of work.
    Data no kind reads is a stale button: PTB hands a press without data to the first button
    handler whatever its pattern, so the data is read here too. A `personal` button (under a
    group's message, answered by a toast only the presser sees) speaks his own language, not
    the group's. An `arbiter` button is the arbiter's: anyone else's press is refused."""
    async def run(update: Update, context: Context) -> None:
        pressed = callbacks.unpack(kinds, update.callback_query.data
                                   if update.callback_query else None)
        if pressed is None:
            await stale_button(update, context)
            return
        if personal:  # what the answer says is made in the presser's words
            context.language = await own_language(update, context)
        try:
            if arbiter and not await is_arbiter(update, context):
                raise Refused(Text("ONLY_ARBITER"))
            done, stored = await _run(update, context,
                                      lambda: handler(update, context, pressed),
                                      outside=reads_first)
            assert stored or done.reply is None, "a reply is owed in a unit of work"
        except Refused as refused:
            done, stored = Answer(toast=Toast(refused.text, alert=True)), True
        # Off the update's own task too: a Telegram slow to take toasts holds none of the
        # runtime's places for handling updates (while stopping, it is awaited here).
        answered = after_commit(update, context, done, owed=stored)
        if context.application.running:
            context.application.create_task(answered, update=update, name="button-answer")
        else:
            await answered
    return CallbackQueryHandler(refusing(run), pattern=callbacks.pattern(kinds))


async def is_arbiter(update: Update, context: Context) -> bool:
    user = update.effective_user
    return user is not None and await context.services.is_arbiter(user.id)


async def not_arbiter(update: Update, context: Context) -> Text:
    """Why an arbiter's command is refused: only the arbiter may. A club with no arbiter yet
    (a first start, KEIZER_ARBITERS empty) is told how it gets one, with the sender's id."""
    services = context.services
    if await services.arbiters():
        return Text("ONLY_ARBITER")
    club = services.settings.club
    return Text("NO_ARBITER_YET", {"id": actor(update)}) if club is None \
        else Text("NO_ARBITER_YET_HOSTED", {"id": actor(update), "club": club})


async def own_language(update: Update, context: Context) -> str:
    """The sender's own language, for what is said to him personally: also when he asked in
    a group, which is answered in the club's."""
    user = update.effective_user
    if user is None:
        return context.language
    return await context.services.languages.first_contact(user.id, user.language_code)


def actor(update: Update) -> int:
    """Who sent the update (the audit log's actor)."""
    assert update.effective_user is not None
    return update.effective_user.id
