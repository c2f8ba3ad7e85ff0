"""王炸跑胡子: the Hunan word-tile game of seed 003 for three players.

Tiles and notation (``tiles``), groups, 胡息 and the win check (``groups``), 番 / 省 / 子
(``scoring``), actions (``notation``), the hand state machine (``game``) and the trustee
(``ai``). Rules: GAMES.md §10; decisions: docs/games/paohuzi.md.

>>> from engines.paohuzi.tiles import counts_of, parse_tiles
>>> best_huxi(counts_of(parse_tiles("壹贰叁 一二三 贰柒拾")))
15
"""

from __future__ import annotations

from engines.base import GameSpec
from engines.paohuzi.faces import word_faces
from engines.paohuzi.game import CLAIM, DISCARD, OPTIONS, PaohuziGame, max_loss, stacked
from engines.paohuzi.groups import Group, Kind, best_huxi
from engines.paohuzi.texts import TEXTS
from engines.paohuzi.tiles import format_tiles, format_zh, parse_tile, parse_tiles

SPECS: tuple[GameSpec, ...] = (
    GameSpec(
        key="paohuzi",
        name_zh="王炸跑胡子",
        name_en="Wangzha Paohuzi",
        min_seats=3,
        max_seats=3,
        level_table="doudizhu",
        game=PaohuziGame,
        faces=word_faces,
        options=dict(OPTIONS),
        phases=(DISCARD, CLAIM),
        texts=TEXTS,
        max_loss=max_loss,
        seats_default=3,
    ),
)

__all__ = [
    "SPECS",
    "Group",
    "Kind",
    "PaohuziGame",
    "best_huxi",
    "format_tiles",
    "format_zh",
    "parse_tile",
    "parse_tiles",
    "stacked",
]
