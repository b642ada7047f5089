"""Scheduled work. The database is the truth: every tick looks at what is due, so a deadline
that passed while the bot was down is handled at start, and a round is claimed in one
transaction, so it is paired once however often the job fires (restarts, DST, overlap)."""

from __future__ import annotations

import asyncio
import datetime as dt
import logging

from bot.flows import online, results, teams, views
from bot.flows import rounds as flows
from bot.language.notice import Phrase, Text
from bot.notices import owe_to_arbiters
from bot.services import App, Context, Services
from bot.telegram.chat import direct
from storage import inbox
from storage.address import SqliteFile
from storage.backup import backup
from storage.cache import reading
from storage.errors import StoreError
from storage.seasons import has_season

log = logging.getLogger(__name__)


async def tick(context: Context) -> None:
    """Deadlines that passed, reminders that are due, and standings still to post: one unit
    of reads, the active season looked up once (again after a write of its own)."""
    with reading():
        await flows.tick(context.services)
        await online.tick(context.services)
        if await has_season(context.services.db):
            await teams.ask_due(context.services)
        await results.post_standings(context.services)


async def warm_values(context: Context) -> None:
    """The standings made once at the start (the worker process started, the season read):
    the first sign-off after a start is priced at once in a club of any common size, and in
    one of thousands of players goes unpriced for the seconds they take, not waits."""
    try:
        if await has_season(context.services.db):
            await views.values_now(context.services)
    except StoreError as exc:
        log.warning("standings not made at the start: %s", exc)


async def daily_backup(context: Context) -> None:
    """A copy of the database, and the inbox kept short. A failure is the arbiters' to hear,
    in the words the command uses, and the next night tries again."""
    services = context.services
    try:
        store = services.settings.database
        if not isinstance(store, SqliteFile):
            return  # PostgreSQL is backed up by pg_dump (docs/deploy.md)
        await backup(services.db, store.path.parent / "backups")
    except StoreError as exc:
        log.warning("daily backup failed: %s", exc)
        problem = exc.problem
        if services.throttle.first("backup"):
            # The disk that refused the copy may refuse the outbox too: then it goes directly.
            await owe_to_arbiters(services, Text("BACKUP_FAILED", {
                "error": Phrase("backup_reason", (problem,))}), fallback=direct(context.bot))
        return
    try:
        await inbox.prune(services.db)
    except StoreError as exc:  # tried again tomorrow; nothing is lost by waiting
        log.warning("inbox not pruned: %s", exc)


AT_MOMENT = "at-moment"
"""The jobs at each coming deadline and reminder."""
LATE = 0.05
"""Seconds after the moment a job runs, so the moment has surely come by the bot's clock."""


class AfterChanges:
    """What follows a commit that changed the club's data, off the writer's lock: a job at
    each coming deadline and reminder, so the draft reaches the arbiter when the deadline
    passes rather than at the next tick (the schedule, the start time or the deadline may
    have moved). The tick stays, as the safety net for what a restart or a clock jump
    missed; a job only runs the tick, and what it finds due is claimed in one guarded
    transition, as always. (A round's standings follow the flow that completed it:
    `results.standings_follow`.)"""

    def __init__(self, app: App) -> None:
        self.app = app
        self.version: int | None = None
        self.moments: tuple[dt.datetime, ...] = ()
        self.dirty = False
        self.planning: asyncio.Task[None] | None = None

    def changed(self) -> None:
        """After a commit (any: the version tells whether the club's data moved). One plan
        at a time; a commit during it plans once more after it."""
        self.dirty = True
        if not self.app.running:
            return  # stopping: the next start plans from the schedule as it then is
        if self.planning is None or self.planning.done():
            self.planning = self.app.create_task(self._until_clean(), name="plan-moments")

    async def _until_clean(self) -> None:
        while self.dirty:
            self.dirty = False
            await self.plan()

    async def plan(self) -> bool:
        """The jobs planned anew; False when the club's data had not changed."""
        services: Services = self.app.bot_data
        queue = self.app.job_queue
        assert queue is not None
        try:
            version = (await services.db.versions()).data
            if version == self.version:
                return False
            self.version = version
            with reading():  # the season looked up once for the settings and the schedule
                moments = tuple(await flows.coming_moments(services))
        except StoreError as exc:  # the tick still runs; the next commit plans again
            log.warning("deadlines not planned: %s", exc)
            return False
        if moments == self.moments:
            return True  # a sign-off or a result: the jobs stand as they are
        self.moments = moments
        # Only the moments that came or went: a round planned adds its two, not every job
        # again (each costs the scheduler's lock and its sorted list).
        planned = {job.data: job for job in queue.get_jobs_by_name(AT_MOMENT)}
        for moment, job in planned.items():
            if moment not in moments:
                job.schedule_removal()
        now = services.clock()
        for moment in set(moments) - set(planned):
            queue.run_once(tick, when=(moment - now).total_seconds() + LATE, name=AT_MOMENT,
                           data=moment, job_kwargs={"misfire_grace_time": None})
        return True


def schedule(app: App) -> None:
    services = app.bot_data
    queue = app.job_queue
    assert queue is not None
    # No misfire grace limit: a late tick still runs (it only looks at what is due). A tick
    # still running when the next is due makes the scheduler skip that one, and say so as a
    # warning: routine for a tick, so only its errors are shown.
    logging.getLogger("apscheduler.scheduler").setLevel(logging.ERROR)
    queue.run_repeating(tick, interval=services.settings.tick_seconds, first=0.2, name="tick",
                        job_kwargs={"misfire_grace_time": None, "coalesce": True})
    queue.run_once(warm_values, 0.2, name="warm-values")
    after = AfterChanges(app)
    services.db.commits.on(after.changed)
    after.changed()
    queue.run_daily(daily_backup, dt.time(4, 0, tzinfo=services.settings.timezone),
                    name="backup", job_kwargs={"misfire_grace_time": None, "coalesce": True})
