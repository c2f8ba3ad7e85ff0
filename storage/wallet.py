"""钱包: players' beans, escrow (带入) and settlement, with an append-only ledger.

Rules:

- Players are keyed by Discord user id (a positive int); id 0 is the house, which receives
  the rake. The first time a wallet operation meets a player it creates the wallet and pays
  the starting grant, exactly once (ledgered ``grant:start``).
- Every balance change is arithmetic inside SQL (``UPDATE players SET balance = balance - ?
  WHERE id = ? AND balance - held >= ?``, then the row count is checked) plus one ledger row
  (player, delta, balance after, reason, hand or moderator id, time), in one transaction. The
  ledger and the moderator audit log refuse UPDATE and DELETE (triggers).
- A balance never goes negative (and never below what is held): the checks above, and CHECK
  constraints in the schema as a second line. There is no player-to-player transfer.
- Escrow: ``hold`` moves free beans to held for one hand, all seats or none; held beans cannot
  be revoked or held again until the hand is settled or aborted; ``release`` (abort) returns
  exactly what was held and is idempotent.
- Settlement (``settle``) is one transaction per hand: the bean movements of
  ``storage.settlement`` (F1 with the 带入 and 以小博大 caps, rake to the house), all holds of the
  hand released, level scores updated, the result stored on the hand. A second call returns
  the stored result and changes nothing; an aborted hand cannot be settled.
- A frozen player (冻结) cannot be escrowed or claim relief; moderators can still grant and
  revoke. A hand already running settles normally.
- 低保 (relief): a player whose balance is below the threshold may claim the relief amount once
  per cooldown.

Nothing here knows a game: games and rooms are plain strings.
"""

from __future__ import annotations

import json
import math
import sqlite3
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from storage.db import Database
from storage.errors import (
    HandStateError,
    InsufficientBeans,
    PlayerFrozen,
    ReliefError,
    StorageError,
    UnknownPlayer,
)
from storage.settlement import settle_amounts

__all__ = [
    "HOUSE",
    "MAX_AMOUNT",
    "Account",
    "AuditRow",
    "HandStateError",
    "InsufficientBeans",
    "LedgerRow",
    "PlayerFrozen",
    "ReliefError",
    "SeatResult",
    "SeatSettlement",
    "Settlement",
    "Totals",
    "UnknownPlayer",
    "Wallet",
]

HOUSE = 0
"""The house account's id: it receives every rake."""

MAX_AMOUNT = 10**15
"""Largest amount one operation may move (keeps every sum far inside SQLite's 64 bits)."""


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
    """One balance change. ``reason``: grant:start, grant:mod, revoke:mod, relief, hand, rake."""

    id: int
    uid: int
    delta: int
    balance_after: int
    reason: str
    hand_id: int | None
    moderator_id: int | None
    at: float
    note: str = ""


@dataclass(frozen=True)
class AuditRow:
    """One moderator action: ``action`` is grant, revoke, freeze or unfreeze."""

    id: int
    moderator_id: int
    action: str
    uid: int
    amount: int | None
    reason: str
    at: float


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

    ``replayed`` is True when a repeated ``settle`` returned the stored result.
    """

    hand_id: int
    game: str
    coefficient: int
    rake: int
    seats: tuple[SeatSettlement, ...]
    house: int
    replayed: bool = field(default=False, compare=False)

    def of(self, uid: int) -> SeatSettlement | None:
        """The seat of player ``uid``, or None."""
        return next((s for s in self.seats if s.uid == uid), None)


@dataclass(frozen=True)
class Totals:
    """Sums over the whole database, for audits: ``ledger == players + house`` and
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


def _uid(uid: object) -> int:
    if not isinstance(uid, int) or isinstance(uid, bool) or uid <= 0:
        raise ValueError(f"a player id is a positive integer, got {uid!r}")
    return uid


def _amount(amount: object, *, positive: bool = True) -> int:
    if not isinstance(amount, int) or isinstance(amount, bool):
        raise ValueError(f"an amount is an integer, got {amount!r}")
    if amount < (1 if positive else 0) or amount > MAX_AMOUNT:
        low = 1 if positive else 0
        raise ValueError(f"an amount must be between {low} and {MAX_AMOUNT}, got {amount}")
    return amount


