"""要不起 without listing every play (issue 24, item 4): ``Game.forced_action`` answers the host's
"is this seat's only answer ``pass``?" cheaply, and every game's answer is the one its
``legal_actions`` gives (the base default) on every position.

Bug it guards: the host listed every waiting seat's legal actions after every action to find
the seats that could only pass (with 50 升级 tables, 1.53 s of the 1.95 s spent in
``TableManager.act``). The cheap tests that replace it must never tell a seat with a play
that it can only pass (the host would pass for it), nor miss a seat that cannot beat the
table (its pass would wait for the whole timer)."""

from __future__ import annotations

from collections import Counter

import pytest

from engines import registry
from engines.base import FORCED_PASS, Game, Setup
from tests.engines.walking import walk

SEEDS = (1, 2)


def default(game: Game, seat: int) -> str | None:
    """The base class's answer, from ``legal_actions``."""
    return Game.forced_action(game, seat)


def self_play(key: str, seed: int) -> Counter[str | None]:
    """At every position of the walk (tests/engines/walking.py) check every seat. Returns how
    often each answer came."""
    seen: Counter[str | None] = Counter()
    for game, hand, step in walk(key, seed):
        for seat in range(game.setup.seats):
            got = game.forced_action(seat)
            assert got == default(game, seat), (
                f"{key} seed {seed} hand {hand} step {step} seat {seat} "
                f"({game.phase()}): forced_action {got!r}, legal actions "
                f"{game.legal_actions(seat)[:8]}")
            seen[got] += 1
    return seen


@pytest.mark.parametrize("key", list(registry.specs()))
def test_forced_action_agrees_with_legal_actions(key: str) -> None:
    seen: Counter[str | None] = Counter()
    for seed in SEEDS:
        seen += self_play(key, seed)
    assert seen[None] > 0  # the checks saw seats with a choice


# the families whose cheap test replaces the listing
OVERRIDES = ("doudizhu", "doudizhu_happy", "doudizhu_2p", "doudizhu_four", "shengji",
             "shengji_happy", "dagunzi", "shuangkou", "gouji", "gouji_new", "sichuan",
             "xuezhan", "yongzhou")
# those where a seat often cannot beat the table: the walk meets forced passes, so the
# shortcut is checked on both answers (升级 and 打滚子 never pass in play, and their windows
# ask only the seats that have something to declare)
CLIMBING = ("doudizhu", "doudizhu_happy", "doudizhu_2p", "doudizhu_four", "shuangkou", "gouji",
            "gouji_new")


@pytest.mark.parametrize("key", OVERRIDES)
def test_forced_action_is_overridden(key: str) -> None:
    spec = registry.get(key)
    game = spec.new(Setup(seats=spec.seats_default or spec.min_seats, seed=1,
                          options=spec.validate({})))
    assert type(game).forced_action is not Game.forced_action


@pytest.mark.parametrize("key", CLIMBING)
def test_self_play_meets_forced_passes(key: str) -> None:
    seen: Counter[str | None] = Counter()
    for seed in SEEDS:
        seen += self_play(key, seed)
    assert seen[FORCED_PASS] > 0
