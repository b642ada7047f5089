"""The project's source files parsed once per test process: the architecture tests read every
module, many of them each, and parsing them again per test took seconds."""

from __future__ import annotations

import ast
import functools
from pathlib import Path


@functools.cache
def parsed(path: Path) -> ast.Module:
    """`path`'s syntax tree (shared: read it, never change it)."""
    return ast.parse(path.read_text(encoding="utf-8"))


@functools.cache
def nodes(path: Path) -> tuple[ast.AST, ...]:
    """Every node of `path`'s tree, as `ast.walk` gives them."""
    return tuple(ast.walk(parsed(path)))
