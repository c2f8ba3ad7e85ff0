"""Benchmark: the host with a mix of families — 四川/血战 mahjong, 升级, 够级 and 斗地主 tables
through the real ``TableManager`` over SQLite — against 斗地主 tables alone, in the same run.

It is ``benchmarks/host.py``'s hall (``Hall.open``: escrow, persistence after every action,
settlement) with other games seated and other players:

- players choose a random legal action (seeded per table) for a random seat among those the
  game waits for that has a choice; a window where every waiting seat may only pass is left to
  the host, whose 要不起 timer (``timers.autopass``, here ``--autopass`` seconds) fires and
  passes for them — so timers fire as in a hall, and their passes count as host calls;
- host CPU: ``time.process_time`` over the measurement (both threads) minus the CPU the players
  spent choosing (listing their legal actions is the players' work, not the host's);
- calls: every host call answered (``start``, ``act``) plus every pass the host's timers made.

Runs alternate (mix, 斗地主, mix, 斗地主 …), each in a fresh hall and database, and the
median of the per-run ratios is the figure. Then an open loop: ``--rate`` actions/s offered as
a Poisson stream over ``--open-tables`` mixed tables (``Hall.open_loop``), p50/p99 from the
arrival to the answer.

    python benchmarks/mix.py                      # 100 tables per run, 3 rounds, open loop
    python benchmarks/mix.py --rounds 5 --seconds 4 --open-tables 0
    python benchmarks/mix.py --games shengji --open-tables 0   # one family against 斗地主
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import os
import random
import statistics
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.host import Hall, ms, percentile
from bot.host.memory import tune_collector
from bot.host.model import HostError
from bot.settings import Settings
from engines import registry

PASS = "pass"

# game → room it is played in (rooms' bean ceilings are lifted: people hold the host
# benchmark's large grant so nobody busts out of a room)
MIX: tuple[tuple[str, str], ...] = (
    ("sichuan", "regular"),
    ("xuezhan", "regular"),
    ("shengji", "shengji"),
    ("gouji", "gouji"),
    ("doudizhu", "coin_low"),
)
ALONE: tuple[tuple[str, str], ...] = (("doudizhu", "coin_low"),)


def tuned(autopass: float) -> object:
    def tune(settings: Settings) -> Settings:
        rooms = {k: replace(r, max_beans=2_000_000_000) for k, r in settings.rooms.items()}
        return replace(settings, rooms=rooms, autopass_delay=autopass)  # type: ignore[arg-type]

    return tune


class MixHall(Hall):
    """``Hall`` with tables of several games and players choosing random legal actions."""

    rngs: dict[int, random.Random]
    wait_for_host: bool

    async def seat_games(self, games: tuple[tuple[str, str], ...], tables: int,
                         seed: int) -> list[int]:
        """``tables`` tables, the games of ``games`` in turn; returns their ids."""
        self.rngs, self.wait_for_host, self.autopasses_seen = {}, True, 0.0
        specs = registry.specs()
        uid = 1
        plan = []
        for i in range(tables):
            game, room = games[i % len(games)]
            spec = specs[game]
            plan.append((i + 1, game, room, uid, spec.seats_default or spec.min_seats))
            uid += spec.seats_default or spec.min_seats

        async def one(table_id: int, game: str, room: str, first: int, seats: int) -> None:
            await self.manager.create(1, table_id, game, room, first, f"p{first}")
            for u in range(first + 1, first + seats):
                await self.manager.join(table_id, u, f"p{u}")
            self.rngs[table_id] = random.Random(seed * 100_003 + table_id)

        for start in range(0, tables, 200):
            await asyncio.gather(*(one(*p) for p in plan[start:start + 200]))
        return [p[0] for p in plan]

    def timer_passes(self) -> float:
        value = self.manager.metrics.registry.get_sample_value(
            "gamehall_actions_total", {"source": "timeout"})
        return value or 0.0

    async def step(self, table_id: int) -> float:
        """One host call at the table, or (closed loop, every waiting seat may only pass) a
        short wait while the host's timer passes for them: returns the host call's seconds,
        or -1.0 when no call was made."""
        dealt = await self.deal_if_idle(table_id)
        if dealt is not None:
            return dealt
        manager = self.manager
        table = manager.tables[table_id]
        game = table.game
        assert game is not None
        rng = self.rngs[table_id]
        thought = time.process_time()
        waiting = list(game.to_act())
        rng.shuffle(waiting)
        choice: tuple[int, str] | None = None
        forced: int | None = None
        for seat in waiting:
            legal = game.legal_actions(seat)
            if legal == [PASS]:
                forced = seat
            elif legal:
                choice = (seat, rng.choice(legal))
                break
        self.thinking += time.process_time() - thought
        if choice is None:
            if forced is None or self.wait_for_host:
                await asyncio.sleep(self.settings.autopass_delay / 2)
                return -1.0
            choice = (forced, PASS)  # a person who acts first simply acts
        seat, action = choice
        uid = table.seats[seat].uid
        assert uid is not None
        began = time.perf_counter()
        try:
            await manager.act(table_id, uid, action)
        except HostError as exc:
            # the host's 要不起 timer passed for the seat first: refused, still answered
            if exc.text.key != "err.not_your_turn":
                raise
        return time.perf_counter() - began

    async def run_for(self, tables: list[int], seconds: float) -> tuple[float, float, list[float]]:
        """Closed loop for ``seconds``: (host calls incl. timer passes, host CPU seconds,
        latencies of the calls)."""
        latencies: list[float] = []
        passes, cpu, thought = self.timer_passes(), time.process_time(), self.thinking
        stop_at = time.perf_counter() + seconds

        async def run(table_id: int) -> None:
            while time.perf_counter() < stop_at:
                took = await self.step(table_id)
                if took >= 0 and time.perf_counter() <= stop_at:
                    latencies.append(took)

        await asyncio.gather(*(run(t) for t in tables))
        host_cpu = time.process_time() - cpu - (self.thinking - thought)
        calls = len(latencies) + self.timer_passes() - passes
        return calls, host_cpu, latencies


async def one_run(games: tuple[tuple[str, str], ...], tables: int, args: argparse.Namespace,
                  seed: int) -> tuple[float, float, float]:
    """(calls per host CPU-second, calls, p99 of a call) for one fresh hall."""
    with tempfile.TemporaryDirectory() as folder:
        hall = await MixHall.open(Path(folder), seed=seed, tune=tuned(args.autopass))
        ids = await hall.seat_games(games, tables, seed)
        gc.collect()
        tune_collector()
        await hall.run_for(ids, args.warm)  # tables at different points of their hands
        calls, cpu, lat = await hall.run_for(ids, args.seconds)
        await hall.close()
    return calls / cpu, calls, percentile(lat, 0.99)


async def open_run(games: tuple[tuple[str, str], ...],
                   args: argparse.Namespace) -> tuple[float, float, float, float]:
    """Open loop over mixed tables: (served/s, p50, p99, the players' share of the CPU —
    their choosing runs in the host's event loop here, and its latency counts it)."""
    with tempfile.TemporaryDirectory() as folder:
        hall = await MixHall.open(Path(folder), seed=99, tune=tuned(args.autopass))
        ids = await hall.seat_games(games, args.open_tables, 99)
        gc.collect()
        tune_collector()
        await hall.run_for(ids, args.warm)
        hall.wait_for_host = False
        thought, cpu = hall.thinking, time.process_time()
        calls, took, lat = await hall.open_loop(ids, args.rate, args.seconds, seed=99)
        thinking = (hall.thinking - thought) / max(1e-9, time.process_time() - cpu)
        await hall.close()
    return calls / took, percentile(lat, 0.5), percentile(lat, 0.99), thinking


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=100, help="tables per run")
    parser.add_argument("--rounds", type=int, default=3, help="mix/斗地主 run pairs")
    parser.add_argument("--seconds", type=float, default=3.0, help="per measurement")
    parser.add_argument("--warm", type=float, default=1.0, help="play before measuring")
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
        served, p50, p99, thinking = asyncio.run(open_run(mix_games, args))
        print(f"  open loop, {args.open_tables} mixed tables at {args.rate:,.0f}/s offered: "
              f"{served:,.0f}/s served, p50 {ms(p50)}, p99 {ms(p99)} (goal <= 50 ms); "
              f"players' choosing {thinking:.0%} of the CPU")
    print(f"load average at the end {os.getloadavg()[0]:.1f} (2 cores shared with others)")
    print(f"mix: {statistics.median(ratios):.2f}x 斗地主's actions per CPU-second "
          f"(median of {args.rounds}; mix {statistics.median(mixes):,.0f}, 斗地主 "
          f"{statistics.median(alones):,.0f} per CPU-second; goal >= 0.8x)")


if __name__ == "__main__":
    main()
