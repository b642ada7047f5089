"""The commands' vocabulary in both languages: each command's English name beside its Dutch
one, and the keywords a command reads under either. The handlers accept both; the menus and
the suggestions spell the reader's."""

from __future__ import annotations

from collections.abc import Mapping

ENGLISH: Mapping[str, str] = {
    "afmelden": "signoff", "aanmelden": "signon", "uitslag": "result", "stand": "standings",
    "indeling": "pairing", "mijn": "mine", "grafiek": "chart", "agenda": "calendar",
    "ik": "iam", "herinnering": "reminder", "taal": "language", "extern": "external",
    "speler": "player", "spelers": "players", "ronde": "round", "instellingen": "settings",
    "seizoen": "season",
}
"""Each command's English name beside its Dutch one (the club's vocabulary, kept); the
commands named alike in both (`/start`, `/help`, `/export`, `/club`, `/arbiter`) are not
listed."""
WORDS: Mapping[str, str] = {
    "me": "mij", "confirm": "bevestig", "make": "maak", "again": "opnieuw", "clear": "wis",
    "swap": "ruil", "and": "en", "absent": "afwezig", "arrived": "erbij", "previous": "vorig",
    "period": "periode", "group": "groep", "crosstable": "kruistabel", "on": "aan",
    "off": "uit", "new": "nieuw", "remove": "weg", "postpone": "uitstel",
    "cancelled": "vervalt", "flexible": "flexibel", "fixed": "vast", "youth": "jeugd",
    "round": "ronde", "rule": "regel", "rules": "reglement", "reminder": "herinnering",
    "city": "plaats", "ratinglist": "ratinglijst", "language": "taal", "rapid": "rapid",
    "blitz": "snel", "classical": "klassiek", "public": "openbaar", "members": "leden",
    "clubnight": "clubavond", "otherday": "anderedag", "external": "extern",
    "halfbye": "halvebye", "zerobye": "nulbye", "draw": "remise", "never": "nooit", "all": "alles",
    "chances": "kansen", "yes": "ja", "no": "nee", "player": "speler", "clock": "tempo",
    "external-clubnight": "extern-clubavond", "external-otherday": "extern-anderedag",
}
"""The keywords of a command typed under its English name, as the Dutch command reads them
(`/pairing confirm` is `/indeling bevestig`). Dates and sign-off phrases are no keywords:
each language's grammar reads its own (`bot.dates`, `bot.phrases`)."""
