"""/mod economy's query (``storage.economy.supply``) on a ledger of one million rows.

A real database file is filled directly with ``--rows`` ledger rows of one server's economy
(``--players`` players; starting grants, relief, moderator grants and revokes, and hands'
pay/receive/rake rows, all spread over the last ``--days`` days, so every row falls inside the
report's 30-day window: the worst case), plus a second economy of the same size that the
report must not read. Then the report is timed: supply, top-1% share and Gini over every
balance, the week's movements by source, 30 days of supply. The machine is shared: the figure
is the best of ``--rounds`` runs. The report's supply is checked against the ledger's sum.

Usage: python benchmarks/economy.py [--rows 1000000] [--players 20000] [--rounds 5]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sqlite3
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from storage import economy
from storage.db import Database

ECONOMY, OTHER = 77, 78
NOW = 1_800_000_000.0


def fill(path: Path, economy_id: int, rows: int, players: int, days: int, seed: int) -> None:
    """``rows`` ledger rows for ``players`` players whose balances match the ledger."""
    rng = random.Random(seed)
    balance = [0] * (players + 1)
    batch: list[tuple[int, int, int, str, float, int]] = []
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA synchronous = OFF")
    conn.execute("BEGIN")
    start = NOW - days * 86400.0

    def row(uid: int, delta: int, reason: str, at: float) -> None:
        balance[uid] += delta
        batch.append((uid, delta, balance[uid], reason, at, economy_id))

    for uid in range(1, players + 1):
        row(uid, 10_000, "grant:start", start)
    while len(batch) < rows:
        at = start + (len(batch) / rows) * days * 86400.0
        kind = rng.random()
        if kind < 0.9:  # a hand settled pair by pair: rake from both, one pays the other
            a, b = rng.sample(range(1, players + 1), 2)
            stake = min(balance[a] - 5, rng.randint(1, 500))
            if stake <= 0:
                continue
            row(a, -5, "hand:rake", at)
            row(b, -5, "hand:rake", at) if balance[b] >= 5 else None
            row(a, -stake, "hand:pay", at)
            row(b, stake, "hand:receive", at)
            row(0, 10, "rake", at)
        elif kind < 0.97:
            row(rng.randint(1, players), 2000, "relief", at)
        elif kind < 0.99:
            row(rng.randint(1, players), rng.randint(1, 10**6), "grant:mod", at)
        else:
            uid = rng.randint(1, players)
            if balance[uid] > 100:
                row(uid, -100, "revoke:mod", at)
    conn.executemany(
        "INSERT INTO players (id, economy, balance, created_at) VALUES (?, ?, ?, ?)",
        [(uid, economy_id, max(balance[uid], 0), start) for uid in range(players + 1)],
    )
    conn.executemany(
        "INSERT INTO ledger (uid, delta, balance_after, reason, at, economy) "
        "VALUES (?, ?, ?, ?, ?, ?)",
        batch,
    )
    conn.execute("COMMIT")
    conn.close()


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--players", type=int, default=20_000)
    parser.add_argument("--days", type=int, default=30)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "hall.db"
        await (await Database.open(path)).close()  # the schema, migrated
        began = time.perf_counter()
        fill(path, ECONOMY, args.rows, args.players, args.days, 1)
        fill(path, OTHER, args.rows, args.players, args.days, 2)
        print(f"filled {2 * args.rows} ledger rows (two economies) "
              f"in {time.perf_counter() - began:.1f} s")
        db = await Database.open(path)
        try:
            best = float("inf")
            for _ in range(args.rounds):
                began = time.perf_counter()
                report = await economy.supply(db, NOW, economy=ECONOMY, days=30)
                best = min(best, time.perf_counter() - began)
            with sqlite3.connect(path) as conn:
                counted = conn.execute(
                    "SELECT COUNT(*), SUM(CASE WHEN uid != 0 THEN delta END) FROM ledger "
                    "WHERE economy = ?",
                    (ECONOMY,),
                ).fetchone()
        finally:
            await db.close()
    assert report.supply == counted[1], "the report adds up to the ledger"
    print(f"ledger rows of the economy: {counted[0]:,} (and as many in another economy)")
    print(f"supply {report.supply:,} beans, {report.players:,} players, "
          f"top 1% {report.top1_share:.1%}, Gini {report.gini:.3f}")
    print(f"this week: entered {report.entered}, left {report.left}")
    print(f"/mod economy query, best of {args.rounds}: {best * 1000:.0f} ms")
    print(f"mod_economy: {best * 1000:.0f} ms")


if __name__ == "__main__":
    asyncio.run(main())
