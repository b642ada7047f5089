"""Who is who: members by name, and linking a Telegram user to a member (the member asks,
an arbiter approves)."""

from __future__ import annotations

from dataclasses import dataclass

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from bot import texts
from bot.chat import esc, owe_to_arbiters, send
from bot.services import Services
from storage import club
from storage.club import Member

__all__ = ["Applicant", "Linked", "Member", "ask_link", "decide", "everyone", "matching",
           "named_first", "of_user"]


async def of_user(services: Services, user_id: int) -> Member | None:
    return await club.member_of(services.db, user_id)


async def everyone(services: Services) -> list[Member]:
    return await club.members(services.db)


async def matching(services: Services, text: str) -> list[Member]:
    """Members matching `text`: the exact name (or code) first, else every name containing it."""
    return club.find(await club.members(services.db), text)


async def named_first(services: Services, words: list[str]) -> tuple[Member | None, list[str]]:
    """The member whose exact name the longest run of leading `words` is, and the words left
    (`/afmelden Jan de Vries 5`: the arbiter names a member before the rest)."""
    members = await club.members(services.db)
    for length in range(len(words), 0, -1):
        found = club.exact(members, " ".join(words[:length]))
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
        at = f" (@{esc(self.username)})" if self.username else ""
        return f"{esc(self.full_name)}{at} [{self.id}]"


async def ask_link(services: Services, who: Member, user: Applicant) -> bool:
    """An arbiter is linked at once (True); anyone else's request is owed to the arbiters,
    with buttons to approve or refuse it."""
    async with services.db.transaction():
        if await services.is_arbiter(user.id):
            await club.link(services.db, who.code, user.id, actor=user.id)
            return True
        buttons = InlineKeyboardMarkup([[
            InlineKeyboardButton(texts.IK_YES, callback_data=f"link:v1:{who.code}:{user.id}"),
            InlineKeyboardButton(texts.IK_NO, callback_data=f"nolink:v1:{user.id}")]])
        await owe_to_arbiters(services, texts.IK_ASK_ARBITER.format(user=user.label,
                                                                    name=esc(who.name)),
                              markup=buttons)
    return False


@dataclass(frozen=True, slots=True)
class Linked:
    name: str
    """The member's name, or "" when the request was refused."""
    already: bool
    """Nothing changed: this link (or refusal) was decided before, by a tap before this one."""


async def decide(services: Services, user_id: int, code: str | None, *, actor: int) -> Linked:
    """The arbiter's answer to a link request: link `user_id` to the member `code`, or refuse
    (no code). The user hears the outcome in the same transaction."""
    async with services.db.transaction():
        if code is None:
            await send(services, user_id, texts.IK_DECLINED)
            return Linked("", already=False)
        name = next(m.name for m in await club.members(services.db) if m.code == code)
        linked = await club.member_of(services.db, user_id)
        if linked is not None and linked.code == code:
            return Linked(name, already=True)
        await club.link(services.db, code, user_id, actor=actor)
        await send(services, user_id, texts.IK_WELCOME.format(name=esc(name)))
    return Linked(name, already=False)
