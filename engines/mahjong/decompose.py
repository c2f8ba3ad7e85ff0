"""分解: the reference recursions of ``shape`` — one suit's counts into sets (and a pair), and
the Pareto front of (sets, partial sets, pair) for shanten — memoized per suit.

``tablegen`` builds ``shape``'s tables from these, and ``shape`` falls back to them for a
part its tables do not hold (more than 14 tiles of one suit, or a count outside 0-4); the
tests compare the tables with them. A cold call here costs a recursion per new suit.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from engines.mahjong.tiles import NUM_KINDS, SUITED

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


def recursive_standard_mask(counts: Sequence[int]) -> int:
    """``standard_mask`` by the memoized recursion over each suit (the reference the tables
    are built from, and the answer for a suit of more than 14 tiles)."""
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


def recursive_is_win(counts: Sequence[int], melds: int = 0) -> bool:
    """``is_win`` by the recursion (the reference)."""
    if melds == 0 and is_seven_pairs(counts):
        return True
    return recursive_standard_mask(counts) != 0


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


def recursive_shanten_standard(counts: Sequence[int], melds: int = 0) -> int:
    """``shanten_standard`` by the memoized recursion (the reference)."""
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


def recursive_shanten(counts: Sequence[int], melds: int = 0) -> int:
    """``shanten`` by the recursion (the reference)."""
    s = recursive_shanten_standard(counts, melds)
    return min(s, shanten_pairs(counts)) if melds == 0 else s


def recursive_waits(
    counts: Sequence[int], melds: int = 0, suits: Sequence[int] = (0, 1, 2)
) -> list[int]:
    """``waits`` by trying every tile with the recursive win check (the reference)."""
    out = []
    hand = list(counts)
    for s in suits:
        for t in range(s * 9, min(s * 9 + 9, NUM_KINDS)):
            if hand[t] >= 4:
                continue
            hand[t] += 1
            if recursive_is_win(hand, melds):
                out.append(t)
            hand[t] -= 1
    return out
