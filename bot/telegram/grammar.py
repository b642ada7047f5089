"""A command's grammar, declared: its name in both languages and its forms, each a row of
keywords and values and what it runs. A command's words are read against its forms in order,
and the first that takes them all runs with the values it read; words no form takes are
answered with the command's usage. No handler reads `context.args` itself.

The room runs it (`bot.telegram.room`); this module only reads words, so it is tested with
plain lists."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from bot.language.vocabulary import Key

Values = dict[str, Any]


class Token(Protocol):
    """One part of a form: it takes words from position `at`, each way it can."""

    def take(self, words: list[str], at: int) -> Iterator[tuple[int, Values]]:
        """Each way of taking words from `at`: where the next part starts, and the values
        read."""
        ...


def _keyword(spelling: str, words: list[str], at: int) -> int | None:
    parts = spelling.split()
    taken = [w.lower() for w in words[at:at + len(parts)]]
    return at + len(parts) if taken == parts else None


@dataclass(frozen=True, slots=True)
class Word:
    """A keyword, read in either language."""

    key: Key

    def take(self, words: list[str], at: int) -> Iterator[tuple[int, Values]]:
        for spelling in self.key.spellings:
            after = _keyword(spelling, words, at)
            if after is not None:
                yield after, {}
                return


@dataclass(frozen=True, slots=True)
class Choice:
    """One keyword of several, read as the value it stands for."""

    name: str
    options: Mapping[Key, Any]

    def take(self, words: list[str], at: int) -> Iterator[tuple[int, Values]]:
        for option, value in self.options.items():
            for after, _ in Word(option).take(words, at):
                yield after, {self.name: value}


@dataclass(frozen=True, slots=True)
class One:
    """One word, read by `read` (None: not this word)."""

    name: str
    read: Callable[[str], Any] = str

    def take(self, words: list[str], at: int) -> Iterator[tuple[int, Values]]:
        if at < len(words):
            value = self.read(words[at])
            if value is not None:
                yield at + 1, {self.name: value}


@dataclass(frozen=True, slots=True)
class Rest:
    """One word or more: as few as the parts after it leave (so `NAME [RATING]` reads a
    rating where the last word is one). Given as text, or (`as_words`) as the words."""

    name: str
    as_words: bool = False

    def take(self, words: list[str], at: int) -> Iterator[tuple[int, Values]]:
        for end in range(at + 1, len(words) + 1):
            taken = words[at:end]
            yield end, {self.name: taken if self.as_words else " ".join(taken)}


@dataclass(frozen=True, slots=True)
class Maybe:
    """A part that may be left out; then its values are `absent`."""

    part: Token
    absent: Values = field(default_factory=dict)

    def take(self, words: list[str], at: int) -> Iterator[tuple[int, Values]]:
        yield from self.part.take(words, at)
        yield at, self.absent


Part = Token | Key
"""A form's part as declared: a keyword stands for itself."""


def _token(part: Part) -> Token:
    return Word(part) if isinstance(part, Key) else part


@dataclass(frozen=True, slots=True)
class Row:
    """Parts one after the other, as one part (`ronde N`)."""

    parts: tuple[Token, ...]

    def take(self, words: list[str], at: int) -> Iterator[tuple[int, Values]]:
        if not self.parts:
            yield at, {}
            return
        first, *rest = self.parts
        for after, values in first.take(words, at):
            for end, more in Row(tuple(rest)).take(words, after):
                yield end, {**values, **more}


def maybe(*parts: Part, **absent: Any) -> Maybe:
    """Parts that may be left out together (`[ronde N]`): then their values are `absent`."""
    return Maybe(Row(tuple(map(_token, parts))), absent)


def flag(name: str, word: Key) -> Maybe:
    """A keyword that may be there: `name` is whether it is."""
    return Maybe(Choice(name, {word: True}), {name: False})


Run = Callable[..., Awaitable[Any]]
"""What a form runs: called with the update, its context and the values read, by name."""


@dataclass(frozen=True, slots=True)
class Form:
    """One way of typing a command, and what it runs. An `arbiter` form is the arbiter's:
    anyone else is refused (with `others`, a catalogue key, where that says more)."""

    parts: tuple[Token, ...]
    run: Run
    arbiter: bool = False
    others: str | None = None


def form(run: Run, *parts: Part, arbiter: bool = False, others: str | None = None) -> Form:
    return Form(tuple(map(_token, parts)), run, arbiter, others)


@dataclass(frozen=True, slots=True)
class Command:
    """A command: its name in both languages, its forms, and its `usage` (a catalogue key,
    or what to run) for words no form takes. An `arbiter` command is the arbiter's whatever
    is typed. A command that `reads_only` answers a question and stores nothing; one that
    `reads_first` reads outside any transaction and returns what it then stores."""

    name: Key
    forms: tuple[Form, ...]
    usage: str | Run
    arbiter: bool = False
    reads_only: bool = False
    reads_first: bool = False

    def typed_in_english(self, typed: str) -> bool:
        """Whether `typed` (the command's word, without `/`) is its English name."""
        return typed in self.name.english and typed not in self.name.dutch


def read(forms: tuple[Form, ...], words: list[str]) -> tuple[Form, Values] | None:
    """The first form that takes all the words, and the values it read."""
    for candidate in forms:
        for end, values in Row(candidate.parts).take(words, 0):
            if end == len(words):
                return candidate, values
    return None


def spelled(english: bool, name: Key, *parts: Key | str) -> str:
    """A command to suggest, in the language the asker typed his: keywords spelled in it,
    values as they are (`/pairing again`, `/indeling opnieuw`)."""
    return " ".join([f"/{name.spelled(english)}",
                     *(p.spelled(english) if isinstance(p, Key) else p for p in parts)])
