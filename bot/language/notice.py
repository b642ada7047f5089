"""What the bot says, as values: a catalogue text and its facts, a date, a sentence a catalogue
function makes, lines of these. Flows say what happened with these and never read the
catalogue or choose a language themselves; the presentation layer renders a value once per
reader, in the words of that reader's language it is given (`render(said, w)`: `bot.notices`
for the messages owed, the answer runner for a reply, the Mini App for a page).

Rendered for the chat, a value is HTML and escaped by construction: a text fact (a member's
name, a season's) is escaped where it is filled in, a fact that is itself one of these values
is not escaped twice, and nothing is escaped by hand (`markupsafe`, as Jinja does it)."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from markupsafe import Markup, escape

from bot.language import texts
from bot.language.formatting import show_date, show_moment
from bot.language.i18n import Words

_LAST_FACT = re.compile(r"\{(\w+)\}$")


@dataclass(frozen=True, slots=True)
class Text:
    """`texts.<key>` (or its entry `pick`, for a table of words such as the colours), with
    `facts` filled in; a fact that is itself a value here is rendered in the same language."""

    key: str
    facts: Mapping[str, Any] = field(default_factory=dict)
    pick: object = None
    """The entry's key in a table of words (a colour, a kind, a result)."""

    def render(self, w: Words) -> str:
        """For the chat: HTML, each text fact escaped."""
        template = self._template(w)
        if not self.facts:
            return template
        return self._trimmed(template, str(Markup(template).format(**{
            name: Markup(value.render(w)) if _is_said(value) else value
            for name, value in self.facts.items()})))

    def plain(self, w: Words) -> str:
        """For a button's label or a file: the words as they are, nothing escaped."""
        template = self._template(w)
        return self._trimmed(template, template.format(**{
            name: plain(value, w) if _is_said(value) else value
            for name, value in self.facts.items()}))

    def _template(self, w: Words) -> str:
        """The text, or its entry `pick` (nothing where a table of words leaves one out)."""
        found = w(getattr(texts, self.key))
        if self.pick is None:
            return str(found)
        return str(found.get(self.pick, "") if isinstance(found, Mapping) else found[self.pick])

    def _trimmed(self, template: str, made: str) -> str:
        """A text that ends in a fact left empty (`... {earns}` where nothing is earned)
        ends without the space before it."""
        last = _LAST_FACT.search(template)
        return made.rstrip() if last and self.facts.get(last.group(1)) == "" else made


@dataclass(frozen=True, slots=True)
class Dated:
    """A date (`do 3 dec`), or with its `zone` a moment (`do 3 dec 18:00`), as a fact of a
    notice: in the reader's words. With `today`, the year is added where it is not clear
    from it (`formatting.show_date`, also for `other_year`); a `form` (Babel's pattern, such
    as `LLLL` for the month) says the date in that form instead."""

    when: dt.date | dt.datetime | None
    zone: dt.tzinfo | None = None
    today: dt.date | None = None
    other_year: bool = False
    form: str | None = None

    def render(self, w: Words) -> str:
        return str(escape(self.plain(w)))

    def plain(self, w: Words) -> str:
        if self.zone is not None:
            assert self.when is None or isinstance(self.when, dt.datetime)
            return show_moment(w, self.when, self.zone)
        if self.form is not None and self.when is not None:
            return w.date(self.when, self.form)
        return show_date(w, self.when, self.today, other_year=self.other_year)


@dataclass(frozen=True, slots=True)
class Number:
    """A number as the reader writes it (`42,5` in Dutch, `42.5` in English)."""

    value: Fraction | int
    decimals: int

    def render(self, w: Words) -> str:
        return self.plain(w)  # digits, a comma or a point: nothing to escape

    def plain(self, w: Words) -> str:
        return w.number(self.value, self.decimals)


