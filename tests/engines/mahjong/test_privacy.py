"""Claim windows are private (issue 23): once a window closes, the public table shows what
happened and nothing about who could have claimed — a seat that passed or let its claim lapse
looks exactly like a seat that could not claim at all."""

from __future__ import annotations

import pytest
from mj_support import SEAT0, SEAT2, SEAT3, play, stacked

from engines.base import Setup
from engines.mahjong import SPECS, MahjongGame

SPEC = {s.key: s for s in SPECS}


def passed_window(key: str) -> tuple[MahjongGame, list[int], tuple[object, ...]]:
    """Trustee self-play until a claim window opens in which some seat may 胡; returns the game
    after every claimant passed, the claimants that have not moved since, and the public seat
    lines before the discard."""
    spec = SPEC[key]
    for seed in range(200):
        game = spec.new(Setup(seats=spec.seats_default, seed=seed, options=spec.validate({})))
        assert isinstance(game, MahjongGame)
        before = game.view(None).seats
        for _ in range(400):
            if game.is_over():
                break
            if game.phase() == "claim":
                claimants = list(game.to_act())
                if any("hu" in game.legal_actions(s) for s in claimants):
                    for s in claimants:
                        game.apply(s, "pass")
                    # a seat that drew and moved since (二人麻将's 报听 throws at once) is no test
                    still = [s for s in claimants
                             if game.view(None).seats[s].discards == before[s].discards]
                    if still:
                        return game, still, before
                    break
            before = game.view(None).seats
            seat = game.to_act()[0]
            game.apply(seat, game.trustee(seat))
    raise AssertionError(f"no claim window with a 胡 in {key}")


@pytest.mark.parametrize("key", ["sichuan", "xuezhan", "shaanxi", "wuhan", "yongzhou", "erren"])
def test_a_passed_claim_leaves_the_claimants_seat_lines_unchanged(key: str) -> None:
    game, claimants, before = passed_window(key)
    after = game.view(None).seats
    for s in claimants:  # (a claimant next in turn has drawn: its count may have grown)
        assert (after[s].role, after[s].status, after[s].melds, after[s].discards) == (
            before[s].role, before[s].status, before[s].melds, before[s].discards
        ), f"seat {s + 1}'s public line changed by passing"


# 血战, as seen in Discord (seed 1001, step 32): seat 3 discards 2m, only seat 2 may 胡 it, nobody
# answers; seat 2's line turned from "discarded 2m" to "passed". Here the same discards are played
# twice, once with seat 2 (index 1) waiting on 2m and once with a hand that cannot take it.
WAITING = "2m345m678m234p567p"  # a single wait on 2m
NOT_WAITING = "1m345m678m234p567p"  # a single wait on 1m


def table_after(seat1: str, ques: str | None) -> MahjongGame:
    """Seat 0 throws 9s, seat 1 9p, seat 2 draws and throws 2m."""
    game = stacked("", "9s9p2m", hands=[SEAT0, seat1, SEAT2, SEAT3], ques=ques)
    play(game, "0:9s", "1:9p", "2:2m")
    return game


@pytest.mark.parametrize("ques", [None, "pspm"])  # 缺一门, or the room option 定缺
def test_the_public_table_is_the_same_whether_or_not_a_seat_could_win(ques: str | None) -> None:
    waiting = table_after(WAITING, ques)
    assert waiting.phase() == "claim" and waiting.legal_actions(1) == ["hu", "pass"]
    timeout = waiting.timeout_action(1)
    waiting.apply(1, timeout.action)  # nobody answers: the claim lapses
    idle = table_after(NOT_WAITING, ques)
    assert idle.phase() == "discard"  # nobody could claim: no window at all
    assert waiting.to_act() == idle.to_act() == (3,)
    assert waiting.view(None) == idle.view(None)
    assert waiting.view(3) == idle.view(3)
