"""麻将: the shared mahjong core and its six rule sets, presets of one engine.

Tiles (``tiles``), hand shapes — win check, shanten, waits (``shape``), wild tiles (``wild``),
the 番 calculator (``fan``), the presets (``rules``), the hand state machine (``game``) and the
trustee (``ai``); each other rule set in its own module. Rules: GAMES.md §9; decisions:
docs/games/mahjong.md.

- ``sichuan``: 000 "QQ classic" 四川麻将 (2^(番−1), no cap, 花猪 16×, escape penalty);
- ``xuezhan``: 002 血战到底 (2^番 capped at 3番, the hand goes on after each win, 呼叫转移,
  24 points at most per payer and payee, 托管 on escape);
- ``shaanxi``: 000 陕西麻将 (136 tiles, 炮子, 截胡, 漏胡, 十三幺/七对/全不靠/组合龙, 荒庄 by kong
  count; ``shaanxi``);
- ``wuhan``: 000 武汉麻将 (136 tiles, 吃, 癞子, 红中杠, 开口翻 / 口口翻, 小胡 and 大胡, 承包, caps;
  ``wuhan``);
- ``yongzhou``: 003 永州麻将 (136 tiles, 吃, winds, 一炮多响, 漏胡, set A 爆胡 3番 or set B 爆和
  5番 with 起和, 包自摸; ``yongzhou``);
- ``erren``: 000 二人麻将 (two seats, 71 of 136 tiles, 花牌, swaps, 搓牌/换牌, 报听, 海底捞月, the
  役 of ``yaku`` capped at 13番; ``erren``).

>>> from engines.mahjong.tiles import parse_hand
>>> is_win(parse_hand("11123777888999p"))
True
"""

from __future__ import annotations

from engines.base import GameSpec
from engines.mahjong.erren import ERREN_OPTIONS, SWAP, ErrenGame, max_loss_erren
from engines.mahjong.faces import tile_faces
from engines.mahjong.fan import FanResult, Meld, MeldKind, Situation, Table, best_ready, evaluate
from engines.mahjong.game import CLAIM, DINGQUE, DISCARD, MahjongGame, XuezhanGame, stacked_wall
from engines.mahjong.rules import (
    SHAANXI_OPTIONS,
    SICHUAN_OPTIONS,
    WUHAN_OPTIONS,
    XUEZHAN_OPTIONS,
    Rules,
    make_rules,
    max_loss_shaanxi,
    max_loss_sichuan,
    max_loss_wuhan,
    max_loss_xuezhan,
)
from engines.mahjong.shaanxi import PAOZI, ShaanxiGame
from engines.mahjong.shape import is_win, shanten, waits
from engines.mahjong.texts import TEXTS
from engines.mahjong.tiles import format_tiles, parse_hand, parse_tile, parse_tiles
from engines.mahjong.wuhan import WuhanGame
from engines.mahjong.yongzhou import YONGZHOU_OPTIONS, YongzhouGame, max_loss_yongzhou

PHASES = (DINGQUE, DISCARD, CLAIM)

SPECS: tuple[GameSpec, ...] = (
    GameSpec(
        key="sichuan",
        name_zh="四川麻将",
        name_en="Sichuan Mahjong",
        min_seats=4,
        max_seats=4,
        level_table="sichuan",
        game=MahjongGame,
        faces=tile_faces,
        options=dict(SICHUAN_OPTIONS),
        phases=PHASES,
        texts=TEXTS,
        max_loss=max_loss_sichuan,
        seats_default=4,
    ),
    GameSpec(
        key="xuezhan",
        name_zh="血战到底",
        name_en="Blood Battle (Sichuan Mahjong)",
        min_seats=4,
        max_seats=4,
        level_table="sichuan",
        game=XuezhanGame,
        faces=tile_faces,
        options=dict(XUEZHAN_OPTIONS),
        phases=PHASES,
        texts=TEXTS,
        max_loss=max_loss_xuezhan,
        seats_default=4,
    ),
    GameSpec(
        key="shaanxi",
        name_zh="陕西麻将",
        name_en="Shaanxi Mahjong",
        min_seats=4,
        max_seats=4,
        level_table="shaanxi",
        game=ShaanxiGame,
        faces=tile_faces,
        options=dict(SHAANXI_OPTIONS),
        phases=(PAOZI, DISCARD, CLAIM),
        texts=TEXTS,
        max_loss=max_loss_shaanxi,
        seats_default=4,
    ),
    GameSpec(
        key="wuhan",
        name_zh="武汉麻将",
        name_en="Wuhan Mahjong",
        min_seats=4,
        max_seats=4,
        level_table="wuhan",
        game=WuhanGame,
        faces=tile_faces,
        options=dict(WUHAN_OPTIONS),
        phases=(DISCARD, CLAIM),
        texts=TEXTS,
        max_loss=max_loss_wuhan,
        seats_default=4,
    ),
    GameSpec(
        key="yongzhou",
        name_zh="永州麻将",
        name_en="Yongzhou Mahjong",
        min_seats=4,
        max_seats=4,
        level_table="doudizhu",
        game=YongzhouGame,
        faces=tile_faces,
        options=dict(YONGZHOU_OPTIONS),
        phases=(DISCARD, CLAIM),
        texts=TEXTS,
        max_loss=max_loss_yongzhou,
        seats_default=4,
    ),
    GameSpec(
        key="erren",
        name_zh="二人麻将",
        name_en="Two-player Mahjong",
        min_seats=2,
        max_seats=2,
        level_table="erren_mahjong",
        game=ErrenGame,
        faces=tile_faces,
        options=dict(ERREN_OPTIONS),
        phases=(SWAP, DISCARD, CLAIM),
        texts=TEXTS,
        max_loss=max_loss_erren,
        seats_default=2,
    ),
)

__all__ = [
    "SPECS",
    "ErrenGame",
    "FanResult",
    "MahjongGame",
    "Meld",
    "MeldKind",
    "Rules",
    "ShaanxiGame",
    "Situation",
    "Table",
    "WuhanGame",
    "XuezhanGame",
    "YongzhouGame",
    "best_ready",
    "evaluate",
    "format_tiles",
    "is_win",
    "make_rules",
    "parse_hand",
    "parse_tile",
    "parse_tiles",
    "shanten",
    "stacked_wall",
    "waits",
]
