"""牌局记录: the hand history — enough to replay and audit any hand.

Each hand row keeps its game, room, server, channel and economy, status, seats (uid per seat,
None for a bot), the engine's record (setup with seed and options, and the full action log),
the outcome text, and once settled each seat's points, held beans, rake, bean delta, balance
and level scores (the ``result`` JSON on the hand row) and, for a hand settled pair by pair,
its transfers.

Hand ids count up and can be enumerated; what players see and type (``/replay``) is the hand's
**code**: 10 symbols of Crockford's base32 (``0-9`` and ``a-z`` without ``i l o u``), 50 random
bits from :mod:`secrets`, unique. Reading a code forgives case, spaces and dashes, and the
look-alikes ``o`` → 0, ``i``/``l`` → 1.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Mapping
from dataclasses import dataclass

from storage.db import Connection, Storage
from storage.errors import HandStateError
from storage.settlement import TransferResult

CODE_ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz"
"""Crockford's base32, lower case: the symbols of a hand's code."""

CODE_LENGTH = 10
_READ = str.maketrans({"o": "0", "i": "1", "l": "1", "-": None, " ": None, "_": None})


@dataclass(frozen=True)
class Hand:
    """One hand. ``code``: its public code. ``seats``: uid per seat (None = bot). ``deltas``:
    {uid: beans won or lost, rake included} once settled, else {}. ``held``: what each player
    carried in. ``economy``: the wallet scope it was played in (a server id, or 0).
    ``transfers``: the pairwise transfers as settled (empty for the pot rule)."""

    hand_id: int
    code: str
    game: str
    room: str
    guild_id: int
    channel_id: int
    economy: int
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
    transfers: tuple[TransferResult, ...] = ()


HandRecord = Hand
"""The former name of :class:`Hand`."""


def new_code() -> str:
    """A fresh random hand code (not yet checked for uniqueness).

    >>> len(new_code()) == CODE_LENGTH and set(new_code()) <= set(CODE_ALPHABET)
    True
    """
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def read_code(text: str) -> str | None:
    """The canonical form of a typed hand code, or None if it cannot be one.

    >>> read_code(" 7HQ2-KM0O-LX ")
    '7hq2km001x'
    >>> read_code("12345") is None, read_code("7hq2km00u9") is None
    (True, True)
    """
    if not isinstance(text, str) or len(text) > 64:
        return None
    code = text.strip().lower().translate(_READ)
    if len(code) != CODE_LENGTH or not set(code) <= set(CODE_ALPHABET):
        return None
    return code


async def insert_hand(
    conn: Connection,
    game: str,
    room: str,
    guild_id: int,
    channel_id: int,
    seats: str,
    now: float,
    economy: int,
) -> int:
    """Insert a running hand with a fresh unique code; its id. Each try is one statement (a
    code already taken inserts nothing and another is drawn), so it needs no transaction
    around it (``Storage.run_autocommit``)."""
    while True:
        row = (await conn.execute(
            "INSERT INTO hands (game, room, guild_id, channel_id, seats, started_at, economy, code) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (code) DO NOTHING RETURNING id",
            (game, room, guild_id, channel_id, seats, now, economy, new_code()),
        )).fetchone()
        if row is not None:  # else a collision among 2^50 codes: draw again
            return int(row[0])


_COLUMNS = (
    "id, game, room, guild_id, channel_id, status, seats, record, outcome, coefficient, rake, "
    "started_at, ended_at, result, code, economy, transfers"
)


async def _hand(conn: Connection, row: tuple[object, ...] | None) -> Hand | None:
    if row is None:
        return None
    hand_id = int(row[0])  # type: ignore[call-overload]
    seats_json = json.loads(str(row[6]))
    settled = [(s["uid"], s["points"], s["delta"]) for s in json.loads(str(row[13] or "[]"))]
    held = dict(
        (await conn.execute("SELECT uid, amount FROM holds WHERE hand_id = ?", (hand_id,))).fetchall()
    )
    if settled:
        seats = tuple(uid for uid, _, _ in settled)
    elif seats_json:
        seats = tuple(seats_json)
    else:
        seats = tuple(sorted(held))
    return Hand(
        hand_id=hand_id,
        code=str(row[14]),
        game=str(row[1]),
        room=str(row[2]),
        guild_id=row[3],  # type: ignore[arg-type]
        channel_id=row[4],  # type: ignore[arg-type]
        economy=row[15],  # type: ignore[arg-type]
        status=str(row[5]),
        seats=seats,
        record=str(row[7]),
        outcome=str(row[8]),
        deltas={uid: delta for uid, _, delta in settled if uid is not None},
        held=held,
        points=tuple(points for _, points, _ in settled),
        coefficient=row[9],  # type: ignore[arg-type]
        rake=row[10],  # type: ignore[arg-type]
        started_at=row[11],  # type: ignore[arg-type]
        ended_at=row[12],  # type: ignore[arg-type]
        transfers=tuple(TransferResult(*t) for t in json.loads(str(row[16] or "[]"))),
    )


async def get_hand(db: Storage, hand_id: int) -> Hand | None:
    """The hand ``hand_id``, or None if there is none."""

    async def read(conn: Connection) -> Hand | None:
        row = (await conn.execute(f"SELECT {_COLUMNS} FROM hands WHERE id = ?", (hand_id,))).fetchone()
        return await _hand(conn, row)

    return await db.read(read)


async def hand_code(db: Storage, hand_id: int) -> str:
    """The public code of hand ``hand_id``; HandStateError if there is no such hand."""

    async def read(conn: Connection) -> str:
        row = (await conn.execute("SELECT code FROM hands WHERE id = ?", (hand_id,))).fetchone()
        if row is None:
            raise HandStateError(hand_id, "no such hand")
        return str(row[0])

    return await db.read(read)


async def hand_by_code(db: Storage, code: str) -> Hand | None:
    """The hand whose public code is ``code`` (as typed: see ``read_code``), or None.

    Who may see it is the caller's decision (``Hand.guild_id``, ``Hand.seats``).
    """
    canonical = read_code(code)
    if canonical is None:
        return None

    async def read(conn: Connection) -> Hand | None:
        row = (await conn.execute(f"SELECT {_COLUMNS} FROM hands WHERE code = ?", (canonical,))).fetchone()
        return await _hand(conn, row)

    return await db.read(read)


async def running_hands(db: Storage) -> list[int]:
    """Ids of hands still running, in every economy (after a restart: resume them or
    ``Wallet.release`` them)."""

    async def read(conn: Connection) -> list[int]:
        return [r[0] for r in await conn.execute("SELECT id FROM hands WHERE status = 'running'")]

    return await db.read(read)


async def players_in_guild(db: Storage, guild_id: int) -> list[int]:
    """Everyone who has played a settled hand in server ``guild_id``, by id."""

    async def read(conn: Connection) -> list[int]:
        return [
            r[0]
            for r in await conn.execute(
                "SELECT uid FROM guild_players WHERE guild_id = ? ORDER BY uid", (guild_id,)
            )
        ]

    return await db.read(read)


async def hands_of(
    db: Storage, uid: int, limit: int = 10, *, economy: int | None = None
) -> list[int]:
    """Ids of the latest hands that moved the player's beans, newest first (from the ledger);
    ``economy``: only that economy's (None: all)."""

    async def read(conn: Connection) -> list[int]:
        scope, args = ("", (uid,)) if economy is None else (" AND economy = ?", (uid, economy))
        rows = await conn.execute(
            f"SELECT hand_id FROM ledger WHERE uid = ? AND hand_id IS NOT NULL{scope} "
            "GROUP BY hand_id ORDER BY MAX(id) DESC LIMIT ?",
            (*args, int(limit)),
        )
        return [r[0] for r in rows]

    return await db.read(read)
