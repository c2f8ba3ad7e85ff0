"""麻将 engine speed: win checks per second against PyMahjongGB on the same hands, trustee
self-play hands per second (every registered mahjong game), and the trustee's points against
seats that discard at random.

PyMahjongGB (the Chinese Official rules' C++ library, ``pip install PyMahjongGB``) has no
14-tile win check; it is judged the way the tests judge with it: a hand is complete if some
tile, taken out, leaves 13 tiles ready (shanten 0) on that tile, regular form or seven pairs.
Our ``is_win`` works suit by suit on memoized tables; the tables warm up in the first pass,
the best of ``--rounds`` is reported.

    python benchmarks/mahjong.py [--hands 20000] [--games 30] [--rounds 3]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engines.base import Setup
from engines.mahjong import SPECS
from engines.mahjong.shape import is_win


def hands(count: int, seed: int = 1) -> list[list[int]]:
    """Random 14-tile hands of three suits; every other one built from sets and a pair (or
    seven pairs), half of those spoiled by one tile, so wins and non-wins both occur."""
    rng = random.Random(seed)
    out = []
    for i in range(count):
        pool = [t for t in range(27) for _ in range(4)]
        rng.shuffle(pool)
        hand = pool[:14]
        if i % 2 == 0:
            tiles: list[int] = []
            if rng.random() < 0.3:
                for t in rng.sample(range(27), 7):
                    tiles += [t, t]
            else:
                while len(tiles) < 12:
                    t = rng.randrange(27)
                    tiles += [t] * 3 if rng.random() < 0.4 or t % 9 > 6 else [t, t + 1, t + 2]
                t = rng.randrange(27)
                tiles += [t, t]
            if rng.random() < 0.5:
                tiles[rng.randrange(14)] = rng.randrange(27)
            if all(tiles.count(t) <= 4 for t in set(tiles)):
                hand = tiles
        out.append(hand)
    return out


def counts_of(hand: list[int]) -> list[int]:
    counts = [0] * 34
    for t in hand:
        counts[t] += 1
    return counts


def gb_judge() -> Any:
    """PyMahjongGB's win judgement, or None when the package is not installed."""
    try:
        import MahjongGB
    except ImportError:
        return None
    names = [f"{'WBT'[t // 9]}{t % 9 + 1}" for t in range(27)]

    def wins(hand: list[int]) -> bool:
        for t in set(hand):
            rest = list(hand)
            rest.remove(t)
            tiles = tuple(names[x] for x in rest)
            for judge in (MahjongGB.RegularShanten, MahjongGB.SevenPairsShanten):
                shanten, useful = judge(tiles)
                if shanten == 0 and names[t] in useful:
                    return True
        return False

    return wins


def rate(fn: Any, items: list[Any]) -> float:
    start = time.perf_counter()
    for item in items:
        fn(item)
    return len(items) / (time.perf_counter() - start)


def selfplay(key: str, games: int) -> tuple[float, float]:
    """Trustee self-play: (hands/s, actions per hand)."""
    spec = next(s for s in SPECS if s.key == key)
    actions = 0
    start = time.perf_counter()
    for seed in range(games):
        game = spec.new(Setup(seats=spec.seats_default, seed=seed, options=spec.validate({})))
        while not game.is_over():
            seat = game.to_act()[0]
            game.apply(seat, game.trustee(seat))
            actions += 1
    elapsed = time.perf_counter() - start
    return games / elapsed, actions / games


def against_random(key: str, games: int) -> tuple[float, float]:
    """Trustee seats (the odd ones) against seats that discard at random and never 碰/杠 (they
    do win when they can): mean points per hand of a trustee seat and of a random seat."""
    spec = next(s for s in SPECS if s.key == key)
    rng = random.Random(7)
    seats = spec.seats_default
    totals = [0] * seats
    for seed in range(games):
        game = spec.new(Setup(seats=spec.seats_default, seed=seed, options=spec.validate({})))
        while not game.is_over():
            seat = game.to_act()[0]
            legal = game.legal_actions(seat)
            if seat % 2 == 0 and "hu" not in legal and game.phase() != "dingque":
                moves = [a for a in legal if a not in ("peng",) and not a.startswith("gang")]
                action = "pass" if "pass" in moves else rng.choice(moves)
            else:
                action = game.trustee(seat)
            game.apply(seat, action)
        for s, p in enumerate(game.outcome().points):
            totals[s] += p
    ours = sum(totals[1::2]) / (len(totals[1::2]) * games)
    theirs = sum(totals[0::2]) / (len(totals[0::2]) * games)
    return ours, theirs


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--hands", type=int, default=20000)
    parser.add_argument("--games", type=int, default=30)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()

    sample = hands(args.hands)
    counted = [counts_of(h) for h in sample]
    ours = max(rate(is_win, counted) for _ in range(args.rounds))
    wins = sum(is_win(c) for c in counted)
    print(f"hands: {len(sample)} random 14-tile hands of three suits, {wins} of them complete")
    print(f"win check, ours (counts vectors):        {ours:>12,.0f} checks/s")
    judge = gb_judge()
    theirs = None
    if judge is not None:
        theirs = max(rate(judge, sample) for _ in range(args.rounds))
        agree = sum(judge(h) == is_win(c) for h, c in zip(sample, counted, strict=True))
        print(
            f"win check, PyMahjongGB (shanten judge):  {theirs:>12,.0f} checks/s   "
            f"agreement {agree}/{len(sample)}"
        )
    else:
        print("win check, PyMahjongGB: not installed (pip install PyMahjongGB)")
    keys = [spec.key for spec in SPECS]
    for key in keys:
        per_s, acts = selfplay(key, args.games)
        print(f"trustee self-play {key:<8} {per_s:>8.1f} hands/s ({acts:.0f} actions per hand)")
    for key in keys:
        ours_pts, random_pts = against_random(key, args.games)
        print(
            f"{key:<8} trustee vs random discards: {ours_pts:+.1f} vs {random_pts:+.1f} "
            f"points per seat per hand ({args.games} hands)"
        )
    if theirs:
        print(f"mahjong_win_check: {ours:.0f} checks/s ({ours / theirs:.1f}x PyMahjongGB)")
    else:
        print(f"mahjong_win_check: {ours:.0f} checks/s (PyMahjongGB not available)")


if __name__ == "__main__":
    main()
