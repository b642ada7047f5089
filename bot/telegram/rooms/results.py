"""/uitslag: players report, the opponent confirms with a button, the arbiter settles."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from telegram import Update

from bot.callbacks import Confirm, Dispute, Report, ReportFor
from bot.flows import members, results
from bot.keyboard import Button, Keyboard
from bot.language.notice import Said, Text
from bot.language.vocabulary import ROUND, key
from bot.services import Context
from bot.telegram.answer import Answer, Edit, Toast
from bot.telegram.grammar import Command, One, Rest, form, maybe
from bot.telegram.room import Room, button
from bot.telegram.rooms.common import member, number
from core.season import Result

SPELLINGS = {"remise": "1/2-1/2", "=": "1/2-1/2", "½": "1/2-1/2", "r": "1/2-1/2"}


def parse_result(text: str) -> Result | None:
    try:
        return Result.parse(SPELLINGS.get(text.lower(), text))
    except ValueError:
        return None


async def uitslag(update: Update, context: Context, result: Result) -> Answer:
    """`/uitslag 1-0`: a player reports his own game's result."""
    who = await member(update, context)
    message = update.effective_message
    assert message is not None and update.effective_user is not None
    original = message.reply_to_message
    done = await results.report(
        context.services, who, result, actor=update.effective_user.id,
        replied_to=None if original is None else (message.chat_id, original.message_id))
    if isinstance(done, results.WhichRound):
        return Answer(Text("WHICH_ROUND", {"result": done.result}), markup=which_buttons(done))
    if done is None:
        return Answer(Text("NO_PUBLISHED_ROUND"))
    return Answer(reported(done), then=_follow(context, done.completed))


def which_buttons(which: results.WhichRound) -> Keyboard:
    return Keyboard.of([Button(
        Text("WHICH_ROUND_BUTTON", {"round": number, "opponent": opponent}),
        ReportFor(number, board, which.result.value).pack())]
        for number, board, opponent in which.games)


async def enters(update: Update, context: Context, board: int, result: Result,
                 round: int | None) -> Answer:
    """`/uitslag BORD UITSLAG [ronde N]`: the arbiter enters (or corrects) a board's result."""
    assert update.effective_user is not None
    done = await results.correct(context.services, round, board, result,
                                 actor=update.effective_user.id)
    if done is None:
        return Answer(Text("UITSLAG_USAGE_ARBITER"))
    return Answer(reported(done), drop=done.stale, then=_follow(context, done.completed))


def _follow(context: Context, completed: bool) -> Callable[[], Awaitable[None]] | None:
    """The standings posted after the commit, when the answer completed a round."""
    return results.standings_follow(context.services) if completed else None


def reported(done: results.Reported) -> Text:
    key = {results.Outcome.CONFLICT: "RESULT_CONFLICT", results.Outcome.UNCHANGED:
           "RESULT_UNCHANGED", results.Outcome.RECORDED: "RESULT_RECORDED"}.get(done.outcome,
                                                                                 "RESULT_FINAL")
    return Text(key, {"round": done.round, "board": done.board, "words": done.words,
                      "opponent": done.opponent})


async def confirm_button(update: Update, context: Context, pressed: Confirm | Dispute) -> Answer:
    query = update.callback_query
    assert query is not None
    verdict, said = await results.confirm(context.services, query.from_user.id, pressed.round,
                                          pressed.board, pressed.result,
                                          agrees=isinstance(pressed, Confirm))
    if verdict is results.Confirmation.NOT_YOURS:
        return Answer(toast=Toast(Text("NOT_YOUR_BUTTON"), alert=True))
    if verdict is results.Confirmation.DISPUTED:
        return Answer(edit=Edit(Text("DISPUTED")))
    if verdict is results.Confirmation.ALREADY_HANDLED:
        return Answer(edit=Edit(Text("ALREADY_HANDLED")))
    return Answer(edit=Edit(Text("CONFIRMED", {"words": said})),
                  then=_follow(context, verdict is results.Confirmation.COMPLETED))


async def result_button(update: Update, context: Context,
                        pressed: Report | ReportFor) -> Answer:
    """A result tapped under a player's own pairing message, or under the question which
    round a typed result is for: as `/uitslag` for that round. The question is replaced by
    the answer; the pairing keeps its buttons."""
    query = update.callback_query
    assert query is not None
    who = await members.of_user(context.services, query.from_user.id)
    if who is None or await results.board_of(context.services, pressed.round,
                                             who) != pressed.board:
        return Answer(toast=Toast(Text("NOT_YOUR_BUTTON"), alert=True))
    done = await results.report(context.services, who, Result(pressed.result), replied_to=None,
                                actor=query.from_user.id, tapped_in=pressed.round)
    said: Said | str
    if not isinstance(done, results.Reported):
        said, completed = Text("NO_PUBLISHED_ROUND"), False
    else:
        said, completed = reported(done), done.completed
    if isinstance(pressed, ReportFor):
        return Answer(edit=Edit(said), then=_follow(context, completed))
    return Answer(reply=said, then=_follow(context, completed))


async def arbiter_usage(update: Update, context: Context, board: int, rest: str) -> Answer:
    return Answer(Text("UITSLAG_USAGE_ARBITER"))


BOARD, RESULT = One("board", number), One("result", parse_result)

room = Room(commands=(Command(key("uitslag", "result"), (
    # A board first is the arbiter's; a player who types one is told he reports his own.
    form(enters, BOARD, RESULT, maybe(ROUND, One("round", number), round=None),
         arbiter=True, others="UITSLAG_ONLY_OWN"),
    form(uitslag, RESULT),
    form(arbiter_usage, BOARD, Rest("rest"), arbiter=True, others="UITSLAG_USAGE")),
    "UITSLAG_USAGE"),),
    handlers=(button((Confirm, Dispute), confirm_button),
              button((Report, ReportFor), result_button)))
