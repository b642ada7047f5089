"""The club's live pages, served by the bot process (aiohttp's server, beside the bot): read
from the database at every request, so a confirmed result is on the page at the next reload;
an ETag lets a phone reload cheaply. Who sees them is the club's setting (`club.web`)."""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import logging
from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import Any

from aiohttp import web

from bot.flows import board, checkin, lichess, members, refused, signoff, teams, views
from bot.flows.refused import REFUSALS
from bot.language import texts
from bot.language.i18n import Words, from_accept_language, words
from bot.language.notice import Said
from bot.lichess.api import LichessError
from bot.services import Services, WebAccess, schedule
from bot.web import initdata, pages, taps
from core.rounds import PUBLIC, RoundState
from core.season import Season

log = logging.getLogger(__name__)
INIT_HEADER = "X-Telegram-Init-Data"


class WebServer:
    """One web server for the clubs of the process: each club's pages under its path (`""`
    for a club's own bot, `/<number>` for a club of a host, `bot.host`) and each bot's
    webhook under `/telegram/<key>`. `url` once started (the port may be 0 in tests)."""

    def __init__(self, port: int, *, host: str = "127.0.0.1") -> None:
        self.port, self.host = port, host
        self.sites: dict[str, ClubSite] = {}
        """By path: `""`, or a club's number."""
        self.hooks: dict[str, ClubSite] = {}
        """By webhook key (`Config.webhook_key`)."""
        self.runner: web.AppRunner | None = None
        self.url = ""
        self.elsewhere: Callable[[str, web.Request], Awaitable[web.Response]] | None = None
        """A webhook for a club this process does not run (hosts that share the clubs,
        `bot.telegram.host`): kept for the host that runs it."""
        self.visiting: Callable[[str], Awaitable[ClubSite | None]] | None = None
        """The pages of a club this process does not run (hosts that share the clubs)."""

    def add(self, path: str, site: ClubSite) -> None:
        self.sites[path] = site
        if site.updates is not None:
            self.hooks[site.services.settings.webhook_key] = site

    def remove(self, path: str) -> None:
        site = self.sites.pop(path, None)
        if site is not None:
            self.hooks = {k: s for k, s in self.hooks.items() if s is not site}

    async def start(self) -> None:
        app = web.Application()
        app.router.add_post("/telegram/{key}", self._update)
        app.router.add_post("/{club}/telegram/{key}", self._update)
        for path in ("/lichess", "/lichess/terug", "/{club}/lichess", "/{club}/lichess/terug"):
            app.router.add_get(path, self._lichess)  # before `/{club}/{name}` takes them
        app.router.add_get("/", self._page)
        app.router.add_get("/{name}", self._page)
        app.router.add_get("/{club}/", self._page)
        app.router.add_get("/{club}/{name}", self._page)
        app.router.add_post("/{name}", self._act)
        app.router.add_post("/{club}/{name}", self._act)
        self.runner = web.AppRunner(app, access_log=None)
        await self.runner.setup()
        site = web.TCPSite(self.runner, self.host, self.port)
        await site.start()
        port = self.runner.addresses[0][1]
        self.url = f"http://127.0.0.1:{port}"
        log.info("pages on port %d", port)

    async def stop(self) -> None:
        if self.runner is not None:
            await self.runner.cleanup()

    async def _update(self, request: web.Request) -> web.Response:
        site = self.hooks.get(request.match_info["key"])
        if site is not None:
            return await site.update(request)
        club = request.match_info.get("club")
        if club is not None and self.elsewhere is not None:
            return await self.elsewhere(club, request)
        return web.Response(status=404)

    async def _act(self, request: web.Request) -> web.StreamResponse:
        """A member's tap in a club's pages: that club's site takes it."""
        club = request.match_info.get("club")
        site = self.sites.get(club or "")
        if site is None and club is not None and self.visiting is not None:
            site = await self.visiting(club)
        if site is None or request.match_info.get("name") not in ("mij-seizoen", "mij-bord"):
            return web.Response(status=404)
        return await site.act(request)

    async def _lichess(self, request: web.Request) -> web.StreamResponse:
        """A member on his way to lichess to link his account, or back from it."""
        club = request.match_info.get("club")
        site = self.sites.get(club or "")
        if site is None and club is not None and self.visiting is not None:
            site = await self.visiting(club)
        if site is None:
            return web.Response(status=404)
        return await site.lichess(request)

    async def _page(self, request: web.Request) -> web.StreamResponse:
        club = request.match_info.get("club")
        site = self.sites.get(club or "")
        if site is None and club is not None and self.visiting is not None:
            site = await self.visiting(club)
        if club is None and "" not in self.sites:
            # A host: `/3` is club 3's front page, whose links are relative to `/3/`.
            if request.match_info.get("name", "") in self.sites:
                raise web.HTTPPermanentRedirect(f"{request.path}/")
            site = None
        if site is None:  # no club to ask: the browser's language
            w = words(from_accept_language(request.headers.get("Accept-Language")))
            return _text(404, w(texts.WEB_NOT_FOUND))
        return await site.page(request)


