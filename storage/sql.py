"""What the repositories ask of a connection, whichever database it is: aiosqlite's for SQLite,
`storage.postgres.PgConnection` for PostgreSQL. SQL is written with `?` for each value."""

from __future__ import annotations

from collections.abc import Generator, Iterable, Iterator, Sequence
from types import TracebackType
from typing import Any, Protocol

POSTGRES_SCHEMES = ("postgresql://", "postgres://")
"""A store address in these is a PostgreSQL database; anything else a SQLite file."""


class Row(Protocol):
    """A row, read by column index or by name; iterated, its values."""

    def __getitem__(self, key: Any, /) -> Any: ...

    def __iter__(self) -> Iterator[Any]: ...

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


class Runs(Protocol):
    """A connection that runs a statement at once and hands back its rows read."""

    async def run(self, sql: str, parameters: Sequence[Any]) -> Rows: ...


class Rows:
    """A cursor whose rows are read already: nothing holds the connection, and reading them
    asks nothing of it."""

    def __init__(self, rows: list[Any], rowcount: int) -> None:
        self._rows, self._at, self._count = rows, 0, rowcount

    @property
    def rowcount(self) -> int:
        return self._count

    async def fetchone(self) -> Any:
        if self._at >= len(self._rows):
            return None
        self._at += 1
        return self._rows[self._at - 1]

    async def fetchall(self) -> list[Any]:
        rest, self._at = self._rows[self._at:], len(self._rows)
        return rest

    async def close(self) -> None:
        """The rows are read already."""


class Pending:
    """A statement of a `Runs` connection, run when it is awaited or entered (`Statement`)."""

    def __init__(self, conn: Runs, sql: str, parameters: Sequence[Any]) -> None:
        self.conn, self.sql, self.parameters = conn, sql, parameters

    def __await__(self) -> Generator[Any, None, Rows]:
        return self.conn.run(self.sql, self.parameters).__await__()

    async def __aenter__(self) -> Rows:
        return await self.conn.run(self.sql, self.parameters)

    async def __aexit__(self, kind: type[BaseException] | None, error: BaseException | None,
                        trace: TracebackType | None) -> None:
        return None
