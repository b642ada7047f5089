"""A notice as a value: a catalogue text and its facts, made in its reader's language only
when it is rendered (`bot.chat.tell` renders it once per reader, inside that reader's
language). Flows say what happened with these and never choose a language themselves."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from bot.language import texts
from bot.language.formatting import show_date, show_moment


@dataclass(frozen=True, slots=True)
class Text:
    """`texts.<key>` (or its entry `pick`, for a table of words such as the colours), with
    `facts` filled in; a fact that is itself a `Text` or a `Dated` is rendered in the same
    language."""

    key: str
    facts: Mapping[str, Any] = field(default_factory=dict)
    pick: str | None = None

    def render(self) -> str:
        found = getattr(texts, self.key)
        if self.pick is not None:
            found = found[self.pick]
        if not self.facts:
            return str(found)
        return str(found).format(**{name: value.render()
                                    if isinstance(value, Text | Dated) else value
                                    for name, value in self.facts.items()})


@dataclass(frozen=True, slots=True)
class Dated:
    """A date (`do 3 dec`), or with its `zone` a moment (`do 3 dec 18:00`), as a fact of a
    notice: in the reader's words."""

    when: dt.date | dt.datetime | None
    zone: dt.tzinfo | None = None

    def render(self) -> str:
        if self.zone is not None:
            assert self.when is None or isinstance(self.when, dt.datetime)
            return show_moment(self.when, self.zone)
        return show_date(self.when)
