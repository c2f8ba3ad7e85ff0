"""One class, one job (issue 24, item 6): no class in ``engines/`` is over 400 lines and no
function over 80, so each reads in a few screens (python-chess's ``Board`` is large but made of
small methods; a 1,000-line game class mixing deal, claims, scoring and views is not that).

Bug it guards: ``MahjongGame`` had grown to 1,158 lines and ``PaohuziGame`` to 742, each
mixing the deal, claims, kongs, settlement, props and views, so a change to one job meant
reading all of them. They are split along their jobs now; this keeps them, and every other
engine class, from growing back."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import engines

ROOT = Path(engines.__file__).parent
FILES = sorted(ROOT.rglob("*.py"))
MAX_CLASS = 400
MAX_FUNCTION = 80

ALLOWED: dict[tuple[str, str], str] = {
}
"""(module under engines/, qualified name): why it may still be over its limit for now."""


def _sizes(path: Path) -> list[tuple[str, str, int, int]]:
    """(kind, qualified name, lines, limit) of every class and function in the module at
    ``path``; a nested definition is named through its parents (``Game.view``)."""
    out: list[tuple[str, str, int, int]] = []

    def visit(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
                name = f"{prefix}{child.name}"
                assert child.end_lineno is not None
                lines = child.end_lineno - child.lineno + 1
                if isinstance(child, ast.ClassDef):
                    out.append(("class", name, lines, MAX_CLASS))
                else:
                    out.append(("function", name, lines, MAX_FUNCTION))
                visit(child, f"{name}.")
            else:
                visit(child, prefix)

    visit(ast.parse(path.read_text(encoding="utf-8")), "")
    return out


SIZES = {
    (str(path.relative_to(ROOT)), name): (kind, lines, limit)
    for path in FILES
    for kind, name, lines, limit in _sizes(path)
}


def _too_long(path: Path) -> list[str]:
    """The classes and functions of the module at ``path`` over their limit and not allowed."""
    rel = str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else path.name
    return [
        f"{kind} {name}: {lines} lines (at most {limit})"
        for kind, name, lines, limit in _sizes(path)
        if lines > limit and (rel, name) not in ALLOWED
    ]


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_class_or_function_is_too_long(path: Path) -> None:
    long = _too_long(path)
    assert not long, f"{path.relative_to(ROOT)}: split along its jobs: {long}"


@pytest.mark.parametrize("entry", sorted(ALLOWED), ids=lambda e: f"{e[0]}:{e[1]}")
def test_every_allowance_is_still_needed(entry: tuple[str, str]) -> None:
    """An allowance whose class or function is gone or within its limit is deleted, so the
    list only shrinks."""
    assert entry in SIZES, f"{entry} no longer exists: delete it from ALLOWED"
    kind, lines, limit = SIZES[entry]
    assert lines > limit, f"{kind} {entry[1]} is {lines} lines now: delete it from ALLOWED"


def _class(name: str, lines: int, method: int) -> str:
    """A class of ``lines`` lines whose first method has ``method`` lines."""
    body = ["    def job(self) -> None:", *(f"        x{i} = {i}" for i in range(method - 1))]
    body += [f"    y{i} = {i}" for i in range(lines - 1 - method)]
    return "\n".join([f"class {name}:", *body]) + "\n"


def test_the_limits_are_where_they_say(tmp_path: Path) -> None:
    """A class of 401 lines and a method of 81 are too long; 400 and 80 are not."""
    path = tmp_path / "sizes.py"
    path.write_text(_class("Big", 401, 81) + _class("Fits", 400, 80), encoding="utf-8")
    assert _too_long(path) == [
        "class Big: 401 lines (at most 400)",
        "function Big.job: 81 lines (at most 80)",
    ]
