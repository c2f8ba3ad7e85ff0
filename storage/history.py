"""牌局记录: the hand history — enough to replay and audit any hand.

Each hand row keeps its game, room, server and channel, status, seats (uid per seat, None for a
bot), the engine's record (setup with seed and options, and the full action log), the outcome
text, and once settled each seat's points, held beans, rake, bean delta, balance and level
scores (the ``result`` JSON on the hand row).
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Mapping
from dataclasses import dataclass

from storage.db import Database


@dataclass(frozen=True)
class HandRecord:
    """One hand. ``seats``: uid per seat (None = bot). ``deltas``: {uid: beans won or lost,
    rake included} once settled, else {}. ``held``: what each player carried in."""

    hand_id: int
    game: str
    room: str
    guild_id: int
    channel_id: int
    status: str
    seats: tuple[int | None, ...]
    record: str
    outcome: str
    deltas: Mapping[int, int]
    held: Mapping[int, int]
    points: tuple[int, ...]
    coefficient: int | None
    rake: int | None
    started_at: float
    ended_at: float | None


async def get_hand(db: Database, hand_id: int) -> HandRecord | None:
    """The hand ``hand_id``, or None if there is none."""

    def read(conn: sqlite3.Connection) -> HandRecord | None:
        row = conn.execute(
            "SELECT id, game, room, guild_id, channel_id, status, seats, record, outcome, "
            "coefficient, rake, started_at, ended_at, result FROM hands WHERE id = ?",
            (hand_id,),
        ).fetchone()
        if row is None:
            return None
        seats_json = json.loads(row[6])
        settled = [(s["uid"], s["points"], s["delta"]) for s in json.loads(row[13] or "[]")]
        held = dict(
            conn.execute("SELECT uid, amount FROM holds WHERE hand_id = ?", (hand_id,)).fetchall()
        )
        if settled:
            seats = tuple(uid for uid, _, _ in settled)
        elif seats_json:
            seats = tuple(seats_json)
        else:
            seats = tuple(sorted(held))
        return HandRecord(
            hand_id=row[0],
            game=row[1],
            room=row[2],
            guild_id=row[3],
            channel_id=row[4],
            status=row[5],
            seats=seats,
            record=row[7],
            outcome=row[8],
            deltas={uid: delta for uid, _, delta in settled if uid is not None},
            held=held,
            points=tuple(points for _, points, _ in settled),
            coefficient=row[9],
            rake=row[10],
            started_at=row[11],
            ended_at=row[12],
        )

    return await db.read(read)


async def running_hands(db: Database) -> list[int]:
    """Ids of hands still running (after a restart: resume them or ``Wallet.release`` them)."""

    def read(conn: sqlite3.Connection) -> list[int]:
        return [r[0] for r in conn.execute("SELECT id FROM hands WHERE status = 'running'")]

    return await db.read(read)


async def players_in_guild(db: Database, guild_id: int) -> list[int]:
    """Everyone who has played a settled hand in server ``guild_id``, by id."""

    def read(conn: sqlite3.Connection) -> list[int]:
        return [
            r[0]
            for r in conn.execute(
                "SELECT uid FROM guild_players WHERE guild_id = ? ORDER BY uid", (guild_id,)
            )
        ]

    return await db.read(read)


async def hands_of(db: Database, uid: int, limit: int = 10) -> list[int]:
    """Ids of the latest hands that moved the player's beans, newest first (from the ledger)."""

    def read(conn: sqlite3.Connection) -> list[int]:
        return [
            r[0]
            for r in conn.execute(
                "SELECT hand_id FROM ledger WHERE uid = ? AND hand_id IS NOT NULL "
                "ORDER BY id DESC LIMIT ?",
                (uid, int(limit)),
            )
        ]

    return await db.read(read)
