"""A store's address is typed once, where the administrator's setting is read: a file or a
PostgreSQL database, its password never in what a line may show (issue 48)."""

from __future__ import annotations

import pickle
from pathlib import Path

import pytest

from storage.address import AddressError, PostgresUrl, SqliteFile, store_of

SECRET = "s3cr%2Ft"


@pytest.mark.parametrize(("written", "typed"), [
    ("data/keizer.db", SqliteFile(Path("data/keizer.db"))),
    ("  /srv/club.db ", SqliteFile(Path("/srv/club.db"))),
    ("postgresql://keizer@db/clubs", PostgresUrl("postgresql://keizer@db/clubs")),
    ("postgres://keizer@db/clubs", PostgresUrl("postgres://keizer@db/clubs")),
    ("postgresql+asyncpg://keizer@db/clubs", PostgresUrl("postgresql://keizer@db/clubs")),
])
def test_the_setting_as_written_is_typed(written, typed):
    assert store_of(written) == typed
    assert store_of(typed) is typed
    assert store_of(Path("x.db")) == SqliteFile(Path("x.db"))


def test_a_database_servers_password_is_never_shown():
    address = store_of(f"postgresql://keizer:{SECRET}@db:5432/clubs")
    assert isinstance(address, PostgresUrl)
    for shown in (str(address), repr(address), address.shown, f"{address}"):
        assert SECRET not in shown and "s3cr/t" not in shown
    assert address.shown == "postgresql://keizer@db:5432/clubs"
    assert set(address.secrets) == {SECRET, "s3cr/t"}
    assert SECRET in address.url  # the driver's alone
    assert SqliteFile(Path("a.db")).secrets == () and str(SqliteFile(Path("a.db"))) == "a.db"


def test_a_password_the_address_cannot_carry_is_refused():
    with pytest.raises(AddressError):
        store_of("postgresql://keizer:a/b@db/clubs")


def test_the_address_travels_to_the_standings_worker_whole():
    """The worker processes open the store themselves: the address crosses as it is."""
    address = PostgresUrl(f"postgresql://keizer:{SECRET}@db/clubs")
    assert pickle.loads(pickle.dumps(address)) == address
