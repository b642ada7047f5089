"""A command's declared grammar (issue 48): words read into values by the first form that
takes them all, keywords in either language, suggestions spelled in the asker's."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from bot.language.vocabulary import CONFIRM, NEW, ROUND, key
from bot.telegram.grammar import Choice, One, Rest, flag, form, maybe, read, spelled
from bot.telegram.rooms.common import number


def typed(text: str) -> list[str]:
    """A command's words, as PTB gives them."""
    return text.split()


async def run(*_: object, **__: object) -> None:
    """What a form runs does not matter here: which form is read, and what values."""


async def other(*_: object, **__: object) -> None:
    """A second form's run, told apart from the first."""


ADD = form(run, NEW, Rest("name"), maybe(One("rating", number), rating=None),
           flag("youth", key("jeugd", "youth")))
NAMED_IN_ROUND = form(other, key("afwezig", "absent"), Rest("name"),
                      maybe(ROUND, One("round", number), round=None))
FORMS = (form(run), ADD, NAMED_IN_ROUND)


def test_the_values_after_a_name_are_read_as_values():
    assert read(FORMS, typed("nieuw Jan de Vries 1850 jeugd")) == \
        (ADD, {"name": "Jan de Vries", "rating": 1850, "youth": True})
    assert read(FORMS, typed("nieuw Jan de Vries")) == \
        (ADD, {"name": "Jan de Vries", "rating": None, "youth": False})


def test_keywords_are_read_in_either_language_and_any_case():
    assert read(FORMS, typed("NEW Anna 1500 Youth")) == \
        (ADD, {"name": "Anna", "rating": 1500, "youth": True})
    assert read(FORMS, typed("absent Anna Visser round 3")) == \
        (NAMED_IN_ROUND, {"name": "Anna Visser", "round": 3})


def test_a_part_left_out_together_is_left_out_whole():
    """`ronde` without a number is part of the name, not half of `[ronde N]`."""
    assert read(FORMS, typed("afwezig Anna ronde")) == \
        (NAMED_IN_ROUND, {"name": "Anna ronde", "round": None})


def test_the_first_form_that_takes_every_word_is_the_one():
    assert read(FORMS, []) == (FORMS[0], {})
    assert read(FORMS, ["nieuw"]) is None  # a name is needed
    assert read(FORMS, typed("maak")) is None
    first = form(run, NEW, flag("start", CONFIRM))
    named = form(other, NEW, Rest("name"), flag("start", CONFIRM))
    assert read((first, named), typed("nieuw bevestig")) == (first, {"start": True})
    assert read((first, named), typed("nieuw 2027 bevestig")) == \
        (named, {"name": "2027", "start": True})


def test_a_choice_is_read_as_what_it_stands_for():
    switch = form(run, Choice("on", {key("aan", "on"): True, key("uit", "off"): False}))
    assert read((switch,), ["off"]) == (switch, {"on": False})
    assert read((switch,), ["aan"]) == (switch, {"on": True})
    assert read((switch,), ["maybe"]) is None


def test_a_keyword_of_several_words_is_read_whole():
    place = form(run, Rest("date", as_words=True),
                 maybe(Choice("place", {key(("ter plaatse", "terplaatse"), "on site"): "site"}),
                       place=None))
    assert read((place,), typed("12 december ter plaatse")) == \
        (place, {"date": ["12", "december"], "place": "site"})
    assert read((place,), typed("12 december on site")) == \
        (place, {"date": ["12", "december"], "place": "site"})
    assert read((place,), typed("12 december ter")) == \
        (place, {"date": ["12", "december", "ter"], "place": None})


def test_a_suggestion_is_spelled_in_the_askers_language():
    pairing, again = key("indeling", "pairing"), key("opnieuw", "again")
    assert spelled(False, pairing, again) == "/indeling opnieuw"
    assert spelled(True, pairing, again) == "/pairing again"
    assert spelled(True, key("seizoen", "season"), NEW, "Najaar 2027", CONFIRM) == \
        "/season new Najaar 2027 confirm"


NAME_WORD = st.text(alphabet="abcdefghijklmnopqrstuvwxyzé-'", min_size=1, max_size=8)


@given(st.lists(NAME_WORD, min_size=1, max_size=5), st.none() | st.integers(1, 999),
       st.booleans())
def test_a_name_and_its_round_are_read_back_as_typed(name, round_, english):
    """Whatever the name, the round after it is read as the round, and the name whole."""
    typed = ["absent" if english else "afwezig", *name]
    if round_ is not None:
        typed += ["round" if english else "ronde", str(round_)]
    assert read(FORMS, typed) == (NAMED_IN_ROUND, {"name": " ".join(name), "round": round_})
