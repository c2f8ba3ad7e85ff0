"""计分: settlement of a finished hand in points (X); beans are the storage's job.

Settlement is pairwise, landlord against each farmer: the pair's amount is
``底分 × 倍数 × 地主加倍数 × 农民加倍数`` (each 加倍数 2 if that seat doubled, else 1), paid
by the losing side of the pair. With nobody doubling this is exactly the seeds' formula:
landlord ±2×底分×倍数, each farmer ∓底分×倍数.

Escape (逃跑): an escaped seat's pairs are not settled; instead it pays its penalty, shared
equally by the other seats, a remainder point going to the seats after it in turn order.
The remaining pairs settle as the hand actually ends, so the hand stays zero-sum.

>>> settle(3, landlord=0, landlord_won=True, stake=6, doubles=(1, 1, 1))
[12, -6, -6]
>>> settle(3, 0, False, 6, (1, 1, 1), escapes={2: 18})
[3, 15, -18]
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence


def settle(
    seats: int,
    landlord: int | None,
    landlord_won: bool,
    stake: int,
    doubles: Sequence[int],
    escapes: Mapping[int, int] | None = None,
) -> list[int]:
    """Points per seat. ``stake`` = 底分×倍数; ``doubles``: 1 or 2 per seat; ``escapes``:
    penalty per escaped seat. ``landlord`` None: a void hand (only penalties move)."""
    escapes = escapes or {}
    points = [0] * seats
    if landlord is not None:
        sign = 1 if landlord_won else -1
        for f in range(seats):
            if f == landlord or f in escapes or landlord in escapes:
                continue
            amount = stake * doubles[landlord] * doubles[f] * sign
            points[landlord] += amount
            points[f] -= amount
    for seat in sorted(escapes):
        penalty = escapes[seat]
        share, extra = divmod(penalty, seats - 1)
        points[seat] -= penalty
        for i in range(1, seats):
            points[(seat + i) % seats] += share + (1 if i <= extra else 0)
    return points


def escape_penalty(base: int, multiplier: int, factor: int, early: int, before_bid: bool) -> int:
    """逃跑扣分: 底分×倍数×3, or the flat 3 points when nobody had bid yet (000/001)."""
    return early if before_bid else base * multiplier * factor
