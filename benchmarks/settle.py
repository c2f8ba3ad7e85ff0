"""Benchmark: settle three-seat hands into a file database, with the durability the hall ships.

Each hand is what the table host does: ``new_hand`` + ``hold`` (escrow of three seats) at the
start, ``settle`` at the end (F1 with rake, scores, history, holds released: one transaction).
Reported: settlements per second (the figure the issue asks for, final line), whole hands per
second, and the same under concurrency (many tables at once). After the run the invariants are
checked (Σ ledger == Σ balances + house, nothing left held).

    python benchmarks/settle.py [--hands 3000] [--synchronous normal|full] [--db PATH]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from storage.db import Database  # noqa: E402
from storage.wallet import SeatResult, Wallet  # noqa: E402

PLAYERS = 300
STAKE = 20_000


async def run(path: Path, hands: int, synchronous: str, concurrency: int) -> dict[str, float]:
    db = await Database.open(path, synchronous=synchronous)
    wallet = Wallet(
        db, starting_grant=10**9, relief_amount=0, relief_threshold=0, relief_cooldown_s=0
    )
    rng = random.Random(7)
    for uid in range(1, PLAYERS + 1):
        await wallet.ensure_player(uid)

    async def start() -> tuple[int, list[int]]:
        seats = rng.sample(range(1, PLAYERS + 1), 3)
        hand = await wallet.new_hand("bench", "room", 1, 2, seats=seats)
        await wallet.hold(hand, [(uid, STAKE) for uid in seats])
        return hand, seats

    async def finish(hand: int, seats: list[int]) -> None:
        x = rng.choice((1, 2, 4, 8))
        landlord_wins = rng.random() < 0.5
        points = [2 * x, -x, -x] if landlord_wins else [-2 * x, x, x]
        results = [
            SeatResult(uid, p, 1 if p > 0 else -1) for uid, p in zip(seats, points, strict=True)
        ]
        await wallet.settle(hand, "bench", results, 1000, 50, record='{"log":[]}', outcome="")

    figures: dict[str, float] = {}

    # 1. settle alone: hands are started first, then settled one after another
    started = [await start() for _ in range(hands)]
    t0, cpu0 = time.perf_counter(), time.process_time()
    for hand, seats in started:
        await finish(hand, seats)
    figures["settle"] = hands / (time.perf_counter() - t0)
    figures["settle_cpu_us"] = (time.process_time() - cpu0) / hands * 1e6

    # 1b. settle from `concurrency` tasks at once (hands started first)
    started = [await start() for _ in range(hands)]
    chunks = [started[i::concurrency] for i in range(concurrency)]

    async def settle_all(chunk: list[tuple[int, list[int]]]) -> None:
        for hand, seats in chunk:
            await finish(hand, seats)

    t0 = time.perf_counter()
    await asyncio.gather(*(settle_all(c) for c in chunks))
    figures["settle_concurrent"] = hands / (time.perf_counter() - t0)

    # 2. whole hands, sequentially: new_hand + hold + settle
    t0 = time.perf_counter()
    for _ in range(hands):
        await finish(*await start())
    figures["hand"] = hands / (time.perf_counter() - t0)

    # 3. whole hands from `concurrency` tables at once (tasks share the one connection)
    async def table(n: int) -> None:
        for _ in range(n):
            await finish(*await start())

    t0 = time.perf_counter()
    per = hands // concurrency
    await asyncio.gather(*(table(per) for _ in range(concurrency)))
    figures["concurrent"] = per * concurrency / (time.perf_counter() - t0)

    totals = await wallet.totals()
    assert totals.ledger == totals.players + totals.house, totals
    assert totals.held == totals.open_holds == 0, totals
    await db.close()
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=3000)
    parser.add_argument("--synchronous", default="normal", choices=("normal", "full"))
    parser.add_argument("--concurrency", type=int, default=20)
    parser.add_argument("--db", type=Path, default=None, help="database file (default: temp)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        path = args.db or Path(tmp) / "bench.db"
        figures = asyncio.run(run(path, args.hands, args.synchronous, args.concurrency))
    load = os.getloadavg()[0]
    print(f"database: WAL, synchronous={args.synchronous}, {args.hands} three-seat hands")
    print(f"machine: {os.cpu_count()} cores, load average {load:.2f} when done")
    print(
        f"settle only:             {figures['settle']:8.0f} hands/s"
        f"  ({figures['settle_cpu_us']:.0f} µs CPU each, all threads)"
    )
    print(f"  with {args.concurrency} tables at once: {figures['settle_concurrent']:8.0f} hands/s")
    print(f"new_hand + hold + settle: {figures['hand']:8.0f} hands/s")
    print(f"  with {args.concurrency} tables at once: {figures['concurrent']:8.0f} hands/s")
    print(f"settle: {figures['settle']:.0f} hands/s")


if __name__ == "__main__":
    main()
