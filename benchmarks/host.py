"""Benchmark: the table host at hall scale — N concurrent 斗地主 tables of three people.

Everything is real except Discord: the real ``TableManager`` (escrow, timers armed on every
turn, persistence after every action, settlement, levels) over a real SQLite file, shown through
a notifier that does nothing.

For each table count it prints:

- closed loop: every table plays as fast as the host answers (one action in flight per table);
  host actions/s (person actions through ``act``; a ``start`` counts as one too), p50/p99 of
  one host call. People choose their longest legal action (the players' own thinking is not
  the host's work; the share of the loop it takes is printed);
- open loop: actions arrive as a Poisson stream at ``--rate`` per second at random tables (one
  in flight per table); p50/p99 from the arrival to the answer (queueing included);
- RSS per table, with everyone seated between hands (idle) and mid-hand (a live game each);
- database bytes per hand (growth of the checkpointed file over the closed loop, per hand).

Each size first plays half as many hands as it has tables, so the tables are at different
points of their hands. Then ``--warmup`` hands are played at the middle size and the closed
loop is measured again, so a cost that grows with uptime shows as a ratio below 1.

    python benchmarks/host.py                     # 100 and 1,000 tables, 2,000 warm-up hands
    python benchmarks/host.py --full              # 100, 1,000 and 5,000 tables, 10,000 hands
    python benchmarks/host.py --tables 100 1000 --seconds 5 --rate 2000 --warmup 10000
    python benchmarks/host.py --collector plain   # CPython's default collector thresholds
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import random
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.host.memory import tune_collector
from bot.host.model import PLAYING, HostError, Table
from bot.host.tables import HandResult, TableManager
from bot.settings import Settings, load_settings
from engines import registry
from engines.base import Text
from storage.db import Database, open_database
from storage.wallet import Wallet

GAME, ROOM = "doudizhu", "coin_low"
PAGE = os.sysconf("SC_PAGE_SIZE")


class NullNotifier:
    """Shows nothing: the benchmark measures the host, not a platform."""

    async def table_changed(self, table: Table) -> None:
        return None

    async def hand_started(self, table: Table) -> None:
        return None

    async def hand_dealt(self, table: Table, seat: int) -> None:
        return None

    async def hand_settled(self, table: Table, result: HandResult) -> None:
        return None

    async def table_closed(self, table: Table, reason: Text) -> None:
        return None


def rss() -> int:
    """Resident memory of this process in bytes."""
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * PAGE


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


class Hall:
    """A host over a fresh database file with ``tables`` tables of three people."""

    def __init__(self, settings: Settings, db: Database, manager: TableManager) -> None:
        self.settings, self.db, self.manager = settings, db, manager
        self.hands = 0
        self.busy: set[int] = set()
        self.thinking = 0.0
        self.calls = 0

    @classmethod
    async def open(cls, folder: Path | str, seed: int,
                   tune: Callable[[Settings], Settings] | None = None,
                   **db_options: Any) -> Hall:
        """A hall over ``folder``'s hall.db, or over a database target (``postgresql://…``),
        opened with ``db_options`` (e.g. a pool's size); ``tune`` changes the benchmark's
        settings further (another benchmark's timers or rooms)."""
        target = folder if isinstance(folder, str) else str(folder / "hall.db")
        settings = load_settings(environ={"GAMEHALL_DB": target},
                                 known_games=registry.specs().keys())
        # turn timers never fire here: the clock is armed on every turn all the same
        settings = replace(settings, starting_grant=10_000_000, timers={"default": 10**6})
        if tune is not None:
            settings = tune(settings)
        db = await open_database(settings.database, **db_options)
        seeds = random.Random(seed)
        manager = TableManager(
            settings,
            db,
            Wallet.from_settings(db, settings),
            NullNotifier(),
            clock=time.time,
            seed_source=lambda: seeds.getrandbits(62),
        )
        return cls(settings, db, manager)

    async def seat(self, tables: int, first: int = 0) -> None:
        """Open tables ``first`` … ``first + tables - 1`` (channel = index + 1) and seat three."""

        async def one(i: int) -> None:
            uid = 3 * i + 1
            await self.manager.create(1, i + 1, GAME, ROOM, uid, f"p{uid}")
            await self.manager.join(i + 1, uid + 1, f"p{uid + 1}")
            await self.manager.join(i + 1, uid + 2, f"p{uid + 2}")

        for start in range(first, first + tables, 200):
            await asyncio.gather(*(one(i) for i in range(start, min(first + tables, start + 200))))

    async def deal_if_idle(self, table_id: int) -> float | None:
        """Start the next hand at a table with none running: the seconds that host call took,
        or None while a hand runs."""
        table = self.manager.tables[table_id]
        if table.status == PLAYING and table.game is not None:
            return None
        uid = table.seats[0].uid
        assert uid is not None
        began = time.perf_counter()
        await self.manager.start(table_id, uid)
        return time.perf_counter() - began

    async def step(self, table_id: int) -> float:
        """One host call at the table: start a hand, or the person to act plays the hint.
        Returns the seconds the host call took."""
        dealt = await self.deal_if_idle(table_id)
        if dealt is not None:
            return dealt
        manager = self.manager
        table = manager.tables[table_id]
        seat = table.game.to_act()[0]
        uid = table.seats[seat].uid
        assert uid is not None
        began = time.perf_counter()
        # the longest action: the most cards a play can shed, so hands stay short (about as
        # long as hands played with the hint) and starts and settlements weigh their share
        action = max(table.game.legal_actions(seat), key=len)
        self.thinking += time.perf_counter() - began
        began = time.perf_counter()
        await manager.act(table_id, uid, action)
        took = time.perf_counter() - began
        if table.status != PLAYING:
            self.hands += 1
        return took

    async def closed_loop(
        self, tables: list[int], seconds: float | None = None, hands: int | None = None
    ) -> tuple[int, float, list[float]]:
        """Every table plays back to back until ``seconds`` pass or ``hands`` are settled.
        Returns (host calls answered in the window, the window's seconds, their latencies);
        calls still running when the window closes finish but are not counted."""
        latencies: list[float] = []
        began = time.perf_counter()
        stop_at = began + seconds if seconds is not None else None
        goal = self.hands + hands if hands is not None else None

        def done() -> bool:
            if stop_at is not None and time.perf_counter() >= stop_at:
                return True
            return goal is not None and self.hands >= goal

        async def run(table_id: int) -> None:
            while not done():
                try:
                    took = await self.step(table_id)
                except HostError as exc:  # pragma: no cover - would be a bench bug
                    raise RuntimeError(f"table {table_id}: {exc.text}") from exc
                self.calls += 1
                if stop_at is None or time.perf_counter() <= stop_at:
                    latencies.append(took)

        await asyncio.gather(*(run(t) for t in tables))
        window = seconds if seconds is not None else time.perf_counter() - began
        return len(latencies), window, latencies

    async def open_loop(
        self, tables: list[int], rate: float, seconds: float, seed: int
    ) -> tuple[int, float, list[float]]:
        """Poisson arrivals at ``rate``/s, each at a random table not already answering.
        Latency is from the arrival to the host's answer."""
        rng = random.Random(seed)
        loop = asyncio.get_running_loop()
        latencies: list[float] = []
        pending: set[asyncio.Task[None]] = set()
        dropped = 0

        async def one(table_id: int, arrived: float) -> None:
            try:
                await self.step(table_id)
                latencies.append(loop.time() - arrived)
            finally:
                self.busy.discard(table_id)

        began = loop.time()
        due = began
        while due - began < seconds:
            due += rng.expovariate(rate)
            delay = due - loop.time()
            if delay > 0:
                await asyncio.sleep(delay)
            for _ in range(8):
                table_id = rng.choice(tables)
                if table_id not in self.busy:
                    break
            else:
                dropped += 1
                continue
            self.busy.add(table_id)
            task = loop.create_task(one(table_id, due))
            pending.add(task)
            task.add_done_callback(pending.discard)
        await asyncio.gather(*pending)
        return len(latencies), loop.time() - began, latencies

    def db_bytes(self) -> int:
        """The database file's size once the WAL is checkpointed into it (call when idle)."""
        path = Path(self.settings.database)
        conn = sqlite3.connect(path)
        try:
            conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        finally:
            conn.close()
        return path.stat().st_size

    async def close(self) -> None:
        await self.manager.shutdown()
        await self.db.close()


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.2f} ms"


async def measure(size: int, args: argparse.Namespace, warmup: int) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as folder:
        hall = await Hall.open(Path(folder), seed=size)
        opened = time.perf_counter()
        # the first tables pay for what the process has once (SQLite's page cache, imports);
        # the rest show what one more table costs
        first = min(size // 10, 100)
        await hall.seat(first)
        gc.collect()
        base = rss()
        await hall.seat(size - first, first)
        gc.collect()
        idle = (rss() - base) / (size - first)
        if args.collector == "tuned":
            tune_collector()  # what the bot does once its tables are restored
        print(
            f"\n{size} tables: seated {3 * size} people in "
            f"{time.perf_counter() - opened:.1f} s; RSS per idle table {idle / 1024:.1f} KiB "
            f"(each table beyond the first {first})"
        )
        tables = list(range(1, size + 1))
        # play until the tables are at different points of their hands, as in a running hall
        # (otherwise the first measurement sees deals, then only plays, then settlements)
        began = time.perf_counter()
        await hall.closed_loop(tables, hands=size // 2)
        print(f"  staggered: {hall.hands} hands in {time.perf_counter() - began:.1f} s")

        before_bytes, before_hands, thought = hall.db_bytes(), hall.hands, hall.thinking
        cpu, all_calls = time.process_time(), hall.calls
        calls, took, lat = await hall.closed_loop(tables, seconds=args.seconds)
        cpu_per_call = (time.process_time() - cpu) / (hall.calls - all_calls)
        hands = hall.hands - before_hands
        grown = hall.db_bytes() - before_bytes
        per_hand = grown / hands if hands else float("nan")
        closed = calls / took
        print(
            f"  closed loop: {calls} host calls in {took:.1f} s = {closed:,.0f} actions/s; "
            f"p50 {ms(percentile(lat, 0.5))}, p99 {ms(percentile(lat, 0.99))}; "
            f"{hands} hands, "
            + (f"{per_hand:,.0f} DB bytes per hand; " if hands else f"DB grew {grown:,} bytes; ")
            + f"CPU {cpu_per_call * 1e6:.0f} µs per call (both threads); players' choosing "
            f"{(hall.thinking - thought) / took:.0%} of the loop"
        )
        mid = [t for t in hall.manager.tables.values() if t.status == PLAYING]
        gc.collect()
        live = (rss() - base) / (size - first)
        print(f"  RSS per table now ({len(mid)} mid-hand): {live / 1024:.1f} KiB")

        calls, took, lat = await hall.open_loop(tables, args.rate, args.seconds, seed=size)
        p99_open = percentile(lat, 0.99)
        print(
            f"  open loop at {args.rate:,.0f}/s offered: {calls / took:,.0f} actions/s served; "
            f"p50 {ms(percentile(lat, 0.5))}, p99 {ms(p99_open)}"
        )
        result = {
            "closed": closed,
            "p99_open": p99_open,
            "idle": idle,
            "per_hand": per_hand,
            "cpu": cpu_per_call,
        }

        if warmup:
            began, done_before, calls_before = time.perf_counter(), hall.hands, hall.calls
            await hall.closed_loop(tables, hands=warmup)
            took = time.perf_counter() - began
            print(
                f"  warm-up: {hall.hands - done_before} more hands, "
                f"{hall.calls - calls_before} host calls in {took:.1f} s "
                f"= {(hall.calls - calls_before) / took:,.0f} actions/s"
            )
            before_bytes, before_hands = hall.db_bytes(), hall.hands
            cpu, all_calls = time.process_time(), hall.calls
            calls, took, lat = await hall.closed_loop(tables, seconds=args.seconds)
            cpu_after = (time.process_time() - cpu) / (hall.calls - all_calls)
            hands = hall.hands - before_hands
            after = calls / took
            gc.collect()
            print(
                f"  after warm-up, closed loop: {after:,.0f} actions/s "
                f"({after / closed:.2f}x the first run; CPU {cpu_after * 1e6:.0f} µs per call, "
                f"{cpu_per_call / cpu_after:.2f}x); p50 {ms(percentile(lat, 0.5))}, "
                f"p99 {ms(percentile(lat, 0.99))}; "
                f"{(hall.db_bytes() - before_bytes) / max(1, hands):,.0f} DB bytes per hand; "
                f"RSS per table {(rss() - base) / (size - first) / 1024:.1f} KiB"
            )
            calls, took, lat = await hall.open_loop(tables, args.rate, args.seconds, seed=7)
            print(
                f"  after warm-up, open loop at {args.rate:,.0f}/s: p50 "
                f"{ms(percentile(lat, 0.5))}, p99 {ms(percentile(lat, 0.99))}"
            )
            result["flat"] = after / closed
            result["flat_cpu"] = cpu_per_call / cpu_after
        await hall.close()
        return result


def one_size(size: int, args: argparse.Namespace, warmup: int) -> dict[str, float]:
    """Measure ``size`` tables in a fresh process, so memory and warm caches of one size do
    not flatter the next; its lines are printed as they come."""
    command = [
        sys.executable,
        __file__,
        "--one",
        str(size),
        "--seconds",
        str(args.seconds),
        "--rate",
        str(args.rate),
        "--warmup",
        str(warmup),
        "--collector",
        args.collector,
    ]
    result: dict[str, float] = {}
    with subprocess.Popen(command, stdout=subprocess.PIPE, text=True) as child:
        assert child.stdout is not None
        for line in child.stdout:
            if line.startswith("RESULT "):
                result = json.loads(line[len("RESULT ") :])
            else:
                print(line, end="", flush=True)
    if child.returncode:
        raise SystemExit(f"the run with {size} tables failed ({child.returncode})")
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, nargs="+", default=None)
    parser.add_argument("--seconds", type=float, default=None, help="per measurement")
    parser.add_argument("--rate", type=float, default=2000.0, help="open-loop actions/s")
    parser.add_argument("--warmup", type=int, default=None, help="hands before re-measuring")
    parser.add_argument("--full", action="store_true", help="100, 1,000, 5,000 tables; 10,000")
    parser.add_argument(
        "--collector",
        choices=("tuned", "plain"),
        default="tuned",
        help="tuned: bot.host.memory.tune_collector after seating (as the bot does); "
        "plain: CPython's default thresholds",
    )
    parser.add_argument("--one", type=int, default=None, help=argparse.SUPPRESS)
    args = parser.parse_args()
    args.seconds = args.seconds or (8.0 if args.full else 4.0)
    if args.one is not None:
        result = asyncio.run(measure(args.one, args, args.warmup or 0))
        print("RESULT " + json.dumps(result), flush=True)
        return
    sizes = args.tables or ([100, 1000, 5000] if args.full else [100, 1000])
    warmup = args.warmup if args.warmup is not None else (10_000 if args.full else 2_000)
    print(
        f"host benchmark: {GAME} in room {ROOM}, three people per table, "
        f"{args.seconds:g} s per measurement, one process per size, {args.collector} collector, "
        f"Python {sys.version.split()[0]}, load average {os.getloadavg()[0]:.1f}",
        flush=True,
    )
    middle = 1000 if 1000 in sizes else sizes[len(sizes) // 2]
    results = {size: one_size(size, args, warmup if size == middle else 0) for size in sizes}
    headline = results[middle]
    print(f"\nload average at the end {os.getloadavg()[0]:.1f} (2 cores shared with others)")
    print(
        f"summary at {middle} tables: {headline['closed']:,.0f} actions/s (goal >= 5,000; "
        f"{1 / headline['cpu']:,.0f} per CPU-second), "
        f"open-loop p99 {ms(headline['p99_open'])} at {args.rate:,.0f}/s (goal <= 50 ms), "
        f"{headline['idle'] / 1024:.1f} KiB per idle table (goal <= 20)"
        + (
            f", after warm-up {headline['flat']:.2f}x the actions/s and "
            f"{headline['flat_cpu']:.2f}x the CPU speed per call (goal flat)"
            if "flat" in headline
            else ""
        )
    )
    print(f"host_actions_per_s_at_{middle}_tables: {headline['closed']:.0f} actions/s")


if __name__ == "__main__":
    main()
