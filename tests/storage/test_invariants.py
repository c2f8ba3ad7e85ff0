"""The wallet's invariants under concurrency: thousands of random settlements (by the pot rule
and pair by pair), escrows, aborts, grants, revokes, freezes and reliefs run at once
(asyncio.gather over many tasks) in three economies sharing players; afterwards every bean is
accounted for in each economy and no update was lost."""

from __future__ import annotations

import asyncio
import json
import random
from collections import Counter
from typing import Any

import pytest
from storage_support import Clock

from storage.db import Storage
from storage.errors import WalletError
from storage.wallet import SeatResult, Wallet

PLAYERS = list(range(1, 81))
GRANT = 5_000
ECONOMIES = (0, 111, 222)


@pytest.mark.parametrize("seed", [1, 2])
async def test_random_concurrent_operations_keep_every_invariant(open_db: Any, seed: int) -> None:
    rng = random.Random(seed)
    clock = Clock()
    db: Storage = await open_db()
    root = Wallet(
        db,
        starting_grant=GRANT,
        relief_amount=800,
        relief_threshold=1_000,
        relief_cooldown_s=50.0,
        clock=clock,
    )
    wallets = {economy: root.scoped(economy) for economy in ECONOMIES}
    # What the callers saw succeed, per (economy, player): the test's own books, kept apart
    # from the database's, to prove no update was lost and nothing crossed economies.
    books: Counter[tuple[int, int]] = Counter()
    created: set[tuple[int, int]] = set()
    counts: Counter[str] = Counter()

    async def table_task() -> None:
        economy = rng.choice(ECONOMIES)
        wallet = wallets[economy]

        async def ensure(uid: int) -> None:
            if await wallet.ensure_player(uid):
                created.add((economy, uid))

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
            transfers: list[tuple[int, int, int]] = []
            if rng.random() < 0.4:  # pairwise payments
                for _ in range(rng.randrange(1, 6)):
                    payer, payee = rng.sample(range(len(seats)), 2)
                    transfers.append((payer, payee, rng.randint(1, 20)))
                points = [0] * len(seats)
                for payer, payee, x in transfers:
                    points[payer] -= x
                    points[payee] += x
            else:
                points = [rng.randint(-20, 20) for _ in seats]
            results = [
                SeatResult(u if u in humans else None, p, p)
                for u, p in zip(seats, points, strict=True)
            ]
            n, a = rng.choice((0, 1, 10, 100, 1_000)), rng.choice((0, 5, 50))
            if n == 0:
                a = 0
            settles = [
                wallet.settle(hand, "g", results, n, a, transfers=transfers)
                for _ in range(rng.choice((1, 2)))
            ]
            outcomes = await asyncio.gather(*settles)
            applied = [o for o in outcomes if not o.replayed]
            assert len(applied) == 1
            for seat in applied[0].seats:
                if seat.uid is not None:
                    books[economy, seat.uid] += seat.delta
            counts["transfers" if transfers else "settle"] += 1

    async def moderator_task() -> None:
        for _ in range(60):
            economy = rng.choice(ECONOMIES)
            wallet = wallets[economy]
            uid = rng.choice(PLAYERS)
            if await wallet.ensure_player(uid):
                created.add((economy, uid))
            kind = rng.random()
            try:
                if kind < 0.35:
                    amount = rng.randrange(1, 2_000)
                    await wallet.grant(uid, amount, "x", 9)
                    books[economy, uid] += amount
                elif kind < 0.7:
                    amount = rng.randrange(1, 4_000)
                    await wallet.revoke(uid, amount, "x", 9)
                    books[economy, uid] -= amount
                elif kind < 0.85:
                    await wallet.set_frozen(uid, rng.random() < 0.3, 9)
                else:
                    # bring the player below the relief threshold first (if nothing else
                    # moves their beans meanwhile), so that claims succeed as well as fail
                    account = await wallet.account(uid)
                    if account.balance >= 1_000 and account.held < 900:
                        amount = account.balance - 900
                        await wallet.revoke(uid, amount, "x", 9)
                        books[economy, uid] -= amount
                    clock.now += rng.random() * 10
                    after = await wallet.claim_relief(uid)
                    assert after >= 800
                    books[economy, uid] += 800
                    counts["relief"] += 1
            except WalletError:
                counts["refused"] += 1
            await asyncio.sleep(0)

    async def holds_match(conn: Any) -> None:
        """players.held == the sum of that player's holds in running hands, for everyone."""
        rows = (await conn.execute(
            "SELECT p.economy, p.id, p.held, COALESCE(SUM(o.amount), 0) FROM players p "
            "LEFT JOIN holds o ON o.uid = p.id AND o.economy = p.economy "
            "AND o.hand_id IN (SELECT id FROM hands WHERE status = 'running') "
            "GROUP BY p.economy, p.id"
        )).fetchall()
        for economy, uid, held, holds in rows:
            assert held == holds, (economy, uid, held, holds)

    done = asyncio.Event()
    audits = Counter[str]()

    async def auditor() -> None:
        """Checks the invariants while everything else runs (each read is one snapshot)."""
        while not done.is_set():
            await db.read(holds_match)
            for wallet in wallets.values():
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
    assert counts["settle"] > 150 and counts["transfers"] > 100, counts
    assert counts["abort"] > 30 and counts["relief"] > 0, counts

    async def one(conn: Any, sql: str, args: tuple[object, ...] = ()) -> Any:
        return (await conn.execute(sql, args)).fetchone()[0]

    async def check(conn: Any) -> None:
        # no negative balance, nothing held after every hand ended
        assert await one(conn, "SELECT MIN(balance) FROM players") >= 0
        assert await one(conn, "SELECT COUNT(*) FROM hands WHERE status = 'running'") == 0
        await holds_match(conn)
        assert await one(conn, "SELECT SUM(held) FROM players") == 0
        # each player's ledger is a gapless chain ending at its balance, in each economy (the
        # house's on SQLite; on PostgreSQL its rows carry no balance: checked by its sum below)
        players = (await conn.execute("SELECT economy, id, balance FROM players")).fetchall()
        for economy, uid, balance in players:
            if uid == 0 and conn.dialect == "postgresql":
                continue
            running = 0
            for delta, after in await conn.execute(
                "SELECT delta, balance_after FROM ledger WHERE economy = ? AND uid = ? ORDER BY id",
                (economy, uid),
            ):
                running += delta
                assert after == running >= 0
            assert running == balance
        for economy in ECONOMIES:
            # Σ ledger deltas == Σ player balances + house, per economy
            ledger = await one(conn, "SELECT SUM(delta) FROM ledger WHERE economy = ?", (economy,))
            total = await one(
                conn, "SELECT SUM(balance) FROM players WHERE economy = ? AND id != 0", (economy,)
            )
            house_rows = await one(
                conn,
                "SELECT COALESCE(SUM(delta), 0) FROM ledger WHERE economy = ? AND uid = 0",
                (economy,),
            )
            assert ledger == total + house_rows, economy
            # the house's balance == its ledger == the rake in the hands' seats, per economy
            results = await conn.execute(
                "SELECT result FROM hands WHERE status = 'settled' AND economy = ?", (economy,)
            )
            rake = sum(seat["rake"] for (result,) in results for seat in json.loads(result))
            assert house_rows == rake == totals_now[economy].house, economy
        # every transfer moved what the seats' deltas say
        for result, moved in await conn.execute(
            "SELECT result, transfers FROM hands WHERE transfers IS NOT NULL"
        ):
            net = [-seat["rake"] for seat in json.loads(result)]
            for payer, payee, _, beans in json.loads(moved):
                net[payer] -= beans
                net[payee] += beans
            assert net == [seat["delta"] for seat in json.loads(result)]
        # each settled hand is zero-sum once the rake is counted
        for hand_id, result in await conn.execute(
            "SELECT id, result FROM hands WHERE status = 'settled'"
        ):
            seats = json.loads(result)
            assert sum(s["delta"] + s["rake"] for s in seats) == 0, f"hand {hand_id}"

    try:
        totals_now = {economy: await w.totals() for economy, w in wallets.items()}
        await db.read(check)
        for economy, wallet in wallets.items():
            totals = await wallet.totals()
            assert totals.ledger == totals.players + totals.house and totals.held == 0
            for uid in PLAYERS:
                if (economy, uid) in created:
                    balance = (await wallet.account(uid)).balance
                    assert balance == GRANT + books[economy, uid], (economy, uid)
    finally:
        await db.close()
