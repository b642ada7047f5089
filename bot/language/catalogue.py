"""The messages to translate, as `pybabel extract` finds them (`babel.cfg`): every text
`bot/language/texts.py` defines (a module-level text, or a text in a table or as a mapping's value),
every `w._("…")` and `w.ngettext("…", "…", n)` in the bot's code (`w`: the words of
one language, `bot.language.i18n.Words`), and the templates' `{{ _("…") }}`.

    uv run pybabel extract -F babel.cfg -o bot/language/locale/messages.pot --no-wrap \
        --no-location --project keizerbot --version 1 bot
    uv run pybabel update -i bot/language/locale/messages.pot -d bot/language/locale --no-wrap \
        --no-fuzzy-matching --ignore-obsolete --ignore-pot-creation-date

then translate what `update` added (empty in the `.po`); `tests/unit/test_catalogue.py` fails
until every message has its English.

The English catalogue is `bot/language/locale/en/LC_MESSAGES/messages.po`; the bot compiles it
when it first speaks English, so nothing compiled is kept in the repository.
"""

from __future__ import annotations

import ast
from collections.abc import Collection, Iterator, Mapping
from pathlib import Path
from typing import IO, Any

ROOT = Path(__file__).resolve().parents[2]
CONFIG = ROOT / "babel.cfg"

Extracted = tuple[int, str | None, str | tuple[str, ...], list[str]]
"""Babel's form: line, function, message (a tuple for a plural), comments."""


def extract_texts(fileobj: IO[bytes], keywords: Mapping[str, Any],
                  comment_tags: Collection[str],
                  options: Mapping[str, Any]) -> Iterator[Extracted]:
    """Babel's extraction method for `bot/language/texts.py`: the module's texts by their
    assignments, and the `w._`/`w.ngettext` calls of its functions."""
    tree = ast.parse(fileobj.read())
    for node in tree.body:
        value = node.value if isinstance(node, ast.Assign | ast.AnnAssign) else None
        name = _target(node)
        if value is not None and name.lstrip("_")[:1].isupper():
            for line, text in _texts(value):
                yield line, None, text, []
    for call in ast.walk(tree):
        if isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute):
            texts = [a.value for a in call.args if isinstance(a, ast.Constant)
                     and isinstance(a.value, str)]
            if call.func.attr == "_" and len(texts) == 1:
                yield call.lineno, "_", texts[0], []
            elif call.func.attr == "ngettext" and len(texts) == 2:
                yield call.lineno, "ngettext", (texts[0], texts[1]), []


def _target(node: ast.stmt) -> str:
    if isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name):
        return node.targets[0].id
    if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
        return node.target.id
    return ""


def _texts(value: ast.expr) -> Iterator[tuple[int, str]]:
    if isinstance(value, ast.Constant) and isinstance(value.value, str) and value.value:
        yield value.lineno, value.value
    elif isinstance(value, ast.Tuple):
        for element in value.elts:
            yield from _texts(element)
    elif isinstance(value, ast.Dict):
        for item in value.values:
            yield from _texts(item)


def messages() -> set[str | tuple[str, ...]]:
    """Every message the sources hold now, as `pybabel extract -F babel.cfg` finds them."""
    from babel.messages.extract import extract_from_dir

    with CONFIG.open(encoding="utf-8") as config:
        from babel.messages.frontend import parse_mapping_cfg

        method_map, options_map = parse_mapping_cfg(config)  # type: ignore[no-untyped-call]
    found = extract_from_dir(str(ROOT / "bot"), method_map, options_map,
                             keywords={"_": None, "ngettext": (1, 2)})
    return {message for _file, _line, message, _comments, _context in found}
