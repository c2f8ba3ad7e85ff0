"""五子棋 (Gomoku / Renju): 15 × 15, five in a row, 禁手 for black, three room modes.

Rooms of seed 000 as options: 无禁手 = ``{"forbidden": False, "opening": "standard"}``,
三手交换 = ``{"forbidden": True, "opening": "swap3"}``, 五手两打 =
``{"forbidden": True, "opening": "five2"}``. See docs/games/gomoku.md.
"""

from __future__ import annotations

from engines.base import GameSpec
from engines.gomoku.game import DEFAULT_OPTIONS, GomokuGame, Opening
from engines.gomoku.notation import Action, Kind, parse_point, point_name
from engines.gomoku.rules import Forbidden, Position
from engines.gomoku.scoring import draw_change, win_change
from engines.gomoku.texts import TEXTS

SPEC = GameSpec(
    key="gomoku",
    name_zh="五子棋",
    name_en="Gomoku",
    min_seats=2,
    max_seats=2,
    seats_default=2,
    level_table="gomoku",
    game=GomokuGame,
    options=DEFAULT_OPTIONS,
    phases=("move", "swap", "offer", "choose"),
    texts=TEXTS,
    max_loss=lambda options, seats: 1,
)

SPECS: tuple[GameSpec, ...] = (SPEC,)

__all__ = [
    "SPEC",
    "SPECS",
    "Action",
    "Forbidden",
    "GomokuGame",
    "Kind",
    "Opening",
    "Position",
    "draw_change",
    "parse_point",
    "point_name",
    "win_change",
]
