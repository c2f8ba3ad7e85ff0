"""打滚子's hand as data: the carried match (levels, 庄, last score), the option, the hand's
state, and the queries the rules ask of it (what a seat may declare, show or bury).

``DagunziGame`` (engines.dagunzi.game) builds on ``DagunziState`` through the layers of its
jobs: the kitty (进贡, 还贡, bury), the deal with its declarations, tricks and views.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from engines.base import Outcome, RoundLog, Setup, T, Text
from engines.dagunzi.rules import ACE, Declaration, declarations
from engines.errors import OptionError
from engines.trick.cards import (
    BIG,
    SMALL,
    SUITS,
    Context,
    card_id,
    format_ids,
    ids_of,
    points,
)
from engines.trick.hand import DONE, TrickHand, team

DECLARE, SHOW, RETURN, BURY = "declare", "show", "return", "bury"
JOKERS, PLAY = "jokers", "play"
PACKETS = 3
DEFAULTS: dict[str, Any] = {"mode": "dead"}
MODES = ("dead", "live")


class DagunziState(TrickHand):
    """打滚子's hand as data: the carried match, the hand's state, and the rules' queries."""

    NO_CARDS, NOT_HELD = "err.dagunzi.no_cards", "err.dagunzi.not_held"
    # answered privately: who may declare, show a 大王 or bury jokers (and how many) would tell
    # what they hold
    PRIVATE_PHASES = frozenset({DECLARE, SHOW, JOKERS})

    # what each deal sets (``DagunziDeal._deal``; 都不亮 with all jokers deals again)
    dealt: list[list[int]]
    kitty: list[int]
    hands: list[list[int]]
    packet: int
    _phase: str

    def __init__(self, setup: Setup) -> None:
        super().__init__(setup)
        opts = {**DEFAULTS, **dict(setup.options)}
        self.check_options(opts)
        self.dead = opts["mode"] == "dead"
        carry = dict(setup.carry)
        levels = carry.get("levels", [2, 2])
        dealer = carry.get("dealer")
        score = carry.get("score", 100)
        jokers = carry.get("jokers", 0)
        if (not isinstance(levels, list | tuple) or len(levels) != 2
                or not all(isinstance(v, int) and 2 <= v <= ACE for v in levels)
                or not (dealer is None or isinstance(dealer, int) and 0 <= dealer < 4)
                or not isinstance(score, int) or not isinstance(jokers, int)
                or not 0 <= jokers <= 9 or not -10 <= score <= 1000):
            raise OptionError("carry", "bad carry", text=T("err.dagunzi.carry"))
        self.levels: list[int] = list(levels)
        self.dealer: int | None = dealer
        self.last_score, self.last_jokers = score, jokers
        self.rng = random.Random(setup.seed)
        self.level = self.levels[team(dealer)] if dealer is not None else self.levels[0]
        self.decl: Declaration | None = None
        self.passed: set[int] = set()
        self.shown: set[int] = set()  # the first hand: seats that chose to show their 大王
        self.first_line: Text | None = None  # how the first hand's 庄 was found
        self.trump: int | None = None
        self.ctx = Context(self.level, None, True)
        self.tribute: tuple[int, int, list[int]] | None = None  # payer, receiver, cards
        self.tribute_note: Text | None = None
        self.kitty_shown = False
        self.declared = False  # a 亮主 (or the first hand's 大王) fixed the trump
        self.dealt_kitty: list[int] | None = None  # the kitty as dealt, once shown
        self.dry = False
        self.joker_buriers: list[tuple[int, list[int], list[int]]] = []
        self.buried_by_dealer: list[int] = []
        self.returned: list[int] = []
        self.trick: list[tuple[int, list[int]]] = []
        self.last_trick: list[tuple[int, list[int]]] = []
        self.rounds = RoundLog()  # 本轮 and 上一轮, as the table shows them
        self.last_winner: int | None = None
        self.tricks = 0
        self.xian_points = 0
        self.koudi = False
        self._outcome: Outcome | None = None
        self._carry: dict[str, Any] = {}
        self.turn = 0

    @classmethod
    def check_options(cls, options: Mapping[str, Any]) -> None:
        if options.get("mode", "dead") not in MODES:
            raise OptionError("mode", "must be dead or live", text=T("err.dagunzi.option_mode"))

    def _big_claim(self, seat: int) -> tuple[int, int] | None:
        """What showing its 大王 would give ``seat``: (the deal position of its first 大王, the
        suit of the first suited card dealt to it after). None: dealt no 大王, or only jokers
        after it (no suit to name: the seat cannot show)."""
        dealt = self.dealt[seat]
        if BIG not in dealt:
            return None
        i = dealt.index(BIG)
        suited = next((c for c in dealt[i + 1:] if c < SMALL), None)
        return None if suited is None else (4 * i + seat, suited // 13)

    def _declarations(self, seat: int) -> list[Declaration]:
        now = self.decl.strength if self.decl else 0
        return [d for d in declarations(ids_of(self.hands[seat]), self.level, seat)
                if d.strength > now]

    def _eligible(self) -> tuple[int, ...]:
        if self._phase == SHOW:
            return tuple(s for s in range(4) if s not in self.passed and s not in self.shown
                         and self._big_claim(s) is not None)
        if self._phase == DECLARE:
            return tuple(s for s in range(4) if s not in self.passed and self._declarations(s))
        if self._phase == JOKERS:
            done = {s for s, _, _ in self.joker_buriers}
            return tuple(s for s in range(4) if s != self.dealer and s not in self.passed
                         and s not in done and self._joker_options(s))
        return ()

    def _return_problem(self, seat: int, ids: Sequence[int]) -> bool:
        assert self.tribute is not None
        n = len(self.tribute[2])
        if len(ids) != n:
            return True
        hand = ids_of(self.hands[seat])
        side = [c for c in hand if not self.ctx.is_trump(c) and not points(c)]
        plain = [c for c in hand if not points(c)]
        got_side = sum(1 for c in ids if not self.ctx.is_trump(c) and not points(c))
        got_plain = sum(1 for c in ids if not points(c))
        return got_side < min(n, len(side)) or got_plain < min(n, len(plain))

    # --- who acts -------------------------------------------------------------------------------
    def turn_seats(self) -> tuple[int, ...]:
        if self._phase == RETURN:
            assert self.tribute is not None
            return (self.tribute[1],)
        if self._phase == BURY:
            assert self.dealer is not None
            return (self.dealer,)
        if self._phase == PLAY:
            return (self.turn,)
        return ()

    # --- actions -----------------------------------------------------------------------------
    def _decl_ids(self, d: Declaration) -> list[int]:
        return [d.joker if d.joker is not None else card_id(self.level, d.suit)] * d.count

    def _decl_text(self, d: Declaration) -> str:
        text = format_ids(self._decl_ids(d))
        return f"{text} {SUITS[d.suit]}" if d.joker is not None else text

    def _joker_options(self, seat: int) -> list[list[int]]:
        """Joker sets ``seat`` may bury now: 大王 before 小王, and as many low non-point cards
        to take back from the kitty."""
        if self.dry or not self.kitty or all(points(c) for c in self.buried_by_dealer):
            return []
        big, small = self.hands[seat][BIG], self.hands[seat][SMALL]
        room = sum(1 for c in self.kitty if c < SMALL and not points(c))
        out = [[BIG] * k for k in range(1, big + 1)]
        out += [[BIG] * big + [SMALL] * k for k in range(1, small + 1)]
        return [o for o in out if len(o) <= room]

