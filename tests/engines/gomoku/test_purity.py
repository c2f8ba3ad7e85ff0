"""The 五子棋 engine is pure: standard library and engines.* only, no global random."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import engines.gomoku

PACKAGE = Path(engines.gomoku.__file__).parent


def _imports(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.append(node.module)
    return names


def test_only_stdlib_and_engines() -> None:
    files = sorted(PACKAGE.glob("*.py"))
    assert len(files) >= 6
    for path in files:
        for name in _imports(path):
            top = name.split(".")[0]
            assert top == "engines" or top in sys.stdlib_module_names, (path.name, name)
            assert top not in {"random", "asyncio", "sqlite3", "discord", "aiosqlite"}, name
