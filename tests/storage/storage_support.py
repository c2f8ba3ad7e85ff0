"""Shared constants and helpers of the storage tests (imported by the test modules)."""

from __future__ import annotations

from typing import Any

GRANT = 10_000
RELIEF = 2_000
THRESHOLD = 1_000
COOLDOWN = 86_400.0
MOD = 999


class Clock:
    """A settable time source: ``clock()`` returns ``clock.now``."""

    def __init__(self, now: float = 1_700_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


async def snapshot(conn: Any) -> tuple[object, ...]:
    """Every row of every table a wallet change can touch, for "left no trace" checks (a
    storage function: ``await db.read(snapshot)``)."""
    tables = []
    for sql in (
        "SELECT * FROM players ORDER BY economy, id",
        "SELECT * FROM ledger ORDER BY id",
        "SELECT * FROM holds ORDER BY hand_id, uid",
        "SELECT * FROM hands ORDER BY id",
        "SELECT * FROM scores ORDER BY economy, uid, game",
        "SELECT * FROM guild_players ORDER BY guild_id, uid",
        "SELECT * FROM guilds ORDER BY id",
    ):
        tables.append([tuple(row) for row in (await conn.execute(sql)).fetchall()])
    return tuple(tables)
