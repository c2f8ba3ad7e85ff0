"""One seat per person across the hall, held in the database (shared by every process)."""

from __future__ import annotations

import asyncio

from storage import seats
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
