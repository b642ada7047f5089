"""`core` is the pure domain: it imports nothing of storage, bot, Telegram or the database."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
FORBIDDEN = {"storage", "bot", "telegram", "aiosqlite", "sqlite3", "asyncio", "httpx"}
LAYERS = {"core": {"storage", "bot"}, "storage": {"bot"}}


def imported_roots(path: Path) -> set[str]:
    roots = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            roots |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            roots.add(node.module.split(".")[0])
    return roots


@pytest.mark.parametrize("path", sorted((ROOT / "core").rglob("*.py")),
                         ids=lambda p: str(p.relative_to(ROOT)))
def test_core_is_pure(path):
    assert not imported_roots(path) & FORBIDDEN


@pytest.mark.parametrize("layer", sorted(LAYERS))
def test_imports_point_one_way(layer):
    for path in (ROOT / layer).rglob("*.py"):
        assert not imported_roots(path) & LAYERS[layer], path
