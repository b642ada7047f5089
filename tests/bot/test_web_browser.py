"""Issue 16 in a real browser: the live standings and a player page, at a phone's 360 px and a
desktop's 1280 px, fit their width (only the cross table scrolls, inside its box) and show
the right numbers. The screenshots in docs/ are taken here.

Headless Chromium will not make a window narrower than 500 px, so each page is measured in
a frame of the width wanted, served from the same origin as the page (a small proxy)."""

from __future__ import annotations

import asyncio
import contextlib
import html
import json
import re
import shutil
import subprocess
from collections.abc import AsyncIterator
from pathlib import Path
from urllib.parse import quote

import aiohttp
import pytest
from aiohttp import web

from bot.language import texts
from bot.language.i18n import words
from core.numbers import format_number
from core.season import read_season
from core.standings import compute_standings
from tests.bot.conftest import club_bot, fits, meaning

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
# A real browser: seconds of CPU a test, so in `-m slow` with the other real-process runs.
pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(CHROMIUM is None,
                                 reason="chromium is not installed (.ci/run installs it)")]
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--hide-scrollbars",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]
MEASURE = """<!doctype html><body style="margin:0"><script>
var wanted = {wanted}, probes = {{}}, left = wanted.length;
wanted.forEach(function (want) {{
  var frame = document.createElement("iframe");
  frame.style.cssText = "display:block;border:0;height:900px;width:" + want.width + "px";
  frame.addEventListener("load", function () {{
    var d = frame.contentDocument, row = d.querySelector("tbody tr");
    probes[want.page + "@" + want.width] = {{
      page: d.documentElement.scrollWidth,
      boxes: Array.from(d.querySelectorAll(".wrap")).map(function (w) {{
        return w.getBoundingClientRect().right <= want.width; }}),
      first: row ? row.innerText.split(/\\s+/) : [],
      unscoped: d.querySelectorAll("th:not([scope])").length,
      unnamed: Array.from(d.querySelectorAll("table")).filter(function (t) {{
        return !t.caption && !t.getAttribute("aria-label"); }}).length,
      blank: Array.from(d.querySelectorAll("th")).filter(function (h) {{
        return !h.textContent.trim(); }}).length}};
    if (--left === 0) document.body.setAttribute("data-probe", JSON.stringify(probes));
  }});
  frame.src = "/p/" + want.page;
  document.body.appendChild(frame);
}});
</script></body>"""


async def browser(tmp_path: Path, *args: str, width: int = 500) -> str:
    """Chromium in a thread: the pages it asks for are served by this test's event loop."""
    done = await asyncio.to_thread(
        subprocess.run, [CHROMIUM or "chromium", *FLAGS,
                         f"--user-data-dir={tmp_path / 'profile'}",
                         f"--window-size={width},900", *args],
        capture_output=True, text=True, timeout=120, check=False)
    return done.stdout


@pytest.fixture
async def proxy(tg, tmp_path, processes):
    """The bot with its pages, and beside it a server that frames them at a given width."""
    season = read_season((ROOT / "examples" / "drie-groepen.json").read_text("utf-8"))
    running = await club_bot(tg, tmp_path / "keizer.db", processes, season, web_port=0)
    assert running.runtime is not None and running.runtime.web is not None
    pages = running.runtime.web.url

    async def page(request: web.Request) -> web.Response:
        async with aiohttp.ClientSession() as session, \
                session.get(pages + "/" + request.match_info["path"]) as answer:
            return web.Response(text=await answer.text(), content_type="text/html")

    async def frame(request: web.Request) -> web.Response:
        wanted = [{"page": page, "width": int(width)} for page, width in
                  (item.rsplit("@", 1) for item in request.query.getall("at"))]
        return web.Response(text=MEASURE.format(wanted=json.dumps(wanted)),
                            content_type="text/html")

    app = web.Application()
    app.router.add_get("/p/{path:.*}", page)
    app.router.add_get("/frame", frame)
    runner = web.AppRunner(app)
    await runner.setup()
    await web.TCPSite(runner, "127.0.0.1", 0).start()
    yield f"http://127.0.0.1:{runner.addresses[0][1]}", season
    await runner.cleanup()
    await running.stop()


