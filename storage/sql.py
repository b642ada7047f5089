"""What the repositories ask of a connection, whichever database it is: aiosqlite's for SQLite,
`storage.postgres.PgConnection` for PostgreSQL. SQL is written with `?` for each value."""

from __future__ import annotations

from collections.abc import Generator, Iterable, Sequence
from types import TracebackType
from typing import Any, Protocol

POSTGRES_SCHEMES = ("postgresql://", "postgres://")
"""A store address in these is a PostgreSQL database; anything else a SQLite file."""


class Row(Protocol):
    """A row, read by column index or by name."""

    def __getitem__(self, key: Any, /) -> Any: ...

    def keys(self) -> Any: ...


class Cursor(Protocol):
    @property
    def rowcount(self) -> int: ...

    async def fetchone(self) -> Row | None: ...

    async def fetchall(self) -> Iterable[Row]: ...


class Statement(Protocol):
    """A statement under way: awaited, its cursor; in `async with`, the cursor, closed after."""

    def __await__(self) -> Generator[Any, None, Cursor]: ...

    async def __aenter__(self) -> Cursor: ...

    async def __aexit__(self, kind: type[BaseException] | None, error: BaseException | None,
                        trace: TracebackType | None) -> Any: ...


class Connection(Protocol):
    def execute(self, sql: str, parameters: Sequence[Any] = ..., /) -> Statement: ...

    async def executemany(self, sql: str, parameters: Iterable[Sequence[Any]], /) -> Any: ...


class Link(Connection, Protocol):
    """A connection the store holds open: it also ends transactions."""

    @property
    def in_transaction(self) -> bool: ...

    async def commit(self) -> None: ...

    async def rollback(self) -> None: ...

    async def close(self) -> None: ...
