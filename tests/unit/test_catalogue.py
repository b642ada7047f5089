"""Issue 26: one catalogue, both languages. A message in one language only, a translation
whose placeholders or markup differ from the Dutch, or an English text still in Dutch fails
here; and the words of a language (`i18n.words`) say each text in it."""

from __future__ import annotations

import re
from fractions import Fraction

import pytest
from babel.messages.pofile import read_po

from bot.language import i18n, texts
from bot.language.catalogue import ROOT, messages
from core.errors import Problem, ProblemCode

CATALOGUE = ROOT / "bot" / "language" / "locale" / "en" / "LC_MESSAGES" / "messages.po"
PLACEHOLDER = re.compile(r"\{[^{}]*\}")
MARKUP = re.compile(r"</?[a-z]+>")
THE_SAME = {"bye", "ext", "½bye", "0bye", "Pos", "%", "W", "#", "×", "–", "w", "Pl",
            "{a} ↔ {b}", "{name} {before}→{after}",
            "• {name}: {old} → {new}", "• {mark}{name}{id} = {listed} ({knsb}, {rating}){why}",
            "{value}", "man", "{mark}{name} = {listed}", "{id}: {name}",
            "Club {id} ({name}): {check}", "rapid", "Bye", "rated", " (online)",
            "{board}. {name}", "{match}: {ours}-{theirs}.", "Team: {match}.",
            "{team} {place} {opponent}", "{board}. {name}: {result}"}
"""Messages English writes as Dutch does: symbols, results, abbreviations both share."""


def english() -> dict[str | tuple[str, ...], str | tuple[str, ...]]:
    with CATALOGUE.open("rb") as source:
        catalogue = read_po(source, locale="en")
    assert not [m.id for m in catalogue if m.fuzzy and m.id], "fuzzy translations"
    return {m.id: m.string for m in catalogue if m.id}


def test_every_message_is_in_both_languages():
    source, translated = messages(), set(english())
    assert not source - translated, f"in Dutch only: {sorted(map(str, source - translated))}"
    assert not translated - source, f"in English only: {sorted(map(str, translated - source))}"
    empty = [k for k, v in english().items() if not all(v if isinstance(v, tuple) else (v,))]
    assert not empty, f"no English yet: {empty}"


@pytest.mark.parametrize("pattern", [PLACEHOLDER, MARKUP], ids=["placeholders", "markup"])
def test_a_translation_has_the_placeholders_and_markup_of_its_source(pattern):
    for source, target in english().items():
        sources = source if isinstance(source, tuple) else (source,)
        targets = target if isinstance(target, tuple) else (target,)
        wanted = sorted(set(pattern.findall(sources[-1])))
        for text in targets:
            assert sorted(set(pattern.findall(text))) == wanted, (source, text)


def test_the_english_is_english():
    same = {k for k, v in english().items() if k == v}
    assert same == THE_SAME


def test_texts_are_said_in_the_words_of_a_language():
    english, dutch = i18n.words("en"), i18n.words("nl")
    assert dutch(texts.ONLY_ARBITER) == texts.ONLY_ARBITER == "Dat mag alleen de wedstrijdleider."
    assert english(texts.ONLY_ARBITER) == "Only the arbiter may do that."
    assert english(texts.STANDINGS_COLUMNS)[:3] == ("Pos", "Name", "Points")
    assert english(texts.ATTENDANCE_BUTTONS) == {"play": "I play", "off": "I can't",
                                                 "ext": "External"}
    refused = Problem("rounds[2].games[0].result", ProblemCode.OUT_OF_RANGE,
                      {"value": "7", "low": "1", "high": "3", "round": "3"})
    assert texts.problem(english, refused) == \
        "rounds[2].games[0].result: 7 is outside the allowed range (1 to 3)"
    assert texts.problems_report(english, "File", (refused,)).startswith("File: 1 problem\n")
    assert texts.problems_report(english, "File", (refused, refused)).startswith(
        "File: 2 problems")
    assert texts.problems_report(dutch, "Bestand", (refused,)).startswith("Bestand: 1 probleem")
    assert dutch(texts.STANDINGS_COLUMNS)[:3] == ("Pos", "Naam", "Punten")


def test_an_unknown_language_is_the_source_language():
    assert i18n.words("de") is i18n.words("nl")


def test_numbers_and_dates_as_each_language_writes_them():
    import datetime as dt

    day = dt.date(2026, 12, 3)
    dutch, english = i18n.words("nl"), i18n.words("en")
    assert (dutch.number(Fraction(85, 2), 1), dutch.date(day, "EEE d MMM")) == ("42,5", "do 3 dec")
    assert (english.number(Fraction(85, 2), 1), english.date(day, "EEE d MMM")) == \
        ("42.5", "Thu 3 Dec")
    assert english.date(day, "EEEE d MMMM y") == "Thursday 3 December 2026"


@pytest.mark.parametrize(("code", "language"), [
    ("en", "en"), ("en-GB", "en"), ("en_US.UTF-8", "en"), ("nl", "nl"), ("nl-BE", "nl"),
    ("de", "nl"), ("", "nl"), (None, "nl"), ("C.UTF-8", "nl")])
def test_a_language_as_telegram_or_the_shell_names_it(code, language):
    assert i18n.from_code(code) == language


@pytest.mark.parametrize(("header", "language"), [
    ("en-GB,en;q=0.9,nl;q=0.8", "en"), ("nl-NL,nl;q=0.9,en;q=0.8", "nl"),
    ("de-DE,de;q=0.9,en;q=0.5", "en"), ("fr", "nl"), ("", "nl"), (None, "nl"),
    ("nl;q=0.2,en;q=0.9", "en"), ("en;q=kapot,nl", "nl")])
def test_the_browsers_language(header, language):
    assert i18n.from_accept_language(header) == language
