"""等级: level scores (积分) per player and game, and titles looked up in a game's table.

A score is kept per (economy, player, game), separate from beans; settlement adds each hand's
score change in the same transaction (``Wallet.settle``), in the hand's economy. Every reading
function takes the ``economy`` (a server's id, or 0 = global) as a required keyword: a level or
a leaderboard always belongs to one economy. A level table is ((min_score, title), ...)
strictly ascending (``config/default.toml`` [levels]); a score gets the title of the last row
whose minimum it reaches, and a score below the first minimum gets the first title (the lowest
rank covers everything beneath it).
"""

from __future__ import annotations

import bisect
import json
from collections.abc import Collection, Sequence

from storage.db import Connection, Storage


def title(table: Sequence[tuple[int, str]], score: int) -> str:
    """The title for ``score`` in ``table``.

    >>> title([(-1000000000, "包身工"), (10, "短工"), (25, "长工")], 10)
    '短工'
    >>> title([(100, "初品益都红"), (200, "良品益都红")], 0)
    '初品益都红'

    Raises ValueError for an empty table.
    """
    if not table:
        raise ValueError("a level table needs at least one row")
    index = bisect.bisect_right(table, score, key=_minimum) - 1  # no list built per look-up
    return table[max(index, 0)][1]


def _minimum(row: tuple[int, str]) -> int:
    return row[0]


def next_title(table: Sequence[tuple[int, str]], score: int) -> tuple[int, str] | None:
    """The next row above ``score`` (minimum, title), or None at the top."""
    index = bisect.bisect_right([minimum for minimum, _ in table], score)
    return table[index] if index < len(table) else None


def _economy(economy: object) -> int:
    if not isinstance(economy, int) or isinstance(economy, bool) or economy < 0:
        raise ValueError(f"an economy is a server id or 0 (global), got {repr(economy)[:40]}")
    return economy


async def score(db: Storage, uid: int, game: str, *, economy: int) -> int:
    """The player's level score in ``game`` in ``economy`` (0 if they never played it)."""
    economy = _economy(economy)

    async def read(conn: Connection) -> int:
        row = (await conn.execute(
            "SELECT score FROM scores WHERE economy = ? AND uid = ? AND game = ?",
            (economy, uid, game),
        )).fetchone()
        return int(row[0]) if row else 0

    return await db.read(read)


async def scores_in(db: Storage, uids: Collection[int], game: str, *, economy: int
                    ) -> dict[int, int]:
    """Each of ``uids``' level score in ``game`` in ``economy`` (0 if they never played it),
    in one read."""
    economy = _economy(economy)
    wanted = sorted(set(uids))

    async def read(conn: Connection) -> dict[int, int]:
        found = dict.fromkeys(wanted, 0)
        if wanted:
            rows = await conn.execute(
                "SELECT uid, score FROM scores WHERE economy = ? AND game = ? AND uid IN ("
                + ", ".join("?" * len(wanted)) + ")",
                (economy, game, *wanted),
            )
            found.update((int(uid), int(value)) for uid, value in rows)
        return found

    return await db.read(read)


async def scores(db: Storage, uid: int, *, economy: int) -> dict[str, int]:
    """Every game the player has a score in, in ``economy``: {game: score}, by game key."""
    economy = _economy(economy)

    async def read(conn: Connection) -> dict[str, int]:
        return dict(
            await conn.execute(
                "SELECT game, score FROM scores WHERE economy = ? AND uid = ? ORDER BY game",
                (economy, uid),
            )
        )

    return await db.read(read)


async def leaderboard(
    db: Storage,
    game: str,
    uids: Collection[int] | None = None,
    limit: int = 10,
    *,
    economy: int,
) -> list[tuple[int, int]]:
    """排行榜: the top ``limit`` (uid, score) in ``game`` in ``economy``, highest first, ties by
    uid.

    ``uids``: only these players (e.g. a server's members, in the global economy); None for
    everyone in the economy.
    """
    economy = _economy(economy)

    async def read(conn: Connection) -> list[tuple[int, int]]:
        if uids is None:
            rows = await conn.execute(
                "SELECT uid, score FROM scores WHERE economy = ? AND game = ? "
                "ORDER BY score DESC, uid LIMIT ?",
                (economy, game, int(limit)),
            )
        elif conn.dialect == "postgresql":
            rows = await conn.execute(
                "SELECT uid, score FROM scores WHERE economy = ? AND game = ? "
                "AND uid = ANY(?::BIGINT[]) ORDER BY score DESC, uid LIMIT ?",
                (economy, game, [int(u) for u in uids], int(limit)),
            )
        else:  # one parameter however many players (SQLite bounds the number of parameters)
            rows = await conn.execute(
                "SELECT uid, score FROM scores WHERE economy = ? AND game = ? "
                "AND uid IN (SELECT value FROM json_each(?)) ORDER BY score DESC, uid LIMIT ?",
                (economy, game, json.dumps([int(u) for u in uids]), int(limit)),
            )
        return [(int(u), int(s)) for u, s in rows]

    return await db.read(read)
