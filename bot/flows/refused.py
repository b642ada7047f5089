"""What the store and the core refuse, as the asker reads it: one runner's refusal for every
edge (the chat's `bot.telegram.refusals`, the Mini App's taps), so that a tap and a command
refused for the same reason say the same. Nothing was written."""

from __future__ import annotations

from bot.flows import members
from bot.language.notice import Phrase
from bot.services import Services
from core.errors import InvalidInputError
from storage.errors import StoreError

REFUSALS = (StoreError, InvalidInputError)
"""What a flow raises when it refuses (an edge catches these, and says `said`)."""


async def said(services: Services, refusal: StoreError | InvalidInputError) -> Phrase:
    """The refusal, players by name."""
    if isinstance(refusal, InvalidInputError):
        return Phrase("chat_problems", (refusal.problems, await members.names(services)),
                      markup=False)
    return Phrase("store_refusal", (refusal.problem, await members.in_words(services, refusal)))
