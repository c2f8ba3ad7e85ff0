"""PostgreSQL: what a settlement writes on the server, beyond its result (migration 0009).

- A hand's settled row is a heap-only (HOT) update: its page kept room for it (``hands``
  fillfactor), so the settlement adds no entry to the hand's indexes and leaves no row for
  VACUUM on another page. Counted by the server (``pg_stat_user_tables``) once the pool is
  closed, so every backend has reported its counts.
- The house's rake counters come with the house's players row: ``gamehall_settle`` ensures
  that row only when it creates a counter, so every counter row must have it.
"""

from __future__ import annotations

import json

import asyncpg
import postgres_server
import pytest

from storage.postgres import PostgresDatabase
from storage.wallet import SeatResult, Wallet

HANDS = 120  # several pages of running hands, each page full before the first is settled
# a 斗地主 hand's record as the host stores it: seed, options and the action log
RECORD = json.dumps({"seed": 123456789, "options": {}, "log": [[i % 3, "33"] for i in range(60)]})


@pytest.fixture
async def pg_url(pg_server: postgres_server.Server) -> str:
    if pg_server.problem:
        postgres_server.unavailable(pg_server)
    return await pg_server.new_database()


async def _settle_hands(url: str, economies: tuple[int, ...] = (0,), rake: int = 50) -> None:
    """Open ``HANDS`` hands (each economy in turn, its own three players), hold beans for all,
    then settle them in the order they were opened."""
    db = await PostgresDatabase.open(url, min_size=1, max_size=4)
    try:
        root = Wallet(db, starting_grant=10**6, relief_amount=0, relief_threshold=0,
                      relief_cooldown_s=0)
        hands = []
        for n in range(HANDS):
            economy = economies[n % len(economies)]
            wallet = root.scoped(economy)
            seats = [3 * (n % 8) + 1, 3 * (n % 8) + 2, 3 * (n % 8) + 3]
            for uid in seats:
                await wallet.ensure_player(uid)
            hand = await wallet.new_hand("doudizhu", "novice", 1, 2, seats=seats)
            await wallet.hold(hand, [(uid, 1_000) for uid in seats])
            hands.append((wallet, hand, seats))
        for wallet, hand, seats in hands:
            results = [SeatResult(seats[0], 20, 1), SeatResult(seats[1], -10, -1),
                       SeatResult(seats[2], -10, -1)]
            await wallet.settle(hand, "doudizhu", results, 10, rake, record=RECORD)
    finally:
        await db.close()  # its backends end and report their counts


async def test_a_settled_hand_is_a_heap_only_update(pg_url: str) -> None:
    await _settle_hands(pg_url)
    conn = await asyncpg.connect(pg_url)
    try:
        updates, hot = await conn.fetchrow(
            "SELECT n_tup_upd, n_tup_hot_upd FROM pg_stat_user_tables WHERE relname = 'hands'"
        )
        pages = await conn.fetchval(
            "SELECT COUNT(DISTINCT (ctid::text::point)[0]) FROM hands"
        )
    finally:
        await conn.close()
    assert updates == HANDS
    assert hot == HANDS, f"{HANDS - hot} of {HANDS} settlements moved their hand's row"
    assert pages > 1  # the hands did not all fit on one page: the test measured something


async def test_every_rake_counter_has_the_house_row(pg_url: str) -> None:
    await _settle_hands(pg_url, economies=(0, 111, 222))
    conn = await asyncpg.connect(pg_url)
    try:
        counters = await conn.fetch("SELECT DISTINCT economy FROM house_rake ORDER BY economy")
        missing = await conn.fetch(
            "SELECT r.economy, r.shard FROM house_rake r WHERE NOT EXISTS "
            "(SELECT 1 FROM players p WHERE p.economy = r.economy AND p.id = 0)"
        )
        rake = await conn.fetch(
            "SELECT r.economy, r.beans, COALESCE(l.beans, 0) FROM "
            "(SELECT economy, SUM(beans) AS beans FROM house_rake GROUP BY economy) r "
            "LEFT JOIN (SELECT economy, SUM(delta) AS beans FROM ledger WHERE uid = 0 "
            "GROUP BY economy) l ON l.economy = r.economy"
        )
    finally:
        await conn.close()
    assert [row[0] for row in counters] == [0, 111, 222]
    assert missing == []
    for economy, counted, ledgered in rake:  # the counters are the house's ledger, summed
        assert counted == ledgered > 0, economy
