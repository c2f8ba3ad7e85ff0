"""一局王炸跑胡子: one hand of 王炸跑胡子 (003) as a pure state machine.

Three seats play in order ``s`` → ``s + 1`` (counter-clockwise, 逆时针); ``s + 1`` is the 下家.
Phases (``phase()``, also the timer keys):

- ``discard``: the seat to act discards a tile (or declares 自摸 when its own draw completed
  the hand).
- ``claim``: a tile is on offer — a discard, or a tile just drawn and shown (翻牌) — and the
  seats that may 胡 / 跑 / 碰 / 吃 it answer privately; the table shows "waiting for claims".
  胡 beats 跑, 跑 beats 碰, 碰 beats 吃 (撇跑胡: a win beats a 跑 on the same tile).

Forced actions happen by themselves, so no one can skip them: the 提 of four dealt alike,
啸 (偎) when a seat draws the third of a pair it holds (臭啸 after a 忍碰 of that tile), 倾 when
it draws the fourth of a 坎 or 偎. Rules and every decision on an open point:
docs/games/paohuzi.md.

>>> from engines.base import Setup
>>> g = PaohuziGame(Setup(seats=3, seed=1))
>>> g.phase(), g.to_act() == (g.dealer,), g.stock_left()
('discard', True, 21)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from engines.base import Setup, T, Window
from engines.errors import IllegalActionError
from engines.paohuzi import ai
from engines.paohuzi.claims import PaohuziClaims
from engines.paohuzi.notation import parse_action
from engines.paohuzi.state import (
    CLAIM,
    DEALT,
    DISCARD,
    OPTIONS,
    OVER,
    SEATS,
    Claim,
    Win,
    check_options,
)
from engines.paohuzi.tiles import WILD, full_set, parse_tiles, tile_name, tile_zh
from engines.paohuzi.views import PaohuziViews

__all__ = [
    "CLAIM",
    "DISCARD",
    "OPTIONS",
    "OVER",
    "SEATS",
    "Claim",
    "PaohuziGame",
    "Win",
    "check_options",
    "max_loss",
    "stacked",
]


def max_loss(options: Any, seats: int) -> int:
    """The most points one seat can pay in a hand: one win at most 30 + 底 子 (every group a big
    倾 would be 84 胡息 → 24 子, and 6 省) times the largest 番 product, 32 (黑胡王闯)."""
    return (31 + check_options(options)) * 32


class PaohuziGame(PaohuziViews, PaohuziClaims):
    """王炸跑胡子 (003): 3 seats, 80 word tiles and two 王霸.

    Its jobs live in modules of this package: the hand's state and the rules' queries
    (``state``), the end and the money (``settlement``), turns and draws (``turns``), claims
    (``claims``) and what the table shows (``views``). This class is the game interface over
    them: phases, windows, legal actions, applying an action and the trustee."""

    def __init__(self, setup: Setup, stack: Sequence[int] | None = None) -> None:
        """A new hand (``PaohuziState``: the deal and any dealt 提); the dealer's turn starts."""
        super().__init__(setup, stack)
        self._turn_start(self.dealer, discard=True, self_draw=True)

    # --- the Game interface ---------------------------------------------------------------
    def is_over(self) -> bool:
        return self.ended is not None

    def phase(self) -> str:
        return OVER if self.ended else self._phase

    def decision(self) -> Window | None:
        """A tile on offer is claimed privately (the table names nobody while it is open), one
        deadline, an ignored claim is passed, no miss. A 自摸 offer with no discard due is the
        seat's own turn, in public, and also lapses to ``pass``, no miss."""
        if self.ended:
            return None
        if self._phase == CLAIM:
            claim = self.claim
            assert claim is not None
            return Window.claims(tuple(sorted(claim.options)), self.window_key, claim.answers,
                                 claim.options)
        if not self.must_discard:
            return Window((self.turn,), timeout="pass", miss=False)
        return None

    def turn_seats(self) -> tuple[int, ...]:
        return () if self.ended else (self.turn,)

    @classmethod
    def check_options(cls, options: Any) -> None:
        check_options(options)

    def legal_actions(self, seat: int) -> list[str]:
        if seat not in self.to_act():
            return []
        if self._phase == CLAIM:
            assert self.claim is not None
            return list(self.claim.options[seat])
        acts = ["hu"] if self.self_draw and self.win_check(seat, None, "self") else []
        if not self.must_discard:
            return [*acts, "pass"]
        return acts + [tile_name(t) for t in self.discardable(seat)]

    def _apply(self, seat: int, text: str) -> str:
        kind, value = parse_action(text)
        if self._phase == CLAIM:
            action = self._claim_action(seat, kind, value, text)
            assert self.claim is not None
            self.claim.answers[seat] = action
            if len(self.claim.answers) == len(self.claim.options):
                self._resolve(self.claim)
            return action
        legal = self.legal_actions(seat)
        if kind == "hu" and "hu" in legal:
            self._win(self.win_check(seat, None, "self"), None)
            return "hu"
        if kind == "pass" and "pass" in legal:
            self.status[seat] = T("phz.status.pass")
            self._next_draw(seat)
            return "pass"
        if kind == "discard" and self.must_discard:
            tile = value[0]
            if tile == WILD:
                raise IllegalActionError(
                    "a 王霸 is never discarded",
                    seat=seat,
                    action=text,
                    text=T("err.phz.wild_discard"),
                )
            if not self.hands[seat][tile]:
                raise IllegalActionError(
                    f"you have no {tile_name(tile)}",
                    seat=seat,
                    action=text,
                    text=T("err.phz.not_held", tile=tile_zh(tile)),
                )
            if tile not in self.discardable(seat):
                raise IllegalActionError(
                    "a 坎 is never split",
                    seat=seat,
                    action=text,
                    text=T("err.phz.kan", tile=tile_zh(tile)),
                )
            self._discard(seat, tile)
            return tile_name(tile)
        if kind == "hu":
            raise IllegalActionError(
                "your hand is not complete", seat=seat, action=text, text=T("err.phz.no_hu")
            )
        raise IllegalActionError(
            f"you may now: {', '.join(legal)}",
            seat=seat,
            action=text,
            text=T("err.phz.options", options=", ".join(legal)),
        )

    # --- the trustee -------------------------------------------------------------------------
    def _trustee(self, seat: int, level: str = "normal") -> str:
        """托管: ``ai.choose`` (timeouts, escaped seats and bots alike); always legal."""
        return ai.choose(self, seat)


def stacked(hands: Sequence[str], draws: str = "", dealer: int = 0) -> list[int]:
    """A stack that deals ``hands[s]`` to seat ``s`` (21 tiles for ``dealer``, 20 for the
    others; written in any tile notation) and then yields ``draws`` in order; the remaining
    tiles follow sorted. For tests and puzzles: ``PaohuziGame(setup, stack=...)`` with
    ``carry={"dealer": dealer}``."""
    order: list[int] = []
    for k in range(SEATS):
        s = (dealer + k) % SEATS
        dealt = parse_tiles(hands[s])
        if len(dealt) != DEALT + (1 if k == 0 else 0):
            raise ValueError(f"seat {s} gets {len(dealt)} tiles")
        order += dealt
    order += parse_tiles(draws) if draws else []
    rest = Counter(full_set())
    rest.subtract(order)
    if any(n < 0 for n in rest.values()):
        raise ValueError("more than four of a tile (or two 王霸)")
    return order + sorted(rest.elements())
