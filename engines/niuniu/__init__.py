"""斗牛 / 欢乐斗牛 / 牛牛: banker-against-each-player bull games (GAMES.md §3).

Rules and decisions: docs/games/niuniu.md.
"""

from __future__ import annotations

from engines.base import GameSpec
from engines.faces import card_faces
from engines.niuniu.game import (
    BET,
    GRAB,
    SPLIT,
    BullGame,
    DouniuGame,
    HappyDouniuGame,
    NiuniuGame,
    max_loss_douniu,
    max_loss_happy,
    max_loss_niuniu,
)
from engines.niuniu.hands import Hand, Kind, Split, best_hand, best_split, evaluate
from engines.niuniu.texts import TEXTS

DOUNIU = GameSpec(
    key="douniu",
    name_zh="斗牛",
    name_en="Bull Fight",
    min_seats=2,
    max_seats=6,
    level_table="doudizhu",
    game=DouniuGame,
    faces=card_faces,
    options={"base": 1},
    phases=(SPLIT,),
    texts=TEXTS,
    max_loss=max_loss_douniu,
)

DOUNIU_HAPPY = GameSpec(
    key="douniu_happy",
    name_zh="欢乐斗牛",
    name_en="Happy Bull",
    min_seats=2,
    max_seats=6,
    level_table="doudizhu",
    game=HappyDouniuGame,
    faces=card_faces,
    options={},
    phases=(SPLIT,),
    texts=TEXTS,
    max_loss=max_loss_happy,
)

NIUNIU = GameSpec(
    key="niuniu",
    name_zh="牛牛",
    name_en="Niu Niu",
    min_seats=2,
    max_seats=6,
    level_table="doudizhu",
    game=NiuniuGame,
    faces=card_faces,
    options={"stakes": [1, 2, 5, 10]},
    phases=(GRAB, BET, SPLIT),
    texts=TEXTS,
    max_loss=max_loss_niuniu,
)

SPECS: tuple[GameSpec, ...] = (DOUNIU, DOUNIU_HAPPY, NIUNIU)

__all__ = [
    "SPECS",
    "BullGame",
    "DouniuGame",
    "Hand",
    "HappyDouniuGame",
    "Kind",
    "NiuniuGame",
    "Split",
    "best_hand",
    "best_split",
    "evaluate",
]
