"""Benchmark: one hall process on PostgreSQL against one on SQLite, and several on PostgreSQL.

Two workloads:

- **settlements/s**: each process owns its players and its server (guild), opens ``--hands``
  three-seat hands with escrow (untimed), then settles them from ``--tables`` concurrent
  tables; all settle in the one global economy, so every settlement pays rake to the same
  house (on PostgreSQL: a ledgered rake spread over counter rows, no single hot row).
- **host actions/s**: each process runs the real ``TableManager`` (as ``benchmarks/host.py``
  does: 斗地主, escrow, persistence after every action, settlement) over ``--host-tables``
  tables in servers no other process owns, closed loop for ``--seconds``.

**One process, PostgreSQL against SQLite**: ``--rounds`` rounds, each running both workloads
on a fresh SQLite file and on a fresh PostgreSQL database, one after the other, the order
alternating from round to round (SQLite first in odd rounds), every run in a new process
(cold: no statement prepared, no connection open, the host's warm-up hand aside). Each round
gives a ratio PostgreSQL / SQLite per workload; printed are every round's figures and the
**median of the rounds' ratios**, since a shared machine moves both backends' own rates from
one round to the next. Besides the rates (wall time), each run's CPU time: the process's own
(``time.process_time``) and, on PostgreSQL, the server's (its processes' user + system time,
via psutil), so the CPU-time cost per operation can be compared where the wall time is noisy.

**Several processes**: then each of ``--processes`` (beyond 1) runs once on PostgreSQL
(``multiprocessing``, each with its own event loop and pool, started together at a barrier),
printed with its scaling against one process. The machine's cores bound it: every process and
the PostgreSQL server share them. The PostgreSQL server is started by ``pgserver`` in a
temporary folder unless ``--pg URL`` names one (its database is used as is: give an empty
one). The last line is ``scale: N settlements/s on PostgreSQL, one process (x.xx× SQLite,
median of R rounds; host actions y.yy×)``.

    python benchmarks/scale.py [--rounds 3] [--processes 1 2 4] [--hands 1500] [--tables 16]
                               [--host-tables 60] [--seconds 4] [--pg URL]
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing as mp
import os
import random
import statistics
import sys
import tempfile
import threading
import time
import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

PLAYERS = 300  # per process
STAKE = 20_000
SPAN = 1_000_000  # ids per process: players, tables and servers never overlap


# --- settlements ------------------------------------------------------------------------------


async def _settle(index: int, target: str, args: argparse.Namespace, barrier: Any) -> tuple:
    from storage.db import open_database
    from storage.wallet import SeatResult, Wallet

    pg = target.startswith("postgresql")
    db = await open_database(target, **({"max_size": args.pool, "min_size": 2} if pg else {}))
    wallet = Wallet(
        db, starting_grant=10**9, relief_amount=0, relief_threshold=0, relief_cooldown_s=0
    )
    rng = random.Random(index)
    base = (index + 1) * SPAN
    players = [base + i for i in range(1, PLAYERS + 1)]
    for uid in players:
        await wallet.ensure_player(uid)
    opened: dict[int, tuple[int, list[int]]] = {}

    async def opener(first: int) -> None:
        for k in range(first, args.hands, 8):
            # one seat per person, as in the hall: the k-th hand is table (k % tables)'s, and
            # each table has its own three players (--shared-players: any three of the 300,
            # so hands settling at once share players)
            t = k % args.tables
            seats = rng.sample(players, 3) if args.shared_players else players[3 * t : 3 * t + 3]
            hand = await wallet.new_hand("bench", "room", base, base + 1, seats=seats)
            await wallet.hold(hand, [(uid, STAKE) for uid in seats])
            opened[k] = (hand, seats)

    await asyncio.gather(*(opener(i) for i in range(8)))
    hands = [opened[k] for k in range(args.hands)]  # hands[t :: tables]: table t's

    async def table(chunk: list[tuple[int, list[int]]]) -> None:
        for hand, seats in chunk:
            x = rng.choice((1, 2, 4, 8))
            points = [2 * x, -x, -x] if rng.random() < 0.5 else [-2 * x, x, x]
            results = [SeatResult(u, p, 1 if p > 0 else -1) for u, p in zip(seats, points)]
            await wallet.settle(hand, "bench", results, 1000, 50, record='{"log":[]}')

    await asyncio.to_thread(barrier.wait)
    began, cpu = time.perf_counter(), time.process_time()
    await asyncio.gather(*(table(hands[i :: args.tables]) for i in range(args.tables)))
    elapsed, cpu = time.perf_counter() - began, time.process_time() - cpu
    await asyncio.to_thread(barrier.wait)  # the others are done too: now check, untimed
    totals = await wallet.totals()
    assert totals.ledger == totals.players + totals.house, totals
    await db.close()
    return len(hands), elapsed, cpu


# --- host actions -----------------------------------------------------------------------------


async def _host(index: int, target: str, args: argparse.Namespace, barrier: Any) -> tuple:
    from host import GAME, ROOM, Hall

    pg = target.startswith("postgresql")
    hall = await Hall.open(target, index, **({"max_size": args.pool, "min_size": 2} if pg else {}))
    manager, db = hall.manager, hall.db
    base = (index + 1) * SPAN
    guild = base  # this process's server: no other process has its tables
    table_ids = [base + 1 + i for i in range(args.host_tables)]

    async def seat(i: int) -> None:
        uid = base + 3 * i + 1
        await manager.create(guild, table_ids[i], GAME, ROOM, uid, f"p{uid}")
        await manager.join(table_ids[i], uid + 1, f"p{uid + 1}")
        await manager.join(table_ids[i], uid + 2, f"p{uid + 2}")

    await asyncio.gather(*(seat(i) for i in range(args.host_tables)))
    await hall.closed_loop(table_ids, seconds=1.0)  # warm up: hands under way everywhere
    await asyncio.to_thread(barrier.wait)
    cpu = time.process_time()
    calls, window, _ = await hall.closed_loop(table_ids, seconds=args.seconds)
    cpu = time.process_time() - cpu
    await asyncio.to_thread(barrier.wait)
    await manager.shutdown()
    await db.close()
    return calls, window, cpu


# --- driver -----------------------------------------------------------------------------------


def _worker(kind: str, index: int, target: str, args: argparse.Namespace, barrier: Any,
            out: Any) -> None:
    run = _settle if kind == "settle" else _host
    try:
        out.put((index, asyncio.run(run(index, target, args, barrier))))
    except BaseException as exc:  # reported by the parent
        barrier.abort()
        out.put((index, repr(exc)))


@dataclass
class Run:
    """One measured run: operations per second, and CPU seconds per operation."""

    rate: float
    client_cpu: float  # the bot processes' own, per operation
    server_cpu: float  # the PostgreSQL server's processes', per operation (0 on SQLite)

    @property
    def cpu(self) -> float:
        return self.client_cpu + self.server_cpu


class ServerCpu:
    """CPU seconds of the PostgreSQL server's processes from ``start`` to ``stop``: each
    process's user + system time, sampled every 20 ms by a thread (a backend that ends in
    between keeps its last sample: at most 20 ms of it is missed). Two readings of the live
    processes plus the postmaster's count of its ended children gave negative windows here."""

    def __init__(self, pid: int | None) -> None:
        self.pid = pid
        self._first: dict[int, float] = {}
        self._last: dict[int, float] = {}
        self._done = threading.Event()
        self._thread: threading.Thread | None = None

    def _sample(self) -> dict[int, float]:
        import psutil

        main = psutil.Process(self.pid)
        out = {}
        for proc in (main, *main.children(recursive=True)):
            try:
                times = proc.cpu_times()
            except psutil.NoSuchProcess:  # a backend that just ended
                continue
            out[proc.pid] = times.user + times.system
        return out

    def start(self) -> None:
        if self.pid is None:
            return
        self._first = self._sample()

        def run() -> None:
            while not self._done.wait(0.02):
                self._last.update(self._sample())

        self._thread = threading.Thread(target=run, daemon=True)
        self._thread.start()

    def stop(self) -> float:
        if self._thread is None:
            return 0.0
        self._done.set()
        self._thread.join()
        self._last.update(self._sample())
        return sum(cpu - self._first.get(pid, 0.0) for pid, cpu in self._last.items())


