"""Consistent copies of the live database (SQLite's online backup API), keeping the newest."""

from __future__ import annotations

import datetime as dt
import logging
import sqlite3
from pathlib import Path

from storage.db import Database

log = logging.getLogger(__name__)

KEEP = 14
PREFIX = "keizer-"


async def backup(db: Database, directory: Path, *, keep: int = KEEP) -> Path:
    """Copy the database into `directory` as keizer-YYYYMMDD-HHMMSS.db while it stays in use,
    then delete all but the newest `keep` copies."""
    directory.mkdir(parents=True, exist_ok=True)
    stamp = dt.datetime.now(dt.UTC).strftime("%Y%m%d-%H%M%S-%f")
    target = directory / f"{PREFIX}{stamp}.db"
    partial = target.with_suffix(".part")
    # aiosqlite runs the copy on its own thread, so the target may not insist on ours.
    conn = sqlite3.connect(partial, check_same_thread=False)
    try:
        await db.reader.backup(conn)
    finally:
        conn.close()
    partial.rename(target)  # a copy is either whole or absent
    for old in sorted(directory.glob(f"{PREFIX}*.db"))[:-keep]:
        old.unlink()
        log.info("removed old backup %s", old.name)
    log.info("backup written to %s", target)
    return target
