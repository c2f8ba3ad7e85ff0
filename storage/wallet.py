"""钱包: players' beans, escrow (带入) and settlement, with an append-only ledger, per economy.

Rules:

- An **economy** (wallet scope) is a server's id, or 0 for the one global economy. Balances,
  the ledger, the moderator audit, escrow, settlement, relief cooldowns, frozen flags, level
  scores and the house are all per economy: a ``Wallet`` is bound to one (``Wallet.scoped``),
  and nothing it does reads or changes another. A hand belongs to the economy of the wallet
  that opened it and is held and settled only there.
- Players are keyed by Discord user id (a positive int); id 0 is the economy's house, which
  receives the rake. The first time a wallet operation meets a player in an economy it creates
  the wallet and pays the starting grant, exactly once (ledgered ``grant:start``).
- Every balance change is arithmetic inside SQL (``UPDATE players SET balance = balance - ?
  WHERE economy = ? AND id = ? AND balance - held >= ?``, then the row count is checked) plus
  one ledger row (player, delta, balance after, reason, hand or moderator id, time), in one
  transaction. The ledger and the moderator audit log refuse UPDATE and DELETE (triggers).
- A balance never goes negative (and never below what is held), and never above
  ``MAX_BALANCE``: a grant that would pass it is refused (BalanceLimit), and settlement never
  pays a seat (or the house) past it. Amounts, coefficients, rakes, points and scores are
  bounded where they enter (AmountError), so no sum can overflow. There is no
  player-to-player transfer outside a hand's settlement.
- Escrow: ``hold`` moves free beans to held for one hand, all seats or none; held beans cannot
  be revoked or held again until the hand is settled or aborted; ``release`` (abort) returns
  exactly what was held and is idempotent.
- Settlement (``settle``) is one transaction per hand: the bean movements of
  ``storage.settlement`` (the pot rule, F1 with the 带入 and 以小博大 caps, or the hand's
  pairwise transfers in order), rake to the house, all holds of the hand released, level
  scores updated, the result stored on the hand. A second call returns the stored result and
  changes nothing; an aborted hand cannot be settled.
- A frozen player (冻结) cannot be escrowed or claim relief; moderators can still grant and
  revoke. A hand already running settles normally.
- 低保 (relief): a player whose balance is below the threshold may claim the relief amount once
  per cooldown.

Nothing here knows a game: games and rooms are plain strings.
"""

from __future__ import annotations

import json
import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Protocol

from storage.db import Connection, Storage
from storage.errors import (
    AmountError,
    BalanceLimit,
    HandStateError,
    InsufficientBeans,
    PlayerFrozen,
    ReliefError,
    StorageError,
    UnknownPlayer,
    show_number,
)
from storage.history import insert_hand
from storage.settlement import SeatAmounts, TransferResult, settle_amounts, settle_transfers

__all__ = [
    "GLOBAL",
    "HOUSE",
    "MAX_AMOUNT",
    "MAX_BALANCE",
    "MAX_POINTS",
    "Account",
    "AmountError",
    "AuditRow",
    "BalanceLimit",
    "HandStateError",
    "InsufficientBeans",
    "LedgerRow",
    "PlayerFrozen",
    "ReliefError",
    "SeatResult",
    "SeatSettlement",
    "Settlement",
    "Totals",
    "TransferResult",
    "UnknownPlayer",
    "Wallet",
]

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


class _ReliefSettings(Protocol):
    @property
    def amount(self) -> int: ...
    @property
    def threshold(self) -> int: ...
    @property
    def cooldown_seconds(self) -> float: ...


class _WalletSettings(Protocol):
    @property
    def starting_grant(self) -> int: ...
    @property
    def relief(self) -> _ReliefSettings: ...


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


async def _stored(conn: Connection, hand_id: int) -> Settlement:
    game, coefficient, rake, result, transfers, economy = (await conn.execute(
        "SELECT game, coefficient, rake, result, transfers, economy FROM hands WHERE id = ?",
        (hand_id,),
    )).fetchone()
    seats = tuple(SeatSettlement(**seat) for seat in json.loads(result))
    moved = tuple(TransferResult(*t) for t in json.loads(transfers or "[]"))
    house = sum(s.rake for s in seats)
    return Settlement(hand_id, game, coefficient, rake, seats, house, moved, economy, replayed=True)


def _clamp_score(score: int) -> int:
    return max(-MAX_POINTS, min(MAX_POINTS, score))


# --- the wallet -----------------------------------------------------------------------------


