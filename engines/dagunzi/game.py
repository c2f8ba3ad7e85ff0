"""打滚子: one hand, from the deal to the score, with three decks and 39 cards each.

Seats 0 and 2 play against 1 and 3. In the first hand of a match a seat dealt a 大王 may show
it (亮大王, a private window): of those who show, the one dealt a 大王 first is the 庄 and the
suit of the next suited card dealt to it is trump; nobody shows: the kitty flip. In later
hands level cards or three identical jokers are declared during the deal (windows as in 升级).
Then 进贡 between the 庄 and its 上家, the 庄's bury, the others' joker burying, and 39 tricks.

Actions: ``show`` (亮大王) / ``pass``; ``declare 5h`` / ``declare 5h 5h`` / ``declare R R R s``
(three jokers name a suit), ``pass``; ``return <cards>`` (还贡), ``bury <cards>``, and a play
(``Ah``, ``Kh Kh``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engines.base import Setup, T
from engines.dagunzi import ai
from engines.dagunzi.deal import DagunziDeal
from engines.dagunzi.rules import KITTY, PER
from engines.dagunzi.state import (
    BURY,
    DECLARE,
    DEFAULTS,
    DONE,
    JOKERS,
    PLAY,
    RETURN,
    SHOW,
    DagunziState,
    team,
)
from engines.dagunzi.texts import NOTATION_ERRORS
from engines.dagunzi.views import DagunziViews
from engines.errors import IllegalActionError
from engines.trick.hand import split_action

ALIASES = {"亮": "declare", "亮主": "declare", "反": "declare", "不亮": "pass", "过": "pass",
           "扣底": "bury", "扣": "bury", "扣王": "bury", "还贡": "return", "亮大王": "show"}
"""The Chinese words an action may start with, and the verb each stands for."""


class DagunziGame(DagunziViews, DagunziDeal):
    """打滚子 (001). Option ``mode``: "dead" (死棒, default) or "live" (活棒). ``Setup.carry``:
    ``levels`` [team 0, team 1], ``dealer`` (None: a match's first hand), ``score`` (the last
    hand's 抓分方 points) and ``jokers`` (its kitty jokers as tribute cards: 大王 2, 小王 1).

    Its jobs live in layers of their own, each a module of this package, each calling only the
    layers under it: the hand's state (``state``); 进贡, 还贡 and the burying (``kitty``); the
    deal with 亮大王 and 亮主 (``deal``); tricks and the score (``tricks``); what each seat
    sees (``views``). This class deals on creation, reads the actions and adds the trustee.
    """

    notation_errors = NOTATION_ERRORS

    def __init__(self, setup: Setup) -> None:
        super().__init__(setup)
        self._deal()

    def _act(self, seat: int, text: str) -> str:
        verb, rest = split_action(text, ALIASES)
        if self._phase == SHOW:
            return self._apply_show(seat, verb, rest, text)
        if self._phase == DECLARE:
            return self._apply_declare(seat, verb, rest, text)
        if self._phase == JOKERS:
            return self._apply_jokers(seat, verb, rest, text)
        if self._phase == RETURN:
            if verb != "return":
                raise IllegalActionError("return the tribute first", seat=seat, action=text,
                                         text=T("err.dagunzi.return_first"))
            return self._apply_return(seat, rest, text)
        if self._phase == BURY:
            if verb != "bury":
                raise IllegalActionError("bury the kitty first", seat=seat, action=text,
                                         text=T("err.dagunzi.bury_first", n=KITTY))
            return self._apply_bury(seat, rest, text)
        if verb in ("pass", "declare", "bury", "return"):
            raise IllegalActionError("play cards now", seat=seat, action=text,
                                     text=T("err.dagunzi.play_now"))
        return self._apply_play(seat, rest if verb in ("play", "出") else text)

    # --- trustee ---------------------------------------------------------------------------------
    def _trustee(self, seat: int, level: str = "normal") -> str:
        """托管: always legal; never takes a trick from its partner (``ai.choose``)."""
        return ai.choose(self, seat)


def max_loss(options: Mapping[str, Any], seats: int) -> int:
    """The most one seat can lose: a ±50 special plus the largest tribute (19 cards), or the
    levels: 1 + 3 × (1 + 6 kitty-joker levels)."""
    return 50 + PER // 2


__all__ = ["BURY", "DECLARE", "DEFAULTS", "DONE", "JOKERS", "PLAY", "RETURN", "SHOW", "DagunziGame",
           "DagunziState", "max_loss", "team"]
