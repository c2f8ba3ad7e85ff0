"""升级 engine speed: trick-legality checks and trustee self-play.

1. Follow checks: for tricks taken from seeded trustee self-play (2 decks), every candidate
   follow of the same size drawn from the follower's hand is checked with the engine's rule
   (``follow_problem``), checks/s.
2. 甩牌 checks: each of those leads checked against the three other hands, checks/s.
3. Self-play: whole hands (deal, declaration windows, bury, 25 tricks) through the public Game
   API, every action the trustee's, hands/s, for 2 and 3 decks.

The machine is shared: each figure is the best of ``--rounds`` rounds.

Usage: python benchmarks/shengji.py [--seconds 1.0] [--rounds 3]
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
from engines.shengji import SHENGJI
from engines.shengji.game import ShengjiGame
from engines.shengji.patterns import Lead, failed_throw, follow_problem
from engines.trick.cards import ids_of


def _timed(work: Callable[[], int], seconds: float) -> float:
    done, start = 0, time.perf_counter()
    while True:
        done += work()
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return done / elapsed


def _positions(hands: int) -> list[tuple[ShengjiGame, list[int], Lead, list[int]]]:
    """(game, follower hand counts, lead, lead cards) taken at each follow of self-play."""
    out = []
    for seed in range(hands):
        game = SHENGJI.new(Setup(seats=4, seed=seed, options=SHENGJI.validate({})))
        while not game.is_over():
            seat = game.to_act()[0]
            if game.phase() == "play" and game.trick and game.lead is not None:
                out.append((game, list(game.hands[seat]), game.lead, list(game.trick[0][1])))
            game.apply(seat, game.trustee(seat))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=1.0)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    positions = _positions(4)
    rng = random.Random(7)
    cases = []
    for game, hand, lead, cards in positions:
        pool = ids_of(hand)
        for _ in range(4):
            cases.append((game.ctx, hand, lead, rng.sample(pool, min(lead.n, len(pool)))))
    throws = [(g.ctx, cards, [h]) for g, h, _, cards in positions]

    def follows() -> int:
        for ctx, hand, lead, play in cases:
            follow_problem(hand, lead, play, ctx)
        return len(cases)

    def throw_checks() -> int:
        for ctx, cards, others in throws:
            failed_throw(cards, others * 3, ctx)
        return len(throws)

    def selfplay(decks: int) -> Callable[[], int]:
        seeds = iter(range(10**9))

        def run() -> int:
            game = SHENGJI.new(Setup(seats=4, seed=next(seeds),
                                     options=SHENGJI.validate({"decks": decks})))
            while not game.is_over():
                seat = game.to_act()[0]
                game.apply(seat, game.trustee(seat))
            return 1

        return run

    best = {"follow": 0.0, "throw": 0.0, "hands2": 0.0, "hands3": 0.0}
    for _ in range(args.rounds):
        best["follow"] = max(best["follow"], _timed(follows, args.seconds))
        best["throw"] = max(best["throw"], _timed(throw_checks, args.seconds))
        best["hands2"] = max(best["hands2"], _timed(selfplay(2), args.seconds))
        best["hands3"] = max(best["hands3"], _timed(selfplay(3), args.seconds))
    print(f"follow legality checks   {best['follow']:>10,.0f} checks/s  ({len(cases)} cases)")
    print(f"throw checks (3 hands)   {best['throw']:>10,.0f} checks/s  ({len(throws)} leads)")
    print(f"self-play, 2 decks       {best['hands2']:>10,.1f} hands/s")
    print(f"self-play, 3 decks       {best['hands3']:>10,.1f} hands/s")
    print(f"shengji_legality: {best['follow']:.0f} checks/s "
          f"(self-play {best['hands2']:.1f} hands/s)")


if __name__ == "__main__":
    main()
