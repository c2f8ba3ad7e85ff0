"""够级 / 新够级: the six-seat alliance climbing game with four decks (GAMES.md §7).

Rules and decisions: docs/games/gouji.md.
"""

from __future__ import annotations

from engines.base import GameSpec
from engines.faces import card_faces
from engines.gouji.game import (
    BURN,
    CLASSIC,
    DECLARE,
    HEAD,
    NEW,
    PLAY,
    ClassicGoujiGame,
    GoujiGame,
    max_loss,
)
from engines.gouji.texts import TEXTS

GOUJI_NEW = GameSpec(
    key="gouji_new",
    name_zh="新够级",
    name_en="Gouji (new rules)",
    min_seats=6,
    max_seats=6,
    level_table="gouji",
    game=GoujiGame,
    faces=card_faces,
    options=dict(NEW),
    phases=(DECLARE, HEAD, PLAY, BURN),
    texts=TEXTS,
    max_loss=max_loss,
)

GOUJI = GameSpec(
    key="gouji",
    name_zh="够级",
    name_en="Gouji",
    min_seats=6,
    max_seats=6,
    level_table="gouji",
    game=ClassicGoujiGame,
    faces=card_faces,
    options=dict(CLASSIC),
    phases=(DECLARE, HEAD, PLAY, BURN),
    texts=TEXTS,
    max_loss=max_loss,
)

SPECS: tuple[GameSpec, ...] = (GOUJI_NEW, GOUJI)

__all__ = ["GOUJI", "GOUJI_NEW", "SPECS", "ClassicGoujiGame", "GoujiGame"]
