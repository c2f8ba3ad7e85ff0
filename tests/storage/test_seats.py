"""One seat per person across the hall, held in the database (shared by every process)."""

from __future__ import annotations

import asyncio

from storage import seats, tables
from storage.db import Storage
from storage.seats import SeatClaim


async def test_a_person_seated_at_one_table_cannot_be_seated_at_another(db: Storage) -> None:
    assert await seats.sync_table(db, 100, 1, {7, 8}) == []
    taken = await seats.sync_table(db, 200, 2, {7, 9})
    assert taken == [SeatClaim(7, 100, 1)]
    # all or nothing: 9 was not seated at table 200 either
    assert await seats.where(db, 9) is None
    assert await seats.where(db, 7) == SeatClaim(7, 100, 1)


async def test_sync_releases_who_stood_up_and_is_idempotent(db: Storage) -> None:
    assert await seats.sync_table(db, 100, 1, {7, 8}) == []
    assert await seats.sync_table(db, 100, 1, {7, 8}) == []  # a re-save claims nothing new
    assert await seats.sync_table(db, 100, 1, {8}) == []
    assert await seats.where(db, 7) is None
    assert await seats.sync_table(db, 200, 1, {7}) == []
    assert await seats.tables_with_seats(db) == [(100, 1), (200, 1)]
    assert await seats.release_table(db, 100) == 1
    assert await seats.where(db, 8) is None
    assert await seats.tables_with_seats(db) == [(200, 1)]


async def test_two_tables_racing_for_one_person_seat_them_once(db: Storage) -> None:
    results = await asyncio.gather(
        *(seats.sync_table(db, table, 1, {42}) for table in range(1, 21))
    )
    assert sum(1 for r in results if r == []) == 1
    winner = await seats.where(db, 42)
    assert winner is not None
    assert all(r == [SeatClaim(42, winner.table_id, 1)] for r in results if r)


def _new(table_id: int, uids: set[int], guild_id: int = 1) -> tables.NewTable:
    return tables.NewTable(table_id, guild_id, table_id, f'{{"table": {table_id}}}',
                           frozenset(uids))


async def test_opening_tables_claims_and_saves_them_together_but_each_all_or_nothing(
    db: Storage,
) -> None:
    assert await seats.sync_table(db, 100, 1, {7}) == []
    batch = [_new(300, {1, 2, 3}), _new(301, {4, 7, 5}), _new(302, {6, 3}), _new(303, {8})]
    stopped = await tables.open_tables(db, batch)
    # 7 sits at table 100; 3 was seated by 300, earlier in the same batch
    assert stopped == {301: [SeatClaim(7, 100, 1)], 302: [SeatClaim(3, 300, 1)]}
    assert sorted(t for t, *_ in await tables.load_tables(db)) == [300, 303]
    assert await seats.tables_with_seats(db) == [(100, 1), (300, 1), (303, 1)]
    found = await seats.where_many(db, range(1, 10))
    assert found == {1: SeatClaim(1, 300, 1), 2: SeatClaim(2, 300, 1), 3: SeatClaim(3, 300, 1),
                     7: SeatClaim(7, 100, 1), 8: SeatClaim(8, 303, 1)}
    # opening a table again is idempotent; one who stood up is released
    assert await tables.open_tables(db, [_new(300, {1, 2})]) == {}
    assert await seats.where(db, 3) is None


async def test_batches_racing_for_one_person_seat_them_once(db: Storage) -> None:
    results = await asyncio.gather(
        *(tables.open_tables(db, [_new(table, {42, 1000 + table})]) for table in range(1, 11))
    )
    assert sum(1 for r in results if r == {}) == 1
    winner = await seats.where(db, 42)
    assert winner is not None
    assert [t for t, *_ in await tables.load_tables(db)] == [winner.table_id]
    assert all(r == {t: [SeatClaim(42, winner.table_id, 1)]}
               for t, r in zip(range(1, 11), results, strict=True) if r)
