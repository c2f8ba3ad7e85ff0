"""记牌器 (card counter): how many of each rank are still out, as a seat may know it.

The QQ client sold it as a prop: a row of the ranks from 大王 down to 3, each with the number
of its cards neither in the player's hand nor played yet. Every 斗地主 variant shows the same
row from its own counts (two decks: up to 8 of a rank and 2 of each joker).

>>> counter_text([4] * 13 + [1, 1])
'R×1 B×1 2×4 A×4 K×4 Q×4 J×4 T×4 9×4 8×4 7×4 6×4 5×4 4×4 3×4'
>>> counter_text([0] * 12 + [8, 2, 0])
'R×0 B×2 2×8 A×0 K×0 Q×0 J×0 T×0 9×0 8×0 7×0 6×0 5×0 4×0 3×0'
"""

from __future__ import annotations

from collections.abc import Sequence

from engines.doudizhu.notation import NRANKS, RANKS

MODES = ("auto", "on", "off")
"""Values of the room option ``counter``: on, off, or "auto" (on in free rooms, coefficient 0:
the QQ client sold the 记牌器 as a prop in the bean rooms)."""


def counter_shown(mode: str, coefficient: int) -> bool:
    """Whether seats see the 记牌器 under option ``mode`` in a room of this ``coefficient``.

    >>> counter_shown("auto", 0), counter_shown("auto", 50), counter_shown("on", 50)
    (True, False, True)
    """
    return mode == "on" or mode == "auto" and coefficient == 0


def counter_text(out: Sequence[int]) -> str:
    """The 记牌器 row for ``out`` (cards still out per rank, notation order ``3``…``2 B R``),
    from the big joker down, every rank listed (a 0 tells as much as a 4).

    Raises ValueError for a count below 0 (a card counted twice) or a wrong length."""
    if len(out) != NRANKS or min(out) < 0:
        raise ValueError(f"bad 记牌器 counts {list(out)}")
    return " ".join(f"{RANKS[r]}×{out[r]}" for r in reversed(range(NRANKS)))
