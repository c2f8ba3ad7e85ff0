"""托管: the trustee of 够级 — plain, always legal, burns only when sure to finish.

宣点: no; 要头; never 革命 or 让牌. Leading: the whole hand when it is one play, else all the
cards of its lowest rank (no 2, no 花; in 憋3 never the 3s before the end). Following an
opponent: the weakest play without 花 that beats it; a partner's play: pass. A 烧 claim only
when the rest after the beating play is a single lead (so the condition is met at once); while
burning, each lead carries a 花 and keeps the rest burnable.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engines.gouji.patterns import can_finish_burning, plays, read
from engines.shuangkou.notation import BIG, PASS, SMALL, TWO, format_cards, minus

if TYPE_CHECKING:
    from engines.gouji.game import GoujiGame


def choose(game: GoujiGame, seat: int) -> str:
    """The trustee's action for ``seat``, which is in ``game.to_act()``."""
    phase = game.phase()
    if phase == "declare":
        return "nodeclare"
    if phase == "head":
        return "yaotou"
    hand = game.hands[seat]
    beisan, top_rule = game.beisan, game.big_top
    if game.mode == "lead":
        options = plays(hand, None, beisan, top_rule)
        whole = [c for c, _ in options if c == hand]
        if whole:
            return format_cards(whole[0])
        if game.burn is not None and game.burn[0] == seat:
            keep = [(c, p) for c, p in options
                    if p.jokers and can_finish_burning(minus(hand, c), beisan)]
            if keep:
                cards, _ = min(keep, key=lambda cp: (cp[1].jokers, cp[1].main, -cp[1].n))
                return format_cards(cards)
        plain = [(c, p) for c, p in options
                 if not p.jokers and not p.money and p.main < TWO and c[p.main] == hand[p.main]]
        if plain:
            return format_cards(min(plain, key=lambda cp: cp[1].main)[0])
        return format_cards(options[0][0])
    top = game.top
    assert top is not None
    if game.mode == "window" and game.window_seats[seat] == "burn":
        if top.owner % 2 == seat % 2:
            return PASS  # never burns its own alliance
        for cards, p in plays(hand, top.play, beisan, top_rule):
            rest = minus(hand, cards)
            if not any(rest) or (read(rest) is not None and can_finish_burning(rest, beisan)
                                 and not (beisan and rest[0] and rest != _only_threes(rest))):
                return "burn " + format_cards(cards)
        return PASS
    if top.owner % 2 == seat % 2:
        return PASS
    for cards, p in plays(hand, top.play, beisan, top_rule):
        if not cards[SMALL] and not cards[BIG]:
            return format_cards(cards)
    return PASS


def _only_threes(hand: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(c if r == 0 else 0 for r, c in enumerate(hand))
