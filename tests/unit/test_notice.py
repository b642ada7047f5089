"""Issue 48: what the bot says is a value, made once per reader by one renderer that escapes
every fact where it is filled in: never twice, never forgotten, and not at all where the words
are not HTML (a button, a file, the command line)."""

from __future__ import annotations

import ast
import datetime as dt
import html
import pickle
import re
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from bot.language import i18n, texts
from bot.language.notice import Dated, Lines, Phrase, Pre, Text, lines, plain, render
from core.pairing import Fixes
from core.rules import CompensationKind
from tests.source import nodes

HOSTILE = "Jan \"de\" O'Brien & <b>zn</b>"
NL = i18n.words("nl")


def test_a_fact_is_escaped_once_and_the_catalogues_markup_is_kept():
    said = Text("IK_WELCOME", {"name": HOSTILE})
    assert "<b>zn</b>" not in render(said, NL) and "&lt;b&gt;zn&lt;/b&gt;" in render(said, NL)
    nested = Text("DRAFT_CAME", {"name": HOSTILE, "round": 3})
    twice = Text("TRF_CHAT_UNUSABLE", {"reason": nested})
    assert render(twice, NL).count("&amp;") == 1 and "&amp;amp;" not in render(twice, NL)
    assert "<code>" in render(Text("AFMELDEN_USAGE"), NL)  # the catalogue's own markup


def test_plain_words_are_not_escaped():
    assert HOSTILE in plain(Text("IK_WELCOME", {"name": HOSTILE}), NL)
    label = plain(Text("CONFIRM_YES"), NL)
    assert plain(Lines((HOSTILE, Text("CONFIRM_YES")), " "), NL) == f"{HOSTILE} {label}"


def test_a_catalogue_functions_arguments_are_escaped_before_it_sees_them():
    fixes = Fixes(boards=(("p0", "p1"),), forbidden=frozenset({frozenset({"p0", "p2"})}))
    names = {"p0": "<b>x", "p1": "&amp;INJ5", "p2": HOSTILE}
    made = render(Text("FIXES_DROPPED", {"fixes": Phrase("fixes_words", (fixes, names))}), NL)
    assert "&lt;b&gt;x" in made and "&amp;amp;INJ5" in made and "<b>" not in made
    assert "&amp;amp;amp;" not in made  # not escaped a second time on the way out


def test_lines_leave_out_what_says_nothing_and_a_text_ends_without_an_empty_last_fact():
    assert render(lines("a", None, "", "b"), NL) == "a\nb"
    nothing = Text("SIGNED_OFF_FOR", pick=CompensationKind.NOTICE)  # no words for a notice
    assert render(Lines(("a", nothing, "b")), NL) == "a\nb"
    signed = Text("SIGNED_OFF", {"who": "Anna", "round": 2, "date": Dated(dt.date(2026, 12, 3)),
                                 "kind": "", "earns": ""})
    assert not render(signed, NL).endswith(" ") and render(signed, NL).endswith(".")


def test_a_table_is_preformatted_and_escaped():
    assert render(Pre("1  <Anna>", Text("SUBGROUP_TITLE", {"group": 1})), NL) == \
        f"<b>{render(Text('SUBGROUP_TITLE', {'group': 1}), NL)}</b>\n<pre>1  &lt;Anna&gt;</pre>"


def test_a_value_speaks_the_language_it_is_made_in():
    said = Text("ROOM_HERE", {"name": "Anna", "round": 2, "count": 5})
    english = render(said, i18n.words("en"))
    assert english != render(said, NL) and "Anna" in english


def test_a_value_crosses_to_the_standings_worker_and_back():
    said = Lines((Text("CHAMPION", {"name": HOSTILE}), Pre("x")))
    assert pickle.loads(pickle.dumps(said)) == said


@given(st.text())
def test_no_name_becomes_markup_and_none_loses_a_letter(name):
    made, bare = (render(Text("IK_WELCOME", {"name": n}), NL) for n in (name, ""))
    assert made.count("<") == bare.count("<") and made.count(">") == bare.count(">")
    assert html.unescape(made) == plain(Text("IK_WELCOME", {"name": name}), NL)


def test_every_key_the_bot_names_is_in_the_catalogue():
    """A value names its text by key, checked only when it is said: a key mistyped in a flow
    or a handler would be a traceback in front of a member. Every literal key the bot names
    (`Text("KEY")`, `Phrase("function")`) is in the catalogue."""
    named = []
    for path in (Path(__file__).resolve().parents[2] / "bot").rglob("*.py"):
        for node in nodes(path):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) \
                    and node.func.id in ("Text", "Phrase") and node.args \
                    and isinstance(node.args[0], ast.Constant):
                named.append((node.func.id, node.args[0].value, f"{path.name}:{node.lineno}"))
    assert len(named) > 300  # the scan sees the bot's values
    missing = [where for kind, key, where in named
               if not (callable(vars(texts).get(key)) if kind == "Phrase" else key in vars(texts))]
    assert not missing


def test_every_text_the_bot_says_is_given_the_facts_its_words_need():
    """A fact a text's words name and its `Text` does not give would be a traceback when it
    is said (the catalogue test holds the English to the Dutch's facts)."""
    short = []
    for path in (Path(__file__).resolve().parents[2] / "bot").rglob("*.py"):
        for node in nodes(path):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                    and node.func.id == "Text" and node.args
                    and isinstance(node.args[0], ast.Constant)
                    and not any(k.arg == "pick" for k in node.keywords)):
                continue
            given = node.args[1] if len(node.args) > 1 else None
            if given is not None and not isinstance(given, ast.Dict):
                continue  # facts made elsewhere: the bot tests say them
            keys = set() if given is None else {k.value for k in given.keys
                                                if isinstance(k, ast.Constant)}
            needed = set(re.findall(r"\{(\w+)[^}]*\}", str(vars(texts)[node.args[0].value])))
            if needed - keys:
                short.append(f"{path.name}:{node.lineno} {sorted(needed - keys)}")
    assert not short


def test_a_test_finds_a_fact_as_the_chat_and_as_the_command_line_write_it():
    """`tests.meaning.fits` holds whatever the wording: a name with markup's characters in
    it is found escaped in the chat's HTML and as it is in plain words."""
    from tests.meaning import fits

    said = Text("IK_WELCOME", {"name": HOSTILE})
    assert fits(render(said, NL), "IK_WELCOME", name=HOSTILE)
    assert fits(plain(said, NL), "IK_WELCOME", name=HOSTILE)
    assert not fits(render(said, NL), "IK_WELCOME", name="Jan")
