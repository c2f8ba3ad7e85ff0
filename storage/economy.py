"""货币供应: the money supply of an economy, and seasons (赛季) that reset it.

Rules:

- The **supply** is the beans the players of an economy hold (the house excluded: the rake it
  collects has left circulation). It always equals the sum of the players' ledger rows, so
  every figure here is read from the ledger, and the week's movements add up to the change in
  supply to the bean: ``supply == supply_before + sum(entered) - sum(left)``.
- Beans **enter** by the starting grant (``start``), 低保 (``relief``), moderator grants
  (``grant``) and a season reset that raises a balance; they **leave** by the rake of hands
  (``rake``: what the players' hand rows net to), moderator revokes (``revoke``) and a season
  reset that lowers a balance (``season``). Any other ledger reason is reported under its own
  name.
- The share of the **top 1%** (at least one player) and the **Gini coefficient** are over
  every player's balance in the economy.
- A **season** ends by a moderator's action (audited): the leaderboard of every game is kept
  (top ``SNAPSHOT_SIZE``), every player's balance is set back to the starting grant (ledgered
  ``season``), level scores are reset or kept as asked. It is refused while a hand of the
  economy runs (escrow must not change under it).

Keyed by ints; nothing here knows a game.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from storage.db import Connection, Storage

DAY = 86400.0
WEEK = 7 * DAY
SNAPSHOT_SIZE = 10

_SOURCES = {
    "grant:start": "start",
    "relief": "relief",
    "grant:mod": "grant",
    "revoke:mod": "revoke",
    "hand": "rake",
    "hand:pay": "rake",
    "hand:receive": "rake",
    "hand:rake": "rake",
    "hand:fee": "props",
    "season": "season",
}


class SeasonError(ValueError):
    """A season cannot end now (a hand of the economy is running)."""

    def __init__(self, running: int) -> None:
        self.running = running
        super().__init__(f"{running} hand(s) of this economy are running; end them first")


@dataclass(frozen=True)
class Supply:
    """One economy's money supply at ``at``. ``series``: (day start, supply at the end of that
    day) for the last days, oldest first; ``entered``/``left``: beans by source since
    ``since`` (positive numbers); ``supply_since``: the supply at ``since``."""

    economy: int
    at: float
    supply: int
    players: int
    top1_share: float
    gini: float
    since: float
    supply_since: int
    entered: dict[str, int]
    left: dict[str, int]
    series: tuple[tuple[float, int], ...]


@dataclass(frozen=True)
class Season:
    """An ended season: its ``number`` in the economy, who ended it and when."""

    number: int
    moderator_id: int
    levels_reset: bool
    supply: int
    ended_at: float


def gini(values: list[int]) -> float:
    """基尼系数 of non-negative amounts: 0 when all are equal, near 1 when one holds all.

    >>> gini([5, 5, 5, 5])
    0.0
    >>> gini([0, 0, 0, 12])
    0.75
    """
    n, total = len(values), sum(values)
    if n == 0 or total == 0:
        return 0.0
    ordered = sorted(values)
    weighted = sum(i * v for i, v in enumerate(ordered, start=1))
    return (2 * weighted) / (n * total) - (n + 1) / n


def top_share(values: list[int], fraction: float = 0.01) -> float:
    """The share of the total held by the richest ``fraction`` of holders (at least one).

    >>> top_share([1] * 99 + [101])
    0.505
    """
    total = sum(values)
    if not values or total == 0:
        return 0.0
    count = max(1, math.ceil(len(values) * fraction))
    return sum(sorted(values, reverse=True)[:count]) / total


def _split_sum(high: int | None, low: int | None) -> int:
    return int(high or 0) * 1_000_000_000 + int(low or 0)


async def _supply(conn: Connection, economy: int, now: float, days: int) -> Supply:
    balances = [
        int(r[0])
        for r in await conn.execute(
            "SELECT balance FROM players WHERE economy = ? AND id != 0", (economy,)
        )
    ]
    supply = sum(balances)
    since = now - WEEK
    start = math.floor(now / DAY) * DAY - (days - 1) * DAY  # the first day's start
    first = min(since, start)
    # Every ledger row of the window, grouped by day and reason (the (economy, at) index);
    # SUM is split in high and low parts, exact however large (SQLite raises on overflow).
    by_day: dict[int, int] = {}
    entered: dict[str, int] = {}
    left: dict[str, int] = {}
    # the day a time falls in (times are positive: SQLite's CAST truncates, which is floor;
    # PostgreSQL's rounds)
    day_of = "CAST(at / ? AS INTEGER)" if conn.dialect == "sqlite" else "FLOOR(at / ?)"
    for day, reason, positive, high, low, late in await conn.execute(
        f"SELECT {day_of}, reason, delta > 0, SUM(delta / 1000000000), "
        "SUM(delta % 1000000000), at >= ? FROM ledger "
        "WHERE economy = ? AND at >= ? AND uid != 0 GROUP BY 1, 2, 3, 6",
        (DAY, since, economy, first),
    ):
        amount = _split_sum(high, low)
        by_day[int(day)] = by_day.get(int(day), 0) + amount
        if late:
            source = _SOURCES.get(reason, reason)
            if source in ("rake", "revoke", "props") or (source not in ("start", "relief", "grant")
                                                 and not positive):
                left[source] = left.get(source, 0) - amount
            else:
                entered[source] = entered.get(source, 0) + amount
    # the hands' rows net to minus the rake; a "rake" that came out positive is no rake
    for name in [k for k, v in left.items() if v == 0]:
        del left[name]
    after_since = sum(entered.values()) - sum(left.values())
    series = []
    later = 0  # beans that moved after the end of the day being computed
    day_index = math.floor(now / DAY)
    for d in range(day_index, day_index - days, -1):
        series.append((d * DAY, supply - later))
        later += by_day.get(d, 0)
    return Supply(
        economy=economy,
        at=now,
        supply=supply,
        players=len(balances),
        top1_share=top_share(balances),
        gini=gini(balances),
        since=since,
        supply_since=supply - after_since,
        entered=entered,
        left=left,
        series=tuple(reversed(series)),
    )


async def supply(db: Storage, now: float, *, economy: int, days: int = 30) -> Supply:
    """The economy's money supply at ``now``: figures, the week's movements, ``days`` of
    history (one read transaction)."""
    if not 1 <= days <= 366:
        raise ValueError(f"days must be 1 to 366, got {days}")
    return await db.read(_supply, economy, float(now), days)


async def end_season(
    db: Storage,
    moderator_id: int,
    now: float,
    *,
    economy: int,
    starting_grant: int,
    reset_levels: bool,
    reason: str = "",
) -> Season:
    """赛季结束: snapshot every game's leaderboard, set every balance back to the starting
    grant (ledgered with the moderator who ended it, as a grant is), reset the level scores
    if asked, audit it; returns the ended season.

    SeasonError (nothing changes) while a hand of the economy is running."""

    async def tx(conn: Connection) -> Season:
        running = (await conn.execute(
            "SELECT COUNT(*) FROM hands WHERE economy = ? AND status = 'running'", (economy,)
        )).fetchone()[0]
        if running:
            raise SeasonError(int(running))
        number = 1 + (await conn.execute(
            "SELECT COALESCE(MAX(number), 0) FROM seasons WHERE economy = ?", (economy,)
        )).fetchone()[0]
        balances = (await conn.execute(
            "SELECT id, balance FROM players WHERE economy = ? AND id != 0 ORDER BY id"
            + conn.for_update,
            (economy,),
        )).fetchall()
        before = sum(int(b) for _, b in balances)
        season_id = (await conn.execute(
            "INSERT INTO seasons (economy, number, moderator_id, levels_reset, supply, ended_at)"
            " VALUES (?, ?, ?, ?, ?, ?) RETURNING id",
            (economy, number, moderator_id, int(reset_levels), before, now),
        )).fetchone()[0]
        await conn.execute(
            "INSERT INTO season_scores (season_id, game, rank, uid, score) "
            "SELECT CAST(? AS BIGINT), game, rank, uid, score FROM (SELECT game, uid, score, "
            "ROW_NUMBER() OVER (PARTITION BY game ORDER BY score DESC, uid) AS rank FROM scores "
            "WHERE economy = ?) AS ranked WHERE rank <= ?",
            (season_id, economy, SNAPSHOT_SIZE),
        )
        rows = []
        for uid, balance in balances:
            delta = starting_grant - int(balance)
            if delta:
                rows.append((uid, delta, starting_grant, moderator_id, now, economy))
        await conn.executemany(
            "UPDATE players SET balance = ? WHERE economy = ? AND id = ?",
            [(starting_grant, economy, uid) for uid, *_ in rows],
        )
        await conn.executemany(
            "INSERT INTO ledger (uid, delta, balance_after, reason, note, moderator_id, at, "
            f"economy) VALUES (?, ?, ?, 'season', 'season {number}', ?, ?, ?)",
            rows,
        )
        if reset_levels:
            await conn.execute("DELETE FROM scores WHERE economy = ?", (economy,))
        await conn.execute(
            "INSERT INTO players (id, economy, balance, created_at) VALUES (0, ?, 0, ?) "
            "ON CONFLICT (economy, id) DO NOTHING",
            (economy, now),
        )
        await conn.execute(
            "INSERT INTO audit (moderator_id, action, uid, amount, reason, at, economy) "
            "VALUES (?, 'season_end', 0, ?, ?, ?, ?)",
            (moderator_id, number, reason or ("levels reset" if reset_levels else "levels kept"),
             now, economy),
        )
        return Season(number, moderator_id, reset_levels, before, now)

    return await db.run(tx)


async def seasons(db: Storage, *, economy: int) -> list[Season]:
    """The economy's ended seasons, newest first."""

    async def read(conn: Connection) -> list[Season]:
        return [
            Season(n, m, bool(r), s, at)
            for n, m, r, s, at in await conn.execute(
                "SELECT number, moderator_id, levels_reset, supply, ended_at FROM seasons "
                "WHERE economy = ? ORDER BY number DESC",
                (economy,),
            )
        ]

    return await db.read(read)


async def season_board(db: Storage, number: int, game: str, *, economy: int
                       ) -> list[tuple[int, int]] | None:
    """The leaderboard of ``game`` as season ``number`` ended: [(uid, score)], best first;
    None if the economy has no such season."""

    async def read(conn: Connection) -> list[tuple[int, int]] | None:
        row = (await conn.execute(
            "SELECT id FROM seasons WHERE economy = ? AND number = ?", (economy, number)
        )).fetchone()
        if row is None:
            return None
        return [
            (int(u), int(s))
            for u, s in await conn.execute(
                "SELECT uid, score FROM season_scores WHERE season_id = ? AND game = ? "
                "ORDER BY rank",
                (row[0], game),
            )
        ]

    return await db.read(read)
