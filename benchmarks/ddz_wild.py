"""癞子斗地主 legal-play generation speed: the generator against the brute-force reference.

For 17-card hands holding 0, 1, 2, 3 and 4 癞子 (a random 癞子 rank, the rest dealt at random
from the other cards; the same seeded cases for both), calls/s of:

- ``wild.plays(hand, wild)``: every lead;
- ``wild.plays(hand, wild, previous)``: every play beating ``previous``, a random lead of
  another random hand with the same 癞子 rank;
- ``wild.reference``: the brute force (every substitution of every 癞子, every classic play
  of the hand so read, every way of making it from the real cards), leading, and following
  by filtering its leads.

Each call starts from an empty play memo (``wild._MEMO``), so no answer comes from an
earlier call; the classic generator's tables and the play book stay filled, as in a game.
The machine is shared: each figure is the best of ``--rounds`` rounds of about
``--seconds`` each (CPU time). The summary is the generator's calls/s over every case (all
wild counts, leading and following: total calls / total time) and its ratio to the
reference measured the same way.

Usage: python benchmarks/ddz_wild.py [--seconds 0.5] [--rounds 3] [--cases 40]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

# Measure this checkout's engine, not whichever copy of the project is installed.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engines.doudizhu import wild
from engines.doudizhu.notation import NRANKS, SMALL_JOKER, Counts
from engines.doudizhu.patterns import Play

_DECK = [r for r in range(NRANKS) for _ in range(4 if r < SMALL_JOKER else 1)]
Case = tuple[Counts, int, Play]
"""(hand, 癞子 rank, a previous play to follow)."""


def deal(rng: random.Random, wilds: int, size: int = 17) -> tuple[Counts, int]:
    """A hand of ``size`` cards holding exactly ``wilds`` 癞子 of a random rank."""
    rank = rng.randrange(SMALL_JOKER)
    hand = [0] * NRANKS
    hand[rank] = wilds
    for r in rng.sample([c for c in _DECK if c != rank], size - wilds):
        hand[r] += 1
    return tuple(hand), rank


def cases(wilds: int, count: int, seed: int) -> list[Case]:
    rng = random.Random(seed * 100 + wilds)
    out = []
    for _ in range(count):
        hand, rank = deal(rng, wilds)
        other = [0] * NRANKS
        for r in rng.sample(_DECK, 17):
            other[r] += 1
        leads = wild.reference(tuple(other), rank)
        out.append((hand, rank, leads[rng.randrange(len(leads))]))
    return out


def fast_lead(case: Case) -> None:
    wild._MEMO.clear()
    wild.plays(case[0], case[1])


def fast_follow(case: Case) -> None:
    wild._MEMO.clear()
    wild.plays(case[0], case[1], case[2])


def reference_lead(case: Case) -> None:
    wild.reference(case[0], case[1])


def reference_follow(case: Case) -> None:
    previous = case[2]
    [p for p in wild.reference(case[0], case[1]) if wild.beats(p, previous)]


def rate(call: Callable[[Case], None], pool: list[Case], seconds: float, rounds: int) -> float:
    """Best calls/s over ``rounds`` rounds of whole passes over ``pool`` (CPU time)."""
    best = 0.0
    for _ in range(rounds):
        done, start = 0, time.process_time()
        while True:
            for case in pool:
                call(case)
            done += len(pool)
            spent = time.process_time() - start
            if spent >= seconds:
                break
        best = max(best, done / spent)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=0.5)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--cases", type=int, default=40)
    args = parser.parse_args()
    calls = {"fast": 0.0, "reference": 0.0}
    spent = {"fast": 0.0, "reference": 0.0}
    print(f"{'癞子':>4} {'lead/s':>10} {'follow/s':>10} {'ref lead/s':>11} {'ref follow/s':>13}")
    for wilds in range(5):
        pool = cases(wilds, args.cases, seed=1)
        # The brute force is slow with many 癞子: a few of the same cases.
        ref_pool = pool[: max(2, args.cases >> wilds)]
        row = []
        for name, call, cases_used in (
            ("fast", fast_lead, pool),
            ("fast", fast_follow, pool),
            ("reference", reference_lead, ref_pool),
            ("reference", reference_follow, ref_pool),
        ):
            per_second = rate(call, cases_used, args.seconds, args.rounds)
            row.append(per_second)
            # Every (wild count, lead/follow) cell weighs the same: one call each.
            calls[name] += 1
            spent[name] += 1 / per_second
        print(f"{wilds:>4} {row[0]:>10.1f} {row[1]:>10.1f} {row[2]:>11.1f} {row[3]:>13.1f}")
    fast = calls["fast"] / spent["fast"]
    reference = calls["reference"] / spent["reference"]
    print(f"ddz_wild: {fast:.0f} calls/s ({fast / reference:.1f}× reference)")


if __name__ == "__main__":
    main()
