"""The duplicate match shared by the trustee benchmarks (climbing_match.py, trick_match.py).

Each deal (one seed) is played twice: first with the trustee in the seats of side 0 (seats 1,
3, ... : ``seat % 2 == 0``) and a rule player in the others, then with the sides swapped, on
the same seed. The figure per deal is the mean over its two games of (the mean points of the
trustee's seats − the mean points of the rule seats); the match reports its mean over the
deals with a 95% confidence interval (1.96 standard errors), the trustee side's win share
(games in which its seats scored more), and the same figure for each seating separately and
for each role the game names (``role``: e.g. 庄 / 闲), the time of every trustee decision
(``Game.trustee``): mean, p99 and max.
"""

from __future__ import annotations

import math
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from multiprocessing import Pool

from engines.base import Game, GameSpec, Setup

Rule = Callable[[Game, int], str]
Role = Callable[[Game, int], str]
"""The role the trustee's side had in a finished game (``trustee_side`` 0 or 1)."""


@dataclass(frozen=True)
class Contest:
    """One game played in duplicate: the spec, its rule player and how roles are named."""

    spec: GameSpec
    rule: Rule
    role: Role | None = None
    options: dict[str, object] = field(default_factory=dict)


@dataclass(frozen=True)
class GameResult:
    diff: float
    won: bool
    side: int
    role: str


def play_game(contest: Contest, seed: int, trustee_side: int,
              times: list[float]) -> GameResult:
    """One game with the trustee on ``trustee_side``; decision times appended to ``times``."""
    spec = contest.spec
    seats = spec.max_seats
    game = spec.new(Setup(seats=seats, seed=seed, options=spec.validate(contest.options)))
    while not game.is_over():
        for seat in game.to_act():
            if game.is_over() or seat not in game.to_act():
                continue
            if seat % 2 == trustee_side:
                t0 = time.perf_counter()
                action = game.trustee(seat)
                times.append((time.perf_counter() - t0) * 1000)
            else:
                action = contest.rule(game, seat)
            game.apply(seat, action)
    pts = game.outcome().points
    mine = statistics.fmean(pts[s] for s in range(seats) if s % 2 == trustee_side)
    theirs = statistics.fmean(pts[s] for s in range(seats) if s % 2 != trustee_side)
    role = contest.role(game, trustee_side) if contest.role else f"side {trustee_side + 1}"
    # without a role function the role is the seating, already reported per seating
    return GameResult(mine - theirs, mine > theirs, trustee_side, role)


def play_deal(contest: Contest, seed: int) -> tuple[list[GameResult], list[float]]:
    """One deal in both seatings: its two games and the trustee's decision times (ms)."""
    times: list[float] = []
    return [play_game(contest, seed, side, times) for side in (0, 1)], times


def _interval(values: Sequence[float]) -> tuple[float, float]:
    mean = statistics.fmean(values) if values else 0.0
    half = 1.96 * statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else 0.0
    return mean, half


_CONTESTS: dict[str, Contest] = {}


def _job(args: tuple[str, int]) -> tuple[list[GameResult], list[float]]:
    return play_deal(_CONTESTS[args[0]], args[1])


def match(contests: dict[str, Contest], key: str, deals: int, first_seed: int,
          jobs: int) -> dict[str, object]:
    """The duplicate match of ``contests[key]`` over ``deals`` seeds from ``first_seed``."""
    _CONTESTS.update(contests)
    work = [(key, first_seed + i) for i in range(deals)]
    start = time.perf_counter()
    if jobs > 1:
        with Pool(jobs) as pool:
            results = pool.map(_job, work, chunksize=max(1, deals // (jobs * 8)))
    else:
        results = [_job(w) for w in work]
    elapsed = time.perf_counter() - start
    games = [g for gs, _ in results for g in gs]
    times = sorted(t for _, ts in results for t in ts)
    mean, half = _interval([statistics.fmean(g.diff for g in gs) for gs, _ in results])
    by_side = {f"seats {'1,3,…' if s == 0 else '2,4,…'}": _interval([g.diff for g in games
                                                                  if g.side == s])
               for s in (0, 1)}
    roles = sorted({g.role for g in games})
    by_role = {r: (*_interval([g.diff for g in games if g.role == r]),
                   sum(1 for g in games if g.role == r)) for r in roles}
    p99 = times[min(len(times) - 1, int(0.99 * len(times)))] if times else 0.0
    return {"mean": mean, "half": half, "wins": sum(g.won for g in games) / len(games),
            "deals": deals, "by_side": by_side, "by_role": by_role,
            "ms_mean": statistics.fmean(times) if times else 0.0, "ms_p99": p99,
            "ms_max": times[-1] if times else 0.0, "seconds": elapsed}


def report(key: str, r: dict[str, object]) -> str:
    """The match's lines: overall, per seating, per role, and the decision times."""
    head = (f"{key:10s} trustee − rule player {r['mean']:+.2f} ± {r['half']:.2f} points per "
            f"deal ({r['deals']} deals), trustee side wins {r['wins']:.1%}; decision "
            f"{r['ms_mean']:.2f} ms mean, p99 {r['ms_p99']:.2f} ms, max {r['ms_max']:.1f} ms "
            f"({r['seconds']:.0f} s)")
    lines = [head]
    by_side = r["by_side"]
    assert isinstance(by_side, dict)
    lines.append("           per seating: " + "; ".join(
        f"trustee in {k} {m:+.2f} ± {h:.2f}" for k, (m, h) in by_side.items()))
    by_role = r["by_role"]
    assert isinstance(by_role, dict)
    if not all(k.startswith("side ") for k in by_role):
        lines.append("           per role:    " + "; ".join(
            f"trustee as {k} {m:+.2f} ± {h:.2f} ({n} games)"
            for k, (m, h, n) in by_role.items()))
    return "\n".join(lines)
