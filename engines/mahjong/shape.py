"""牌型: the shape of a hand — win check, decompositions, shanten (向听) and waits (听牌).

A hand is a counts vector (34 entries, see ``tiles``) of its concealed tiles; its open
melds (副露) are counted by ``melds`` (each is a complete set). Every function works part by
part (a suit's nine counts, the honours' seven) on tables precomputed for every part of at
most 14 tiles (``suit_tables``, loaded at import), so a check costs a few look-ups, the
first as cheap as the millionth; the recursions the tables come from are in ``decompose``:

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

from engines.mahjong.decompose import (
    TRIP,
    YAO,
    _combine,
    is_seven_pairs,
    recursive_is_win,
    recursive_shanten,
    recursive_shanten_standard,
    recursive_standard_mask,
    recursive_waits,
    shanten_pairs,
)
from engines.mahjong.suit_tables import (
    BEST,
    COMB,
    DIGITS,
    HSHAPE,
    HWAIT,
    HWIN,
    HWINS,
    NO_SHAPE,
    NOT_TABULATED,
    PROFILES,
    SHAPE,
    WAIT,
    WAIT_NOT_TABULATED,
    WIN,
    WINS,
)
from engines.mahjong.tiles import NUM_KINDS, SUITED, tile_name

# --- the table-driven answers ----------------------------------------------------------------
# Each part (a suit's nine counts, the honours' seven) is looked up in the tables of
# ``suit_tables`` (built from ``decompose``'s recursions by ``tablegen``): by its raw bytes
# for the win check, as one base-5 number for shanten and waits. No memo, so a hand never
# seen before costs what a familiar one does. A part the tables do not hold (more than 14
# tiles, or a count outside 0-4) falls back to the recursions.
_MASKS = tuple(_combine(a, b) if a and b else 0 for a in range(16) for b in range(16))
"""_MASKS[a << 4 | b]: the property mask of two parts' decompositions together."""
_TILES = tuple(
    tuple(tuple(9 * s + x for x in range(9) if bits >> x & 1) for bits in range(512))
    for s in range(4)
)
"""_TILES[suit][bits]: the kinds of ``suit`` whose bits are set, low to high."""
_KINDS = 0x1FF
"""A wait entry's bits for the kinds (bit 9: the drawn tile takes the pair)."""


def standard_mask(counts: Sequence[int]) -> int:
    """Properties achievable by 4-sets-and-a-pair decompositions of the concealed tiles
    (bitmask over TRIP|YAO values); 0 if the tiles do not form sets and one pair.

    >>> from engines.mahjong.tiles import parse_hand
    >>> standard_mask(parse_hand("111222333m44455p")) == 1 << TRIP | 1 << 0  # or three runs
    True
    """
    try:
        raw = bytes(counts)
    except (ValueError, TypeError):
        return recursive_standard_mask(counts)
    part = raw[0:9]
    a = WINS.get(part, 0)
    if a:
        part = raw[9:18]
        b = WINS.get(part, 0)
        if b:
            part = raw[18:27]
            c = WINS.get(part, 0)
            if c:
                part = raw[27:]
                h = HWINS.get(part, 0)
                if h and len(raw) == NUM_KINDS:
                    if (a >> 4) + (b >> 4) + (c >> 4) + (h >> 4) != 1:
                        return 0
                    return _MASKS[_MASKS[(a & 15) << 4 | (b & 15)] << 4 | (c & 15)]
    if _untabulated(raw, part):
        return recursive_standard_mask(counts)
    return 0


def _untabulated(raw: bytes, part: bytes) -> bool:
    """Whether the part that did not decompose may be one the tables lack (a count outside
    0-4, more than 14 tiles, or a hand of other than 34 kinds). A tabulated part that does
    not decompose settles the answer whatever the other parts hold."""
    return len(raw) != NUM_KINDS or bool(part.strip(_SMALL)) or sum(part) > 14


_SMALL = bytes(range(5))


def is_win(counts: Sequence[int], melds: int = 0) -> bool:
    """和牌: the concealed tiles complete the hand (sets and a pair, or seven pairs when
    there are no melds)."""
    try:
        raw = bytes(counts)
    except (ValueError, TypeError):
        return recursive_is_win(counts, melds)
    part = raw[0:9]
    a = WINS.get(part, 0)
    if a:
        part = raw[9:18]
        b = WINS.get(part, 0)
        if b:
            part = raw[18:27]
            c = WINS.get(part, 0)
            if c:
                part = raw[27:]
                h = HWINS.get(part, 0)
                if h and len(raw) == NUM_KINDS:
                    if (a >> 4) + (b >> 4) + (c >> 4) + (h >> 4) == 1:
                        return True
                    part = b""  # every part is tabulated: no standard win
    if part and (len(raw) != NUM_KINDS or part.strip(_SMALL) or sum(part) > 14):
        return recursive_is_win(counts, melds)  # a part the tables lack (see _untabulated)
    # 七对: fourteen tiles, every count even (a four of a kind is two pairs)
    return melds == 0 and not raw.translate(None, _EVEN) and sum(raw) == 14


