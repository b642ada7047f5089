"""Club stores for tests, made from copies: a test process migrates a store file (and fills
it with a season) once, and each test that needs one copies it. Migrating anew costs a
SQLite store about 50 ms of CPU, and hundreds of tests need one (docs/performance.md)."""

from __future__ import annotations

import atexit
import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path

from core.season import Season
from storage.db import Database
from storage.seasons import import_season
from storage.store import open_store

_TEMPLATES: dict[str, Path] = {}
"""Store files this test process made once, by what they hold: copied, not made again."""


async def template(name: str, season: Callable[[], Season] | None = None) -> Path:
    """The store file `name`: migrated, and holding the season `season` makes if given."""
    if name not in _TEMPLATES:
        folder = Path(tempfile.mkdtemp(prefix="keizer-template-"))
        atexit.register(shutil.rmtree, folder, ignore_errors=True)
        db = await open_store(folder / "keizer.db")
        try:
            if season is not None:
                await import_season(db, season())
        finally:
            await db.close()  # the WAL folded in: the file alone is the store
        _TEMPLATES[name] = folder / "keizer.db"
    return _TEMPLATES[name]


async def new_store(path: Path | str) -> Database:
    """A new club store at `path`. A database file is a copy of one this test process
    migrated once (the runner's own tests make theirs anew); a PostgreSQL address is opened
    as it is."""
    if isinstance(path, str):
        return await open_store(path)
    shutil.copy2(await template("migrated"), path)  # its mode too: private, as the store
    return await open_store(path)
