"""Which language the bot speaks, and its words in it: gettext catalogues through Babel, with
Dutch the source language (the messages are the Dutch texts themselves) and English beside it.

The language is a value the presentation layer is given, never ambient: `words(language)` is
the catalogue in one language, and whatever makes a sentence for a reader (the answer runner,
the messages owed, a page, the command line) takes it and says its texts through it:
`w(texts.KEY)` for a text, `texts.fn(w, ...)` for a sentence a catalogue function makes,
`w.number` and `w.date` for numbers and dates as the reader writes them.

The catalogues are `bot/language/locale/<language>/LC_MESSAGES/messages.po`, kept with `pybabel
extract/update` (docs/bot.md); they are compiled when first used, so a clone runs as it is.
"""

from __future__ import annotations

import datetime as dt
import functools
import io
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import TypeVar

from babel.support import NullTranslations, Translations

from core.numbers import format_number

SOURCE = "nl"
LANGUAGES = ("nl", "en")
"""Every language the bot speaks; the first is the source of the others."""
LOCALE = Path(__file__).parent / "locale"
DOMAIN = "messages"


def from_code(code: str | None, default: str = SOURCE) -> str:
    """A language as Telegram or a browser names it (`en-GB`, `nl`, `en_US.UTF-8`) as one
    the bot speaks; `default` for any other."""
    base = (code or "").replace("_", "-").split("-")[0].split(".")[0].lower()
    return base if base in LANGUAGES else default


def from_accept_language(header: str | None, default: str = SOURCE) -> str:
    """The first language of an `Accept-Language` header that the bot speaks."""
    weighted = []
    for k, part in enumerate((header or "").split(",")):
        name, _, quality = part.strip().partition(";q=")
        try:
            weight = float(quality) if quality else 1.0
        except ValueError:
            continue
        weighted.append((-weight, k, name))
    for _weight, _k, name in sorted(weighted):
        if from_code(name, "") in LANGUAGES:
            return from_code(name)
    return default


@functools.cache
def translations(language: str) -> NullTranslations:
    """The catalogue of `language`, compiled from its `.po` file on first use."""
    if language == SOURCE:
        return NullTranslations()
    from babel.messages.mofile import write_mo  # only once per language
    from babel.messages.pofile import read_po

    with (LOCALE / language / "LC_MESSAGES" / f"{DOMAIN}.po").open("rb") as source:
        catalogue = read_po(source, locale=language)
    compiled = io.BytesIO()
    write_mo(compiled, catalogue)
    compiled.seek(0)
    return Translations(compiled, domain=DOMAIN)


T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Words:
    """The bot's words in one `language`: its texts, numbers and dates as that reader writes
    them (`words(language)`)."""

    language: str
    catalogue: NullTranslations

    def _(self, message: str) -> str:
        """`message` (Dutch, the source) in this language."""
        return self.catalogue.gettext(message) if message else message

    def ngettext(self, singular: str, plural: str, count: int) -> str:
        return self.catalogue.ngettext(singular, plural, count)

    def __call__(self, value: T) -> T:
        """A text, or the texts in a tuple or as a mapping's values, in this language;
        anything else as it is."""
        if self.language == SOURCE:
            return value
        if isinstance(value, str):
            return self._(value)  # type: ignore[return-value]
        if isinstance(value, tuple) and all(isinstance(v, str) for v in value):
            return tuple(self._(v) for v in value)  # type: ignore[return-value]
        if isinstance(value, Mapping):
            return {k: self(v) for k, v in value.items()}  # type: ignore[return-value]
        return value

    def number(self, value: Fraction | int | float, decimals: int) -> str:
        """A number as the language writes it: `42,5` in Dutch, `42.5` in English."""
        return format_number(Fraction(value), decimals, comma=self.language == "nl")

    def date(self, day: dt.date, form: str) -> str:
        """A day in Babel's pattern `form` (`EEE d MMM`) in this language."""
        from babel.dates import format_date

        return format_date(day, form, locale=self.language)


def words(language: str) -> Words:
    """The bot's words in `language` (an unknown one is the source language)."""
    return _words(language if language in LANGUAGES else SOURCE)


@functools.cache
def _words(language: str) -> Words:
    return Words(language, translations(language))
