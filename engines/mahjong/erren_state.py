"""二人麻将's hand: the two-seat deal (71 tiles in play, the unused pool, 花牌) and the rules'
queries (役 wins, 听牌, 报听 / 搓牌 / 换牌 offers). Flow and decisions: engines.mahjong.erren.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from itertools import combinations_with_replacement
from typing import Any, ClassVar

from engines.base import Setup
from engines.mahjong.fan import MeldKind
from engines.mahjong.game import MahjongGame
from engines.mahjong.tiles import format_tiles, tile_name
from engines.mahjong.yaku import is_erren_win

SWAP = "swap"
SWAP_KEY = -2  # ``Window.key`` of the 换牌 window (once, at the start)
IN_PLAY = 71
""""每次游戏开始后，随机选出 71 张牌进行游戏"."""
FLOWERS = 2
"""花牌 turned up from the unused tiles at the start."""
CUO = 0.1
"""Chance of a 搓牌 offer on a draw."""
HUAN = 0.1
"""Chance of a 换牌 (triplet) offer on a draw."""
HAIDI_DRAWS = 3
ESCAPE = 13
ERREN_OPTIONS: dict[str, Any] = {}


class ErrenState(MahjongGame):
    """二人麻将's state over the core: the pool, 花牌, 报听 and the offers; what the rules ask."""

    KEY: ClassVar[str] = "erren"
    N: ClassVar[int] = 2
    KINDS: ClassVar[int] = 34

    _first = False
    """Whether the seat's last draw was its first (人和)."""

    def __init__(self, setup: Setup, wall: Sequence[int] | None = None) -> None:
        """A new hand; ``wall`` stacks all 136 tiles: the first 71 are played (deal, then
        draws), the rest is the unused pool whose last two are the 花牌."""
        super().__init__(setup, wall)
        self.unused: list[int] = self.wall[IN_PLAY:]
        self.wall = self.wall[:IN_PLAY]
        self.flowers = tuple(self.unused.pop() for _ in range(FLOWERS))
        self.rng = random.Random(setup.seed * 7919 + 17)
        self.swapped: list[bool] = [False] * self.N
        self.riichi: list[bool] = [False] * self.N
        self.riichi_order: list[int] = []
        self.tianting: list[bool] = [False] * self.N
        self.ready_at: list[int | None] = [None] * self.N
        self.cuo_offer = False
        self.huan_offer: int | None = None
        self.haidi: int | None = None  # the seat drawing 海底捞月
        self.haidi_left = 0
        self.first_draw = [True] * self.N
        self._phase = SWAP

    def last_four(self) -> bool:
        return False

    def opponent(self, seat: int) -> int:
        return 1 - seat

    def can_win_with(self, seat: int, tile: int | None, *, discard: bool) -> bool:
        if self.wins:
            return False
        hand = list(self.hands[seat])
        if tile is not None:
            hand[tile] += 1
        return is_erren_win(hand, self.melds[seat])

    def is_ready(self, seat: int) -> bool:
        """听牌: some tile would complete the concealed hand."""
        return any(self.can_win_with(seat, t, discard=False) for t in range(34))

    def kong_options(self, seat: int) -> list[str]:
        if self.riichi[seat] or self.haidi is not None:
            return []
        return super().kong_options(seat)

    def _claimable(self, seat: int, tile: int) -> bool:
        return not self.riichi[seat]

    def _chi_options(self, seat: int, tile: int) -> list[str]:
        return self.chi_runs(seat, tile)

    def _kong_money(self, seat: int, kind: MeldKind, tile: int, source: int | None) -> None:
        """Kongs pay nothing; they count for 杠上开花 and 四杠子."""
        self.kongs.append((seat, len(self.events)))
        self.kong_events.append([])
        self.claimed = True

    def ting_options(self, seat: int) -> list[str]:
        """报听: discards that leave the hand ready."""
        if self.riichi[seat] or self.haidi is not None:
            return []
        out = []
        hand = self.hands[seat]
        for t in range(34):
            if hand[t]:
                hand[t] -= 1
                ready = self.is_ready(seat)
                hand[t] += 1
                if ready:
                    out.append(f"ting {tile_name(t)}")
        return out

    def huan_options(self, seat: int) -> list[str]:
        if self.huan_offer is None:
            return []
        held = [t for t in range(34) if self.hands[seat][t]]
        out = []
        for combo in combinations_with_replacement(held, 3):
            if all(combo.count(t) <= self.hands[seat][t] for t in combo):
                out.append("huan " + format_tiles(combo))
        return out

    def cuo_options(self) -> list[str]:
        if not self.cuo_offer or self.drawn is None:
            return []
        return [f"cuo {tile_name(t)}" for t in sorted(set(self.unused))]

    def census(self) -> Counter[int]:
        c = super().census()
        c.update(self.unused)
        c.update(self.flowers)
        return c
