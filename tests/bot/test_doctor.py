"""`keizerbot doctor` catches each misconfiguration it claims to."""

from __future__ import annotations

import json

from bot.doctor import checks
from core.season import season_from_data
from storage import club
from storage.seasons import import_season
from storage.store import open_store
from tests.bot.conftest import TOKEN
from tests.meaning import written


def env(tg, tmp_path, **extra):
    return {"TELEGRAM_BOT_TOKEN": TOKEN, "TELEGRAM_BASE_URL": tg.url,
            "KEIZER_DB": str(tmp_path / "keizer.db"), "KEIZER_ARBITERS": "1", **extra}


async def ready(tmp_path, *, group: bool = True) -> None:
    db = await open_store(tmp_path / "keizer.db")
    data = {"format": "keizer-season/1", "rules": "sliedrecht",
            "players": [{"id": "a", "name": "A"}, {"id": "b", "name": "B"}], "rounds": []}
    await import_season(db, season_from_data(json.loads(json.dumps(data))))
    if group:
        await club.change_settings(db, actor=None, group_chat_id=-100)
    await db.close()


def failures(found) -> list[str]:
    """What the failed checks say, as the command line writes it."""
    return [written(c.text) for c in found if not c.ok]


async def test_a_good_setup_passes(tg, tmp_path):
    await ready(tmp_path)
    found = await checks(env(tg, tmp_path))
    assert failures(found) == [] and "@keizerbot" in written(found[1].text)


async def test_a_refused_token(tg, tmp_path):
    await ready(tmp_path)
    tg.fail_next("getMe", 401)
    assert any("weigert het token" in f for f in failures(await checks(env(tg, tmp_path))))


async def test_telegram_out_of_reach(tg, tmp_path):
    await ready(tmp_path)
    found = await checks(env(tg, tmp_path, TELEGRAM_BASE_URL="http://127.0.0.1:9"))
    assert any("niet bereikbaar" in f for f in failures(found))


async def test_a_database_that_cannot_be_made(tg, tmp_path):
    (tmp_path / "file").write_text("not a folder")
    found = await checks(env(tg, tmp_path, KEIZER_DB=str(tmp_path / "file" / "keizer.db")))
    assert any("niet bruikbaar" in f for f in failures(found))


async def test_no_season_and_no_group(tg, tmp_path):
    # No database yet: the doctor says how to make one, and makes none by looking.
    found = failures(await checks(env(tg, tmp_path)))
    assert any("bestaat nog niet. Laad het seizoen met keizerbot import" in f for f in found)
    assert not (tmp_path / "keizer.db").exists()
    db = await open_store(tmp_path / "keizer.db")
    await db.close()
    texts = failures(await checks(env(tg, tmp_path)))
    assert any("nog geen seizoen" in f for f in texts)
    assert any("nog geen clubgroep" in f for f in texts)


async def test_no_arbiter(tg, tmp_path):
    await ready(tmp_path)
    assert any("geen wedstrijdleider" in f
               for f in failures(await checks(env(tg, tmp_path, KEIZER_ARBITERS=""))))


async def test_a_bad_time_zone_and_a_missing_token(tg, tmp_path):
    assert "geen tijdzone" in failures(await checks(env(tg, tmp_path,
                                                         KEIZER_TIMEZONE="Nergens/Niets")))[0]
    assert "BotFather" in failures(await checks(env(tg, tmp_path, TELEGRAM_BOT_TOKEN="")))[0]