class Wallet:
    """The hall's bank over a :class:`Storage` (SQLite or PostgreSQL), bound to one economy; every method is one
    transaction.

    ``economy``: a server's id, or 0 (``GLOBAL``, the default) — see ``scoped``.
    ``relief_cooldown_s``: seconds between two relief claims. ``clock``: the time source for
    ledger timestamps (tests pass a fake).
    """

    def __init__(
        self,
        db: Storage,
        *,
        starting_grant: int,
        relief_amount: int,
        relief_threshold: int,
        relief_cooldown_s: float,
        clock: Callable[[], float] = time.time,
        economy: int = GLOBAL,
    ) -> None:
        self.db = db
        self.starting_grant = _amount(starting_grant, positive=False, what="starting_grant")
        self.relief_threshold = _amount(relief_threshold, positive=False, what="relief threshold")
        # below the threshold plus the relief must stay within a balance's limit
        self.relief_amount = _bounded(
            relief_amount, "relief amount", 0, MAX_BALANCE - self.relief_threshold
        )
        if relief_cooldown_s < 0:
            raise ValueError("relief_cooldown_s must be >= 0")
        self.relief_cooldown_s = float(relief_cooldown_s)
        self.clock = clock
        self.economy = _economy(economy)

    @classmethod
    def from_settings(
        cls, db: Storage, settings: _WalletSettings, *, clock: Callable[[], float] = time.time
    ) -> Wallet:
        """A wallet of the global economy configured from ``bot.settings.Settings`` (or
        anything shaped like it); ``scoped`` gives the wallet of another economy."""
        return cls(
            db,
            starting_grant=settings.starting_grant,
            relief_amount=settings.relief.amount,
            relief_threshold=settings.relief.threshold,
            relief_cooldown_s=settings.relief.cooldown_seconds,
            clock=clock,
        )

    def scoped(self, economy: int) -> Wallet:
        """经济体: the same wallet bound to ``economy`` (a server's id, or 0 = global).

        Cheap (no I/O); the economy comes into being with its first player. ValueError for
        an economy that is not a non-negative int.
        """
        economy = _economy(economy)
        if economy == self.economy:
            return self
        wallet = object.__new__(Wallet)
        wallet.__dict__.update(self.__dict__)
        wallet.economy = economy
        return wallet

    def __repr__(self) -> str:
        return f"<Wallet economy={self.economy} db={self.db.path}>"

    # --- players ----------------------------------------------------------------------------

    async def ensure_player(self, uid: int) -> bool:
        """Create ``uid``'s wallet with the starting grant if needed; True if it was created."""
        return await self.db.run(
            _ensure, self.economy, _uid(uid), self.starting_grant, self.clock()
        )

    async def account(self, uid: int) -> Account:
        """The wallet of ``uid``; UnknownPlayer if this economy has never seen them."""
        _uid(uid)
        economy = self.economy

        async def read(conn: Connection) -> Account:
            row = (await conn.execute(
                "SELECT balance, held, frozen FROM players WHERE economy = ? AND id = ?",
                (economy, uid),
            )).fetchone()
            if row is None:
                raise UnknownPlayer(uid)
            return Account(uid, row[0], row[1], row[0] - row[1], bool(row[2]))

        return await self.db.read(read)

    async def is_frozen(self, uid: int) -> bool:
        """True if ``uid``'s wallet is frozen (False for an unknown player)."""
        _uid(uid)
        economy = self.economy

        async def read(conn: Connection) -> bool:
            row = (await conn.execute(
                "SELECT frozen FROM players WHERE economy = ? AND id = ?", (economy, uid)
            )).fetchone()
            return bool(row and row[0])

        return await self.db.read(read)

    async def house_balance(self) -> int:
        """Beans the house has collected in rake in this economy."""
        economy = self.economy

        async def read(conn: Connection) -> int:
            return await _house(conn, economy)

        return await self.db.read(read)

    # --- moderator actions ------------------------------------------------------------------

    async def grant(self, uid: int, amount: int, reason: str, moderator_id: int) -> int:
        """发放: a moderator adds ``amount`` beans; returns the new balance (ledgered, audited).

        AmountError for an amount outside 1..MAX_AMOUNT; BalanceLimit if the balance would
        pass MAX_BALANCE (nothing changes).
        """
        uid, amount, moderator_id = _uid(uid), _amount(amount), _int(moderator_id, "moderator_id")
        now, grant, economy = self.clock(), self.starting_grant, self.economy

        async def tx(conn: Connection) -> int:
            await _ensure(conn, economy, uid, grant, now)
            rows = (await conn.execute(
                "UPDATE players SET balance = balance + ? WHERE economy = ? AND id = ? "
                "AND balance <= ? RETURNING balance",
                (amount, economy, uid, MAX_BALANCE - amount),
            )).fetchall()
            if len(rows) != 1:
                raise BalanceLimit(uid, (await _free(conn, economy, uid))[0], amount, MAX_BALANCE)
            balance = int(rows[0][0])
            await _log(
                conn,
                economy,
                uid,
                amount,
                balance,
                "grant:mod",
                now,
                moderator_id=moderator_id,
                note=reason,
            )
            await _audit(conn, economy, moderator_id, "grant", uid, amount, reason, now)
            return balance

        return await self.db.run(tx)

    async def revoke(self, uid: int, amount: int, reason: str, moderator_id: int) -> int:
        """收回: a moderator removes ``amount`` of the player's free (unheld) beans; returns the
        new balance. InsufficientBeans if fewer are free; held beans are never touched."""
        uid, amount, moderator_id = _uid(uid), _amount(amount), _int(moderator_id, "moderator_id")
        now, grant, economy = self.clock(), self.starting_grant, self.economy

        async def tx(conn: Connection) -> int:
            await _ensure(conn, economy, uid, grant, now)
            rows = (await conn.execute(
                "UPDATE players SET balance = balance - ? WHERE economy = ? AND id = ? "
                "AND balance - held >= ? RETURNING balance",
                (amount, economy, uid, amount),
            )).fetchall()
            if len(rows) != 1:
                balance, held, _ = await _free(conn, economy, uid)
                raise InsufficientBeans(uid, amount, balance - held)
            balance = int(rows[0][0])
            await _log(
                conn,
                economy,
                uid,
                -amount,
                balance,
                "revoke:mod",
                now,
                moderator_id=moderator_id,
                note=reason,
            )
            await _audit(conn, economy, moderator_id, "revoke", uid, amount, reason, now)
            return balance

        return await self.db.run(tx)

    async def set_frozen(self, uid: int, frozen: bool, moderator_id: int, reason: str = "") -> bool:
        """冻结/解冻: returns True if the state changed. Audited either way it is asked."""
        uid, moderator_id = _uid(uid), _int(moderator_id, "moderator_id")
        if not isinstance(frozen, bool):
            raise ValueError("frozen must be True or False")
        now, grant, economy = self.clock(), self.starting_grant, self.economy

        async def tx(conn: Connection) -> bool:
            await _ensure(conn, economy, uid, grant, now)
            changed = (await conn.execute(
                "UPDATE players SET frozen = ? WHERE economy = ? AND id = ? AND frozen != ?",
                (int(frozen), economy, uid, int(frozen)),
            )).rowcount
            action = "freeze" if frozen else "unfreeze"
            await _audit(conn, economy, moderator_id, action, uid, None, reason, now)
            return bool(changed)

        return await self.db.run(tx)

    async def log_moderation(
        self, moderator_id: int, action: str, uid: int | None = None, reason: str = ""
    ) -> None:
        """Audit a moderator action that moves no beans (close a table, kick a seat, set the
        moderator role); ``uid`` None records it against the house account (no player)."""
        target = HOUSE if uid is None else _uid(uid)
        now, grant, economy = self.clock(), self.starting_grant, self.economy

        async def tx(conn: Connection) -> None:
            if target == HOUSE:
                await _ensure_house(conn, economy, now)
            else:
                await _ensure(conn, economy, target, grant, now)
            await _audit(conn, economy, moderator_id, action, target, None, reason, now)

        await self.db.run(tx)

    async def audit(self, limit: int = 20) -> list[AuditRow]:
        """The latest moderator actions in this economy, newest first."""
        economy = self.economy

        async def read(conn: Connection) -> list[AuditRow]:
            return [
                AuditRow(*row)
                for row in await conn.execute(
                    "SELECT id, moderator_id, action, uid, amount, reason, at, economy FROM audit "
                    "WHERE economy = ? ORDER BY id DESC LIMIT ?",
                    (economy, int(limit)),
                )
            ]

        return await self.db.read(read)

    # --- relief -----------------------------------------------------------------------------

    async def claim_relief(self, uid: int, now: float | None = None) -> int:
        """领取低保: pay the relief amount if the balance is below the threshold and the cooldown
        has passed; returns the new balance. ReliefError says why not ("above threshold",
        "cooldown" with ``seconds_left``, or "frozen")."""
        uid = _uid(uid)
        at = self.clock() if now is None else float(now)
        amount, threshold = self.relief_amount, self.relief_threshold
        cooldown, grant, economy = self.relief_cooldown_s, self.starting_grant, self.economy

        async def tx(conn: Connection) -> int:
            await _ensure(conn, economy, uid, grant, at)
            rows = (await conn.execute(
                "UPDATE players SET balance = balance + ?, last_relief_at = ? "
                "WHERE economy = ? AND id = ? AND frozen = 0 AND balance < ? "
                "AND (last_relief_at IS NULL OR last_relief_at + ? <= ?) RETURNING balance",
                (amount, at, economy, uid, threshold, cooldown, at),
            )).fetchall()
            if len(rows) != 1:
                balance, frozen, last = (await conn.execute(
                    "SELECT balance, frozen, last_relief_at FROM players "
                    "WHERE economy = ? AND id = ?",
                    (economy, uid),
                )).fetchone()
                if frozen:
                    raise ReliefError(uid, "frozen")
                if balance >= threshold:
                    raise ReliefError(uid, "above threshold")
                raise ReliefError(uid, "cooldown", max(1, math.ceil(last + cooldown - at)))
            balance = int(rows[0][0])
            await _log(conn, economy, uid, amount, balance, "relief", at)
            return balance

        return await self.db.run(tx)

    # --- ledger -----------------------------------------------------------------------------

    async def ledger(self, uid: int, limit: int = 10) -> list[LedgerRow]:
        """The player's latest ledger rows in this economy, newest first (``uid`` 0: the
        house's)."""
        if uid != HOUSE:
            _uid(uid)
        economy = self.economy

        async def read(conn: Connection) -> list[LedgerRow]:
            rows = [
                LedgerRow(*row)
                for row in await conn.execute(
                    "SELECT id, uid, delta, balance_after, reason, hand_id, moderator_id, at, "
                    "note, economy FROM ledger WHERE economy = ? AND uid = ? "
                    "ORDER BY id DESC LIMIT ?",
                    (economy, uid, int(limit)),
                )
            ]
            if uid == HOUSE and conn.dialect == "postgresql":
                # the house's rows carry no balance: each one's is the total less what came
                # after it (the house's ledger sums to its balance)
                balance, out = await _house(conn, economy), []
                for row in rows:
                    out.append(replace(row, balance_after=balance))
                    balance -= row.delta
                return out
            return rows

        return await self.db.read(read)

    async def totals(self) -> Totals:
        """This economy's sums (see :class:`Totals`), exact however large."""
        economy = self.economy

        async def read(conn: Connection) -> Totals:
            where = "players WHERE economy = ? AND id != 0"
            players = await _sum(conn, "balance", where, (economy,))
            held = await _sum(conn, "held", where, (economy,))
            house = await _house(conn, economy)
            holds = await _sum(
                conn,
                "o.amount",
                "holds o JOIN hands h ON h.id = o.hand_id "
                "WHERE o.economy = ? AND h.status = 'running'",
                (economy,),
            )
            # entry fees of tournaments are held too (storage.tournaments)
            holds += await _sum(
                conn, "fee", "tournament_entries WHERE economy = ? AND status = 'held'",
                (economy,),
            )
            ledger = await _sum(conn, "delta", "ledger WHERE economy = ?", (economy,))
            return Totals(players, house, held, holds, ledger)

        return await self.db.read(read)

    # --- hands and escrow -------------------------------------------------------------------

    async def new_hand(
        self,
        game: str,
        room: str,
        guild_id: int,
        channel_id: int,
        *,
        seats: Sequence[int | None] = (),
    ) -> int:
        """开局: record a running hand in this economy; returns its id (its public code:
        ``history.hand_code``). ``seats``: uid per seat (None = bot), kept in the hand
        history until settlement records the final seats."""
        if not game or not room:
            raise ValueError("game and room must be non-empty")
        guild_id, channel_id = _int(guild_id, "guild_id"), _int(channel_id, "channel_id")
        seat_list = [None if s is None else _uid(s) for s in seats]
        now, economy = self.clock(), self.economy

        async def tx(conn: Connection) -> int:
            return await insert_hand(
                conn, game, room, guild_id, channel_id, json.dumps(seat_list), now, economy
            )

        return await self.db.run(tx)

    async def hold(self, hand_id: int, holds: Sequence[tuple[int, int]]) -> None:
        """带入: hold ``amount`` of each ``uid``'s free beans for the hand, all or nothing.

        Raises InsufficientBeans (naming the uid), PlayerFrozen, HandStateError (hand not
        running, of another economy, or the uid already holds beans for it), AmountError,
        and changes nothing.
        """
        hand_id = _int(hand_id, "hand_id")
        items = [(_uid(uid), _amount(amount, positive=False)) for uid, amount in holds]
        if len({uid for uid, _ in items}) != len(items):
            raise ValueError("a player appears twice in one hold")
        now, grant, economy = self.clock(), self.starting_grant, self.economy

        async def tx(conn: Connection) -> None:
            status, _, hand_economy = await _hand(conn, hand_id)
            if hand_economy != economy:
                raise _other_economy(hand_id, hand_economy, economy)
            if status != "running":
                raise HandStateError(hand_id, f"is {status}; no beans can be held for it")
            for uid, amount in items:
                await _ensure(conn, economy, uid, grant, now)
                if (await conn.execute(
                    "SELECT 1 FROM holds WHERE hand_id = ? AND uid = ?", (hand_id, uid)
                )).fetchone():
                    raise HandStateError(hand_id, f"player {uid} already carries beans into it")
                changed = (await conn.execute(
                    "UPDATE players SET held = held + ? "
                    "WHERE economy = ? AND id = ? AND frozen = 0 AND balance - held >= ?",
                    (amount, economy, uid, amount),
                )).rowcount
                if changed != 1:
                    balance, held, frozen = await _free(conn, economy, uid)
                    if frozen:
                        raise PlayerFrozen(uid)
                    raise InsufficientBeans(uid, amount, balance - held)
                await conn.execute(
                    "INSERT INTO holds (hand_id, uid, amount, economy) VALUES (?, ?, ?, ?)",
                    (hand_id, uid, amount, economy),
                )

        await self.db.run(tx)

    async def held(self, hand_id: int) -> dict[int, int]:
        """The beans each player still has held for the hand ({} once settled or aborted)."""

        async def read(conn: Connection) -> dict[int, int]:
            return dict(
                (await conn.execute(
                    "SELECT o.uid, o.amount FROM holds o JOIN hands h ON h.id = o.hand_id "
                    "WHERE o.hand_id = ? AND h.status = 'running'",
                    (hand_id,),
                )).fetchall()
            )

        return await self.db.read(read)

    async def release(self, hand_id: int, *, record: str = "") -> dict[int, int]:
        """中止: abort a running hand, releasing exactly what was held; returns {uid: amount}.

        The holds go back in the economy the hand was opened in, whichever wallet asks: an
        abort only returns escrow to its owners, and a hall restarted with another wallet
        scope must still be able to free its running hands.

        Idempotent: an aborted hand returns {}. A settled hand raises HandStateError.
        ``record``: the engine's record so far, kept in the hand history.
        """
        hand_id = _int(hand_id, "hand_id")
        now = self.clock()

        async def tx(conn: Connection) -> dict[int, int]:
            status, _, _ = await _hand(conn, hand_id)
            if status == "aborted":
                return {}
            if status == "settled":
                raise HandStateError(hand_id, "is settled; it cannot be aborted")
            holds = (await conn.execute(
                "SELECT uid, amount, economy FROM holds WHERE hand_id = ?", (hand_id,)
            )).fetchall()
            for uid, amount, economy in holds:
                if (
                    (await conn.execute(
                        "UPDATE players SET held = held - ? "
                        "WHERE economy = ? AND id = ? AND held >= ?",
                        (amount, economy, uid, amount),
                    )).rowcount
                    != 1
                ):  # pragma: no cover - would mean a corrupt escrow
                    raise StorageError(f"escrow of player {uid} is inconsistent")
            await conn.execute(
                "UPDATE hands SET status = 'aborted', ended_at = ?, "
                "record = CASE WHEN ? != '' THEN ? ELSE record END WHERE id = ?",
                (now, record, record, hand_id),
            )
            return {uid: amount for uid, amount, _ in holds}

        return await self.db.run(tx)

    async def settle(
        self,
        hand_id: int,
        game: str,
        seats: Sequence[SeatResult],
        coefficient: int,
        rake: int,
        record: str = "",
        outcome: str = "",
        *,
        transfers: Sequence[tuple[int, int, int]] = (),
        fees: Sequence[int] = (),
    ) -> Settlement:
        """结算: settle a running hand in one transaction (rules: ``storage.settlement``).

        ``seats``: one SeatResult per seat, in seat order. Every player with beans held for the
        hand must have a seat. ``transfers``: (payer seat, payee seat, points) in order, for a
        hand whose payments run between pairs (each seat's points must then be the net of
        the transfers); empty: the pot rule. ``fees``: beans per seat spent at the house during
        the hand (props), paid to the house after the rake; empty: none. Moves the beans, pays the rake to the house,
        releases all the hand's holds, adds each human seat's ``score`` to its level score
        for ``game``, and stores ``record``/``outcome``, every seat's result and the transfers
        on the hand. No balance (the house's included) is paid past MAX_BALANCE.

        Idempotent: settling a settled hand returns the stored result (``replayed`` True) and
        changes nothing. HandStateError for an unknown or aborted hand or one of another
        economy; ValueError (AmountError for numbers out of bounds) for bad input; nothing
        changes.
        """
        hand_id = _int(hand_id, "hand_id")
        coefficient = _amount(coefficient, positive=False, what="the coefficient")
        rake = _amount(rake, positive=False, what="the rake")
        results = [
            SeatResult(
                None if s.uid is None else _uid(s.uid),
                _bounded(s.points, "a seat's points", -MAX_POINTS, MAX_POINTS),
                _bounded(s.score, "a seat's score change", -MAX_POINTS, MAX_POINTS),
            )
            for s in seats
        ]
        if not results:
            raise ValueError("a hand has at least one seat")
        humans = [s.uid for s in results if s.uid is not None]
        if len(set(humans)) != len(humans):
            raise ValueError("a player sits twice in one hand")
        pairs = _transfers(transfers, results)
        spent = [_bounded(f, "a fee", 0, MAX_BALANCE) for f in fees] or None
        if spent is not None and len(spent) != len(results):
            raise ValueError("fees must give one amount per seat")
        now, grant, economy = self.clock(), self.starting_grant, self.economy

        async def tx(conn: Connection) -> Settlement:
            rows = (await conn.execute(
                "SELECT h.status, h.game, h.guild_id, h.economy, o.uid, o.amount FROM hands h "
                "LEFT JOIN holds o ON o.hand_id = h.id WHERE h.id = ?"
                + (conn.for_update and conn.for_update + " OF h"),
                (hand_id,),
            )).fetchall()
            if not rows:
                raise HandStateError(hand_id, "no such hand")
            status, hand_game, guild_id, hand_economy = rows[0][:4]
            if hand_economy != economy:
                raise _other_economy(hand_id, hand_economy, economy)
            if status == "settled":
                return await _stored(conn, hand_id)
            if status == "aborted":
                raise HandStateError(hand_id, "was aborted; it cannot be settled")
            if game != hand_game:
                raise ValueError(f"hand {hand_id} is a hand of {hand_game!r}, not {game[:40]!r}")
            holds = {uid: amount for *_, uid, amount in rows if uid is not None}
            unseated = sorted(set(holds) - set(humans))
            if unseated:
                raise ValueError(f"players {unseated} carry beans into hand {hand_id} unseated")
            for uid in humans:
                if uid not in holds:  # carried nothing (score-only room): may be a new player
                    await _ensure(conn, economy, uid, grant, now)
            # PostgreSQL: a few statements take arrays, one round trip each instead of one per
            # seat (SQLite runs cached one-row statements faster: no round trips there)
            pg = conn.dialect == "postgresql"
            if pg:
                await conn.execute(
                    "INSERT INTO guild_players (guild_id, uid) SELECT CAST(? AS BIGINT), "
                    "unnest(CAST(? AS BIGINT[])) ON CONFLICT DO NOTHING",
                    (guild_id, humans),
                )
            else:
                await conn.executemany(  # writes nothing for players the server already knows
                    "INSERT INTO guild_players (guild_id, uid) VALUES (?, ?) ON CONFLICT DO NOTHING",
                    [(guild_id, uid) for uid in humans],
                )
            seated = [(i, s.uid) for i, s in enumerate(results) if s.uid is not None]
            # Balances and scores before: the room each balance has below MAX_BALANCE. On
            # PostgreSQL the players' rows are locked here, by id (one order for every
            # transaction), and the house's row is neither read nor locked (see _house).
            before: dict[int, int] = {}
            score: dict[int, int] = {}
            found: Any
            if pg:
                found = await conn.execute(
                    "SELECT p.id, p.balance, s.score FROM players p LEFT JOIN scores s "
                    "ON s.economy = p.economy AND s.uid = p.id AND s.game = ? "
                    "WHERE p.economy = ? AND p.id = ANY(CAST(? AS BIGINT[])) "
                    "ORDER BY p.id" + conn.for_update + " OF p",
                    (game, economy, [uid for _, uid in seated]),
                )
            else:
                marks = ",".join("?" * (len(seated) + 1))
                found = await conn.execute(
                    "SELECT p.id, p.balance, s.score FROM players p LEFT JOIN scores s "
                    "ON s.economy = p.economy AND s.uid = p.id AND s.game = ? "
                    f"WHERE p.economy = ? AND p.id IN ({marks})",
                    [game, economy, HOUSE, *(uid for _, uid in seated)],
                )
            for pid, bal, points in found:
                before[pid], score[pid] = bal, points or 0
            held = [None if s.uid is None else holds.get(s.uid, 0) for s in results]
            room = [None if s.uid is None else MAX_BALANCE - before[s.uid] for s in results]
            # the house: its row on SQLite, read with the players; its counters on PostgreSQL
            house_before = (
                before.get(HOUSE, 0) if conn.dialect == "sqlite" else await _house(conn, economy)
            )
            house_room = MAX_BALANCE - house_before
            moved: list[int] = []
            if pairs:
                amounts, moved = settle_transfers(
                    held, pairs, coefficient, rake, room=room, house_room=house_room, fees=spent
                )
            else:
                amounts = settle_amounts(
                    [(h, s.points) for h, s in zip(held, results, strict=True)],
                    coefficient,
                    rake,
                    room=room,
                    house_room=house_room,
                    fees=spent,
                )
            # Beans: arithmetic in SQL, guarded so that nothing can overdraw a hold or pass the
            # limit.
            if pg:
                changed = (await conn.execute(
                    "UPDATE players AS p SET balance = p.balance + v.delta, held = p.held - v.held "
                    "FROM unnest(CAST(? AS BIGINT[]), CAST(? AS BIGINT[]), CAST(? AS BIGINT[])) "
                    "AS v(uid, delta, held) WHERE p.economy = ? AND p.id = v.uid "
                    "AND p.held >= v.held AND p.balance + v.delta >= 0 "
                    f"AND p.balance + v.delta <= {MAX_BALANCE:d}",
                    (
                        [uid for _, uid in seated],
                        [amounts[i].delta for i, _ in seated],
                        [holds.get(uid, 0) for _, uid in seated],
                        economy,
                    ),
                )).rowcount
            else:
                changed = (await conn.executemany(
                    "UPDATE players SET balance = balance + ?1, held = held - ?2 "
                    "WHERE economy = ?4 AND id = ?3 AND held >= ?2 AND balance + ?1 >= 0 "
                    f"AND balance + ?1 <= {MAX_BALANCE:d}",
                    [(amounts[i].delta, holds.get(uid, 0), uid, economy) for i, uid in seated],
                )).rowcount
            if changed != len(seated):  # pragma: no cover - the arithmetic respects both
                raise StorageError(f"settlement of hand {hand_id} would overdraw a player")
            house = sum(a.rake + a.fee for a in amounts)
            if house:
                await _credit_house(conn, economy, hand_id, house, now)
            # Level scores (积分): arithmetic in SQL too, kept within ±MAX_POINTS.
            await conn.executemany(
                "INSERT INTO scores (uid, game, score, economy) VALUES (?, ?, ?, ?) "
                "ON CONFLICT (economy, uid, game) DO UPDATE SET score = "
                f"CASE WHEN scores.score + excluded.score > {MAX_POINTS:d} THEN {MAX_POINTS:d} "
                f"WHEN scores.score + excluded.score < -{MAX_POINTS:d} THEN -{MAX_POINTS:d} "
                "ELSE scores.score + excluded.score END",
                [(uid, game, results[i].score, economy) for i, uid in seated],
            )
            seats_out: list[SeatSettlement] = []
            for i, result in enumerate(results):
                player = result.uid
                if player is None:
                    seats_out.append(
                        SeatSettlement(i, None, result.points, 0, 0, 0, None, None, None)
                    )
                    continue
                seats_out.append(
                    SeatSettlement(
                        i,
                        player,
                        result.points,
                        holds.get(player, 0),
                        amounts[i].rake,
                        amounts[i].delta,
                        before[player] + amounts[i].delta,
                        score[player],
                        _clamp_score(score[player] + result.score),
                    )
                )
            done = tuple(
                TransferResult(p, q, points, beans)
                for (p, q, points), beans in zip(pairs, moved, strict=True)
            )
            if pairs:
                ledger = _transfer_ledger(seats_out, amounts, done, before, hand_id, now)
            else:
                ledger = []
                for i, uid in seated:
                    a, balance = amounts[i], before[uid]
                    if a.fee:  # props bought during the hand, apart from the hand's result
                        balance -= a.fee
                        ledger.append((uid, -a.fee, balance, "hand:fee", "", hand_id, now))
                    if a.delta + a.fee:
                        balance += a.delta + a.fee
                        ledger.append((uid, a.delta + a.fee, balance, "hand", "", hand_id, now))
            raked, charged = sum(a.rake for a in amounts), sum(a.fee for a in amounts)
            # PostgreSQL ledgers the house's rows without a balance (Wallet.ledger derives it)
            sqlite = conn.dialect == "sqlite"
            if raked:
                after = house_before + raked if sqlite else None
                ledger.append((HOUSE, raked, after, "rake", "", hand_id, now))
            if charged:  # props bought during the hand: a bean sink, ledgered apart
                after = house_before + house if sqlite else None
                ledger.append((HOUSE, charged, after, "fee", "", hand_id, now))
            await conn.executemany(
                "INSERT INTO ledger (uid, delta, balance_after, reason, note, hand_id, at, "
                "economy) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                [(*row, economy) for row in ledger],
            )
            await conn.execute(
                "UPDATE hands SET status = 'settled', seats = ?, coefficient = ?, rake = ?, "
                "record = ?, outcome = ?, result = ?, transfers = ?, ended_at = ? WHERE id = ?",
                (
                    json.dumps([s.uid for s in results]),
                    coefficient,
                    rake,
                    record,
                    outcome,
                    _result_json(seats_out),
                    json.dumps([list(t) for t in done]) if pairs else None,
                    now,
                    hand_id,
                ),
            )
            return Settlement(
                hand_id, game, coefficient, rake, tuple(seats_out), house, done, economy
            )

        return await self.db.run(tx)