async def probe(tmp_path: Path, base: str, wanted: list[tuple[str, int]]) \
        -> dict[tuple[str, int], dict]:
    """Each page framed at each width, all in one browser start (each start costs seconds)."""
    query = "&".join(f"at={quote(page)}@{width}" for page, width in wanted)
    dom = await browser(tmp_path, "--virtual-time-budget=10000", "--dump-dom",
                        f"{base}/frame?{query}")
    found = re.search(r'data-probe="([^"]*)"', dom)
    assert found, dom[:500]
    shown = json.loads(found.group(1).replace("&quot;", '"'))
    return {(page, width): shown[f"{page}@{width}"] for page, width in wanted}


async def test_the_standings_a_player_page_and_the_cross_table_fit_a_phone_and_a_desktop(
        proxy, tmp_path):
    base, season = proxy
    standings = compute_standings(season)
    top = standings.rows[0]
    score = format_number(top.score, season.rules.display_decimals, comma=True)
    points = format_number(standings.breakdown(top.id)[0].points,
                           season.rules.display_decimals, comma=True)
    player = f"speler-{top.id}"
    shown = await probe(tmp_path, base, [(page, width) for width in (360, 1280)
                                         for page in ("", player, "kruistabel")])
    for width in (360, 1280):
        stand, mine, cross = (shown[page, width] for page in ("", player, "kruistabel"))
        assert stand["page"] <= width  # no sideways scrolling
        assert stand["boxes"] and all(stand["boxes"])
        assert stand["first"][:1] == ["1"] and score in stand["first"]
        assert top.player.name.split()[0] in stand["first"]
        assert mine["page"] <= width and mine["boxes"] and all(mine["boxes"])
        assert mine["first"][-1] == points
        assert cross["page"] <= width  # the wide table scrolls inside its own box


async def test_every_table_says_what_it_is_and_what_each_header_heads(proxy, tmp_path):
    """For a screen reader: each table has a caption or a label, each header cell its scope
    and a text (the movement column's is there for readers only)."""
    base, _ = proxy
    pages = ("", "speler-ej0", "kruistabel", "programma", "ronde-1")
    shown = await probe(tmp_path, base, [(page, 1280) for page in pages])
    for page in pages:
        assert shown[page, 1280]["first"], page  # the page has its table
        assert (shown[page, 1280]["unscoped"], shown[page, 1280]["unnamed"],
                shown[page, 1280]["blank"]) == (0, 0, 0), page


async def test_screenshots_for_the_readme(proxy, tmp_path, request):
    """The pictures in docs/: all three written anew with --update-golden (like the golden
    files); otherwise the phone's standings only, to see the picture is a page."""
    base, season = proxy
    top = compute_standings(season).rows[0]
    shots = (("web-stand-telefoon", "", 360),
             ("web-speler-telefoon", f"speler-{top.id}", 360),
             ("web-stand", "", 1280))
    update = request.config.getoption("--update-golden")
    import matplotlib.image  # here: every run collects this module, few run its tests
    for name, page, width in shots if update else shots[:1]:
        shot = tmp_path / f"{name}.png"
        url = f"{base}/frame?at={quote(page)}@{width}" if width < 500 else f"{base}/p/{page}"
        await browser(tmp_path, f"--screenshot={shot}", url, width=max(width, 500))
        picture = matplotlib.image.imread(shot)[:, :width]
        assert picture.std() > 0.05  # text and tables, not an empty page
        if update:
            matplotlib.image.imsave(ROOT / "docs" / f"{name}.png", picture)


HARNESS = """<!doctype html><body style="margin:0"><script>
var frame = document.createElement("iframe");
frame.style.cssText = "display:block;border:0;height:900px;width:360px";
document.body.appendChild(frame);
function done(found) {
  document.body.setAttribute("data-probe", JSON.stringify(found));
}
function wait(test, then, tries) {
  var d = frame.contentDocument, found = d && d.body && test(d);
  if (found) return then(found);
  if ((tries || 0) > 400) return done({error: d && d.body ? d.body.innerHTML.slice(0, 800) : ""});
  setTimeout(function () { wait(test, then, (tries || 0) + 1); }, 25);
}
frame.src = "/p/";
STEPS
</script></body>"""
"""A phone's frame of the club's front page, driven by `STEPS` (JavaScript that taps and
waits, then calls `done` with what it found: the test reads it from the DOM)."""

SEASON_TAP = """
wait(function (d) { return d.querySelector('#mine [data-load="mij-seizoen"]'); }, function (link) {
  link.click();
  wait(function (d) { return d.querySelector('#mine [data-round="ROUND"]'); }, function (button) {
    var before = button.textContent;
    button.click();
    wait(function (d) { return d.querySelector("#mine .said"); }, function (said) {
      var d = frame.contentDocument;
      done({before: before, said: said.textContent,
            after: d.querySelector('#mine [data-round="ROUND"]').textContent,
            rounds: d.querySelectorAll("#mine .calendar li").length,
            page: d.documentElement.scrollWidth});
    });
  });
});"""

