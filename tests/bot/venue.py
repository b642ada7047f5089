"""A round at the venue as a test plays it: a tap in the group, the room opened, four in it
and paired, the room's board read back."""

from __future__ import annotations

import re

from bot.callbacks import Here
from tests.bot.conftest import ARBITER, GROUP, meaning, says
from tests.bot.steps import set_up_club


async def tapped(bot, user, message, number: int = 1) -> str:
    """Press *Ik ben er* for round `number` under `message`: the toast he is shown."""
    answered = len(bot.tg.answered)
    bot.tg.press(user, message, Here(number).pack())
    return await bot.tg.toast(answered)


async def open_the_room(bot) -> object:
    """Past round 1's deadline: the group's *Ik ben er*, and the arbiter told, no draft."""
    mark = len(bot.tg.sent)
    bot.clock.now = bot.clock.now.replace(month=12, day=3, hour=18)
    opened = await bot.tg.next_to(GROUP, meaning("CHECK_IN_OPEN", round=1), after=mark)
    assert [text for text, _ in opened.buttons] == [says("HERE_BUTTON")]
    await bot.tg.next_to(ARBITER.id, meaning("CHECK_IN_TO_ARBITER", round=1), after=mark)
    return opened


async def four_in_the_room_paired(bot, members) -> object:
    """Round 1 at the venue, its room open, the first four members in and paired (a draft);
    the group's *Ik ben er*."""
    await set_up_club(bot, members, rounds=0)
    await bot.ask(ARBITER, "/ronde nieuw 3-12-2026 ter plaatse")
    opened = await open_the_room(bot)
    for member in members[:4]:
        await tapped(bot, member, opened)
    await bot.ask(ARBITER, "/indeling maak")
    return opened


def room_of(page: str) -> tuple[str, list[str], list[str]]:
    """The version a room board shows, who is in (codes), and who may be ticked in."""
    version = re.search(r'data-version="([0-9a-f]+)"', page)
    assert version is not None, page
    return (version.group(1), re.findall(r'data-act="gone" data-a="(\w+)"', page),
            re.findall(r'data-act="here" data-a="(\w+)"', page))


