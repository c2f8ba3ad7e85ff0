"""Storage: players, wallet, escrow, settlement, levels, hand history — on SQLite (one file,
the default) or PostgreSQL (several processes), one interface.

A small async API keyed by ints, never Discord objects, and naming no game::

    db = await open_database(settings.database, synchronous=settings.synchronous)
    wallet = Wallet.from_settings(db, settings).scoped(settings.economy(guild_id))
    hand = await wallet.new_hand(game, room, guild_id, channel_id, seats=uids)
    await wallet.hold(hand, [(uid, carry), ...])            # 带入, all or nothing
    result = await wallet.settle(hand, game, [SeatResult(uid, points, score), ...], n, a,
                                 transfers=[(payer, payee, points), ...])  # or none: the pot
    code = await history.hand_code(db, hand)                 # what /replay takes
    await db.close()

Every wallet is bound to one economy (a server's id, or 0 for the global one); levels take
``economy=`` as a keyword.

Modules: ``db`` (the storage interface, the SQLite adapter, migrations), ``postgres`` (the
PostgreSQL adapter), ``wallet`` (beans, escrow, settlement), ``settlement`` (the pure
arithmetic), ``levels``, ``history``, ``tables``, ``guilds``, ``seats`` (one seat per person,
hall-wide), ``errors``. The rules are in each
module's docstring and in docs/storage.md.
"""

from storage.db import Database, Storage, open_database
from storage.errors import (
    AmountError,
    BalanceLimit,
    HandStateError,
    InsufficientBeans,
    PlayerFrozen,
    ReliefError,
    SchemaError,
    StorageError,
    UnknownPlayer,
    WalletError,
)
from storage.wallet import (
    GLOBAL,
    HOUSE,
    MAX_BALANCE,
    Account,
    SeatResult,
    SeatSettlement,
    Settlement,
    TransferResult,
    Wallet,
)

__all__ = [
    "GLOBAL",
    "HOUSE",
    "MAX_BALANCE",
    "Account",
    "AmountError",
    "BalanceLimit",
    "Database",
    "HandStateError",
    "InsufficientBeans",
    "PlayerFrozen",
    "ReliefError",
    "SchemaError",
    "SeatResult",
    "SeatSettlement",
    "Settlement",
    "Storage",
    "StorageError",
    "TransferResult",
    "UnknownPlayer",
    "Wallet",
    "WalletError",
    "open_database",
]
