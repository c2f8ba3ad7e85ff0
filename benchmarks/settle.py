"""Benchmark: settle three-seat hands into a file database, with the durability the hall ships.

Each hand is what the table host does: ``new_hand`` + ``hold`` (escrow of three seats) at the
start, ``settle`` at the end (F1 with rake, scores, history, holds released: one transaction).

The headline figure is settlement the way the hall produces it: many tables settling at the
same time (``--tables`` asyncio tasks, each settling its own hands one after another, all
sharing the one connection), so the database groups their transactions (group commit). It is
measured ``--rounds`` times on fresh hands; every round is printed and the final line is the
median. Also printed, clearly labelled: settlement by a single table (one hand after another,
so no grouping is possible) and whole hands (new_hand + hold + settle), alone and from many
tables. Afterwards the invariants are checked (Σ ledger == Σ balances + house, nothing held).

    python benchmarks/settle.py [--hands 3000] [--tables 32] [--rounds 3]
                                [--synchronous normal|full] [--db PATH]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from storage.db import Database  # noqa: E402
from storage.wallet import SeatResult, Wallet  # noqa: E402

PLAYERS = 300
STAKE = 20_000
Started = tuple[int, list[int]]


class Bench:
    """The hall's wallet over ``db`` with ``PLAYERS`` rich players and seeded randomness."""

    def __init__(self, db: Database) -> None:
        self.wallet = Wallet(
            db, starting_grant=10**9, relief_amount=0, relief_threshold=0, relief_cooldown_s=0
        )
        self.rng = random.Random(7)

    async def start(self) -> Started:
        seats = self.rng.sample(range(1, PLAYERS + 1), 3)
        hand = await self.wallet.new_hand("bench", "room", 1, 2, seats=seats)
        await self.wallet.hold(hand, [(uid, STAKE) for uid in seats])
        return hand, seats

    async def finish(self, hand: int, seats: list[int]) -> None:
        x = self.rng.choice((1, 2, 4, 8))
        landlord_wins = self.rng.random() < 0.5
        points = [2 * x, -x, -x] if landlord_wins else [-2 * x, x, x]
        results = [
            SeatResult(uid, p, 1 if p > 0 else -1) for uid, p in zip(seats, points, strict=True)
        ]
        await self.wallet.settle(hand, "bench", results, 1000, 50, record='{"log":[]}', outcome="")

    async def started(self, hands: int, tables: int) -> list[Started]:
        """``hands`` running hands with their holds (from ``tables`` tasks; not timed)."""
        out: list[Started] = []

        async def table(n: int) -> None:
            for _ in range(n):
                out.append(await self.start())

        await asyncio.gather(*(table(len(range(i, hands, tables))) for i in range(tables)))
        return out

    async def settle_tables(self, hands: list[Started], tables: int) -> tuple[float, float]:
        """Settle ``hands`` from ``tables`` concurrent tasks; (hands/s, µs of CPU per hand)."""

        async def table(chunk: list[Started]) -> None:
            for hand, seats in chunk:
                await self.finish(hand, seats)

        t0, cpu0 = time.perf_counter(), time.process_time()
        await asyncio.gather(*(table(hands[i::tables]) for i in range(tables)))
        wall, cpu = time.perf_counter() - t0, time.process_time() - cpu0
        return len(hands) / wall, cpu / len(hands) * 1e6

    async def whole_hands(self, hands: int, tables: int) -> float:
        """new_hand + hold + settle, ``hands`` in all from ``tables`` tasks; hands/s."""

        async def table(n: int) -> None:
            for _ in range(n):
                await self.finish(*await self.start())

        per = hands // tables
        t0 = time.perf_counter()
        await asyncio.gather(*(table(per) for _ in range(tables)))
        return per * tables / (time.perf_counter() - t0)


async def run(path: Path, args: argparse.Namespace) -> dict[str, object]:
    db = await Database.open(path, synchronous=args.synchronous)
    bench = Bench(db)
    for uid in range(1, PLAYERS + 1):
        await bench.wallet.ensure_player(uid)
    figures: dict[str, object] = {}

    # 1. the headline: settlement from many tables at once, several rounds on fresh hands
    rounds: list[tuple[float, float]] = []
    for _ in range(args.rounds):
        hands = await bench.started(args.hands, args.tables)
        rounds.append(await bench.settle_tables(hands, args.tables))
    figures["rounds"] = rounds

    # 2. one table: hands settled one after another (nothing to group)
    hands = await bench.started(args.hands, args.tables)
    figures["sequential"] = await bench.settle_tables(hands, 1)

    # 3. whole hands: new_hand + hold + settle, from one table and from many
    figures["hand"] = await bench.whole_hands(args.hands, 1)
    figures["hand_tables"] = await bench.whole_hands(args.hands, args.tables)

    totals = await bench.wallet.totals()
    assert totals.ledger == totals.players + totals.house, totals
    assert totals.held == totals.open_holds == 0, totals
    await db.close()
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--hands", type=int, default=3000, help="hands per measurement")
    parser.add_argument("--tables", type=int, default=32, help="tables settling at once")
    parser.add_argument("--rounds", type=int, default=3, help="rounds of the headline figure")
    parser.add_argument("--synchronous", default="normal", choices=("normal", "full"))
    parser.add_argument("--db", type=Path, default=None, help="database file (default: temp)")
    args = parser.parse_args()
    if args.hands < args.tables or args.tables < 1 or args.rounds < 1:
        parser.error("need hands >= tables >= 1 and rounds >= 1")
    with tempfile.TemporaryDirectory() as tmp:
        path = args.db or Path(tmp) / "bench.db"
        figures = asyncio.run(run(path, args))
    rounds: list[tuple[float, float]] = figures["rounds"]  # type: ignore[assignment]
    sequential: tuple[float, float] = figures["sequential"]  # type: ignore[assignment]
    load = os.getloadavg()[0]
    print(f"database: WAL, synchronous={args.synchronous}, {args.hands} three-seat hands a run")
    print(f"machine: {os.cpu_count()} cores, load average {load:.2f} when done")
    for i, (rate, cpu) in enumerate(rounds, start=1):
        print(
            f"settle, {args.tables} tables at once, run {i}: {rate:8.0f} hands/s"
            f"  ({cpu:.0f} µs CPU each, all threads)"
        )
    print(
        f"settle, one table (sequential):    {sequential[0]:8.0f} hands/s"
        f"  ({sequential[1]:.0f} µs CPU each, all threads)"
    )
    print(f"new_hand + hold + settle, one table: {figures['hand']:8.0f} hands/s")
    print(f"  the same, {args.tables} tables at once:    {figures['hand_tables']:8.0f} hands/s")
    median = statistics.median(rate for rate, _ in rounds)
    print(f"settle: {median:.0f} hands/s")


if __name__ == "__main__":
    main()
