"""百变双扣: the four-seat partnership climbing game with the 大王 wild (GAMES.md §8).

Rules and decisions: docs/games/shuangkou.md.
"""

from __future__ import annotations

from engines.base import GameSpec
from engines.faces import card_faces
from engines.shuangkou.game import DEFAULTS, PLAY, ShuangkouGame, max_loss
from engines.shuangkou.texts import TEXTS

SHUANGKOU = GameSpec(
    key="shuangkou",
    name_zh="百变双扣",
    name_en="Shuangkou (wild jokers)",
    min_seats=4,
    max_seats=4,
    level_table="doudizhu",
    game=ShuangkouGame,
    faces=card_faces,
    options=dict(DEFAULTS),
    phases=(PLAY,),
    texts=TEXTS,
    max_loss=max_loss,
)

SPECS: tuple[GameSpec, ...] = (SHUANGKOU,)

__all__ = ["SHUANGKOU", "SPECS", "ShuangkouGame"]