def measure(kind: str, target: str, processes: int, args: argparse.Namespace,
            server_pid: int | None = None) -> Run:
    """Total rate (per second) of ``processes`` processes running ``kind`` against
    ``target``, with the CPU time per operation (``server_pid``: the PostgreSQL server's)."""
    ctx = mp.get_context("spawn")
    # this process waits at the workers' barriers too: the server's CPU is read as the
    # timed window opens and closes
    barrier, out = ctx.Barrier(processes + 1), ctx.Queue()
    workers = [
        ctx.Process(target=_worker, args=(kind, i, target, args, barrier, out))
        for i in range(processes)
    ]
    for w in workers:
        w.start()
    server, sampler = 0.0, ServerCpu(server_pid)
    try:
        barrier.wait(timeout=900)
        sampler.start()
        barrier.wait(timeout=900)
    except threading.BrokenBarrierError:  # a worker failed: its error is in the queue
        pass
    finally:
        server = sampler.stop()
    results = [out.get(timeout=900) for _ in workers]
    for w in workers:
        w.join()
    failed = [r for _, r in results if isinstance(r, str)]
    if failed:
        raise SystemExit(f"scale: a {kind} process failed: {failed[0]}")
    done = sum(n for _, (n, _, _) in results)
    slowest = max(elapsed for _, (_, elapsed, _) in results)
    client = sum(cpu for _, (_, _, cpu) in results)
    return Run(done / slowest, client / done, server / done)


