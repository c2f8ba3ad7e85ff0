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
from collections.abc import Awaitable, Callable, Collection, Sequence
from dataclasses import dataclass
from typing import TypeVar

from storage.db import Connection, Storage

R = TypeVar("R")


class _Raced(Exception):
    """A seat was claimed by a concurrent transaction (PostgreSQL): roll back and look again."""


@dataclass(frozen=True)
class SeatClaim:
    """``uid`` holds a seat at table ``table_id`` in server ``guild_id``."""

    uid: int
    table_id: int
    guild_id: int


def _in(uids: Collection[int]) -> str:
    return "(" + ", ".join("?" * len(uids)) + ")"


async def _claims(conn: Connection, uids: Collection[int]) -> dict[int, SeatClaim]:
    """The seats ``uids`` hold now, by uid (one statement per 500 people)."""
    found: dict[int, SeatClaim] = {}
    wanted = sorted(uids)
    for i in range(0, len(wanted), 500):
        chunk = wanted[i : i + 500]
        for uid, table_id, guild_id in await conn.execute(
            f"SELECT uid, table_id, guild_id FROM seats WHERE uid IN {_in(chunk)}", chunk
        ):
            found[int(uid)] = SeatClaim(int(uid), int(table_id), int(guild_id))
    return found


async def sync_tables(
    conn: Connection, tables: Sequence[tuple[int, int, Collection[int]]], now: float
) -> dict[int, list[SeatClaim]]:
    """Inside a transaction: make each (table_id, guild_id, uids) of ``tables`` exactly the
    people seated at that table, each table all or nothing, in a few statements for them all.
    Returns the tables left unchanged, with the claims that stop them (people seated at
    another table, in uid order). Raises ``_Raced`` (the caller runs it again) when another
    transaction seated one of them meanwhile."""
    everyone = {int(u) for _, _, uids in tables for u in uids}
    held = await _claims(conn, everyone)
    ids = [table_id for table_id, _, _ in tables]
    for i in range(0, len(ids), 500):
        chunk = ids[i : i + 500]
        for uid, table_id, guild_id in await conn.execute(
            f"SELECT uid, table_id, guild_id FROM seats WHERE table_id IN {_in(chunk)}", chunk
        ):
            held.setdefault(int(uid), SeatClaim(int(uid), int(table_id), int(guild_id)))
    stopped: dict[int, list[SeatClaim]] = {}
    gone: list[tuple[int, int]] = []
    new: list[tuple[int, int, int, float]] = []
    for table_id, guild_id, uids in tables:
        wanted = {int(u) for u in uids}
        taken = [held[u] for u in sorted(wanted) if u in held and held[u].table_id != table_id]
        if taken:
            stopped[table_id] = taken
            continue
        gone += [(c.uid, table_id) for c in held.values()
                 if c.table_id == table_id and c.uid not in wanted]
        new += [(u, table_id, guild_id, now) for u in sorted(wanted) if u not in held]
        for uid in wanted:  # a later table of the batch wanting them finds them seated here
            held[uid] = SeatClaim(uid, table_id, guild_id)
    await conn.executemany("DELETE FROM seats WHERE uid = ? AND table_id = ?", gone)
    for i in range(0, len(new), 250):  # one statement per 250 seats (4 values each)
        rows = new[i : i + 250]
        await conn.execute(
            "INSERT INTO seats (uid, table_id, guild_id, since) VALUES "
            + ", ".join(["(?, ?, ?, ?)"] * len(rows)) + " ON CONFLICT (uid) DO NOTHING",
            [value for row in rows for value in row],
        )
    if new:  # another process may have seated one of them since we looked
        seated = await _claims(conn, [u for u, _, _, _ in new])
        if any(seated.get(u) is None or seated[u].table_id != t for u, t, _, _ in new):
            raise _Raced
    return stopped


async def run_synced(db: Storage, fn: Callable[[Connection], Awaitable[R]]) -> R:
    """Run ``fn(conn)``, a transaction that calls :func:`sync_tables`, until it is not raced
    (a race rolls it back; the next run sees the other claim, committed)."""
    while True:
        try:
            return await db.run(fn)
        except _Raced:
            continue


async def sync_table(
    db: Storage, table_id: int, guild_id: int, uids: Collection[int]
) -> list[SeatClaim]:
    """Make ``uids`` exactly the people seated at ``table_id``, all or nothing.

    Returns the claims that stop it (people seated at another table), in uid order; then
    nothing changed. An empty list means the table's seat rows now match ``uids``.
    """
    now = time.time()

    async def tx(conn: Connection) -> list[SeatClaim]:
        return (await sync_tables(conn, [(table_id, guild_id, uids)], now)).get(table_id, [])

    return await run_synced(db, tx)


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


async def where_many(db: Storage, uids: Collection[int]) -> dict[int, SeatClaim]:
    """The tables where each of ``uids`` holds a seat, in any process (those seated), in one
    read."""

    async def read(conn: Connection) -> dict[int, SeatClaim]:
        return await _claims(conn, {int(u) for u in uids})

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
