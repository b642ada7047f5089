"""The Mini App's taps, declared as the chat's commands are (`bot.telegram.grammar`): each
page's taps by the fields their JSON carries (a name, a type, the values it may take), in
order, each with what it asks for. The server reads a tap against its page's forms; one that
fits none changes nothing and is refused (400), as words no form takes get a command's
usage. What a tap then does is the same flow the chat's command runs."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from bot.flows.board import BOARD_ACTIONS, ROOM_ACTIONS


@dataclass(frozen=True, slots=True)
class Field:
    """One field of a tap's JSON: its name, its type, and (`values`) the values it may
    take. An `optional` field may be left out (then it is None)."""

    name: str
    kind: type
    values: frozenset[Any] | None = None
    optional: bool = False

    def read(self, tap: Mapping[str, Any]) -> tuple[bool, Any]:
        """Whether the tap's field fits, and its value."""
        if self.name not in tap:
            return self.optional, None
        value = tap[self.name]
        # JSON's true is no number here, though Python's bool is an int.
        fits = type(value) is self.kind and (self.values is None or value in self.values)
        return fits, value


@dataclass(frozen=True, slots=True)
class TapForm:
    """One way a page is tapped: its fields, and what it asks for (`ask`, a name its page's
    runner knows)."""

    ask: str
    fields: tuple[Field, ...]


def read(forms: tuple[TapForm, ...], tap: object) -> tuple[str, dict[str, Any]] | None:
    """The first form the tap fits, and its values by name; None when it fits none."""
    if not isinstance(tap, Mapping):
        return None
    for form in forms:
        values = {}
        for field in form.fields:
            fits, value = field.read(tap)
            if not fits:
                break
            values[field.name] = value
        else:
            return form.ask, values
    return None


ROUND = Field("round", int)
VERSION = Field("version", str)
"""The board's version the tap was made on: a board changed meanwhile changes nothing."""

SEASON = (
    TapForm("here", (ROUND, Field("here", bool, frozenset({True})))),
    TapForm("play", (ROUND, Field("play", bool))),
)
"""A member's season (`mij-seizoen`): he is in the room for a round at the venue, or he
plays a round (or not), as Ik ben er and /afmelden say in the chat."""

_ACTIONS = frozenset((*BOARD_ACTIONS, *ROOM_ACTIONS))
BOARD = (
    TapForm("board", (Field("action", str, frozenset({"publish", "pair"})), VERSION)),
    TapForm("board", (Field("action", str, frozenset({"swap", "apart", "meet"})), VERSION,
                      Field("a", str), Field("b", str))),
    TapForm("board", (Field("action", str, _ACTIONS - {"publish", "pair", "swap", "apart",
                                                       "meet"}),
                      VERSION, Field("a", str))),
)
"""The arbiter's board (`mij-bord`): what `/indeling ruil|bye|afwezig|erbij|bevestig|maak`
and `/instellingen nooit` do in the chat, on the draft (or the room) he sees."""
