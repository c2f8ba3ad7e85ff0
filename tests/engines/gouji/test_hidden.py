"""Hidden information in the 够级 window (issue 23): while a 够级牌 waits for its 对头 and for
private 烧 claims, the table shows only the phase and the seats that publicly may beat; once
it closes, only what was taken. Never who could burn, who declined or who let the time run
out."""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest

from engines.gouji.game import GoujiGame


def table(may_burn: bool) -> GoujiGame:
    """Seat 1 plays AA, a 够级牌; its 对头 (seat 4) may answer in both tables; seat 2 holds
    R22 (a burn: 22 then the last lead) in one table only, four cards in both."""
    second = "R22 4" if may_burn else "5 6 7 8"
    return GoujiGame.position(["AA 5 6", second, "3 3 9 9", "KK 9", "8 8", "T J"], leader=0)


def public(game: GoujiGame) -> str:
    """What every seat without a claim sees: the public view, seat 5's view (it may neither
    beat nor burn), who the table shows as acting and the window."""
    return json.dumps([game.view(None).to_json(), game.view(4).to_json(),
                       list(game.public_to_act()), game.window()], ensure_ascii=False)


def close_by_declines(game: GoujiGame) -> None:
    while game.mode == "window":
        game.apply(game.to_act()[0], "pass")


def close_by_timeouts(game: GoujiGame) -> None:
    window = game.window()
    for seat in game.to_act():  # one deadline for the whole window
        game.apply(seat, game.timeout_action(seat).action)
    assert game.window() != window and game.mode != "window"


@pytest.mark.parametrize("close", [close_by_declines, close_by_timeouts])
def test_a_burn_claim_declined_tells_the_table_nothing(
        close: Callable[[GoujiGame], None]) -> None:
    may, may_not = table(True), table(False)
    for game in (may, may_not):
        game.apply(0, "AA")
        assert game.mode == "window" and game.public_to_act() == (3,)
    assert 1 in may.to_act() and 1 not in may_not.to_act()  # the difference is private
    assert public(may) == public(may_not)
    for game in (may, may_not):
        close(game)
    assert public(may) == public(may_not)
    assert may.view(None).seats[1].status is None
