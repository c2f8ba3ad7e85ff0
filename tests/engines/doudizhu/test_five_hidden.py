"""Hidden information in 五人斗地主's 亮出身份 (issue 23): whether a 暗地主 exists must not show in
who the table waits for, for how long, or what it shows, until the 暗地主 is known. Seeds 79
(a 暗地主 at seat 2) and 290 (none: the twin is the 明地主's) deal the same 明牌 ♥Q to the same
明地主 (seat 5), so their public pictures start out identical; they must stay so through the
亮出身份 and 加倍 windows, closed by answers and by timeouts, into the play."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from ddz_support import SPEC

from engines.base import Setup
from engines.doudizhu.five import FiveGame

WITH, WITHOUT = 79, 290
FARMERS = (0, 2, 3)
"""Farmers in both deals (indices; index 1 is the first deal's 暗地主, the second's farmer)."""


def deal(seed: int) -> FiveGame:
    game = SPEC["doudizhu_five"].new(Setup(seats=5, seed=seed))
    assert isinstance(game, FiveGame)
    return game


def others_see(view: dict[str, Any], seat: int) -> dict[str, Any]:
    """A seat's view without its own cards (the two deals give each seat other cards): what
    it sees of the table and of the other seats."""
    view = json.loads(json.dumps(view))
    view["hand"] = view["counter"] = None
    view["seats"][seat]["cards"] = None
    if view["shown"] is not None:
        view["shown"]["hand"] = None
        if view["shown"]["seats"]:
            view["shown"]["seats"][seat] = None
    return view


def public(game: FiveGame) -> str:
    """Everything a farmer or an onlooker is shown: the public view, each farmer's view of the
    table, who is shown acting, the decision window (one deadline each) and the phase."""
    return json.dumps(
        [
            game.view(None).to_json(),
            [others_see(game.view(s).to_json(), s) for s in FARMERS],
            list(game.public_to_act()),
            game.window(),
            game.phase(),
        ],
        ensure_ascii=False,
    )


def answer(game: FiveGame) -> None:
    """The first seat the table shows as acting declines (放弃 / 不加倍)."""
    seat = game.public_to_act()[0]
    game.apply(seat, "no" + game.phase())


def time_out(game: FiveGame) -> None:
    """The window's deadline passes: every seat still to act gets its timeout action, as the
    host does."""
    for seat in list(game.to_act()):
        if seat in game.to_act():
            game.apply(seat, game.timeout_action(seat).action)


def test_the_two_deals_differ_only_in_the_hidden_landlord() -> None:
    a, b = deal(WITH), deal(WITHOUT)
    assert a.partner == 1 and b.partner is None
    assert a.landlord == b.landlord == 4 and a.marker_text() == b.marker_text() == "♥Q"
    assert public(a) == public(b)


@pytest.mark.parametrize("close", [answer, time_out], ids=["answers", "timeouts"])
def test_the_reveal_step_looks_the_same_with_or_without_a_hidden_landlord(
    close: Callable[[FiveGame], None],
) -> None:
    a, b = deal(WITH), deal(WITHOUT)
    while a.phase() != "play":
        assert public(a) == public(b), a.phase()
        close(a)
        close(b)
    assert b.phase() == "play"
    assert public(a) == public(b)
    assert not a.known and not b.known  # nobody revealed: the 暗地主 is still hidden


def test_the_reveal_waits_for_the_ming_landlord_only() -> None:
    """The 亮出身份 step is the 明地主's: it closes when the 明地主 answers (or its time runs
    out), and the 暗地主's own reveal never holds it open."""
    for seed in (WITH, WITHOUT):
        game = deal(seed)
        assert game.to_act() == game.public_to_act() == (game.landlord,)
        game.apply(game.landlord, game.timeout_action(game.landlord).action)
        assert game.phase() == "double" and game.to_act() == game.public_to_act()
        assert len(game.to_act()) == 5
