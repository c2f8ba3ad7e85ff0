"""牌面 of mahjong tiles: ``123m456p789s1234567z`` read as faces for pictures.

Suits ``m`` 万, ``p`` 筒, ``s`` 条 show their number; honours ``1z``–``7z`` show 東 南 西 北 中
發 白 (中 red). Groups written apart (a meld, the tile just drawn: ``123m 4p``) stay apart.

>>> [(f.label, f.suit) for f in tile_faces("19m 7z")]
[('1', 'm'), ('9', 'm'), ('白', 'z')]
>>> [f.gap for f in tile_faces("19m 7z")]
[False, False, True]
>>> tile_faces("bid 2") is None
True
"""

from __future__ import annotations

from engines.base import Face, FaceKind
from engines.errors import NotationError
from engines.mahjong.tiles import parse_tiles, tile_name

HONOURS = "東南西北中發白"
"""The honours' faces, ``1z``–``7z``."""


def tile(name: str, gap: bool = False) -> Face:
    """The face of one tile in notation (``5m``, ``5z``)."""
    number, suit = int(name[0]), name[1]
    if suit == "z":
        return Face(FaceKind.TILE, HONOURS[number - 1], suit, red=number == 5, gap=gap)
    return Face(FaceKind.TILE, str(number), suit, gap=gap)


def tile_faces(notation: str) -> tuple[Face, ...] | None:
    """The tiles of ``notation`` in the order written, groups apart; None if it is no tiles."""
    out: list[Face] = []
    for part in notation.split():
        if not any(ch.isdigit() for ch in part):
            return None
        try:
            tiles = parse_tiles(part)
        except NotationError:
            return None
        out.extend(tile(tile_name(t), gap=bool(out) and k == 0) for k, t in enumerate(tiles))
    return tuple(out) or None
