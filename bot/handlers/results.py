"""/uitslag: players report, the opponent confirms with a button, the arbiter settles."""

from __future__ import annotations

from telegram import InlineKeyboardButton, InlineKeyboardMarkup, Update
from telegram.ext import Application, CallbackQueryHandler

from bot import texts
from bot.chat import answer, edit, esc, reply, send, tell_arbiters
from bot.handlers.common import command, is_arbiter, member, refusing_store_errors, unit_of_work
from bot.handlers.standings import post_standings
from bot.services import Context, published_round
from core.season import Result
from storage import club, results

SPELLINGS = {"remise": "1/2-1/2", "=": "1/2-1/2", "½": "1/2-1/2", "r": "1/2-1/2"}


def parse_result(text: str) -> Result | None:
    try:
        return Result.parse(SPELLINGS.get(text.lower(), text))
    except ValueError:
        return None


async def words(context: Context, result: Result, white: str, black: str) -> str:
    names = {m.code: m.name for m in await club.members(context.services.db)}
    return texts.RESULT_WORDS[result.value].format(white=esc(names[white]),
                                                   black=esc(names[black]))


async def uitslag(update: Update, context: Context) -> None:
    args = list(context.args or [])
    if await is_arbiter(update, context) and args and args[0].isdigit():
        await _arbiter_enters(update, context, args)
        return
    result = parse_result(args[0]) if len(args) == 1 else None
    if result is None:
        await reply(update, context, texts.UITSLAG_USAGE)
        return
    who = await member(update, context)
    if who is None:
        return
    message = update.effective_message
    assert message is not None and update.effective_user is not None
    number = None
    if message.reply_to_message is not None:
        number = await club.message_round(context.services.db, message.chat_id,
                                          message.reply_to_message.message_id)
    number = number or await published_round(context.services)
    if number is None:
        await reply(update, context, texts.NO_PUBLISHED_ROUND)
        return
    board = await results.board_of(context.services.db, number, who.code)
    outcome = await results.report(context.services.db, number, board, result,
                                   player=who.code, actor=update.effective_user.id)
    await _announce(update, context, outcome, reporter=who)


async def _arbiter_enters(update: Update, context: Context, args: list[str]) -> None:
    result = parse_result(args[1]) if len(args) >= 2 else None
    number = int(args[3]) if len(args) >= 4 and args[2].lower() == "ronde" \
        and args[3].isdigit() else await published_round(context.services)
    if result is None or number is None:
        await reply(update, context, texts.UITSLAG_USAGE_ARBITER)
        return
    assert update.effective_user is not None
    outcome = await results.correct(context.services.db, number, int(args[0]), result,
                                    actor=update.effective_user.id)
    await _announce(update, context, outcome, reporter=None)


async def _announce(update: Update, context: Context, outcome: results.GameResult,
                    reporter: club.Member | None) -> None:
    assert outcome.result is not None
    said = await words(context, outcome.result, outcome.white, outcome.black)
    everyone = {m.code: m for m in await club.members(context.services.db)}
    if outcome.outcome is results.Outcome.CONFLICT:
        assert reporter is not None
        opponent = everyone[outcome.black if reporter.code == outcome.white else outcome.white]
        await reply(update, context, texts.RESULT_CONFLICT.format(
            opponent=esc(opponent.name), round=outcome.round, board=outcome.board, words=said))
        mine = parse_result((context.args or [""])[0])
        await tell_arbiters(context, texts.CONFLICT_TO_ARBITER.format(
            round=outcome.round, board=outcome.board, first=said,
            second=await words(context, mine, outcome.white, outcome.black) if mine else "?"))
        return
    if outcome.outcome is results.Outcome.RECORDED:
        assert reporter is not None
        opponent = everyone[outcome.black if reporter.code == outcome.white else outcome.white]
        await reply(update, context, texts.RESULT_RECORDED.format(
            round=outcome.round, board=outcome.board, words=said,
            opponent=esc(opponent.name)))
        if opponent.telegram_id is not None:
            data = f"{outcome.round}:{outcome.board}:{outcome.result.value}"
            buttons = InlineKeyboardMarkup([[
                InlineKeyboardButton(texts.CONFIRM_YES, callback_data=f"res:v1:{data}"),
                InlineKeyboardButton(texts.CONFIRM_NO, callback_data=f"resno:v1:{data}")]])
            await send(context.services, opponent.telegram_id, texts.CONFIRM_ASK.format(
                reporter=esc(reporter.name), round=outcome.round, board=outcome.board,
                words=said), markup=buttons, about=esc(opponent.name))
        return
    await reply(update, context, texts.RESULT_FINAL.format(round=outcome.round, board=outcome.board,
                                                  words=said))
    if outcome.round_complete:
        await post_standings(context, outcome.round)


async def confirm_button(update: Update, context: Context) -> None:
    query = update.callback_query
    assert query is not None and query.data is not None
    kind, _, number, board, value = query.data.split(":")
    who = await club.member_of(context.services.db, query.from_user.id)
    stored = await results.game(context.services.db, int(number), int(board))
    if who is None or who.code not in (stored.white, stored.black):
        await answer(update, texts.NOT_YOUR_BUTTON, alert=True)
        return
    await answer(update)
    said = await words(context, Result(value), stored.white, stored.black)
    if kind == "resno":
        await edit(update, texts.DISPUTED)
        await tell_arbiters(context, texts.DISPUTE_TO_ARBITER.format(
            who=esc(who.name), round=number, board=board, words=said))
        return
    if stored.result is None or stored.result.value != value or stored.confirmed:
        await edit(update, texts.ALREADY_HANDLED)
        return
    outcome = await results.confirm(context.services.db, int(number), int(board),
                                    player=who.code, actor=query.from_user.id)
    await edit(update, texts.CONFIRMED.format(words=said))
    if outcome.round_complete:
        await post_standings(context, outcome.round)


def register(app: Application) -> None:  # type: ignore[type-arg]
    app.add_handler(command("uitslag", uitslag))
    app.add_handler(CallbackQueryHandler(refusing_store_errors(unit_of_work(confirm_button)),
                                         pattern=r"^res(no)?:v1:"))
