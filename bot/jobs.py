"""Scheduled work. The database is the truth: every tick looks at what is due, so a deadline
that passed while the bot was down is handled at start, and a round is claimed in one
transaction, so it is paired once however often the job fires (restarts, DST, overlap)."""

from __future__ import annotations

import datetime as dt
import logging

from bot import texts
from bot.chat import owe_to_arbiters
from bot.flows import rounds as flows
from bot.services import App, Context
from storage import inbox
from storage.backup import backup
from storage.errors import StoreError

log = logging.getLogger(__name__)


async def tick(context: Context) -> None:
    """Deadlines that passed, and reminders that are due."""
    await flows.tick(context.services)


async def daily_backup(context: Context) -> None:
    """A copy of the database, and the inbox kept short. A failure is the arbiters' to hear,
    in the words the command uses, and the next night tries again."""
    services = context.services
    try:
        await backup(services.db, services.settings.database.parent / "backups")
    except StoreError as exc:
        log.warning("daily backup failed: %s", exc)
        reason = texts.BACKUP_REASONS.get(exc.problem, texts.BACKUP_REASON_OTHER)
        if services.throttle.first("backup"):
            # The disk that refused the copy may refuse the outbox too: then it goes directly.
            await owe_to_arbiters(services, texts.BACKUP_FAILED.format(error=reason),
                                  fallback=context.bot)
        return
    try:
        await inbox.prune(services.db)
    except StoreError as exc:  # tried again tomorrow; nothing is lost by waiting
        log.warning("inbox not pruned: %s", exc)


def schedule(app: App) -> None:
    services = app.bot_data
    queue = app.job_queue
    assert queue is not None
    # No misfire grace limit: a late tick still runs (it only looks at what is due).
    queue.run_repeating(tick, interval=services.settings.tick_seconds, first=0.2, name="tick",
                        job_kwargs={"misfire_grace_time": None, "coalesce": True})
    queue.run_daily(daily_backup, dt.time(4, 0, tzinfo=services.settings.timezone),
                    name="backup", job_kwargs={"misfire_grace_time": None, "coalesce": True})
