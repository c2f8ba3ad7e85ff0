"""托管水平: every game's trustee answers at every level (easy, normal, hard), always legally,
and an unknown level is refused with the levels named, the hand unchanged."""

from __future__ import annotations

import pytest

from engines import registry
from engines.base import LEVELS, Game, Setup


def _new(key: str, seed: int = 3) -> Game:
    spec = registry.get(key)
    return spec.new(Setup(seats=spec.min_seats, seed=seed, options=spec.validate({})))


def test_the_levels_are_easy_normal_hard() -> None:
    assert LEVELS == ("easy", "normal", "hard")


def test_an_unknown_level_is_refused_and_changes_nothing() -> None:
    game = _new("doudizhu")
    seat = game.to_act()[0]
    before = game.snapshot()
    with pytest.raises(ValueError, match="easy, normal, hard") as caught:
        game.trustee(seat, "expert")
    assert "expert" in str(caught.value)
    assert game.snapshot() == before and game.log == []


@pytest.mark.parametrize("key", sorted(registry.specs()))
def test_every_game_plays_every_level_legally(key: str) -> None:
    """Forty steps of each game, the levels taking turns; each choice is one of the seat's
    legal actions (where the game lists them) and is applied (an illegal one would raise)."""
    game = _new(key)
    for step in range(40):
        if game.is_over():
            break
        seat = game.to_act()[0]
        level = LEVELS[step % len(LEVELS)]
        action = game.trustee(seat, level)
        legal = game.legal_actions(seat)
        assert not legal or action in legal, (level, action)
        game.apply(seat, action)
