"""One walker through every registered game for the property tests that check a query on every
position a hand reaches (``private_face``, ``forced_action``, 升级's and 打滚子's claim windows):
seeded, mostly random legal actions and sometimes the trustee's, over a hand and the next one
dealt from its carry (进贡, banker, levels)."""

from __future__ import annotations

import random
from collections.abc import Iterator

from engines import registry
from engines.base import Game, Setup

HANDS = 2
MAX_STEPS = 600


def walk(key: str, seed: int, hands: int = HANDS,
         max_steps: int = MAX_STEPS) -> Iterator[tuple[Game, int, int]]:
    """Play ``hands`` hands of game ``key`` from ``seed``; yield ``(game, hand, step)`` at every
    position reached, the first before any action and the last once the hand is over (or
    ``max_steps`` actions in). Seven actions in ten are a random legal one, the rest the
    trustee's; a hand left unfinished ends the walk."""
    spec = registry.get(key)
    seats = spec.seats_default or spec.min_seats
    rng = random.Random(seed)
    carry: dict[str, object] = {}
    for hand in range(hands):
        game = spec.new(Setup(seats=seats, seed=seed * 10 + hand,
                              options=spec.validate({}), carry=carry))
        for step in range(max_steps):
            yield game, hand, step
            if game.is_over():
                break
            seat = rng.choice(game.to_act())
            legal = game.legal_actions(seat)
            action = rng.choice(legal) if legal and rng.random() < 0.7 else game.trustee(seat)
            game.apply(seat, action)
        if not game.is_over():
            return
        carry = dict(game.next_carry())
