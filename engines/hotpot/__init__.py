"""吃火锅: Hot Pot, four players betting on a third card against a shared pot (GAMES.md §4).

Rules and decisions: docs/games/hotpot.md.
"""

from __future__ import annotations

from engines.base import GameSpec
from engines.faces import card_faces
from engines.hotpot.game import DEFAULTS, PLAY, HotpotGame, Turn, max_loss
from engines.hotpot.rules import Third, resolve
from engines.hotpot.texts import TEXTS

HOTPOT = GameSpec(
    key="hotpot",
    name_zh="吃火锅",
    name_en="Hot Pot",
    min_seats=4,
    max_seats=4,
    level_table="doudizhu",
    game=HotpotGame,
    faces=card_faces,
    options=dict(DEFAULTS),
    phases=(PLAY,),
    texts=TEXTS,
    max_loss=max_loss,
)

SPECS: tuple[GameSpec, ...] = (HOTPOT,)

__all__ = ["HOTPOT", "SPECS", "HotpotGame", "Third", "Turn", "resolve"]
