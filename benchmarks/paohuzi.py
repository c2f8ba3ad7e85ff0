"""王炸跑胡子 engine speed: win checks (胡息 of a whole concealed hand) per second on random
hands, and trustee self-play hands per second.

Hands: 21 word tiles (a complete non-dealer hand with the winning tile), every other one built
from groups (一句话, 绞牌, three alike) so that wins and non-wins both occur, a quarter with a
王霸 or two. ``best_huxi`` memoizes sub-hands; each round starts from an empty cache, the best
of ``--rounds`` is reported.

    python benchmarks/paohuzi.py [--hands 20000] [--games 100] [--rounds 3]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engines.base import Setup
from engines.paohuzi import SPECS
from engines.paohuzi.groups import _search, best_huxi, is_run
from engines.paohuzi.tiles import WILD, counts_of

GROUPS = [
    (a, b, c)
    for a in range(20)
    for b in range(a, 20)
    for c in range(b, 20)
    if is_run((a, b, c)) or a == b == c
]


def hands(count: int, seed: int = 1) -> list[list[int]]:
    rng = random.Random(seed)
    out = []
    for i in range(count):
        pool = [t for t in range(20) for _ in range(4)]
        rng.shuffle(pool)
        hand = pool[:21]
        if i % 2 == 0:
            tiles: list[int] = []
            while len(tiles) < 21:
                tiles += rng.choice(GROUPS)
            if all(tiles.count(t) <= 4 for t in set(tiles)):
                hand = tiles
        if i % 4 == 1:
            for k in rng.sample(range(21), rng.choice((1, 2))):
                hand[k] = WILD
        out.append(hand)
    return out


def bench_checks(count: int, rounds: int) -> tuple[float, int]:
    data = [counts_of(h) for h in hands(count)]
    best = 0.0
    wins = 0
    for _ in range(rounds):
        _search.memo.clear()
        start = time.perf_counter()
        wins = sum(1 for c in data if (best_huxi(c) or -1) >= 15)
        best = max(best, count / (time.perf_counter() - start))
    return best, wins


def bench_games(games: int) -> tuple[float, int]:
    spec = SPECS[0]
    start = time.perf_counter()
    won = 0
    for seed in range(games):
        game = spec.new(Setup(seats=3, seed=seed))
        while not game.is_over():
            seat = game.to_act()[0]
            game.apply(seat, game.trustee(seat))
        won += bool(game.outcome().winners)
    return games / (time.perf_counter() - start), won


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=20000)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    checks, wins = bench_checks(args.hands, args.rounds)
    print(
        f"win checks: {args.hands} hands of 21 tiles, {wins} wins (15 胡息 or more), "
        f"best of {args.rounds} cold rounds: {checks:,.0f} checks/s"
    )
    rate, won = bench_games(args.games)
    print(
        f"trustee self-play: {args.games} hands ({won} won, {args.games - won} 荒庄): "
        f"{rate:,.1f} hands/s"
    )
    print(f"paohuzi win checks: {checks:.0f} checks/s")


if __name__ == "__main__":
    main()
