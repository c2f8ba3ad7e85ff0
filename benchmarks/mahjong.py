"""麻将 engine speed, side by side with the peers on the same hands, cold and warm: the
14-tile win check, the 13-tile waits and shanten; then trustee self-play hands per second
(every registered mahjong game) and the trustee's points against seats that discard at
random.

Each peer is named by the call measured, and each figure is compared with the fastest peer:

- win check (14 tiles): ours ``shape.is_win(counts)``; ``mahjong``'s
  ``Agari().is_agari(counts)`` (34 counts); PyMahjongGB's cheapest complete-hand judgement,
  one ``MahjongFanCalculator((), 13 tiles, 14th tile, ...)`` call (a hand that is not complete
  raises ``ERROR_NOT_WIN``); and, for reference, PyMahjongGB's shanten judge on one removal
  (``RegularShanten`` and ``SevenPairsShanten`` of the 13 other tiles: shanten 0 with the
  removed tile among the useful ones; any one tile of a complete hand will do).
- waits (13 tiles, all 34 kinds): ours ``shape.waits(counts, 0, (0, 1, 2, 3))``;
  ``mahjong``'s ``Agari().is_agari`` on the hand plus each kind it holds fewer than four of;
  PyMahjongGB's ``RegularShanten`` and ``SevenPairsShanten`` (the useful tiles of a ready
  hand are its waits).
- shanten (13 tiles, regular form and seven pairs): ours ``shape.shanten(counts)``;
  PyMahjongGB's ``MahjongShanten((), tiles)`` (which also weighs 十三幺 and the knitted
  shapes: the agreement is printed); ``mahjong``'s ``Shanten().calculate_shanten(counts,
  use_kokushi=False)``.

Every side's inputs are built before the clock starts (ours: counts vectors; ``mahjong``:
the same lists; PyMahjongGB: tuples of its tile names). Times are CPU time of the process.
Warm: ``--rounds`` repetitions, the sides interleaved (the order turning each round), each
a whole pass over the hands; the median pass is reported. Cold: each repetition is a fresh
Python process that imports every side (not timed; ours reads its tables then, and
that reading is timed alone and printed) and times each side's first pass over hands it has never met,
the sides again interleaved; the median is reported. Our shape functions keep no memo (the
recursions ``decompose`` keeps are cleared before a cold pass all the same).

PyMahjongGB (``pip install PyMahjongGB``) and ``mahjong`` (``pip install mahjong``) are test
dependencies; a missing one is reported and skipped.

    python benchmarks/mahjong.py [--hands 5000] [--rounds 5] [--games 30]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
# this file is mahjong.py: its folder on the path would hide the ``mahjong`` package
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != ROOT / "benchmarks"]
sys.path.insert(0, str(ROOT))

from engines.base import Setup
from engines.mahjong import SPECS

GB_NAMES = [f"{'WBT'[t // 9]}{t % 9 + 1}" for t in range(27)] + [
    *(f"F{k}" for k in range(1, 5)),
    *(f"J{k}" for k in range(1, 4)),
]


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


def thirteen(sample: list[list[int]]) -> list[list[int]]:
    """The 14-tile hands less one tile (a random one, seeded): many are ready."""
    rng = random.Random(2)
    out = []
    for hand in sample:
        rest = list(hand)
        del rest[rng.randrange(len(rest))]
        out.append(rest)
    return out


# --- the sides: (name, call measured, input builder, judgement) -----------------------------
Side = tuple[str, Callable[[list[int]], Any], Callable[[Any], Any]]
"""(name with the call, how to build its input from a hand's tile list, the call)."""


def sides(measure: str) -> list[Side]:
    """Ours first, then every installed peer, for ``win``, ``waits`` or ``shanten``."""
    from engines.mahjong.shape import is_win, shanten, waits

    out: list[Side] = []
    if measure == "win":
        out.append(("ours shape.is_win", counts_of, is_win))
    elif measure == "waits":
        out.append(("ours shape.waits", counts_of, lambda c: waits(c, 0, (0, 1, 2, 3))))
    else:
        out.append(("ours shape.shanten", counts_of, shanten))
    try:
        from mahjong.agari import Agari
        from mahjong.shanten import Shanten
    except ImportError:
        pass
    else:
        agari = Agari().is_agari
        if measure == "win":
            out.append(("mahjong Agari.is_agari", counts_of, agari))
        elif measure == "waits":

            def agari_waits(c: list[int]) -> list[int]:
                found = []
                for t in range(34):
                    if c[t] < 4:
                        c[t] += 1
                        if agari(c):
                            found.append(t)
                        c[t] -= 1
                return found

            out.append(("mahjong Agari.is_agari per kind", counts_of, agari_waits))
        else:
            calc = Shanten().calculate_shanten
            out.append(
                (
                    "mahjong Shanten.calculate_shanten",
                    counts_of,
                    lambda c: calc(c, use_kokushi=False),
                )
            )
    try:
        import MahjongGB
    except ImportError:
        return out
    regular, pairs = MahjongGB.RegularShanten, MahjongGB.SevenPairsShanten

    def names(hand: list[int]) -> tuple[str, ...]:
        return tuple(GB_NAMES[t] for t in hand)

    if measure == "win":
        fan = MahjongGB.MahjongFanCalculator

        def gb_fan(h: tuple[str, ...]) -> bool:
            try:
                fan((), h[:13], h[13], 0, False, False, False, False, 0, 0)
            except TypeError:  # ERROR_NOT_WIN
                return False
            return True

        def gb_removal(h: tuple[str, ...]) -> bool:
            rest, last = h[:13], h[13]
            for judge in (regular, pairs):
                shanten_, useful = judge(rest)
                if shanten_ == 0 and last in useful:
                    return True
            return False

        out.append(("PyMahjongGB MahjongFanCalculator", names, gb_fan))
        out.append(("PyMahjongGB Regular+SevenPairsShanten, one removal", names, gb_removal))
    elif measure == "waits":

        def gb_waits(h: tuple[str, ...]) -> set[str]:
            found: set[str] = set()
            for judge in (regular, pairs):
                shanten_, useful = judge(h)
                if shanten_ == 0:
                    found.update(useful)
            return found

        out.append(("PyMahjongGB Regular+SevenPairsShanten useful", names, gb_waits))
    else:
        mahjong_shanten = MahjongGB.MahjongShanten
        out.append(("PyMahjongGB MahjongShanten", names, lambda h: mahjong_shanten((), h)))
    return out


MEASURES = (
    ("win", "win check, 14 tiles", "checks/s"),
    ("waits", "waits, 13 tiles", "hands/s"),
    ("shanten", "shanten, 13 tiles", "hands/s"),
)


def one_pass(call: Callable[[Any], Any], items: list[Any]) -> float:
    """Items per CPU second of one pass."""
    start = time.process_time()
    for item in items:
        call(item)
    return len(items) / (time.process_time() - start)


def clear_memos() -> None:
    from engines.mahjong import decompose

    decompose._decomp.cache_clear()
    decompose._front.cache_clear()
    decompose._and.cache_clear()
    decompose._combine.cache_clear()


def measure_rounds(measure: str, sample: list[list[int]], rounds: int) -> dict[str, float]:
    """Warm: the median pass of each side over ``rounds`` interleaved repetitions."""
    found = sides(measure)
    inputs = [[build(h) for h in sample] for _, build, _ in found]
    rates: dict[str, list[float]] = {name: [] for name, _, _ in found}
    for r in range(rounds + 1):  # round 0 warms every side up and is not counted
        order = list(range(len(found)))
        order = order[r % len(order) :] + order[: r % len(order)]
        for i in order:
            rate = one_pass(found[i][2], inputs[i])
            if r:
                rates[found[i][0]].append(rate)
    return {name: statistics.median(v) for name, v in rates.items()}


def cold_worker(measure: str, count: int, seed: int) -> None:
    """One cold repetition, in a fresh process: every side's first pass over new hands."""
    from engines.mahjong import suit_tables

    start = time.process_time()
    suit_tables._load()  # what importing ours costs once: reading its tables (timed alone)
    load = time.process_time() - start
    found = sides(measure)
    sample = hands(count, seed)
    if measure != "win":
        sample = thirteen(sample)
    inputs = [[build(h) for h in sample] for _, build, _ in found]
    clear_memos()
    order = list(range(len(found)))
    order = order[seed % len(order) :] + order[: seed % len(order)]
    rates = {found[i][0]: one_pass(found[i][2], inputs[i]) for i in order}
    print(json.dumps({"rates": rates, "load": load}))


def measure_cold(measure: str, count: int, rounds: int) -> tuple[dict[str, float], float]:
    """Cold: the median first pass of each side over ``rounds`` fresh processes."""
    rates: dict[str, list[float]] = {}
    loads = []
    for r in range(rounds):
        args = [sys.executable, __file__, "--cold-worker", measure, str(count), str(100 + r)]
        line = subprocess.run(args, capture_output=True, text=True, check=True).stdout
        got = json.loads(line)
        loads.append(got["load"])
        for name, rate in got["rates"].items():
            rates.setdefault(name, []).append(rate)
    return {name: statistics.median(v) for name, v in rates.items()}, statistics.median(loads)


def agreement(measure: str, sample: list[list[int]]) -> dict[str, int]:
    """How many hands each peer answers as ours does (waits compared as sets of kinds)."""
    found = sides(measure)
    answers = []
    for _, build, call in found:
        row = []
        for h in sample:
            got = call(build(h))
            if measure == "waits" and got and isinstance(next(iter(got)), str):
                got = {GB_NAMES.index(x) for x in got}
            row.append(set(got) if measure == "waits" else bool(got) if measure == "win" else got)
        answers.append(row)
    return {
        found[i][0]: sum(a == b for a, b in zip(answers[0], answers[i], strict=True))
        for i in range(1, len(found))
    }


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
    parser.add_argument("--hands", type=int, default=5000, help="hands per pass")
    parser.add_argument("--rounds", type=int, default=5, help="repetitions, warm and cold")
    parser.add_argument("--games", type=int, default=30, help="self-play hands (0: none)")
    parser.add_argument("--cold-worker", nargs=3, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.cold_worker:
        measure, count, seed = args.cold_worker
        cold_worker(measure, int(count), int(seed))
        return

    sample = hands(args.hands)
    ready = thirteen(sample)
    from engines.mahjong.shape import is_win, shanten

    wins = sum(is_win(counts_of(h)) for h in sample)
    tenpai = sum(shanten(counts_of(h)) == 0 for h in ready)
    print(
        f"hands: {len(sample)} random 14-tile hands of three suits, {wins} of them complete; "
        f"the same less one tile, {tenpai} of them ready"
    )
    summary = []
    for measure, title, unit in MEASURES:
        items = sample if measure == "win" else ready
        warm = measure_rounds(measure, items, args.rounds)
        cold, load = measure_cold(measure, min(args.hands, 2000), args.rounds)
        agree = agreement(measure, items[:2000])
        ours = next(iter(warm))
        print(f"{title} (median CPU rate; cold: first pass in a fresh process)")
        for name in warm:
            note = (
                ""
                if name == ours
                else f"   agrees with ours on {agree[name]}/{min(len(items), 2000)}"
            )
            print(f"  {name:<52} warm {warm[name]:>11,.0f}  cold {cold[name]:>11,.0f} {unit}{note}")
        peers = [n for n in warm if n != ours]
        for kind, rates in (("warm", warm), ("cold", cold)):
            if peers:
                fastest = max(peers, key=rates.__getitem__)
                summary.append(
                    f"mahjong_{measure}_{kind}: {rates[ours]:.0f} {unit} "
                    f"({rates[ours] / rates[fastest]:.2f}x {fastest}, the fastest peer)"
                )
            else:
                summary.append(f"mahjong_{measure}_{kind}: {rates[ours]:.0f} {unit} (no peer)")
    print(f"ours: the shape tables load in {load * 1000:.0f} ms of CPU at import")
    if args.games:
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
    for line in summary:
        print(line)


if __name__ == "__main__":
    main()
