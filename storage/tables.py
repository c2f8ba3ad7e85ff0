"""牌桌持久化: the host's saved state of every open table, so tables survive a restart.

A table is kept as a snapshot (opaque text, the host's own serialization) plus the actions
played since it (``table_actions``): the action log is the state of a running hand, so an
action costs one small insert and the snapshot is rewritten only when the table itself
changes. Writing a snapshot forgets the actions it includes.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Sequence
from dataclasses import dataclass

from storage.db import Database


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
    db: Database, table_id: int, guild_id: int, channel_id: int, state: str
) -> None:
    """Insert or replace the snapshot of table ``table_id`` (forgetting appended actions)."""
    now = time.time()

    def tx(conn: sqlite3.Connection) -> None:
        conn.execute(
            "INSERT INTO tables (id, guild_id, channel_id, state, updated_at) "
            "VALUES (?, ?, ?, ?, ?) ON CONFLICT (id) DO UPDATE SET guild_id = excluded.guild_id, "
            "channel_id = excluded.channel_id, state = excluded.state, "
            "updated_at = excluded.updated_at",
            (table_id, guild_id, channel_id, state, now),
        )
        conn.execute("DELETE FROM table_actions WHERE table_id = ?", (table_id,))

    await db.run(tx)


async def append_actions(
    db: Database,
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

    def tx(conn: sqlite3.Connection) -> None:
        conn.executemany(
            "INSERT OR REPLACE INTO table_actions "
            "(table_id, seq, hand_id, seat, action, deadline, window) VALUES (?, ?, ?, ?, ?, ?, ?)",
            rows,
        )

    await db.run(tx)


async def delete_table(db: Database, table_id: int) -> bool:
    """Forget table ``table_id`` and its appended actions; True if it was saved."""

    def tx(conn: sqlite3.Connection) -> bool:
        conn.execute("DELETE FROM table_actions WHERE table_id = ?", (table_id,))
        return conn.execute("DELETE FROM tables WHERE id = ?", (table_id,)).rowcount == 1

    return await db.run(tx)


async def load_tables(db: Database) -> list[tuple[int, int, int, str]]:
    """Every saved table as (table_id, guild_id, channel_id, state), by table id."""

    def read(conn: sqlite3.Connection) -> list[tuple[int, int, int, str]]:
        return [
            (int(a), int(b), int(c), str(d))
            for a, b, c, d in conn.execute(
                "SELECT id, guild_id, channel_id, state FROM tables ORDER BY id"
            )
        ]

    return await db.read(read)


async def load_actions(db: Database) -> dict[int, list[SavedAction]]:
    """The actions appended since each table's snapshot: {table_id: [action by seq]}."""

    def read(conn: sqlite3.Connection) -> dict[int, list[SavedAction]]:
        out: dict[int, list[SavedAction]] = {}
        for table_id, *rest in conn.execute(
            "SELECT table_id, seq, hand_id, seat, action, deadline, window FROM table_actions "
            "ORDER BY table_id, seq"
        ):
            out.setdefault(int(table_id), []).append(SavedAction(*rest))
        return out

    return await db.read(read)
