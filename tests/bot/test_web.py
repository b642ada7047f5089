"""Issue 16 over real HTTP: the club's live pages, served by the running bot, for a season of
each preset; escaping, 404s, the club's choice of who may look, the Mini App's signature, and
the button under /stand."""

from __future__ import annotations

import datetime as dt
import html
import re
from pathlib import Path

import pytest

from bot.language import texts
from bot.web.initdata import sign, user_of
from core.numbers import format_number
from core.pairing import Rule
from core.rules.model import CompensationKind
from core.season import Season, read_season, season_from_data
from core.standings import compute_standings
from storage import attendance
from storage.errors import StoreProblem
from tests.bot.conftest import ARBITER, GROUP, TOKEN, fits, meaning, says
from tests.bot.steps import pass_deadline, play_round, publish, set_up_club
from tests.bot.web import (
    NOW,
    PUBLIC_URL,
    board_of,
    board_tap,
    get,
    init_data,
    own_headers,
    plain,
    tap,
)

ROOT = Path(__file__).resolve().parents[2]
PRESETS = ("sliedrecht", "drie-groepen", "drie-cycli")


def example(name: str) -> Season:
    return read_season((ROOT / "examples" / f"{name}.json").read_text("utf-8"))


@pytest.mark.parametrize("web_bot", [example(n) for n in PRESETS], indirect=True, ids=PRESETS)
async def test_every_page_of_a_season(web_bot):
    from storage.seasons import load_season

    season = await load_season(web_bot.app.bot_data.db)
    standings = compute_standings(season)
    status, page, headers = await get(web_bot, "/")
    assert status == 200 and headers["Content-Type"].startswith("text/html")
    shown = plain(page)
    decimals = season.rules.display_decimals
    for row in standings.rows[:5]:  # rank, name and points, in the ranking's order
        assert f"{row.rank} " in shown and row.player.name in shown
        assert format_number(row.score, decimals, comma=True) in shown
    names = [row.player.name for row in standings.rows]
    assert sorted(names, key=shown.index) == names
    status, page, _ = await get(web_bot, "/kruistabel")
    assert status == 200 and all(p.name in plain(page) for p in season.players)
    status, page, _ = await get(web_bot, "/programma")
    listed = plain(page)
    assert status == 200 and all(f'href="ronde-{r.number}"' in page
                                 for r in season.rounds if r.is_paired)
    assert "afgelopen" in listed  # each round with where it stands
    status, page, _ = await get(web_bot, "/groepen")
    assert status == 200  # every preset has titles: periods, subgroups or a play-off
    for rnd in season.rounds:
        status, page, _ = await get(web_bot, f"/ronde-{rnd.number}")
        if not rnd.is_paired:
            assert status == 404
            continue
        first = rnd.games[0]
        assert status == 200
        assert f"1 {season.player(first.white).name} {season.player(first.black).name}" \
            in plain(page)
    for player in season.players:
        status, page, _ = await get(web_bot, f"/speler-{player.id}")
        assert status == 200 and player.name in plain(page)
        if player.id in standings.ranking:
            row = standings.row(player.id)
            assert f"{row.rank}e met {format_number(row.score, decimals, comma=True)} punten" \
                in plain(page)


async def test_the_pages_listen_only_where_the_proxy_forwards(web_bot):
    assert web_bot.runtime.web is not None
    assert {host for host, *_ in web_bot.runtime.web.runner.addresses} == {"127.0.0.1"}


async def test_a_chat_message_that_changes_nothing_keeps_the_pages_built(web_bot, members):
    """Issue 22: the pages are kept on the club's data, not rebuilt after every message."""
    db = web_bot.app.bot_data.db
    await get(web_bot, "/")
    built = db.cache.kept("web.site.nl")
    for _ in range(3):
        await web_bot.ask(members[0], "/help")
        assert (await get(web_bot, "/"))[0] == 200
        assert db.cache.kept("web.site.nl") is built
    await web_bot.ask(ARBITER, "/speler nieuw Piet Puk 1500")
    assert "Piet Puk" in (await get(web_bot, "/"))[1]
    assert db.cache.kept("web.site.nl") is not built


