"""账户: the wallet's constants, value types, input checks and the SQL steps its operations share.

Everything here runs inside one storage transaction (``Storage.run``) or checks an argument
before one starts; ``storage.wallet`` (the API), ``storage.escrow`` (hands, holds, release)
and ``storage.settling`` (the settlement transaction) are built from these pieces. The rules
are in ``storage.wallet``'s docstring.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field

from storage.db import Connection
from storage.errors import AmountError, HandStateError, UnknownPlayer, show_number
from storage.settlement import TransferResult

HOUSE = 0
"""The house account's id (in every economy): it receives every rake."""

GLOBAL = 0
"""The global economy (``wallet_scope = "global"``, and every wallet of a hall from before
economies existed)."""

MAX_BALANCE = 10**15
"""余额上限: the most beans one balance (the house's included) may hold — a thousand million
million, far above any room's stakes and far below SQLite's 2^63 ≈ 9.2·10^18, so that even the
sum of thousands of full balances is exact."""

MAX_AMOUNT = MAX_BALANCE
"""The largest amount (grant, revoke, hold, coefficient, rake, relief) one operation accepts."""

MAX_POINTS = 10**15
"""The largest |points| or |score change| a seat may bring to settlement."""


# --- values ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Account:
    """A wallet: ``balance`` = ``held`` (escrowed at tables) + ``free``."""

    uid: int
    balance: int
    held: int
    free: int
    frozen: bool


@dataclass(frozen=True)
class LedgerRow:
    """One balance change. ``reason``: grant:start, grant:mod, revoke:mod, relief, hand, rake,
    and for hands settled by transfers hand:rake, hand:pay, hand:receive (``note`` names the
    counterpart seat and player)."""

    id: int
    uid: int
    delta: int
    balance_after: int
    reason: str
    hand_id: int | None
    moderator_id: int | None
    at: float
    note: str = ""
    economy: int = GLOBAL


@dataclass(frozen=True)
class AuditRow:
    """One moderator action: ``action`` is grant, revoke, freeze, unfreeze (or a table action
    logged by ``log_moderation``)."""

    id: int
    moderator_id: int
    action: str
    uid: int
    amount: int | None
    reason: str
    at: float
    economy: int = GLOBAL


@dataclass(frozen=True)
class SeatResult:
    """A seat's result from the game: ``uid`` (None = a bot), points X, level-score change."""

    uid: int | None
    points: int
    score: int = 0


@dataclass(frozen=True)
class SeatSettlement:
    """A seat after settlement: beans ``delta`` (rake included), ``balance`` after, the level
    score before and after. Bots have ``uid``/``balance``/scores None and delta 0."""

    seat: int
    uid: int | None
    points: int
    held: int
    rake: int
    delta: int
    balance: int | None
    score_before: int | None
    score_after: int | None


@dataclass(frozen=True)
class Settlement:
    """A settled hand: every seat's result and the ``house`` total (the rake collected).

    ``transfers``: for a hand settled pair by pair, each transfer as asked with the ``beans``
    it actually moved, in order (empty for the pot rule). ``replayed`` is True when a repeated
    ``settle`` returned the stored result.
    """

    hand_id: int
    game: str
    coefficient: int
    rake: int
    seats: tuple[SeatSettlement, ...]
    house: int
    transfers: tuple[TransferResult, ...] = ()
    economy: int = GLOBAL
    replayed: bool = field(default=False, compare=False)

    def of(self, uid: int) -> SeatSettlement | None:
        """The seat of player ``uid``, or None."""
        return next((s for s in self.seats if s.uid == uid), None)


@dataclass(frozen=True)
class Totals:
    """Sums over one economy, for audits: ``ledger == players + house`` and
    ``held == open_holds`` always hold."""

    players: int
    house: int
    held: int
    open_holds: int
    ledger: int


# --- validation -----------------------------------------------------------------------------


