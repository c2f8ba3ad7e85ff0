"""Several hall processes on one PostgreSQL: each with its own connection pool (here: two
pools in one test, as two processes would have), settling, seating and restarting at once."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest
from storage_support import Clock

from storage import seats
from storage.db import Storage, open_database
from storage.wallet import SeatResult, Wallet

GRANT = 50_000


@pytest.fixture
async def two(backend: str, db_target: Any) -> Any:
    """Two "processes" on this test's database: PostgreSQL only (SQLite is one process's)."""
    if backend != "postgresql":
        pytest.skip("one SQLite file belongs to one process")
    first = await open_database(db_target, max_size=4)
    second = await open_database(db_target, max_size=4)
    try:
        yield first, second
    finally:
        await first.close()
        await second.close()


def wallet(db: Storage) -> Wallet:
    return Wallet(db, starting_grant=GRANT, relief_amount=0, relief_threshold=0,
                  relief_cooldown_s=0, clock=Clock())


async def test_settlements_from_two_processes_conserve_every_bean(two: Any) -> None:
    """Both processes settle hands of the same players in one economy at the same time (a
    player's hands run one after another, as the one-seat rule makes them): no update is lost,
    nothing is held afterwards, and the ledger adds up to the balances and the house."""
    players = list(range(1, 13))
    rng = random.Random(5)

    async def table(db: Storage, group: list[int], hands: int) -> int:
        w = wallet(db)
        moved = 0
        for _ in range(hands):
            hand = await w.new_hand("g", "r", 1, 2, seats=group)
            await w.hold(hand, [(u, 5_000) for u in group])
            x = rng.choice((1, 2, 3))
            result = await w.settle(
                hand, "g", [SeatResult(group[0], 2 * x), SeatResult(group[1], -x),
                            SeatResult(group[2], -x)], 100, 10,
            )
            moved += sum(s.delta for s in result.seats)
        return moved

    first, second = two
    groups = [players[i:i + 3] for i in range(0, 12, 3)]
    # each group plays on one process, but the groups of both processes share the house
    moved = await asyncio.gather(*(table(first if i % 2 else second, g, 15)
                                   for i, g in enumerate(groups)))
    totals = await wallet(first).totals()
    assert totals.held == totals.open_holds == 0
    assert totals.ledger == totals.players + totals.house
    assert totals.players == GRANT * len(players) + sum(moved)
    assert totals.house == -sum(moved) == 10 * 3 * 15 * len(groups)


async def test_two_processes_never_seat_one_person_twice(two: Any) -> None:
    first, second = two
    for _ in range(5):
        results = await asyncio.gather(
            seats.sync_table(first, 100, 1, {7, 8}),
            seats.sync_table(second, 200, 2, {7, 9}),
        )
        won = [r == [] for r in results]
        assert won.count(True) == 1  # exactly one table got person 7
        loser = results[won.index(False)]
        assert [c.uid for c in loser] == [7]
        holder = await seats.where(first, 7)
        assert holder is not None and holder.table_id == (100 if won[0] else 200)
        await seats.release_table(first, 100)
        await seats.release_table(second, 200)


async def test_a_double_settle_from_two_processes_applies_once(two: Any) -> None:
    first, second = two
    w1, w2 = wallet(first), wallet(second)
    hand = await w1.new_hand("g", "r", 1, 2, seats=[1, 2])
    await w1.hold(hand, [(1, 1_000), (2, 1_000)])
    outcome = [SeatResult(1, 3), SeatResult(2, -3)]
    a, b = await asyncio.gather(w1.settle(hand, "g", outcome, 100, 5),
                                w2.settle(hand, "g", outcome, 100, 5))
    assert a == b and sorted([a.replayed, b.replayed]) == [False, True]
    assert (await w2.account(1)).balance == GRANT + 300 - 5
    assert [r.reason for r in await w2.ledger(1)].count("hand") == 1
