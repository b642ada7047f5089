"""The lichess API as the bot uses it: the sign-in (OAuth 2 with PKCE: lichess registers no
clients, a client is its `client_id` and the address it sends the member back to), the
account a token belongs to, which tokens still work, a round's games made at once (a bulk
pairing) and read back. Plain HTTP (httpx): berserk, the Python client, is synchronous
(requests) and covers neither the code exchange with a verifier nor testing tokens.

The base address is a setting (`KEIZER_LICHESS_URL`), so the tests' fake lichess stands in."""

from __future__ import annotations

import asyncio
import base64
import datetime as dt
import hashlib
import json
import secrets
from dataclasses import dataclass
from urllib.parse import urlencode

import httpx

from bot.tls import tls
from core.online import Clock

CLIENT_ID = "keizerbot"
MEMBER_SCOPE = "challenge:write"
"""What a player's token may do: take part in the games a bulk pairing makes for him."""
ORGANISER_SCOPE = "challenge:bulk"
"""What the club's organiser token may do: make a round's games at once."""
TIMEOUT = httpx.Timeout(10.0)


class LichessError(Exception):
    """lichess refused or could not be reached; `busy`: it asked us to wait (429) or was
    down, so trying again later may work."""

    def __init__(self, status: int, busy: bool) -> None:
        super().__init__(f"lichess answered {status}" if status else "lichess not reached")
        self.status, self.busy = status, busy


@dataclass(frozen=True, slots=True)
class Pkce:
    """The secret the bot keeps (`verifier`) and what lichess is shown of it (`challenge`)."""

    verifier: str
    challenge: str

    @classmethod
    def new(cls) -> Pkce:
        return cls.of(secrets.token_urlsafe(48))  # 64 characters of RFC 7636's alphabet

    @classmethod
    def of(cls, verifier: str) -> Pkce:
        digest = hashlib.sha256(verifier.encode("ascii")).digest()
        return cls(verifier, base64.urlsafe_b64encode(digest).rstrip(b"=").decode("ascii"))


def authorize_url(base: str, *, redirect_uri: str, challenge: str, scope: str,
                  state: str) -> str:
    """Where the member signs in at lichess and allows what `scope` says."""
    return f"{base.rstrip('/')}/oauth?" + urlencode({
        "response_type": "code", "client_id": CLIENT_ID, "redirect_uri": redirect_uri,
        "code_challenge_method": "S256", "code_challenge": challenge, "scope": scope,
        "state": state})


class Lichess:
    def __init__(self, base: str) -> None:
        self.base = base.rstrip("/")

    async def _call(self, method: str, path: str, *, token: str | None = None,
                    form: dict[str, str] | None = None, text: str | None = None,
                    accept: str = "application/json") -> httpx.Response:
        headers = {"Accept": accept} | ({} if token is None
                                        else {"Authorization": f"Bearer {token}"})
        try:
            async with httpx.AsyncClient(base_url=self.base, timeout=TIMEOUT,
                                         verify=tls()) as client:
                answer = await client.request(method, path, data=form, content=text,
                                              headers=headers)
        except httpx.HTTPError:
            raise LichessError(0, busy=True) from None  # no token in what is raised
        if answer.status_code >= 400:
            raise LichessError(answer.status_code,
                               busy=answer.status_code == 429 or answer.status_code >= 500)
        return answer

    async def token(self, code: str, verifier: str, redirect_uri: str) -> str:
        """The access token for the code lichess sent the member back with."""
        answer = await self._call("POST", "/api/token", form={
            "grant_type": "authorization_code", "code": code, "code_verifier": verifier,
            "redirect_uri": redirect_uri, "client_id": CLIENT_ID})
        return str(answer.json()["access_token"])

    async def username(self, token: str) -> str:
        """Whose account the token is."""
        return str((await self._call("GET", "/api/account", token=token)).json()["username"])

    async def revoke(self, token: str) -> None:
        await self._call("DELETE", "/api/token", token=token)

    async def usable(self, tokens: list[str], scope: str) -> set[str]:
        """Those of `tokens` lichess still takes, with `scope` (a revoked token, a closed
        account, a scope not granted: not)."""
        if not tokens:
            return set()
        found = (await self._call("POST", "/api/token/test", text=",".join(tokens))).json()
        return {token for token, about in found.items()
                if about and scope in str(about.get("scopes", "")).split(",")}

    async def bulk(self, organiser: str, pairs: list[tuple[str, str]], *, clock: Clock,
                   rated: bool, at: dt.datetime | None) -> Bulk:
        """The games of `pairs` (white's token, black's) made at once, at `at` (None: now),
        by the club's organiser account. All of them or none: LichessError(400) when
        lichess refuses one."""
        form = {"players": ",".join(f"{white}:{black}" for white, black in pairs),
                "clock.limit": str(clock.minutes * 60), "clock.increment": str(clock.increment),
                "rated": "true" if rated else "false"}
        if at is not None:
            form["pairAt"] = str(int(at.timestamp() * 1000))
        return Bulk.of((await self._call("POST", "/api/bulk-pairing", token=organiser,
                                         form=form)).json())

    async def bulks(self, organiser: str) -> list[Bulk]:
        """The organiser's bulk pairings still to be made (lichess forgets them after)."""
        found = (await self._call("GET", "/api/bulk-pairing", token=organiser)).json()
        return [Bulk.of(item) for item in found.get("bulks", [])]

    async def games(self, ids: list[str]) -> list[Game]:
        """How the games `ids` stand (those lichess has made so far)."""
        if not ids:
            return []
        answer = await self._call("POST", "/api/games/export/_ids?moves=false",
                                  text=",".join(ids), accept="application/x-ndjson")
        return [Game(str(item["id"]), str(item["status"]), item.get("winner"))
                for item in map(json.loads, answer.text.splitlines()) if item]


class LichessAccess:
    """A club's way to lichess: its server (`api`), one bulk of games made at a time (`turn`:
    the tick, a publication and a member just linked would each make the same boards), and
    no question before `rests_until` once lichess answered 429."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.turn = asyncio.Lock()
        self.rests_until: dt.datetime | None = None

    def api(self) -> Lichess:
        return Lichess(self.base)


@dataclass(frozen=True, slots=True)
class Bulk:
    """A bulk pairing: its id, and each game's id with its players' usernames."""

    id: str
    games: tuple[tuple[str, str, str], ...]
    """(game id, white's username, black's), as lichess lists them."""

    @classmethod
    def of(cls, item: dict[str, object]) -> Bulk:
        games = item.get("games", [])
        assert isinstance(games, list)
        return cls(str(item["id"]), tuple((str(g["id"]), str(g["white"]), str(g["black"]))
                                          for g in games))


@dataclass(frozen=True, slots=True)
class Game:
    id: str
    status: str
    """lichess's word: `created`, `started`, or how it ended (`mate`, `resign`, ...)."""
    winner: str | None


def game_url(base: str, game_id: str) -> str:
    return f"{base.rstrip('/')}/{game_id}"
