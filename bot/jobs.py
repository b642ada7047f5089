"""Scheduled work. The database is the truth: every tick looks at what is due, so a deadline
that passed while the bot was down is handled at start, and a round is claimed in one
transaction, so it is paired once however often the job fires (restarts, DST, overlap)."""

from __future__ import annotations

import datetime as dt
import logging

from telegram.ext import Application

from bot import texts
from bot.handlers.common import esc, send, show_date, show_moment, tell_arbiters
from bot.handlers.pairing import render
from bot.services import Context, due_rounds, take_deadline
from bot.services import draft as draft_round
from storage import club
from storage.backup import backup

log = logging.getLogger(__name__)


async def tick(context: Context) -> None:
    """Deadlines that passed, and reminders that are due."""
    services = context.services
    for number in await due_rounds(services):
        if not await take_deadline(services, number):
            continue
        pairing = await draft_round(services, number, actor=None)
        log.info("round %d locked and drafted at its deadline", number)
        await tell_arbiters(context, texts.DRAFT_TO_ARBITER.format(round=number) + "\n"
                            + texts.INDELING_DRAFT_TITLE + "\n" + await render(context, pairing))
    await remind(context)


async def remind(context: Context) -> None:
    services = context.services
    settings = await club.settings(services.db)
    if settings.group_chat_id is None:
        return
    now, zone = services.clock(), services.settings.timezone
    for rnd in await club.schedule(services.db):
        if rnd.state != "planned" or rnd.date is None or rnd.deadline is None:
            continue
        start = dt.datetime.combine(rnd.date, settings.round_start, tzinfo=zone)
        if start - dt.timedelta(minutes=settings.reminder_minutes) <= now < rnd.deadline \
                and await club.mark_reminded(services.db, rnd.number):
            await send(context, settings.group_chat_id, texts.REMINDER.format(
                round=rnd.number, date=show_date(rnd.date),
                deadline=show_moment(rnd.deadline, zone)), thread_id=settings.group_thread_id)


async def daily_backup(context: Context) -> None:
    services = context.services
    try:
        await backup(services.db, services.settings.database.parent / "backups")
    except OSError as exc:
        log.exception("daily backup failed")
        await tell_arbiters(context, texts.BACKUP_FAILED.format(error=esc(exc)))


def schedule(app: Application) -> None:  # type: ignore[type-arg]
    services = app.bot_data
    queue = app.job_queue
    assert queue is not None
    # No misfire grace limit: a late tick still runs (it only looks at what is due).
    queue.run_repeating(tick, interval=services.settings.tick_seconds, first=0.2, name="tick",
                        job_kwargs={"misfire_grace_time": None, "coalesce": True})
    queue.run_daily(daily_backup, dt.time(4, 0, tzinfo=services.settings.timezone),
                    name="backup", job_kwargs={"misfire_grace_time": None, "coalesce": True})
