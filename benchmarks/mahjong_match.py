"""The mahjong trustee against a shanten baseline, in duplicate seating, for every rule set.

The baseline (``baseline`` below) reads only its own hand and its legal actions: 胡 whenever
it may; 定缺 the suit it holds fewest of; on its turn it throws the suit it does without
(``MahjongGame.void_suit``) first, otherwise, of the tiles it may discard, the one whose
discard leaves the lowest shanten (ties: honours, then the tile nearest a terminal, then the
lowest; wilds count as plain tiles); it never 碰s, 吃s or 杠s and passes every claim but a win.
In a phase it does not know (陕西's 炮子, 二人's swap, 武汉's 海底, a turn where no tile may be
discarded) it takes the first legal action that is not a claim (胡 吃 碰 杠): ``pao 0``,
``swap -``, ``pass``.

Each deal (one seed, so one wall) is played twice per trustee level: the trustee in the even
seats (1 and 3; 二人麻将: seat 1) with the baseline in the odd ones, then the sides swapped on the
same wall (every seat's tiles go once to each side; the dealer follows the dice). Per deal the
figure is the mean over its two games of (the mean points of the trustee's seats − the mean
points of the baseline's), reported with a 95% interval (1.96 standard errors over the deals);
for the rule sets beyond 四川 / 血战 also hard's figure less normal's, deal by deal, with its
interval. Also per side: the deal-in rate (放炮: seat-hands that fed at least one win, 抢杠
included, over seat-hands), the ratio trustee / baseline, the wins per seat-hand, the mean 番 of
the side's wins (counted 番, ``FanResult.fan``) and the patterns they scored; and the time of
every trustee decision (``Game.trustee``, CPU time of the process): p50, p99 and max.

The levels compared: ``hard`` (the planning, defending trustee) and ``normal`` (today's,
kept as the ``easy``/``normal`` level), on the same deals, so their 番 and deal-in rates are
like with like.

Keys: sichuan, xuezhan (the default), shaanxi, wuhan, yongzhou, erren; the room option
``--dingque`` applies to the first two only.

    python benchmarks/mahjong_match.py [--deals 300] [--keys sichuan,xuezhan] [--jobs 1]
        [--levels hard,normal] [--seed 1] [--save FILE] [--against FILE]

A change to the trustee is measured paired on the same deals: ``--save before.json`` on the
code before it writes every deal's figure per key and level; ``--against before.json`` on the
code after it prints, per key and level, the mean difference deal by deal (this run − the
saved one) with its 95% interval, and the deal-in count and mean 番 of each (the same
``--seed`` and ``--deals``, or the deals do not pair).
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from multiprocessing import Pool
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != ROOT / "benchmarks"]
sys.path.insert(0, str(ROOT))

from engines.base import Setup  # noqa: E402
from engines.mahjong import SPECS  # noqa: E402
from engines.mahjong.game import MahjongGame  # noqa: E402
from engines.mahjong.shape import shanten  # noqa: E402
from engines.mahjong.tiles import tile_name  # noqa: E402

SPEC = {s.key: s for s in SPECS}


def baseline(game: MahjongGame, seat: int) -> str:
    """The shanten baseline's action (module docstring)."""
    legal = game.legal_actions(seat)
    if "hu" in legal:
        return "hu"
    phase = game.phase()
    if phase == "claim":
        return "pass"
    hand = game.hands[seat]
    if phase == "dingque":
        return "que " + "mps"[min(range(3), key=lambda s: (sum(hand[s * 9:s * 9 + 9]), s))]
    if phase != "discard":
        return _unknown(legal)
    void = game.void_suit(seat)
    if void is not None:
        for t in range(void * 9, void * 9 + 9):
            if hand[t] and tile_name(t) in legal:
                return tile_name(t)
    melds = len(game.melds[seat])
    best: tuple[int, int, int] | None = None
    for t in range(game.KINDS):
        if hand[t] and tile_name(t) in legal:
            hand[t] -= 1
            key = (shanten(hand, melds), -1 if t >= 27 else min(t % 9, 8 - t % 9), t)
            hand[t] += 1
            if best is None or key < best:
                best = key
    if best is None:
        return _unknown(legal)
    return tile_name(best[2])


CLAIMS = ("hu", "chi", "peng", "gang")


def _unknown(legal: list[str]) -> str:
    """A phase the baseline does not know: the first legal action that is not a claim."""
    return next((a for a in legal if a.split()[0] not in CLAIMS), legal[0])


