"""The wallet's invariants under concurrency: thousands of random settlements, escrows, aborts,
grants, revokes, freezes and reliefs run at once (asyncio.gather over many tasks); afterwards
every bean is accounted for and no update was lost."""

from __future__ import annotations

import asyncio
import random
import sqlite3
from collections import Counter
from pathlib import Path

import pytest
from storage_support import Clock

from storage.db import Database
from storage.errors import WalletError
from storage.wallet import SeatResult, Wallet

PLAYERS = list(range(1, 81))
GRANT = 5_000


@pytest.mark.parametrize("seed", [1, 2])
async def test_random_concurrent_operations_keep_every_invariant(tmp_path: Path, seed: int) -> None:
    rng = random.Random(seed)
    clock = Clock()
    db = await Database.open(tmp_path / "inv.db")
    wallet = Wallet(
        db,
        starting_grant=GRANT,
        relief_amount=800,
        relief_threshold=1_000,
        relief_cooldown_s=50.0,
        clock=clock,
    )
    # What the callers saw succeed, per player: the test's own books, kept apart from the
    # database's, to prove no update was lost.
    books: Counter[int] = Counter()
    created: set[int] = set()
    counts: Counter[str] = Counter()

    async def ensure(uid: int) -> None:
        if await wallet.ensure_player(uid):
            created.add(uid)

    async def table_task() -> None:
        for _ in range(25):
            seats = rng.sample(PLAYERS, rng.choice((2, 3, 4)))
            humans = [u for u in seats if rng.random() < 0.85]
            for uid in humans:
                await ensure(uid)
            hand = await wallet.new_hand("g", "r", 1, 2)
            try:
                await wallet.hold(hand, [(u, rng.randrange(0, 1_200)) for u in humans])
            except WalletError:
                counts["hold refused"] += 1
                await wallet.release(hand)
                continue
            await asyncio.sleep(0)
            if rng.random() < 0.15:
                await wallet.release(hand)
                if rng.random() < 0.5:
                    await wallet.release(hand)
                counts["abort"] += 1
                continue
            points = [rng.randint(-20, 20) for _ in seats]
            results = [
                SeatResult(u if u in humans else None, p, p)
                for u, p in zip(seats, points, strict=True)
            ]
            n, a = rng.choice((0, 1, 10, 100, 1_000)), rng.choice((0, 5, 50))
            if n == 0:
                a = 0
            settles = [wallet.settle(hand, "g", results, n, a) for _ in range(rng.choice((1, 2)))]
            outcomes = await asyncio.gather(*settles)
            applied = [o for o in outcomes if not o.replayed]
            assert len(applied) == 1
            for seat in applied[0].seats:
                if seat.uid is not None:
                    books[seat.uid] += seat.delta
            counts["settle"] += 1

    async def moderator_task() -> None:
        for _ in range(60):
            uid = rng.choice(PLAYERS)
            await ensure(uid)
            kind = rng.random()
            try:
                if kind < 0.35:
                    amount = rng.randrange(1, 2_000)
                    await wallet.grant(uid, amount, "x", 9)
                    books[uid] += amount
                elif kind < 0.7:
                    amount = rng.randrange(1, 4_000)
                    await wallet.revoke(uid, amount, "x", 9)
                    books[uid] -= amount
                elif kind < 0.85:
                    await wallet.set_frozen(uid, rng.random() < 0.3, 9)
                else:
                    before = (await wallet.account(uid)).balance
                    clock.now += rng.random() * 10
                    after = await wallet.claim_relief(uid)
                    assert after >= 800
                    books[uid] += 800
                    counts["relief"] += 1
                    del before
            except WalletError:
                counts["refused"] += 1
            await asyncio.sleep(0)

    def holds_match(conn: sqlite3.Connection) -> None:
        """players.held == the sum of that player's holds in running hands, for everyone."""
        rows = conn.execute(
            "SELECT p.id, p.held, COALESCE(SUM(o.amount), 0) FROM players p "
            "LEFT JOIN holds o ON o.uid = p.id "
            "AND o.hand_id IN (SELECT id FROM hands WHERE status = 'running') GROUP BY p.id"
        ).fetchall()
        for uid, held, holds in rows:
            assert held == holds, (uid, held, holds)

    done = asyncio.Event()
    audits = Counter[str]()

    async def auditor() -> None:
        """Checks the invariants while everything else runs (each read is one snapshot)."""
        while not done.is_set():
            await db.read(holds_match)
            totals = await wallet.totals()
            assert totals.ledger == totals.players + totals.house
            assert totals.held == totals.open_holds
            audits["audit"] += 1
            await asyncio.sleep(0.005)

    async def workload() -> None:
        await asyncio.gather(
            *(table_task() for _ in range(40)), *(moderator_task() for _ in range(10))
        )
        done.set()

    try:
        await asyncio.gather(auditor(), workload())
        assert audits["audit"] > 10
    except BaseException:
        await db.close()
        raise
    assert counts["settle"] > 300 and counts["abort"] > 30 and counts["relief"] > 0, counts

    def check(conn: sqlite3.Connection) -> None:
        # no negative balance, nothing held after every hand ended
        assert conn.execute("SELECT MIN(balance) FROM players").fetchone()[0] >= 0
        assert (
            conn.execute("SELECT COUNT(*) FROM hands WHERE status = 'running'").fetchone()[0] == 0
        )
        holds_match(conn)
        assert conn.execute("SELECT SUM(held) FROM players").fetchone()[0] == 0
        # each player's ledger is a gapless chain ending at its balance
        for uid, balance in conn.execute("SELECT id, balance FROM players"):
            running = 0
            for delta, after in conn.execute(
                "SELECT delta, balance_after FROM ledger WHERE uid = ? ORDER BY id", (uid,)
            ):
                running += delta
                assert after == running >= 0
            assert running == balance
        # Σ ledger deltas == Σ player balances + house
        ledger = conn.execute("SELECT SUM(delta) FROM ledger").fetchone()[0]
        total = conn.execute("SELECT SUM(balance) FROM players").fetchone()[0]
        assert ledger == total
        # rake in the house ledger == rake in the hands' seats
        house = conn.execute("SELECT balance FROM players WHERE id = 0").fetchone()[0]
        seats = "FROM hands h, json_each(h.result) s WHERE h.status = 'settled'"
        rake = conn.execute(f"SELECT COALESCE(SUM(s.value ->> 'rake'), 0) {seats}").fetchone()[0]
        assert house == rake
        # each settled hand is zero-sum once the rake is counted
        for (bad,) in conn.execute(
            f"SELECT h.id {seats} GROUP BY h.id "
            "HAVING SUM(s.value ->> 'delta') + SUM(s.value ->> 'rake') != 0"
        ):
            raise AssertionError(f"hand {bad} is not zero-sum")

    try:
        await db.read(check)
        totals = await wallet.totals()
        assert totals.ledger == totals.players + totals.house and totals.held == 0
        for uid in PLAYERS:
            if uid in created:
                assert (await wallet.account(uid)).balance == GRANT + books[uid], uid
    finally:
        await db.close()
