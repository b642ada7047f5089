"""Issue 27: Telegram brings the updates to the bot's own server (a webhook) instead of the
bot asking for them. Each update is kept in the inbox before the webhook answers 200, so one
that could not be kept is brought again; only Telegram, with the secret it was given, is
heard."""

from __future__ import annotations

import asyncio

import aiohttp

from storage import inbox
from tests.bot.conftest import club_bot, says


async def test_updates_come_by_webhook_kept_before_they_are_taken(tg, tmp_path, members, processes):
    bot = await club_bot(tg, tmp_path / "keizer.db", processes, web_port=0, webhook=True)
    settings = bot.app.bot_data.settings
    try:
        assert tg.webhook is not None and tg.webhook["secret"] == settings.webhook_secret
        assert tg.webhook["url"] == f"{bot.runtime.web.url}/telegram/{settings.webhook_key}"
        assert settings.token not in tg.webhook["url"]
        answer = await bot.ask(members[0], "/help")
        assert answer.text.startswith(says("START"))
        stored = {u.update_id for u in await inbox.pending(bot.app.bot_data.db, after=0)}
        async with bot.app.bot_data.db.reader.execute("SELECT update_id FROM inbox") as cur:
            kept = {row[0] for row in await cur.fetchall()}
        assert tg.delivered and set(tg.delivered) <= kept and not stored - kept
        assert "getUpdates" not in {method for method, _ in tg.calls}  # it does not poll
        # Anyone else posting to the path is turned away, and nothing is kept.
        async with aiohttp.ClientSession() as session, session.post(
                tg.webhook["url"], json={"update_id": 999}, headers={
                    "X-Telegram-Bot-Api-Secret-Token": "raden"}) as forged:
            assert forged.status == 403
        async with bot.app.bot_data.db.reader.execute(
                "SELECT count(*) FROM inbox WHERE update_id = 999") as cur:
            assert (await cur.fetchone())[0] == 0
    finally:
        await bot.stop()


async def test_an_update_the_inbox_cannot_keep_is_brought_again(tg, tmp_path, members, processes):
    """The database refuses the write: the webhook answers 503, Telegram tries again, and
    once the database takes it the update is handled (once)."""
    bot = await club_bot(tg, tmp_path / "keizer.db", processes, web_port=0, webhook=True)
    try:
        db = bot.app.bot_data.db
        await db.writer.execute("PRAGMA query_only = ON")  # as a read-only disk would
        mark = len(tg.sent)
        bot.says(members[0], "/help")
        await asyncio.sleep(0.8)
        assert not tg.delivered and not tg.sent[mark:]  # not kept, so not taken
        await db.writer.execute("PRAGMA query_only = OFF")
        answer = await tg.wait_for(lambda s: s.chat_id == members[0].id, after=mark)
        assert answer.text.startswith(says("START"))
        assert len(tg.delivered) == 1
    finally:
        await bot.stop()
