"""计分: 番, 省 and 子 of a 王炸跑胡子 win (003 一.14, 三、特殊规则; docs/games/paohuzi.md).

- 子 = 1 + (胡息 − 15) // 3 + 省 + 底: 15 胡息 make one 子, every further 3 胡息 one more, and
  one 省 "相当于一个赌注，也就是一省相当于三胡息" (PH-E1: 21 胡息 and 3 省 → 6 子, with a 底 7).
- 省: the tile after the one turned up after the win; each copy of it in the winner's tiles
  (open groups, hand, the tile won on) and each 王霸 held counts one, so at most 4 + 2 = 6.
- 番 multiply: 红胡 ×2 (10 or more red), 一点朱 ×3 (exactly one), 黑胡 ×4 (none); 王钓 ×4,
  王钓王 ×8, 王闯 ×8; 自摸 ×2 except with a 王 pattern (the seed's combined figures, e.g.
  红胡王钓 8 = 2 × 4, leave it out). Points each loser pays = 子 × 番.

>>> zi(21, 3, 0), zi(21, 3, 1)
(6, 7)
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from engines.paohuzi.tiles import RED, WILD

MIN_HUXI = 15


def zi(huxi: int, shen: int, di: int) -> int:
    """子 of a win with ``huxi`` 胡息 (at least 15), ``shen`` 省 and a 底 of ``di`` 子."""
    return 1 + (huxi - MIN_HUXI) // 3 + shen + di


def shen_count(tiles: Iterable[int], shen_tile: int | None) -> int:
    """省: copies of ``shen_tile`` among the winner's ``tiles`` plus every 王霸 (None: 0)."""
    if shen_tile is None:
        return 0
    return sum(1 for t in tiles if t == shen_tile or t == WILD)


@dataclass(frozen=True)
class Fan:
    """The 番 of a win: ``items`` (key, factor) and their product ``total``."""

    items: tuple[tuple[str, int], ...]

    @property
    def total(self) -> int:
        out = 1
        for _, x in self.items:
            out *= x
        return out


def fan_of(tiles: Iterable[int], self_drawn: bool, wang: str | None) -> Fan:
    """番 of a win over the winner's word ``tiles`` (王霸 are no red tiles); ``wang`` is
    "wangdiao", "wangdiaowang", "wangchuang" or None.

    >>> fan_of([1, 6, 9] * 4, False, "wangdiao").total  # 红胡王钓
    8
    >>> fan_of([0, 2, 3], True, None).items  # 黑胡, 自摸
    (('heihu', 4), ('zimo', 2))
    """
    red = sum(1 for t in tiles if t in RED)
    items: list[tuple[str, int]] = []
    if red >= 10:
        items.append(("honghu", 2))
    elif red == 1:
        items.append(("yidianzhu", 3))
    elif red == 0:
        items.append(("heihu", 4))
    if wang is not None:
        items.append((wang, 4 if wang == "wangdiao" else 8))
    elif self_drawn:
        items.append(("zimo", 2))
    return Fan(tuple(items))
