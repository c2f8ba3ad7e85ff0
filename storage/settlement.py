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

**Pairwise transfers** (``settle_transfers``; 点炮, 自摸, kong money, an escaper's penalty): the
rake first, as above; then each transfer (payer, payee, points), in order, moves

    min(points·N, what the payer still holds, what the payee carried − what this payer has
        already paid this payee in the hand)

beans: the payer is debited only down to 0 of what it holds at the table (its stake minus the
rake and what it paid, plus what it received earlier in the hand), and a payee takes from any one
payer at most its own stake (§1.3, per pair). Earlier transfers go first. A transfer from or to a
bot moves nothing.

**Limits** (both rules): ``room`` gives, per seat, how many beans its balance may still gain (the
hall's maximum minus its balance); no seat gains past it, and what a winner cannot take goes back
as in step 4 (pot) or stays with the payer (transfers). ``house_room`` bounds the rake the same
way: once the house is full, seats keep the rest of their rake, collected in seat order.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import NamedTuple


class TransferResult(NamedTuple):
    """A settled transfer: seat ``payer`` owed seat ``payee`` ``points``; ``beans`` is what
    actually moved (after the caps; 0 to or from a bot)."""

    payer: int
    payee: int
    points: int
    beans: int


@dataclass(frozen=True)
class SeatAmounts:
    """One seat's share: ``rake`` to the house, ``fee`` to the house for what it bought during
    the hand (props), ``paid`` into the pool, ``won`` out of it, ``refund`` of its own payment.
    ``delta`` is the change of the seat's balance."""

    rake: int = 0
    paid: int = 0
    won: int = 0
    refund: int = 0
    fee: int = 0

    @property
    def delta(self) -> int:
        return self.won + self.refund - self.paid - self.rake - self.fee


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


def _rakes(
    held: Sequence[int | None],
    coefficient: int,
    rake: int,
    room: Sequence[int | None] | None,
    house_room: int | None,
) -> list[int]:
    """Each seat's rake: ``min(A, held)`` for a human, 0 for a bot, collected in seat order
    while the house has room. Checks the shared inputs (ValueError)."""
    if coefficient < 0 or rake < 0:
        raise ValueError("coefficient and rake must be >= 0")
    if any(h is not None and h < 0 for h in held):
        raise ValueError("held amounts must be >= 0")
    if room is not None and len(room) != len(held):
        raise ValueError("room must give one entry per seat")
    if house_room is not None and house_room < 0:
        raise ValueError("house_room must be >= 0")
    rakes = [0 if h is None else min(rake, h) for h in held]
    if house_room is not None and sum(rakes) > house_room:
        left = house_room
        for i, r in enumerate(rakes):
            rakes[i] = min(r, left)
            left -= rakes[i]
    return rakes


def _fees(
    held: Sequence[int | None],
    rakes: Sequence[int],
    fees: Sequence[int] | None,
    house_room: int | None,
) -> list[int]:
    """What each seat pays the house for what it bought during the hand: its fee, capped by
    what it holds after the rake (and by the house's room, in seat order); bots pay none."""
    if fees is None:
        return [0] * len(held)
    if len(fees) != len(held) or any(f < 0 for f in fees):
        raise ValueError("fees must give one non-negative amount per seat")
    out = [0 if h is None else min(f, h - r) for h, r, f in zip(held, rakes, fees, strict=True)]
    if house_room is not None:
        left = house_room - sum(rakes)
        for i, f in enumerate(out):
            out[i] = max(0, min(f, left))
            left -= out[i]
    return out


def _room(room: Sequence[int | None] | None, i: int) -> int | None:
    value = None if room is None else room[i]
    if value is not None and value < 0:
        raise ValueError("room amounts must be >= 0")
    return value


def settle_amounts(
    seats: Sequence[tuple[int | None, int]],
    coefficient: int,
    rake: int,
    *,
    room: Sequence[int | None] | None = None,
    house_room: int | None = None,
    fees: Sequence[int] | None = None,
) -> list[SeatAmounts]:
    """The bean movements of one hand; ``seats`` is (held or None for a bot, points X) per seat.

    ``room``/``house_room``: how much each balance may still gain (None: no limit). ``fees``:
    beans each seat spent at the house during the hand, taken after the rake (``_fees``).

    >>> [a.delta for a in settle_amounts([(50_000, 12), (50_000, -6), (50_000, -6)], 1000, 50)]
    [11950, -6050, -6050]

    Raises ValueError for a negative coefficient, rake, held amount or room.
    """
    rakes = _rakes([h for h, _ in seats], coefficient, rake, room, house_room)
    spent = _fees([h for h, _ in seats], rakes, fees, house_room)
    paid: list[int] = []
    claims: list[int] = []
    caps: list[int] = []
    for i, (held, points) in enumerate(seats):
        if held is None:
            paid.append(0)
            claims.append(0)
            caps.append(0)
            continue
        r = rakes[i] + spent[i]
        paid.append(min(-points * coefficient, held - r) if points < 0 else 0)
        claims.append(points * coefficient if points > 0 else 0)
        cap = min(points * coefficient, held) if points > 0 else 0
        limit = _room(room, i)
        caps.append(cap if limit is None else min(cap, limit + r))
    pool = sum(paid)
    won = share(pool, claims, caps)
    refund = share(pool - sum(won), paid, paid)
    return [
        SeatAmounts(rake=rakes[i], paid=paid[i], won=won[i], refund=refund[i], fee=spent[i])
        for i in range(len(seats))
    ]


def settle_transfers(
    held: Sequence[int | None],
    transfers: Sequence[tuple[int, int, int]],
    coefficient: int,
    rake: int,
    *,
    room: Sequence[int | None] | None = None,
    house_room: int | None = None,
    fees: Sequence[int] | None = None,
) -> tuple[list[SeatAmounts], list[int]]:
    """逐对结算: pairwise payments; returns each seat's amounts and the beans each transfer moved.

    ``held``: what each seat carried (None for a bot); ``transfers``: (payer seat, payee seat,
    points) in order. DDZ-E1 as transfers, the landlord carrying only 3 000 (N 1000, A 50): each
    farmer owes 6 000, but the landlord takes at most 3 000 from each.

    >>> amounts, moved = settle_transfers(
    ...     [3_000, 50_000, 50_000], [(1, 0, 6), (2, 0, 6)], 1000, 50)
    >>> moved, [a.delta for a in amounts]
    ([3000, 3000], [5950, -3050, -3050])

    Order matters: the landlord, carrying 5 000, loses to both farmers; the first is paid in
    full, the second gets what is left.

    >>> settle_transfers([5_000, 50_000, 50_000], [(0, 1, 4), (0, 2, 4)], 1000, 0)[1]
    [4000, 1000]

    Raises ValueError for a bad seat index, a payer paying itself, points below 1, or the
    inputs ``settle_amounts`` refuses.
    """
    rakes = _rakes(held, coefficient, rake, room, house_room)
    spent = _fees(held, rakes, fees, house_room)
    seats = len(held)
    left = [0 if h is None else h - rakes[i] - spent[i] for i, h in enumerate(held)]
    # how much more each seat may gain: its room, plus what it pays out (the rake first)
    gain = [_room(room, i) for i in range(seats)]
    gain = [None if g is None else g + rakes[i] + spent[i] for i, g in enumerate(gain)]
    paid = [0] * seats
    won = [0] * seats
    pair: dict[tuple[int, int], int] = {}
    moved: list[int] = []
    for payer, payee, points in transfers:
        if not (0 <= payer < seats and 0 <= payee < seats):
            raise ValueError(f"transfer {payer}->{payee}: no such seat (seats 0-{seats - 1})")
        if payer == payee:
            raise ValueError(f"transfer {payer}->{payee}: a seat cannot pay itself")
        if points < 1:
            raise ValueError(f"transfer {payer}->{payee}: points must be at least 1, got {points}")
        payee_held = held[payee]
        if held[payer] is None or payee_held is None:  # bots carry nothing
            moved.append(0)
            continue
        beans = min(points * coefficient, left[payer], payee_held - pair.get((payer, payee), 0))
        limit = gain[payee]
        if limit is not None:
            beans = min(beans, limit)
        beans = max(beans, 0)
        moved.append(beans)
        pair[payer, payee] = pair.get((payer, payee), 0) + beans
        left[payer] -= beans
        left[payee] += beans
        paid[payer] += beans
        won[payee] += beans
        room_payer = gain[payer]
        if room_payer is not None:
            gain[payer] = room_payer + beans
        if limit is not None:
            gain[payee] = limit - beans
    amounts = [
        SeatAmounts(rake=rakes[i], paid=paid[i], won=won[i], fee=spent[i]) for i in range(seats)
    ]
    return amounts, moved
