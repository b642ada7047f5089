"""Who is who: members by name, and linking a Telegram user to a member (the member asks,
an arbiter approves)."""

from __future__ import annotations

import contextlib
import datetime as dt
import hashlib
from dataclasses import dataclass

from bot.callbacks import Link, NoLink, TakeOver
from bot.keyboard import Button, Keyboard
from bot.language.notice import Dated, Text, lines
from bot.notices import owe_to_arbiters, tell
from bot.services import Services
from core.rounds import RoundState
from storage import roster
from storage.errors import StoreError
from storage.roster import Member
from storage.seasons import has_season

__all__ = ["Applicant", "Linked", "Member", "ask_link", "by_key", "decide",
           "everyone", "key_of", "matching", "named_first", "of_user"]


async def of_user(services: Services, user_id: int) -> Member | None:
    return await roster.member_of(services.db, user_id)


async def is_linked(services: Services, user_id: int) -> bool:
    """Whether the user is a linked member (before a season is loaded, nobody is)."""
    return await has_season(services.db) and \
        await roster.member_of(services.db, user_id) is not None


async def everyone(services: Services) -> list[Member]:
    return await roster.members(services.db)


async def names(services: Services) -> dict[str, str]:
    """Each member's name by code; none when the store cannot say."""
    try:
        return {m.code: m.name for m in await everyone(services)}
    except StoreError:
        return {}


async def in_words(services: Services, error: StoreError) -> dict[str, object]:
    """A refusal's facts as the user knows them: a player by name, a round's state in words
    (the store speaks of ids and states), a date in the reader's words."""
    facts: dict[str, object] = dict(error.facts)
    with contextlib.suppress(ValueError):  # a date the store names (ISO), not one in words
        facts["date"] = Dated(dt.date.fromisoformat(str(error.facts.get("date"))))
    if "player" in error.facts:
        player = str(error.facts["player"])
        facts["player"] = (await names(services)).get(player, player)
    if error.facts.get("state") in {state.value for state in RoundState}:
        facts["state"] = Text("STATE_WORDS", pick=RoundState(error.facts["state"]))
    return facts


def key_of(member: Member) -> str:
    """A member's short name in button data: Telegram takes at most 64 bytes there, and a
    player id in the season file may be any length."""
    return hashlib.blake2s(member.code.encode(), digest_size=6).hexdigest()


async def by_key(services: Services, key: str) -> Member | None:
    """The member a button names (`key_of`; older buttons name the player id itself)."""
    return next((m for m in await roster.members(services.db)
                 if key in (key_of(m), m.code)), None)


async def matching(services: Services, text: str) -> list[Member]:
    """Members matching `text`: the exact name (or code) first, else every name containing it."""
    return roster.find(await roster.members(services.db), text)


async def named_first(services: Services, words: list[str]) -> tuple[Member | None, list[str]]:
    """The member whose exact name the longest run of leading `words` is, and the words left
    (`/afmelden Jan de Vries 5`: the arbiter names a member before the rest)."""
    members = await roster.members(services.db)
    for length in range(len(words), 0, -1):
        found = roster.exact(members, " ".join(words[:length]))
        if len(found) == 1:
            return found[0], words[length:]
    return None, words


@dataclass(frozen=True, slots=True)
class Applicant:
    """A Telegram user who says he is a member, as the arbiter is shown him."""
    id: int
    full_name: str
    username: str | None

    @property
    def label(self) -> str:
        at = f" (@{self.username})" if self.username else ""
        return f"{self.full_name}{at} [{self.id}]"


async def ask_link(services: Services, who: Member, user: Applicant) -> bool:
    """An arbiter is linked at once (True), unless the member is linked to another account;
    anyone else's request is owed to the arbiters, with buttons to approve or refuse it and
    a plain word on any link it would take over."""
    async with services.db.transaction():
        taken = who.telegram_id is not None and who.telegram_id != user.id
        if await services.is_arbiter(user.id) and not taken:
            await roster.link(services.db, who.code, user.id, actor=user.id)
            return True
        current = await roster.member_of(services.db, user.id)
        other = current.name if current is not None and current.code != who.code else None

        request = lines(Text("IK_ASK_ARBITER", {"user": user.label, "name": who.name}),
                        Text("IK_MEMBER_LINKED", {"name": who.name}) if taken else None,
                        None if other is None else Text("IK_ACCOUNT_LINKED", {"name": other}))
        await owe_to_arbiters(services, request, markup=link_buttons(who, user.id))
    return False


def link_buttons(who: Member, user_id: int, *, take_over: bool = False) -> Keyboard:
    """Approve or refuse a link request; `take_over` is the second, deliberate approval of
    one that takes a member's link from another account."""
    kind, label = (TakeOver, "IK_TAKE_OVER") if take_over else (Link, "IK_YES")
    return Keyboard.row(Button(Text(label), kind(key_of(who), user_id).pack()),
                        Button(Text("IK_NO"), NoLink(user_id).pack()))


@dataclass(frozen=True, slots=True)
class Linked:
    name: str
    """The member's name, or "" when the request was refused."""
    already: bool
    """Nothing changed: this link (or refusal) was decided before, by a tap before this one."""
    to_confirm: bool = False
    """Nothing changed: the member is linked to another account, and taking that over needs
    a second, deliberate approval."""


async def decide(services: Services, user_id: int, who: Member | None, *, actor: int,
                 take_over: bool = False) -> Linked:
    """The arbiter's answer to a link request: link `user_id` to the member `who`, or refuse
    (None). A member linked to another account is only taken over on `take_over`; that
    account is told. The user hears the outcome in the same transaction."""
    async with services.db.transaction():
        if who is None:
            await tell(services, user_id, Text("IK_DECLINED"))
            return Linked("", already=False)
        current = next(m for m in await roster.members(services.db) if m.code == who.code)
        if current.telegram_id == user_id:
            return Linked(who.name, already=True)
        if current.telegram_id is not None and not take_over:
            return Linked(who.name, already=False, to_confirm=True)
        await roster.link(services.db, who.code, user_id, actor=actor)
        await tell(services, user_id, Text("IK_WELCOME", {"name": who.name}))
        if current.telegram_id is not None:
            await tell(services, current.telegram_id,
                       Text("IK_TAKEN_OVER", {"name": who.name}), about=who.name)
    return Linked(who.name, already=False)


async def set_language(services: Services, user_id: int, language: str) -> None:
    """The language the bot speaks to this Telegram user from now on."""
    await services.languages.keep(user_id, language, chosen=True)


async def set_reminder(services: Services, who: Member, on: bool, *, actor: int) -> None:
    """The member wants the round's reminder in private too (or no longer)."""
    await roster.set_reminder(services.db, who.code, on, actor=actor)
