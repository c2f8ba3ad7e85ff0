"""带入与结算: a wallet's hands — open one, hold beans for it, release them (abort), settle it.

The part of :class:`storage.wallet.Wallet` that deals with hands (the rules are in that
module's docstring); the settlement's transaction itself is ``storage.settling``.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence

from storage import settling
from storage.accounts import (
    SeatResult,
    Settlement,
    _amount,
    _ensure,
    _free,
    _hand,
    _int,
    _other_economy,
    _uid,
)
from storage.db import Connection, Storage
from storage.errors import HandStateError, InsufficientBeans, PlayerFrozen, StorageError
from storage.history import insert_hand


class HandDesk:
    """开局, 带入, 中止, 结算 of one economy's hands (a base of ``Wallet``, which sets the
    attributes below)."""

    db: Storage
    economy: int
    starting_grant: int
    clock: Callable[[], float]

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

        return await self.db.run_autocommit(tx)

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
            if conn.dialect == "postgresql":  # the same steps as one statement (migration 0003)
                try:
                    await conn.execute(
                        "SELECT gamehall_hold(?, ?, ?, ?, CAST(? AS BIGINT[]), CAST(? AS BIGINT[]))",
                        (
                            hand_id,
                            economy,
                            grant,
                            now,
                            [u for u, _ in items],
                            [a for _, a in items],
                        ),
                    )
                except getattr(conn, "refused") as exc:  # noqa: B009 - PostgreSQL's alone
                    raise _refused(exc, hand_id, economy, dict(items)) from None
                return
            status, _, hand_economy = await _hand(conn, hand_id)
            if hand_economy != economy:
                raise _other_economy(hand_id, hand_economy, economy)
            if status != "running":
                raise HandStateError(hand_id, f"is {status}; no beans can be held for it")
            for uid, amount in items:
                await _ensure(conn, economy, uid, grant, now)
                if (
                    await conn.execute(
                        "SELECT 1 FROM holds WHERE hand_id = ? AND uid = ?", (hand_id, uid)
                    )
                ).fetchone():
                    raise HandStateError(hand_id, f"player {uid} already carries beans into it")
                changed = (
                    await conn.execute(
                        "UPDATE players SET held = held + ? "
                        "WHERE economy = ? AND id = ? AND frozen = 0 AND balance - held >= ?",
                        (amount, economy, uid, amount),
                    )
                ).rowcount
                if changed != 1:
                    balance, held, frozen = await _free(conn, economy, uid)
                    if frozen:
                        raise PlayerFrozen(uid)
                    raise InsufficientBeans(uid, amount, balance - held)
                await conn.execute(
                    "INSERT INTO holds (hand_id, uid, amount, economy) VALUES (?, ?, ?, ?)",
                    (hand_id, uid, amount, economy),
                )

        await self.db.run_autocommit(tx)

    async def held(self, hand_id: int) -> dict[int, int]:
        """The beans each player still has held for the hand ({} once settled or aborted)."""

        async def read(conn: Connection) -> dict[int, int]:
            return dict(
                (
                    await conn.execute(
                        "SELECT o.uid, o.amount FROM holds o JOIN hands h ON h.id = o.hand_id "
                        "WHERE o.hand_id = ? AND h.status = 'running'",
                        (hand_id,),
                    )
                ).fetchall()
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
            holds = (
                await conn.execute(
                    "SELECT uid, amount, economy FROM holds WHERE hand_id = ?", (hand_id,)
                )
            ).fetchall()
            for uid, amount, economy in holds:
                if (
                    await conn.execute(
                        "UPDATE players SET held = held - ? "
                        "WHERE economy = ? AND id = ? AND held >= ?",
                        (amount, economy, uid, amount),
                    )
                ).rowcount != 1:  # pragma: no cover - would mean a corrupt escrow
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
        asked = settling.request(
            hand_id,
            game,
            seats,
            coefficient,
            rake,
            record,
            outcome,
            transfers,
            fees,
            economy=self.economy,
            grant=self.starting_grant,
            now=self.clock(),
        )
        # PostgreSQL: two round trips, no BEGIN/COMMIT (see storage.settling); SQLite: one
        # transaction as always
        return await self.db.run_autocommit(settling.settle_hand, asked)


def _refused(exc: Exception, hand_id: int, economy: int, amounts: dict[int, int]) -> Exception:
    """The error a refused ``gamehall_hold`` stands for (its HINT names the reason, its DETAIL
    the figures), as the statement-by-statement hold raises it; any other error as it is."""
    reason, detail = getattr(exc, "hint", None), str(getattr(exc, "detail", None) or "")
    if not isinstance(reason, str):
        return exc
    if reason == "no hand":
        return HandStateError(hand_id, "no such hand")
    if reason == "economy":
        return _other_economy(hand_id, int(detail), economy)
    if reason == "status":
        return HandStateError(hand_id, f"is {detail}; no beans can be held for it")
    uid, *free = (int(n) for n in detail.split())
    if reason == "holds":
        return HandStateError(hand_id, f"player {uid} already carries beans into it")
    if reason == "frozen":
        return PlayerFrozen(uid)
    return InsufficientBeans(uid, amounts[uid], free[0])
