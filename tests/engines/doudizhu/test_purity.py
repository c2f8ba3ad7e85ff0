"""The 斗地主 engine is pure: standard library and engines.* only; no discord, asyncio or
database; no global random; nothing heavy at import time."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import engines.doudizhu

PACKAGE = Path(engines.doudizhu.__file__).parent
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


def test_only_stdlib_and_engines() -> None:
    files = sorted(PACKAGE.glob("*.py"))
    assert len(files) >= 8
    for path in files:
        for name in _imports(path):
            top = name.split(".")[0]
            assert top == "engines" or top in sys.stdlib_module_names, (path.name, name)
            assert top not in FORBIDDEN, (path.name, name)


def test_no_engines_module_imports_io_packages() -> None:
    """Every module under engines/ (shared ones and other games too): no discord, asyncio or
    database."""
    root = PACKAGE.parent
    files = sorted(root.rglob("*.py"))
    assert PACKAGE / "game.py" in files
    for path in files:
        for name in _imports(path):
            assert name.split(".")[0] not in FORBIDDEN, (str(path.relative_to(root)), name)


def test_no_global_random() -> None:
    """Only random.Random(seed) instances: no module-level random.shuffle/choice/…"""
    for path in sorted(PACKAGE.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Attribute)
                and isinstance(node.value, ast.Name)
                and node.value.id == "random"
            ):
                assert node.attr == "Random", (path.name, node.attr, node.lineno)
            if isinstance(node, ast.ImportFrom) and node.module == "random":
                assert [a.name for a in node.names] == ["Random"], path.name


def test_importing_pulls_in_nothing_forbidden() -> None:
    code = (
        "import sys, engines.doudizhu as d; "
        "d.legal_plays('33'); "
        f"bad = [m for m in sys.modules if m.split('.')[0] in {sorted(FORBIDDEN)!r}]; "
        "print(bad); assert not bad, bad"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stderr + result.stdout
