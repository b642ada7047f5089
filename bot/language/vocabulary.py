"""The words commands are made of, in both languages: a `Key` is one word (or a few) as each
language spells it. A command's own words live with its room; the words several commands
share live here. Dates and sign-off phrases are no keywords: each language's grammar reads
its own (`bot.language.dates`, `bot.language.phrases`)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Key:
    """A keyword as each language spells it. The first spelling is the one the bot writes
    (in a suggestion, a menu); the others are read too (`ter plaatse`, `terplaatse`). A word
    is read in either language, whichever the command was typed in."""

    dutch: tuple[str, ...]
    english: tuple[str, ...]

    def spelled(self, english: bool) -> str:
        return (self.english if english else self.dutch)[0]

    @property
    def spellings(self) -> tuple[str, ...]:
        return (*self.dutch, *self.english)


def key(dutch: str | tuple[str, ...], english: str | tuple[str, ...] | None = None) -> Key:
    """A keyword; one spelled alike in both languages (`bye`, `trf`) needs no English."""
    return Key(_spellings(dutch), _spellings(dutch if english is None else english))


def _spellings(spelled: str | tuple[str, ...]) -> tuple[str, ...]:
    return (spelled,) if isinstance(spelled, str) else spelled


CONFIRM = key("bevestig", "confirm")
NEW = key("nieuw", "new")
REMOVE = key("weg", "remove")
ROUND = key("ronde", "round")
ME = key("mij", "me")
PREVIOUS = key("vorig", "previous")
ON = key("aan", "on")
OFF = key("uit", "off")
YES = key("ja", "yes")
NO = key("nee", "no")
CLUB = key("club")
AND = key("en", "and")
