"""记法: the actions of a 王炸跑胡子 hand, typed and canonical.

Canonical forms (what ``apply`` returns and the log holds):

- ``x3`` — discard (打) that tile; ``hu`` — 胡; ``pass`` — 过 (decline every claim);
- ``peng`` — 碰; ``pao`` — 跑 (on a 坎 in hand, a 偎, or a 碰 when the tile was drawn);
- ``chi x1x2x3 x3x4x5`` — 吃: every group laid down, sorted — the one made with the tile and
  the 下火 groups that lay down every other copy of it still held; each group its three tiles.

Typed aliases: 打三 / discard x3 / 三; 胡 / 和 / win / 自摸; 过 / guo / skip; 碰 / pong;
跑 / run; 吃 三四五 一二三 / eat x4x5 (the claimed tile may be left out of its group; a bare
``chi`` takes the only way to eat).

>>> parse_action("吃 四五 一二三"), parse_action("打 小6"), parse_action("过")
(('chi', [[3, 4], [0, 1, 2]]), ('discard', [5]), ('pass', []))
"""

from __future__ import annotations

from typing import Any

from engines.base import T
from engines.errors import NotationError
from engines.paohuzi.tiles import parse_tiles

_WORDS = {
    "hu": ("hu", "胡", "和", "胡牌", "win", "zimo", "自摸"),
    "pass": ("pass", "过", "guo", "skip", "不要", "过牌"),
    "peng": ("peng", "碰", "pong"),
    "pao": ("pao", "跑", "run"),
}
_CHI = ("chi", "吃", "eat")
_DISCARD = ("discard", "打", "出")
_TILE_START = set("xdsb小大王w一二三四五六七八九十壹贰叁肆伍陆柒捌玖拾貳參参陸")


def parse_action(text: str) -> tuple[str, list[Any]]:
    """(kind, value): kinds ``hu``, ``pass``, ``peng``, ``pao`` (value []), ``discard``
    (value [tile]) and ``chi`` (value: the typed groups, lists of tiles).

    Raises NotationError when the text is no action or names no valid tile.
    """
    low = " ".join(text.strip().lower().split())
    if not low:
        raise NotationError(text, "empty action", text=T("err.phz.empty"))
    for kind, words in _WORDS.items():
        if low in words:
            return kind, []
    for word in _CHI:
        if low.startswith(word):
            groups = [parse_tiles(g) for g in low[len(word) :].split()]
            return "chi", [g for g in groups if g]
    for word in _DISCARD:
        if low.startswith(word):
            low = low[len(word) :].strip()
            break
    try:
        tiles = parse_tiles(low)
    except NotationError:
        if low[0] in _TILE_START:
            raise  # meant as a tile: say what is wrong with the tile
        raise NotationError(text, "no action", text=T("err.phz.action", typed=text)) from None
    if len(tiles) != 1:
        raise NotationError(text, "discard one tile", text=T("err.phz.one_tile", typed=text))
    return "discard", tiles
