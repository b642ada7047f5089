"""What every handler uses: who is asking, arbiter checks, refusals as replies, units of work,
commands, members by name, numbers as typed."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from contextlib import AbstractAsyncContextManager
from typing import Any

from telegram import Update
from telegram.ext import CallbackQueryHandler, CommandHandler, filters

from bot import callbacks
from bot.callbacks import Callback
from bot.flows import members
from bot.language import dates
from bot.language.notice import Lines, Text, plain
from bot.language.vocabulary import ENGLISH, WORDS
from bot.services import Context
from bot.telegram.answer import (
    Answer,
    Refused,
    Toast,
    Write,
    after_commit,
    at_once,
    owe,
)
from bot.telegram.chat import Handler, answer, say
from bot.telegram.refusals import refusing


async def member(update: Update, context: Context) -> members.Member:
    """The member the sender is linked to; refused, with how to link, if he is not."""
    user = update.effective_user
    found = None if user is None else await members.of_user(context.services, user.id)
    if found is None:
        raise Refused(Text("NOT_LINKED"))
    return found


def actor(update: Update) -> int:
    """Who sent the update (the audit log's actor)."""
    assert update.effective_user is not None
    return update.effective_user.id


async def is_arbiter(update: Update, context: Context) -> bool:
    user = update.effective_user
    return user is not None and await context.services.is_arbiter(user.id)


Command = Callable[[Update, Context], Awaitable[Answer | Write]]
"""A command's handler: what it answers, or (reading first) what it then stores."""


def arbiter_only(handler: Command) -> Command:
    """Run `handler` for arbiters; everyone else gets a polite refusal."""
    async def guarded(update: Update, context: Context) -> Answer | Write:
        if not await is_arbiter(update, context):
            raise Refused(await not_arbiter(update, context))
        return await handler(update, context)
    return guarded


async def not_arbiter(update: Update, context: Context) -> Text:
    """Why an arbiter's command is refused: only the arbiter may. A club with no arbiter yet
    (a first start, KEIZER_ARBITERS empty) is told how it gets one, with the sender's id."""
    services = context.services
    if await services.arbiters():
        return Text("ONLY_ARBITER")
    club = services.settings.club
    return Text("NO_ARBITER_YET", {"id": actor(update)}) if club is None \
        else Text("NO_ARBITER_YET_HOSTED", {"id": actor(update), "club": club})


def atomically(context: Context) -> AbstractAsyncContextManager[object]:
    """A unit of work: what the flows called inside store, the replies and every message
    they owe commit together with the update being marked done, or none of it does (and the
    update is handled again after a restart)."""
    return context.services.db.transaction()


def answering(handler: Command, *, reads_only: bool = False,
              reads_first: bool = False) -> Handler:
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


async def _run(update: Update, context: Context,
               handler: Callable[[], Awaitable[Answer | Write]], *,
               outside: bool) -> tuple[Answer, bool]:
    """Run a handler in the unit of work, or (`outside`) before one; a `Write` it returns is
    run as the unit of work. Its answer, and whether it was owed in a committed unit."""
    if outside:
        made = await handler()
    else:
        async with atomically(context):
            made = await handler()
            if isinstance(made, Answer):
                await owe(update, context, made)
    if isinstance(made, Write):
        async with atomically(context):
            done = await made.store()
            await owe(update, context, done)
        return done, True
    return made, not outside


def typed_in_english(update: Update) -> bool:
    """Whether the command was typed under its English name (`/signoff`, not `/afmelden`):
    its words are read, and the commands it is told of are spelled, in English."""
    message = update.effective_message
    typed = (message.text or "") if message is not None else ""
    word = typed.split(maxsplit=1)[0].split("@")[0].lstrip("/").lower() if typed else ""
    return word in ENGLISH.values()


_IN_ENGLISH = {dutch: english for english, dutch in WORDS.items()}


def spelled(update: Update, name: str, *words: str) -> str:
    """A command to suggest to the sender, in the words he used: `/settings rules X confirm`
    for whoever typed `/settings`, `/instellingen reglement X bevestig` for whoever typed it
    in Dutch (`words` are the Dutch keywords, and values)."""
    if not typed_in_english(update):
        return " ".join([f"/{name}", *words])
    return " ".join([f"/{ENGLISH.get(name, name)}", *(_IN_ENGLISH.get(w.lower(), w)
                                                       for w in words)])


async def own_language(update: Update, context: Context) -> str:
    """The sender's own language, for what is said to him personally: also when he asked in
    a group, which is answered in the club's."""
    user = update.effective_user
    if user is None:
        return context.language
    return await context.services.languages.first_contact(user.id, user.language_code)


def command(name: str, handler: Command, *, reads_only: bool = False,
            reads_first: bool = False, own_words: bool = False
            ) -> CommandHandler[Context, None]:
    """A command for new messages only (an edited command is answered elsewhere, not re-run),
    run by `answering`; under its Dutch name and its English one. Under the English name its
    keywords are read as the Dutch ones, unless the command reads its `own_words` in the
    language it was typed in (`typed_in_english`). A command named alike in both languages
    (`/lichess`, `/arbiter`, `/export`) reads its keywords in either (`uit` and `off`)."""
    english = ENGLISH.get(name)
    names = [name] if english is None else [name, english]
    run = handler if own_words else _words_in_dutch(handler, always=english is None)
    return CommandHandler(names, answering(run, reads_only=reads_only,
                                           reads_first=reads_first),
                          filters=filters.UpdateType.MESSAGE)


def _words_in_dutch(handler: Command, *, always: bool = False) -> Command:
    async def run(update: Update, context: Context) -> Answer | Write:
        if always or typed_in_english(update):
            context.args = [WORDS.get(word.lower(), word) for word in context.args or []]
        return await handler(update, context)
    return run


async def stale_button(update: Update, context: Context) -> None:
    """A button no handler takes (from an older version, or data no button of ours has)."""
    await answer(update, plain(Text("BUTTON_STALE"), context.words))


ButtonHandler = Callable[[Update, Context, Any], Awaitable[Answer | Write]]
"""A button's handler: the press, and its data read by its `Callback` class."""


def button(kinds: tuple[type[Callback], ...], handler: ButtonHandler, *,
           reads_first: bool = False,
           personal: bool = False) -> CallbackQueryHandler[Context, None]:
    """A button of these kinds. The handler runs as one unit of work and returns its
    `Answer`: the reply, the edit and the buttons to drop are owed inside that transaction,
    and the toast goes to Telegram after the commit, outside the writer's lock and outside
    the update's handling. A handler that `reads_first` (slow work outside any transaction)
    returns what it then stores as a `Write`, run as the unit of work.
    Data no kind reads is a stale button: PTB hands a press without data to the first button
    handler whatever its pattern, so the data is read here too. A `personal` button (under a
    group's message, answered by a toast only the presser sees) speaks his own language, not
    the group's."""
    async def run(update: Update, context: Context) -> None:
        pressed = callbacks.unpack(kinds, update.callback_query.data
                                   if update.callback_query else None)
        if pressed is None:
            await stale_button(update, context)
            return
        if personal:  # what the answer says is made in the presser's words
            context.language = await own_language(update, context)
        try:
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


async def find_member(context: Context, text: str) -> members.Member:
    """Exactly one member by name; refused, saying why, if not."""
    found = await members.matching(context.services, text)
    if len(found) == 1:
        return found[0]
    if not found:
        raise Refused(Text("WHO_UNKNOWN", {"name": text}))
    raise Refused(Text("WHO_AMBIGUOUS", {"name": text,
                                         "names": Lines(tuple(m.name for m in found[:8]), ", ")}))


async def two_members(context: Context, words: list[str], *, who: str,
                      which: Callable[[members.Member, list[members.Member], str], Refused]
                      | None = None) -> tuple[members.Member, members.Member]:
    """Two members from `A en B`, `A, B` or `A B`: with a separator, its two sides; without,
    the one way to split the words into two names that each fit one member. `who` (a
    catalogue key) refuses words that name no two (its `{text}`); where one side fits one
    member and the other several, `which` asks whom (else that side is refused as any
    unclear name is)."""
    lowered = [w.lower() for w in words]
    cut = next((k for k, w in enumerate(lowered) if w in (",", "en")), None)
    if cut is not None:
        sides = [" ".join(words[:cut]), " ".join(words[cut + 1:])]
        left, right = [await members.matching(context.services, side) for side in sides]
        if which is not None and ((len(left) == 1 and len(right) > 1)
                                  or (len(right) == 1 and len(left) > 1)):
            raise which(*((left[0], right, sides[1]) if len(left) == 1
                          else (right[0], left, sides[0])))
        return await find_member(context, sides[0]), await find_member(context, sides[1])
    splits = []
    for k in range(1, len(words)):
        left = await members.matching(context.services, " ".join(words[:k]))
        right = await members.matching(context.services, " ".join(words[k:]))
        if len(left) == 1 and len(right) == 1:
            splits.append((left[0], right[0]))
    if len(splits) != 1:
        raise Refused(Text(who, {"text": " ".join(words)}))
    return splits[0]


def number(text: str) -> int | None:
    """A number as typed: ASCII digits only, short enough for the database."""
    return int(text) if dates.is_number(text) else None