BOARD_TAP = """
wait(function (d) { return d.querySelector('#mine [data-load="mij-bord"]'); }, function (link) {
  link.click();
  wait(function (d) { return d.querySelectorAll("#mine .boards li").length > 1; }, function () {
    var rows = frame.contentDocument.querySelectorAll("#mine .boards li");
    var first = rows[0].querySelector("[data-player]"), second = rows[1].querySelector(
      "[data-player]");
    var swapped = [first.dataset.player, second.dataset.player];
    first.click();
    second.click();
    wait(function (d) { return d.querySelector("#mine .said"); }, function (said) {
      var d = frame.contentDocument, after = said.textContent;
      d.querySelector('#mine [data-act="publish"]').click();
      wait(function (d) { return !d.querySelector("#mine .boards"); }, function () {
        done({swapped: swapped, said: after, page: d.documentElement.scrollWidth,
              published: d.querySelector("#mine .said").textContent});
      });
    });
  });
});"""

BOARD_SHOWN = """
wait(function (d) { return d.querySelector('#mine [data-load="mij-bord"]'); }, function (link) {
  link.click();
  wait(function (d) { return d.querySelector("#mine [data-player]"); }, function (first) {
    first.click();
    done({});
  });
});"""


@contextlib.asynccontextmanager
async def mini_app(bot, user_id: int, steps: str, *, forge: bool = False,
                   go: asyncio.Event | None = None,
                   waiting: asyncio.Event | None = None) -> AsyncIterator[str]:
    """The bot's pages as inside Telegram, for `user_id`: a server that passes them on with
    Telegram's script stood in for by one that hands them a signed initData (`forge`: one
    whose signature does not check out), and serves `/tap`, a phone's frame driven by
    `steps` (ROUND in them: the `round` asked), and `/go`, which sets `waiting` and answers
    once `go` is set: the phone waits on it while the test acts (Chromium's virtual time
    stands still while a request is open). Its base."""
    from tests.bot.web import init_data

    assert bot.runtime is not None and bot.runtime.web is not None
    pages = bot.runtime.web.url
    signed = json.dumps(init_data(user_id, at=bot.clock.now, forge=forge))
    stand_in = ("<script>window.Telegram = {WebApp: {initData: " + signed
                + ", ready: function () {}, HapticFeedback: {impactOccurred: "
                "function () {}}}};</script>")

    async def passed(request: web.Request) -> web.Response:
        headers = {k: v for k, v in request.headers.items()
                   if k.lower() in ("x-telegram-init-data", "content-type")}
        async with aiohttp.ClientSession() as session, session.request(
                request.method, pages + "/" + request.match_info["path"],
                data=await request.read(), headers=headers) as answer:
            body = (await answer.text()).replace(
                '<script src="https://telegram.org/js/telegram-web-app.js"></script>', stand_in)
            return web.Response(text=body, status=answer.status, content_type="text/html")

    async def harness(request: web.Request) -> web.Response:
        return web.Response(text=HARNESS.replace("STEPS", steps.replace(
            "ROUND", request.query.get("round", ""))), content_type="text/html")

    async def waited(request: web.Request) -> web.Response:
        assert go is not None and waiting is not None
        waiting.set()
        await go.wait()
        return web.Response(status=200)

    app = web.Application()
    app.router.add_route("*", "/p/{path:.*}", passed)
    app.router.add_get("/tap", harness)
    app.router.add_get("/go", waited)
    runner = web.AppRunner(app)
    await runner.setup()
    await web.TCPSite(runner, "127.0.0.1", 0).start()
    try:
        yield f"http://127.0.0.1:{runner.addresses[0][1]}"
    finally:
        await runner.cleanup()


async def tapped(tmp_path: Path, url: str) -> dict:
    """What the harness at `url` found, once Chromium ran its steps."""
    dom = await browser(tmp_path, "--virtual-time-budget=20000", "--dump-dom", url)
    found = re.search(r'data-probe="([^"]*)"', dom)
    assert found, dom[:800]
    shown: dict = json.loads(html.unescape(found.group(1)))
    assert "error" not in shown, shown
    return shown