async def take_update(request: web.Request, secret: str,
                      keep: Callable[[dict[str, Any]], Awaitable[None]]) -> web.Response:
    """A webhook's update, signed with the bot's `secret`, given to `keep` (the inbox):
    200 once kept, 503 when it could not be (Telegram brings it again), 403 or 400 for what
    is not Telegram's."""
    signed = request.headers.get("X-Telegram-Bot-Api-Secret-Token", "")
    if not hmac.compare_digest(signed.encode(), secret.encode()):
        return web.Response(status=403)
    try:
        payload = await request.json()
    except ValueError:
        return web.Response(status=400)
    if not isinstance(payload, dict) or not isinstance(payload.get("update_id"), int):
        return web.Response(status=400)
    try:
        await keep(payload)
    except REFUSALS as exc:
        log.warning("update %s not kept (%s): Telegram brings it again",
                    payload["update_id"], exc)
        return web.Response(status=503)
    return web.Response(status=200)


class ClubSite:
    """One club's pages and its bot's webhook."""

    def __init__(self, services: Services, token: str, *,
                 updates: Callable[[dict[str, Any]], Awaitable[None]] | None = None) -> None:
        """`updates`: where an update Telegram brings to the webhook goes (kept in the inbox),
        when the bot takes them so."""
        self.services, self.token, self.updates = services, token, updates

    async def update(self, request: web.Request) -> web.Response:
        """An update from Telegram: answered 200 only once it is kept in the inbox, so one
        that could not be kept is brought again (as polling confirms only what is stored)."""
        assert self.updates is not None
        return await take_update(request, self.services.settings.webhook_secret, self.updates)

    async def page(self, request: web.Request) -> web.StreamResponse:
        signed, user, spoken = await self._who(request)
        return await self._answer(request, signed, user, words(spoken))

    async def _who(self, request: web.Request) -> tuple[str | None, int | None, str]:
        """The initData sent, whom it names (None when it does not check out), and the
        language to answer in: his, else the browser's."""
        signed = request.headers.get(INIT_HEADER)
        user = None if signed is None else initdata.user_of(
            signed, self.token, self.services.clock())
        chosen = None if user is None else await self.services.languages.chosen(user)
        return signed, user, chosen or from_accept_language(
            request.headers.get("Accept-Language"), await self.services.languages.club())

    async def lichess(self, request: web.Request) -> web.Response:
        """`lichess?s=STATE` sends the member to lichess's sign-in; `lichess/terug` is where
        lichess sends him back, with a code (or an error, when he cancelled). Said in his
        language; nothing is kept unless the account is linked."""
        services = self.services
        back = request.path.endswith("/terug")
        state = request.query.get("state" if back else "s", "")
        user = await lichess.asked_by(services, state)
        w = words(await services.languages.of(user) if user is not None else
                  from_accept_language(request.headers.get("Accept-Language"),
                                       await services.languages.club()))
        if not back:
            where = await lichess.to_lichess(services, state)
            if where is None:
                return _private(410, w(texts.LICHESS_PAGE_EXPIRED))
            raise web.HTTPFound(where, headers={"Cache-Control": "no-store"})
        if "error" in request.query:
            return _private(200, w(texts.LICHESS_PAGE_DENIED))
        try:
            done = await lichess.finish(services, state, request.query.get("code", ""))
        except LichessError as exc:
            log.warning("a lichess sign-in was not finished: %s", exc)
            return _private(503 if exc.busy else 400, w(texts.LICHESS_PAGE_BUSY) if exc.busy
                            else w(texts.LICHESS_PAGE_REFUSED))
        if done is None:
            return _private(410, w(texts.LICHESS_PAGE_EXPIRED))
        return _private(200, w(texts.LICHESS_PAGE_TAKEN if done.taken
                               else texts.LICHESS_PAGE_DONE).format(name=done.username))

    async def act(self, request: web.Request) -> web.Response:
        """A tap in the Mini App, by whom Telegram's signature names, answered with the part
        of the page it changed and what it did (or why it could not) on top: a member's on
        his season (`mij-seizoen`), the arbiter's on the draft's board (`mij-bord`)."""
        _, user, spoken = await self._who(request)
        w = words(spoken)
        if user is None or await views.web_access(self.services) is WebAccess.OFF:
            return _text(403, w(texts.WEB_NOT_SIGNED))
        try:
            tap = await request.json()
        except ValueError:
            tap = None
        on_board = request.match_info.get("name") == "mij-bord"
        if on_board and not await self.services.is_arbiter(user):
            return _text(403, w(texts.ONLY_ARBITER))
        found = taps.read(taps.BOARD if on_board else taps.SEASON, tap)
        if found is None:
            return _text(400, w(texts.WEB_NOT_FOUND))
        if on_board:
            return await self._on_board(w, user, found[1])
        return await self._in_season(w, user, *found)

    async def _in_season(self, w: Words, user: int, ask: str,
                         tap: dict[str, Any]) -> web.Response:
        """A member's tap on a round of his season (`{"round": 3, "play": false}`): signed
        off, or playing after all, as in the chat, which is told too; or (`"here": true`)
        he is in the room for a round at the venue, as Ik ben er in the group. Only the
        member himself: nobody acts for another here."""
        who = await members.of_user(self.services, user)
        if who is None:
            return _text(403, w(texts.WEB_NOT_SIGNED))
        number = tap["round"]
        said: Said
        try:
            if ask == "here":
                came = await checkin.check_in(self.services, who, number, actor=user,
                                              by_arbiter=False)
                said = checkin.said_to_member(came)
            else:
                said = await signoff.tapped(self.services, who, number, tap["play"],
                                            sent_at=self.services.clock())
        except REFUSALS as exc:
            said = await refused.said(self.services, exc)
        return _fragment(await self._season(w, who, said))

    async def _on_board(self, w: Words, user: int, tap: dict[str, Any]) -> web.Response:
        """The arbiter's tap on the draft's board (`{"action": "swap", "a": "p1", "b": "p4",
        "version": ...}`, `bye` with `a`, or `publish`), through the flows the chat's
        `/indeling ruil|bye|bevestig` use. A board that showed another draft than the one
        stored (changed in the chat, or by a sign-off, meanwhile) changes nothing: 409 and
        the draft as it is now."""
        asked = board.Tap(tap["action"], tap.get("a"), tap.get("b"), tap["version"])
        try:
            said, current = await board.tap(self.services, asked, actor=user)
        except REFUSALS as exc:
            said, current = await refused.said(self.services, exc), True
        return _fragment(await self._board(w, said), 200 if current else 409)

    async def _board(self, w: Words, said: Said | str = "") -> str:
        """The arbiter's board: the draft, the room before it, or the late comers after."""
        services = self.services
        return pages.board(w, await views.draft_board(services), said,
                           await views.room_board(services), await views.late_board(services))

    async def _season(self, w: Words, who: members.Member, said: Said | str = "") -> str:
        """His season's page: his rounds, and (once a round is complete, as `/stand kansen`)
        the chart of his final place."""
        played = (await views.standings(self.services, w.language)).after_round
        return pages.my_season(w, await views.my_season(self.services, who), said,
                               await views.stakes(self.services, None) if played else None,
                               who.code)

    async def _answer(self, request: web.Request, signed: str | None,
                      user: int | None, w: Words) -> web.StreamResponse:
        """The page in the words `w`: the member's, else the browser's."""
        name = request.match_info.get("name", "")
        access = await views.web_access(self.services)
        if access is WebAccess.OFF:
            return _text(404, w(texts.WEB_OFF))
        if signed is not None and user is None:
            return _text(403, w(texts.WEB_NOT_SIGNED))
        who = None if user is None else await members.of_user(self.services, user)
        arbiter = user is not None and await self.services.is_arbiter(user)
        allowed = {"mij": who is not None or arbiter, "mij-seizoen": who is not None,
                   "mij-bord": arbiter}
        if name in allowed:
            if not allowed[name]:
                return _text(403, w(texts.WEB_NOT_SIGNED))
        elif access is WebAccess.MEMBERS and who is None and not arbiter:
            season = await views.season(self.services)
            return _html(request, pages.members_only(w, season.club))
        body = await self._render(w, name, who, arbiter)
        if body is None:
            return _text(404, w(texts.WEB_NOT_FOUND))
        return _html(request, body)

    async def _site(self, w: Words) -> tuple[pages.Site, dict[str, str]]:
        """The pages of the season as the file holds it now, and those rendered so far:
        built (the standings of every round) once per change of what the public may see,
        whoever asks. That is what the standings version follows: the players, the rules,
        the rounds' dates and states, and what is in the rounds that are published (a round
        not yet published shows nothing), so a member's sign-off for the next round keeps
        them. Only pages that exist are kept, so what is kept is bounded by the season."""
        async def build() -> tuple[pages.Site, dict[str, str]]:
            season, rounds = await self._public_season(w)
            return pages.Site(season, w, links=pages.LIVE, telegram=True, schedule=rounds,
                              history=await views.history(self.services),
                              unsettled=await views.unsettled(self.services)), {}

        built: tuple[pages.Site, dict[str, str]] = await self.services.db.cache.memo(
            f"web.site.{w.language}", build, standings_only=True)
        return built

    async def _render(self, w: Words, name: str, who: members.Member | None,
                      arbiter: bool = False) -> str | None:
        site, rendered = await self._site(w)
        if name == "mij":
            own = pages.board_link(w) if arbiter else ""
            if who is None:
                return own
            mine = await views.mine(self.services, who)
            upcoming = next(({"round": g.round, "board": g.board, "opponent": g.opponent,
                              "colour": w(texts.COLOURS_WORD)["white" if g.white else "black"]}
                             for g in mine.games if g.result is None), None)
            grids = pages.team_grids(w, await teams.grids_of(self.services, who.code))
            return own + await asyncio.to_thread(site.mine, who.code, upcoming) + grids
        if name == "mij-seizoen":
            assert who is not None
            return await self._season(w, who)
        if name == "mij-bord":
            return await self._board(w)
        if name not in rendered:
            body = await asyncio.to_thread(_dispatch, site, name)
            if body is None:
                return None
            rendered[name] = body
        return rendered[name]

    async def _public_season(self, w: Words) -> tuple[Season, list[pages.Scheduled]]:
        """The season as the public may see it: a pairing only once it is published."""
        season = await views.season(self.services)
        planned = await schedule(self.services)
        states = {r.number: r.state for r in planned}
        rounds = tuple(rnd if states.get(rnd.number, RoundState.COMPLETE) in PUBLIC
                       else replace(rnd, games=(), absent=()) for rnd in season.rounds)
        listed = [pages.Scheduled(r.number, r.date, w(texts.STATE_WORDS)[r.state]) for r in planned]
        return replace(season, rounds=rounds), listed


