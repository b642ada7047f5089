"""Consistent copies of the live database (SQLite's online backup API), keeping the newest."""

from __future__ import annotations

import datetime as dt
import errno
import logging
import sqlite3
from pathlib import Path

from storage.db import Database
from storage.errors import StoreError, StoreProblem
from storage.sqlite import SqliteLink, private_dir, private_file, storage_problem

log = logging.getLogger(__name__)

KEEP = 14
PREFIX = "keizer-"


async def backup(db: Database, directory: Path, *, keep: int = KEEP) -> Path:
    """Copy the database into `directory` as keizer-YYYYMMDD-HHMMSS.db while it stays in use,
    then delete all but the newest `keep` copies."""
    stamp = dt.datetime.now(dt.UTC).strftime("%Y%m%d-%H%M%S-%f")
    target = directory / f"{PREFIX}{stamp}.db"
    partial = target.with_suffix(".part")
    try:
        private_dir(directory)
        private_file(partial)
        # aiosqlite runs the copy on its own thread, so the target may not insist on ours.
        reader = db.reader
        assert isinstance(reader, SqliteLink), "PostgreSQL is backed up by pg_dump"
        conn = sqlite3.connect(partial, check_same_thread=False)
        try:
            await reader.raw.backup(conn)
        finally:
            conn.close()
        partial.rename(target)  # a copy is either whole or absent
    except (OSError, sqlite3.Error) as exc:
        partial.unlink(missing_ok=True)
        problem = storage_problem(exc) or (StoreProblem.DISK_FULL
                                           if getattr(exc, "errno", None) == errno.ENOSPC
                                           else StoreProblem.UNREADABLE)
        raise StoreError(problem, path=directory, reason=exc) from exc
    for old in sorted(directory.glob(f"{PREFIX}*.db"))[:-keep]:
        old.unlink()
        log.info("removed old backup %s", old.name)
    log.info("backup written to %s", target)
    return target
