"""结算: how a hand's points become beans — pure integer arithmetic, no I/O.

Inputs per seat: what the seat carried into the hand (``held``, its escrow; None for a bot) and
its points X from the game; the room's coefficient N and rake A. The rule (GAMES.md §1.2 F1 and
§1.3, worked through in docs/storage.md):

1. **Rake.** Every human seat pays A to the house, capped by what it carried: ``r = min(A, held)``.
2. **Losers** (X < 0) owe ``|X|·N`` and pay ``min(|X|·N, held − r)`` into the pool: a loser is
   debited only down to what it brought to the table (带入, "只扣到0为止"), never more.
3. **Winners** (X > 0) claim ``X·N``, each capped by what that winner carried (以小博大 protection:
   you can win at most your own stake). They are paid only out of the pool: if the pool covers
   every capped claim, each receives its claim; otherwise the pool is shared in proportion to the
   nominal gains X·N, no winner above its cap (water-filling), rounded to whole beans by largest
   remainder (ties to the lower seat).
4. **Refund.** Whatever the losers paid that no winner may receive (caps, bot winners, points
   that do not sum to zero) goes back to those losers in proportion to what each paid.
5. Bots (held None) carry nothing: they pay and receive nothing, and no rake.

So a full loser's beans change by −(X·N + A) and a fully paid winner's by +(X·N − A), exactly F1,
and ``Σ deltas + Σ rake == 0``: beans are never created or lost.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction


@dataclass(frozen=True)
class SeatAmounts:
    """One seat's share: ``rake`` to the house, ``paid`` into the pool, ``won`` out of it,
    ``refund`` of its own payment. ``delta`` is the change of the seat's balance."""

    rake: int = 0
    paid: int = 0
    won: int = 0
    refund: int = 0

    @property
    def delta(self) -> int:
        return self.won + self.refund - self.paid - self.rake


def share(total: int, weights: Sequence[int], caps: Sequence[int]) -> list[int]:
    """按比例分配: split ``total`` in proportion to ``weights``, nobody above its cap.

    Returns integers summing to ``min(total, sum(caps))``. Shares whose proportional part would
    exceed their cap get the cap and the rest is re-shared among the others (water-filling);
    rounding is by largest remainder, ties to the lower index. Zero-weight entries get nothing.

    >>> share(100, [1, 1, 1], [100, 100, 100])
    [34, 33, 33]
    >>> share(100, [1, 1], [10, 1000])
    [10, 90]

    Raises ValueError for negative inputs.
    """
    if total < 0 or any(w < 0 for w in weights) or any(c < 0 for c in caps):
        raise ValueError("share() takes non-negative amounts")
    if len(weights) != len(caps):
        raise ValueError("weights and caps differ in length")
    result = [0] * len(weights)
    active = [i for i, w in enumerate(weights) if w > 0 and caps[i] > 0]
    if total >= sum(caps[i] for i in active):  # enough for everyone: all capped
        for i in active:
            result[i] = caps[i]
        return result
    remaining = total
    # Fix every entry whose proportional share reaches its cap, until none does.
    while active:
        weight = sum(weights[i] for i in active)
        capped = [i for i in active if caps[i] * weight <= remaining * weights[i]]
        if not capped:
            break
        for i in capped:
            result[i] = caps[i]
            remaining -= caps[i]
        active = [i for i in active if i not in capped]
    if active and remaining > 0:
        weight = sum(weights[i] for i in active)
        exact = {i: Fraction(remaining * weights[i], weight) for i in active}
        for i in active:
            result[i] = int(exact[i])  # floor: exact shares are positive
        left = remaining - sum(result[i] for i in active)
        # Largest remainder; every exact share is below its cap, so +1 never breaks a cap.
        order = sorted(active, key=lambda i: (-(exact[i] - result[i]), i))
        for i in order[:left]:
            result[i] += 1
    return result


def settle_amounts(
    seats: Sequence[tuple[int | None, int]], coefficient: int, rake: int
) -> list[SeatAmounts]:
    """The bean movements of one hand; ``seats`` is (held or None for a bot, points X) per seat.

    Raises ValueError for a negative coefficient, rake or held amount.
    """
    if coefficient < 0 or rake < 0:
        raise ValueError("coefficient and rake must be >= 0")
    rakes: list[int] = []
    paid: list[int] = []
    claims: list[int] = []
    caps: list[int] = []
    for held, points in seats:
        if held is None:
            rakes.append(0)
            paid.append(0)
            claims.append(0)
            caps.append(0)
            continue
        if held < 0:
            raise ValueError("held amounts must be >= 0")
        r = min(rake, held)
        rakes.append(r)
        paid.append(min(-points * coefficient, held - r) if points < 0 else 0)
        claims.append(points * coefficient if points > 0 else 0)
        caps.append(min(points * coefficient, held) if points > 0 else 0)
    pool = sum(paid)
    won = share(pool, claims, caps)
    refund = share(pool - sum(won), paid, paid)
    return [
        SeatAmounts(rake=rakes[i], paid=paid[i], won=won[i], refund=refund[i])
        for i in range(len(seats))
    ]
