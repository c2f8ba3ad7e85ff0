"""升级 / 欢乐升级: the four-seat trick game with levels, trumps and a kitty (GAMES.md §5).

Rules and decisions: docs/games/shengji.md.
"""

from __future__ import annotations

from engines.base import GameSpec
from engines.faces import card_faces
from engines.shengji.game import (
    BURY,
    COUNTER,
    DECLARE,
    DEFAULTS,
    PLAY,
    HappyShengjiGame,
    ShengjiGame,
    max_loss,
    max_loss_happy,
)
from engines.shengji.texts import TEXTS

SHENGJI = GameSpec(
    key="shengji",
    name_zh="升级",
    name_en="Shengji (Tractor)",
    min_seats=4,
    max_seats=4,
    level_table="doudizhu",
    game=ShengjiGame,
    faces=card_faces,
    options=dict(DEFAULTS),
    phases=(DECLARE, BURY, PLAY),
    texts=TEXTS,
    max_loss=max_loss,
)

SHENGJI_HAPPY = GameSpec(
    key="shengji_happy",
    name_zh="欢乐升级",
    name_en="Happy Shengji",
    min_seats=4,
    max_seats=4,
    level_table="doudizhu",
    game=HappyShengjiGame,
    faces=card_faces,
    options=dict(DEFAULTS),
    phases=(DECLARE, BURY, COUNTER, PLAY),
    texts=TEXTS,
    max_loss=max_loss_happy,
)

SPECS: tuple[GameSpec, ...] = (SHENGJI, SHENGJI_HAPPY)

__all__ = ["SHENGJI", "SHENGJI_HAPPY", "SPECS", "HappyShengjiGame", "ShengjiGame"]
