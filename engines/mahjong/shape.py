"""牌型: the shape of a hand — win check, decompositions, shanten (向听) and waits (听牌).

A hand is a counts vector (34 entries, see ``tiles``) of its concealed tiles; its open
melds (副露) are counted by ``melds`` (each is a complete set). Every function works suit by
suit on the nine counts of that suit, memoized, so a check costs a few table look-ups:

- ``is_win``: 4 sets + a pair (the concealed part being ``3k + 2`` tiles) or, with no
  melds, seven pairs (七对; four of a kind counts as two pairs, 龙七对).
- ``shapes``: which properties a winning decomposition can have (all triplets 对对胡,
  every set with a terminal 带幺九), for the 番 calculator.
- ``shanten``: tiles short of ready (0 = ready, −1 = complete), the trustee's measure.

>>> from engines.mahjong.tiles import parse_hand
>>> is_win(parse_hand("11122233344455m"))
True
>>> is_win(parse_hand("2244552299m1199p"))
True
>>> shanten(parse_hand("1112345678999m"))
0
>>> [tile_name(t) for t in waits(parse_hand("1112345678999m"))]
['1m', '2m', '3m', '4m', '5m', '6m', '7m', '8m', '9m']
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from engines.mahjong.tiles import NUM_KINDS, SUITED, tile_name

TRIP, YAO = 2, 1
"""Bits of a decomposition property: TRIP = every set is a triplet (刻子) or the pair; YAO =
every set and the pair hold a 1 or a 9 (幺九)."""

_BASES = (0, 9, 18)


def _minus(c: tuple[int, ...], *idx: int) -> tuple[int, ...]:
    out = list(c)
    for i in idx:
        out[i] -= 1
    return tuple(out)


@cache
def _decomp(c: tuple[int, ...], pair: bool) -> int:
    """Bitmask over the properties (TRIP|YAO values 0–3) of the decompositions of one suit's
    counts into sets (and one pair if ``pair``); 0 when there is none."""
    i = next((k for k, n in enumerate(c) if n), -1)
    if i < 0:
        return 0 if pair else 1 << (TRIP | YAO)
    yao = YAO if i in (0, 8) else 0
    out = 0
    if c[i] >= 3:
        out |= _and(_decomp(_minus(c, i, i, i), pair), TRIP | yao)
    if i <= 6 and c[i + 1] and c[i + 2]:
        out |= _and(_decomp(_minus(c, i, i + 1, i + 2), pair), YAO if i in (0, 6) else 0)
    if pair and c[i] >= 2:
        out |= _and(_decomp(_minus(c, i, i), False), TRIP | yao)
    return out


@cache
def _and(mask: int, props: int) -> int:
    """The property mask after adding one set whose own properties are ``props``."""
    out = 0
    for p in range(4):
        if mask >> p & 1:
            out |= 1 << (p & props)
    return out


def _honours(c: Sequence[int], pair: bool) -> bool:
    twos = sum(1 for n in c if n == 2)
    return all(n in (0, 2, 3) for n in c) and twos == (1 if pair else 0)


def standard_mask(counts: Sequence[int]) -> int:
    """Properties achievable by 4-sets-and-a-pair decompositions of the concealed tiles
    (bitmask over TRIP|YAO values); 0 if the tiles do not form sets and one pair."""
    pairs = 0
    masks = []
    for b in _BASES:
        part = counts[b : b + 9]
        r = sum(part) % 3
        if r == 1:
            return 0
        if r == 2:
            pairs += 1
        masks.append((tuple(part), r == 2))
    honours = counts[SUITED:NUM_KINDS]
    hr = sum(honours) % 3
    if hr == 1:
        return 0
    if hr == 2:
        pairs += 1
    if pairs != 1:
        return 0
    total = 1 << (TRIP | YAO)
    if any(honours) and not _honours(honours, hr == 2):
        return 0
    for part, pair in masks:
        if any(part):
            m = _decomp(part, pair)
            if not m:
                return 0
            total = _combine(total, m)
    return total


@cache
def _combine(a: int, b: int) -> int:
    out = 0
    for p in range(4):
        if a >> p & 1:
            for q in range(4):
                if b >> q & 1:
                    out |= 1 << (p & q)
    return out


def is_seven_pairs(counts: Sequence[int]) -> bool:
    """七对: 14 concealed tiles, all in pairs (a four of a kind is two pairs)."""
    return sum(counts) == 14 and all(n % 2 == 0 for n in counts)


def is_win(counts: Sequence[int], melds: int = 0) -> bool:
    """和牌: the concealed tiles complete the hand (sets and a pair, or seven pairs when
    there are no melds)."""
    if melds == 0 and is_seven_pairs(counts):
        return True
    return standard_mask(counts) != 0


# --- shanten ---------------------------------------------------------------------------------
@cache
def _front(c: tuple[int, ...], honours: bool = False) -> tuple[tuple[int, int, int], ...]:
    """Pareto-best (sets, partial sets, pair) counts reachable in one suit (``honours``: no
    runs, so only pairs and triplets count)."""
    i = next((k for k, n in enumerate(c) if n), -1)
    if i < 0:
        return ((0, 0, 0),)
    found: set[tuple[int, int, int]] = set()

    def add(rest: tuple[int, ...], dm: int, dt: int, dp: int) -> None:
        for m, t, p in _front(rest, honours):
            if p + dp <= 1:
                found.add((m + dm, t + dt, p + dp))

    add(_minus(c, i), 0, 0, 0)  # an isolated tile
    if c[i] >= 3:
        add(_minus(c, i, i, i), 1, 0, 0)
    if c[i] >= 2:
        add(_minus(c, i, i), 0, 0, 1)
        add(_minus(c, i, i), 0, 1, 0)
    if not honours and i <= 6 and c[i + 1] and c[i + 2]:
        add(_minus(c, i, i + 1, i + 2), 1, 0, 0)
    if not honours and i <= 7 and c[i + 1]:
        add(_minus(c, i, i + 1), 0, 1, 0)
    if not honours and i <= 6 and c[i + 2]:
        add(_minus(c, i, i + 2), 0, 1, 0)
    best = [
        f
        for f in found
        if not any(g != f and g[0] >= f[0] and g[1] >= f[1] and g[2] >= f[2] for g in found)
    ]
    return tuple(sorted(best))


def shanten_standard(counts: Sequence[int], melds: int = 0) -> int:
    """向听 of the 4-sets-and-a-pair form (honours make only pairs and triplets)."""
    combos: list[tuple[int, int, int]] = [(melds, 0, 0)]
    for b in (*_BASES, SUITED):
        part = counts[b : b + 9] if b < SUITED else counts[SUITED:NUM_KINDS]
        if not any(part):
            continue
        front = _front(tuple(part), b == SUITED)
        merged: dict[tuple[int, int], int] = {}
        for m, t, p in combos:
            for m2, t2, p2 in front:
                if p + p2 <= 1:
                    key = (m + m2, p + p2)
                    if merged.get(key, -1) < t + t2:
                        merged[key] = t + t2
        combos = [(m, t, p) for (m, p), t in merged.items()]
    best = 8
    for m, t, p in combos:
        m = min(m, 4)
        s = 8 - 2 * m - min(t, 4 - m) - p
        best = min(best, s)
    return best


def shanten_pairs(counts: Sequence[int]) -> int:
    """向听 of seven pairs (a four of a kind counts as two pairs)."""
    return 6 - min(7, sum(n // 2 for n in counts))


def shanten(counts: Sequence[int], melds: int = 0) -> int:
    """向听: how many tiles short of ready (0 ready, −1 complete); seven pairs only with no
    melds."""
    s = shanten_standard(counts, melds)
    return min(s, shanten_pairs(counts)) if melds == 0 else s


def waits(counts: Sequence[int], melds: int = 0, suits: Sequence[int] = (0, 1, 2)) -> list[int]:
    """听牌: the tiles of ``suits`` (3 = honours) that would complete the hand (a kind the
    hand already holds four of cannot be drawn, so it is no wait)."""
    out = []
    hand = list(counts)
    for s in suits:
        for t in range(s * 9, min(s * 9 + 9, NUM_KINDS)):
            if hand[t] >= 4:
                continue
            hand[t] += 1
            if is_win(hand, melds):
                out.append(t)
            hand[t] -= 1
    return out


# --- the 国标 special shapes (陕西麻将: 十三幺, 全不靠, 组合龙) ---------------------------------
ORPHANS = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)
"""十三幺's thirteen kinds: 1 and 9 of each suit and the seven honours."""