def _int(value: object, what: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise ValueError(f"{what} must be an integer, got {value!r}")
    return value


# --- SQL steps (run on the database thread, inside a transaction) ------------------------------


def _ensure(conn: sqlite3.Connection, uid: int, grant: int, now: float) -> bool:
    """Create ``uid``'s wallet with the starting grant if it has none; True if created."""
    created = conn.execute(
        "INSERT INTO players (id, balance, created_at) VALUES (?, ?, ?) "
        "ON CONFLICT (id) DO NOTHING",
        (uid, grant, now),
    ).rowcount
    if created and grant:
        _log(conn, uid, grant, grant, "grant:start", now)
    return bool(created)


def _log(
    conn: sqlite3.Connection,
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
    conn.execute(
        "INSERT INTO ledger (uid, delta, balance_after, reason, note, hand_id, moderator_id, at)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        (uid, delta, balance_after, reason, note, hand_id, moderator_id, now),
    )


def _audit(
    conn: sqlite3.Connection,
    moderator_id: int,
    action: str,
    uid: int,
    amount: int | None,
    reason: str,
    now: float,
) -> None:
    conn.execute(
        "INSERT INTO audit (moderator_id, action, uid, amount, reason, at) VALUES (?,?,?,?,?,?)",
        (moderator_id, action, uid, amount, reason, now),
    )


def _free(conn: sqlite3.Connection, uid: int) -> tuple[int, int, bool]:
    """(balance, held, frozen) of an existing player."""
    row = conn.execute("SELECT balance, held, frozen FROM players WHERE id = ?", (uid,)).fetchone()
    if row is None:  # pragma: no cover - callers ensure the player first
        raise UnknownPlayer(uid)
    return int(row[0]), int(row[1]), bool(row[2])


def _hand(conn: sqlite3.Connection, hand_id: int) -> tuple[str, str]:
    """(status, game) of a hand; HandStateError if there is none."""
    row = conn.execute("SELECT status, game FROM hands WHERE id = ?", (hand_id,)).fetchone()
    if row is None:
        raise HandStateError(hand_id, "no such hand")
    return str(row[0]), str(row[1])


_RESULT_FIELDS = tuple(SeatSettlement.__dataclass_fields__)


def _result_json(seats: Sequence[SeatSettlement]) -> str:
    """The hand row's ``result``: one object per seat, keys as in SeatSettlement."""
    return json.dumps([{k: getattr(s, k) for k in _RESULT_FIELDS} for s in seats])


def _stored(conn: sqlite3.Connection, hand_id: int) -> Settlement:
    game, coefficient, rake, result = conn.execute(
        "SELECT game, coefficient, rake, result FROM hands WHERE id = ?", (hand_id,)
    ).fetchone()
    seats = tuple(SeatSettlement(**seat) for seat in json.loads(result))
    return Settlement(
        hand_id, game, coefficient, rake, seats, sum(s.rake for s in seats), replayed=True
    )


# --- the wallet -----------------------------------------------------------------------------


class Wallet:
    """The hall's bank over a :class:`Database`; every method is one transaction.

    ``relief_cooldown_s``: seconds between two relief claims. ``clock``: the time source for
    ledger timestamps (tests pass a fake).
    """

    def __init__(
        self,
        db: Database,
        *,
        starting_grant: int,
        relief_amount: int,
        relief_threshold: int,
        relief_cooldown_s: float,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.db = db
        self.starting_grant = _amount(starting_grant, positive=False)
        self.relief_amount = _amount(relief_amount, positive=False)
        self.relief_threshold = _amount(relief_threshold, positive=False)
        if relief_cooldown_s < 0:
            raise ValueError("relief_cooldown_s must be >= 0")
        self.relief_cooldown_s = float(relief_cooldown_s)
        self.clock = clock

    @classmethod
    def from_settings(
        cls, db: Database, settings: _WalletSettings, *, clock: Callable[[], float] = time.time
    ) -> Wallet:
        """A wallet configured from ``bot.settings.Settings`` (or anything shaped like it)."""
        return cls(
            db,
            starting_grant=settings.starting_grant,
            relief_amount=settings.relief.amount,
            relief_threshold=settings.relief.threshold,
            relief_cooldown_s=settings.relief.cooldown_seconds,
            clock=clock,
        )

    # --- players ----------------------------------------------------------------------------

    async def ensure_player(self, uid: int) -> bool:
        """Create ``uid``'s wallet with the starting grant if needed; True if it was created."""
        return await self.db.run(_ensure, _uid(uid), self.starting_grant, self.clock())

    async def account(self, uid: int) -> Account:
        """The wallet of ``uid``; UnknownPlayer if the hall has never seen them."""
        _uid(uid)

        def read(conn: sqlite3.Connection) -> Account:
            row = conn.execute(
                "SELECT balance, held, frozen FROM players WHERE id = ?", (uid,)
            ).fetchone()
            if row is None:
                raise UnknownPlayer(uid)
            return Account(uid, row[0], row[1], row[0] - row[1], bool(row[2]))

        return await self.db.read(read)

    async def is_frozen(self, uid: int) -> bool:
        """True if ``uid``'s wallet is frozen (False for an unknown player)."""
        _uid(uid)

        def read(conn: sqlite3.Connection) -> bool:
            row = conn.execute("SELECT frozen FROM players WHERE id = ?", (uid,)).fetchone()
            return bool(row and row[0])

        return await self.db.read(read)

    async def house_balance(self) -> int:
        """Beans the house has collected in rake."""

        def read(conn: sqlite3.Connection) -> int:
            return int(conn.execute("SELECT balance FROM players WHERE id = 0").fetchone()[0])

        return await self.db.read(read)

    # --- moderator actions ------------------------------------------------------------------

    async def grant(self, uid: int, amount: int, reason: str, moderator_id: int) -> int:
        """发放: a moderator adds ``amount`` beans; returns the new balance (ledgered, audited)."""
        uid, amount, moderator_id = _uid(uid), _amount(amount), _int(moderator_id, "moderator_id")
        now, grant = self.clock(), self.starting_grant

        def tx(conn: sqlite3.Connection) -> int:
            _ensure(conn, uid, grant, now)
            (balance,) = conn.execute(
                "UPDATE players SET balance = balance + ? WHERE id = ? RETURNING balance",
                (amount, uid),
            ).fetchall()[0]
            _log(
                conn, uid, amount, balance, "grant:mod", now, moderator_id=moderator_id, note=reason
            )
            _audit(conn, moderator_id, "grant", uid, amount, reason, now)
            return int(balance)

        return await self.db.run(tx)

    async def revoke(self, uid: int, amount: int, reason: str, moderator_id: int) -> int:
        """收回: a moderator removes ``amount`` of the player's free (unheld) beans; returns the
        new balance. InsufficientBeans if fewer are free; held beans are never touched."""
        uid, amount, moderator_id = _uid(uid), _amount(amount), _int(moderator_id, "moderator_id")
        now, grant = self.clock(), self.starting_grant

        def tx(conn: sqlite3.Connection) -> int:
            _ensure(conn, uid, grant, now)
            rows = conn.execute(
                "UPDATE players SET balance = balance - ? WHERE id = ? AND balance - held >= ? "
                "RETURNING balance",
                (amount, uid, amount),
            ).fetchall()
            if len(rows) != 1:
                balance, held, _ = _free(conn, uid)
                raise InsufficientBeans(uid, amount, balance - held)
            balance = int(rows[0][0])
            _log(
                conn,
                uid,
                -amount,
                balance,
                "revoke:mod",
                now,
                moderator_id=moderator_id,
                note=reason,
            )
            _audit(conn, moderator_id, "revoke", uid, amount, reason, now)
            return balance

        return await self.db.run(tx)

    async def set_frozen(self, uid: int, frozen: bool, moderator_id: int, reason: str = "") -> bool:
        """冻结/解冻: returns True if the state changed. Audited either way it is asked."""
        uid, moderator_id = _uid(uid), _int(moderator_id, "moderator_id")
        if not isinstance(frozen, bool):
            raise ValueError("frozen must be True or False")
        now, grant = self.clock(), self.starting_grant

        def tx(conn: sqlite3.Connection) -> bool:
            _ensure(conn, uid, grant, now)
            changed = conn.execute(
                "UPDATE players SET frozen = ? WHERE id = ? AND frozen != ?",
                (int(frozen), uid, int(frozen)),
            ).rowcount
            _audit(conn, moderator_id, "freeze" if frozen else "unfreeze", uid, None, reason, now)
            return bool(changed)

        return await self.db.run(tx)

    async def log_moderation(
        self, moderator_id: int, action: str, uid: int | None = None, reason: str = ""
    ) -> None:
        """Audit a moderator action that moves no beans (close a table, kick a seat, set the
        moderator role); ``uid`` None records it against the house account (no player)."""
        target = HOUSE if uid is None else _uid(uid)
        now, grant = self.clock(), self.starting_grant

        def tx(conn: sqlite3.Connection) -> None:
            if target != HOUSE:
                _ensure(conn, target, grant, now)
            _audit(conn, moderator_id, action, target, None, reason, now)

        await self.db.run(tx)

    async def audit(self, limit: int = 20) -> list[AuditRow]:
        """The latest moderator actions, newest first."""

        def read(conn: sqlite3.Connection) -> list[AuditRow]:
            return [
                AuditRow(*row)
                for row in conn.execute(
                    "SELECT id, moderator_id, action, uid, amount, reason, at FROM audit "
                    "ORDER BY id DESC LIMIT ?",
                    (int(limit),),
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
        cooldown, grant = self.relief_cooldown_s, self.starting_grant

        def tx(conn: sqlite3.Connection) -> int:
            _ensure(conn, uid, grant, at)
            rows = conn.execute(
                "UPDATE players SET balance = balance + ?, last_relief_at = ? "
                "WHERE id = ? AND frozen = 0 AND balance < ? "
                "AND (last_relief_at IS NULL OR last_relief_at + ? <= ?) RETURNING balance",
                (amount, at, uid, threshold, cooldown, at),
            ).fetchall()
            if len(rows) != 1:
                balance, frozen, last = conn.execute(
                    "SELECT balance, frozen, last_relief_at FROM players WHERE id = ?", (uid,)
                ).fetchone()
                if frozen:
                    raise ReliefError(uid, "frozen")
                if balance >= threshold:
                    raise ReliefError(uid, "above threshold")
                raise ReliefError(uid, "cooldown", max(1, math.ceil(last + cooldown - at)))
            balance = int(rows[0][0])
            _log(conn, uid, amount, balance, "relief", at)
            return balance

        return await self.db.run(tx)

    # --- ledger -----------------------------------------------------------------------------

    async def ledger(self, uid: int, limit: int = 10) -> list[LedgerRow]:
        """The player's latest ledger rows, newest first (``uid`` 0: the house's)."""
        if uid != HOUSE:
            _uid(uid)

        def read(conn: sqlite3.Connection) -> list[LedgerRow]:
            return [
                LedgerRow(*row)
                for row in conn.execute(
                    "SELECT id, uid, delta, balance_after, reason, hand_id, moderator_id, at, "
                    "note FROM ledger WHERE uid = ? ORDER BY id DESC LIMIT ?",
                    (uid, int(limit)),
                )
            ]

        return await self.db.read(read)

    async def totals(self) -> Totals:
        """Whole-database sums (see :class:`Totals`)."""

        def read(conn: sqlite3.Connection) -> Totals:
            players, held = conn.execute(
                "SELECT COALESCE(SUM(balance), 0), COALESCE(SUM(held), 0) FROM players "
                "WHERE id != 0"
            ).fetchone()
            house = conn.execute("SELECT balance FROM players WHERE id = 0").fetchone()[0]
            holds = conn.execute(
                "SELECT COALESCE(SUM(o.amount), 0) FROM holds o "
                "JOIN hands h ON h.id = o.hand_id WHERE h.status = 'running'"
            ).fetchone()[0]
            ledger = conn.execute("SELECT COALESCE(SUM(delta), 0) FROM ledger").fetchone()[0]
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
        """开局: record a running hand; returns its id. ``seats``: uid per seat (None = bot),
        kept in the hand history until settlement records the final seats."""
        if not game or not room:
            raise ValueError("game and room must be non-empty")
        guild_id, channel_id = _int(guild_id, "guild_id"), _int(channel_id, "channel_id")
        seat_list = [None if s is None else _uid(s) for s in seats]
        now = self.clock()

        def tx(conn: sqlite3.Connection) -> int:
            cur = conn.execute(
                "INSERT INTO hands (game, room, guild_id, channel_id, seats, started_at) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                (game, room, guild_id, channel_id, json.dumps(seat_list), now),
            )
            return int(cur.lastrowid or 0)

        return await self.db.run(tx)

    async def hold(self, hand_id: int, holds: Sequence[tuple[int, int]]) -> None:
        """带入: hold ``amount`` of each ``uid``'s free beans for the hand, all or nothing.

        Raises InsufficientBeans (naming the uid), PlayerFrozen, HandStateError (hand not
        running, or the uid already holds beans for it) and changes nothing.
        """
        hand_id = _int(hand_id, "hand_id")
        items = [(_uid(uid), _amount(amount, positive=False)) for uid, amount in holds]
        if len({uid for uid, _ in items}) != len(items):
            raise ValueError("a player appears twice in one hold")
        now, grant = self.clock(), self.starting_grant

        def tx(conn: sqlite3.Connection) -> None:
            status, _ = _hand(conn, hand_id)
            if status != "running":
                raise HandStateError(hand_id, f"is {status}; no beans can be held for it")
            for uid, amount in items:
                _ensure(conn, uid, grant, now)
                if conn.execute(
                    "SELECT 1 FROM holds WHERE hand_id = ? AND uid = ?", (hand_id, uid)
                ).fetchone():
                    raise HandStateError(hand_id, f"player {uid} already carries beans into it")
                changed = conn.execute(
                    "UPDATE players SET held = held + ? "
                    "WHERE id = ? AND frozen = 0 AND balance - held >= ?",
                    (amount, uid, amount),
                ).rowcount
                if changed != 1:
                    balance, held, frozen = _free(conn, uid)
                    if frozen:
                        raise PlayerFrozen(uid)
                    raise InsufficientBeans(uid, amount, balance - held)
                conn.execute(
                    "INSERT INTO holds (hand_id, uid, amount) VALUES (?, ?, ?)",
                    (hand_id, uid, amount),
                )

        await self.db.run(tx)

    async def held(self, hand_id: int) -> dict[int, int]:
        """The beans each player still has held for the hand ({} once settled or aborted)."""

        def read(conn: sqlite3.Connection) -> dict[int, int]:
            return dict(
                conn.execute(
                    "SELECT o.uid, o.amount FROM holds o JOIN hands h ON h.id = o.hand_id "
                    "WHERE o.hand_id = ? AND h.status = 'running'",
                    (hand_id,),
                ).fetchall()
            )

        return await self.db.read(read)

    async def release(self, hand_id: int, *, record: str = "") -> dict[int, int]:
        """中止: abort a running hand, releasing exactly what was held; returns {uid: amount}.

        Idempotent: an aborted hand returns {}. A settled hand raises HandStateError.
        ``record``: the engine's record so far, kept in the hand history.
        """
        hand_id = _int(hand_id, "hand_id")
        now = self.clock()

        def tx(conn: sqlite3.Connection) -> dict[int, int]:
            status, _ = _hand(conn, hand_id)
            if status == "aborted":
                return {}
            if status == "settled":
                raise HandStateError(hand_id, "is settled; it cannot be aborted")
            holds = conn.execute(
                "SELECT uid, amount FROM holds WHERE hand_id = ?", (hand_id,)
            ).fetchall()
            for uid, amount in holds:
                if (
                    conn.execute(
                        "UPDATE players SET held = held - ? WHERE id = ? AND held >= ?",
                        (amount, uid, amount),
                    ).rowcount
                    != 1
                ):  # pragma: no cover - would mean a corrupt escrow
                    raise StorageError(f"escrow of player {uid} is inconsistent")
            conn.execute(
                "UPDATE hands SET status = 'aborted', ended_at = ?, "
                "record = CASE WHEN ? != '' THEN ? ELSE record END WHERE id = ?",
                (now, record, record, hand_id),
            )
            return dict(holds)

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
    ) -> Settlement:
        """结算: settle a running hand in one transaction (rules: ``storage.settlement``).

        ``seats``: one SeatResult per seat, in seat order. Every player with beans held for the
        hand must have a seat. Moves the beans, pays the rake to the house, releases all the
        hand's holds, adds each human seat's ``score`` to its level score for ``game``, and
        stores ``record``/``outcome`` and every seat's result on the hand.

        Idempotent: settling a settled hand returns the stored result (``replayed`` True) and
        changes nothing. HandStateError for an unknown or aborted hand; ValueError for bad
        input (nothing changes).
        """
        hand_id = _int(hand_id, "hand_id")
        coefficient, rake = _amount(coefficient, positive=False), _amount(rake, positive=False)
        results = [
            SeatResult(
                None if s.uid is None else _uid(s.uid),
                _int(s.points, "points"),
                _int(s.score, "score"),
            )
            for s in seats
        ]
        if not results:
            raise ValueError("a hand has at least one seat")
        humans = [s.uid for s in results if s.uid is not None]
        if len(set(humans)) != len(humans):
            raise ValueError("a player sits twice in one hand")
        now, grant = self.clock(), self.starting_grant

        def tx(conn: sqlite3.Connection) -> Settlement:
            rows = conn.execute(
                "SELECT h.status, h.game, h.guild_id, o.uid, o.amount FROM hands h "
                "LEFT JOIN holds o ON o.hand_id = h.id WHERE h.id = ?",
                (hand_id,),
            ).fetchall()
            if not rows:
                raise HandStateError(hand_id, "no such hand")
            status, hand_game, guild_id = rows[0][0], rows[0][1], rows[0][2]
            if status == "settled":
                return _stored(conn, hand_id)
            if status == "aborted":
                raise HandStateError(hand_id, "was aborted; it cannot be settled")
            if game != hand_game:
                raise ValueError(f"hand {hand_id} is a hand of {hand_game!r}, not {game!r}")
            holds = {uid: amount for *_, uid, amount in rows if uid is not None}
            unseated = sorted(set(holds) - set(humans))
            if unseated:
                raise ValueError(f"players {unseated} carry beans into hand {hand_id} unseated")
            for uid in humans:
                if uid not in holds:  # carried nothing (score-only room): may be a new player
                    _ensure(conn, uid, grant, now)
            conn.executemany(  # writes nothing for players the server already knows
                "INSERT OR IGNORE INTO guild_players (guild_id, uid) VALUES (?, ?)",
                [(guild_id, uid) for uid in humans],
            )
            amounts = settle_amounts(
                [(None if s.uid is None else holds.get(s.uid, 0), s.points) for s in results],
                coefficient,
                rake,
            )
            seated = [(i, s.uid) for i, s in enumerate(results) if s.uid is not None]
            # Beans: arithmetic in SQL, guarded so that nothing can overdraw a hold.
            moved = conn.executemany(
                "UPDATE players SET balance = balance + ?1, held = held - ?2 "
                "WHERE id = ?3 AND held >= ?2 AND balance + ?1 >= 0",
                [(amounts[i].delta, holds.get(uid, 0), uid) for i, uid in seated],
            ).rowcount
            if moved != len(seated):  # pragma: no cover - a seat never loses more than held
                raise StorageError(f"settlement of hand {hand_id} would overdraw a player")
            house = sum(a.rake for a in amounts)
            if house:
                conn.execute("UPDATE players SET balance = balance + ? WHERE id = 0", (house,))
            # Level scores (积分): arithmetic in SQL too.
            conn.executemany(
                "INSERT INTO scores (uid, game, score) VALUES (?, ?, ?) "
                "ON CONFLICT (uid, game) DO UPDATE SET score = score + excluded.score",
                [(uid, game, results[i].score) for i, uid in seated],
            )
            # Read back what SQL computed: balances after, and scores after (before = after − Δ).
            marks = ",".join("?" * (len(seated) + 1))
            balance: dict[int, int] = {}
            after: dict[int, int] = {}
            for pid, bal, score in conn.execute(
                "SELECT p.id, p.balance, s.score FROM players p LEFT JOIN scores s "
                f"ON s.uid = p.id AND s.game = ? WHERE p.id IN ({marks})",
                [game, HOUSE, *(uid for _, uid in seated)],
            ):
                balance[pid], after[pid] = bal, score
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
                        balance[player],
                        after[player] - result.score,
                        after[player],
                    )
                )
            ledger = [
                (s.uid, s.delta, s.balance, "hand", hand_id, now)
                for s in seats_out
                if s.uid is not None and s.delta
            ]
            if house:
                ledger.append((HOUSE, house, balance[HOUSE], "rake", hand_id, now))
            conn.executemany(
                "INSERT INTO ledger (uid, delta, balance_after, reason, hand_id, at) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                ledger,
            )
            conn.execute(
                "UPDATE hands SET status = 'settled', seats = ?, coefficient = ?, rake = ?, "
                "record = ?, outcome = ?, result = ?, ended_at = ? WHERE id = ?",
                (
                    json.dumps([s.uid for s in results]),
                    coefficient,
                    rake,
                    record,
                    outcome,
                    _result_json(seats_out),
                    now,
                    hand_id,
                ),
            )
            return Settlement(hand_id, game, coefficient, rake, tuple(seats_out), house)

        return await self.db.run(tx)
