"""/grafiek (the ranking race as a picture), /export (web pages and CSV for the arbiter) and
/agenda (the rounds as a calendar file).
Both are drawn off the event loop, and sent directly: a file answers a question, and can be
asked for again; nothing is stored."""

from __future__ import annotations

import asyncio
import io
import tempfile
import zipfile
from pathlib import Path

from telegram import Update
from telegram.constants import ChatType

from bot import chart, exports, texts
from bot.chat import reply
from bot.flows import members, views
from bot.handlers.common import arbiter_only, command, member
from bot.services import App, Context
from core.season import Season
from core.standings import standings_history


async def grafiek(update: Update, context: Context) -> None:
    season = await views.season(context.services)
    history = await asyncio.to_thread(standings_history, season)
    if len(history) < 2:
        await reply(update, context, texts.CHART_NONE)
        return
    players = None
    if context.args and context.args[0].lower() == "mij":
        who = await member(update, context)
        if who is None:
            return
        players = [who.code]
    picture = await asyncio.to_thread(chart.race, season, history, players)
    chat = update.effective_chat
    assert chat is not None
    await context.bot.send_photo(chat.id, picture, caption=texts.CHART_CAPTION.format(
        round=history[-1].after_round))


@arbiter_only
async def export(update: Update, context: Context) -> None:
    season = await views.season(context.services)
    archive = await asyncio.to_thread(_archive, season)
    chat = update.effective_chat
    assert chat is not None
    await context.bot.send_document(chat.id, archive, filename="keizer-export.zip",
                                    caption=texts.EXPORT_CAPTION.format(
                                        round=season.complete_rounds))


def _archive(season: Season) -> bytes:
    archive = io.BytesIO()
    with tempfile.TemporaryDirectory() as folder:
        written = exports.write_html(season, Path(folder)) + \
            exports.write_csv(season, Path(folder))
        with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as zipped:
            for path in written:
                zipped.write(path, path.name)
    return archive.getvalue()


async def agenda(update: Update, context: Context) -> None:
    """/agenda: the rounds as a calendar file; in private, with the member's own games."""
    services, chat, user = context.services, update.effective_chat, update.effective_user
    assert chat is not None
    who = await members.of_user(services, user.id) \
        if user is not None and chat.type == ChatType.PRIVATE else None
    made = await views.calendar(services.db, services.settings.timezone, who)
    if made is None:
        await reply(update, context, texts.AGENDA_NONE)
        return
    await context.bot.send_document(chat.id, made[0], filename="keizer-agenda.ics",
                                    caption=texts.AGENDA_CAPTION_OWN if who
                                    else texts.AGENDA_CAPTION)


def register(app: App) -> None:
    app.add_handler(command("grafiek", grafiek, reads_only=True))
    app.add_handler(command("export", export, reads_only=True))
    app.add_handler(command("agenda", agenda, reads_only=True))
