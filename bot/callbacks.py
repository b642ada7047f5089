"""Button data as values: one small frozen class per kind of button, packed into Telegram's
64 bytes as `prefix:vN:field:field` and read back by the same class, which also gives the
handler's pattern. Older versions a class still reads (`OLDER`) keep old buttons working.

The model is aiogram's `CallbackData(prefix=...)`: no handler builds data with an f-string or
takes it apart with `split(":")`.
"""

from __future__ import annotations

import dataclasses
import re
from typing import ClassVar, Self

LIMIT = 64
"""Telegram's most bytes of callback data."""
ROUND = r"[0-9]{1,6}"
BOARD = r"[0-9]{1,6}"
RESULT = r"1-0|0-1|1/2-1/2|\+-|-\+|--"
KEY = r"[0-9a-f]{12}"
"""A member's button key (`flows.members.key_of`)."""
USER = r"[0-9]{1,15}"


class Callback:
    """The data of one kind of button. Subclasses are frozen dataclasses whose fields, in
    order, are `FIELDS` (each with the pattern of its text); an `int` field is read as one."""

    PREFIX: ClassVar[str]
    VERSION: ClassVar[int] = 1
    OLDER: ClassVar[tuple[int, ...]] = ()
    """Versions still read (buttons already sent); every new button gets `VERSION`."""
    FIELDS: ClassVar[tuple[tuple[str, str], ...]] = ()
    """Each field's name and the pattern of its text, in order."""

    def pack(self) -> str:
        data = ":".join([self.PREFIX, f"v{self.VERSION}",
                         *(str(getattr(self, name)) for name, _ in self.FIELDS)])
        if len(data.encode()) > LIMIT:
            raise ValueError(f"button data over {LIMIT} bytes: {data!r}")
        return data

    @classmethod
    def pattern(cls) -> str:
        """The whole data of such a button, as a regular expression."""
        versions = "|".join(str(v) for v in (cls.VERSION, *cls.OLDER))
        return f"{re.escape(cls.PREFIX)}:v(?:{versions})" + "".join(
            f":({field})" for _, field in cls.FIELDS)

    @classmethod
    def unpack(cls, data: str) -> Self | None:
        """The button's value, or None when `data` is not of this kind."""
        found = re.fullmatch(cls.pattern(), data)
        if found is None:
            return None
        types = {f.name: f.type for f in dataclasses.fields(cls)}  # type: ignore[arg-type]
        values = [int(text) if types[name] in (int, "int") else text
                  for (name, _), text in zip(cls.FIELDS, found.groups(), strict=True)]
        return cls(*values)


def pattern(kinds: tuple[type[Callback], ...]) -> str:
    """The pattern of a handler that takes any of these kinds."""
    return "|".join(f"(?:{kind.pattern()})" for kind in kinds)


def unpack(kinds: tuple[type[Callback], ...], data: str | None) -> Callback | None:
    """The first kind that reads `data`, or None (a stale or forged button)."""
    if not isinstance(data, str):
        return None
    return next((found for kind in kinds if (found := kind.unpack(data)) is not None), None)


@dataclasses.dataclass(frozen=True, slots=True)
class Attendance(Callback):
    """Ik speel / Ik kan niet / Extern under a reminder."""

    PREFIX = "att"
    FIELDS = (("round", ROUND), ("choice", "play|off|ext"))
    round: int
    choice: str


@dataclasses.dataclass(frozen=True, slots=True)
class Here(Callback):
    """Ik ben er, for a round paired at the venue."""

    PREFIX = "hier"
    FIELDS = (("round", ROUND),)
    round: int


@dataclasses.dataclass(frozen=True, slots=True)
class _BoardResult(Callback):
    """A result on a board of a round (white first)."""

    FIELDS = (("round", ROUND), ("board", BOARD), ("result", RESULT))
    round: int
    board: int
    result: str


class Report(_BoardResult):
    """A result tapped under one's own pairing message."""

    __slots__ = ()
    PREFIX = "uit"


class ReportFor(_BoardResult):
    """The round a result typed without one is for, tapped under the question which."""

    __slots__ = ()
    PREFIX = "uitr"


class Confirm(_BoardResult):
    """The opponent's "Klopt" to a reported result."""

    __slots__ = ()
    PREFIX = "res"


class Dispute(_BoardResult):
    """The opponent's "Klopt niet" to a reported result."""

    __slots__ = ()
    PREFIX = "resno"


@dataclasses.dataclass(frozen=True, slots=True)
class NightRound(Callback):
    """The round `/indeling afwezig|erbij NAAM` meant, tapped where two rounds fit."""

    PREFIX = "avond"
    FIELDS = (("change", "afwezig|erbij"), ("round", ROUND), ("key", KEY))
    change: str
    round: int
    key: str


@dataclasses.dataclass(frozen=True, slots=True)
class Swap(Callback):
    """The arbiter's choice of whom a swap meant."""

    PREFIX = "swap"
    FIELDS = (("first", KEY), ("second", KEY))
    first: str
    second: str


@dataclasses.dataclass(frozen=True, slots=True)
class Choose(Callback):
    """"Ik ben ...": the member picks himself among names that fit. Version 1 carried the
    player's code, version 2 his key."""

    PREFIX = "ik"
    VERSION = 2
    OLDER = (1,)
    FIELDS = (("key", r"[^:]+"),)
    key: str


@dataclasses.dataclass(frozen=True, slots=True)
class _MemberUser(Callback):
    """A member (his key; version 1 named his code) and a Telegram user."""

    VERSION = 2
    OLDER = (1,)
    FIELDS = (("key", r"[^:]+"), ("user", USER))
    key: str
    user: int


class Link(_MemberUser):
    """The arbiter's "Ja, koppel": link the Telegram user to the member."""

    __slots__ = ()
    PREFIX = "link"


class TakeOver(_MemberUser):
    """The arbiter's second "Ja": the member was linked to another user, who loses him."""

    __slots__ = ()
    PREFIX = "take"


@dataclasses.dataclass(frozen=True, slots=True)
class NoLink(Callback):
    """The arbiter's "Nee": the user is not linked."""

    PREFIX = "nolink"
    VERSION = 2
    OLDER = (1,)
    FIELDS = (("user", USER),)
    user: int


@dataclasses.dataclass(frozen=True, slots=True)
class Rating(Callback):
    """The rating list's proposal: accept close match `c<k>`, apply it (`ok`), or not (`no`)."""

    PREFIX = "rat"
    FIELDS = (("proposal", r"[0-9]{1,9}"), ("what", r"ok|no|c[0-9]{1,3}"))
    proposal: int
    what: str


@dataclasses.dataclass(frozen=True, slots=True)
class Available(Callback):
    """Ja / Nee under the question whether a member can play a team match."""

    PREFIX = "team"
    FIELDS = (("match", r"[0-9]{1,9}"), ("answer", "yes|no"))
    match: int
    answer: str


@dataclasses.dataclass(frozen=True, slots=True)
class BoardTap(Callback):
    """A board's result in a team match, tapped by its captain: 1, ½ (`h`) or 0."""

    PREFIX = "tbord"
    FIELDS = (("match", r"[0-9]{1,9}"), ("board", BOARD), ("result", "1|h|0"))
    match: int
    board: int
    result: str