@dataclass
class Game:
    """One game's figures for one trustee level and seating."""

    diff: float
    dealt_in: list[int]  # per side (0 trustee, 1 baseline): seat-hands that fed a win
    wins: list[int]
    fans: list[list[int]]
    items: list[Counter[str]]
    times: list[float] = field(default_factory=list)


def play(key: str, seed: int, level: str, side: int, options: dict[str, object]) -> Game:
    """One game with the trustee at ``level`` in the seats ``s % 2 == side``."""
    spec = SPEC[key]
    n = spec.min_seats
    game = spec.new(Setup(seats=n, seed=seed, options=spec.validate(options)))
    assert isinstance(game, MahjongGame)
    times: list[float] = []
    while not game.is_over():
        for seat in game.to_act():
            if game.is_over() or seat not in game.to_act():
                continue
            if seat % 2 == side:
                t0 = time.process_time()
                action = game.trustee(seat, level)
                times.append((time.process_time() - t0) * 1000)
            else:
                action = baseline(game, seat)
            game.apply(seat, action)
    pts = game.outcome().points
    of = [0 if s % 2 == side else 1 for s in range(n)]
    mine = statistics.fmean(pts[s] for s in range(n) if of[s] == 0)
    theirs = statistics.fmean(pts[s] for s in range(n) if of[s] == 1)
    fed = {w.source for w in game.wins if w.source is not None}
    out = Game(mine - theirs, [0, 0], [0, 0], [[], []], [Counter(), Counter()], times)
    for s in fed:
        out.dealt_in[of[s]] += 1
    for w in game.wins:
        out.wins[of[w.seat]] += 1
        out.fans[of[w.seat]].append(w.fan.fan)
        out.items[of[w.seat]].update(k for k, _ in w.fan.items)
    return out


def _deal(args: tuple[str, int, tuple[str, ...], dict[str, object]]) -> dict[str, list[Game]]:
    key, seed, levels, options = args
    return {lv: [play(key, seed, lv, side, options) for side in (0, 1)] for lv in levels}


def _interval(values: list[float]) -> tuple[float, float]:
    mean = statistics.fmean(values)
    half = 1.96 * statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else 0
    return mean, half


def _pct(values: list[float], q: float) -> float:
    return values[min(len(values) - 1, int(q * len(values)))] if values else 0.0


def summarize(key: str, level: str, deals: list[list[Game]]) -> dict[str, float]:
    """One level's figures over its deals, printed; returned for the comparisons."""
    games = [g for d in deals for g in d]
    mean, half = _interval([statistics.fmean(g.diff for g in d) for d in deals])
    seat_hands = SPEC[key].min_seats // 2 * len(games)  # seats per side in every game
    rate = [sum(g.dealt_in[k] for g in games) / seat_hands for k in (0, 1)]
    wins = [sum(g.wins[k] for g in games) / seat_hands for k in (0, 1)]
    fans = [[f for g in games for f in g.fans[k]] for k in (0, 1)]
    mean_fan = [statistics.fmean(f) if f else 0.0 for f in fans]
    items: Counter[str] = Counter()
    for g in games:
        items.update(g.items[0])
    times = sorted(t for g in games for t in g.times)
    ratio = rate[0] / rate[1] if rate[1] else float("inf")
    print(f"{key:8s} {level:6s} trustee − baseline {mean:+.2f} ± {half:.2f} points per hand "
          f"({len(deals)} deals, {len(games)} games)")
    print(f"{'':15s} deal-in per seat-hand: trustee {rate[0]:.3f}, baseline {rate[1]:.3f}, "
          f"ratio {ratio:.2f}x; wins per seat-hand {wins[0]:.3f} vs {wins[1]:.3f}")
    print(f"{'':15s} mean 番 of wins: trustee {mean_fan[0]:.2f} ({len(fans[0])} wins), "
          f"baseline {mean_fan[1]:.2f} ({len(fans[1])} wins)")
    print(f"{'':15s} trustee's patterns: "
          + ", ".join(f"{k} {n}" for k, n in items.most_common()))
    print(f"{'':15s} decision CPU ms: p50 {_pct(times, 0.5):.2f}, p99 {_pct(times, 0.99):.2f}, "
          f"max {times[-1] if times else 0:.1f} ({len(times)} decisions)")
    return {"mean": mean, "half": half, "ratio": ratio, "fan": mean_fan[0],
            "p99": _pct(times, 0.99)}