async def test_a_sign_off_for_the_next_round_keeps_the_pages_built(web_bot, members):
    """Issue 23: a round not yet published shows nothing on the pages, so a member's sign-off
    for it keeps them (at 500 players they take a second to build); its publication shows."""
    await set_up_club(web_bot, members, rounds=2)
    db = web_bot.app.bot_data.db
    await get(web_bot, "/")
    built = db.cache.kept("web.site.nl")
    for member in members[:3]:
        await web_bot.ask(member, "/afmelden", contains="afgemeld")
        assert (await get(web_bot, "/"))[0] == 200
        assert db.cache.kept("web.site.nl") is built
    await pass_deadline(web_bot, 1)
    await publish(web_bot, 1)
    status, page, _ = await get(web_bot, "/ronde-1")
    assert status == 200 and db.cache.kept("web.site.nl") is not built
    assert members[0].first_name in plain(page)


async def test_unknown_pages_are_404_in_dutch(web_bot, members):
    await set_up_club(web_bot, members, rounds=1)
    for path in ("/speler-niemand", "/ronde-99", "/ronde-1", "/onzin", "/speler-",
                 "/ronde-abc"):
        status, page, _ = await get(web_bot, path)
        assert (status, page) == (404, texts.WEB_NOT_FOUND), path


HOSTILE = [{"id": "x1", "name": "<script>alert(1)</script>", "rating": 2000},
           {"id": "q\"'<", "name": "Jan \"de\" O'Brien & zn", "rating": 1900},
           {"id": "p3", "name": "Piet", "rating": 1800}]


@pytest.mark.parametrize("web_bot", [season_from_data({
    "format": "keizer-season/1", "club": "<b>Club</b>", "season": "2026-2027",
    "rules": "sliedrecht", "players": HOSTILE,
    "rounds": [{"round": 1, "games": [{"white": "x1", "black": "q\"'<", "result": "1-0"}],
                "absent": [{"player": "p3", "reason": "notice"}]}]})], indirect=True)
async def test_hostile_names_are_text(web_bot):
    pages = [await get(web_bot, path) for path in
             ("/", "/ronde-1", "/kruistabel", "/speler-x1", "/speler-q%22'%3C", "/groepen")]
    for status, page, _ in pages:
        assert status == 200
        assert "<script>alert" not in page and "<b>Club" not in page
    index = pages[0][1]
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in index
    assert "Jan &#34;de&#34; O&#39;Brien &amp; zn" in index
    assert 'href="speler-q%22%27%3C"' in index  # the id quoted in the link as well
    assert "Jan \"de\" O'Brien & zn" in plain(pages[4][1])


async def test_a_result_is_on_the_page_at_the_next_reload(web_bot, members):
    await set_up_club(web_bot, members, rounds=2)
    await pass_deadline(web_bot, 1)  # a draft, for the arbiter only
    assert (await get(web_bot, "/ronde-1"))[0] == 404
    post = await publish(web_bot, 1)
    status, page, headers = await get(web_bot, "/ronde-1")
    assert status == 200 and "1-0" not in page
    again = await get(web_bot, "/ronde-1", **{"If-None-Match": headers["ETag"]})
    assert again[0] == 304 and again[1] == ""  # a phone reloads cheaply
    await play_round(web_bot, members, 1, post)
    await web_bot.tg.next_to(GROUP, meaning("ROUND_COMPLETE", round=1))
    status, page, fresh = await get(web_bot, "/ronde-1", **{"If-None-Match": headers["ETag"]})
    assert status == 200 and fresh["ETag"] != headers["ETag"]
    assert plain(page).count("1-0") == 3
    assert says("STANDINGS_TITLE", round=1) in plain((await get(web_bot, "/"))[1])


