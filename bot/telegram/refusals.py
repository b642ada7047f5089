"""What the store and the core refuse, said in the asker's language: he gets the reason (nothing was
written), and a database that cannot be written is told to the arbiters once an hour."""

from __future__ import annotations

from telegram import Update

from bot.flows import refused
from bot.flows.refused import REFUSALS
from bot.language.notice import Phrase, Said, Text, plain
from bot.notices import UNWRITABLE, owe_to_arbiters
from bot.services import Context
from bot.telegram.chat import Handler, answer, direct, say
from storage.errors import StoreError, StoreProblem


def refusing(handler: Handler) -> Handler:
    """A refusal (unknown player, closed round, a change that would break the season, ...)
    becomes a reply in the sender's language; nothing was written."""
    async def guarded(update: Update, context: Context) -> None:
        try:
            await handler(update, context)
        except REFUSALS as exc:
            await _say(update, context, Text("NO_SEASON") if no_season(exc)
                       else await refused.said(context.services, exc))
            if isinstance(exc, StoreError) and exc.problem in UNWRITABLE \
                    and context.services.throttle.first(exc.problem):
                kept = exc
                await owe_to_arbiters(context.services, Phrase("store_problem", (kept,)),
                                      fallback=direct(context.bot))
    return guarded


async def _say(update: Update, context: Context, text: Said | str) -> None:
    """A refused command is answered in its chat; a refused button press on the button."""
    if update.callback_query is not None:
        await answer(update, plain(text, context.words), alert=True)
    else:
        await say(update, context, text, context.words)


def database_away(error: object) -> bool:
    """The database could not be reached (restarted, a standby taking the primary's place)."""
    return isinstance(error, StoreError) and error.problem is StoreProblem.UNREADABLE


def club_gone(error: object) -> bool:
    """The club was removed from a host's database while its bot still ran: it stops at the
    host's next look, and nobody is left to tell."""
    return isinstance(error, StoreError) and error.problem is StoreProblem.NO_CLUB


def no_season(error: object) -> bool:
    """No season loaded yet: a state to explain, not an error."""
    return isinstance(error, StoreError) and error.problem is StoreProblem.NO_SEASON
