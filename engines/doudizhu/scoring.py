"""计分: settlement of a finished hand in points (X); beans are the storage's job.

Settlement is pairwise, landlord against each farmer: the pair's amount is
``底分 × 倍数 × 地主加倍数 × 农民加倍数`` (each 加倍数 2 if that seat doubled, else 1), paid
by the losing side of the pair. With nobody doubling this is exactly the seeds' formula:
landlord ±2×底分×倍数, each farmer ∓底分×倍数.

Escape (逃跑, see ``settle_escapes``): the escaper alone pays its penalty, split equally
among its opponents; its own pairs are not settled; the other pairs settle as the hand ends.

>>> settle(3, landlord=0, landlord_won=True, stake=6, doubles=(1, 1, 1))
[12, -6, -6]
>>> settle_escapes(3, 0, False, 6, (1, 1, 1), escapes={2: 18})
[(2, 0, 18, 'ddz.transfer.escape'), (0, 1, 6, 'ddz.transfer.hand')]
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
    penalty per escaped seat (their net, as ``settle_escapes`` pays it). ``landlord`` None:
    a void hand (only penalties move)."""
    if escapes:
        points = [0] * seats
        for payer, payee, amount, _ in settle_escapes(
            seats, landlord, landlord_won, stake, doubles, escapes
        ):
            points[payer] -= amount
            points[payee] += amount
        return points
    points = [0] * seats
    if landlord is not None:
        sign = 1 if landlord_won else -1
        for f in range(seats):
            if f == landlord:
                continue
            amount = stake * doubles[landlord] * doubles[f] * sign
            points[landlord] += amount
            points[f] -= amount
    return points


def settle_escapes(
    seats: int,
    landlord: int | None,
    landlord_won: bool,
    stake: int,
    doubles: Sequence[int],
    escapes: Mapping[int, int],
) -> list[tuple[int, int, int, str]]:
    """逃跑结算: the payments (payer, payee, points, reason key) of a hand with escapes.

    First each escaper's penalty, split equally among its opponents (the landlord's are the
    farmers, a farmer's is the landlord; with no landlord, everyone else), an odd point going
    to the opponents after it in turn order; the escaper's partner gets nothing. Then the
    landlord-farmer pairs in which nobody escaped, as ``settle`` would pay them."""
    out: list[tuple[int, int, int, str]] = []
    for seat in sorted(escapes):
        if landlord is None or seat == landlord:
            opponents = [(seat + i) % seats for i in range(1, seats)]
        else:
            opponents = [landlord]
        share, extra = divmod(escapes[seat], len(opponents))
        for i, o in enumerate(opponents):
            amount = share + (1 if i < extra else 0)
            if amount:
                out.append((seat, o, amount, "ddz.transfer.escape"))
    if landlord is not None and landlord not in escapes:
        for f in range(seats):
            if f == landlord or f in escapes:
                continue
            amount = stake * doubles[landlord] * doubles[f]
            if amount:
                payer, payee = (f, landlord) if landlord_won else (landlord, f)
                out.append((payer, payee, amount, "ddz.transfer.hand"))
    return out


def escape_penalty(base: int, multiplier: int, factor: int, early: int, before_bid: bool) -> int:
    """逃跑扣分: 底分×倍数×3, or the flat 3 points when nobody had bid yet (000/001)."""
    return early if before_bid else base * multiplier * factor
