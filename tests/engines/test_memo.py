"""The host's questions answered once per state (``engines.base.MEMO_HOOKS``): between
``Game.remember`` and ``Game.forget`` a game keeps each answer until its state changes, and
every kept answer is the one a game that keeps none gives, on every position of every
registered game.

Bug it guards: after every action the host asked the same game the same questions several
times — ``to_act`` (through ``decision``) about ten times, each waiting seat's forced pass
twice (the DMs, then the timer), the acting seat's view beside its choices and picker — and
升级's ``decision`` alone was most of a call. A kept answer that outlived its state would show
a DM, a timer or a turn of the position before: so the answers are compared with a replay that
keeps none, and a direct change to a game's fields outside the host's span is seen at once."""

from __future__ import annotations

import random

import pytest

from engines import registry
from engines.base import Game, Setup

SEEDS = (3,)
MAX_STEPS = 400


def answers(game: Game) -> list[object]:
    """Everything the host asks of a state, for every seat."""
    out: list[object] = [game.to_act(), game.public_to_act(), game.window(), game.phase(),
                         game.decision()]
    for seat in range(game.setup.seats):
        out += [game.legal_actions(seat), game.forced_action(seat), game.private_face(seat),
                game.view(seat), game.open_offers(seat)]
        if seat in game.to_act():
            out += [game.choices(seat), game.picker(seat)]
    out.append(game.view(None))
    return out


@pytest.mark.parametrize("key", list(registry.specs()))
def test_remembered_answers_are_the_fresh_ones(key: str) -> None:
    spec = registry.get(key)
    seats = spec.seats_default or spec.min_seats
    for seed in SEEDS:
        setup = Setup(seats=seats, seed=seed, options=spec.validate({}))
        kept, fresh = spec.new(setup), spec.new(setup)
        kept.remember()
        rng = random.Random(seed)
        for step in range(MAX_STEPS):
            asked = answers(kept)
            assert asked == answers(kept), f"{key} step {step}: asked twice, answered otherwise"
            assert asked == answers(fresh), f"{key} seed {seed} step {step} ({fresh.phase()})"
            if fresh.is_over():
                break
            seat = rng.choice(fresh.to_act())
            legal = fresh.legal_actions(seat)
            action = rng.choice(legal) if legal else fresh.trustee(seat)
            kept.apply(seat, action)
            fresh.apply(seat, action)
        kept.forget()


def test_a_state_is_answered_once_while_remembered() -> None:
    game = registry.get("doudizhu").new(Setup(seats=3, seed=5))
    assert game.view(0) is not game.view(0), "outside the host's span: asked afresh"
    game.remember()
    view, legal = game.view(0), game.legal_actions(game.to_act()[0])
    assert game.view(0) is view, "the same state: the answer kept"
    again = game.legal_actions(game.to_act()[0])
    assert again == legal and again is not legal, "a list is handed out as a copy"
    again.clear()
    assert game.legal_actions(game.to_act()[0]) == legal, "changing a copy changes nothing"
    seat = game.to_act()[0]
    game.apply(seat, game.legal_actions(seat)[0])
    assert game.view(0) is not view and game.view(0) is game.view(0), "a new state, kept anew"
    game.forget()
    assert game.view(0) is not game.view(0)


def test_a_direct_change_outside_the_span_is_seen() -> None:
    game = registry.get("doudizhu").new(Setup(seats=3, seed=5))
    game.remember()
    before = game.view(0).hand
    game.forget()
    game.hands[0] = [0] * len(game.hands[0])
    assert game.view(0).hand != before
