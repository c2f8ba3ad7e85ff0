"""记牌: what one seat of a trick game (升级, 打滚子) knows from the table — the cards it has not seen, the suits each
seat has shown void, and whether a part can still be beaten (the trustee's memory).

Only what the seat could know is derived: the cards it has not seen are the other hands plus
the kitty (the kitty owner saw its kitty), which is exactly the deck less its own hand and the
cards played; voids come from the action log (a seat that did not follow the led suit holds
none of it).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from engines.base import ESCAPE
from engines.errors import NotationError
from engines.memo import memoized
from engines.trick.cards import NCARDS, Context, key_top, parse_ids


class Shape(Protocol):
    """A part of a play as the games' patterns describe it: ``width``-fold cards, ``length``
    adjacent orders, ``top`` the highest order."""

    @property
    def width(self) -> int: ...
    @property
    def length(self) -> int: ...
    @property
    def top(self) -> int: ...


class Table(Protocol):
    """What a trick game's hand shows a seat's memory: the hands (counts), the kitty and who
    took it, the log and the trump context."""

    @property
    def hands(self) -> Sequence[Sequence[int]]: ...
    @property
    def kitty(self) -> Sequence[int]: ...
    @property
    def kitty_owner(self) -> int | None: ...
    @property
    def log(self) -> Sequence[tuple[int, str]]: ...
    @property
    def ctx(self) -> Context: ...

_NOT_PLAYS = frozenset({"declare", "pass", "bury", "counter", "show", "return", ESCAPE})
"""The verbs of the actions that are not plays (升级's and 打滚子's)."""


@dataclass(frozen=True)
class Seen:
    """``unseen[id]``: copies ``seat`` has not seen (in other hands or the hidden kitty);
    ``voids[s]``: effective suits seat ``s`` has shown it lacks."""

    seat: int
    unseen: tuple[int, ...]
    voids: tuple[frozenset[int], ...]
    ctx: Context

    @classmethod
    def of(cls, game: Table, seat: int) -> Seen:
        """What ``seat`` of a 升级 hand knows."""
        hidden = game.kitty if game.kitty_owner != seat else []
        return cls.build(seat, game.hands, hidden, game.log, game.ctx)

    @classmethod
    def build(cls, seat: int, hands: Sequence[Sequence[int]], hidden: Sequence[int],
              log: Sequence[tuple[int, str]], ctx: Context) -> Seen:
        """From the hands (counts), the kitty cards ``seat`` has not seen and the action log."""
        unseen = [0] * NCARDS
        for s in range(4):
            if s != seat:
                for c, k in enumerate(hands[s]):
                    unseen[c] += k
        for c in hidden:
            unseen[c] += 1
        voids = tuple(frozenset(v) for v in _voids(log, ctx))
        return cls(seat, tuple(unseen), voids, ctx)

    def suit_unseen(self, suit: int) -> list[int]:
        """The unseen ids (with repeats) of effective ``suit``."""
        ctx = self.ctx
        return [c for c, k in enumerate(self.unseen) if k and ctx.eff[c] == suit
                for _ in range(k)]

    def is_master(self, comp: Shape, suit: int) -> bool:
        """No unseen part of ``comp``'s shape in ``suit`` is higher (the shape can still be
        ruffed when ``suit`` is a side suit)."""
        top = key_top(self.suit_unseen(suit), self.ctx, comp.width, comp.length)
        return top is None or top <= comp.top

    def opponents_void(self, suit: int) -> bool:
        return any(suit in self.voids[s] for s in range(4) if s % 2 != self.seat % 2)

    def partner_void(self, suit: int) -> bool:
        return suit in self.voids[(self.seat + 2) % 4]


@memoized(4096)
def _ids(text: str) -> tuple[int, ...] | None:
    """A logged play's cards (memoized: the log is read at every decision)."""
    try:
        return tuple(parse_ids(text))
    except NotationError:
        return None


def _voids(log: Sequence[tuple[int, str]], ctx: Context) -> list[set[int]]:
    """Per seat, the effective suits it did not follow (read from the log's plays)."""
    voids: list[set[int]] = [set() for _ in range(4)]
    trick: list[tuple[int, tuple[int, ...]]] = []
    for seat, text in log:
        if text.split(None, 1)[0].lower() in _NOT_PLAYS:
            continue
        ids = _ids(text)
        if ids is None:  # an entry of the host's (an offer): not a play
            continue
        trick.append((seat, ids))
        if len(trick) > 1:
            suit = ctx.eff[trick[0][1][0]]
            if any(ctx.eff[c] != suit for c in ids):
                voids[seat].add(suit)
        if len(trick) == 4:
            trick = []
    return voids
