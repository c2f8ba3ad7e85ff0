"""托管: the trustee of 百变双扣 — plain, always legal, never beats its partner.

Leading: the longest play without a 大王 and without a bomb that holds the lowest card
(going out at once if a single play empties the hand). Following an opponent: the weakest
non-bomb that beats it, else the weakest bomb when that opponent is down to 8 cards or fewer
or the bomb ends the hand; otherwise pass. Following the partner: pass.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engines.shuangkou.notation import BIG, PASS
from engines.shuangkou.patterns import play_text, plays

if TYPE_CHECKING:
    from engines.shuangkou.game import ShuangkouGame


def choose(game: ShuangkouGame, seat: int) -> str:
    """The trustee's action for ``seat``, whose turn it is."""
    hand = game.hands[seat]
    n = sum(hand)
    table = game.table
    options = plays(hand, None if table is None else table[2])
    for cards, p in options:
        if sum(cards) == n:
            return play_text(cards, p)  # go out
    if table is None:
        low = min(r for r, c in enumerate(hand) if c)
        plain = [(c, p) for c, p in options if not p.bomb and not (c[BIG] and any(c[:13]))
                 and c[low]]
        if plain:
            cards, p = max(plain, key=lambda cp: (cp[1].n, -cp[1].top))
            return play_text(cards, p)
        cards, p = options[0]
        return play_text(cards, p)
    owner = table[0]
    if owner % 2 == seat % 2:
        return PASS
    plain = [(c, p) for c, p in options if not p.bomb and not c[BIG]]
    if plain:
        return play_text(*plain[0])
    bombs = [(c, p) for c, p in options if p.bomb]
    if bombs and sum(game.hands[owner]) <= 8:
        return play_text(*bombs[0])
    return PASS
