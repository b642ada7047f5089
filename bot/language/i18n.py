"""Which language the bot speaks, and its words in it: gettext catalogues through Babel, with
Dutch the source language (the messages are the Dutch texts themselves) and English beside it.

The language is a context variable: a handler speaks the asker's language, a message to the
group the club's, a message to a member his own (`use`). `bot.texts` hands out every text in
the language of the moment; so do `_`, `ngettext`, the numbers and the dates here.

The catalogues are `bot/language/locale/<language>/LC_MESSAGES/messages.po`, kept with `pybabel
extract/update` (docs/bot.md); they are compiled when first used, so a clone runs as it is.
"""

from __future__ import annotations

import datetime as dt
import functools
import io
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
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

_current: ContextVar[str] = ContextVar("language", default=SOURCE)


def current() -> str:
    return _current.get()


def speak(language: str) -> None:
    """Speak `language` from here on in this task (an update's own task: `bot.handlers`)."""
    _current.set(language if language in LANGUAGES else SOURCE)


@contextmanager
def use(language: str) -> Iterator[None]:
    """Speak `language` inside the block (an unknown one is the source language)."""
    token = _current.set(language if language in LANGUAGES else SOURCE)
    try:
        yield
    finally:
        _current.reset(token)


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


def _(message: str) -> str:
    """`message` (Dutch, the source) in the language of the moment."""
    return translations(current()).gettext(message) if message else message


def ngettext(singular: str, plural: str, count: int) -> str:
    return translations(current()).ngettext(singular, plural, count)


T = TypeVar("T")


def translated(value: T) -> T:
    """A text, or the texts in a tuple or as a mapping's values, in the language of the
    moment; anything else as it is."""
    if current() == SOURCE:
        return value
    if isinstance(value, str):
        return _(value)  # type: ignore[return-value]
    if isinstance(value, tuple) and all(isinstance(v, str) for v in value):
        return tuple(_(v) for v in value)  # type: ignore[return-value]
    if isinstance(value, Mapping):
        return {k: translated(v) for k, v in value.items()}  # type: ignore[return-value]
    return value


def number(value: Fraction | int | float, decimals: int) -> str:
    """A number as the language writes it: `42,5` in Dutch, `42.5` in English."""
    return format_number(Fraction(value), decimals, comma=current() == "nl")


def date(day: dt.date, form: str) -> str:
    """A day in Babel's pattern `form` (`EEE d MMM`) in the language of the moment."""
    from babel.dates import format_date

    return format_date(day, form, locale=current())