async def _fresh(admin_url: str, name: str) -> str:
    import asyncpg

    conn = await asyncpg.connect(admin_url)
    try:
        await conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        await conn.execute(f'CREATE DATABASE "{name}"')
    finally:
        await conn.close()
    return admin_url.replace("/postgres?", f"/{name}?", 1)


UNITS = {"settle": "settlements", "host": "actions"}


def _settings(url: str, args: argparse.Namespace) -> str:
    """``url`` with the ``--pg-setting`` settings as query parameters (asyncpg passes those
    to the server as session settings)."""
    for setting in args.pg_setting:
        url += ("&" if "?" in url else "?") + setting
    return url


def interleaved(admin: str, tmp: Path, args: argparse.Namespace, pid: int | None,
                ) -> dict[str, list[tuple[Run, Run]]]:
    """``--rounds`` rounds of (SQLite, PostgreSQL) runs of each workload, one process, the
    order alternating; every round's pair, printed as it comes."""
    pairs: dict[str, list[tuple[Run, Run]]] = {kind: [] for kind in UNITS}
    for r in range(args.rounds):
        for kind, unit in UNITS.items():
            runs: dict[str, Run] = {}
            order = ("sqlite", "pg") if r % 2 == 0 else ("pg", "sqlite")
            for backend in order:
                if backend == "sqlite":
                    runs[backend] = measure(kind, str(tmp / f"{kind}-{r}.db"), 1, args)
                else:
                    url = _settings(asyncio.run(_fresh(admin, f"scale_{kind}_r{r}")), args)
                    runs[backend] = measure(kind, url, 1, args, pid)
            lite, pg = runs["sqlite"], runs["pg"]
            pairs[kind].append((lite, pg))
            print(f"round {r + 1} {kind:6} ({' then '.join(order)}): SQLite {lite.rate:6.0f} "
                  f"{unit}/s, {1e6 * lite.cpu:5.0f} µs CPU each; PostgreSQL {pg.rate:6.0f}/s, "
                  f"{1e6 * pg.client_cpu:5.0f} µs client + {1e6 * pg.server_cpu:5.0f} µs server"
                  f" CPU each: ×{pg.rate / lite.rate:.2f}", flush=True)
    return pairs


