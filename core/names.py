"""Dutch personal names: surname first, as the rating administration writes them, and a key
under which the spellings of one name agree (for matching a rating list to the members)."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

PARTICLES = frozenset({
    "d'", "da", "de", "del", "della", "den", "der", "des", "di", "do", "dos", "du", "el",
    "het", "in", "l'", "la", "le", "op", "'s", "'t", "te", "ten", "ter", "van", "vd", "v.d.",
    "von", "zu",
})
"""*Tussenvoegsels*: they go with the surname but not in front of it when sorting."""


@dataclass(frozen=True, slots=True)
class NameParts:
    given: str
    """First names or initials: `Jan`, `J.P.`"""
    particles: str
    """`de`, `van der`, or empty."""
    surname: str
    """Without the particles: `Vries`."""


def parts(name: str) -> NameParts:
    """`Jan de Vries`, `Vries, Jan de` and `de Vries, Jan` all give (Jan, de, Vries)."""
    if "," in name:
        family_text, given_text = name.split(",", 1)
        family, given = family_text.split(), given_text.split()
        lead = _leading_particles(family)
        trail = _trailing_particles(family[lead:])
        after = _trailing_particles(given)
        particles = family[:lead] + family[len(family) - trail:] + given[len(given) - after:]
        return NameParts(" ".join(given[:len(given) - after]), " ".join(particles),
                         " ".join(family[lead:len(family) - trail]))
    words = name.split()
    if len(words) < 2:
        return NameParts("", "", name.strip())
    end = len(words) - 1
    start = end
    while start > 1 and words[start - 1].lower() in PARTICLES:
        start -= 1
    return NameParts(" ".join(words[:start]), " ".join(words[start:end]), words[end])


def _leading_particles(words: list[str]) -> int:
    count = 0
    while count < len(words) - 1 and words[count].lower() in PARTICLES:
        count += 1
    return count


def _trailing_particles(words: list[str]) -> int:
    count = 0
    while count < len(words) - 1 and words[len(words) - 1 - count].lower() in PARTICLES:
        count += 1
    return count


def surname_first(name: str, surname: str | None = None) -> str:
    """`Jan de Vries` as `Vries, Jan de`: the Dutch alphabetical order, as the KNSB sorts. A
    `surname` the name ends with is taken as it is (`Gorrochategui Torres, Eugenio`)."""
    if surname and name.endswith(" " + surname):
        return f"{surname}, {name[:-len(surname)].strip()}"
    found = parts(name)
    if not found.given:
        return " ".join(w for w in (found.surname, found.particles) if w)
    return f"{found.surname}, {' '.join(w for w in (found.given, found.particles) if w)}"


def given_first(name: str) -> str:
    """`Vries, Jan de` as `Jan de Vries`; a name without a comma is left as it is."""
    if "," not in name:
        return " ".join(name.split())
    found = parts(name)
    return " ".join(w for w in (found.given, found.particles, found.surname) if w)


def plain(text: str) -> str:
    """Lower case, without accents or punctuation: `Ömer-Çelik` is `omer celik`."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    letters = "".join(c for c in decomposed if not unicodedata.combining(c))
    return " ".join(re.sub(r"[^\w]+", " ", letters).split())


def slug(text: str) -> str:
    """A name as an identifier: `De Toren (Ter Aar)` is `de-toren-ter-aar`."""
    return "-".join(plain(text).split())


def key(name: str) -> str:
    """The same for every spelling of one name: case, accents, particles and the order
    (`Achternaam, Voornaam`) do not count."""
    found = parts(name)
    return " ".join(w for w in (plain(found.given), plain(found.surname)) if w)


def surname_key(name: str) -> str:
    return plain(parts(name).surname)


def initials(name: str) -> str:
    """The first letters of the given names: `Jan Peter` and `J.P.` both give `jp`."""
    given = parts(name).given.replace(".", " ")
    return "".join(word[0] for word in plain(given).split())
