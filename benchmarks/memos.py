"""Benchmark: what the engines' process-wide memos (``engines.memo``) hold, and would hold full.

Plays ``--hands`` hands of every registered game (each decision the trustee's or a random
legal action, half and half, seeded), then prints per memo its entries and limit, the bytes
one entry holds (``Memo.footprint`` over its entries) and what it would hold full (limit x
that), and the total against ``engines.memo.BUDGET``; then the objects the cyclic collector
tracks and how long one full collection takes (a memo of tracked objects makes every full
collection walk it: the long pauses of a process that has played many hands).
tests/engines/test_memos.py asserts the budget on two hands; this prints the figures on as
many as asked.

    python benchmarks/memos.py [--hands 4] [--games doudizhu_wild,shuangkou]
"""

from __future__ import annotations

import argparse
import gc
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engines import registry  # noqa: E402
from engines.base import Setup  # noqa: E402
from engines.memo import BUDGET, memos  # noqa: E402

MB = 2**20


def play(key: str, hands: int) -> None:
    spec = registry.get(key)
    for seed in range(hands):
        game = spec.new(Setup(seats=spec.seats_default or spec.min_seats, seed=seed,
                              options=spec.validate({})))
        rng = random.Random(seed)
        for _ in range(2_000):
            if game.is_over():
                break
            seat = next(s for s in game.to_act() if game.legal_actions(s))
            action = (game.trustee(seat) if rng.random() < 0.5
                      else rng.choice(game.legal_actions(seat)))
            game.apply(seat, action)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=4)
    parser.add_argument("--games", default="", help="comma-separated keys (default: all)")
    args = parser.parse_args()
    games = args.games.split(",") if args.games else list(registry.specs())
    began = time.process_time()
    for key in games:
        play(key, args.hands)
    print(f"{args.hands} hands of each of {len(games)} games in "
          f"{time.process_time() - began:.1f} s of CPU")
    total = 0.0
    print(f"{'memo':48} {'entries':>15} {'B/entry':>8} {'full MB':>8}")
    filled = [(m.full_bytes(), m.footprint(), m) for m in memos() if m]
    for full, held, m in sorted(filled, key=lambda row: -row[0]):
        total += full
        print(f"{m.name:48} {len(m):>7,}/{m.limit:<7,} {held / len(m):>8,.0f} "
              f"{full / MB:>8.1f}")
    t0 = time.perf_counter()
    gc.collect()
    took = time.perf_counter() - t0
    print(f"the collector tracks {len(gc.get_objects()):,} objects; a full collection took "
          f"{took * 1e3:.0f} ms")
    print(f"memos_full: {total / MB:.1f} MB ({total / BUDGET:.2f}x the budget of "
          f"{BUDGET / MB:.0f} MB)")


if __name__ == "__main__":
    main()