async def test_a_member_signs_off_from_his_season_on_a_phone(tg, tmp_path, processes, members,
                                                             request):
    """Issue 36 in a browser at 360 px, as inside Telegram (Telegram's script stood in for
    by one that hands the page a signed initData): the member opens his season from his
    summary, taps round 3's button and reads what it earns; his chat says the same, the
    store has it, and the page fits the phone. With --update-golden the picture of it goes
    to docs/."""
    from storage import attendance
    from tests.bot.steps import set_up_club

    bot = await club_bot(tg, tmp_path / "keizer.db", processes, web_port=0)
    try:
        await set_up_club(bot, members, rounds=3)
        anna = members[0]
        async with mini_app(bot, anna.id, SEASON_TAP) as base:
            mark = len(bot.tg.sent)
            shown = await tapped(tmp_path, f"{base}/tap?round=3")
            assert shown["rounds"] == 3 and shown["page"] <= 360
            assert (shown["before"], shown["after"]) == ("Afmelden", "Toch spelen")
            told = await bot.tg.next_to(anna.id, meaning("SIGNED_OFF", round=3), after=mark)
            assert told.text.split()[:4] == shown["said"].split()[:4]
            assert await attendance.signed_off_rounds(bot.app.bot_data.db, "p0",
                                                      from_round=1) == [3]
            if request.config.getoption("--update-golden"):  # round 2's sign-off, shown
                await screenshot(tmp_path, f"{base}/tap?round=2", "web-seizoen-telefoon")
    finally:
        await bot.stop()


async def test_the_arbiter_swaps_and_publishes_on_his_board_on_a_phone(tg, tmp_path,
                                                                       processes, members,
                                                                       request):
    """Issue 36 in a browser at 360 px: the arbiter opens the draft's board from the top of
    the page, taps the first two boards' white players (they swap, through the flow of
    `/indeling ruil`) and publishes; the group gets the pairing with them swapped."""
    from storage import rounds
    from tests.bot.conftest import ARBITER, GROUP
    from tests.bot.steps import pass_deadline, set_up_club

    bot = await club_bot(tg, tmp_path / "keizer.db", processes, web_port=0)
    try:
        await set_up_club(bot, members, rounds=1)
        await pass_deadline(bot, 1)
        before = await rounds.stored_pairing(bot.app.bot_data.db, 1)
        assert before is not None
        if request.config.getoption("--update-golden"):  # the board, a player held
            async with mini_app(bot, ARBITER.id, BOARD_SHOWN) as base:
                await screenshot(tmp_path, f"{base}/tap", "web-bord-telefoon")
        async with mini_app(bot, ARBITER.id, BOARD_TAP) as base:
            mark = len(bot.tg.sent)
            shown = await tapped(tmp_path, f"{base}/tap")
        assert shown["page"] <= 360
        assert shown["swapped"] == [before.boards[0].white, before.boards[1].white]
        assert fits(shown["said"], "BOARD_SWAPPED")
        assert shown["published"] == texts.publish_note(words("nl"), 1, len(members))
        group = await bot.tg.next_to(GROUP, meaning("PAIRING_TITLE", round=1), after=mark)
        after = await rounds.stored_pairing(bot.app.bot_data.db, 1)
        assert after is not None and after.state.value == "published"
        assert (after.boards[0].white, after.boards[1].white) == \
            (before.boards[1].white, before.boards[0].white)
        assert group.text.count("–") == len(after.boards)
    finally:
        await bot.stop()


HERE_TAP = """
wait(function (d) { return d.querySelector('#mine [data-load="mij-seizoen"]'); }, function (link) {
  link.click();
  wait(function (d) { return d.querySelector('#mine [data-here="ROUND"]'); }, function (button) {
    button.click();
    wait(function (d) { return d.querySelector("#mine .said"); }, function (said) {
      var d = frame.contentDocument;
      done({said: said.textContent, button: !!d.querySelector("#mine [data-here]"),
            page: d.documentElement.scrollWidth});
    });
  });
});"""

ROOM_PAIR = """
wait(function (d) { return d.querySelector('#mine [data-load="mij-bord"]'); }, function (link) {
  link.click();
  wait(function (d) { return d.querySelector('#mine [data-act="pair"]'); }, function (pair) {
    var d = frame.contentDocument, here = d.querySelectorAll('#mine [data-act="gone"]').length;
    pair.click();
    wait(function (d) { return d.querySelector("#mine .boards li"); }, function () {
      var d = frame.contentDocument;
      done({here: here, boards: d.querySelectorAll("#mine .boards li").length,
            publish: !!d.querySelector('#mine [data-act="publish"]'),
            page: d.documentElement.scrollWidth});
    });
  });
});"""

