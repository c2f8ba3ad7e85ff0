"""Benchmark: several hall processes on one PostgreSQL, against one process on SQLite.

Two workloads, each run by 1, 2 and 4 processes (``multiprocessing``, each with its own event
loop and its own connection pool, started together at a barrier) on one PostgreSQL server, and
by one process on a SQLite file (the embedded default) for comparison:

- **settlements/s**: each process owns its players and its server (guild), opens ``--hands``
  three-seat hands with escrow (untimed), then settles them from ``--tables`` concurrent
  tables; all settle in the one global economy, so every settlement pays rake to the same
  house (on PostgreSQL: a ledgered rake spread over counter rows, no single hot row).
- **host actions/s**: each process runs the real ``TableManager`` (as ``benchmarks/host.py``
  does: 斗地主, escrow, persistence after every action, settlement) over ``--host-tables``
  tables in servers no other process owns, closed loop for ``--seconds``.

Printed: each figure, its scaling factor against one process on PostgreSQL, where the scaling
stops (the first step that adds less than 10 %), and the ratio to SQLite. The machine's cores
bound it: every process and the PostgreSQL server share them. The PostgreSQL server is started
by ``pgserver`` in a temporary folder unless ``--pg URL`` names one (its database is used as
is: give an empty one). The last line is ``scale: N settlements/s at 4 processes (x.x× 1
process)``.

    python benchmarks/scale.py [--processes 1 2 4] [--hands 1500] [--tables 16]
                               [--host-tables 60] [--seconds 4] [--pg URL]
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing as mp
import os
import random
import sys
import tempfile
import time
import warnings
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
    hands: list[tuple[int, list[int]]] = []

    async def opener(n: int) -> None:
        for _ in range(n):
            seats = rng.sample(players, 3)
            hand = await wallet.new_hand("bench", "room", base, base + 1, seats=seats)
            await wallet.hold(hand, [(uid, STAKE) for uid in seats])
            hands.append((hand, seats))

    await asyncio.gather(*(opener(len(range(i, args.hands, 8))) for i in range(8)))

    async def table(chunk: list[tuple[int, list[int]]]) -> None:
        for hand, seats in chunk:
            x = rng.choice((1, 2, 4, 8))
            points = [2 * x, -x, -x] if rng.random() < 0.5 else [-2 * x, x, x]
            results = [SeatResult(u, p, 1 if p > 0 else -1) for u, p in zip(seats, points)]
            await wallet.settle(hand, "bench", results, 1000, 50, record='{"log":[]}')

    await asyncio.to_thread(barrier.wait)
    began = time.perf_counter()
    await asyncio.gather(*(table(hands[i :: args.tables]) for i in range(args.tables)))
    elapsed = time.perf_counter() - began
    await asyncio.to_thread(barrier.wait)  # the others are done too: now check, untimed
    totals = await wallet.totals()
    assert totals.ledger == totals.players + totals.house, totals
    await db.close()
    return len(hands), elapsed


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
    calls, window, _ = await hall.closed_loop(table_ids, seconds=args.seconds)
    await asyncio.to_thread(barrier.wait)
    await manager.shutdown()
    await db.close()
    return calls, window


# --- driver -----------------------------------------------------------------------------------


def _worker(kind: str, index: int, target: str, args: argparse.Namespace, barrier: Any,
            out: Any) -> None:
    run = _settle if kind == "settle" else _host
    try:
        out.put((index, asyncio.run(run(index, target, args, barrier))))
    except BaseException as exc:  # reported by the parent
        barrier.abort()
        out.put((index, repr(exc)))


def measure(kind: str, target: str, processes: int, args: argparse.Namespace) -> float:
    """Total rate (per second) of ``processes`` processes running ``kind`` against ``target``."""
    ctx = mp.get_context("spawn")
    barrier, out = ctx.Barrier(processes), ctx.Queue()
    workers = [
        ctx.Process(target=_worker, args=(kind, i, target, args, barrier, out))
        for i in range(processes)
    ]
    for w in workers:
        w.start()
    results = [out.get(timeout=900) for _ in workers]
    for w in workers:
        w.join()
    failed = [r for _, r in results if isinstance(r, str)]
    if failed:
        raise SystemExit(f"scale: a {kind} process failed: {failed[0]}")
    done = sum(n for _, (n, _) in results)
    slowest = max(elapsed for _, (_, elapsed) in results)
    return done / slowest


async def _fresh(admin_url: str, name: str) -> str:
    import asyncpg

    conn = await asyncpg.connect(admin_url)
    try:
        await conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        await conn.execute(f'CREATE DATABASE "{name}"')
    finally:
        await conn.close()
    return admin_url.replace("/postgres?", f"/{name}?", 1)


def report(name: str, unit: str, sqlite: float, pg: dict[int, float]) -> tuple[int, float]:
    one = pg[min(pg)]
    print(f"{name}, SQLite, 1 process:      {sqlite:9.0f} {unit}/s")
    stop = None
    previous = None
    for n, rate in sorted(pg.items()):
        print(f"{name}, PostgreSQL, {n} process{'es' if n > 1 else '  '}: {rate:9.0f} {unit}/s"
              f"  (×{rate / one:.2f} one process, ×{rate / sqlite:.2f} SQLite)")
        if previous is not None and stop is None and rate < previous * 1.10:
            stop = n
        previous = rate
    cores = os.cpu_count() or 1
    peak = max(pg, key=lambda n: pg[n])
    if stop is None:
        print(f"{name}: still scaling at {max(pg)} processes ({cores} cores)")
    else:
        print(f"{name}: scaling stops at {stop} processes: that step adds < 10 % (best: "
              f"{peak} process{'es' if peak > 1 else ''}, ×{pg[peak] / one:.2f}; {cores} cores "
              "shared by the processes and the server)")
    top = max(pg)
    return top, pg[top] / one


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--processes", type=int, nargs="+", default=[1, 2, 4])
    parser.add_argument("--hands", type=int, default=1500, help="hands settled per process")
    parser.add_argument("--tables", type=int, default=16, help="tables settling per process")
    parser.add_argument("--host-tables", type=int, default=60, help="host tables per process")
    parser.add_argument("--seconds", type=float, default=4.0, help="host closed-loop window")
    parser.add_argument("--pool", type=int, default=10, help="connections per process")
    parser.add_argument("--pg", default=None, help="an admin URL of a PostgreSQL server to use")
    args = parser.parse_args()
    server = None
    if args.pg is None:
        import pgserver

        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            server = pgserver.get_server(tempfile.mkdtemp(prefix="scale-pg-"), cleanup_mode="delete")
        admin = server.get_uri("postgres")
    else:
        admin = args.pg
    try:
        with tempfile.TemporaryDirectory() as tmp:
            print(f"machine: {os.cpu_count()} cores; PostgreSQL: "
                  f"{'pgserver (local socket)' if server else 'given'}; SQLite: WAL, normal")
            figures: dict[str, tuple[float, dict[int, float]]] = {}
            for kind in ("settle", "host"):
                sqlite = measure(kind, str(Path(tmp) / f"{kind}.db"), 1, args)
                pg: dict[int, float] = {}
                for n in args.processes:
                    url = asyncio.run(_fresh(admin, f"scale_{kind}_{n}"))
                    pg[n] = measure(kind, url, n, args)
                figures[kind] = (sqlite, pg)
            settle_top, settle_factor = report("settle", "settlements", *figures["settle"])
            report("host", "actions", *figures["host"])
            rate = figures["settle"][1][settle_top]
            print(f"scale: {rate:.0f} settlements/s at {settle_top} processes "
                  f"({settle_factor:.1f}× 1 process)")
    finally:
        if server is not None:
            server.cleanup()


if __name__ == "__main__":
    main()
