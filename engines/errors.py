"""Errors raised by engines; ``str()`` of each is a message a player can read (in English),
and ``text`` is the same message as a translatable ``engines.base.Text``."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # engines.base imports this module: no runtime import the other way
    from engines.base import Text


class GameError(ValueError):
    """Base class of every error an engine raises on bad input.

    ``text``: the message as a ``Text`` whose key is in the game's catalogue
    (``GameSpec.texts``, which includes ``engines.base.BASE_TEXTS``), for the bot to show
    in the player's language; None if the raiser gave none. ``str()`` stays English.
    """

    def __init__(self, message: str, *, text: Text | None = None) -> None:
        super().__init__(message)
        self.text = text


class NotationError(GameError):
    """记法错误: text that is not a valid card, play, move or action.

    ``typed`` is what the player typed, ``reason`` says what is wrong with it.
    """

    def __init__(self, typed: str, reason: str, *, text: Text | None = None) -> None:
        self.typed = typed
        self.reason = reason
        super().__init__(f"cannot read {typed!r}: {reason}", text=text)


class IllegalActionError(GameError):
    """违规操作: a well-formed action that the rules do not allow now.

    ``seat`` is the acting seat (or None), ``action`` the action as typed or parsed,
    ``reason`` the rule that forbids it.
    """

    def __init__(
        self,
        reason: str,
        *,
        seat: int | None = None,
        action: str | None = None,
        text: Text | None = None,
    ) -> None:
        self.reason = reason
        self.seat = seat
        self.action = action
        prefix = f"{action!r} is not allowed: " if action else ""
        super().__init__(prefix + reason, text=text)


class OptionError(GameError):
    """A game option (from a room's settings) that is unknown or out of range."""

    def __init__(self, key: str, reason: str, *, text: Text | None = None) -> None:
        self.key = key
        self.reason = reason
        super().__init__(f"option {key!r}: {reason}", text=text)
