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


def show_number(value: int) -> str:
    """A number as a reader sees it: digits grouped by thousands, or its size when huge.

    >>> show_number(1000000000000000)
    '1,000,000,000,000,000'
    >>> show_number(-10**40)
    'a negative number of 41 digits'

    (Python refuses to print integers of more than 4,300 digits; a message must not fail.)
    """
    if abs(value) < 10**30:
        return f"{value:,}"
    digits = len(str(abs(value))) if value.bit_length() < 14_000 else None
    size = f"{digits} digits" if digits else f"about {int(value.bit_length() * 0.30103)} digits"
    return f"a {'negative ' if value < 0 else ''}number of {size}"


class AmountError(WalletError, ValueError):
    """An amount, coefficient, rake or number of points outside what the hall can hold; the
    message names the quantity and its bounds."""

    def __init__(self, what: str, value: object, low: int, high: int) -> None:
        self.what = what
        self.value = value
        self.low = low
        self.high = high
        if isinstance(value, int) and not isinstance(value, bool):
            shown = show_number(value)
        else:
            shown = repr(value)[:40]
        super().__init__(
            f"{what} must be a whole number from {show_number(low)} to {show_number(high)}, "
            f"got {shown}"
        )


class BalanceLimit(WalletError):
    """余额上限: the change would take ``uid``'s balance past the hall's maximum ``limit``."""

    def __init__(self, uid: int, balance: int, amount: int, limit: int) -> None:
        self.uid = uid
        self.balance = balance
        self.amount = amount
        self.limit = limit
        super().__init__(
            f"player {uid} holds {show_number(balance)} beans; adding {show_number(amount)} "
            f"would pass the hall's limit of {show_number(limit)} beans per balance"
        )
