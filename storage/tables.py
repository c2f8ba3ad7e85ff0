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

from storage.db import Connection, Storage


@dataclass(frozen=True)
class SavedAction:
    """One action appended since a table's snapshot: index ``seq`` in hand ``hand_id``'s log,
    by ``seat``; ``deadline``/``window`` are the table's turn deadline after it."""

    seq: int
    hand_id: int
    seat: int
    action: str
    deadline: float | None
    window: int | None


async def save_table(
    db: Storage, table_id: int, guild_id: int, channel_id: int, state: str
) -> None:
    """Insert or replace the snapshot of table ``table_id`` (forgetting appended actions)."""
    now = time.time()

    async def tx(conn: Connection) -> None:
        await conn.execute(
            "INSERT INTO tables (id, guild_id, channel_id, state, updated_at) "
            "VALUES (?, ?, ?, ?, ?) ON CONFLICT (id) DO UPDATE SET guild_id = excluded.guild_id, "
            "channel_id = excluded.channel_id, state = excluded.state, "
            "updated_at = excluded.updated_at",
            (table_id, guild_id, channel_id, state, now),
        )
        await conn.execute("DELETE FROM table_actions WHERE table_id = ?", (table_id,))

    await db.run(tx)


async def append_actions(
    db: Storage,
    table_id: int,
    hand_id: int,
    first: int,
    actions: Sequence[tuple[int, str]],
    deadline: float | None,
    window: int | None,
) -> None:
    """Append ``actions`` (seat, action) of hand ``hand_id`` at log index ``first`` onwards;
    ``deadline``/``window`` hold after the last of them. Re-appending an index replaces it."""
    rows = [
        (table_id, first + i, hand_id, seat, action, deadline, window)
        for i, (seat, action) in enumerate(actions)
    ]

    async def tx(conn: Connection) -> None:
        await conn.executemany(
            "INSERT INTO table_actions "
            '(table_id, seq, hand_id, seat, action, deadline, "window") VALUES (?, ?, ?, ?, ?, ?, ?) '
            "ON CONFLICT (table_id, seq) DO UPDATE SET hand_id = excluded.hand_id, "
            "seat = excluded.seat, action = excluded.action, deadline = excluded.deadline, "
            '"window" = excluded."window"',
            rows,
        )

    await db.run(tx)


async def delete_table(db: Storage, table_id: int) -> bool:
    """Forget table ``table_id`` and its appended actions; True if it was saved."""

    async def tx(conn: Connection) -> bool:
        await conn.execute("DELETE FROM table_actions WHERE table_id = ?", (table_id,))
        return (await conn.execute("DELETE FROM tables WHERE id = ?", (table_id,))).rowcount == 1

    return await db.run(tx)


async def load_tables(db: Storage) -> list[tuple[int, int, int, str]]:
    """Every saved table as (table_id, guild_id, channel_id, state), by table id."""

    async def read(conn: Connection) -> list[tuple[int, int, int, str]]:
        return [
            (int(a), int(b), int(c), str(d))
            for a, b, c, d in await conn.execute(
                "SELECT id, guild_id, channel_id, state FROM tables ORDER BY id"
            )
        ]

    return await db.read(read)


async def load_actions(db: Storage) -> dict[int, list[SavedAction]]:
    """The actions appended since each table's snapshot: {table_id: [action by seq]}."""

    async def read(conn: Connection) -> dict[int, list[SavedAction]]:
        out: dict[int, list[SavedAction]] = {}
        for table_id, *rest in await conn.execute(
            'SELECT table_id, seq, hand_id, seat, action, deadline, "window" FROM table_actions '
            "ORDER BY table_id, seq"
        ):
            out.setdefault(int(table_id), []).append(SavedAction(*rest))
        return out

    return await db.read(read)