async def test_the_club_decides_who_may_look(web_bot, members):
    await set_up_club(web_bot, members, rounds=1)
    anna = members[0]
    assert "Anna Visser" in (await get(web_bot, "/"))[1]
    answer = await web_bot.ask(ARBITER, "/instellingen web leden")
    assert answer.text == texts.INSTELLINGEN_DONE
    status, page, _ = await get(web_bot, "/")
    assert status == 200 and "Anna Visser" not in page and 'id="wait"' in page
    assert (await get(web_bot, "/speler-p0"))[1].count("Anna") == 0
    signed = {"X-Telegram-Init-Data": init_data(anna.id)}
    status, page, _ = await get(web_bot, "/", **signed)
    assert status == 200 and "Anna Visser" in page
    mine = await get(web_bot, "/mij", **signed)
    assert mine[0] == 200 and "Anna Visser" in mine[1] and "speler-p0" in mine[1]
    stranger = {"X-Telegram-Init-Data": init_data(4242)}  # signed, but no member
    assert "Anna Visser" not in (await get(web_bot, "/", **stranger))[1]
    assert (await get(web_bot, "/mij", **stranger))[0] == 403
    for bad in (init_data(anna.id, forge=True), init_data(anna.id, token="1:" + "B" * 35),
                init_data(anna.id, at=NOW - dt.timedelta(days=2)), "user=%7B%7D", "",
                # Issue 22: a hash that is not ASCII is a bad signature too, not an error.
                init_data(anna.id).split("hash=")[0] + "hash=%C3%A9%E2%82%AC"):
        status, page, _ = await get(web_bot, "/", **{"X-Telegram-Init-Data": bad})
        assert (status, page) == (403, texts.WEB_NOT_SIGNED), bad
    await web_bot.ask(ARBITER, "/instellingen web uit")
    for headers in ({}, signed):
        status, page, _ = await get(web_bot, "/", **headers)
        assert (status, page) == (404, texts.WEB_OFF)
    shown = await web_bot.ask(ARBITER, "/instellingen")
    assert "Clubpagina: uit." in shown.text


async def test_my_view_inside_telegram_shows_my_next_game(web_bot, members):
    await set_up_club(web_bot, members, rounds=1)
    await pass_deadline(web_bot, 1)
    await publish(web_bot, 1)
    anna = members[0]
    signed = init_data(anna.id, at=web_bot.clock.now)  # the member opens it now
    status, page, _ = await get(web_bot, "/mij", **{"X-Telegram-Init-Data": signed})
    assert status == 200
    assert re.search(r"Ronde 1: bord \d, met (wit|zwart) tegen \w+ \w+", plain(page))
    assert (await get(web_bot, "/mij"))[0] == 403  # nothing personal without a signature


async def test_my_season_shows_every_round_and_a_tap_signs_off_as_the_chat_does(web_bot,
                                                                                members):
    """Issue 36: a member's season in the Mini App: round 1 played (his game, result and
    points), rounds 2 and 3 open with a button. A tap on round 3 signs him off exactly as
    `/afmelden 3` does (the same answer, on the page and in his chat); a tap back plays
    again. Nobody else's initData acts for him, and a forged one acts for nobody."""
    await set_up_club(web_bot, members, rounds=3)
    await pass_deadline(web_bot, 1)
    post = await publish(web_bot, 1)
    await play_round(web_bot, members, 1, post)
    await web_bot.tg.next_to(GROUP, meaning("ROUND_COMPLETE", round=1))
    anna = members[0]
    signed = init_data(anna.id, at=web_bot.clock.now)
    status, page, _ = await get(web_bot, "/mij-seizoen", **{"X-Telegram-Init-Data": signed})
    assert status == 200
    rounds = re.findall(r'<li data-number="(\d)">(.*?)</li>', page, re.S)
    assert [number for number, _ in rounds] == ["1", "2", "3"]
    first = plain(rounds[0][1])
    assert re.search(r"tegen [\w ]+ [10½] ", first) and 'class="points"' in rounds[0][1]
    assert all(f'data-round="{n}" data-play="0"' in page for n in (2, 3))
    assert 'data-round="1"' not in page
    english = (await get(web_bot, "/mij-seizoen", **{"X-Telegram-Init-Data": signed,
                                                      "Accept-Language": "en-GB"}))[1]
    assert "My season" in english and "Sign off" in english and "Afmelden" not in english
    mark = len(web_bot.tg.sent)
    status, page = await tap(web_bot, anna.id, {"round": 3, "play": False})
    assert status == 200 and 'data-round="3" data-play="1"' in page
    assert fits(page, "MY_ROUND_AWAY", why=texts.KIND_LABELS[CompensationKind.NOTICE])
    said = re.search(r'<p class="said" role="status">(.*?)</p>', page, re.S)
    assert said is not None and fits(said.group(1), "SIGNED_OFF", round=3)
    told = await web_bot.tg.next_to(anna.id, meaning("SIGNED_OFF", round=3), after=mark)
    assert told.text == said.group(1)
    db = web_bot.app.bot_data.db
    assert await attendance.signed_off_rounds(db, "p0", from_round=2) == [3]
    status, page = await tap(web_bot, anna.id, {"round": 3, "play": True})
    assert status == 200 and 'data-round="3" data-play="0"' in page
    assert fits(page, "AANMELDEN_DONE", round=3)
    assert await attendance.signed_off_rounds(db, "p0", from_round=2) == []
    # Only he acts for himself; a signature that does not check out acts for nobody.
    bram = members[1]
    assert (await tap(web_bot, 4242, {"round": 2, "play": False}))[0] == 403
    forged = init_data(bram.id, forge=True)
    assert (await tap(web_bot, bram.id, {"round": 2, "play": False},
                      **{"X-Telegram-Init-Data": forged}))[0] == 403
    for wrong in ({"round": "2", "play": False}, {"round": 2}, [], {"round": True,
                                                                     "play": False}):
        assert (await tap(web_bot, bram.id, wrong))[0] == 400
    assert await attendance.signed_off_rounds(db, "p1", from_round=2) == []
    # A round played is refused in words, nothing changed.
    status, page = await tap(web_bot, anna.id, {"round": 1, "play": False})
    assert status == 200 and fits(page, "_STORE_PROBLEMS", pick=StoreProblem.ROUND_CLOSED,
                                  round=1)


