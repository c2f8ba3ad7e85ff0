"""吃火锅 rules: the third card against two open cards, and the bet limits (GAMES.md §4).

Ranks run A (1, low) to K (13). With two open cards ``lo`` ≤ ``hi``:

- 连张 (consecutive, ``hi - lo == 1``; K-A is not consecutive since A is low): auto-pass.
- 三张 (a pair): only the minimum may be bet; a third of that rank wins the whole pot,
  anything else costs the minimum.
- otherwise a third card strictly between wins the bet from the pot, outside pays the bet,
  equal to either (牛角尖) pays 2× the bet, 4× when the two are A and K.

>>> resolve(4, 11, 7).name, resolve(4, 11, 12).name, resolve(1, 9, 9).name
('BETWEEN', 'OUTSIDE', 'POST')
>>> factor(1, 13, resolve(1, 13, 1))
4
"""

from __future__ import annotations

from enum import Enum


class Third(Enum):
    """What the third card made of a bet."""

    BETWEEN = "between"  # 在中间: win the bet from the pot
    OUTSIDE = "outside"  # 在外面: pay the bet into the pot
    POST = "post"  # 牛角尖: pay 2× (4× with A, K)
    TRIPLE = "triple"  # 三张: win the whole pot
    PAIR_MISS = "pair_miss"  # a pair without its third: pay the minimum


def consecutive(a: int, b: int) -> bool:
    """连张: two ranks next to each other (A low, so K-A is not)."""
    return abs(a - b) == 1


def is_pair(a: int, b: int) -> bool:
    return a == b


def resolve(a: int, b: int, third: int) -> Third:
    """The result of ``third`` against the open ranks ``a`` and ``b``."""
    lo, hi = min(a, b), max(a, b)
    if lo == hi:
        return Third.TRIPLE if third == lo else Third.PAIR_MISS
    if third in (lo, hi):
        return Third.POST
    if lo < third < hi:
        return Third.BETWEEN
    return Third.OUTSIDE


def factor(a: int, b: int, result: Third) -> int:
    """How many times the bet a losing result pays: 1, 2 for 牛角尖, 4 for 牛角尖 with A, K."""
    if result is Third.POST:
        return 4 if {a, b} == {1, 13} else 2
    return 1


def ranks_for(a: int, b: int) -> dict[Third, list[int]]:
    """牌型提示: which third ranks win, lose, or hit the post, for two open ranks."""
    out: dict[Third, list[int]] = {t: [] for t in Third}
    for r in range(1, 14):
        out[resolve(a, b, r)].append(r)
    return out


def bet_cap(pot: int, carried: int | None, max_bet: int) -> int:
    """The largest bet allowed: at most the pot, half the carried points, and ``max_bet``."""
    cap = min(pot, max_bet)
    if carried is not None:
        cap = min(cap, max(carried, 0) // 2)
    return cap


def loss(amount: int, carried: int | None, loss_cap: int) -> int:
    """What a loss of ``amount`` really costs: at most ``loss_cap`` (每次输最大上限) and never
    more than the player carries (GAMES.md §1.3, deducted only down to 0)."""
    amount = min(amount, loss_cap)
    if carried is not None:
        amount = min(amount, max(carried, 0))
    return amount


def worst_loss(ante: int, seats: int, turns: int, max_bet: int, loss_cap: int) -> int:
    """An upper bound of one seat's loss in a game: its ante plus, on each of its turns, the
    largest loss the pot could allow then (the pot grows by at most the losses before)."""
    pot = ante * seats
    worst = [ante] * seats
    for t in range(turns):
        lost = min(loss_cap, 4 * min(max_bet, pot))
        worst[t % seats] += lost
        pot += lost
    return max(worst)
