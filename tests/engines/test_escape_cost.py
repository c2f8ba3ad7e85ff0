"""逃跑的代价 (``Game.escape_cost``): what the terminal names before a person leaves mid-hand
is what the escape then costs them."""

from __future__ import annotations

import pytest

from engines import registry
from engines.base import Game, Setup

SPECS = registry.specs()


def played(game: Game, steps: int) -> Game:
    for _ in range(steps):
        if game.is_over():
            break
        seat = game.to_act()[0]
        game.apply(seat, game.trustee(seat))
    return game


def finish(game: Game) -> Game:
    return played(game, 5000)


@pytest.mark.parametrize("key", sorted(SPECS))
@pytest.mark.parametrize("steps", [0, 9])
def test_an_escape_costs_at_least_what_was_named(key: str, steps: int) -> None:
    spec = SPECS[key]
    seats = spec.seats_default or spec.min_seats
    game = played(spec.new(Setup(seats=seats, seed=11, options=spec.validate({}))), steps)
    if game.is_over():
        return
    seat = 0
    cost = game.escape_cost(seat)
    if cost is None:
        return
    assert cost >= 0
    probe = spec.from_record(game.to_record())
    probe.escape(seat)
    assert probe.escape_cost(seat) == 0  # escaped once, it costs nothing more
    ended = probe.is_over()  # the escape ended the hand (the mahjong rules)
    outcome = finish(probe).outcome()
    assert -outcome.points[seat] >= cost, (key, cost, outcome.points)
    if ended and steps == 0:  # nothing else paid yet: the escape costs exactly that
        assert -outcome.points[seat] == cost, (key, cost, outcome.points)


def test_sichuan_names_its_sixteen_times_to_each_other_seat() -> None:
    """四川 (000): 16 倍 to each of the three other seats still playing; 血战 (002): none."""
    for key, expected in (("sichuan", 16 * 3), ("xuezhan", 0)):
        spec = SPECS[key]
        game = spec.new(Setup(seats=4, seed=3, options=spec.validate({})))
        base = game.rules.base  # type: ignore[attr-defined]
        assert game.escape_cost(0) == expected * base
