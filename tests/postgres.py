"""A real PostgreSQL server for the tests (issue 27): Debian's `postgresql`, started by the tests
in a folder of their own, on a Unix socket only. Where it is not installed the tests that need
it say so and skip; `.ci/run` installs it and sets `KEIZER_REQUIRE_POSTGRES`, so in CI they
run (and fail, never skip, if the server cannot start)."""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import fcntl
import glob
import os
import shutil
import subprocess
import tempfile
import threading
import time
import uuid
from collections.abc import Callable, Coroutine, Iterator
from pathlib import Path
from typing import Any, TypeVar

import asyncpg
import pytest

STORE_ROLE = "club_store"
"""The role the store connects as, as a hosted service's would: it owns its database."""
SUPERUSER = "keizer"
"""The servers' superuser (`initdb -U`): it makes the databases, and passes every row policy."""
T = TypeVar("T")
MISSING = "PostgreSQL is not installed here (.ci/run installs it: apt-get install postgresql)"


def binaries() -> Path | None:
    """The folder of `initdb` and `pg_ctl`: on the PATH, else where Debian puts them."""
    found = shutil.which("initdb")
    if found:
        return Path(found).resolve().parent
    folders = sorted(glob.glob("/usr/lib/postgresql/*/bin"))
    return Path(folders[-1]) if folders else None


TEMPLATE = "keizer_migrated"
"""A database of the session's server that the store's migrations made, once: `postgres`
copies it. Migrating anew cost the server 0.1-0.3 s of CPU a test (docs/performance.md)."""


SHARED = "KEIZER_TEST_POSTGRES"
"""A folder the processes of one test run share (the controller makes it before its workers
start, so their environment names it): one server for them all, started by the first worker
that asks; the controller stops it. A server of its own cost each worker 1.2 s of CPU."""
SETTINGS = "-c max_connections=300"
"""Room for every worker's clubs at once."""


def pytest_configure(config: pytest.Config) -> None:
    if getattr(config.option, "numprocesses", None) and not hasattr(config, "workerinput"):
        os.environ[SHARED] = tempfile.mkdtemp(prefix="keizer-pg-shared-")


