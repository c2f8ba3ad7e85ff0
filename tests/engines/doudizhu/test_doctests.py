"""The examples in the 斗地主 docstrings run as tests."""

from __future__ import annotations

import doctest

import pytest

import engines.doudizhu
from engines.doudizhu import auction, four, game, moves, notation, patterns, scoring


@pytest.mark.parametrize(
    "module", [engines.doudizhu, notation, patterns, moves, scoring, game, auction, four]
)
def test_docstring_examples(module: object) -> None:
    result = doctest.testmod(module, raise_on_error=False)  # type: ignore[arg-type]
    assert result.attempted > 0 and result.failed == 0
