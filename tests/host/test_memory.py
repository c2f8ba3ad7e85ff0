"""Memory budgets: the bytes a mid-hand game holds of its own, per registered game.

A hall keeps thousands of live hands (issue 27: at most 20 KiB per mid-hand table, game and
host together). ``bot.host.memory.own_bytes`` counts what one game holds that another hand of
the same game does not share (rules, pattern tables, interned names are shared), halfway
through a hand of random legal actions. A game that grows past its budget fails here; raise a
budget only knowing what the bytes buy. Before the budgets (the same measure): 斗地主 12.3 KiB,
够级 33.0, 四川/血战 12.8, 升级 12.6; the action log as one tuple per action, 够级's suits as
lists of ints per rank, 斗地主's shuffle stream kept all hand long were most of it."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from bot.host.memory import own_bytes
from engines import registry
from engines.base import Game, Setup, Text

KIB = 1024
BUDGETS: dict[str, float] = {
    "dagunzi": 17.0,
    "doudizhu": 8.5,
    "doudizhu_2p": 8.5,
    "doudizhu_five": 23.5,
    "doudizhu_four": 11.5,
    "doudizhu_happy": 8.5,
    "doudizhu_hot": 9.0,
    "doudizhu_mala": 9.0,
    "doudizhu_wild": 9.0,
    "douniu": 3.0,
    "douniu_happy": 2.5,
    "erren": 14.0,
    "gomoku": 8.5,
    "gouji": 19.5,
    "gouji_new": 18.5,
    "hotpot": 7.0,
    "niuniu": 3.0,
    "paohuzi": 10.0,
    "shaanxi": 13.5,
    "shengji": 11.5,
    "shengji_happy": 11.5,
    "shuangkou": 8.0,
    "sichuan": 11.0,
    "wuhan": 13.0,
    "xuezhan": 11.0,
    "yongzhou": 13.5,
}
"""KiB a mid-hand game may hold of its own: what it held when measured, and about 10% more."""


def mid_hand(key: str, seed: int) -> Game:
    """Halfway through a hand of random legal actions (seeded), as the host leaves it."""
    spec = registry.get(key)
    setup = Setup(seats=spec.seats_default or spec.min_seats, seed=seed,
                  options=spec.validate({}))
    game, rng, moves = spec.new(setup), random.Random(seed), []
    while not game.is_over():
        seat = rng.choice(game.to_act())
        action = rng.choice(game.legal_actions(seat))
        moves.append((seat, action))
        game.apply(seat, action)
    game = spec.new(setup)
    for seat, action in moves[: len(moves) // 2]:
        game.apply(seat, action)
    return game


def test_every_game_has_a_budget() -> None:
    assert sorted(BUDGETS) == sorted(registry.specs())


def held_bytes(key: str) -> int:
    """The most a mid-hand game of ``key`` holds of its own, over three seeds."""
    return max(own_bytes(mid_hand(key, seed), mid_hand(key, seed + 1000)) for seed in range(3))


@pytest.fixture(scope="module")
def measured() -> dict[str, int]:
    """Every game's ``held_bytes``, measured in a fresh interpreter: what other tests left in
    this process (a class whose instances lost their shared-key dicts, warmed caches) would
    change the figures by several hundred bytes."""
    here = Path(__file__).resolve()
    code = (f"import json, sys; sys.path.insert(0, {str(here.parent)!r}); "
            "import test_memory as m; "
            "print(json.dumps({k: m.held_bytes(k) for k in m.BUDGETS}))")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        [str(here.parents[2]), os.environ.get("PYTHONPATH", "")])}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env=env, check=True)
    return {k: int(v) for k, v in json.loads(done.stdout.splitlines()[-1]).items()}


@pytest.mark.parametrize("key", sorted(BUDGETS))
def test_a_mid_hand_game_keeps_within_its_budget(key: str, measured: dict[str, int]) -> None:
    held = measured[key]
    assert held <= BUDGETS[key] * KIB, (
        f"{key}: a mid-hand game holds {held / KIB:.1f} KiB of its own, "
        f"over its budget of {BUDGETS[key]} KiB")


def test_own_bytes_leaves_out_what_two_hands_share() -> None:
    one, other = mid_hand("doudizhu", 1), mid_hand("doudizhu", 2)
    assert own_bytes(one, one) == 0, "a hand shares everything with itself"
    assert 0 < own_bytes(one, other) < own_bytes(one, object())


@pytest.mark.parametrize("key", ["doudizhu", "sichuan", "gouji", "shengji"])
def test_hands_nobody_escaped_from_share_one_empty_set(key: str) -> None:
    """Each ``frozenset()`` is a new object of 216 bytes: a hand nobody left holds the one
    empty set every game shares."""
    one, other = mid_hand(key, 1), mid_hand(key, 2)
    assert one.escaped == frozenset() and one.escaped is other.escaped
    one.escape(0)
    assert one.escaped == {0} and other.escaped == frozenset(), "an escape is the hand's own"


@pytest.mark.parametrize("key", ["sichuan", "xuezhan"])
def test_seats_showing_the_same_discard_share_one_status(key: str) -> None:
    """A seat shows its last discard all hand long (打出 九筒): one status per tile, which every
    hand shares, not a text (and the tile's name) of each seat's own."""
    hands = [mid_hand(key, seed) for seed in range(4)]
    by_tile: dict[str, list[Text]] = {}
    for game in hands:
        for status in game.status:
            if status is not None and status.key == "mj.status.discard":
                by_tile.setdefault(status.args["tile"].key, []).append(status)
    alike = [same for same in by_tile.values() if len(same) > 1]
    assert alike, "some seats of these hands show the same discard"
    for same in alike:
        assert all(s is same[0] for s in same), f"{same[0]}: one text per tile"