async def test_the_arbiter_swaps_on_his_board_and_publishes(web_bot, members):
    """Issue 36: the draft as a board in the Mini App, for the arbiter only. Two taps swap
    two players through the flow `/indeling ruil` uses; a board that showed an older draft
    (the chat changed it meanwhile) changes nothing and shows the draft as it is; Publish
    sends the pairing to the group. A member, and a forged signature, change nothing."""
    await set_up_club(web_bot, members, rounds=1)
    own = await get(web_bot, "/mij", **{"X-Telegram-Init-Data": init_data(
        ARBITER.id, at=web_bot.clock.now)})
    assert own[0] == 200 and 'data-load="mij-bord"' in own[1]
    assert fits((await get(web_bot, "/mij-bord", **own_headers(web_bot)))[1], "BOARD_NONE")
    await pass_deadline(web_bot, 1)
    signed = own_headers(web_bot)  # the arbiter opens it after the deadline
    status, page, _ = await get(web_bot, "/mij-bord", **signed)
    version, drafted = board_of(page)
    assert status == 200 and len(drafted) == 3 and fits(page, "BOARD_BEST")
    (w1, b1), (w2, b2) = drafted[:2]
    status, page = await board_tap(web_bot, ARBITER.id, {"action": "swap", "a": w1, "b": w2,
                                                         "version": version})
    assert status == 200 and fits(page, "BOARD_SWAPPED")
    assert fits(page, "BOARD_COST", rules=0, best_rules=0)  # worse by the distance alone
    fresh, swapped = board_of(page)
    assert {frozenset(b) for b in swapped[:2]} == {frozenset((w2, b1)), frozenset((w1, b2))}
    from storage import rounds

    stored = await rounds.stored_pairing(web_bot.app.bot_data.db, 1)
    assert stored is not None and {frozenset((b.white, b.black)) for b in stored.boards} \
        == {frozenset(b) for b in swapped}
    # The old board's tap: refused with the draft as it is now, nothing changed.
    status, page = await board_tap(web_bot, ARBITER.id, {"action": "swap", "a": w1, "b": b1,
                                                         "version": version})
    assert status == 409 and fits(page, "BOARD_STALE") and board_of(page) == (fresh, swapped)
    status, page = await board_tap(web_bot, ARBITER.id, {"action": "bye", "a": w1,
                                                         "version": fresh})
    assert fits(page, "BYE_EVEN", count=6) and board_of(page) == (fresh, swapped)
    # One does not come: signed off by the arbiter, the round paired again around the
    # swapped boards (5 players: a bye); he comes after all, and plays again.
    absent = swapped[2][0]
    status, page = await board_tap(web_bot, ARBITER.id, {"action": "absent", "a": absent,
                                                         "version": fresh})
    assert status == 200 and fits(page, "BOARD_ABSENT_DONE")
    fresh, without = board_of(page)
    assert absent not in {p for board in without for p in board} and len(without) == 2
    assert f'data-player="{absent}" data-away="1"' in page
    assert set(map(frozenset, swapped[:2])) == set(map(frozenset, without))  # kept fixed
    status, page = await board_tap(web_bot, ARBITER.id, {"action": "back", "a": absent,
                                                         "version": fresh})
    assert status == 200 and fits(page, "BOARD_BACK_DONE")
    fresh, swapped = board_of(page)
    assert absent in {p for board in swapped for p in board} and len(swapped) == 3
    # Two who never meet (a parent and child): kept apart from now on, shown with a way back.
    one, other = swapped[2]
    status, page = await board_tap(web_bot, ARBITER.id, {"action": "apart", "a": one,
                                                         "b": other, "version": fresh})
    assert status == 200 and fits(page, "APART_SET")
    fresh, apart = board_of(page)
    # The two boards swapped by hand are fixed: the last two can only meet, and the board
    # says the wish is broken, in words (where a pairing can keep them apart, it does: the
    # chat's test and the engine's).
    assert frozenset((one, other)) in set(map(frozenset, apart))
    assert fits(html.unescape(page), "BROKEN_RULES", pick=Rule.KEPT_APART)
    first, second = sorted((one, other), key=lambda code: int(code[1:]))  # members' order
    assert f'data-act="meet" data-a="{first}" data-b="{second}"' in page
    status, page = await board_tap(web_bot, ARBITER.id, {"action": "meet", "a": one,
                                                         "b": other, "version": fresh})
    assert status == 200 and fits(page, "APART_REMOVED") and 'data-act="meet"' not in page
    fresh, swapped = board_of(page)
    # Nobody else: a member, a forged signature, a tap that is no tap.
    anna = members[0]
    assert (await get(web_bot, "/mij-bord", **{"X-Telegram-Init-Data": init_data(
        anna.id, at=web_bot.clock.now)}))[0] == 403
    assert (await board_tap(web_bot, anna.id, {"action": "publish", "version": fresh}))[0] \
        == 403
    forged = init_data(ARBITER.id, at=web_bot.clock.now, forge=True)
    assert (await board_tap(web_bot, ARBITER.id, {"action": "publish", "version": fresh},
                            **{"X-Telegram-Init-Data": forged}))[0] == 403
    for wrong in ({"action": "ruil", "version": fresh}, {"action": "swap", "a": w1,
                                                          "version": fresh}, {}):
        assert (await board_tap(web_bot, ARBITER.id, wrong))[0] == 400
    assert board_of((await get(web_bot, "/mij-bord", **signed))[1]) == (fresh, swapped)
    mark = len(web_bot.tg.sent)
    status, page = await board_tap(web_bot, ARBITER.id, {"action": "publish",
                                                         "version": fresh})
    assert status == 200 and fits(page, "BOARD_NONE")
    await web_bot.tg.next_to(GROUP, meaning("PAIRING_TITLE", round=1), after=mark)


