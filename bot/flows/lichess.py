"""Linking a lichess account (`/lichess`): the member's own, or the club's organiser account
the arbiter links (`/lichess club`). The member gets a link to the bot's own page, which
sends him to lichess with a PKCE challenge; lichess sends him back with a code, which the
bot trades for a token (kept sealed) and tells him in the chat whose account it linked."""

from __future__ import annotations

import logging
import secrets
from dataclasses import dataclass, replace

from bot.flows import online
from bot.language.notice import Text
from bot.lichess.api import (
    MEMBER_SCOPE,
    ORGANISER_SCOPE,
    LichessError,
    Pkce,
    authorize_url,
)
from bot.notices import tell
from bot.services import Services
from storage import lichess as accounts
from storage.seal import Seal

log = logging.getLogger(__name__)

PAGE = "lichess"
"""The bot's page that sends a member to lichess, and (`PAGE/terug`) takes him back."""


@dataclass(frozen=True, slots=True)
class Linked:
    telegram_id: int
    username: str
    organiser: bool
    taken: bool = False
    """Another member has that account: not linked (lichess would refuse a round's games
    whole for one account on two boards)."""


def _seal(services: Services) -> Seal:
    return Seal(services.settings.secret_key)


def _back(services: Services) -> str:
    """Where lichess sends the member back to (an address lichess compares exactly)."""
    return f"{services.settings.public_url}/{PAGE}/terug"


async def linked(services: Services, user: int, *, organiser: bool) -> str | None:
    """The username of the account linked (the club's organiser account), if any."""
    found = await (accounts.organiser(services.db) if organiser
                   else accounts.account(services.db, user))
    return None if found is None else found.username


async def begin(services: Services, user: int, *, organiser: bool) -> str:
    """A sign-in for `user`: the link to the bot's page that starts it."""
    state = secrets.token_urlsafe(24)
    await accounts.begin(services.db, state, user, Pkce.new().verifier, organiser=organiser,
                         now=services.clock())
    return f"{services.settings.public_url}/{PAGE}?s={state}"


async def to_lichess(services: Services, state: str) -> str | None:
    """Where the page sends the member: lichess's sign-in; None when the link ran out."""
    login = await accounts.login(services.db, state, now=services.clock())
    if login is None:
        return None
    return authorize_url(services.lichess.base, redirect_uri=_back(services),
                         challenge=Pkce.of(login.verifier).challenge,
                         scope=ORGANISER_SCOPE if login.organiser else MEMBER_SCOPE,
                         state=state)


async def asked_by(services: Services, state: str) -> int | None:
    """Who started the sign-in `state` (for the page's language)."""
    login = await accounts.login(services.db, state, now=services.clock())
    return None if login is None else login.telegram_id


async def finish(services: Services, state: str, code: str) -> Linked | None:
    """lichess sent the member back with `code`: the token it stands for kept, and the member
    told in the chat. None when the link ran out; LichessError when lichess refused or could
    not be reached (nothing kept: the member tries again)."""
    login = await accounts.login(services.db, state, now=services.clock())
    if login is None:
        return None
    api = services.lichess.api()
    token = await api.token(code, login.verifier, _back(services))
    username = await api.username(token)
    done = Linked(login.telegram_id, username, login.organiser)
    if not login.organiser and await accounts.linked_elsewhere(services.db, username,
                                                               login.telegram_id):
        return await _taken(services, state, done, token)
    async with services.db.transaction():
        before = await (accounts.organiser(services.db) if login.organiser
                        else accounts.account(services.db, login.telegram_id))
        await accounts.link(services.db, state, login, username, _seal(services).close(token),
                            now=services.clock())
        await tell(services, login.telegram_id, Text(
            "LICHESS_CLUB_LINKED" if login.organiser else "LICHESS_LINKED", {"name": username}))
    if before is not None:  # the account it replaced: its token is of no use to us now
        await revoke(services, before)
    if not login.organiser:
        await online.games_for_the_linked(services)
    return done


async def _taken(services: Services, state: str, done: Linked, token: str) -> Linked:
    """The account is another member's here: the sign-in used up, the member told, and the
    token lichess gave for it given back."""
    async with services.db.transaction():
        await accounts.drop_login(services.db, state)
        await tell(services, done.telegram_id, Text("LICHESS_TAKEN", {"name": done.username}))
    try:
        await services.lichess.api().revoke(token)
    except LichessError as exc:
        log.warning("an unused lichess token was not revoked: %s", exc)
    return replace(done, taken=True)


async def forget(services: Services, user: int, *, organiser: bool) -> accounts.Account | None:
    """Forget the account (the club's organiser account); the one forgotten, None if none
    was linked. Its token is revoked at lichess after the commit (`revoke`)."""
    return await accounts.forget(services.db, user, of_club=organiser, actor=user)


async def revoke(services: Services, was: accounts.Account) -> None:
    """Revoke a forgotten account's token at lichess, where lichess can be reached (if not,
    it is forgotten here all the same, and lapses there)."""
    token = _seal(services).open(was.token)
    if token is None:
        return
    try:
        await services.lichess.api().revoke(token)
    except LichessError as exc:
        log.warning("a forgotten lichess token was not revoked: %s", exc)
