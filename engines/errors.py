"""Errors raised by engines; ``str()`` of each is a message a player can read."""

from __future__ import annotations


class GameError(ValueError):
    """Base class of every error an engine raises on bad input."""


class NotationError(GameError):
    """记法错误: text that is not a valid card, play, move or action.

    ``text`` is what the player typed, ``reason`` says what is wrong with it.
    """

    def __init__(self, text: str, reason: str) -> None:
        self.text = text
        self.reason = reason
        super().__init__(f"cannot read {text!r}: {reason}")


class IllegalActionError(GameError):
    """违规操作: a well-formed action that the rules do not allow now.

    ``seat`` is the acting seat (or None), ``action`` the action as typed or parsed,
    ``reason`` the rule that forbids it.
    """

    def __init__(self, reason: str, *, seat: int | None = None, action: str | None = None) -> None:
        self.reason = reason
        self.seat = seat
        self.action = action
        prefix = f"{action!r} is not allowed: " if action else ""
        super().__init__(prefix + reason)


class OptionError(GameError):
    """A game option (from a room's settings) that is unknown or out of range."""

    def __init__(self, key: str, reason: str) -> None:
        self.key = key
        self.reason = reason
        super().__init__(f"option {key!r}: {reason}")
