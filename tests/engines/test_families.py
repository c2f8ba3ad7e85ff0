"""Families share through family modules, never through a sibling game: no game package imports
another game's package (打滚子 once read 升级's cards and texts, 够级 双扣's notation, so a change
to 双扣's notation changed 够级). A game package may import the shared modules at the top of
``engines/``, any family package, and itself; a family package may import the shared modules
and other families, never a game."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import engines
from engines import registry

ROOT = Path(engines.__file__).parent
FILES = sorted(ROOT.rglob("*.py"))
SHARED = frozenset({"base", "cards", "errors", "faces", "memo", "registry"})
"""The modules at the top of ``engines/`` every package may import."""

GAMES = frozenset(spec.game.__module__.split(".")[1] for spec in registry.specs().values())
"""The game packages: every package a registered game's class comes from."""

PACKAGES = frozenset(path.parent.name for path in FILES if path.parent.parent == ROOT)
FAMILIES = PACKAGES - GAMES
"""Family packages (``trick``, ``climbing`` …): code two or more games share, no game of their
own."""


def _package_of(path: Path) -> str | None:
    """The package under ``engines/`` a module belongs to; None for a top-level module."""
    parts = path.relative_to(ROOT).parts
    return parts[0] if len(parts) > 1 else None


def _imported(rel: Path, text: str) -> list[tuple[int, str]]:
    """Every ``engines.*`` module the module at ``rel`` (under engines/) imports, with its line,
    relative imports resolved; ``from engines import shengji`` counts as ``engines.shengji``."""
    package = ["engines", *rel.parts[:-1]]  # where relative imports start
    out: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.Import):
            out += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = package[: len(package) - node.level + 1] if node.level else []
            module = ".".join([*base, *([node.module] if node.module else [])])
            out.append((node.lineno, module))
            if module == "engines" or (node.level and not node.module):
                out += [(node.lineno, f"{module}.{alias.name}") for alias in node.names]
    return [(line, name) for line, name in out if name.split(".")[0] == "engines"]


def _allowed(importer: str | None, module: str) -> bool:
    parts = module.split(".")
    if len(parts) == 1:
        return True  # `from engines import x` is judged by its names
    target = parts[1]
    return target in SHARED or target in FAMILIES or target == importer


def test_the_families_are_found() -> None:
    assert {"shengji", "dagunzi", "shuangkou", "gouji", "mahjong", "doudizhu"} <= GAMES
    assert {"trick", "climbing"} <= FAMILIES


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_game_imports_another_game(path: Path) -> None:
    importer = _package_of(path)
    rel = path.relative_to(ROOT)
    bad = [f"line {line}: {module}" for line, module in _imported(rel, path.read_text("utf-8"))
           if not _allowed(importer, module)]
    assert not bad, f"{path.relative_to(ROOT)} ({importer}) imports another game: {bad}"


@pytest.mark.parametrize("family", sorted(FAMILIES))
def test_a_family_declares_no_game(family: str) -> None:
    """A family is shared code, not an unregistered game hiding from the check above."""
    for path in sorted((ROOT / family).rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        names = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}
        assert not {"GameSpec", "SPECS"} & names, path.relative_to(ROOT)


@pytest.mark.parametrize("text", [
    "from engines.shengji.cards import Context",
    "from ..shuangkou import notation",
    "from ..shuangkou.notation import parse_cards",
    "from engines import gouji",
    "import engines.mahjong.tiles",
    "def f():\n    from engines.shengji import rules",
])
def test_the_check_sees_a_sibling_import(text: str) -> None:
    """The checker itself: a game reading another game's module, however written, is caught;
    its own package, relatively or not, and the shared modules are not."""
    rel = Path("dagunzi", "game.py")
    assert [m for _, m in _imported(rel, text) if not _allowed("dagunzi", m)], text
    fine = "from . import rules\nfrom .rules import beats\nfrom engines.dagunzi import texts\n" \
        "from engines.base import T\nfrom engines import cards"
    assert all(_allowed("dagunzi", m) for _, m in _imported(rel, fine))