def _transfers(
    transfers: Sequence[tuple[int, int, int]], results: Sequence[SeatResult]
) -> list[tuple[int, int, int]]:
    """Check a hand's transfers against its seats: valid seats, points 1..MAX_POINTS, and each
    seat's points equal to the net of the transfers (ValueError naming what is wrong)."""
    seats = len(results)
    pairs: list[tuple[int, int, int]] = []
    net = [0] * seats
    for n, item in enumerate(transfers):
        try:
            payer, payee, points = item
        except (TypeError, ValueError):
            raise ValueError(
                f"transfer {n} must be (payer seat, payee seat, points), got {_show(item)}"
            ) from None
        for what, seat in (("payer", payer), ("payee", payee)):
            if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < seats:
                raise ValueError(
                    f"transfer {n}: the {what} must be a seat from 0 to {seats - 1}, "
                    f"got {_show(seat)}"
                )
        if payer == payee:
            raise ValueError(f"transfer {n}: seat {payer} cannot pay itself")
        points = _bounded(points, f"transfer {n}'s points", 1, MAX_POINTS)
        net[payer] -= points
        net[payee] += points
        pairs.append((payer, payee, points))
    if pairs:
        given = [s.points for s in results]
        if given != net:
            raise ValueError(f"the seats' points {given} are not the net of the transfers {net}")
    return pairs


