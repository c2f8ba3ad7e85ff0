"""Hidden information in 跑胡子 claim windows (issue 23): while a tile is on offer the table
shows only that a decision is pending, and once the window closes only what was taken; never
who could have claimed, who declined or who let the time run out."""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest

from engines.base import Setup
from engines.paohuzi import PaohuziGame, stacked
from engines.paohuzi.game import CLAIM

ANN = "五 一一 二二 三 七七 八八 九 十十 壹壹 贰贰 叁 肆 伍 柒"
BOB = "四六 一 二 三 九九 十 壹 贰 叁叁 肆肆 陆陆 捌捌 玖玖"
CAT_REST = "四四 六六 七七 八八 拾拾 伍伍 柒柒 陆 捌 玖 三"


def table(cat_may_peng: bool) -> PaohuziGame:
    """Seed 1003's case: ann (seat 1, dealer) is to discard 五; bob (her 下家) may 吃 it with
    四六 in both tables; cat holds 五五 (and may 碰) in one table only."""
    cat = ("五五 " if cat_may_peng else "九 壹 ") + CAT_REST
    setup = Setup(seats=3, seed=1003, carry={"dealer": 0})
    return PaohuziGame(setup, stack=stacked([ANN, BOB, cat], "", 0))


def public(game: PaohuziGame) -> str:
    """Everything a seat without a claim sees: the public view, ann's view, who the table
    shows as acting and the window."""
    return json.dumps([game.view(None).to_json(), game.view(0).to_json(),
                       list(game.public_to_act()), game.window()], ensure_ascii=False)


def close_by_declines(game: PaohuziGame) -> None:
    window = game.window()
    while game.phase() == CLAIM and game.window() == window:
        game.apply(game.to_act()[0], "pass")


def close_by_timeouts(game: PaohuziGame) -> None:
    window = game.window()
    for seat in game.to_act():  # one deadline for the whole window
        timeout = game.timeout_action(seat)
        assert timeout.action == "pass" and not timeout.miss
        game.apply(seat, timeout.action)
    assert game.window() != window


@pytest.mark.parametrize("close", [close_by_declines, close_by_timeouts])
def test_a_declined_claim_tells_the_table_nothing(
        close: Callable[[PaohuziGame], None]) -> None:
    # issue 23, seen in Discord: only cat could 碰 ann's discard; after the window cat's seat
    # line turned to "passed", telling everyone she had held a pair of it
    may, may_not = table(True), table(False)
    for game in (may, may_not):
        game.apply(0, "x5")
        assert game.phase() == CLAIM
    assert 2 in may.to_act() and 2 not in may_not.to_act()  # the difference is private
    assert public(may) == public(may_not)
    assert may.view(1).to_json() == may_not.view(1).to_json()  # bob sees nothing of cat
    for game in (may, may_not):
        close(game)
    assert public(may) == public(may_not)
    assert may.view(None).seats[2].status is None  # cat still shows nothing
    assert may.view(None).seats[0].status is not None  # ann "discarded 五"
