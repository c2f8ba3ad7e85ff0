"""Benchmark: the server's CPU per settlement, one version of the schema against another.

On a shared machine the server's CPU per settlement moves by ±20 % from one run to the next,
more than most changes to ``gamehall_settle`` or the ``hands`` table make, so two databases
measured one after the other cannot tell them apart. This benchmark measures both versions in
ONE database, on one server, in interleaved batches (ABBA ABBA …): every batch settles its own
hands from ``--tables`` tables at once (each table its own three players, as in the hall) and
is timed by the server processes' CPU (``/proc/<pid>/schedstat``, nanoseconds); the result is
the median of the pairs' ratios.

- **old**: ``gamehall_settle`` as a migration file defines it (``--old``, by default 0007's),
  created under another name and called instead (the Python side is the same), on hands
  inserted with the table's fillfactor set to ``--old-fillfactor``;
- **new**: the function and the ``hands`` fillfactor the current migrations give.

Settling runs with the new fillfactor in force, so a row that the old pages' full pages push
elsewhere (a non-HOT update) does not take the room the new pages keep for their own rows.
``--function-only`` / ``--fillfactor-only`` compare one of the two. The server is Debian's
PostgreSQL with ``pg_stat_statements`` when installed, as ``pg_cost.py`` starts it.
Ends with ``pg_settle_ab: new/old server CPU per settlement x.xxx (median of N pairs)``.

    python benchmarks/pg_settle_ab.py [--pairs 30] [--size 300] [--old PATH]
                                      [--old-fillfactor 100] [--function-only|--fillfactor-only]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import re
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import asyncpg
import psutil
from pg_cost import Server, fresh_database, settle_hands, start_server

import storage.settling as settling
from storage.db import open_database
from storage.wallet import Wallet

MIGRATIONS = Path(__file__).resolve().parents[1] / "storage" / "migrations" / "postgresql"
_FUNCTION = re.compile(r"CREATE (?:OR REPLACE )?FUNCTION gamehall_settle\(.*?\n\$\$;\n", re.S)


def server_ns(server: Server) -> int:
    """CPU nanoseconds the server's processes alive now have run."""
    main = psutil.Process(server.pid)
    total = 0
    for proc in (main, *main.children(recursive=True)):
        try:
            total += int(Path(f"/proc/{proc.pid}/schedstat").read_text().split()[0])
        except (OSError, psutil.NoSuchProcess):  # a backend that just ended
            continue
    return total


def renamed(sql: str, name: str) -> str:
    """The last ``gamehall_settle`` definition in ``sql``, as function ``name``."""
    found = _FUNCTION.findall(sql)
    if not found:
        raise SystemExit("no CREATE FUNCTION gamehall_settle( … $$; in the old migration")
    return found[-1].replace("FUNCTION gamehall_settle(", f"FUNCTION {name}(", 1)


async def main_async(args: argparse.Namespace) -> None:
    server = start_server()
    try:
        url = await fresh_database(server, "pg_settle_ab")
        db = await open_database(url)
        await db.close()
        admin = await asyncpg.connect(url)
        await admin.execute(renamed(args.old.read_text("utf-8"), "gamehall_settle_old"))
        options = await admin.fetchval(
            "SELECT reloptions FROM pg_class WHERE relname = 'hands'") or []
        new_fill = next((int(o.split("=")[1]) for o in options if o.startswith("fillfactor=")),
                        100)
        db = await open_database(url, max_size=args.pool, min_size=2)
        wallet = Wallet(db, starting_grant=10**9, relief_amount=0, relief_threshold=0,
                        relief_cooldown_s=0)
        groups = [[3 * t + 1, 3 * t + 2, 3 * t + 3] for t in range(args.tables)]
        for uid in (uid for group in groups for uid in group):
            await wallet.ensure_player(uid)
        batches: list[tuple[str, list[tuple[int, list[int]]]]] = []
        for b in range(2 * args.pairs):
            version = ("old", "new")[(b + b // 2) % 2]  # ABBA ABBA …
            old_pages = version == "old" and not args.function_only
            await admin.execute("ALTER TABLE hands SET (fillfactor = "
                                f"{args.old_fillfactor if old_pages else new_fill})")
            hands = []
            for n in range(args.size):
                seats = groups[n % args.tables]
                hand = await wallet.new_hand("bench", "room", 1, 2, seats=seats)
                await wallet.hold(hand, [(uid, 20_000) for uid in seats])
                hands.append((hand, seats))
            batches.append((version, hands))
        await admin.execute(f"ALTER TABLE hands SET (fillfactor = {new_fill})")

        rng = random.Random(1)
        cpu: dict[str, list[float]] = {"old": [], "new": []}

        async def table(chunk: list[tuple[int, list[int]]]) -> None:
            await settle_hands(wallet, chunk, rng)

        write = settling._WRITE_PG
        for version, hands in batches:
            old_function = version == "old" and not args.fillfactor_only
            settling._WRITE_PG = write.replace("gamehall_settle(", "gamehall_settle_old(", 1) \
                if old_function else write
            warm, timed = hands[:32], hands[32:]  # every connection's plans made, untimed
            await asyncio.gather(*(table(warm[i :: args.tables]) for i in range(args.tables)))
            start = server_ns(server)
            await asyncio.gather(*(table(timed[i :: args.tables]) for i in range(args.tables)))
            cpu[version].append((server_ns(server) - start) / 1000 / len(timed))
        settling._WRITE_PG = write
        totals = await wallet.totals()
        assert totals.ledger == totals.players + totals.house, totals
        await db.close()
        hot = await admin.fetchrow(
            "SELECT n_tup_upd, n_tup_hot_upd FROM pg_stat_user_tables WHERE relname = 'hands'")
        await admin.close()
    finally:
        server.stop()
    ratios = [new / old for old, new in zip(cpu["old"], cpu["new"], strict=True)]
    below = sum(r < 1 for r in ratios)
    print(f"server CPU per settlement: old {statistics.median(cpu['old']):.0f} µs, new "
          f"{statistics.median(cpu['new']):.0f} µs (medians of {args.pairs} batches each of "
          f"{args.size - 32} timed); new below old in {below} of {len(ratios)} pairs")
    print(f"hands: {hot[1]} of {hot[0]} settlements were HOT updates (old fillfactor "
          f"{args.old_fillfactor}, new {new_fill})")
    print(f"pg_settle_ab: new/old server CPU per settlement {statistics.median(ratios):.3f} "
          f"(median of {len(ratios)} pairs)")


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--pairs", type=int, default=30, help="batches of each version")
    parser.add_argument("--size", type=int, default=300, help="hands per batch (32 untimed)")
    parser.add_argument("--tables", type=int, default=16, help="tables settling at once")
    parser.add_argument("--pool", type=int, default=10, help="connections in the pool")
    parser.add_argument("--old", type=Path,
                        default=MIGRATIONS / "0007_rake_counter_by_session.sql",
                        help="the migration whose gamehall_settle is the old version")
    parser.add_argument("--old-fillfactor", type=int, default=100,
                        help="the hands table's fillfactor of the old version")
    only = parser.add_mutually_exclusive_group()
    only.add_argument("--function-only", action="store_true",
                      help="compare the functions only (the new fillfactor for both)")
    only.add_argument("--fillfactor-only", action="store_true",
                      help="compare the fillfactors only (the new function for both)")
    asyncio.run(main_async(parser.parse_args()))


if __name__ == "__main__":
    main()
