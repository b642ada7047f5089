"""Every refusal a user can meet, with the facts that fill it, and the check that a refusal
names no internal id or field path (shared by the Dutch and English refusal tests)."""

from __future__ import annotations

import datetime as dt
import re

from bot.language.notice import Dated, Text
from core.ratings import HEADER

INTERNAL = re.compile(r"\bp\d+\b|\[\d*\]|\b(rules|rounds|fixes|players)\.|\b(expected|player|"
                      r"round|drafted|planned|locked|published|complete|odd|number|the)\b|_")


def plain_dutch(text: str) -> bool:
    """Names the arbiter typed himself (a rules parameter, a command) may stand as typed."""
    text = re.sub(r"<code>.*?</code>|regel [a-z_]+", "", text)
    return not INTERNAL.search(re.sub(r"<[^>]+>", "", text))


DEC_2 = dt.date(2026, 12, 2)


# (who, what he sends, what the bot answers: its meaning (a catalogue text and its facts,
# said exactly, in either language), the start of its Dutch words, or None for no answer)
REFUSALS = [
    ("member", "/aanmelden 1000000000000000000000000000000",
     Text("NOT_SCHEDULED", {"round": "1000000000000000000000000000000"})),
    ("member", "/afmelden ²", Text("NOT_A_ROUND", {"text": "²"})),
    ("member", "/afmelden halvebye", "Een gevraagde bye (halvebye, nulbye) kent de "
                                    "wedstrijdleider toe."),
    ("member", "/afmelden van ² t/m 3", Text("NOT_A_ROUND", {"text": "²"})),
    ("member", "/afmelden 31-2", "'31-2' is geen datum."),
    ("member", "/afmelden van 3 t/m 2", "Van ronde 3 tot ronde 2 kan niet"),
    ("member", "/afmelden 9", "Er is geen ronde 9. Bedoel je een datum? Schrijf dan bijvoorbeeld "
                              "<code>9 december</code>."),
    ("member", "/afmelden 40", Text("NOT_SCHEDULED", {"round": 40})),
    ("member", "/aanmelden 13", "Er is geen ronde 13. Bedoel je een datum?"),
    ("member", "/aanmelden 2 vakantie", Text("NOT_A_ROUND", {"text": "vakantie"})),
    ("member", "/herinnering morgen", Text("HERINNERING_USAGE")),
    ("arbiter", "/indeling afwezig Anna Visser", "Er is geen gepubliceerde ronde om te wijzigen."),
    ("arbiter", "/indeling erbij Anna Visser", "Er is geen gepubliceerde ronde om te wijzigen."),
    ("arbiter", "/speler Onbekend Iemand flexibel", Text("WHO_UNKNOWN",
                                                          {"name": "Onbekend Iemand"})),
    ("member", "/afmelden 2 dec", Text("NO_ROUND_ON_DATE", {"date": Dated(DEC_2)})),
    ("member", "/afmelden tot 1 dec", Text("BAD_RANGE", {
        "first": Text("ROUND_WORD", {"round": 1}), "last": Dated(DEC_2 - dt.timedelta(1))})),
    ("member", "/afmelden Cor Jansen 2", "Je kunt alleen jezelf af- of aanmelden, niet Cor"),
    ("member", "/aanmelden Cor Jansen 2", "Je kunt alleen jezelf af- of aanmelden, niet Cor"),
    ("member", "/uitslag 3 1-0", Text("UITSLAG_ONLY_OWN")),
    ("member", "/afmelden@andere_bot", None),
    ("arbiter", "/indeling ruil Anna Visser en Bram de Boer", Text("NO_DRAFT_YET")),
    ("arbiter", "/instellingen herinnering 99999999999",
     Text("BAD_MINUTES", {"text": "99999999999", "most": 20160})),
    ("arbiter", "/instellingen deadline 100000",
     Text("BAD_MINUTES", {"text": "100000", "most": 10080})),
    ("arbiter", "/instellingen start 25:00", "'25:00' is geen tijd."),
    ("arbiter", "/arbiter weg 1", "1 is wedstrijdleider via het configuratiebestand"),
    ("arbiter", "/ronde nieuw 1-11-2026", "zo 1 nov is al geweest."),
    ("arbiter", "/ronde nieuw 31-2", "'31-2' is geen datum."),
    ("arbiter", "/instellingen regel top_value nul", "Dat kan niet, want dan klopt het seizoen "
                                                    "niet meer: regel top_value:"),
    ("arbiter", "/instellingen regel absence_decay 0",
     "regel absence_decay: ongeldige waarde 0 (verwacht: leeg (null) of een breuk groter dan 0 "
     "en hoogstens 1)."),
    ("arbiter", '/instellingen regel compensation {"bye": {"points": "veel"}}',
     "regel compensation: verwacht een getal, maar dit is &#39;veel&#39;."),
    ("arbiter", "/instellingen regel ties munt",
     "regel ties: ongeldige waarde &#39;munt&#39; (verwacht: previous | rating)."),
    ("arbiter", "/export pdf", Text("EXPORT_UNKNOWN")),
    ("arbiter", "/instellingen web geheim", Text("INSTELLINGEN_USAGE")),
    ("arbiter", "/instellingen nooit Anna Visser en Anna Visser",
     Text("APART_SAME", {"name": "Anna Visser"})),
    ("arbiter", "/instellingen nooit Anna Visser en Onbekend Iemand",
     Text("WHO_UNKNOWN", {"name": "Onbekend Iemand"})),
    ("arbiter", "/instellingen nooit Anna Onbekend", Text("APART_WHO", {"text": "Anna Onbekend"})),
    ("arbiter", "/instellingen nooit weg Anna Visser en Bram de Boer",
     Text("APART_NOT_SET", {"a": "Anna Visser", "b": "Bram de Boer"})),
    ("arbiter", "/export vorig", Text("PREVIOUS_NONE")),
    ("arbiter", "/export trf", Text("TRF_NONE")),
    # What no form of a command's grammar takes (issue 48): its usage, or whose it is.
    ("member", "/indeling bevestig", Text("ONLY_ARBITER")),
    ("member", "/speler nieuw Cor Jansen", Text("ONLY_ARBITER")),
    ("arbiter", "/indeling maak nu", Text("INDELING_USAGE")),
    ("arbiter", "/ronde uitstel drie 17 dec", Text("RONDE_USAGE")),
    ("arbiter", "/uitslag 1 1-0 ronde een", Text("UITSLAG_USAGE_ARBITER")),
    ("member", "/uitslag 1 gewonnen", Text("UITSLAG_USAGE")),
    ("arbiter", "/extern Anna Visser 2 1 ronde een", Text("EXTERN_USAGE")),
    ("arbiter", "/speler nieuw 1800", Text("SPELER_USAGE")),
    ("arbiter", "/seizoen oud", Text("SEIZOEN_USAGE")),
    ("arbiter", "/arbiter twee", Text("ARBITER_USAGE")),
    ("arbiter", "/instellingen online tempo", Text("INSTELLINGEN_USAGE")),
    # The teams (issue 49), before the club has any.
    ("member", "/team 3", Text("TEAM_UNKNOWN", {"team": 3})),
    ("member", "/team nieuw 3 Derde", Text("ONLY_ARBITER")),
    ("arbiter", "/team 3 spelers Anna Visser", Text("TEAM_UNKNOWN", {"team": 3})),
    ("arbiter", "/team 3 aanvoerder Anna Visser", Text("TEAM_UNKNOWN", {"team": 3})),
    ("arbiter", "/team drie", Text("TEAM_USAGE")),
    ("member", "/team invaller misschien", Text("TEAM_USAGE")),
    ("member", "/team", Text("TEAM_NONE")),
    ("arbiter", "/team nieuw 0 Nul", Text("TEAM_USAGE")),
    ("arbiter", "/instellingen teamvraag 40", Text("BAD_DAYS", {"text": "40", "most": 28})),
]


FACTS = {"limit": "20", "line": "3", "name": "KLASSIEK.csv", "found": "RAPID.csv", "round": "2",
         "opponent": "7", "expected": ";".join(HEADER)}