def _record(games: list[Game]) -> dict[str, Any]:
    """One deal's figures for one level (both seatings), as saved by ``--save``."""
    return {"diff": statistics.fmean(g.diff for g in games),
            "dealt_in": sum(g.dealt_in[0] for g in games),
            "fans": [f for g in games for f in g.fans[0]]}


def _paired(key: str, level: str, new: list[dict[str, Any]], old: list[dict[str, Any]]) -> None:
    """This run against a saved one, deal by deal (the first deals both have)."""
    n = min(len(new), len(old))
    mean, half = _interval([new[i]["diff"] - old[i]["diff"] for i in range(n)])
    fans = [[f for d in side[:n] for f in d["fans"]] for side in (new, old)]
    fan = [statistics.fmean(f) if f else 0.0 for f in fans]
    fed = [sum(d["dealt_in"] for d in side[:n]) for side in (new, old)]
    print(f"{'':15s} {level} now − saved (paired, {n} deals): {mean:+.2f} ± {half:.2f} points "
          f"per hand; deal-ins {fed[0]} vs {fed[1]}; mean 番 {fan[0]:.2f} ({len(fans[0])} "
          f"wins) vs {fan[1]:.2f} ({len(fans[1])})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=300)
    parser.add_argument("--keys", default="sichuan,xuezhan")
    parser.add_argument("--levels", default="hard,normal")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--dingque", action="store_true", help="the room option 定缺 on")
    parser.add_argument("--save", help="write every deal's figures to this JSON file")
    parser.add_argument("--against", help="pair this run deal by deal with a --save file")
    args = parser.parse_args()
    saved: dict[str, list[dict[str, Any]]] = {}
    before = json.loads(Path(args.against).read_text()) if args.against else None
    if before is not None and before.get("seed") != args.seed:
        parser.error(f"{args.against} was played from seed {before.get('seed')}, not {args.seed}")
    levels = tuple(args.levels.split(","))
    dingque: dict[str, object] = {"dingque": True} if args.dingque else {}
    start = time.perf_counter()
    figures: dict[tuple[str, str], dict[str, float]] = {}
    for key in args.keys.split(","):
        options = dingque if key in ("sichuan", "xuezhan") else {}
        work = [(key, args.seed + i, levels, options) for i in range(args.deals)]
        if args.jobs > 1:
            with Pool(args.jobs) as pool:
                results = pool.map(_deal, work, chunksize=4)
        else:
            results = [_deal(w) for w in work]
        for lv in levels:
            figures[key, lv] = summarize(key, lv, [r[lv] for r in results])
        per_deal = {lv: [_record(r[lv]) for r in results] for lv in levels}
        for lv in levels:
            saved[f"{key} {lv}"] = per_deal[lv]
            old = before.get(f"{key} {lv}") if before else None
            if old is not None:
                _paired(key, lv, per_deal[lv], old)
        if {"hard", "normal"} <= set(levels):
            new, old = figures[key, "hard"], figures[key, "normal"]
            print(f"{'':15s} hard vs normal: mean 番 {new['fan']:.2f} / {old['fan']:.2f} = "
                  f"{new['fan'] / old['fan'] if old['fan'] else float('inf'):.2f}x; deal-in "
                  f"ratio {new['ratio']:.2f}x vs {old['ratio']:.2f}x")
            if key not in ("sichuan", "xuezhan"):
                mean, half = _interval([statistics.fmean(g.diff for g in r["hard"])
                                        - statistics.fmean(g.diff for g in r["normal"])
                                        for r in results])
                print(f"{'':15s} hard − normal (paired by deal): {mean:+.2f} ± {half:.2f} "
                      "points per hand")
    if args.save:
        Path(args.save).write_text(json.dumps({"seed": args.seed, **saved}))
    print(f"({time.perf_counter() - start:.0f} s wall)")
    top = levels[0]
    worst = max(figures[k, top]["p99"] for k in args.keys.split(","))
    fan_x = [figures[k, "hard"]["fan"] / figures[k, "normal"]["fan"]
             for k in args.keys.split(",") if (k, "normal") in figures and (k, "hard") in figures
             and figures[k, "normal"]["fan"]]
    ratio = max(figures[k, top]["ratio"] for k in args.keys.split(","))
    summary = f"mahjong_match: {ratio:.2f} x deal-in ratio ({top}, worst key)"
    if fan_x:
        summary += f", {min(fan_x):.2f} x mean fan vs normal"
    print(summary + f", p99 {worst:.1f} ms")


if __name__ == "__main__":
    main()
