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
- Settlement (``settle``) is one atomic change per hand (``storage.settling``: a transaction on
  SQLite, one statement on PostgreSQL): the bean movements of
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

import math
import time
from collections.abc import Callable, Collection, Sequence
from dataclasses import replace
from typing import Protocol

from storage.accounts import (
    GLOBAL,
    HOUSE,
    HOUSE_SHARDS,
    MAX_AMOUNT,
    MAX_BALANCE,
    MAX_POINTS,
    Account,
    AuditRow,
    LedgerRow,
    SeatResult,
    SeatSettlement,
    Settlement,
    Totals,
    _amount,
    _audit,
    _bounded,
    _economy,
    _ensure,
    _ensure_house,
    _free,
    _house,
    _int,
    _log,
    _sum,
    _uid,
)
from storage.db import Connection, Storage
from storage.errors import (
    AmountError,
    BalanceLimit,
    HandStateError,
    InsufficientBeans,
    PlayerFrozen,
    ReliefError,
    UnknownPlayer,
)
from storage.escrow import HandDesk
from storage.settlement import TransferResult

__all__ = [
    "GLOBAL",
    "HOUSE",
    "HOUSE_SHARDS",
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
    "economies_of",
]


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


class Wallet(HandDesk):
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

    async def accounts(self, uids: Collection[int], *, ensure: bool = False
                       ) -> dict[int, Account]:
        """The wallets of ``uids`` in one transaction (one read of them all). ``ensure``:
        first create, with the starting grant, those this economy has not seen (as
        ``ensure_player``); without it, UnknownPlayer for the first unknown uid."""
        wanted = sorted({_uid(uid) for uid in uids})
        economy, grant, now = self.economy, self.starting_grant, self.clock()

        async def tx(conn: Connection) -> dict[int, Account]:
            if ensure:
                for uid in wanted:
                    await _ensure(conn, economy, uid, grant, now)
            found: dict[int, Account] = {}
            for chunk in _chunks(wanted):
                rows = await conn.execute(
                    "SELECT id, balance, held, frozen FROM players WHERE economy = ? AND id IN ("
                    + ", ".join("?" * len(chunk)) + ")",
                    (economy, *chunk),
                )
                for uid, balance, held, frozen in rows:
                    found[int(uid)] = Account(int(uid), balance, held, balance - held,
                                              bool(frozen))
            for uid in wanted:
                if uid not in found:
                    raise UnknownPlayer(uid)
            return found

        return await (self.db.run(tx) if ensure else self.db.read(tx))

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


def _chunks(uids: Sequence[int], size: int = 500) -> list[Sequence[int]]:
    """``uids`` in slices of at most ``size`` (the placeholders of one ``IN (...)``)."""
    return [uids[i : i + size] for i in range(0, len(uids), size)]
