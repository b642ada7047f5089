"""Buttons under a message, as plain values: what a flow, a view or a handler offers, made
without Telegram's classes. The Telegram side (`bot.chat`, the sender) turns a keyboard into
Telegram's reply markup; the outbox keeps it as Telegram's JSON."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from bot.language.i18n import Words
from bot.language.notice import Text, plain

LABEL = 60
"""Button labels are cut to this many characters (Telegram shows little more)."""


@dataclass(frozen=True, slots=True)
class Button:
    """A button: it sends `data` back to the bot, opens `url`, or opens the Mini App at
    `web_app` (in a private chat only)."""

    label: str | Text
    """Its words (a catalogue text is said in the reader's language when the keyboard is
    made into Telegram's markup)."""
    data: str = ""
    url: str = ""
    web_app: str = ""

    def as_dict(self, w: Words) -> dict[str, Any]:
        """Telegram's button, as JSON, its words in `w`."""
        found: dict[str, Any] = {"text": plain(self.label, w)[:LABEL]}
        if self.data:
            found["callback_data"] = self.data
        if self.url:
            found["url"] = self.url
        if self.web_app:
            found["web_app"] = {"url": self.web_app}
        return found


@dataclass(frozen=True, slots=True)
class Keyboard:
    """Rows of buttons."""

    rows: tuple[tuple[Button, ...], ...]

    @classmethod
    def of(cls, rows: Iterable[Iterable[Button]]) -> Keyboard:
        return cls(tuple(tuple(row) for row in rows))

    @classmethod
    def row(cls, *buttons: Button) -> Keyboard:
        return cls((buttons,))

    def as_dict(self, w: Words) -> dict[str, Any]:
        """Telegram's `InlineKeyboardMarkup`, as JSON, its words in `w`."""
        return {"inline_keyboard": [[button.as_dict(w) for button in row]
                                    for row in self.rows]}
