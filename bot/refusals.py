"""What the store and the core refuse, said in Dutch: the asker gets the reason (nothing was
written), and a database that cannot be written is told to the arbiters once an hour."""

from __future__ import annotations

from telegram import Update

from bot import texts
from bot.chat import UNWRITABLE, Handler, esc, owe_to_arbiters, reply
from bot.services import Context
from core.errors import InvalidInputError
from storage.errors import StoreError, StoreProblem


def refusing(handler: Handler) -> Handler:
    """A refusal (unknown player, closed round, a change that would break the season, ...)
    becomes a Dutch reply; nothing was written."""
    async def guarded(update: Update, context: Context) -> None:
        try:
            await handler(update, context)
        except StoreError as exc:
            await reply(update, context, texts.NO_SEASON if no_season(exc)
                        else texts.store_problem(exc))
            if exc.problem in UNWRITABLE and context.services.throttle.first(exc.problem):
                await owe_to_arbiters(context.services, texts.store_problem(exc),
                                      fallback=context.bot)
        except InvalidInputError as exc:
            await reply(update, context,
                        esc(texts.problems_report(texts.CHANGE_REFUSED, exc.problems)))
    return guarded


def no_season(error: object) -> bool:
    """No season loaded yet: a state to explain, not an error."""
    return isinstance(error, StoreError) and error.problem is StoreProblem.NO_SEASON
