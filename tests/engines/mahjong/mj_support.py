"""Helpers for the mahjong tests: stacked hands, scripted play, seeded trustee self-play."""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from engines.base import Setup, Transfer
from engines.mahjong import MahjongGame, XuezhanGame, stacked_wall

# Three hands that claim nothing and win nothing on the tiles the scenarios discard: singles of
# 万 and 条 with a few 筒. Seat 1 is the hand under test (13 tiles of 筒 and 条, void in 万).
SEAT0 = "13579m13579s258p"
SEAT2 = "24568m24568s679p"
SEAT3 = "13579m13579s789p"


def stacked(
    seat1: str,
    draws: str,
    *,
    key: str = "xuezhan",
    options: Mapping[str, Any] | None = None,
    hands: Sequence[str] | None = None,
    ques: str | None = "pmmp",
    dealer: int = 0,
) -> MahjongGame:
    """A hand dealt from a stacked wall (seat 0 deals unless ``dealer`` says otherwise; its
    14th tile is the first of ``draws``), with the room option 定缺 on and 定缺 done as
    ``ques`` (one letter per seat); ``ques=None``: the default rule, 缺一门 without 定缺."""
    cls = XuezhanGame if key == "xuezhan" else MahjongGame
    deal = list(hands) if hands is not None else [SEAT0, seat1, SEAT2, SEAT3]
    opts = {**({"dingque": True} if ques is not None else {}), **dict(options or {})}
    setup = Setup(seats=4, seed=0, options=opts, carry={"dealer": dealer})
    game = cls(setup, wall=stacked_wall(deal, draws, dealer))
    for seat, suit in enumerate(ques or ""):
        game.apply(seat, f"que {suit}")
    return game


def play(game: MahjongGame, *moves: str) -> None:
    """Apply moves written "seat:action" (e.g. "1:5m", "2:peng")."""
    for move in moves:
        seat, action = move.split(":", 1)
        game.apply(int(seat), action)


def flows(transfers: Sequence[Transfer]) -> list[tuple[int, int, int]]:
    """Transfers as (payer, payee, points)."""
    return [(t.payer, t.payee, t.points) for t in transfers]


def selfplay(
    key: str, seed: int, options: Mapping[str, Any] | None = None
) -> Iterator[tuple[MahjongGame, int, str]]:
    """Seeded trustee self-play: yields (game, seat, action) before each action; the action is
    applied after the yield unless the consumer applied something itself."""
    from engines.mahjong import SPECS

    spec = {s.key: s for s in SPECS}[key]
    game = spec.new(Setup(seats=4, seed=seed, options=spec.validate(dict(options or {}))))
    assert isinstance(game, MahjongGame)
    for _ in range(2000):
        if game.is_over():
            return
        seat = game.to_act()[0]
        action = game.trustee(seat)
        length = len(game.log)
        yield game, seat, action
        if len(game.log) == length:
            game.apply(seat, action)
    raise AssertionError("the hand did not end")


def deal_hidden_again(game: MahjongGame, seat: int, rng: random.Random) -> None:
    """Deal what ``seat`` may not see again at random: the other hands (as many tiles each)
    and the rest of the wall. A trustee that reads only its own seat chooses the same after."""
    others = [s for s in range(game.N) if s != seat]
    hidden = [t for s in others for t in range(34) for _ in range(game.hands[s][t])]
    hidden += game.wall[game.pos :]
    rng.shuffle(hidden)
    for s in others:
        n = sum(game.hands[s])
        game.hands[s] = [0] * 34
        for t in hidden[:n]:
            game.hands[s][t] += 1
        hidden = hidden[n:]
    game.wall[game.pos :] = hidden
