"""The claim windows of the trick family (升级, 欢乐升级, 打滚子) are worked out once per state
change (``engines.trick.hand.TrickHand.decision``).

Bug it guards: 升级's ``decision`` read every hand for the seats that may declare each time the
host asked it — about ten times per host action, through ``to_act``, ``public_to_act``,
``window`` and the trustee — so the host's cost per 升级 action grew with the deal."""

from __future__ import annotations

import pytest

from engines.base import Window
from tests.engines.walking import walk

KEYS = ("shengji", "shengji_happy", "dagunzi")


@pytest.mark.parametrize("key", KEYS)
def test_a_claim_window_is_worked_out_once_and_agrees_with_the_hands(key: str) -> None:
    windows = 0
    for seed in (1, 2, 3):
        for game, hand, step in walk(key, seed):
            window = game.decision()
            where = f"{key} seed {seed} hand {hand} step {step} ({game.phase()})"
            if window is None:
                continue
            windows += 1
            assert game.decision() is window, f"{where}: worked out again"
            fresh = Window.claims(game._eligible(), game.window_key)  # type: ignore[attr-defined]
            assert window == fresh, f"{where}: {window} kept, the hands say {fresh}"
    assert windows > 0
