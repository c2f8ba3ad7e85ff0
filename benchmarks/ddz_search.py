"""斗地主 hard trustee (the search, engines/doudizhu/search.py) against today's (normal), in
duplicate: the same deals, each role played by each level.

Each deal (one seed, natural bidding: every level bids alike, so the landlord and the kitty are
the same in all three games) is played three times:

1. every seat at normal (the reference);
2. the landlord at hard, the farmers at normal;
3. the landlord at normal, both farmers at hard.

Per deal, **as landlord**: game 2's landlord win (0/1) − game 1's; **as farmers**: game 3's
farmer win − game 1's. Both are reported as the mean over the deals with a 95% interval (1.96
standard errors), per variant; "both roles" is their sum (hard in the seats of one side against
normal in the other, sides swapped, the same deal). Voided deals (nobody bid) count 0.

Time: every hard decision (in the play phase; the search's own work, today's choice included),
wall clock and process CPU time, mean, p99 and max in ms. On a loaded machine the wall clock
includes waiting for a core; the CPU time does not.

Usage: python benchmarks/ddz_search.py [--deals 2000] [--game doudizhu|doudizhu_happy|
       doudizhu_wild|all] [--jobs 2] [--seed 0]
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
import time
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engines import registry
from engines.base import HARD, NORMAL, Setup
from engines.doudizhu import DoudizhuGame

GAMES = ("doudizhu", "doudizhu_happy", "doudizhu_wild")


def play(key: str, seed: int, hard: str | None) -> tuple[int | None, list[float], list[float]]:
    """One game: ``hard`` None (all normal), "landlord" or "farmers" at hard. Returns
    (1 landlord won / 0 farmers won / None void, wall ms, cpu ms of the hard decisions)."""
    spec = registry.get(key)
    game = spec.new(Setup(seats=spec.min_seats, seed=seed, options=spec.validate({})))
    assert isinstance(game, DoudizhuGame)
    walls: list[float] = []
    cpus: list[float] = []
    while not game.is_over():
        seat = game.to_act()[0]
        level = NORMAL
        playing = hard is not None and game.landlord is not None and game.phase() == "play"
        if playing and (seat == game.landlord) == (hard == "landlord"):
            level = HARD
        if level == HARD:
            w, c = time.perf_counter(), time.process_time()
            action = game.trustee(seat, level)
            walls.append((time.perf_counter() - w) * 1000)
            cpus.append((time.process_time() - c) * 1000)
        else:
            action = game.trustee(seat)
        game.apply(seat, action)
    if game.winner is None or game.landlord is None:
        return None, walls, cpus
    return int(game.winner == game.landlord), walls, cpus


def deal(args: tuple[str, int]) -> tuple[int, int, list[float], list[float]]:
    """(landlord gain, farmer gain, wall ms, cpu ms) of one deal."""
    key, seed = args
    base, _, _ = play(key, seed, None)
    if base is None:
        return 0, 0, [], []
    ll, w1, c1 = play(key, seed, "landlord")
    ff, w2, c2 = play(key, seed, "farmers")
    assert ll is not None and ff is not None
    return ll - base, (1 - ff) - (1 - base), w1 + w2, c1 + c2


def interval(values: list[int]) -> tuple[float, float]:
    mean = statistics.fmean(values)
    half = 1.96 * statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else 0.0
    return mean, half


def _pct(times: list[float], q: float) -> float:
    return times[min(len(times) - 1, int(q * len(times)))] if times else 0.0


def run(key: str, deals: int, seed: int, jobs: int) -> str:
    work = [(key, seed + i) for i in range(deals)]
    start = time.perf_counter()
    if jobs > 1:
        with Pool(jobs) as pool:
            results = pool.map(deal, work, chunksize=max(1, deals // (jobs * 8)))
    else:
        results = [deal(w) for w in work]
    elapsed = time.perf_counter() - start
    lm, lh = interval([r[0] for r in results])
    fm, fh = interval([r[1] for r in results])
    bm, bh = interval([r[0] + r[1] for r in results])
    walls = sorted(t for r in results for t in r[2])
    cpus = sorted(t for r in results for t in r[3])
    return (
        f"{key:15s} hard − normal, wins per deal ({deals} deals): as landlord {lm:+.3f} ± "
        f"{lh:.3f}, as farmers {fm:+.3f} ± {fh:.3f}, both roles {bm:+.3f} ± {bh:.3f}\n"
        f"{'':15s} hard decision: wall {statistics.fmean(walls or [0]):.1f} ms mean, p99 "
        f"{_pct(walls, 0.99):.1f} ms, max {(walls or [0])[-1]:.1f} ms; cpu "
        f"{statistics.fmean(cpus or [0]):.1f} ms mean, p99 {_pct(cpus, 0.99):.1f} ms, max "
        f"{(cpus or [0])[-1]:.1f} ms ({len(walls)} decisions, {elapsed:.0f} s)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=2000)
    parser.add_argument("--game", default="all", choices=(*GAMES, "all"))
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    for key in GAMES if args.game == "all" else (args.game,):
        print(run(key, args.deals, args.seed, args.jobs), flush=True)


if __name__ == "__main__":
    main()
