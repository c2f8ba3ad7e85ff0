"""Helpers for the 斗地主 tests: a rigged deal for scripted hands (imported as ddz_support)."""

from __future__ import annotations

from typing import Any

from engines.base import Setup
from engines.doudizhu import SPECS, DoudizhuGame
from engines.doudizhu.notation import NRANKS, parse_cards

FULL = (4,) * 13 + (1, 1)
SPEC = {s.key: s for s in SPECS}


def rig(game: DoudizhuGame, hands: list[str], kitty: str) -> None:
    """Replace the seeded deal with chosen cards (must be the whole deck), before any action.

    ``hands`` may leave the last hand empty: it then gets every card not yet dealt.
    """
    counts = [list(parse_cards(h)) if h else None for h in hands]
    kit = parse_cards(kitty)
    used = [sum(c[r] for c in counts if c is not None) + kit[r] for r in range(NRANKS)]
    for i, c in enumerate(counts):
        if c is None:
            counts[i] = [FULL[r] - used[r] for r in range(NRANKS)]
    total = [sum(c[r] for c in counts if c is not None) + kit[r] for r in range(NRANKS)]
    assert tuple(total) == FULL, "a rigged deal must use the whole deck exactly once"
    game.hands = [list(c) for c in counts if c is not None]
    game.dealt = [[r for r in range(NRANKS) for _ in range(h[r])] for h in game.hands]
    game.kitty = kit
    game.kitty_cards = tuple(r for r in range(NRANKS) for _ in range(kit[r]))


def new(key: str = "doudizhu", seed: int = 1, **kwargs: Any) -> DoudizhuGame:
    setup = Setup(seats=3, seed=seed, **kwargs)
    game = SPEC[key].new(setup)
    assert isinstance(game, DoudizhuGame)
    return game


def play_out(game: DoudizhuGame) -> None:
    """Let the trustee finish the hand."""
    while not game.is_over():
        seat = game.to_act()[0]
        game.apply(seat, game.trustee(seat))