@dataclass(frozen=True, slots=True)
class Phrase:
    """The sentence a catalogue function makes (`texts.<name>(*args)`: counted, or put
    together from parts), in the reader's language. Its text arguments, and those in a list,
    or as a mapping's values (names by player id, a refusal's facts), are escaped before the
    function sees them; one that makes words without markup (`markup=False`) is escaped whole
    instead."""

    name: str
    args: tuple[Any, ...] = ()
    markup: bool = True

    def render(self, w: Words) -> str:
        if not self.markup:
            return str(escape(self.plain(w)))
        return str(self._made(w, *(_escaped(a, w) for a in self.args)))

    def plain(self, w: Words) -> str:
        return self._made(w, *(_plain(a, w) for a in self.args))

    def _made(self, w: Words, *args: Any) -> str:
        return str(getattr(texts, self.name)(w, *args))


@dataclass(frozen=True, slots=True)
class Lines:
    """Values (or texts of one's own, such as a name) one after another, `between` each; a
    part that says nothing (a sentence a catalogue function leaves empty) leaves no line."""

    parts: tuple[Any, ...]
    between: str = "\n"

    def render(self, w: Words) -> str:
        made = (_html(p, w) for p in self.parts)
        return str(Markup(self.between).join(m for m in made if m))

    def plain(self, w: Words) -> str:
        made = (plain(p, w) if _is_said(p) else str(p) for p in self.parts)
        return self.between.join(m for m in made if m)


@dataclass(frozen=True, slots=True)
class Pre:
    """A table in a fixed font, as made for a phone (`bot.files.tables`), with its `title` in
    bold above it where it has one."""

    text: str
    title: Any = None

    def render(self, w: Words) -> str:
        table = Markup("<pre>{}</pre>").format(self.text)
        if self.title is None:
            return str(table)
        return str(Markup("<b>{}</b>\n{}").format(_html(self.title, w), table))

    def plain(self, w: Words) -> str:
        return self.text if self.title is None else f"{plain(self.title, w)}\n{self.text}"


@dataclass(frozen=True, slots=True)
class Composed:
    """What the presentation layer composes itself in the reader's words (a pairing, a
    draft): `made(w)` is it, in the words `w`, as a value here or as HTML."""

    made: Callable[[Words], Any]

    def render(self, w: Words) -> str:
        return render(self.made(w), w)

    def plain(self, w: Words) -> str:
        return plain(self.made(w), w)


Said = Text | Dated | Number | Phrase | Lines | Pre | Composed | Markup
"""What a flow says: one of the values here, or HTML the presentation layer made."""


class SaidError(Exception):
    """A failure whose reason is said to a person (the administrator at the command line):
    `said`, made in his words where it is shown."""

    def __init__(self, said: Said | str) -> None:
        super().__init__(said)
        self.said = said


def render(said: Said | str, w: Words) -> str:
    """`said` for the chat, in the words `w`. A plain `str` is a text the presentation layer
    made itself and is sent as it is."""
    return said if isinstance(said, str | Markup) else said.render(w)


def plain(said: Said | str, w: Words) -> str:
    """`said` with nothing escaped (a button's label, a toast)."""
    return said if isinstance(said, str | Markup) else said.plain(w)


def lines(*parts: Any, between: str = "\n") -> Lines:
    """The parts that say something (an empty text or None leaves no line)."""
    return Lines(tuple(p for p in parts if p is not None and p != ""), between)


def _is_said(value: object) -> bool:
    return isinstance(value, Text | Dated | Number | Phrase | Lines | Pre | Composed)


def _html(value: Any, w: Words) -> Any:
    """A fact or a part, ready for HTML: a value here rendered in `w` (and not escaped
    again), anything else as markupsafe escapes it."""
    return Markup(value.render(w)) if _is_said(value) else escape(value)


def _escaped(value: Any, w: Words) -> Any:
    """A catalogue function's argument, ready to be put into HTML as it is."""
    return _each(value, lambda v: Markup(v.render(w)) if _is_said(v)
                 else escape(v) if type(v) is str else v)  # an enum's value is no one's words


def _plain(value: Any, w: Words) -> Any:
    return _each(value, lambda v: v.plain(w) if _is_said(v) else v)


def _each(value: Any, made: Callable[[Any], Any]) -> Any:
    """`made` of each text in `value`: in a list or tuple, as a mapping's value; `value`
    otherwise as it is."""
    if isinstance(value, list | tuple) and not _is_said(value):
        return type(value)(_each(v, made) for v in value)
    if isinstance(value, Mapping):
        return {k: _each(v, made) for k, v in value.items()}
    return made(value)