def pytest_unconfigure(config: pytest.Config) -> None:
    if hasattr(config, "workerinput"):
        return
    folder = os.environ.pop(SHARED, None)  # a second run in this process makes its own
    if folder:
        address = Path(folder, "address")
        if address.exists():
            _stop(address.read_text())
        shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[str]:
    """The run's server (this process's, without workers); its address
    (`postgresql://...`). Its one database of ours is TEMPLATE, which `postgres` copies."""
    _installed()
    folder = os.environ.get(SHARED)
    if folder is None:
        with running_server(SETTINGS) as server:
            _with_template(server)
            yield server
        return
    with open(Path(folder, "lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # the first worker starts it, the others wait
        address = Path(folder, "address")
        if not address.exists():
            server = _start(SETTINGS)
            try:
                _with_template(server)
            except BaseException:
                _stop(server)
                raise
            address.write_text(server)
    yield address.read_text()


def _with_template(server: str) -> None:
    admin(server, f"CREATE DATABASE {TEMPLATE} OWNER {STORE_ROLE}")
    _migrated(_address(server, TEMPLATE))


def _migrated(dsn: str) -> None:
    """The store's schema made in `dsn`, on a thread of its own: an async fixture may be
    the first to ask for the server, inside its event loop."""
    from storage.store import open_store  # the tests' harness loads no store before a test

    async def migrate() -> None:
        await (await open_store(dsn)).close()

    with concurrent.futures.ThreadPoolExecutor(1) as thread:
        thread.submit(asyncio.run, migrate()).result()


@pytest.fixture
def failover() -> Iterator[tuple[str, Callable[[], None]]]:
    """`failover_pair()` for one test: a primary and its synchronous standby."""
    _installed()
    with failover_pair() as pair:
        yield pair


def _installed() -> None:
    """PostgreSQL's programs are here; where they are not, the test skips, and fails where
    they must be (CI sets KEIZER_REQUIRE_POSTGRES)."""
    if binaries() is None:
        if os.environ.get("KEIZER_REQUIRE_POSTGRES"):
            pytest.fail(MISSING)
        pytest.skip(MISSING)


@contextlib.contextmanager
def running_server(settings: str = "") -> Iterator[str]:
    """A server in a folder of its own (the tests', the benchmarks'), with `settings` for
    `postgres -c`; its address."""
    server = _start(settings)
    try:
        yield server
    finally:
        _stop(server)


def _as_postgres() -> list[str]:
    """PostgreSQL refuses to run as root: then it runs as the `postgres` user Debian's
    package makes, in a folder that user can reach."""
    return ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []


def _folder() -> str:
    """A new folder for a server's files, which the server's user can reach."""
    as_root = os.geteuid() == 0
    base = tempfile.mkdtemp(prefix="keizer-pg-", dir="/var/lib/postgresql" if as_root else None)
    if as_root:
        shutil.chown(base, "postgres")
    return base


def _start(settings: str) -> str:
    """A server started in a new folder; its address."""
    bindir = binaries()
    assert bindir is not None, MISSING
    base = _folder()
    data, log = server_data(base), os.path.join(base, "log")
    server = f"postgresql://{SUPERUSER}@/postgres?host={base}"
    try:
        subprocess.run([*_as_postgres(), str(bindir / "initdb"), "-D", data, "-U", SUPERUSER,
                        "--auth=trust", "-E", "UTF8", "--no-locale", "-N"],
                       check=True, capture_output=True, cwd="/")
        subprocess.run([*_as_postgres(), str(bindir / "pg_ctl"), "-D", data, "-l", log, "-w",
                        "-o", f"-k {base} -c listen_addresses= -c fsync=off {settings}",
                        "start"], check=True, capture_output=True, cwd="/")
        # The store's role is no superuser: a superuser passes every row policy.
        admin(server, f"CREATE ROLE {STORE_ROLE} LOGIN")
    except BaseException:
        _stop(server)
        raise
    return server


def _stop(server: str) -> None:
    """The server at `server` stopped at once, its folder gone."""
    superuser = _SUPERUSERS.pop(server, None)
    if superuser is not None:
        superuser.close()
    base = server.split("host=", 1)[1]
    _halt(server_data(base))
    shutil.rmtree(base, ignore_errors=True)


def _halt(data: str) -> None:
    """The server of the data folder `data` stopped at once, if it runs."""
    subprocess.run([*_as_postgres(), f"{binaries()}/pg_ctl", "-D", data, "-m", "immediate",
                    "stop"], capture_output=True, cwd="/")


class _Superuser:
    """The server's superuser on one connection, with an event loop of its own on a thread:
    any fixture can ask for a database, and a test's pair of them (made, dropped) costs no
    `psql` process (40 ms of CPU each, docs/performance.md)."""

    def __init__(self, server: str) -> None:
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, daemon=True,
                                        name="postgres-superuser")
        self._thread.start()
        self._conn: asyncpg.Connection = self._run(asyncpg.connect(server))

    def _run(self, work: Coroutine[Any, Any, T]) -> T:
        return asyncio.run_coroutine_threadsafe(work, self._loop).result()

    def execute(self, sql: str) -> None:
        self._run(self._conn.execute(sql))

    def close(self) -> None:
        """Gone without a word: the server is stopped next (or was killed, in a failover)."""
        self._loop.call_soon_threadsafe(self._conn.terminate)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join()
        self._loop.close()


_SUPERUSERS: dict[str, _Superuser] = {}


def admin(server: str, sql: str) -> None:
    """One statement as the server's superuser."""
    if server not in _SUPERUSERS:
        _SUPERUSERS[server] = _Superuser(server)
    _SUPERUSERS[server].execute(sql)


@pytest.fixture
def postgres(postgres_server: str) -> Iterator[str]:
    """A new database on the server for one test, the store's schema made, no club yet; its
    address."""
    with database(postgres_server, TEMPLATE) as dsn:
        yield dsn


@pytest.fixture
def empty_postgres(postgres_server: str) -> Iterator[str]:
    """A new, empty database on the server for one test (a migration's own test); its
    address."""
    with database(postgres_server) as dsn:
        yield dsn


@contextlib.contextmanager
def database(server: str, template: str = "template1") -> Iterator[str]:
    """A new database on `server`, a copy of `template` (empty: PostgreSQL's own), owned by
    the store's role; its address."""
    name, dsn = _new_database(server, template)
    try:
        yield dsn
    finally:
        admin(server, f"DROP DATABASE {name} WITH (FORCE)")


def _new_database(server: str, template: str = "template1") -> tuple[str, str]:
    name = f"t_{uuid.uuid4().hex[:12]}"
    # Copied as files, not page by page through the WAL (PostgreSQL 15's default): made and
    # dropped, 20 ms of the server's CPU instead of 50 (docs/performance.md).
    admin(server, f"CREATE DATABASE {name} OWNER {STORE_ROLE} TEMPLATE {template} "
                  "STRATEGY FILE_COPY")
    return name, _address(server, name)


async def one_value(dsn: str, sql: str) -> Any:
    """What `sql` answers on `dsn`: its first row's first column."""
    conn = await asyncpg.connect(dsn)
    try:
        return await conn.fetchval(sql)
    finally:
        await conn.close()


def _address(server: str, name: str) -> str:
    """The store's role's address of database `name` on `server`."""
    return server.replace(f"{SUPERUSER}@/postgres?", f"{STORE_ROLE}@/{name}?")


def as_superuser(dsn: str) -> str:
    """The same database as the servers' superuser."""
    return dsn.replace(f"{STORE_ROLE}@", f"{SUPERUSER}@")


@contextlib.contextmanager
def failover_pair() -> Iterator[tuple[str, Callable[[], None]]]:
    """A primary and its synchronous standby (streaming replication, `synchronous_commit =
    on`: a commit returns once the standby has it), each on a socket of its own; a database
    for the store's role on them. Yields its address naming both servers, the primary wanted
    (`target_session_attrs=read-write`), and `fail_over()`: the primary killed, the standby
    promoted in its place."""
    bindir = binaries()
    assert bindir is not None, MISSING

    def pg(*args: str) -> None:
        subprocess.run([*_as_postgres(), *args], check=True, capture_output=True, cwd="/")

    with running_server() as server:
        primary = server.split("host=", 1)[1]
        standby = _folder()
        data = server_data(standby)
        _, dsn = _new_database(server)  # gone with the servers' folders
        pg(str(bindir / "pg_basebackup"), "-D", data, "-R", "-X", "stream", "--checkpoint=fast",
           "-d", f"host={primary} user=keizer application_name=standby")
        pg(str(bindir / "pg_ctl"), "-D", data, "-l", os.path.join(standby, "log"), "-w",
           "-o", f"-k {standby} -c listen_addresses= -c fsync=off", "start")
        try:
            _until_sql(server, "SELECT count(*) FROM pg_stat_replication "
                               "WHERE state = 'streaming'", "1")
            admin(server, "ALTER SYSTEM SET synchronous_standby_names = 'standby'")
            admin(server, "SELECT pg_reload_conf()")
            _until_sql(server, "SELECT count(*) FROM pg_stat_replication "
                               "WHERE sync_state = 'sync'", "1")

            def fail_over() -> None:
                pg(str(bindir / "pg_ctl"), "-D", server_data(primary), "-m", "immediate",
                   "stop")
                pg(str(bindir / "pg_ctl"), "-D", data, "-w", "promote")

            yield dsn.replace(f"host={primary}", f"host={primary},{standby}") + \
                "&target_session_attrs=read-write", fail_over
        finally:
            _halt(data)
            shutil.rmtree(standby, ignore_errors=True)


def server_data(socket_dir: str) -> str:
    """The data folder of a server `running_server` started (beside its socket)."""
    return os.path.join(socket_dir, "data")


def _until_sql(server: str, sql: str, expected: str, *, seconds: float = 30.0) -> None:
    bindir = binaries()
    assert bindir is not None
    psql = shutil.which("psql") or str(bindir / "psql")
    deadline = time.monotonic() + seconds
    while True:
        done = subprocess.run([psql, server, "-X", "-A", "-t", "-c", sql], capture_output=True,
                              text=True)
        if done.stdout.strip() == expected:
            return
        assert time.monotonic() < deadline, (sql, done.stdout, done.stderr)
        time.sleep(0.1)