async def test_stand_carries_the_button_to_the_pages(web_bot, members):
    await set_up_club(web_bot, members, rounds=1)
    await pass_deadline(web_bot, 1)
    post = await publish(web_bot, 1)
    assert post.reply_markup["inline_keyboard"][0][0]["url"] == "https://t.me/keizerbot/stand"
    await play_round(web_bot, members, 1, post)
    await web_bot.tg.next_to(GROUP, meaning("ROUND_COMPLETE", round=1))
    private = await web_bot.ask(members[0], "/stand")
    button = private.reply_markup["inline_keyboard"][0][0]
    assert button == {"text": texts.WEB_BUTTON, "web_app": {"url": PUBLIC_URL + "/"}}
    group = await web_bot.ask(members[0], "/stand", chat_id=GROUP)
    assert group.reply_markup["inline_keyboard"][0][0]["url"] == "https://t.me/keizerbot/stand"
    await web_bot.ask(ARBITER, "/instellingen web uit")
    assert (await web_bot.ask(members[0], "/stand")).reply_markup is None


async def test_without_pages_no_button(bot, members):
    await set_up_club(bot, members, rounds=1)
    await pass_deadline(bot, 1)
    post = await publish(bot, 1)
    assert post.reply_markup is None and bot.runtime.web is None


