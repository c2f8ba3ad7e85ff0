"""The climbing family's notation (engines/climbing/notation.py), shared by 双扣 and 够级."""

from __future__ import annotations

import doctest

from engines.climbing import notation


def test_doctests() -> None:
    assert doctest.testmod(notation).failed == 0
