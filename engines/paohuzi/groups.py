"""牌组与胡息: the groups of 王炸跑胡子, their 胡息, and the win check.

Groups (003 二、牌型介绍): 对 (a pair), 坎 (three the same in hand, never split), 倾/提 (four,
laid down), 一句话 (three in a row of one script, or 二七十), 绞牌 (a pair and the same number in
the other script). 胡息 (003 四、积分规则), small / big:

======================  =====  =====
碰                        1      3
坎, 啸 (偎), 臭啸          3      6
跑                        6      9
倾 (提)                   9     12
一二三, 二七十 (一句话)     3      6
======================  =====  =====

Every other 一句话, every 绞牌 and the pair count 0.

``best_huxi`` is the fast win check: the most 胡息 the concealed tiles can make when every one
of them (王霸 standing in for any tile) is in a group of three, with at most one pair, no 坎
split. It is checked against a brute-force enumeration of every grouping in the tests.

>>> from engines.paohuzi.tiles import counts_of, parse_tiles
>>> best_huxi(counts_of(parse_tiles("一二三 壹贰叁 二七十")))
12
>>> best_huxi(counts_of(parse_tiles("一二三四"))) is None
True
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from functools import lru_cache

from engines.memo import FIXED_DOMAIN, memoized
from engines.paohuzi.tiles import WILD, WORD_KINDS, format_group, is_big, tile_zh


class Kind(Enum):
    """The kinds of group a seat can lay open (or hold, for 坎 and the pair)."""

    PENG = "peng"  # 碰
    WEI = "wei"  # 啸 / 偎: face down
    CHOU_WEI = "chouwei"  # 臭啸 / 臭偎: two down, one up
    PAO = "pao"  # 跑
    QING = "qing"  # 倾 / 提
    CHI = "chi"  # 吃 (and 下火): a 一句话 or 绞牌
    KAN = "kan"  # 坎, held


_VALUES = {
    Kind.PENG: (1, 3),
    Kind.KAN: (3, 6),
    Kind.WEI: (3, 6),
    Kind.CHOU_WEI: (3, 6),
    Kind.PAO: (6, 9),
    Kind.QING: (9, 12),
}


def same_value(kind: Kind, tile: int) -> int:
    """胡息 of a group of identical tiles (碰, 坎, 偎, 跑, 倾)."""
    return _VALUES[kind][1 if is_big(tile) else 0]


def run_value(tiles: tuple[int, ...]) -> int:
    """胡息 of a three-tile 一句话 or 绞牌 (sorted or not): 一二三 and 二七十 score."""
    a, b, c = sorted(tiles)
    if a // 10 == b // 10 == c // 10 and (a % 10, b % 10, c % 10) in ((0, 1, 2), (1, 6, 9)):
        return 6 if is_big(a) else 3
    return 0


def is_run(tiles: tuple[int, ...]) -> bool:
    """一句话 (three in a row of one script, or 二七十) or 绞牌 (two of a number in one script
    and one in the other)."""
    a, b, c = sorted(tiles)
    if WILD in (a, b, c):
        return False
    if a // 10 == b // 10 == c // 10:
        ra, rb, rc = a % 10, b % 10, c % 10
        return (rb == ra + 1 and rc == rb + 1) or (ra, rb, rc) == (1, 6, 9)
    return a % 10 == b % 10 == c % 10 and not (a == b == c)


@dataclass(frozen=True)
class Group:
    """An open group: ``kind`` and its ``tiles`` (a 偎 is shown to others face down)."""

    kind: Kind
    tiles: tuple[int, ...]

    @property
    def value(self) -> int:
        if self.kind is Kind.CHI:
            return run_value(self.tiles)
        return same_value(self.kind, self.tiles[0])

    def text(self, hidden: bool = False) -> str:
        """The group in Chinese; a 偎 seen by others is ``[▢▢▢]``, a 臭偎 ``[▢▢三]``."""
        if hidden and self.kind is Kind.WEI:
            return "[▢▢▢]"
        chars = "".join(tile_zh(t) for t in sorted(self.tiles))
        if self.kind is Kind.CHOU_WEI:
            return f"[▢▢{chars[0]}]"
        if self.kind is Kind.WEI:
            return f"[{chars}]"
        return chars

    def name(self) -> str:
        return format_group(self.tiles)


# --- the win check ----------------------------------------------------------------------------
@lru_cache(maxsize=FIXED_DOMAIN)
def _templates(tile: int) -> list[tuple[tuple[int, ...], bool]]:
    """Every group (tiles, is_pair) containing ``tile``, as multisets of tile ids."""
    out: list[tuple[tuple[int, ...], bool]] = [((tile, tile, tile), False), ((tile, tile), True)]
    base, r = tile - tile % 10, tile % 10
    for start in (r - 2, r - 1, r):
        if 0 <= start and start + 2 <= 9:
            out.append((tuple(base + start + k for k in range(3)), False))
    if r in (1, 6, 9):
        out.append(((base + 1, base + 6, base + 9), False))
    other = tile + 10 if tile < 10 else tile - 10
    out.append(((tile, tile, other), False))
    out.append(((tile, other, other), False))
    return out


def group_value(tiles: tuple[int, ...], is_pair: bool, peng_tile: int | None) -> int:
    """胡息 of a concealed group at the win: a pair 0; three the same a 坎 (a 碰 when it is the
    tile won on from another seat, ``peng_tile``); a 一句话 or 绞牌 its ``run_value``."""
    if is_pair:
        return 0
    a, b, c = tiles
    if a == b == c:
        return same_value(Kind.PENG if a == peng_tile else Kind.KAN, a)
    return run_value(tiles)


def best_huxi(counts: list[int], peng_tile: int | None = None) -> int | None:
    """The most 胡息 the concealed tiles ``counts`` (21 kinds, index 20 the 王霸) make with every
    tile in a group of three and at most one pair, or None when they cannot be grouped.

    A 坎 (three of a kind actually held, not counting ``peng_tile``'s winning copy) is never
    split; ``peng_tile`` is the tile won on from another seat, whose triple counts as a 碰.
    """
    locked = 0
    free = list(counts[:WORD_KINDS])
    for t in range(WORD_KINDS):
        held = free[t] - (1 if t == peng_tile else 0)
        if held >= 3:
            free[t] -= 3
            locked += same_value(Kind.KAN, t)
    if (sum(free) + counts[WILD]) % 3 == 1:
        return None
    best = _search(tuple(free), counts[WILD], False, peng_tile)
    return None if best is None else best + locked


@memoized(8192)
def _search(free: tuple[int, ...], wilds: int, paired: bool, peng_tile: int | None) -> int | None:
    i = next((t for t, n in enumerate(free) if n), -1)
    if i < 0:
        if wilds == 0:
            return 0
        if wilds == 3:
            return 6  # three 王霸: a big 坎 (or 壹贰叁)
        if wilds == 2 and not paired:
            return 0
        return None
    best: int | None = None
    for tiles, is_pair in _templates(i):
        if is_pair and paired:
            continue
        rest = list(free)
        need = 0
        for t in tiles:
            if rest[t]:
                rest[t] -= 1
            else:
                need += 1
        if need > wilds:
            continue
        sub = _search(tuple(rest), wilds - need, paired or is_pair, peng_tile)
        if sub is not None:
            value = sub + group_value(tiles, is_pair, peng_tile)
            if best is None or value > best:
                best = value
    return best
