"""癞子: hand shapes with wild tiles — how many wilds a hand needs to be complete.

A wild (癞子, 财神) stands for any tile. ``need(counts, pair)`` is the fewest wilds that turn the
natural tiles ``counts`` into sets (runs or triplets; honours only triplets) and, if ``pair`` is
not ``NO_PAIR``, one pair: ``PAIR_258`` a pair of 2, 5 or 8 of a suit (武汉麻将's 将), ``ANY_PAIR``
any pair. A hand of 3n + 2 tiles holding ``w`` wilds is complete exactly when
``need(natural, pair) <= w`` (wilds left over make sets of their own). Works suit by suit,
memoized; two wilds may themselves be the pair.

>>> from engines.mahjong.tiles import parse_hand
>>> need(parse_hand("123m456p789s345s5s"), PAIR_258)  # the lone 5s takes a wild as its pair
1
>>> need(parse_hand("123m456p789s11z"), PAIR_258), need(parse_hand("123m456p789s11z"), ANY_PAIR)
(3, 0)
>>> need_triplets(parse_hand("111m222p33s4z"))  # 33s the pair, two wilds for 444z
2
"""

from __future__ import annotations

from collections.abc import Sequence

from engines.mahjong.tiles import NUM_KINDS, SUITED
from engines.memo import memoized

NO_PAIR, PAIR_258, ANY_PAIR = 0, 1, 2
_FAR = 99


@memoized(16_384)
def _suit(c: tuple[int, ...], pair: int) -> int:
    """Fewest wilds for one suit's nine counts: sets, and one pair if ``pair``."""
    i = next((k for k, n in enumerate(c) if n), -1)
    if i < 0:
        return 0 if pair == NO_PAIR else _FAR
    best = _FAR
    rest = list(c)
    take = min(c[i], 3)
    rest[i] -= take
    best = min(best, 3 - take + _suit(tuple(rest), pair))
    rest[i] += take
    # runs through tile i; tiles below i are absent (i is the lowest), wilds fill the gaps
    for start in range(max(0, i - 2), min(i, 6) + 1):
        cost = 0
        run = list(c)
        for t in (start, start + 1, start + 2):
            if t >= i and run[t]:
                run[t] -= 1
            else:
                cost += 1
        best = min(best, cost + _suit(tuple(run), pair))
    if pair == ANY_PAIR or (pair == PAIR_258 and i in (1, 4, 7)):
        take = min(c[i], 2)
        rest[i] -= take
        best = min(best, 2 - take + _suit(tuple(rest), NO_PAIR))
    return best


def _honour(n: int) -> int:
    """Wilds to turn ``n`` of one honour into triplets."""
    return (3 - n % 3) % 3


def _honour_pair(n: int) -> int:
    """Wilds to turn ``n`` of one honour into triplets and the pair."""
    return min(2 - p + _honour(n - p) for p in range(min(n, 2) + 1))


def need(counts: Sequence[int], pair: int) -> int:
    """Fewest wilds completing the natural tiles ``counts`` into sets (and a pair)."""
    parts = [tuple(counts[b : b + 9]) for b in (0, 9, 18)]
    honours = counts[SUITED:NUM_KINDS]
    plain = [_suit(p, NO_PAIR) for p in parts]
    total = sum(plain) + sum(_honour(n) for n in honours)
    if pair == NO_PAIR:
        return total
    best = total + 2  # the pair made of two wilds
    for k, p in enumerate(parts):
        if any(p):
            best = min(best, total - plain[k] + _suit(p, pair))
    if pair == ANY_PAIR:
        for n in honours:
            if n:
                best = min(best, total - _honour(n) + _honour_pair(n))
    return best


def need_triplets(counts: Sequence[int], pair: int = ANY_PAIR) -> int:
    """Fewest wilds completing ``counts`` into triplets only and a pair (碰碰胡); ``pair``
    ``PAIR_258`` restricts the pair."""
    total = sum(_honour(n) for n in counts)
    best = total + 2
    for t, n in enumerate(counts):
        if n and (pair == ANY_PAIR or (t < SUITED and t % 9 in (1, 4, 7))):
            best = min(best, total - _honour(n) + _honour_pair(n))
    return best
