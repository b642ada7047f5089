"""One migration runner for both engines: a SQLite file and a PostgreSQL database are brought
to the newest schema by the same loop, one migration per transaction, one process at a time.

The lock is the engine's own: SQLite's write lock (`BEGIN IMMEDIATE`), PostgreSQL's advisory
lock `SCHEMA_LOCK`. The version is read again under it, so a process that waited finds the
work done and does nothing. A failed migration leaves the database at the version before it;
a database of a newer keizerbot is refused rather than touched.

Hosts of one PostgreSQL database are upgraded one at a time (docs/deploy.md): each host says
in `hosts` which schema it knows, a migration is refused while a host that knows less is
alive (unless `over_hosts`: those hosts then hand their clubs over), and a command that only
reads never migrates.
"""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import Iterator
from typing import Any, Protocol

from storage.errors import StoreError, StoreProblem
from storage.schema import MIGRATIONS, Engine, Migration, script

log = logging.getLogger(__name__)

SCHEMA_LOCK = 3
"""PostgreSQL's advisory lock the schema's upgrade holds (the store's others: storage.postgres)."""
HOST_ALIVE_SECONDS = 9.0
"""A host that said it is alive this recently is alive (it says so every few seconds)."""


class Target(Protocol):
    """A database as the runner sees it."""

    engine: Engine

    async def begin(self) -> int:
        """Begin a transaction holding the schema's lock; the version under it."""

    async def run(self, sql: str, version: int) -> None:
        """Run one migration's SQL and record `version`, in the open transaction."""

    async def end(self, ok: bool) -> None:
        """Commit (`ok`) or roll back."""

    async def hosts_behind(self, known: int) -> list[str]:
        """The hosts alive that know a schema older than `known`, in the open transaction."""


def newest() -> int:
    """The schema this keizerbot knows (the migrations looked up now: a test plays a newer
    release by giving more)."""
    return len(MIGRATIONS)


async def upgrade(target: Target, migrations: tuple[Migration, ...] | None = None, *,
                  migrate: bool = True, over_hosts: bool = False) -> int:
    """Apply the migrations `target` lacks; returns the newest version. Not `migrate`: an
    older schema is refused (a command that only reads), a new database made all the same.
    Refused while hosts of an older schema are alive, unless `over_hosts`."""
    migrations = MIGRATIONS if migrations is None else migrations
    newest = len(migrations)
    first: int | None = None
    while True:
        version = await target.begin()
        first = version if first is None else first
        ok = False
        try:
            if version > newest:
                raise StoreError(StoreProblem.NEWER_DATABASE, version=version, known=newest)
            if 0 < version < newest and version == first:
                await _may_migrate(target, version, newest, migrate=migrate,
                                   over_hosts=over_hosts)
            if version < newest:
                await target.run(script(migrations[version], target.engine), version + 1)
            ok = True
        finally:
            await target.end(ok)
        if version == newest:
            break
        log.debug("database migrated to version %d", version + 1)
    if 0 < first < newest:  # a new database is no news; an upgraded one is
        log.info("database upgraded from version %d to %d", first, newest)
    return newest


async def _may_migrate(target: Target, version: int, newest: int, *, migrate: bool,
                       over_hosts: bool) -> None:
    if not migrate:
        raise StoreError(StoreProblem.OLDER_DATABASE, version=version, known=newest)
    behind = [] if over_hosts else await target.hosts_behind(newest)
    if behind:
        raise StoreError(StoreProblem.HOSTS_BEHIND, hosts=", ".join(behind), version=version,
                         known=newest)


def statements(sql: str) -> Iterator[str]:
    """`sql`'s statements one by one (a trigger's `;` inside BEGIN ... END stays in it): SQLite
    runs a script only outside a transaction, and the lock is one."""
    buffer = ""
    for piece in sql.split(";"):
        buffer += piece + ";"
        if sqlite3.complete_statement(buffer):
            if buffer.strip(" \n;"):
                yield buffer.strip()
            buffer = ""
    if buffer.strip(" \n;"):
        yield buffer.strip().removesuffix(";")


class SqliteTarget:
    engine: Engine = "sqlite"

    def __init__(self, conn: Any) -> None:
        self.conn = conn
        """A SQLite connection (`storage.sqlite.SqliteLink`) in autocommit mode."""

    async def begin(self) -> int:
        await self.conn.execute("BEGIN IMMEDIATE")
        async with self.conn.execute("PRAGMA user_version") as cur:
            row = await cur.fetchone()
        return int(row[0]) if row else 0

    async def run(self, sql: str, version: int) -> None:
        for statement in statements(sql):
            await self.conn.execute(statement)
        await self.conn.execute(f"PRAGMA user_version = {version}")

    async def end(self, ok: bool) -> None:
        if not self.conn.in_transaction:
            return
        await (self.conn.commit() if ok else self.conn.rollback())

    async def hosts_behind(self, known: int) -> list[str]:
        return []  # a file has one bot, which its instance lock keeps out of the way


class PostgresTarget:
    engine: Engine = "postgres"

    def __init__(self, conn: Any) -> None:
        self.conn = conn
        """An asyncpg connection."""
        self._transaction: Any = None

    async def begin(self) -> int:
        self._transaction = self.conn.transaction()
        await self._transaction.start()
        await self.conn.execute("SELECT pg_advisory_xact_lock($1)", SCHEMA_LOCK)
        # The first club's rows are the ones the schema makes (its settings, its versions).
        await self.conn.execute("SELECT set_config('keizer.club', '1', true)")
        await self.conn.execute("CREATE TABLE IF NOT EXISTS schema_version "
                                "(version BIGINT NOT NULL)")
        version = await self.conn.fetchval("SELECT version FROM schema_version")
        if version is None:
            await self.conn.execute("INSERT INTO schema_version (version) VALUES (0)")
        return int(version or 0)

    async def run(self, sql: str, version: int) -> None:
        await self.conn.execute(sql)
        await self.conn.execute("UPDATE schema_version SET version = $1", version)

    async def end(self, ok: bool) -> None:
        transaction, self._transaction = self._transaction, None
        await (transaction.commit() if ok else transaction.rollback())

    async def hosts_behind(self, known: int) -> list[str]:
        """A host of a release before hosts said their schema counts as behind."""
        if not await self.conn.fetchval("SELECT to_regclass('hosts') IS NOT NULL"):
            return []
        said = await self.conn.fetchval(
            "SELECT count(*) FROM information_schema.columns WHERE table_name = 'hosts' "
            "AND column_name = 'schema' AND table_schema = current_schema()")
        rows = await self.conn.fetch(
            "SELECT id FROM hosts WHERE seen_at > now() - make_interval(secs => $1) "
            + ("AND schema < $2 " if said else "AND $2::bigint IS NOT NULL ") + "ORDER BY id",
            HOST_ALIVE_SECONDS, known)
        return [str(row["id"]) for row in rows]
