"""牌桌持久化: the host's saved state of every open table, so tables survive a restart.

A table is kept as a snapshot (opaque text, the host's own serialization) plus the actions
played since it (``table_actions``): the action log is the state of a running hand, so an
action costs one small insert and the snapshot is rewritten only when the table itself
changes. Writing a snapshot forgets the actions it includes.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass

from storage import seats
from storage.db import Connection, Storage
from storage.seats import SeatClaim

_UPSERT = (
    "INSERT INTO tables (id, guild_id, channel_id, state, updated_at) "
    "VALUES (?1, ?2, ?3, ?4, ?5) ON CONFLICT (id) DO UPDATE SET guild_id = excluded.guild_id, "
    "channel_id = excluded.channel_id, state = excluded.state, "
    "updated_at = excluded.updated_at"
)


@dataclass(frozen=True)
class SavedAction:
    """One action appended since a table's snapshot: index ``seq`` in hand ``hand_id``'s log,
    by ``seat``; ``deadline``/``window`` are the table's turn deadline after it, ``flags``
    the seats' flags after it where it changed them (the host's text), else None. ``action``
    is bytes only when the stored text is not UTF-8 (a damaged row)."""

    seq: int
    hand_id: int
    seat: int
    action: str | bytes
    deadline: float | None
    window: int | None
    flags: str | bytes | None = None


async def save_table(
    db: Storage, table_id: int, guild_id: int, channel_id: int, state: str
) -> None:
    """Insert or replace the snapshot of table ``table_id`` (forgetting appended actions).

    PostgreSQL: one statement (the delete in a ``WITH``), so no transaction around it."""
    now = time.time()
    upsert = _UPSERT

    async def tx(conn: Connection) -> None:
        if conn.dialect == "postgresql":  # one statement: one round trip, all or nothing
            await conn.execute(
                "WITH gone AS (DELETE FROM table_actions WHERE table_id = ?1) " + upsert,
                (table_id, guild_id, channel_id, state, now),
            )
            return
        await conn.execute(upsert, (table_id, guild_id, channel_id, state, now))
        await conn.execute("DELETE FROM table_actions WHERE table_id = ?", (table_id,))

    await db.run_autocommit(tx)


@dataclass(frozen=True)
class NewTable:
    """A table to open (:func:`open_tables`): its row's key, its snapshot ``state`` and the
    people it seats (``uids``)."""

    table_id: int
    guild_id: int
    channel_id: int
    state: str
    uids: frozenset[int]


async def open_tables(db: Storage, tables: Sequence[NewTable]) -> dict[int, list[SeatClaim]]:
    """Claim the seats of ``tables`` and save their snapshots, in one transaction for them
    all (the seats first, as ``seats.sync_table`` then ``save_table`` would). A table one of
    whose people sits at another table (in any process, or earlier in ``tables``) is neither
    claimed nor saved: returns those tables with the claims that stop them."""
    now = time.time()

    async def tx(conn: Connection) -> dict[int, list[SeatClaim]]:
        stopped = await seats.sync_tables(
            conn, [(t.table_id, t.guild_id, t.uids) for t in tables], now
        )
        kept = [t for t in tables if t.table_id not in stopped]
        await conn.executemany(
            _UPSERT, [(t.table_id, t.guild_id, t.channel_id, t.state, now) for t in kept]
        )
        ids = [t.table_id for t in kept]
        for i in range(0, len(ids), 500):
            chunk = ids[i : i + 500]
            await conn.execute(
                "DELETE FROM table_actions WHERE table_id IN ("
                + ", ".join("?" * len(chunk)) + ")",
                chunk,
            )
        return stopped

    return await seats.run_synced(db, tx)


async def append_actions(
    db: Storage,
    table_id: int,
    hand_id: int,
    first: int,
    actions: Sequence[tuple[int, str]],
    deadline: float | None,
    window: int | None,
    flags: str | None = None,
) -> None:
    """Append ``actions`` (seat, action) of hand ``hand_id`` at log index ``first`` onwards;
    ``deadline``/``window`` (and the seats' ``flags``, where they changed) hold after the last
    of them. Re-appending an index replaces it.

    One statement, so it needs no transaction around it: on PostgreSQL the rows go in one
    pipelined round trip that the server applies all or nothing (``run_autocommit``)."""
    last = len(actions) - 1
    rows = [
        (table_id, first + i, hand_id, seat, action, deadline, window,
         flags if i == last else None)
        for i, (seat, action) in enumerate(actions)
    ]

    async def tx(conn: Connection) -> None:
        await conn.executemany(
            "INSERT INTO table_actions "
            '(table_id, seq, hand_id, seat, action, deadline, "window", flags) '
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?) "
            "ON CONFLICT (table_id, seq) DO UPDATE SET hand_id = excluded.hand_id, "
            "seat = excluded.seat, action = excluded.action, deadline = excluded.deadline, "
            '"window" = excluded."window", flags = excluded.flags',
            rows,
        )

    await db.run_autocommit(tx)


async def delete_table(db: Storage, table_id: int, *, release_seats: bool = False) -> bool:
    """Forget table ``table_id`` and its appended actions (with ``release_seats``, free its
    seats too, in the same transaction: a table that closed); True if it was saved."""

    async def tx(conn: Connection) -> bool:
        await conn.execute("DELETE FROM table_actions WHERE table_id = ?", (table_id,))
        if release_seats:
            await conn.execute("DELETE FROM seats WHERE table_id = ?", (table_id,))
        return (await conn.execute("DELETE FROM tables WHERE id = ?", (table_id,))).rowcount == 1

    return await db.run(tx)


def _text(value: str | bytes) -> str | bytes:
    """A text column as read: its text, or its bytes as stored when they are not UTF-8 (a
    damaged row, which SQLite keeps as it is), so one such row does not stop the read."""
    if isinstance(value, bytes):
        try:
            return value.decode("utf-8")
        except UnicodeDecodeError:
            return value
    return str(value)


def _as_read(conn: Connection, column: str) -> str:
    """``column`` as it is selected: SQLite's bytes as stored (its text decoder would raise on
    a damaged row); PostgreSQL never holds invalid UTF-8 in a text column."""
    return f"CAST({column} AS BLOB)" if conn.dialect == "sqlite" else column


async def load_tables(db: Storage) -> list[tuple[int, int, int, str | bytes]]:
    """Every saved table as (table_id, guild_id, channel_id, state), by table id. ``state`` is
    text, or the stored bytes when they are not UTF-8 (a damaged row, for the host to refuse)."""

    async def read(conn: Connection) -> list[tuple[int, int, int, str | bytes]]:
        return [
            (int(a), int(b), int(c), _text(d))
            for a, b, c, d in await conn.execute(
                f"SELECT id, guild_id, channel_id, {_as_read(conn, 'state')} FROM tables "
                "ORDER BY id"
            )
        ]

    return await db.read(read)


async def load_actions(db: Storage) -> dict[int, list[SavedAction]]:
    """The actions appended since each table's snapshot: {table_id: [action by seq]}. An
    action that is not UTF-8 (a damaged row) is read as its stored bytes, for the host to
    refuse."""

    async def read(conn: Connection) -> dict[int, list[SavedAction]]:
        out: dict[int, list[SavedAction]] = {}
        for table_id, seq, hand_id, seat, action, deadline, window, flags in await conn.execute(
            f"SELECT table_id, seq, hand_id, seat, {_as_read(conn, 'action')}, deadline, "
            f'"window", {_as_read(conn, "flags")} FROM table_actions ORDER BY table_id, seq'
        ):
            out.setdefault(int(table_id), []).append(
                SavedAction(seq, hand_id, seat, _text(action), deadline, window,
                            None if flags is None else _text(flags))
            )
        return out

    return await db.read(read)
