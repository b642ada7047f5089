"""A local lichess for the tests, as lichess's published OpenAPI description has it where the
bot depends on it: the sign-in (`GET /oauth` with PKCE, `POST /api/token` with a form body),
the account of a token (`GET /api/account`), revoking it (`DELETE /api/token`), testing
tokens (`POST /api/token/test`); a round's games at once (`POST /api/bulk-pairing`: form
body, the organiser's `challenge:bulk`, every player's `challenge:write`, all or nothing;
`GET /api/bulk-pairing` lists those still to be made), the games made once `pairAt` passes
and exported by ids as ndjson (`POST /api/games/export/_ids`, `status` and `winner`); tokens
with their scopes; and faults on demand (429, 5xx).

There is no page to sign in on: the member "signed in in his browser" is `signed_in`, and
`GET /oauth` answers as lichess does once he allowed it (or, with `deny`, refused it)."""

from __future__ import annotations

import base64
import hashlib
import json
import secrets
import time
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
class FakeGame:
    id: str
    white: str
    black: str
    pair_at: int
    """When lichess makes it (ms since the epoch)."""
    status: str = "created"
    winner: str | None = None


@dataclass
class FakeBulk:
    id: str
    games: list[FakeGame]
    pair_at: int
    clock: tuple[int, int]
    rated: bool
    organiser: str


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
    bulks: list[FakeBulk] = field(default_factory=list)
    now: Callable[[], float] = time.time
    """lichess's clock (seconds since the epoch): a test binds it to the bot's."""
    _grants: dict[str, Grant] = field(default_factory=dict)
    _runner: web.AppRunner | None = None
    url: str = ""

    async def start(self) -> str:
        app = web.Application(middlewares=[self._faults])
        app.router.add_get("/oauth", self._oauth)
        app.router.add_post("/api/token", self._token)
        app.router.add_delete("/api/token", self._revoke)
        app.router.add_get("/api/account", self._account)
        app.router.add_post("/api/token/test", self._test)
        app.router.add_post("/api/bulk-pairing", self._bulk)
        app.router.add_get("/api/bulk-pairing", self._bulks)
        app.router.add_post("/api/games/export/_ids", self._export)
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

    def _now_ms(self) -> int:
        return int(self.now() * 1000)

    def _scoped(self, token: str, scope: str) -> str | None:
        """Whose the token is, if lichess takes it for `scope`."""
        owner = self.tokens.get(token)
        if owner is None or owner[0] in self.closed or scope not in owner[1].split(","):
            return None
        return owner[0]

    async def _test(self, request: web.Request) -> web.Response:
        found: dict[str, object] = {}
        for token in (await request.text()).split(","):
            owner = self.tokens.get(token)
            found[token] = None if owner is None or owner[0] in self.closed else {
                "userId": owner[0].lower(), "scopes": owner[1], "expires": None}
        return web.json_response(found)

    async def _bulk(self, request: web.Request) -> web.Response:
        organiser = self._scoped(request.headers.get("Authorization", "")
                                 .removeprefix("Bearer "), "challenge:bulk")
        if organiser is None:
            return web.json_response({"error": "Missing scope"}, status=403)
        form = await request.post()
        pairs = [pair.split(":") for pair in str(form.get("players", "")).split(",") if pair]
        players = [[self._scoped(token, "challenge:write") for token in pair] for pair in pairs]
        if not pairs or any(len(p) != 2 or None in p for p in players):
            # All or nothing: one token lichess does not take refuses the whole pairing.
            return web.json_response({"error": {"tokens": ["Invalid token"]}}, status=400)
        named = [str(name).lower() for pair in players for name in pair]
        if len(set(named)) < len(named):  # one account on two boards: the whole bulk too
            return web.json_response({"error": {"players": ["duplicateUsers"]}}, status=400)
        pair_at = int(str(form.get("pairAt") or self._now_ms()))
        bulk = FakeBulk("bulk" + secrets.token_hex(4), [
            FakeGame(secrets.token_urlsafe(6)[:8], str(w), str(b), pair_at)
            for w, b in players], pair_at,
            (int(str(form["clock.limit"])), int(str(form["clock.increment"]))),
            form.get("rated") == "true", organiser)
        self.bulks.append(bulk)
        return web.json_response(self._shown(bulk))

    def _shown(self, bulk: FakeBulk) -> dict[str, object]:
        paired = bulk.pair_at <= self._now_ms()
        return {"id": bulk.id, "games": [{"id": g.id, "white": g.white.lower(),
                                          "black": g.black.lower()} for g in bulk.games],
                "variant": "standard",
                "clock": {"limit": bulk.clock[0], "increment": bulk.clock[1]},
                "pairAt": bulk.pair_at, "pairedAt": bulk.pair_at if paired else None,
                "rated": bulk.rated, "startClocksAt": None, "scheduledAt": bulk.pair_at}

    async def _bulks(self, request: web.Request) -> web.Response:
        organiser = self._scoped(request.headers.get("Authorization", "")
                                 .removeprefix("Bearer "), "challenge:bulk")
        if organiser is None:
            return web.json_response({"error": "Missing scope"}, status=403)
        # lichess lists only the pairings still to be made.
        return web.json_response({"bulks": [self._shown(b) for b in self.bulks
                                            if b.organiser == organiser
                                            and b.pair_at > self._now_ms()]})

    def game(self, game_id: str) -> FakeGame:
        return next(g for b in self.bulks for g in b.games if g.id == game_id)

    def end(self, game_id: str, status: str, winner: str | None = None) -> None:
        """A game goes on at lichess: `started`, or how it ended (`mate`, `noStart`...)."""
        game = self.game(game_id)
        game.status, game.winner = status, winner

    async def _export(self, request: web.Request) -> web.Response:
        if request.headers.get("Accept") != "application/x-ndjson":
            return web.json_response({"error": "Accept x-ndjson"}, status=406)
        wanted = (await request.text()).split(",")
        made = [g for b in self.bulks for g in b.games
                if g.id in wanted and g.pair_at <= self._now_ms()]
        lines = [json.dumps({"id": g.id, "status": g.status,
                             "players": {"white": {"user": {"name": g.white}},
                                         "black": {"user": {"name": g.black}}},
                             **({"winner": g.winner} if g.winner else {})}) for g in made]
        return web.Response(text="".join(line + "\n" for line in lines),
                            content_type="application/x-ndjson")
