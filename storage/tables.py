"""牌桌持久化: the host's saved state of every open table, so tables survive a restart.

The state is opaque text (the host's own serialization, written after every action); storage
only keeps the latest version per table.
"""

from __future__ import annotations

import sqlite3
import time

from storage.db import Database


async def save_table(
    db: Database, table_id: int, guild_id: int, channel_id: int, state: str
) -> None:
    """Insert or replace the saved state of table ``table_id``."""
    now = time.time()

    def tx(conn: sqlite3.Connection) -> None:
        conn.execute(
            "INSERT INTO tables (id, guild_id, channel_id, state, updated_at) "
            "VALUES (?, ?, ?, ?, ?) ON CONFLICT (id) DO UPDATE SET guild_id = excluded.guild_id, "
            "channel_id = excluded.channel_id, state = excluded.state, "
            "updated_at = excluded.updated_at",
            (table_id, guild_id, channel_id, state, now),
        )

    await db.run(tx)


async def delete_table(db: Database, table_id: int) -> bool:
    """Forget table ``table_id``; True if it was saved."""

    def tx(conn: sqlite3.Connection) -> bool:
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
