"""What the bot or the command line means, not its words: a catalogue text and its facts,
rendered in a language (`said`, `says`), or looked for in what was said or printed (`fits`,
`meaning`, `heard`). A test that asserts on these holds whatever the wording, in either
language; only the conversations kept word for word pin words."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from markupsafe import escape

from bot.demo.fakeapi import Sent
from bot.language import texts
from bot.language.i18n import words
from bot.language.notice import Dated, Said, Text, plain, render
from storage.errors import StoreError, StoreProblem


def said(meant: Said, language: str = "nl") -> str:
    """What the bot says in the chat for a catalogue text and its facts (`Text(KEY, facts)`,
    or any value a flow says), in `language`: a test that asserts on this asserts on the
    meaning, not on the words, and holds for both languages."""
    return render(meant, words(language))


def written(meant: Said, language: str = "nl") -> str:
    """`said`, as the command line, a file or a button writes it: nothing escaped."""
    return plain(meant, words(language))


def says(key: str, /, **facts: Any) -> str:
    """`said(Text(key, facts))` in Dutch, the club's language in these tests."""
    return said(Text(key, facts))


def fits(text: str, key: str, /, language: str = "nl", pick: str | None = None,
         **facts: Any) -> bool:
    """Whether `text` holds catalogue text `key` (its entry `pick`) with these facts, in
    `language`; a fact not given may be anything (a deadline the bot worked out, a count the
    test does not care about), so a text that another one contains with more words (a
    sign-off on time, and one too late) is told apart by asserting the other is absent."""
    w = words(language)
    template = w(vars(texts)[key])  # a private table of texts too
    template = str(template if pick is None else template[pick])
    parts = re.split(r"\{(\w+)[^}]*\}", template)
    pattern = "".join(_literal(part, parts[n + 1] if n + 1 < len(parts) else None, facts)
                      if n % 2 == 0
                      else _either(_fact(facts[part], language)) if part in facts else ".*?"
                      for n, part in enumerate(parts))
    return re.search(pattern, text, re.S) is not None


def _literal(part: str, fact: str | None, facts: dict[str, Any]) -> str:
    """A template's words as a pattern; the space before a fact that may be empty (the bot
    strips it where the fact is the last of a text) may be missing."""
    if fact and fact not in facts and part.endswith(" "):
        return re.escape(part[:-1]) + " ?"
    return re.escape(part)


def meaning(key: str, /, language: str = "nl", pick: str | None = None,
            **facts: Any) -> Callable[[str], bool]:
    """`fits` as a test of a text, for waiting on a message and counting them."""
    return lambda text: fits(text, key, language, pick, **facts)


def heard(messages: list[Sent], key: str, /, **facts: Any) -> int:
    """How many of `messages` say catalogue text `key` with these facts (in Dutch)."""
    return sum(fits(m.text, key, **facts) for m in messages)


def _either(fact: str) -> str:
    """A fact as the chat writes it (escaped, as the renderer fills it in) or as the command
    line and a file write it (as it is)."""
    shown = {re.escape(fact), re.escape(str(escape(fact)))}
    return f"(?:{'|'.join(sorted(shown))})"


def _fact(value: Any, language: str) -> str:
    return value.render(words(language)) if isinstance(value, Text | Dated) else str(value)


def refused(problem: StoreProblem, language: str = "nl", **facts: object) -> str:
    """How the bot says that the store refused a change, `problem` with its facts."""
    return texts.store_problem(words(language), StoreError(problem, **facts))

