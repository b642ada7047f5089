"""A store's address as an administrator writes it (`KEIZER_DB`, `--db`): a SQLite file's path,
or a PostgreSQL URL. A URL's password is a secret: `shown` is what a message may name, and a
password that the URL cannot carry as written is refused before anything reads it (a driver
would take `a/b` in `postgresql://u:a/b@host/db` as the host's port and say so in a
traceback that quotes it).

The address is typed once, where it is read (`store_of`): a `SqliteFile` or a `PostgresUrl`.
Nothing outside storage looks at a string to tell them apart."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import unquote, urlsplit, urlunsplit

from storage.sql import POSTGRES_SCHEMES

_DRIVER_SCHEME = re.compile(r"^(postgres(?:ql)?)\+[a-z0-9_]+://", re.IGNORECASE)
"""SQLAlchemy's form (`postgresql+asyncpg://`), which many guides write."""
_BAD_ESCAPE = re.compile(r"%(?![0-9A-Fa-f]{2})")


class AddressError(ValueError):
    """A PostgreSQL address whose user or password holds a character it must percent-encode."""


@dataclass(frozen=True, slots=True)
class SqliteFile:
    """A SQLite file: one club's store."""

    path: Path

    @property
    def shown(self) -> str:
        return str(self.path)

    @property
    def secrets(self) -> tuple[str, ...]:
        return ()

    def __str__(self) -> str:
        return self.shown


@dataclass(frozen=True, slots=True)
class PostgresUrl:
    """A PostgreSQL database: one club's store, or the clubs a host serves."""

    url: str
    """As written, password and all: for the driver only."""

    @property
    def shown(self) -> str:
        """Without its password: what a refusal or a log line may name."""
        return shown(self.url)

    @property
    def secrets(self) -> tuple[str, ...]:
        """Every spelling of its password that a message could carry."""
        return secrets_of(self.url)

    def __str__(self) -> str:
        return self.shown

    def __repr__(self) -> str:
        return f"PostgresUrl({self.shown!r})"


StoreAddress = SqliteFile | PostgresUrl


def store_of(value: str | Path | StoreAddress) -> StoreAddress:
    """`KEIZER_DB` (or `--db`) as the store takes it: a PostgreSQL address (checked), else a
    file."""
    if isinstance(value, SqliteFile | PostgresUrl):
        return value
    if isinstance(value, Path):
        return SqliteFile(value)
    value = _DRIVER_SCHEME.sub(r"\1://", value.strip())
    if not value.startswith(POSTGRES_SCHEMES):
        return SqliteFile(Path(value))
    _check_userinfo(value)
    return PostgresUrl(value)


def _check_userinfo(dsn: str) -> None:
    rest = dsn.split("://", 1)[1].split("?", 1)[0]
    if "@" not in rest:
        return
    userinfo = rest.rsplit("@", 1)[0]
    if any(c in userinfo for c in "/@#") or _BAD_ESCAPE.search(userinfo):
        raise AddressError


def password_of(dsn: str) -> str:
    """The address's password as written in it (to keep out of every log line), or ''."""
    netloc = urlsplit(dsn).netloc
    if "@" not in netloc or ":" not in netloc.rsplit("@", 1)[0]:
        return ""
    return netloc.rsplit("@", 1)[0].split(":", 1)[1]


def secrets_of(dsn: str) -> tuple[str, ...]:
    """Every spelling of the address's password that a message could carry."""
    written = password_of(dsn)
    return tuple(s for s in {written, unquote(written)} if s)


def shown(dsn: str) -> str:
    """The address without its password: what a refusal or a log line may name."""
    parts = urlsplit(dsn)
    host = parts.netloc.rsplit("@", 1)[-1]
    user = parts.netloc.rsplit("@", 1)[0].split(":", 1)[0] if "@" in parts.netloc else ""
    return urlunsplit(parts._replace(netloc=f"{user}@{host}" if user else host))
