"""牌面 of 跑胡子 word tiles: 一…十 small, 壹…拾 big, 王 the 王霸, read as faces for pictures.

二 七 十 / 贰 柒 拾 are the red tiles (``tiles.RED``); groups written apart stay apart.

>>> [(f.label, f.suit, f.red) for f in word_faces("二壹 王")]
[('二', 'x', True), ('壹', 'd', False), ('王', 'w', False)]
>>> word_faces("bid 2") is None
True
"""

from __future__ import annotations

from engines.base import Face, FaceKind
from engines.errors import NotationError
from engines.paohuzi.tiles import RED, WILD, is_big, parse_tiles, tile_zh


def word_faces(notation: str) -> tuple[Face, ...] | None:
    """The tiles of ``notation`` in the order written, groups apart; None if it is no tiles."""
    out: list[Face] = []
    for part in notation.split():
        try:
            tiles = parse_tiles(part)
        except NotationError:
            return None
        for k, t in enumerate(tiles):
            suit = "w" if t == WILD else ("d" if is_big(t) else "x")
            out.append(Face(FaceKind.TILE, tile_zh(t), suit, red=t in RED,
                            gap=bool(out) and k == 0))
    return tuple(out) or None
