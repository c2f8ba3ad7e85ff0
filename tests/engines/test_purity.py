"""Every engine is pure: standard library and engines.* only (no discord, asyncio, database,
storage or bot), only seeded random.Random instances, and nothing forbidden at import time."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

import engines

ROOT = Path(engines.__file__).parent
FILES = sorted(ROOT.rglob("*.py"))
FORBIDDEN = {"discord", "asyncio", "aiosqlite", "sqlite3", "storage", "bot"}


def _imports(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.append(node.module)
    return names


def test_every_game_package_is_checked() -> None:
    packages = {path.parent.name for path in FILES if path.parent != ROOT}
    assert {"doudizhu", "niuniu", "hotpot", "gomoku"} <= packages


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_only_stdlib_and_engines(path: Path) -> None:
    for name in _imports(path):
        top = name.split(".")[0]
        assert top == "engines" or top in sys.stdlib_module_names, name
        assert top not in FORBIDDEN, name


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_global_random(path: Path) -> None:
    """Only random.Random(seed) instances: no module-level random.shuffle/choice/…"""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) \
                and node.value.id == "random":
            assert node.attr == "Random", (node.attr, node.lineno)
        if isinstance(node, ast.ImportFrom) and node.module == "random":
            assert [a.name for a in node.names] == ["Random"]


def test_importing_every_game_pulls_in_nothing_forbidden() -> None:
    code = (
        "import sys; from engines import registry; specs = registry.specs(); "
        "import engines.doudizhu as d; d.legal_plays('33'); "
        f"bad = [m for m in sys.modules if m.split('.')[0] in {sorted(FORBIDDEN)!r}]; "
        "print(bad); assert not bad, bad"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            check=False)
    assert result.returncode == 0, result.stderr + result.stdout