def _show(value: object) -> str:
    """``value`` for an error message: short, and never failing on a huge int."""
    if isinstance(value, int) and not isinstance(value, bool):
        return show_number(value)
    return repr(value)[:40]


def _uid(uid: object) -> int:
    if not isinstance(uid, int) or isinstance(uid, bool) or uid <= 0:
        raise ValueError(f"a player id is a positive integer, got {_show(uid)}")
    return uid


def _bounded(value: object, what: str, low: int, high: int) -> int:
    """``value`` if it is an int in [low, high], else AmountError naming ``what``."""
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise AmountError(what, value, low, high)
    return value


def _amount(amount: object, *, positive: bool = True, what: str = "an amount") -> int:
    return _bounded(amount, what, 1 if positive else 0, MAX_AMOUNT)


def _int(value: object, what: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise ValueError(f"{what} must be an integer, got {_show(value)}")
    return value


def _economy(economy: object) -> int:
    if not isinstance(economy, int) or isinstance(economy, bool) or economy < 0:
        raise ValueError(f"an economy is a server id or 0 (global), got {_show(economy)}")
    return economy


async def _sum(conn: Connection, column: str, rest: str, args: Sequence[object]) -> int:
    """SUM(column) over ``FROM rest``, exact however large: SQLite's SUM raises on 64-bit
    overflow, so it adds the high and low parts separately (a = (a / 10^9)·10^9 + a % 10^9)."""
    high, low = (await conn.execute(
        f"SELECT COALESCE(SUM({column} / 1000000000), 0), COALESCE(SUM({column} % 1000000000), 0) "
        f"FROM {rest}",
        args,
    )).fetchone()
    return int(high) * 1_000_000_000 + int(low)


# --- SQL steps (run on the database thread, inside a transaction) ------------------------------


async def _ensure(conn: Connection, economy: int, uid: int, grant: int, now: float) -> bool:
    """Create ``uid``'s wallet in ``economy`` with the starting grant if it has none; True if
    created."""
    created = (await conn.execute(
        "INSERT INTO players (id, economy, balance, created_at) VALUES (?, ?, ?, ?) "
        "ON CONFLICT (economy, id) DO NOTHING",
        (uid, economy, grant, now),
    )).rowcount
    if created and grant:
        await _log(conn, economy, uid, grant, grant, "grant:start", now)
    return bool(created)


async def _log(
    conn: Connection,
    economy: int,
    uid: int,
    delta: int,
    balance_after: int,
    reason: str,
    now: float,
    *,
    hand_id: int | None = None,
    moderator_id: int | None = None,
    note: str = "",
) -> None:
    await conn.execute(
        "INSERT INTO ledger (uid, delta, balance_after, reason, note, hand_id, moderator_id, at,"
        " economy) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (uid, delta, balance_after, reason, note, hand_id, moderator_id, now, economy),
    )


async def _audit(
    conn: Connection,
    economy: int,
    moderator_id: int,
    action: str,
    uid: int,
    amount: int | None,
    reason: str,
    now: float,
) -> None:
    await conn.execute(
        "INSERT INTO audit (moderator_id, action, uid, amount, reason, at, economy) "
        "VALUES (?,?,?,?,?,?,?)",
        (moderator_id, action, uid, amount, reason, now, economy),
    )


async def _free(conn: Connection, economy: int, uid: int) -> tuple[int, int, bool]:
    """(balance, held, frozen) of an existing player."""
    row = (await conn.execute(
        "SELECT balance, held, frozen FROM players WHERE economy = ? AND id = ?", (economy, uid)
    )).fetchone()
    if row is None:  # pragma: no cover - callers ensure the player first
        raise UnknownPlayer(uid)
    return int(row[0]), int(row[1]), bool(row[2])


async def _ensure_house(conn: Connection, economy: int, now: float) -> None:
    await conn.execute(
        "INSERT INTO players (id, economy, balance, created_at) VALUES (0, ?, 0, ?) "
        "ON CONFLICT (economy, id) DO NOTHING",
        (economy, now),
    )


HOUSE_SHARDS = 16
"""PostgreSQL: counter rows the house's rake is spread over (a settlement adds to one, picked
by its hand id), so that concurrent settlements do not all wait on one row."""


async def _house(conn: Connection, economy: int) -> int:
    """The house's balance in ``economy``: its row on SQLite; on PostgreSQL the sum of its rake
    counters (it equals the sum of the house's ledger rows; see ``HOUSE_SHARDS``)."""
    if conn.dialect == "postgresql":
        return await _sum(conn, "beans", "house_rake WHERE economy = ?", (economy,))
    return await _sum(conn, "balance", "players WHERE economy = ? AND id = 0", (economy,))


async def _credit_house(conn: Connection, economy: int, hand_id: int, beans: int,
                        now: float) -> None:
    """Add ``beans`` to the house of ``economy`` (SQLite: its row; PostgreSQL: a counter)."""
    if conn.dialect == "postgresql":
        # the house's row must exist for its ledger rows (inserting nothing takes no lock)
        await conn.execute(
            "WITH house AS (INSERT INTO players (id, economy, balance, created_at) "
            "VALUES (0, ?1, 0, ?4) ON CONFLICT (economy, id) DO NOTHING) "
            "INSERT INTO house_rake (economy, shard, beans) VALUES (?1, ?2, ?3) "
            "ON CONFLICT (economy, shard) DO UPDATE SET beans = house_rake.beans + excluded.beans",
            (economy, hand_id % HOUSE_SHARDS, beans, now),
        )
        return
    await conn.execute(
        "INSERT INTO players (id, economy, balance, created_at) VALUES (0, ?, ?, ?) "
        "ON CONFLICT (economy, id) DO UPDATE SET balance = players.balance + excluded.balance",
        (economy, beans, now),
    )


async def _hand(conn: Connection, hand_id: int) -> tuple[str, str, int]:
    """(status, game, economy) of a hand, locked until the transaction ends (PostgreSQL: the
    hand's row is the first lock every change of a hand takes); HandStateError if none."""
    row = (await conn.execute(
        "SELECT status, game, economy FROM hands WHERE id = ?" + conn.for_update, (hand_id,)
    )).fetchone()
    if row is None:
        raise HandStateError(hand_id, "no such hand")
    return str(row[0]), str(row[1]), int(row[2])


def _other_economy(hand_id: int, hand_economy: int, economy: int) -> HandStateError:
    return HandStateError(
        hand_id, f"belongs to economy {hand_economy}, not to this wallet's economy {economy}"
    )


_RESULT_FIELDS = tuple(SeatSettlement.__dataclass_fields__)


def _result_json(seats: Sequence[SeatSettlement]) -> str:
    """The hand row's ``result``: one object per seat, keys as in SeatSettlement."""
    return json.dumps([{k: getattr(s, k) for k in _RESULT_FIELDS} for s in seats])


def _stored_settlement(
    hand_id: int, game: str, coefficient: int, rake: int, result: str, transfers: str | None,
    economy: int,
) -> Settlement:
    """A settled hand's result as stored on its row (``replayed`` True)."""
    seats = tuple(SeatSettlement(**seat) for seat in json.loads(result))
    moved = tuple(TransferResult(*t) for t in json.loads(transfers or "[]"))
    house = sum(s.rake for s in seats)
    return Settlement(hand_id, game, coefficient, rake, seats, house, moved, economy, replayed=True)


async def _stored(conn: Connection, hand_id: int) -> Settlement:
    row = (await conn.execute(
        "SELECT game, coefficient, rake, result, transfers, economy FROM hands WHERE id = ?",
        (hand_id,),
    )).fetchone()
    return _stored_settlement(hand_id, *row)


def _clamp_score(score: int) -> int:
    return max(-MAX_POINTS, min(MAX_POINTS, score))