KNITS: tuple[tuple[int, ...], ...] = tuple(
    tuple(suit * 9 + r for k, suit in enumerate(order) for r in range(k, 9, 3))
    for order in ((0, 1, 2), (0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0))
)
"""组合龙: the six ways to give 147, 258 and 369 to the three suits ("不能错位"), nine kinds
each."""


def is_thirteen_orphans(counts: Sequence[int]) -> bool:
    """十三幺: one of each of the thirteen 幺九 kinds and a second of any of them."""
    return (
        sum(counts) == 14
        and all(counts[t] for t in ORPHANS)
        and (sum(counts[t] for t in ORPHANS) == 14)
    )


def is_knitted_and_honours(counts: Sequence[int]) -> bool:
    """全不靠: fourteen different kinds, all from one 组合龙 and the seven honours."""
    if sum(counts) != 14 or any(n > 1 for n in counts):
        return False
    held = {t for t, n in enumerate(counts) if n}
    return any(held <= set(knit) | set(range(SUITED, NUM_KINDS)) for knit in KNITS)


def is_knitted_straight(counts: Sequence[int], melds: int = 0) -> bool:
    """组合龙 as a win: the nine kinds of one 组合龙 plus one set (or an open meld) and a
    pair."""
    if melds > 1 or sum(counts) + 3 * melds != 14:
        return False
    for knit in KNITS:
        if all(counts[t] for t in knit):
            rest = list(counts)
            for t in knit:
                rest[t] -= 1
            if standard_mask(rest):
                return True
    return False


def is_special_win(counts: Sequence[int], melds: int = 0) -> bool:
    """陕西麻将's special shapes: 十三幺, 全不靠 (concealed) or 组合龙."""
    if melds == 0 and (is_thirteen_orphans(counts) or is_knitted_and_honours(counts)):
        return True
    return is_knitted_straight(counts, melds)


__all__ = [
    "TRIP",
    "YAO",
    "is_knitted_and_honours",
    "is_knitted_straight",
    "is_seven_pairs",
    "is_special_win",
    "is_thirteen_orphans",
    "is_win",
    "shanten",
    "shanten_pairs",
    "shanten_standard",
    "standard_mask",
    "tile_name",
    "waits",
]
