"""Storage: players, wallet, escrow, settlement, levels, hand history (aiosqlite, one file).

A small async API keyed by ints, never Discord objects, and naming no game::

    db = await Database.open(settings.database, synchronous=settings.synchronous)
    wallet = Wallet.from_settings(db, settings)
    hand = await wallet.new_hand(game, room, guild_id, channel_id, seats=uids)
    await wallet.hold(hand, [(uid, carry), ...])            # 带入, all or nothing
    result = await wallet.settle(hand, game, [SeatResult(uid, points, score), ...], n, a)
    await db.close()

Modules: ``db`` (connection, transactions, migrations), ``wallet`` (beans, escrow,
settlement), ``settlement`` (the pure arithmetic), ``levels``, ``history``, ``tables``,
``guilds``, ``errors``. The rules are in each module's docstring and in docs/storage.md.
"""

from storage.db import Database
from storage.errors import (
    HandStateError,
    InsufficientBeans,
    PlayerFrozen,
    ReliefError,
    SchemaError,
    StorageError,
    UnknownPlayer,
    WalletError,
)
from storage.wallet import HOUSE, Account, SeatResult, SeatSettlement, Settlement, Wallet

__all__ = [
    "HOUSE",
    "Account",
    "Database",
    "HandStateError",
    "InsufficientBeans",
    "PlayerFrozen",
    "ReliefError",
    "SchemaError",
    "SeatResult",
    "SeatSettlement",
    "Settlement",
    "StorageError",
    "UnknownPlayer",
    "Wallet",
    "WalletError",
]
