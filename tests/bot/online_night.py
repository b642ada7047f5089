"""A night online as a test plays it: a member linked at the fake lichess, the online boards,
a wait until lichess made every game."""

from __future__ import annotations

import asyncio
import datetime as dt

from bot.demo.fakelichess import FakeLichess
from storage import lichess as accounts
from storage.seal import Seal
from tests.bot.linking import KEY

START = dt.datetime(2026, 12, 3, 19, 0, tzinfo=dt.UTC)
"""Round 1's start: Thursday 3 December, 20:00 in Amsterdam."""


async def link(bot, lichess: FakeLichess, user_id: int, username: str, *,
               organiser: bool = False) -> str:
    """An account linked as `/lichess` would (that way has tests of its own); its token."""
    token = lichess.token_of(username, "challenge:bulk" if organiser else "challenge:write")
    login = accounts.Login(user_id, "verifier", organiser)
    await accounts.link(bot.app.bot_data.db, f"state-{username}", login, username,
                        Seal(KEY).close(token), now=bot.clock.now)
    return token


async def boards(bot) -> list[accounts.OnlineBoard]:
    return await accounts.online_boards(bot.app.bot_data.db, 1)


async def until(check, timeout: float = 10.0):
    """The tick's work, waited for: `check()` once it holds."""
    for _ in range(int(timeout / 0.02)):
        found = await check()
        if found:
            return found
        await asyncio.sleep(0.02)
    raise AssertionError("the tick did not get there")


async def all_made(bot) -> list[accounts.OnlineBoard] | None:
    made = await boards(bot)
    return made if made and all(b.game_id for b in made) else None


