"""The examples in the 五子棋 docstrings (notation, position text, scoring) run as tests."""

from __future__ import annotations

import doctest

import pytest

from engines.gomoku import notation, rules, scoring


@pytest.mark.parametrize("module", [notation, rules, scoring])
def test_docstring_examples(module: object) -> None:
    result = doctest.testmod(module, raise_on_error=False)  # type: ignore[arg-type]
    assert result.attempted > 0 and result.failed == 0
