"""/grafiek (the ranking race as a picture), /export (web pages and CSV, or TRF for the
rating, for the arbiter) and
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

from bot.files import chart, exports
from bot.files.calendar import rounds_ics
from bot.flows import members, teams, views
from bot.language.i18n import Words, words
from bot.language.notice import Phrase, Text, lines
from bot.language.vocabulary import ME, PREVIOUS, key
from bot.services import Context
from bot.telegram.answer import Answer, File
from bot.telegram.grammar import Command, flag, form
from bot.telegram.room import Room
from bot.telegram.rooms.common import member
from core.results import NONE_UNSETTLED, UnsettledResults
from core.season import Season


async def grafiek(update: Update, context: Context, mine: bool = False) -> Answer:
    season = await views.season(context.services)
    history = await views.history(context.services)
    if len(history) < 2:
        return Answer(Text("CHART_NONE"))
    players = None
    if mine:
        players = [(await member(update, context)).code]
    picture = await asyncio.to_thread(chart.race, season, history, players)
    return Answer(file=File(picture, "grafiek.png",
                            Text("CHART_CAPTION", {"round": history[-1].after_round}),
                            photo=True))


async def export(update: Update, context: Context, trf: bool, previous: bool) -> Answer:
    """/export [trf] [vorig]: web pages and CSV, or the games as TRF16 for the rating; of
    this season or the one before."""
    if previous:
        found = await views.previous_season(context.services)
        if found is None:
            return Answer(Text("PREVIOUS_NONE"))
        season = found
    else:
        season = await views.season(context.services)
    before = Text("PREVIOUS_CAPTION", {"name": season.name}) if previous else None
    if trf:
        if not season.complete_rounds:
            return Answer(Text("TRF_NONE"))
        from core.trf import trf_bytes

        header = await views.trf_header(context.services)
        made = await asyncio.to_thread(trf_bytes, season, header)
        caption = lines(before, Text("TRF_CAPTION", {"round": season.complete_rounds}),
                        between=" ")
        return Answer(file=File(made, "keizer-rating.trf",
                                lines(caption, Phrase("trf_missing", (header,)))))
    unsettled = NONE_UNSETTLED if previous else await views.unsettled(context.services)
    site = words(await context.services.languages.club())  # the club's site: its language
    archive = await asyncio.to_thread(_archive, site, season, unsettled)
    return Answer(file=File(archive, "keizer-export.zip", lines(
        before, Text("EXPORT_CAPTION", {"round": season.complete_rounds}), between=" ")))


def _archive(w: Words, season: Season, unsettled: UnsettledResults) -> bytes:
    archive = io.BytesIO()
    with tempfile.TemporaryDirectory() as folder:
        written = [path for write in (exports.write_html, exports.write_csv, exports.write_xlsx)
                   for path in write(w, season, Path(folder), unsettled)]
        with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as zipped:
            for path in written:
                zipped.write(path, path.name)
    return archive.getvalue()


async def agenda(update: Update, context: Context) -> Answer:
    """/agenda: the rounds as a calendar file; in private, with the member's own games."""
    services, chat, user = context.services, update.effective_chat, update.effective_user
    assert chat is not None
    who = await members.of_user(services, user.id) \
        if user is not None and chat.type == ChatType.PRIVATE else None
    agenda = await views.calendar(
        services.db, services.settings.timezone, who,
        matches=() if who is None else await teams.calendar_matches(services, who.code))
    if agenda is None:
        return Answer(Text("AGENDA_NONE"))
    made = await asyncio.to_thread(rounds_ics, context.words, agenda)
    return Answer(file=File(made, "keizer-agenda.ics",
                            Text("AGENDA_CAPTION_OWN") if who else Text("AGENDA_CAPTION")))


TRF = key("trf")

room = Room(commands=(
    # `/grafiek` and `/agenda` read no words, and mind none typed.
    Command(key("grafiek", "chart"), (form(grafiek, flag("mine", ME)),), grafiek, reads_only=True),
    Command(key("export"), (form(export, flag("trf", TRF), flag("previous", PREVIOUS)),
                            form(export, flag("previous", PREVIOUS), flag("trf", TRF))),
            "EXPORT_UNKNOWN", arbiter=True, reads_only=True),
    Command(key("agenda", "calendar"), (form(agenda),), agenda, reads_only=True)))
