"""Issue 16 in a real browser: the live standings and a player page, at a phone's 360 px and a
desktop's 1280 px, fit their width (only the cross table scrolls, inside its box) and show
the right numbers. The screenshots in docs/ are taken here.

Headless Chromium will not make a window narrower than 500 px, so each page is measured in
a frame of the width wanted, served from the same origin as the page (a small proxy)."""

from __future__ import annotations

import asyncio
import json
import re
import shutil
import subprocess
from pathlib import Path

import aiohttp
import matplotlib.image
import pytest
from aiohttp import web

from core.numbers import format_number
from core.season import Season
from core.standings import compute_standings
from tests.bot.conftest import club_bot

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
pytestmark = pytest.mark.skipif(CHROMIUM is None,
                                reason="chromium is not installed (.ci/run installs it)")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--hide-scrollbars",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]
MEASURE = """<!doctype html><body style="margin:0">
<iframe id="f" src="{src}" style="width:{width}px;height:{height}px;border:0"></iframe>
<script>
document.getElementById("f").addEventListener("load", function () {{
  var d = this.contentDocument, row = d.querySelector("tbody tr");
  document.body.setAttribute("data-probe", JSON.stringify({{
    page: d.documentElement.scrollWidth, frame: {width},
    boxes: Array.from(d.querySelectorAll(".wrap")).map(function (w) {{
      return w.getBoundingClientRect().right <= {width}; }}),
    first: row ? row.innerText.split(/\\s+/) : []}}));
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
async def proxy(tg, tmp_path):
    """The bot with its pages, and beside it a server that frames them at a given width."""
    season = Season.from_json((ROOT / "examples" / "drie-groepen.json").read_text("utf-8"))
    running = await club_bot(tg, tmp_path / "keizer.db", season, web_port=0)
    assert running.runtime is not None and running.runtime.web is not None
    pages = running.runtime.web.url

    async def page(request: web.Request) -> web.Response:
        async with aiohttp.ClientSession() as session, \
                session.get(pages + "/" + request.match_info["path"]) as answer:
            return web.Response(text=await answer.text(), content_type="text/html")

    async def frame(request: web.Request) -> web.Response:
        return web.Response(text=MEASURE.format(src="/p/" + request.query["page"],
                                                width=request.query["w"], height=900),
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


async def probe(tmp_path: Path, base: str, page: str, width: int) -> dict:
    dom = await browser(tmp_path, "--virtual-time-budget=5000", "--dump-dom",
                  f"{base}/frame?page={page}&w={width}")
    found = re.search(r'data-probe="([^"]*)"', dom)
    assert found, dom[:500]
    return dict(json.loads(found.group(1).replace("&quot;", '"')))


@pytest.mark.parametrize("width", [360, 1280])
async def test_the_standings_and_a_player_page_fit_a_phone_and_a_desktop(proxy, tmp_path,
                                                                         width):
    base, season = proxy
    standings = compute_standings(season)
    top = standings.rows[0]
    shown = await probe(tmp_path, base, "", width)
    assert shown["page"] <= width  # no sideways scrolling
    assert all(shown["boxes"])
    score = format_number(top.score, season.rules.display_decimals, comma=True)
    assert shown["first"][:1] == ["1"] and score in shown["first"]
    assert top.player.name.split()[0] in shown["first"]
    mine = await probe(tmp_path, base, f"speler-{top.id}", width)
    assert mine["page"] <= width and all(mine["boxes"])
    assert mine["first"][-1] == format_number(standings.breakdown(top.id)[0].points,
                                              season.rules.display_decimals, comma=True)
    cross = await probe(tmp_path, base, "kruistabel", width)
    assert cross["page"] <= width  # the wide table scrolls inside its own box


async def test_screenshots_for_the_readme(proxy, tmp_path, request):
    """The pictures in docs/ (written anew with --update-golden, like the golden files)."""
    base, season = proxy
    top = compute_standings(season).rows[0]
    for name, page, width in (("web-stand-telefoon", "", 360),
                              ("web-speler-telefoon", f"speler-{top.id}", 360),
                              ("web-stand", "", 1280)):
        shot = tmp_path / f"{name}.png"
        url = f"{base}/frame?page={page}&w={width}" if width < 500 else f"{base}/p/{page}"
        await browser(tmp_path, f"--screenshot={shot}", url, width=max(width, 500))
        picture = matplotlib.image.imread(shot)[:, :width]
        assert picture.std() > 0.05  # text and tables, not an empty page
        if request.config.getoption("--update-golden"):
            matplotlib.image.imsave(ROOT / "docs" / f"{name}.png", picture)
