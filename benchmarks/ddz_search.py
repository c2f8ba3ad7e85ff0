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

Runs split and combine: ``--role landlord|farmers|both`` plays only those roles' games,
``--every N`` prints a progress line (stderr) every N deals, ``--save FILE`` writes the per-deal
results, and ``--merge FILE...`` reports saved runs together (a deal's role counted once) with
no playing. The last line sums it up: ``ddz_search: <lowest mean> wins per deal``, the lowest
of the roles and games reported, and the worst decision cpu p99.

Usage: python benchmarks/ddz_search.py [--deals 2000] [--game doudizhu|doudizhu_happy|
       doudizhu_wild|all] [--jobs 2] [--seed 0] [--role both] [--every 0] [--save FILE]
       [--merge FILE...]
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import time
from multiprocessing import Pool
from pathlib import Path
from typing import Any

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


Result = dict[str, Any]
"""One deal's record: key, seed, ll (landlord gain or None), ff (farmer gain or None), wall
and cpu (ms of the hard decisions)."""


def deal(args: tuple[str, int, str]) -> Result:
    """One deal, the roles of ``role`` ("landlord", "farmers" or "both") played at hard."""
    key, seed, role = args
    out: Result = {"key": key, "seed": seed, "ll": None, "ff": None, "wall": [], "cpu": []}
    base, _, _ = play(key, seed, None)
    if base is None:
        for measured, name in (("landlord", "ll"), ("farmers", "ff")):
            if role in (measured, "both"):
                out[name] = 0  # void: counts 0
        return out
    if role in ("landlord", "both"):
        ll, w, c = play(key, seed, "landlord")
        assert ll is not None
        out["ll"] = ll - base
        out["wall"] += w
        out["cpu"] += c
    if role in ("farmers", "both"):
        ff, w, c = play(key, seed, "farmers")
        assert ff is not None
        out["ff"] = (1 - ff) - (1 - base)
        out["wall"] += w
        out["cpu"] += c
    return out


def interval(values: list[int]) -> tuple[float, float]:
    mean = statistics.fmean(values) if values else 0.0
    half = 1.96 * statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else 0.0
    return mean, half


def _pct(times: list[float], q: float) -> float:
    return times[min(len(times) - 1, int(q * len(times)))] if times else 0.0


def _gains(results: list[Result], role: str) -> list[int]:
    return [r[role] for r in results if r[role] is not None]


def report(
    key: str, results: list[Result], elapsed: float | None
) -> tuple[str, list[float], float]:
    """The two report lines of one variant, the means of the roles measured, and the cpu p99."""
    lls, ffs = _gains(results, "ll"), _gains(results, "ff")
    lm, lh = interval(lls)
    fm, fh = interval(ffs)
    parts, means = [], []
    if lls:
        parts.append(f"as landlord {lm:+.3f} ± {lh:.3f} ({len(lls)} deals)")
        means.append(lm)
    if ffs:
        parts.append(f"as farmers {fm:+.3f} ± {fh:.3f} ({len(ffs)} deals)")
        means.append(fm)
    both = [r["ll"] + r["ff"] for r in results if r["ll"] is not None and r["ff"] is not None]
    if both:
        bm, bh = interval(both)
        parts.append(f"both roles {bm:+.3f} ± {bh:.3f}")
    walls = sorted(t for r in results for t in r["wall"])
    cpus = sorted(t for r in results for t in r["cpu"])
    text = (
        f"{key:15s} hard − normal, wins per deal: {', '.join(parts)}\n"
        f"{'':15s} hard decision: wall {statistics.fmean(walls or [0]):.1f} ms mean, p99 "
        f"{_pct(walls, 0.99):.1f} ms, max {(walls or [0])[-1]:.1f} ms; cpu "
        f"{statistics.fmean(cpus or [0]):.1f} ms mean, p99 {_pct(cpus, 0.99):.1f} ms, max "
        f"{(cpus or [0])[-1]:.1f} ms ({len(walls)} decisions, "
        + (f"{elapsed:.0f} s)" if elapsed is not None else "saved runs)")
    )
    return text, means, _pct(cpus, 0.99)


def run(key: str, deals: int, seed: int, jobs: int, role: str, every: int) -> list[Result]:
    """Play the deals ``seed`` .. ``seed + deals - 1`` of ``key``, a progress line on stderr
    every ``every`` deals (0: none)."""
    work = [(key, seed + i, role) for i in range(deals)]
    results: list[Result] = []
    start = time.perf_counter()

    def progress() -> None:
        if every and len(results) % every == 0:
            line = report(key, results, time.perf_counter() - start)[0].split("\n")[0]
            print(f"[{len(results)}/{deals}] {line}", file=sys.stderr, flush=True)

    if jobs > 1:
        with Pool(jobs) as pool:
            chunk = max(1, min(every or deals, deals // (jobs * 8)))
            for r in pool.imap(deal, work, chunksize=chunk):
                results.append(r)
                progress()
    else:
        for w in work:
            results.append(deal(w))
            progress()
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=2000)
    parser.add_argument("--game", default="all", choices=(*GAMES, "all"))
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--role", default="both", choices=("landlord", "farmers", "both"))
    parser.add_argument("--every", type=int, default=0, help="a progress line every N deals")
    parser.add_argument("--save", help="write the per-deal results to this JSON file")
    parser.add_argument(
        "--merge", nargs="+", metavar="FILE", help="report saved runs (combined) instead of playing"
    )
    args = parser.parse_args()
    keys = GAMES if args.game == "all" else (args.game,)
    by_key: dict[str, list[Result]] = {}
    elapsed: dict[str, float] = {}
    if args.merge:
        seen: set[tuple[str, int, str]] = set()
        for name in args.merge:
            for r in json.loads(Path(name).read_text()):
                for role in ("ll", "ff"):  # one deal's role counted once over the files
                    if r[role] is not None and (r["key"], r["seed"], role) in seen:
                        r[role] = None
                    elif r[role] is not None:
                        seen.add((r["key"], r["seed"], role))
                if r["key"] in keys and (r["ll"] is not None or r["ff"] is not None):
                    by_key.setdefault(r["key"], []).append(r)
        keys = tuple(k for k in keys if k in by_key)
    else:
        for key in keys:
            start = time.perf_counter()
            by_key[key] = run(key, args.deals, args.seed, args.jobs, args.role, args.every)
            elapsed[key] = time.perf_counter() - start
        if args.save:
            Path(args.save).write_text(json.dumps([r for k in keys for r in by_key[k]]))
    lows: list[float] = []
    p99 = 0.0
    for key in keys:
        text, means, cpu99 = report(key, by_key[key], elapsed.get(key))
        print(text, flush=True)
        lows += means
        p99 = max(p99, cpu99)
    print(
        f"ddz_search: {min(lows, default=0.0):+.3f} wins per deal (hard − normal, the lowest "
        f"of the roles and games measured; decision cpu p99 {p99:.1f} ms)"
    )


if __name__ == "__main__":
    main()