def _fragment(body: str, status: int = 200) -> web.Response:
    """A part of a page the Mini App's script puts in place: never kept by the phone."""
    return web.Response(text=body, status=status, content_type="text/html", charset="utf-8",
                        headers={"Cache-Control": "no-store"})


def _dispatch(site: pages.Site, name: str) -> str | None:
    """The page a flat name asks for (`ronde-3`, `speler-p7`), or None."""
    fixed: dict[str, Any] = {"": site.index, "kruistabel": site.crosstable,
                             "programma": site.schedule, "groepen": site.groups}
    if name in fixed:
        page: str | None = fixed[name]()
        return page
    kind, _, arg = name.partition("-")
    if kind == "ronde" and arg.isdecimal() and len(arg) < 6:
        return site.round(int(arg))
    if kind == "speler" and arg:
        return site.player(arg)
    return None


def _html(request: web.Request, body: str) -> web.Response:
    """The page, or 304 when the phone has it already; never cached without asking."""
    tag = '"' + hashlib.sha256(body.encode()).hexdigest()[:32] + '"'
    headers = {"ETag": tag, "Cache-Control": "no-cache",
               "Vary": f"{INIT_HEADER}, Accept-Language",
               "X-Content-Type-Options": "nosniff", "Referrer-Policy": "same-origin"}
    if tag in request.headers.get("If-None-Match", ""):
        return web.Response(status=304, headers=headers)
    return web.Response(text=body, content_type="text/html", charset="utf-8",
                        headers=headers)


def _private(status: int, message: str) -> web.Response:
    """A page of a sign-in: never kept, and its address (a code) never passed on."""
    return web.Response(status=status, text=message, content_type="text/plain",
                        charset="utf-8", headers={"Cache-Control": "no-store",
                                                  "Referrer-Policy": "no-referrer"})


def _text(status: int, message: str) -> web.Response:
    return web.Response(status=status, text=message, content_type="text/plain",
                        charset="utf-8")
