"""The lichess API as the bot uses it: the sign-in (OAuth 2 with PKCE: lichess registers no
clients, a client is its `client_id` and the address it sends the member back to) and the
account a token belongs to. Plain HTTP (httpx): berserk, the Python client, covers neither
the code exchange with a verifier nor an async caller.

The base address is a setting (`KEIZER_LICHESS_URL`), so the tests' fake lichess stands in."""

from __future__ import annotations

import base64
import hashlib
import secrets
from dataclasses import dataclass
from urllib.parse import urlencode

import httpx

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
                    form: dict[str, str] | None = None) -> httpx.Response:
        headers = {} if token is None else {"Authorization": f"Bearer {token}"}
        try:
            async with httpx.AsyncClient(base_url=self.base, timeout=TIMEOUT) as client:
                answer = await client.request(method, path, data=form, headers=headers)
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
