"""升级's hand as data: the options and the carried match (levels, 庄), the deal, the hand's
state, and the queries the rules ask of it (what a seat may declare, the trump, the result).

``ShengjiGame`` (engines.shengji.game) builds on ``ShengjiState`` through the layers of its
jobs: declaring and the kitty, tricks, and views.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from engines.base import Outcome, RoundLog, Setup, T, Text
from engines.errors import OptionError
from engines.shengji.patterns import Lead
from engines.shengji.rules import ACE, DEAL, Declaration, declarations_held
from engines.trick.cards import (
    BIG,
    NCARDS,
    SMALL,
    SUITS,
    TRUMP,
    Context,
    card_id,
    deal_ids,
    format_ids,
    level_name,
)
from engines.trick.hand import DONE, TrickHand, team

DECLARE, BURY, COUNTER, PLAY = "declare", "bury", "counter", "play"
DEFAULTS: dict[str, Any] = {"decks": 2, "fixed_two": False, "sweep": 0}
HAPPY_CAP = 64
"""欢乐升级: each 反主 and 反底 doubles the stake, at most ×64 in all (our cap, so a seat's
largest loss is bounded)."""


class ShengjiState(TrickHand):
    """升级's hand as data: the carried match, the deal, the hand's state, the rules' queries."""

    NO_CARDS, NOT_HELD = "err.shengji.no_cards", "err.shengji.not_held"
    # answered privately: who may declare would tell who holds level cards
    PRIVATE_PHASES = frozenset({DECLARE, COUNTER})

    HAPPY = False

    def __init__(self, setup: Setup) -> None:
        super().__init__(setup)
        opts = {**DEFAULTS, **dict(setup.options)}
        self.check_options(opts)
        self.decks: int = opts["decks"]
        self.fixed_two: bool = opts["fixed_two"]
        self.sweep: int = opts["sweep"]
        carry = dict(setup.carry)
        levels = carry.get("levels", [2, 2])
        dealer = carry.get("dealer")
        if (not isinstance(levels, list | tuple) or len(levels) != 2
                or not all(isinstance(v, int) and 2 <= v <= ACE for v in levels)
                or not (dealer is None or isinstance(dealer, int) and 0 <= dealer < 4)):
            raise OptionError("carry", f"bad carried levels {levels!r} / dealer {dealer!r}",
                              text=T("err.shengji.carry"))
        self.levels: list[int] = list(levels)
        self.dealer: int | None = dealer
        self.first_hand = dealer is None
        self.level = self.levels[team(dealer)] if dealer is not None else self.levels[0]
        rng = random.Random(setup.seed)
        per, kitty = DEAL[self.decks]
        self.dealt: list[list[int]]
        self.dealt, self.kitty = deal_ids(rng, self.decks, 4, per, in_turn=False)
        self.fallback_dealer = rng.randrange(4)
        assert len(self.kitty) == kitty
        self.per = per
        self.hands: list[list[int]] = [[0] * NCARDS for _ in range(4)]
        self.packet = 0
        self.decl: Declaration | None = None
        self.decl_history: list[Declaration] = []
        self.passed: set[int] = set()
        self.fanzhu = 0
        self.fandi = 0
        self.counter_strength: tuple[int, int] = (0, 0)
        self.kitty_owner: int | None = None
        self.buried: list[int] = []
        self.ctx = Context(self.level, None, self.fixed_two)
        self._phase = DECLARE
        self.leader = 0
        self.turn = 0
        self.trick: list[tuple[int, list[int]]] = []
        self.lead: Lead | None = None
        self.last_trick: list[tuple[int, list[int]]] = []
        self.last_winner: int | None = None
        self.rounds = RoundLog()  # 本轮 and 上一轮, as the table shows them
        self.tricks = 0
        self.xian_points = 0
        self.failed: tuple[int, str, str] | None = None
        self.kitty_bonus: tuple[int, int] | None = None
        self._outcome: Outcome | None = None
        self._carry: dict[str, Any] = {}

    @classmethod
    def check_options(cls, options: Mapping[str, Any]) -> None:
        decks = options.get("decks", 2)
        if not isinstance(decks, int) or isinstance(decks, bool) or decks not in DEAL:
            raise OptionError("decks", "must be 1, 2 or 3", text=T("err.shengji.option_decks"))
        sweep = options.get("sweep", 0)
        if not isinstance(sweep, int) or isinstance(sweep, bool) or not 0 <= sweep <= 100:
            raise OptionError("sweep", "must be 0 to 100", text=T("err.shengji.option_sweep"))
        if not isinstance(options.get("fixed_two", False), bool):
            raise OptionError("fixed_two", "must be true or false",
                              text=T("err.shengji.option_fixed_two"))

    def _declarations(self, seat: int) -> list[Declaration]:
        held = declarations_held(self.hands[seat], self.level, self.decks, seat)
        if self._phase == COUNTER:
            return [d for d in held if d.counter_strength() > self.counter_strength]
        now = self.decl.strength(self.decks) if self.decl else 0
        return [d for d in held if d.strength(self.decks) > now]

    def _eligible(self) -> tuple[int, ...]:
        if self._phase == COUNTER:
            return tuple(s for s in range(4) if s != self.kitty_owner and s not in self.passed
                         and self._declarations(s))
        return tuple(s for s in range(4) if s not in self.passed and self._declarations(s))

    def _set_trump(self, decl: Declaration | None) -> None:
        self.ctx = Context(self.level, decl.suit if decl else None, self.fixed_two)

    # --- who acts -----------------------------------------------------------------------------
    def turn_seats(self) -> tuple[int, ...]:
        if self._phase == BURY:
            assert self.kitty_owner is not None
            return (self.kitty_owner,)
        if self._phase == PLAY:
            return (self.turn,)
        return ()

    def _decl_text(self, d: Declaration) -> str:
        return format_ids(self._decl_ids(d))

    def _decl_ids(self, d: Declaration) -> list[int]:
        if d.joker is not None and self.decks == 1:
            return [SMALL, BIG]  # one deck: 小王 + 大王 make the no-trump pair
        return [d.joker if d.joker is not None else card_id(self.level, d.suit or 0)] * d.count

    def _suit_text(self, suit: int) -> Text:
        return T("shengji.suit.trump") if suit == TRUMP else T(f"shengji.suit.{SUITS[suit]}")

    # --- views ----------------------------------------------------------------------------------
    def _trump_text(self) -> Text:
        if self._phase == DECLARE and self.decl is None:
            return T("shengji.trump.none_yet", level=level_name(self.level))
        if self.decl is None or self.decl.suit is None:
            return T("shengji.trump.notrump", level=level_name(self.level))
        return T("shengji.trump.suit", suit=self._suit_text(self.decl.suit),
                 level=level_name(self.level))
