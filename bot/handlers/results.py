"""/uitslag: players report, the opponent confirms with a button, the arbiter settles."""

from __future__ import annotations

from telegram import Update

from bot import texts
from bot.chat import answer, drop_buttons, edit, esc, reply
from bot.flows import members, results
from bot.handlers.common import atomically, button, command, is_arbiter, member, number
from bot.services import App, Context
from core.season import Result

SPELLINGS = {"remise": "1/2-1/2", "=": "1/2-1/2", "½": "1/2-1/2", "r": "1/2-1/2"}


def parse_result(text: str) -> Result | None:
    try:
        return Result.parse(SPELLINGS.get(text.lower(), text))
    except ValueError:
        return None


async def uitslag(update: Update, context: Context) -> None:
    args = list(context.args or [])
    if await is_arbiter(update, context) and args and number(args[0]) is not None:
        await _arbiter_enters(update, context, args)
        return
    result = parse_result(args[0]) if len(args) == 1 else None
    if result is None:
        board_first = len(args) >= 2 and number(args[0]) is not None \
            and parse_result(args[1]) is not None
        await reply(update, context, texts.UITSLAG_ONLY_OWN if board_first
                    else texts.UITSLAG_USAGE)
        return
    who = await member(update, context)
    if who is None:
        return
    message = update.effective_message
    assert message is not None and update.effective_user is not None
    original = message.reply_to_message
    async with atomically(context):
        done = await results.report(
            context.services, who, result, actor=update.effective_user.id,
            replied_to=None if original is None else (message.chat_id, original.message_id))
        await reply(update, context,
                    texts.NO_PUBLISHED_ROUND if done is None else reported(done))


async def _arbiter_enters(update: Update, context: Context, args: list[str]) -> None:
    result = parse_result(args[1]) if len(args) >= 2 else None
    named = len(args) == 4 and args[2].lower() == "ronde" and number(args[3]) is not None
    if result is None or (len(args) > 2 and not named):
        await reply(update, context, texts.UITSLAG_USAGE_ARBITER)
        return
    assert update.effective_user is not None
    async with atomically(context):
        done = await results.correct(context.services, int(args[3]) if named else None,
                                     int(args[0]), result, actor=update.effective_user.id)
        await reply(update, context,
                    texts.UITSLAG_USAGE_ARBITER if done is None else reported(done))
    if done is not None:  # after the commit: no call to Telegram holds up the writer
        await drop_buttons(context.bot, done.stale)


def reported(done: results.Reported) -> str:
    if done.outcome is results.Outcome.CONFLICT:
        return texts.RESULT_CONFLICT.format(opponent=esc(done.opponent), round=done.round,
                                            board=done.board, words=done.words)
    if done.outcome is results.Outcome.UNCHANGED:
        return texts.RESULT_UNCHANGED.format(round=done.round, board=done.board,
                                             words=done.words, opponent=esc(done.opponent))
    if done.outcome is results.Outcome.RECORDED:
        return texts.RESULT_RECORDED.format(round=done.round, board=done.board,
                                            words=done.words, opponent=esc(done.opponent))
    return texts.RESULT_FINAL.format(round=done.round, board=done.board, words=done.words)


async def confirm_button(update: Update, context: Context) -> None:
    query = update.callback_query
    assert query is not None and query.data is not None
    kind, _, number, board, value = query.data.split(":")
    verdict, said = await results.confirm(context.services, query.from_user.id, int(number),
                                          int(board), value, agrees=kind == "res")
    if verdict is results.Confirmation.NOT_YOURS:
        await answer(update, texts.NOT_YOUR_BUTTON, alert=True)
        return
    await answer(update)
    if verdict is results.Confirmation.DISPUTED:
        await edit(update, texts.DISPUTED)
    elif verdict is results.Confirmation.ALREADY_HANDLED:
        await edit(update, texts.ALREADY_HANDLED)
    else:
        await edit(update, texts.CONFIRMED.format(words=said))


async def result_button(update: Update, context: Context) -> None:
    """A result tapped under a player's own pairing message: as `/uitslag` for that round."""
    query = update.callback_query
    assert query is not None and query.data is not None
    _, _, number_, board, value = query.data.split(":")
    who = await members.of_user(context.services, query.from_user.id)
    if who is None or await results.board_of(context.services, int(number_),
                                             who) != int(board):
        await answer(update, texts.NOT_YOUR_BUTTON, alert=True)
        return
    done = await results.report(context.services, who, Result(value), replied_to=None,
                                actor=query.from_user.id, tapped_in=int(number_))
    await answer(update)
    await reply(update, context, texts.NO_PUBLISHED_ROUND if done is None else reported(done))


def register(app: App) -> None:
    app.add_handler(command("uitslag", uitslag, opens_transaction=True))
    app.add_handler(button(r"res(no)?:v1:[0-9]{1,6}:[0-9]{1,6}:(1-0|0-1|1/2-1/2)",
                           confirm_button))
    app.add_handler(button(r"uit:v1:[0-9]{1,6}:[0-9]{1,6}:(1-0|0-1|1/2-1/2)",
                           result_button))
