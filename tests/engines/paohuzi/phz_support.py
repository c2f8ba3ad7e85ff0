"""Helpers for the 跑胡子 tests: stacked deals, scripted play, claims passed."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping
from typing import Any

from engines.base import Setup
from engines.paohuzi import PaohuziGame, stacked
from engines.paohuzi.game import CLAIM
from engines.paohuzi.tiles import WILD, format_zh, full_set, parse_tiles

# Padding goes kind by kind in this order, so a seat's filler is spread over both scripts.
_ORDER = [19, 8, 17, 6, 15, 4, 13, 2, 11, 0, 18, 7, 16, 5, 14, 3, 12, 1, 10, 9]


def deal(
    h0: str = "",
    h1: str = "",
    h2: str = "",
    draws: str = "",
    *,
    options: Mapping[str, Any] | None = None,
) -> PaohuziGame:
    """Seat 0 deals. Each seat gets the tiles written for it, padded (21 for seat 0, 20 for
    the others) with single tiles of kinds it does not hold, never 王霸; the stock starts with
    ``draws``."""
    hands = [parse_tiles(h) for h in (h0, h1, h2)]
    pool = Counter(full_set())
    pool.subtract(t for h in hands for t in h)
    pool.subtract(parse_tiles(draws))
    for rounds in range(4):
        for seat, hand in enumerate(hands):
            want = 21 if seat == 0 else 20
            for t in _ORDER:
                if len(hand) >= want:
                    break
                if pool[t] > 0 and hand.count(t) <= rounds and hand.count(t) < 2:
                    hand.append(t)
                    pool[t] -= 1
    assert all(pool[t] >= 0 for t in pool) and pool[WILD] >= 0
    setup = Setup(seats=3, seed=0, options=dict(options or {}), carry={"dealer": 0})
    return PaohuziGame(setup, stack=stacked([format_zh(h) for h in hands], draws, 0))


def play(game: PaohuziGame, *moves: str) -> None:
    """Apply moves written "seat:action" (e.g. "1:x3", "2:peng")."""
    for move in moves:
        seat, action = move.split(":", 1)
        game.apply(int(seat), action)


def pass_claims(game: PaohuziGame, *keep: int) -> None:
    """Every seat of the open claim window except ``keep`` answers 过 (this window only)."""
    window = game.window()
    while (
        game.phase() == CLAIM
        and game.window() == window
        and any(s not in keep for s in game.to_act())
    ):
        seat = next(s for s in game.to_act() if s not in keep)
        game.apply(seat, "pass")


def never_claim(game: PaohuziGame, seat: int) -> str:
    """A player who never claims nor wins and discards its first tile: the hand runs to 荒庄."""
    legal = game.legal_actions(seat)
    return "pass" if "pass" in legal else next(a for a in legal if a != "hu")


def run_until(game: PaohuziGame, done: Callable[[PaohuziGame], bool]) -> None:
    """Play ``never_claim`` one action at a time until ``done(game)`` or the end."""
    while not done(game) and not game.is_over():
        seat = game.to_act()[0]
        game.apply(seat, never_claim(game, seat))


def offered(tile: str) -> Callable[[PaohuziGame], bool]:
    """A ``run_until`` condition: ``tile`` is on offer in a claim window."""
    t = parse_tiles(tile)[0]
    return lambda game: game.claim is not None and game.claim.tile == t
