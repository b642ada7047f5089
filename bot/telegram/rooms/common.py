"""What every room uses: who is asking, arbiter checks, members by name, numbers as typed."""

from __future__ import annotations

import asyncio
import datetime as dt
import re
from collections.abc import Callable

from telegram import Update

from bot.flows import members
from bot.language import dates
from bot.language.notice import Lines, Text
from bot.language.vocabulary import AND
from bot.services import Context, schedule
from bot.telegram.answer import Refused


async def member(update: Update, context: Context) -> members.Member:
    """The member the sender is linked to; refused, with how to link, if he is not."""
    user = update.effective_user
    found = None if user is None else await members.of_user(context.services, user.id)
    if found is None:
        raise Refused(Text("NOT_LINKED"))
    return found


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
    cut = next((k for k, w in enumerate(lowered) if w in (",", *AND.spellings)), None)
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


async def read_date(context: Context, words: list[str], today: dt.date, *,
                    english: bool) -> dt.date:
    """The date the words are, all of them, read in English or Dutch (refused when they are
    not one date)."""
    night = dates.club_day(r.date for r in await schedule(context.services))
    found = await asyncio.to_thread(dates.read, words, today, night,
                                    dates.ENGLISH if english else dates.DUTCH)
    if found is None or found.words != len(words):
        raise Refused(Text("BAD_DATE", {"text": " ".join(words)}))
    return found.date


CLOCK = re.compile(r"([0-9]{1,2})[:.u]([0-9]{2})")


def clock_time(text: str) -> dt.time | None:
    """A time of day as typed: `20:00`, `9.30`, `20u00`."""
    found = CLOCK.fullmatch(text)
    hour, minute = (int(found.group(1)), int(found.group(2))) if found else (99, 99)
    return None if hour > 23 or minute > 59 else dt.time(hour, minute)


def number(text: str) -> int | None:
    """A number as typed: ASCII digits only, short enough for the database."""
    return int(text) if dates.is_number(text) else None


def counted(text: str) -> int | None:
    """A number that counts something (a team, boards, players): 1 or more."""
    found = number(text)
    return found if found is not None and found > 0 else None


