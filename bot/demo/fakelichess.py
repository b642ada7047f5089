"""A local lichess for the tests, as lichess's published OpenAPI description has it where the
bot depends on it: the sign-in (`GET /oauth` with PKCE, `POST /api/token` with a form body),
the account of a token (`GET /api/account`), revoking it (`DELETE /api/token`); tokens with
their scopes; and faults on demand (429, 5xx).

There is no page to sign in on: the member "signed in in his browser" is `signed_in`, and
`GET /oauth` answers as lichess does once he allowed it (or, with `deny`, refused it)."""

from __future__ import annotations

import base64
import hashlib
import secrets
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from urllib.parse import urlencode

from aiohttp import web


@dataclass
class Grant:
    """A code lichess gave out: for whom, with what, and the PKCE challenge it must meet."""

    username: str
    scope: str
    challenge: str
    redirect_uri: str
    client_id: str


@dataclass
class FakeLichess:
    signed_in: str = "Anna_Schaakt"
    """Who allows the sign-in in the browser the test plays."""
    deny: bool = False
    """The member presses "Cancel" at lichess."""
    closed: set[str] = field(default_factory=set)
    """Closed accounts: their tokens are refused."""
    tokens: dict[str, tuple[str, str]] = field(default_factory=dict)
    """Live tokens: whose, and their scopes."""
    revoked: list[str] = field(default_factory=list)
    failing: list[int] = field(default_factory=list)
    """The next calls of the API answer these statuses (429, 502), one each, in order."""
    calls: list[str] = field(default_factory=list)
    """Every API call, as `METHOD /path`."""
    _grants: dict[str, Grant] = field(default_factory=dict)
    _runner: web.AppRunner | None = None
    url: str = ""

    async def start(self) -> str:
        app = web.Application(middlewares=[self._faults])
        app.router.add_get("/oauth", self._oauth)
        app.router.add_post("/api/token", self._token)
        app.router.add_delete("/api/token", self._revoke)
        app.router.add_get("/api/account", self._account)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        await web.TCPSite(self._runner, "127.0.0.1", 0).start()
        self.url = f"http://127.0.0.1:{self._runner.addresses[0][1]}"
        return self.url

    async def stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()

    def token_of(self, username: str, scope: str) -> str:
        """A token lichess gave `username` (as a sign-in would)."""
        token = "lio_" + secrets.token_urlsafe(24)
        self.tokens[token] = (username, scope)
        return token

    @web.middleware
    async def _faults(self, request: web.Request,
                      handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
                      ) -> web.StreamResponse:
        if request.path.startswith("/api/"):
            self.calls.append(f"{request.method} {request.path}")
            if self.failing:
                status = self.failing.pop(0)
                return web.json_response({"error": "Too many requests. Try again later."
                                          if status == 429 else "Bad gateway"}, status=status)
        return await handler(request)

    async def _oauth(self, request: web.Request) -> web.Response:
        q = request.query
        wanted = ("response_type", "client_id", "redirect_uri", "code_challenge_method",
                  "code_challenge", "state")
        if any(not q.get(k) for k in wanted) or q["response_type"] != "code" \
                or q["code_challenge_method"] != "S256":
            return web.Response(status=400, text="Invalid authorization request")
        back = {"state": q["state"]}
        if self.deny:
            back |= {"error": "access_denied",
                     "error_description": "user cancelled authorization"}
        else:
            code = "liu_" + secrets.token_urlsafe(16)
            self._grants[code] = Grant(self.signed_in, q.get("scope", ""), q["code_challenge"],
                                       q["redirect_uri"], q["client_id"])
            back["code"] = code
        raise web.HTTPFound(f"{q['redirect_uri']}?{urlencode(back)}")

    async def _token(self, request: web.Request) -> web.Response:
        form = await request.post()
        grant = self._grants.pop(str(form.get("code", "")), None)
        verifier = str(form.get("code_verifier", ""))
        made = base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()) \
            .rstrip(b"=").decode()
        if grant is None or form.get("grant_type") != "authorization_code" \
                or made != grant.challenge or form.get("redirect_uri") != grant.redirect_uri \
                or form.get("client_id") != grant.client_id:
            return web.json_response({"error": "invalid_grant"}, status=400)
        return web.json_response({"token_type": "Bearer", "expires_in": 31536000,
                                  "access_token": self.token_of(grant.username, grant.scope)})

    def _bearer(self, request: web.Request) -> str | None:
        token = request.headers.get("Authorization", "").removeprefix("Bearer ")
        owner = self.tokens.get(token)
        return None if owner is None or owner[0] in self.closed else token

    async def _account(self, request: web.Request) -> web.Response:
        token = self._bearer(request)
        if token is None:
            return web.json_response({"error": "No such token"}, status=401)
        username = self.tokens[token][0]
        return web.json_response({"id": username.lower(), "username": username})

    async def _revoke(self, request: web.Request) -> web.Response:
        token = self._bearer(request)
        if token is None:
            return web.json_response({"error": "No such token"}, status=401)
        del self.tokens[token]
        self.revoked.append(token)
        return web.Response(status=204)
