"""Benchmark: the host with a mix of families — 四川/血战 mahjong, 升级, 够级 and 斗地主 tables
through the real ``TableManager`` over SQLite — against 斗地主 tables alone, in the same run.

It is ``benchmarks/host.py``'s mixed hall (``MixedHall``: escrow, persistence after every
action, settlement; no turn timeouts here):

- players choose a random legal action (seeded per table) for a random seat among those the
  game waits for that has a choice; a window where every waiting seat may only pass is left to
  the host, whose 要不起 timer (``timers.autopass``, here ``--autopass`` seconds) fires and
  passes for them — so timers fire as in a hall, and their passes count as host calls;
- host CPU: ``time.process_time`` over the measurement (both threads) minus the CPU the players
  spent choosing (listing their legal actions is the players' work, not the host's);
- calls: every host call answered (``start``, ``act``) plus every pass the host's timers made.

Each run first plays every table to a random point of a hand (``MixedHall.stagger``, at most
``--warm`` seconds), so the tables are spread over the points of their hands (a measurement
from the deal would see only deals and first actions: 够级's 宣点, 升级's declarations), then
measures ``--seconds`` and on
until ``--calls`` host calls were answered (a loaded machine still measures enough of them).
Runs alternate (mix, 斗地主, mix, 斗地主 …), each in a fresh hall and database, and the
median of the per-run ratios is the figure. Then an open loop: ``--rate`` actions/s offered as
a Poisson stream over ``--open-tables`` mixed tables by players in a process of their own
(``Hall.open_loop``, ``benchmarks/players.py``), p50/p99 from an action's sending to the answer.

    python benchmarks/mix.py                      # 100 tables per run, 3 rounds, open loop
    python benchmarks/mix.py --rounds 5 --seconds 4 --open-tables 0
    python benchmarks/mix.py --games shengji --open-tables 0   # one family against 斗地主
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.host import MIX, MixedHall, ms, percentile, tuned
from bot.host.memory import tune_collector

ALONE: tuple[tuple[str, str], ...] = (("doudizhu", "coin_low"),)


class MixHall(MixedHall):
    """``MixedHall`` (benchmarks/host.py: tables of several games, players choosing random
    legal actions, the host's 要不起 timer passing for them), measured per host CPU-second."""

    async def run_for(self, tables: list[int], seconds: float, calls: int = 0,
                      most: float = 120.0) -> tuple[float, float, list[float]]:
        """Closed loop for ``seconds``, and on until ``calls`` host calls were answered (at
        most ``most`` seconds), so a loaded machine still measures enough calls: (host calls
        incl. timer passes, host CPU seconds, latencies of the calls)."""
        latencies: list[float] = []
        passes, cpu, thought = self.timer_actions(), time.process_time(), self.thinking
        began = time.perf_counter()

        def going() -> bool:
            took = time.perf_counter() - began
            return took < seconds or (took < most and len(latencies) < calls)

        async def run(table_id: int) -> None:
            while going():
                took = await self.step(table_id)
                if took >= 0 and going():
                    latencies.append(took)

        await asyncio.gather(*(run(t) for t in tables))
        host_cpu = time.process_time() - cpu - (self.thinking - thought)
        answered = len(latencies) + self.timer_actions() - passes
        return answered, host_cpu, latencies


async def one_run(games: tuple[tuple[str, str], ...], tables: int, args: argparse.Namespace,
                  seed: int) -> tuple[float, float, float]:
    """(calls per host CPU-second, calls, p99 of a call) for one fresh hall."""
    with tempfile.TemporaryDirectory() as folder:
        hall = await MixHall.open(Path(folder), seed=seed, tune=tuned(args.autopass))
        ids = await hall.seat_games(games, tables, seed)
        gc.collect()
        tune_collector()
        await hall.stagger(ids, args.warm)  # tables at different points of their hands
        calls, cpu, lat = await hall.run_for(ids, args.seconds, args.calls)
        await hall.close()
    return calls / cpu, calls, percentile(lat, 0.99)


async def open_run(games: tuple[tuple[str, str], ...],
                   args: argparse.Namespace) -> tuple[float, float, float, float]:
    """Open loop over mixed tables, the players in a process of their own
    (``benchmarks/players.py``): (served/s, p50, p99, the share of actions a timer overtook)."""
    with tempfile.TemporaryDirectory() as folder:
        hall = await MixHall.open(Path(folder), seed=99, tune=tuned(args.autopass))
        ids = await hall.seat_games(games, args.open_tables, 99)
        gc.collect()
        tune_collector()
        await hall.stagger(ids, args.warm)
        calls, took, lat = await hall.open_loop(ids, args.rate, args.seconds, seed=99)
        await hall.close()
    return calls / took, percentile(lat, 0.5), percentile(lat, 0.99), hall.stale / max(1, calls)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=100, help="tables per run")
    parser.add_argument("--rounds", type=int, default=3, help="mix/斗地主 run pairs")
    parser.add_argument("--seconds", type=float, default=3.0, help="per measurement")
    parser.add_argument("--calls", type=int, default=1500,
                        help="host calls a closed-loop run measures at least")
    parser.add_argument("--warm", type=float, default=60.0,
                        help="at most this many seconds of play before measuring, each table "
                        "to a random point of a hand")
    parser.add_argument("--autopass", type=float, default=0.05, help="要不起 timer, seconds")
    parser.add_argument("--rate", type=float, default=2000.0, help="open-loop actions/s")
    parser.add_argument("--open-tables", type=int, default=1000, help="0: no open loop")
    parser.add_argument("--games", nargs="+", default=None, metavar="GAME",
                        help="the mix's games (default: " + " ".join(g for g, _ in MIX) + ")")
    args = parser.parse_args()
    rooms = dict(MIX)
    mix_games = MIX if args.games is None else tuple((g, rooms[g]) for g in args.games)
    names = "/".join(g for g, _ in mix_games)
    print(f"mix benchmark: {names} vs doudizhu alone, {args.tables} tables per run, "
          f"{args.seconds:g} s per run, Python {sys.version.split()[0]}, "
          f"load average {os.getloadavg()[0]:.1f}", flush=True)
    ratios, mixes, alones = [], [], []
    for r in range(args.rounds):
        mix, mcalls, mp99 = asyncio.run(one_run(mix_games, args.tables, args, seed=2 * r + 1))
        alone, acalls, ap99 = asyncio.run(one_run(ALONE, args.tables, args, seed=2 * r + 2))
        ratios.append(mix / alone)
        mixes.append(mix)
        alones.append(alone)
        print(f"  round {r + 1}: mix {mix:,.0f} calls per CPU-second ({mcalls:,.0f} calls, "
              f"p99 {ms(mp99)}), doudizhu {alone:,.0f} ({acalls:,.0f} calls, p99 {ms(ap99)}): "
              f"{mix / alone:.2f}x", flush=True)
    if args.open_tables:
        served, p50, p99, stale = asyncio.run(open_run(mix_games, args))
        print(f"  open loop, {args.open_tables} mixed tables at {args.rate:,.0f}/s offered: "
              f"{served:,.0f}/s served, p50 {ms(p50)}, p99 {ms(p99)} (goal <= 50 ms); "
              f"{stale:.1%} of the actions overtaken by a timer")
    print(f"load average at the end {os.getloadavg()[0]:.1f} (2 cores shared with others)")
    print(f"mix: {statistics.median(ratios):.2f}x 斗地主's actions per CPU-second "
          f"(median of {args.rounds}; mix {statistics.median(mixes):,.0f}, 斗地主 "
          f"{statistics.median(alones):,.0f} per CPU-second; goal >= 0.8x)")


if __name__ == "__main__":
    main()
