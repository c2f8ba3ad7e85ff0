"""打滚子: three decks, 39 cards each, 棒子 and 滚子, 进贡 and kitty jokers (GAMES.md §6).

Rules and decisions: docs/games/dagunzi.md.
"""

from __future__ import annotations

from engines.base import GameSpec
from engines.dagunzi.game import (
    BURY,
    DECLARE,
    DEFAULTS,
    JOKERS,
    PLAY,
    RETURN,
    SHOW,
    DagunziGame,
    max_loss,
)
from engines.dagunzi.texts import TEXTS
from engines.faces import card_faces

DAGUNZI = GameSpec(
    key="dagunzi",
    name_zh="打滚子",
    name_en="Da Gunzi",
    min_seats=4,
    max_seats=4,
    level_table="doudizhu",
    game=DagunziGame,
    faces=card_faces,
    options=dict(DEFAULTS),
    phases=(DECLARE, SHOW, RETURN, BURY, JOKERS, PLAY),
    texts=TEXTS,
    max_loss=max_loss,
)

SPECS: tuple[GameSpec, ...] = (DAGUNZI,)

__all__ = ["DAGUNZI", "SPECS", "DagunziGame"]
