"""The scoring variants of other programs as the arbiter and a member meet them in the chat:
the settings name them, and a member's breakdown says which rounds were decayed, fixed or
forfeited."""

from __future__ import annotations

import json

from bot.files import tables
from bot.language.i18n import words
from bot.language.notice import Text
from core.pairing.request import request_for_round
from core.rules import CompensationKind
from core.season import Season, season_from_data
from core.standings import compute_standings
from storage import roster
from storage.seasons import load_season
from storage.store import open_store
from tests.bot.conftest import ARBITER, MEMBERS, boards, club_bot, fits, says
from tests.bot.steps import pass_deadline, publish, set_up_club

RULES = {"preset": "freekeizer", "absence_decay": "1/2", "planned_rounds": 5,
         "compensation": {"bye": {"points": 3}}}


def played() -> Season:
    """Two rounds: Eva signs off twice (the second decayed), Daan does not come to his game
    against Cor (a priced forfeit), Femke has the bye twice (fixed points)."""
    data = {"format": "keizer-season/1", "club": "Testclub", "season": "2026-2027",
            "rules": RULES,
            "players": [{"id": f"p{k}", "name": name, "rating": 2000 - 50 * k}
                        for k, name in enumerate(MEMBERS)],
            "rounds": [
                {"round": 1, "games": [{"white": "p0", "black": "p1", "result": "0-1"},
                                       {"white": "p2", "black": "p3", "result": "+-"}],
                 "absent": [{"player": "p4", "reason": "notice"},
                            {"player": "p5", "reason": "bye"}]},
                {"round": 2, "games": [{"white": "p1", "black": "p2", "result": "1-0"},
                                       {"white": "p3", "black": "p0", "result": "1/2-1/2"}],
                 "absent": [{"player": "p4", "reason": "notice"},
                            {"player": "p5", "reason": "bye"}]}]}
    return season_from_data(json.loads(json.dumps(data)))


async def test_the_variants_are_shown_and_explained(tg, tmp_path, members, processes):
    path = tmp_path / "keizer.db"
    bot = await club_bot(tg, path, processes, played())
    try:
        db = await open_store(path)
        for k in (0, 3, 4, 5):
            await roster.link(db, f"p{k}", members[k].id, actor=None)
        await db.close()
        settings = await bot.ask(ARBITER, "/instellingen")
        assert "voorinstelling freekeizer" in settings.text
        assert "verlies 1/6" in settings.text and "afbouw per volgende afwezigheid: 0,5" \
            in settings.text and "bye: 3 punten vast" in settings.text
        eva = await bot.ask(members[4], "/stand mij")
        assert "afgemeld (afgebouwd: ×0,5)" in eva.text
        femke = await bot.ask(members[5], "/stand mij")
        assert "bye (vast aantal punten)" in femke.text
        daan = await bot.ask(members[3], "/stand mij")
        assert "reglementair verloren tegen Cor Jansen" in daan.text
        anna = await bot.ask(members[0], "/stand mij")
        # Anna lost to Bram in round 1: under FreeKeizer a sixth of his value.
        assert "0,167" in anna.text
        # Back to a loss worth nothing, in mid-season: shown first, as any rules change.
        preview = await bot.ask(ARBITER, '/instellingen regel result_fractions {"loss": 0}')
        assert fits(preview.text, "RULES_PREVIEW", round=2)
        done = await bot.ask(ARBITER, '/instellingen regel result_fractions {"loss": 0} bevestig')
        assert done.text == says("INSTELLINGEN_DONE")
        assert "verlies 1/6" not in (await bot.ask(ARBITER, "/instellingen")).text
    finally:
        await bot.stop()


async def test_a_requested_bye_is_granted_by_the_arbiter_and_is_no_pairing_bye(bot, members):
    await set_up_club(bot, members, rounds=2)
    refused = await bot.ask(members[4], "/afmelden halvebye")
    assert refused.text == says("REQUESTED_BYE_BY_ARBITER")
    granted = await bot.ask(ARBITER, "/afmelden Eva Bos halvebye")
    assert fits(granted.text, "SIGNED_OFF", who="Eva Bos", round=1,
                kind=Text("SIGNED_OFF_FOR", pick=CompensationKind.HALF_BYE))
    await pass_deadline(bot, 1)
    post = await publish(bot, 1)
    paired = {name for board in boards(post.text) for name in board}
    assert "Eva Bos" not in paired and len(paired) == 4  # five present: one has the bye
    season = await load_season(bot.app.bot_data.db)
    assert [a.reason.value for a in season.round(1).absent if a.player == "p4"] == ["half_bye"]
    assert request_for_round(season, 2).byes.get("p4") is None


def test_an_opponent_left_out_after_his_withdrawal_is_still_named():
    players = [{"id": "a", "name": "Anna Visser", "rating": 2000},
               {"id": "b", "name": "Bram de Boer", "rating": 1900, "withdrawn": 1},
               {"id": "c", "name": "Cor Jansen", "rating": 1800}]
    season = season_from_data(json.loads(json.dumps({
        "format": "keizer-season/1", "club": "Testclub", "season": "2026-2027",
        "rules": {"preset": "sliedrecht", "withdrawn": "hide"}, "players": players,
        "rounds": [{"round": 1, "games": [{"white": "a", "black": "b", "result": "1-0"}],
                    "absent": [{"player": "c", "reason": "bye"}]},
                   {"round": 2, "games": [{"white": "c", "black": "a", "result": "0-1"}],
                    "absent": []}]})))
    after = compute_standings(season, 2)
    assert after.ranking == ("a", "c")
    assert "tegen Bram de Boer" in tables.breakdown_table(words("nl"), after, "a", 1)
    _, rows = tables.crosstable(words("nl"), after, 1)
    assert rows[0][2].startswith("–w1")  # round 1: against someone no longer ranked
