"""升级 / 欢乐升级: one hand of the four-seat trick game, from the deal to the level change.

Seats 0 and 2 play against 1 and 3. The deal comes in ``PACKETS`` packets; after each, every
seat that can make a stronger declaration (亮主, 自保, 反主, 自反, 反无主) may do so in one
window. The 庄 takes the kitty and buries as many cards (扣底); in 欢乐升级 the others may then
反底 in turn. The 庄 leads the first trick; each trick's winner leads the next. The 闲 side's
points, with the kitty multiplied if they win the last trick, decide the levels.

Actions (notation): ``declare 2h`` / ``declare 2h 2h`` / ``declare B B``, ``pass``,
``bury <cards>``, ``counter <cards>`` (反底), and a play: cards such as ``Ah Ah Kh``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engines.base import Setup, T
from engines.errors import IllegalActionError
from engines.shengji import ai
from engines.shengji.declaring import ShengjiDeclaring
from engines.shengji.rules import DEAL, Declaration
from engines.shengji.state import (
    BURY,
    COUNTER,
    DECLARE,
    DEFAULTS,
    DONE,
    HAPPY_CAP,
    PLAY,
    ShengjiState,
    team,
)
from engines.shengji.texts import NOTATION_ERRORS
from engines.shengji.tricks import ShengjiTricks
from engines.shengji.views import ShengjiViews
from engines.trick.cards import counts_of, parse_ids
from engines.trick.hand import split_action

ALIASES = {"亮": "declare", "亮主": "declare", "反": "declare", "不亮": "pass", "过": "pass",
           "扣底": "bury", "扣": "bury", "反底": "counter", "不反": "pass"}
"""The Chinese words an action may start with, and the verb each stands for."""


class ShengjiGame(ShengjiViews, ShengjiTricks, ShengjiDeclaring):
    """升级 (001). Options: ``decks`` 1–3 (2), ``fixed_two`` (2 为常主), ``sweep`` (大光积分
    rooms: the 庄's points for a 大光, 0 = the usual 4). ``Setup.carry``: ``levels`` [team 0,
    team 1] and ``dealer`` (None in a match's first hand).

    Its jobs live in layers of their own, each a module of this package, each calling only the
    layers under it: the hand's state (``state``); the packets, declarations, kitty and 反底
    (``declaring``); tricks and the score (``tricks``); what each seat sees (``views``). This
    class deals the first packet on creation, reads the actions, sets up written positions and
    adds the trustee.
    """

    notation_errors = NOTATION_ERRORS

    def __init__(self, setup: Setup) -> None:
        super().__init__(setup)
        self._deal_packet()

    @classmethod
    def position(cls, hands: Sequence[str], *, level: int = 10, trump: int | None = 1,
                 dealer: int = 0, leader: int | None = None, decks: int = 2,
                 fixed_two: bool = False, sweep: int = 0,
                 ratings: Sequence[int] = ()) -> ShengjiGame:
        """A hand set up at the start of a trick, for puzzles and tests: ``hands`` in
        notation per seat, trump ``trump`` (None: 无主) at ``level``. Such a game does not
        replay from its record."""
        game = cls(Setup(seats=4, seed=0,
                         options={"decks": decks, "fixed_two": fixed_two, "sweep": sweep},
                         carry={"levels": [level, level], "dealer": dealer},
                         ratings=tuple(ratings)))
        game.hands = [counts_of(parse_ids(h)) for h in hands]
        game.kitty, game.buried = [], []
        game.level = level
        game.decl = None if trump is None else Declaration(dealer, 1, trump)
        game._set_trump(game.decl)
        game._phase = PLAY
        game.leader = game.turn = dealer if leader is None else leader
        return game

    def _act(self, seat: int, text: str) -> str:
        verb, rest = split_action(text, ALIASES)
        if self._phase in (DECLARE, COUNTER):
            return self._apply_window(seat, verb, rest, text)
        if self._phase == BURY:
            if verb != "bury":
                raise IllegalActionError("bury the kitty first: bury and the cards", seat=seat,
                                         action=text, text=T("err.shengji.bury_first",
                                                             n=DEAL[self.decks][1]))
            return self._apply_bury(seat, rest, text)
        if verb in ("play", "出"):
            text = rest
        elif verb in ("pass", "declare", "bury", "counter"):
            raise IllegalActionError("play cards now", seat=seat, action=text,
                                     text=T("err.shengji.play_now"))
        return self._apply_play(seat, text)

    # --- trustee --------------------------------------------------------------------------------
    def _trustee(self, seat: int, level: str = "normal") -> str:
        """托管: legal always (``ai.choose``); never ruffs a partner's winning trick."""
        return ai.choose(self, seat)


class HappyShengjiGame(ShengjiGame):
    """欢乐升级 (001): 升级 plus 反底 after each bury; each 反主 and each 反底 doubles the stake."""

    HAPPY = True


def max_loss(options: Mapping[str, Any], seats: int) -> int:
    """The most one seat can lose: 闲 climbing from 2 past A is 2 + 13 points, ×3 for the
    rating band (or the room's 大光 value)."""
    opts = {**DEFAULTS, **dict(options)}
    return max(15, int(opts["sweep"])) * 3


def max_loss_happy(options: Mapping[str, Any], seats: int) -> int:
    return max_loss(options, seats) * HAPPY_CAP


__all__ = ["BURY", "COUNTER", "DECLARE", "DEFAULTS", "DONE", "PLAY", "HappyShengjiGame",
           "ShengjiGame", "ShengjiState", "max_loss", "max_loss_happy", "team"]