def summarize(kind: str, pairs: list[tuple[Run, Run]]) -> float:
    """Print the medians of ``kind``'s rounds; the median ratio of the rates."""
    unit = UNITS[kind]
    ratio = statistics.median(pg.rate / lite.rate for lite, pg in pairs)
    cpu_ratio = statistics.median(lite.cpu / pg.cpu for lite, pg in pairs)
    lite_rate = statistics.median(lite.rate for lite, _ in pairs)
    pg_rate = statistics.median(pg.rate for _, pg in pairs)
    print(f"{kind}, one process, median of {len(pairs)} rounds: SQLite {lite_rate:.0f} {unit}/s,"
          f" PostgreSQL {pg_rate:.0f}/s; median ratio of the rates ×{ratio:.2f} (each round: "
          + ", ".join(f"{pg.rate / lite.rate:.2f}" for lite, pg in pairs) + ")")
    print(f"{kind}, CPU per {unit[:-1]}: SQLite "
          f"{1e6 * statistics.median(lite.cpu for lite, _ in pairs):.0f} µs; PostgreSQL "
          f"{1e6 * statistics.median(pg.client_cpu for _, pg in pairs):.0f} µs client + "
          f"{1e6 * statistics.median(pg.server_cpu for _, pg in pairs):.0f} µs server; "
          f"median ratio SQLite/PostgreSQL CPU ×{cpu_ratio:.2f}")
    return ratio


def scaling(kind: str, admin: str, one: float, args: argparse.Namespace) -> None:
    """Each ``--processes`` count above 1, once, against one process's median rate."""
    previous, stop = one, None
    for n in sorted(p for p in args.processes if p > 1):
        url = _settings(asyncio.run(_fresh(admin, f"scale_{kind}_{n}")), args)
        rate = measure(kind, url, n, args).rate
        print(f"{kind}, PostgreSQL, {n} processes: {rate:9.0f} {UNITS[kind]}/s  "
              f"(×{rate / one:.2f} one process)", flush=True)
        if stop is None and rate < previous * 1.10:
            stop = n
        previous = rate
    if stop is not None:
        print(f"{kind}: scaling stops at {stop} processes: that step adds < 10 % "
              f"({os.cpu_count()} cores shared by the processes and the server)")


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3, help="interleaved one-process rounds")
    parser.add_argument("--processes", type=int, nargs="+", default=[1, 2, 4])
    parser.add_argument("--hands", type=int, default=1500, help="hands settled per process")
    parser.add_argument("--tables", type=int, default=16, help="tables settling per process")
    parser.add_argument("--host-tables", type=int, default=60, help="host tables per process")
    parser.add_argument("--seconds", type=float, default=4.0, help="host closed-loop window")
    parser.add_argument("--pool", type=int, default=10, help="connections per process")
    parser.add_argument("--shared-players", action="store_true",
                        help="draw each hand's players from 300 (hands settling at once then "
                             "share players, which the hall's one-seat rule forbids)")
    parser.add_argument("--pg", default=None, help="an admin URL of a PostgreSQL server to use")
    parser.add_argument("--pg-setting", action="append", default=[], metavar="NAME=VALUE",
                        help="a server setting for the hall's sessions, in its URL as a "
                             "deployer would write it (e.g. synchronous_commit=off)")
    args = parser.parse_args()
    server, pid = None, None
    if args.pg is None:
        import pgserver

        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            server = pgserver.get_server(tempfile.mkdtemp(prefix="scale-pg-"), cleanup_mode="delete")
        admin, pid = server.get_uri("postgres"), server.get_pid()
    else:
        admin = args.pg
    try:
        with tempfile.TemporaryDirectory() as tmp:
            print(f"machine: {os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}; "
                  f"PostgreSQL: {'pgserver (local socket)' if server else 'given'}, "
                  f"{', '.join(args.pg_setting) or 'default settings (synchronous_commit on)'}"
                  "; SQLite: WAL, normal", flush=True)
            pairs = interleaved(admin, Path(tmp), args, pid)
            ratios = {kind: summarize(kind, pairs[kind]) for kind in UNITS}
            for kind in UNITS:
                scaling(kind, admin, statistics.median(pg.rate for _, pg in pairs[kind]), args)
            print(f"machine load average after: {os.getloadavg()[0]:.1f}")
            settle = statistics.median(pg.rate for _, pg in pairs["settle"])
            print(f"scale: {settle:.0f} settlements/s on PostgreSQL, one process "
                  f"({ratios['settle']:.2f}× SQLite, median of {args.rounds} rounds; host "
                  f"actions {ratios['host']:.2f}×)")
    finally:
        if server is not None:
            server.cleanup()


if __name__ == "__main__":
    main()