def _transfer_ledger(
    seats: Sequence[SeatSettlement],
    amounts: Sequence[SeatAmounts],
    done: Sequence[TransferResult],
    before: dict[int, int],
    hand_id: int,
    now: float,
) -> list[tuple[int, int, int | None, str, str, int, float]]:
    """Itemized ledger rows of a hand settled by transfers: each seat's rake (hand:rake), then
    each transfer that moved beans, a hand:pay row for the payer and a hand:receive row for
    the payee, their notes naming the counterpart; balances after, row by row."""
    balance = dict(before)
    rows: list[tuple[int, int, int | None, str, str, int, float]] = []

    def row(uid: int, delta: int, reason: str, note: str) -> None:
        balance[uid] += delta
        rows.append((uid, delta, balance[uid], reason, note, hand_id, now))

    for seat, amount in zip(seats, amounts, strict=True):
        if seat.uid is not None and amount.rake:
            row(seat.uid, -amount.rake, "hand:rake", "")
        if seat.uid is not None and amount.fee:
            row(seat.uid, -amount.fee, "hand:fee", "")
    for t in done:
        payer, payee = seats[t.payer].uid, seats[t.payee].uid
        if t.beans and payer is not None and payee is not None:
            row(payer, -t.beans, "hand:pay", f"to seat {t.payee} (player {payee})")
            row(payee, t.beans, "hand:receive", f"from seat {t.payer} (player {payer})")
    return rows


async def economies_of(db: Storage, uid: int) -> list[tuple[int, Account]]:
    """Every economy where ``uid`` has a wallet (a server's id, or 0 = global), each with the
    wallet, by economy: what ``gamehall wallet`` lists when no server is named."""
    _uid(uid)

    async def read(conn: Connection) -> list[tuple[int, Account]]:
        rows = await conn.execute(
            "SELECT economy, balance, held, frozen FROM players WHERE id = ? ORDER BY economy",
            (uid,),
        )
        return [(int(e), Account(uid, b, h, b - h, bool(f))) for e, b, h, f in rows]

    return await db.read(read)
