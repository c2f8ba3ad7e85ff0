"""Climbing games' engine speed: legality checks and trustee self-play.

1. 百变双扣 legality checks: for positions taken from seeded trustee self-play, candidate
   plays drawn from the seat's hand (as many cards as the table's play) are read (every
   reading with the 大王 wild, uncached) and compared with the table, checks/s.
2. 百变双扣 self-play: whole hands (27 cards each) through the public Game API, every action
   the trustee's, hands/s.
3. 够级 legality checks: the same for 新够级 positions (one-rank plays with 2s and jokers,
   compared in both respects), and 烧 eligibility checks (every beating play of a hand and
   the burn condition on the rest), checks/s.
4. 新够级 self-play: whole games (six seats, 36 cards each, 宣点 window, 够级 windows), games/s.

The machine is shared: each figure is the best of ``--rounds`` rounds.

Usage: python benchmarks/climbing.py [--seconds 1.0] [--rounds 3]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engines.base import Setup
from engines.climbing.notation import NRANKS, Counts
from engines.gouji import GOUJI_NEW
from engines.gouji.patterns import Play as GoujiPlay
from engines.gouji.patterns import beats as gouji_beats
from engines.gouji.patterns import burnable
from engines.gouji.patterns import read as gouji_read
from engines.shuangkou import SHUANGKOU
from engines.shuangkou.patterns import Pattern, beats, readings

_read = readings.__wrapped__  # the uncached reader: each check does the whole work


def _timed(work: Callable[[], int], seconds: float) -> float:
    done, start = 0, time.perf_counter()
    while True:
        done += work()
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return done / elapsed


def _cases(hands: int, per: int) -> list[tuple[Counts, Pattern]]:
    """(candidate cards, table pattern) from the follows of seeded self-play."""
    rng = random.Random(7)
    out = []
    for seed in range(hands):
        game = SHUANGKOU.new(Setup(seats=4, seed=seed, options=SHUANGKOU.validate({})))
        while not game.is_over():
            seat = game.to_act()[0]
            lead = game.lead()
            if lead is not None:
                pool = [r for r, c in enumerate(game.hands[seat]) for _ in range(c)]
                for _ in range(per):
                    pick = rng.sample(pool, min(lead.n, len(pool)))
                    out.append((tuple(pick.count(r) for r in range(NRANKS)), lead))
            game.apply(seat, game.trustee(seat))
    return out


def _gouji_cases(games: int, per: int) -> list[tuple[Counts, Counts, GoujiPlay]]:
    """(candidate cards, the hand, the play to beat) from 新够级 self-play."""
    rng = random.Random(7)
    out = []
    for seed in range(games):
        game = GOUJI_NEW.new(Setup(seats=6, seed=seed, options=GOUJI_NEW.validate({})))
        while not game.is_over():
            seat = game.to_act()[0]
            top = game.top
            if top is not None:
                hand = game.hands[seat]
                pool = [r for r, c in enumerate(hand) for _ in range(c)]
                for _ in range(per):
                    pick = rng.sample(pool, min(top.play.n, len(pool)))
                    out.append((tuple(pick.count(r) for r in range(NRANKS)), hand, top.play))
            game.apply(seat, game.trustee(seat))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=1.0)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    cases = _cases(4, 4)

    def checks() -> int:
        for cards, lead in cases:
            any(beats(p, lead) for p in _read(cards))
        return len(cases)

    seeds = iter(range(10**9))

    def selfplay() -> int:
        game = SHUANGKOU.new(Setup(seats=4, seed=next(seeds), options=SHUANGKOU.validate({})))
        while not game.is_over():
            seat = game.to_act()[0]
            game.apply(seat, game.trustee(seat))
        return 1

    gcases = _gouji_cases(2, 4)
    gread = gouji_read.__wrapped__

    def gouji_checks() -> int:
        for cards, _, top in gcases:
            p = gread(cards)
            if p is not None:
                gouji_beats(p, top)
        return len(gcases)

    burns = [(hand, top) for _, hand, top in gcases[::4]]

    def burn_checks() -> int:
        for hand, top in burns:
            burnable(hand, top, False, True)
        return len(burns)

    gseeds = iter(range(10**9))

    def gouji_selfplay() -> int:
        game = GOUJI_NEW.new(Setup(seats=6, seed=next(gseeds), options=GOUJI_NEW.validate({})))
        while not game.is_over():
            seat = game.to_act()[0]
            game.apply(seat, game.trustee(seat))
        return 1

    best = {"checks": 0.0, "hands": 0.0, "gchecks": 0.0, "burns": 0.0, "games": 0.0}
    for _ in range(args.rounds):
        best["checks"] = max(best["checks"], _timed(checks, args.seconds))
        best["hands"] = max(best["hands"], _timed(selfplay, args.seconds))
        best["gchecks"] = max(best["gchecks"], _timed(gouji_checks, args.seconds))
        best["burns"] = max(best["burns"], _timed(burn_checks, args.seconds))
        best["games"] = max(best["games"], _timed(gouji_selfplay, args.seconds))
    print(f"shuangkou legality checks {best['checks']:>10,.0f} checks/s  ({len(cases)} cases)")
    print(f"shuangkou self-play       {best['hands']:>10,.1f} hands/s")
    print(f"gouji legality checks     {best['gchecks']:>10,.0f} checks/s  ({len(gcases)} cases)")
    print(f"gouji burn eligibility    {best['burns']:>10,.0f} hands/s  ({len(burns)} hands)")
    print(f"gouji_new self-play       {best['games']:>10,.1f} games/s")
    print(f"climbing_legality: {best['checks']:.0f} checks/s "
          f"(shuangkou self-play {best['hands']:.1f} hands/s, gouji {best['gchecks']:.0f} "
          f"checks/s, gouji_new self-play {best['games']:.1f} games/s)")


if __name__ == "__main__":
    main()
