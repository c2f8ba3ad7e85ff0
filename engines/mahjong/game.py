"""一局四川麻将: one hand of 四川麻将 / 血战到底 as a pure state machine.

Seats play in order ``s`` → ``s + 1`` (counter-clockwise, 逆时针). Phases (``phase()``, also the
timer keys):

- ``dingque``: 定缺 (room option ``dingque``; off by default) — every seat privately picks the
  suit it will be void in, all at once; the choices are shown when all four have chosen.
  Without it the seeds' 缺一门 applies: a win holds at most two suits, whichever they are.
- ``discard``: the seat to act has drawn (or claimed) and discards, konges (暗杠/补杠) or wins
  (自摸).
- ``claim``: a claim window after a discard (碰/杠/胡) or a 补杠 (抢杠胡). Only the seats that
  can claim act; each sees its own options privately; the table shows "waiting for claims".
  The window closes when every claimant has answered; 胡 beats 杠/碰 and every 胡 wins
  (一炮多响).

Actions are in ``engines.mahjong.notation``. Payments are kept as events in the order they
happen (kong money "paid at once") and settled into ``Outcome.transfers`` at the end, with the
per-pair cap and forfeits applied in that one pass. Rules and decisions:
docs/games/mahjong.md.

>>> from engines.base import Setup
>>> g = XuezhanGame(Setup(seats=4, seed=1))
>>> g.phase(), g.to_act() == (g.dealer,)
('discard', True)
>>> XuezhanGame(Setup(seats=4, seed=1, options={"dingque": True})).to_act()
(0, 1, 2, 3)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any, ClassVar

from engines.base import T, Window
from engines.errors import IllegalActionError
from engines.mahjong import ai
from engines.mahjong.claims import MahjongClaims
from engines.mahjong.names import tile_text
from engines.mahjong.notation import parse_action, que_action
from engines.mahjong.props import parse_prop
from engines.mahjong.rules import make_rules
from engines.mahjong.state import (
    CLAIM,
    DINGQUE,
    DINGQUE_KEY,
    DISCARD,
    LAST_FOUR,
    OVER,
    SEATS,
    Claim,
    Event,
    MahjongState,
    Win,
)
from engines.mahjong.tiles import SUITS, tile_name
from engines.mahjong.views import MahjongViews

__all__ = [
    "CLAIM",
    "DINGQUE",
    "DINGQUE_KEY",
    "DISCARD",
    "LAST_FOUR",
    "OVER",
    "SEATS",
    "Claim",
    "Event",
    "MahjongGame",
    "MahjongState",
    "Win",
    "XuezhanGame",
    "stacked_wall",
]


class MahjongGame(MahjongViews, MahjongClaims):
    """四川麻将 (000 "QQ classic"); ``XuezhanGame`` is the 血战到底 preset (002).

    Its jobs live in layers of their own (each a module of this package): the hand's state and
    queries (``state``), the end and the money (``settlement``), draws, kongs and wins
    (``turns``), discards and claims (``claims``), the props (``prop_use``) and what the table
    shows (``views``). This class is the game interface over them: phases, windows, legal
    actions, applying an action and the trustee."""

    # --- the Game interface ---------------------------------------------------------------
    def is_over(self) -> bool:
        return self.ended is not None

    def phase(self) -> str:
        return OVER if self.ended else self._phase

    def decision(self) -> Window | None:
        """定缺 is chosen by all at once, in public, one deadline (a timeout: the trustee's
        suit). A claim window is private (the table names nobody: who may 碰/杠/胡 would tell
        their hands), one deadline; an ignored claim is passed (过), no miss."""
        if self.ended:
            return None
        if self._phase == CLAIM:
            claim = self.claim
            assert claim is not None
            return Window.claims(tuple(sorted(claim.options)), self.window_key, claim.answers,
                                 claim.options)
        if self._phase == DINGQUE:
            return Window(tuple(s for s in range(self.N) if self.que[s] is None), key=DINGQUE_KEY)
        return None

    def turn_seats(self) -> tuple[int, ...]:
        return () if self.ended else (self.turn,)

    @classmethod
    def check_options(cls, options: Any) -> None:
        make_rules(cls.KEY, options)

    def legal_actions(self, seat: int) -> list[str]:
        if seat not in self.to_act():
            return []
        if self._phase == DINGQUE:
            return [que_action(s) for s in range(3)] + self.prop_actions(seat)
        if self._phase == CLAIM:
            assert self.claim is not None
            return list(self.claim.options[seat])
        acts = (
            ["hu"]
            if self.drawn is not None and self.can_win_with(seat, None, discard=False)
            else []
        )
        acts += self.kong_options(seat)
        acts += [tile_name(t) for t in range(34) if self.hands[seat][t]]
        return acts + self.prop_actions(seat)

    def forced_action(self, seat: int) -> str | None:
        """``pass`` when a claim window offers the seat nothing else; on its own turn a seat
        always has a tile to discard, and 定缺 offers three suits — so no win test runs. A
        variant with legal actions of its own answers from them."""
        if type(self).legal_actions is not MahjongGame.legal_actions:
            return super().forced_action(seat)
        if self._phase == CLAIM and seat in self.to_act():
            assert self.claim is not None
            return "pass" if list(self.claim.options[seat]) == ["pass"] else None
        if self._phase == DINGQUE or seat not in self.to_act() or any(self.hands[seat]):
            return None
        return super().forced_action(seat)

    def _apply(self, seat: int, text: str) -> str:
        prop = parse_prop(text)
        if prop is not None:
            return self._use_prop(seat, *prop, text)
        kind, value = parse_action(text)
        if self._phase == DINGQUE:
            if kind != "que":
                raise IllegalActionError(
                    "choose the suit to be void in first (que m, que p or que s)",
                    seat=seat,
                    action=text,
                    text=T("err.mj.que_first"),
                )
            assert value is not None
            self.que[seat] = value
            self.status[seat] = T("mj.status.que_chosen")
            if all(q is not None for q in self.que):
                self._phase = DISCARD
                self.status = [None] * self.N
            return que_action(value)
        if kind == "que":
            if not self.rules.dingque:
                raise IllegalActionError(
                    "this table plays without 定缺 (缺一门: no third suit at the win)",
                    seat=seat,
                    action=text,
                    text=T("err.mj.que_off"),
                )
            raise IllegalActionError(
                "定缺 is over", seat=seat, action=text, text=T("err.mj.que_done")
            )
        if self._phase == CLAIM:
            return self._answer(seat, kind, value, text)
        action = self._turn_action(seat, kind, value, text)
        return action

    # --- a seat's own turn -------------------------------------------------------------
    def _turn_action(self, seat: int, kind: str, value: int | None, text: str) -> str:
        if kind == "hu":
            if self.drawn is None or not self.can_win_with(seat, None, discard=False):
                raise IllegalActionError(
                    "your hand is not complete", seat=seat, action=text, text=T("err.mj.no_hu")
                )
            self._tsumo(seat)
            return "hu"
        if kind == "gang":
            options = self.kong_options(seat)
            if value is None and len(options) == 1:
                action = options[0]
            elif value is not None and f"gang {tile_name(value)}" in options:
                action = f"gang {tile_name(value)}"
            else:
                raise IllegalActionError(
                    "no such kong",
                    seat=seat,
                    action=text,
                    text=T("err.mj.no_gang", options=", ".join(options) or "-"),
                )
            self._kong(seat, int(SUITS.index(action[-1]) * 9 + int(action[-2]) - 1))
            return action
        if kind != "discard":
            raise IllegalActionError(
                "it is your turn: discard a tile",
                seat=seat,
                action=text,
                text=T("err.mj.your_turn"),
            )
        assert kind == "discard" and value is not None
        if not self.hands[seat][value]:
            raise IllegalActionError(
                f"you have no {tile_name(value)}",
                seat=seat,
                action=text,
                text=T("err.mj.not_held", tile=tile_text(value)),
            )
        self._discard(seat, value)
        return tile_name(value)

    # --- the trustee -------------------------------------------------------------------------
    def _trustee(self, seat: int, level: str = "normal") -> str:
        """托管: ``ai.choose`` at ``level`` (timeouts, escaped seats and bots alike); always
        legal."""
        return ai.choose(self, seat, level)


class XuezhanGame(MahjongGame):
    """血战到底 (002): the hand goes on after each win until three have won or the wall is
    empty; 2^番 capped at 3番, 过手胡, 呼叫转移, 24 points at most per payer and payee."""

    KEY: ClassVar[str] = "xuezhan"


def stacked_wall(
    hands: Sequence[str], draws: str = "", dealer: int = 0, kinds: int = 27
) -> list[int]:
    """A wall that deals ``hands[s]`` (13 tiles each, notation) to seat ``s`` when ``dealer``
    deals, then yields ``draws`` in order (the dealer's 14th tile first); the remaining tiles
    follow sorted. ``kinds``: 27 for the 108-tile set, 34 with the honours (136). For tests
    and puzzles: pass it as ``MahjongGame(setup, wall=...)``."""
    from engines.mahjong.tiles import parse_tiles

    order: list[int] = []
    n = len(hands)
    for k in range(n):
        dealt = parse_tiles(hands[(dealer + k) % n])
        assert len(dealt) == 13, hands[(dealer + k) % n]
        order += dealt
    order += parse_tiles(draws) if draws else []
    rest = Counter(t for t in range(kinds) for _ in range(4))
    rest.subtract(order)
    if any(n < 0 for n in rest.values()):
        raise ValueError("more than four of a tile")
    return order + sorted(rest.elements())
