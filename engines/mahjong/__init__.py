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

from collections.abc import Callable, Mapping
from typing import Any

from engines.base import Game, GameSpec
from engines.mahjong.erren import ERREN_OPTIONS, SWAP, ErrenGame, max_loss_erren
from engines.mahjong.faces import tile_faces
from engines.mahjong.fan import FanResult, Meld, MeldKind, Situation, Table, best_ready, evaluate
from engines.mahjong.game import CLAIM, DINGQUE, DISCARD, MahjongGame, XuezhanGame, stacked_wall
from engines.mahjong.names import spell
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

def _variant(key: str, name_zh: str, name_en: str, seats: int, level_table: str,
             game: type[Game], options: Mapping[str, Any], phases: tuple[str, ...],
             max_loss: Callable[[Mapping[str, Any], int], int | None]) -> GameSpec:
    """One mahjong key: a fixed number of seats, tile pictures and the shared texts."""
    return GameSpec(key=key, name_zh=name_zh, name_en=name_en, min_seats=seats,
                    max_seats=seats, level_table=level_table, game=game, faces=tile_faces,
                    spell=spell,
                    options=dict(options), phases=phases, texts=TEXTS, max_loss=max_loss,
                    seats_default=seats)


SPECS: tuple[GameSpec, ...] = (
    _variant("sichuan", "四川麻将", "Sichuan Mahjong", 4, "sichuan", MahjongGame,
             SICHUAN_OPTIONS, PHASES, max_loss_sichuan),
    _variant("xuezhan", "血战到底", "Blood Battle (Sichuan Mahjong)", 4, "sichuan",
             XuezhanGame, XUEZHAN_OPTIONS, PHASES, max_loss_xuezhan),
    _variant("shaanxi", "陕西麻将", "Shaanxi Mahjong", 4, "shaanxi", ShaanxiGame,
             SHAANXI_OPTIONS, (PAOZI, DISCARD, CLAIM), max_loss_shaanxi),
    _variant("wuhan", "武汉麻将", "Wuhan Mahjong", 4, "wuhan", WuhanGame, WUHAN_OPTIONS,
             (DISCARD, CLAIM), max_loss_wuhan),
    _variant("yongzhou", "永州麻将", "Yongzhou Mahjong", 4, "doudizhu", YongzhouGame,
             YONGZHOU_OPTIONS, (DISCARD, CLAIM), max_loss_yongzhou),
    _variant("erren", "二人麻将", "Two-player Mahjong", 2, "erren_mahjong", ErrenGame,
             ERREN_OPTIONS, (SWAP, DISCARD, CLAIM), max_loss_erren),
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
