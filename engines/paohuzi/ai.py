"""托管: the trustee of 王炸跑胡子 — always a legal action, forced actions need none.

Habits: 胡 whenever it may; 跑 and 碰 always; 吃 only a group worth 胡息 (一二三, 二七十) with
no 下火; otherwise 过. It discards the tile with the fewest partners in its hand (same tile,
neighbours of its script, the other script's tile of the same number, 二七十 partners), small
before big, so the tiles that can still make groups stay.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engines.paohuzi.groups import run_value
from engines.paohuzi.tiles import WORD_KINDS, parse_tiles, tile_name

if TYPE_CHECKING:
    from engines.paohuzi.game import PaohuziGame


def _partners(hand: list[int], tile: int) -> int:
    r, base = tile % 10, tile - tile % 10
    near = [base + k for k in (r - 2, r - 1, r + 1, r + 2) if 0 <= k <= 9]
    near.append(tile + 10 if tile < 10 else tile - 10)
    if r in (1, 6, 9):
        near += [base + k for k in (1, 6, 9) if k != r]
    return 3 * (hand[tile] - 1) + sum(1 for t in near if hand[t])


def choose(game: PaohuziGame, seat: int) -> str:
    """The trustee's action for ``seat`` (which is in ``game.to_act()``)."""
    legal = game.legal_actions(seat)
    for first in ("hu", "pao", "peng"):
        if first in legal:
            return first
    for action in legal:
        words = action.split()
        if words[0] == "chi" and len(words) == 2 and run_value(tuple(parse_tiles(words[1]))):
            return action
    if "pass" in legal:
        return "pass"
    hand = game.hands[seat]
    tiles = [t for t in range(WORD_KINDS) if tile_name(t) in legal]
    return tile_name(min(tiles, key=lambda t: (_partners(hand, t), t)))