_EVEN = bytes(range(0, 256, 2))


def shanten_standard(counts: Sequence[int], melds: int = 0) -> int:
    """向听 of the 4-sets-and-a-pair form (honours make only pairs and triplets)."""
    try:
        d = bytes(counts).translate(DIGITS)
        a = SHAPE[int(d[0:9], 5)]
        b = SHAPE[int(d[9:18], 5)]
        c = SHAPE[int(d[18:27], 5)]
        h = HSHAPE[int(d[27:34], 5)]
    except (ValueError, TypeError):
        return recursive_shanten_standard(counts, melds)
    if NO_SHAPE in (a, b, c, h) or melds < 0 or len(d) != NUM_KINDS:
        return recursive_shanten_standard(counts, melds)
    n = PROFILES
    p = COMB[COMB[COMB[a * n + b] * n + c] * n + h]
    m = min(melds, 4)
    return 8 - 2 * m - BEST[5 * p + 4 - m]


def shanten(counts: Sequence[int], melds: int = 0) -> int:
    """向听: how many tiles short of ready (0 ready, −1 complete); seven pairs only with no
    melds."""
    try:
        d = bytes(counts).translate(DIGITS)
        a = SHAPE[int(d[0:9], 5)]
        b = SHAPE[int(d[9:18], 5)]
        c = SHAPE[int(d[18:27], 5)]
        h = HSHAPE[int(d[27:34], 5)]
    except (ValueError, TypeError):
        return recursive_shanten(counts, melds)
    if NO_SHAPE in (a, b, c, h) or melds < 0 or len(d) != NUM_KINDS:
        return recursive_shanten(counts, melds)
    n = PROFILES
    p = COMB[COMB[COMB[a * n + b] * n + c] * n + h]
    if melds:
        m = min(melds, 4)
        return 8 - 2 * m - BEST[5 * p + 4 - m]
    s = 8 - BEST[5 * p + 4]
    pairs = d.count(b"2") + d.count(b"3") + 2 * d.count(b"4")  # seven pairs: n // 2 each
    return min(s, 6 - (min(pairs, 7)))


def waits(counts: Sequence[int], melds: int = 0, suits: Sequence[int] = (0, 1, 2)) -> list[int]:
    """听牌: the tiles of ``suits`` (3 = honours) that would complete the hand (a kind the
    hand already holds four of cannot be drawn, so it is no wait)."""
    try:
        d = bytes(counts).translate(DIGITS)
        i0, i1, i2, ih = int(d[0:9], 5), int(d[9:18], 5), int(d[18:27], 5), int(d[27:34], 5)
    except (ValueError, TypeError):
        return recursive_waits(counts, melds, suits)
    wins = (WIN[i0], WIN[i1], WIN[i2], HWIN[ih])
    bits = (WAIT[i0], WAIT[i1], WAIT[i2], HWAIT[ih])
    if (
        (wins[0] | wins[1] | wins[2] | wins[3]) & NOT_TABULATED
        or (bits[0] | bits[1] | bits[2] | bits[3]) & WAIT_NOT_TABULATED
        or len(d) != NUM_KINDS
        or not all(s in (0, 1, 2, 3) for s in suits)
    ):
        return recursive_waits(counts, melds, suits)
    pairs = (wins[0] >> 4) + (wins[1] >> 4) + (wins[2] >> 4) + (wins[3] >> 4)
    broken = (not wins[0]) + (not wins[1]) + (not wins[2]) + (not wins[3])
    lone = -1  # 七对: thirteen tiles with one odd count wait on that kind
    if melds == 0 and d.count(b"1") + d.count(b"3") == 1 and sum(counts) == 13:
        lone = d.find(b"1") if b"1" in d else d.find(b"3")
    out: list[int] = []
    for s in suits:
        w, own = bits[s], wins[s]
        # the other parts must stand as they are, and the pair be exactly one after the draw
        found = 0
        if w & _KINDS and broken == (not own) and pairs - (own >> 4) + (w >> 9) == 1:
            found = w & _KINDS
        if lone >= 0 and lone // 9 == s:
            found |= 1 << (lone - 9 * s)
        if found:
            out += _TILES[s][found]
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
