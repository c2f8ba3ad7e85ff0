"""座位: who sits at which table, hall-wide, so one person never holds two seats.

The host keeps its own index in memory for speed, but several bot processes can share one
database, and only the database sees them all: the primary key on ``seats.uid`` is what makes
"one table per person" hold across processes. Every change of a table's seats goes through
:func:`sync_table`, which claims the seats of the people now seated and releases the others in
one transaction::

    taken = await seats.sync_table(db, table_id, guild_id, {uid1, uid2})
    if taken:            # someone already sits elsewhere: nothing was changed
        other = taken[0] # SeatClaim(uid, table_id, guild_id) -> link to that table

A claim by the same table again is not a conflict (restores and re-saves are idempotent).
"""

from __future__ import annotations

import time
from collections.abc import Collection
from dataclasses import dataclass

from storage.db import Connection, Storage


class _Raced(Exception):
    """A seat was claimed by a concurrent transaction (PostgreSQL): roll back and look again."""


@dataclass(frozen=True)
class SeatClaim:
    """``uid`` holds a seat at table ``table_id`` in server ``guild_id``."""

    uid: int
    table_id: int
    guild_id: int


async def _elsewhere(conn: Connection, table_id: int, uids: Collection[int]) -> list[SeatClaim]:
    found: list[SeatClaim] = []
    for uid in sorted(uids):
        row = (await conn.execute(
            "SELECT table_id, guild_id FROM seats WHERE uid = ? AND table_id <> ?",
            (uid, table_id),
        )).fetchone()
        if row is not None:
            found.append(SeatClaim(uid, int(row[0]), int(row[1])))
    return found


async def sync_table(
    db: Storage, table_id: int, guild_id: int, uids: Collection[int]
) -> list[SeatClaim]:
    """Make ``uids`` exactly the people seated at ``table_id``, all or nothing.

    Returns the claims that stop it (people seated at another table), in uid order; then
    nothing changed. An empty list means the table's seat rows now match ``uids``.
    """
    wanted = {int(u) for u in uids}
    now = time.time()

    async def tx(conn: Connection) -> list[SeatClaim]:
        taken = await _elsewhere(conn, table_id, wanted)
        if taken:
            return taken
        rows = await conn.execute("SELECT uid FROM seats WHERE table_id = ?", (table_id,))
        held = {int(r[0]) for r in rows}
        for uid in held - wanted:
            await conn.execute("DELETE FROM seats WHERE uid = ? AND table_id = ?", (uid, table_id))
        for uid in sorted(wanted - held):
            inserted = await conn.execute(
                "INSERT INTO seats (uid, table_id, guild_id, since) VALUES (?, ?, ?, ?) "
                "ON CONFLICT (uid) DO NOTHING",
                (uid, table_id, guild_id, now),
            )
            if inserted.rowcount != 1:  # another process seated them since we looked
                raise _Raced
        return []

    while True:
        try:
            return await db.run(tx)
        except _Raced:
            continue  # rolled back; the next look sees the other claim (committed)


async def release_table(db: Storage, table_id: int) -> int:
    """Free every seat of table ``table_id`` (it closed); returns how many were held."""

    async def tx(conn: Connection) -> int:
        return (await conn.execute("DELETE FROM seats WHERE table_id = ?", (table_id,))).rowcount

    return await db.run(tx)


async def where(db: Storage, uid: int) -> SeatClaim | None:
    """The table where ``uid`` holds a seat, in any process, or None."""

    async def read(conn: Connection) -> SeatClaim | None:
        row = (await conn.execute(
            "SELECT table_id, guild_id FROM seats WHERE uid = ?", (uid,)
        )).fetchone()
        return None if row is None else SeatClaim(uid, int(row[0]), int(row[1]))

    return await db.read(read)


async def tables_with_seats(db: Storage) -> list[tuple[int, int]]:
    """(table_id, guild_id) of every table holding seats, by table id (to find seats left
    behind by a table that no longer exists)."""

    async def read(conn: Connection) -> list[tuple[int, int]]:
        return [
            (int(a), int(b))
            for a, b in await conn.execute(
                "SELECT DISTINCT table_id, guild_id FROM seats ORDER BY table_id"
            )
        ]

    return await db.read(read)