ROOM_SHOWN = """
wait(function (d) { return d.querySelector('#mine [data-load="mij-bord"]'); }, function (link) {
  link.click();
  wait(function (d) { return d.querySelector('#mine [data-act="pair"]'); }, function () {
    done({});
  });
});"""


async def test_three_phones_check_in_and_the_arbiter_pairs_on_his(tg, tmp_path, processes,
                                                                  members, request):
    """Issue 36 in a browser at 360 px: a round at the venue; at its deadline three members,
    each on his own phone at once, open their season and tap Ik ben er; the arbiter's phone
    shows the three in the room and Indelen pairs them (one has the bye); the store has
    them, and the others are absent."""
    from storage import attendance
    from tests.bot.conftest import ARBITER
    from tests.bot.steps import round_absences, set_up_club
    from tests.bot.venue import open_the_room

    bot = await club_bot(tg, tmp_path / "keizer.db", processes, web_port=0)
    try:
        await set_up_club(bot, members, rounds=0)
        await bot.ask(ARBITER, "/ronde nieuw 3-12-2026 ter plaatse")
        await open_the_room(bot)
        async with contextlib.AsyncExitStack() as phones:
            bases = [await phones.enter_async_context(mini_app(bot, m.id, HERE_TAP))
                     for m in members[:3]]
            for k in range(3):
                (tmp_path / f"phone{k}").mkdir()
            shown = await asyncio.gather(*(tapped(tmp_path / f"phone{k}",
                                                  f"{base}/tap?round=1")
                                           for k, base in enumerate(bases)))
        for said in shown:
            assert fits(said["said"], "HERE_NOTED", round=1) and not said["button"]
            assert said["page"] <= 360
        assert await attendance.present(bot.app.bot_data.db, 1) == ["p0", "p1", "p2"]
        if request.config.getoption("--update-golden"):  # the room, before Indelen
            async with mini_app(bot, ARBITER.id, ROOM_SHOWN) as base:
                await screenshot(tmp_path, f"{base}/tap", "web-zaal-telefoon")
        async with mini_app(bot, ARBITER.id, ROOM_PAIR) as base:
            paired = await tapped(tmp_path, f"{base}/tap")
        assert paired == {"here": 3, "boards": 1, "publish": True, "page": paired["page"]}
        assert paired["page"] <= 360
        absent = await round_absences(bot, 1)
        assert list(absent.values()).count("bye") == 1
        assert {name: why for name, why in absent.items() if why != "bye"} == dict.fromkeys(
            ("Daan Smit", "Eva Bos", "Femke Kok"), "no_notice")
    finally:
        await bot.stop()


CHART_SHOWN = """
wait(function (d) { return d.querySelector('#mine [data-load="mij-seizoen"]'); }, function (link) {
  link.click();
  wait(function (d) { return d.querySelector("#mine .bars li"); }, function () {
    var d = frame.contentDocument, bars = d.querySelectorAll("#mine .bars .bar");
    done({bars: bars.length, widest: Math.max.apply(null, Array.prototype.map.call(
            bars, function (b) { return b.getBoundingClientRect().width; })),
          page: d.documentElement.scrollWidth});
  });
});"""


async def test_a_member_sees_his_chances_as_a_chart_on_a_phone(tg, tmp_path, processes,
                                                              members, request):
    """Issue 36 in a browser at 360 px: after round 1, the member's season shows the chart of
    his final place: a bar per place he can reach, drawn, within the phone's width."""
    from tests.bot.conftest import GROUP
    from tests.bot.steps import pass_deadline, play_round, publish, set_up_club

    bot = await club_bot(tg, tmp_path / "keizer.db", processes, web_port=0)
    try:
        await set_up_club(bot, members, rounds=3)
        await pass_deadline(bot, 1)
        await play_round(bot, members, 1, await publish(bot, 1))
        await bot.tg.next_to(GROUP, meaning("ROUND_COMPLETE", round=1))
        async with mini_app(bot, members[0].id, CHART_SHOWN) as base:
            shown = await tapped(tmp_path, f"{base}/tap")
            if request.config.getoption("--update-golden"):
                await screenshot(tmp_path, f"{base}/tap", "web-kansen-telefoon")
        assert shown["bars"] >= 2 and 0 < shown["widest"] < 360 and shown["page"] <= 360
    finally:
        await bot.stop()


