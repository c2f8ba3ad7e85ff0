"""Errors raised by storage; ``str()`` of each is a message fit to show a player or an admin."""

from __future__ import annotations


class StorageError(Exception):
    """Base class of every error storage raises on purpose."""


class SchemaError(StorageError):
    """The database file's schema is newer than this code, or the migrations are broken."""


class WalletError(StorageError):
    """A wallet operation that the rules refuse; nothing was changed."""


class UnknownPlayer(WalletError):
    """No player with this id (storage creates players only through ``Wallet.ensure_player``
    or a change to their wallet)."""

    def __init__(self, uid: int) -> None:
        self.uid = uid
        super().__init__(f"player {uid} has no wallet yet")


class InsufficientBeans(WalletError):
    """豆不足: ``uid`` has ``free`` unheld beans but ``needed`` were asked for."""

    def __init__(self, uid: int, needed: int, free: int) -> None:
        self.uid = uid
        self.needed = needed
        self.free = free
        super().__init__(f"player {uid} has {free} free beans, {needed} needed")


class PlayerFrozen(WalletError):
    """冻结: a frozen wallet cannot be escrowed or claim relief."""

    def __init__(self, uid: int) -> None:
        self.uid = uid
        super().__init__(f"player {uid}'s wallet is frozen")


class ReliefError(WalletError):
    """低保 refused: ``reason`` is "above threshold", "cooldown" (``seconds_left`` > 0) or
    "frozen"."""

    def __init__(self, uid: int, reason: str, seconds_left: int = 0) -> None:
        self.uid = uid
        self.reason = reason
        self.seconds_left = seconds_left
        detail = f" ({seconds_left} s left)" if reason == "cooldown" else ""
        super().__init__(f"relief refused for player {uid}: {reason}{detail}")


class HandStateError(WalletError):
    """The hand does not exist, or its state (running/settled/aborted) forbids the operation."""

    def __init__(self, hand_id: int, problem: str) -> None:
        self.hand_id = hand_id
        self.problem = problem
        super().__init__(f"hand {hand_id}: {problem}")
