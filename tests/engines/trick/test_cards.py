"""The trick family's cards (engines/trick/cards.py), shared by 升级 and 打滚子."""

from __future__ import annotations

import doctest

from engines.trick import cards


def test_doctests() -> None:
    assert doctest.testmod(cards).failed == 0