STRANGER_ON_THE_BOARD = """
wait(function (d) { return d.querySelector('#mine [data-load="mij-seizoen"]'); }, function () {
  var mine = frame.contentDocument.querySelector("#mine");
  var link = frame.contentDocument.createElement("a");
  link.setAttribute("data-load", "mij-bord");
  link.textContent = "board";
  mine.appendChild(link);
  link.click();
  wait(function (d) { return !d.querySelector('#mine [data-load="mij-seizoen"]'); }, function () {
    var d = frame.contentDocument;
    done({mine: d.querySelector("#mine").textContent,
          boards: d.querySelectorAll("#mine .boards li").length});
  });
});"""

FORGED = """
var started = Date.now();
wait(function (d) { return d.querySelector("#mine") && Date.now() - started > 1500; },
     function () {
  var d = frame.contentDocument;
  done({mine: d.querySelector("#mine").innerHTML.trim(),
        season: !!d.querySelector('[data-load="mij-seizoen"]')});
});"""

STALE_SWAP = """
wait(function (d) { return d.querySelector('#mine [data-load="mij-bord"]'); }, function (link) {
  link.click();
  wait(function (d) { return d.querySelectorAll("#mine .boards li").length > 1; }, function () {
    var d = frame.contentDocument, before = d.querySelector("#board").dataset.version;
    fetch("/go").then(function () {
      var rows = d.querySelectorAll("#mine .boards li");
      rows[0].querySelector("[data-player]").click();
      rows[1].querySelector("[data-player]").click();
      wait(function (d) { return d.querySelector("#mine .said"); }, function (said) {
        done({said: said.textContent, before: before,
              after: frame.contentDocument.querySelector("#board").dataset.version});
      });
    });
  });
});"""


async def test_the_board_refuses_a_member_a_forged_signature_and_a_stale_draft(
        tg, tmp_path, processes, members):
    """Issue 36 in a browser at 360 px: a member who opens the board by hand gets a refusal
    and no boards; a forged initData shows nothing of his own; the arbiter's phone that shows
    a draft the chat changed meanwhile gets the refusal and the draft as it is now, and its
    swap is not made."""
    from storage import rounds
    from tests.bot.conftest import ARBITER
    from tests.bot.steps import pass_deadline, set_up_club

    bot = await club_bot(tg, tmp_path / "keizer.db", processes, web_port=0)
    try:
        await set_up_club(bot, members, rounds=1)
        await pass_deadline(bot, 1)
        async with mini_app(bot, members[0].id, STRANGER_ON_THE_BOARD) as base:
            shown = await tapped(tmp_path, f"{base}/tap")
        assert shown["boards"] == 0 and fits(shown["mine"], "WEB_NOT_SIGNED")
        async with mini_app(bot, members[0].id, FORGED, forge=True) as base:
            shown = await tapped(tmp_path, f"{base}/tap")
        assert shown == {"mine": "", "season": False}

        go, waiting = asyncio.Event(), asyncio.Event()
        async with mini_app(bot, ARBITER.id, STALE_SWAP, go=go, waiting=waiting) as base:
            phone = asyncio.create_task(tapped(tmp_path, f"{base}/tap"))
            await asyncio.wait_for(waiting.wait(), 60)  # the phone shows the board
            before = await rounds.stored_pairing(bot.app.bot_data.db, 1)
            assert before is not None
            white, black = before.boards[0].white, before.boards[1].black
            names = {f"p{k}": f"{m.first_name} {m.last_name}" for k, m in enumerate(members)}
            changed = await bot.ask(ARBITER, f"/indeling ruil {names[white]} en "
                                             f"{names[black]}")
            assert fits(changed.text, "INDELING_DRAFT_TITLE")
            after = await rounds.stored_pairing(bot.app.bot_data.db, 1)
            go.set()
            shown = await phone
        assert fits(shown["said"], "BOARD_STALE") and shown["after"] != shown["before"]
        assert await rounds.stored_pairing(bot.app.bot_data.db, 1) == after  # not swapped
    finally:
        await bot.stop()


async def screenshot(tmp_path: Path, url: str, name: str) -> None:
    """The phone's frame at `url`, as docs/`name`.png (taken with --update-golden)."""
    import matplotlib.image  # here: every run collects this module, few run its tests
    shot = tmp_path / f"{name}.png"
    await browser(tmp_path, f"--screenshot={shot}", "--virtual-time-budget=20000", url,
                  width=500)
    matplotlib.image.imsave(ROOT / "docs" / f"{name}.png",
                            matplotlib.image.imread(shot)[:, :360])