def test_init_data_is_checked_as_telegram_documents():
    good = init_data(7)
    assert user_of(good, TOKEN, NOW) == 7
    assert user_of(good, TOKEN, NOW + dt.timedelta(hours=23)) == 7
    assert user_of(good, TOKEN, NOW + dt.timedelta(hours=25)) is None  # stale
    assert user_of(good, TOKEN, NOW - dt.timedelta(hours=1)) is None  # from the future
    assert user_of(init_data(7, forge=True), TOKEN, NOW) is None
    assert user_of(good, "1:" + "B" * 35, NOW) is None  # another bot's
    assert user_of(good.replace("Anna", "Bram"), TOKEN, NOW) is None  # changed after signing
    assert user_of(sign({"auth_date": str(int(NOW.timestamp()))}, TOKEN), TOKEN, NOW) is None


@pytest.mark.parametrize("web_bot", [example("sliedrecht")], indirect=True, ids=["sliedrecht"])
async def test_the_pages_and_the_chart_share_one_history(web_bot, members):
    """Issue 23: the standings after each round are made once per standings version and
    shared: the pages and /grafiek read the same."""
    db = web_bot.app.bot_data.db
    assert (await get(web_bot, "/"))[0] == 200
    history = db.cache.kept("standings history")
    assert db.cache.kept("web.site.nl")[0].history is history
    await web_bot.ask(members[0], "/grafiek")
    assert db.cache.kept("standings history") is history


async def test_the_pages_speak_the_members_or_the_browsers_language(web_bot, members):
    """Issue 26: inside Telegram the member's own language, else the browser's, else the
    club's; each language's pages are built and kept apart."""
    await set_up_club(web_bot, members, rounds=1)
    await pass_deadline(web_bot, 1)
    await publish(web_bot, 1)
    dutch = plain((await get(web_bot, "/"))[1])
    assert "Stand Kruistabel Programma" in dutch
    status, page, headers = await get(web_bot, "/", **{"Accept-Language": "en-GB,en;q=0.9"})
    assert status == 200 and "Standings Cross table Schedule" in plain(page)
    assert '<html lang="en">' in page and "Accept-Language" in headers["Vary"]
    assert "Standings" not in plain((await get(web_bot, "/programma", **{
        "Accept-Language": "nl-NL,nl;q=0.9,en;q=0.8"}))[1])
    # Anna chose English in the chat: her view inside Telegram is English, whatever the
    # phone's browser says; Bram chose Dutch. Who chose nothing reads his browser's.
    await web_bot.ask(members[0], "/taal en")
    signed = init_data(members[0].id, at=web_bot.clock.now)
    mine = plain((await get(web_bot, "/mij", **{"X-Telegram-Init-Data": signed,
                                                 "Accept-Language": "nl"}))[1])
    assert re.search(r"Round 1: board \d, with (white|black) against \w+ \w+", mine), mine
    theirs = init_data(members[1].id, at=web_bot.clock.now)
    assert "Round 1: board" in plain((await get(web_bot, "/mij", **{
        "X-Telegram-Init-Data": theirs, "Accept-Language": "en"}))[1])
    await web_bot.ask(members[1], "/taal nl")
    assert "Ronde 1: bord" in plain((await get(web_bot, "/mij", **{
        "X-Telegram-Init-Data": theirs, "Accept-Language": "en"}))[1])
    # The club's language for a visitor whose browser names none of ours.
    await web_bot.ask(ARBITER, "/instellingen taal en")
    assert "Standings Cross table" in plain((await get(web_bot, "/", **{
        "Accept-Language": "fr-FR"}))[1])
