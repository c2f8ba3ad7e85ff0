"""斗地主's hand as data: the rules, the deal (and 明牌开始 with it), the auction's figures,
whose turn it is, and the whole state as plain data (``snapshot``).

``DoudizhuGame`` (engines.doudizhu.game) builds on ``DoudizhuState`` through the layers of its
jobs: scoring, the landlord selection (with 黄金眼 and 明牌), plays and views.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from operator import itemgetter
from typing import Any

from engines.base import Choice, Game, RoundLog, Setup, T, Window
from engines.doudizhu.auction import SHOW_FACTOR, Auction, CallAuction, make_auction
from engines.doudizhu.notation import NRANKS, deal_suited, format_cards
from engines.doudizhu.patterns import Play, playbook
from engines.doudizhu.rules import Rules, classic_rules
from engines.doudizhu.suits import Suits
from engines.errors import OptionError

START_SHOW = f"show {SHOW_FACTOR['start']}"
"""明牌开始's start choice (``Game.start_offers``): show the hand before the deal, ×5."""
_RANK = itemgetter(0)  # of a dealt (rank, card) pair


class DoudizhuState(Game):
    """斗地主's hand as data under a ``Rules`` set: the deal, the auction's figures, the turn."""

    def __init__(self, setup: Setup) -> None:
        super().__init__(setup)
        self.rules = self.make_rules(setup.options)
        n = self.rules.seats
        if setup.seats != n:
            raise OptionError(
                "seats",
                f"this 斗地主 is for {n} players",
                text=T("err.ddz.seats", n=n, seats=setup.seats),
            )
        self.book = playbook(self.rules.patterns)
        self.n = n
        self._rng = random.Random(setup.seed)
        first = setup.carry.get("first")
        if not isinstance(first, int) or isinstance(first, bool) or not 0 <= first < n:
            first = self._rng.randrange(n)
        stakes = tuple(setup.stakes) + (None,) * (n - len(setup.stakes))
        self.stakes: tuple[int | None, ...] = stakes[:n]
        self.deal_no = 0
        self.escape_before_bid: dict[int, bool] = {}
        self.escape_penalties: dict[int, int] = {}
        self.void = False
        self._start_deal(first)
        self._show_at_start(setup.starts)

    @classmethod
    def make_rules(cls, options: Mapping[str, Any]) -> Rules:
        return classic_rules(options)

    @classmethod
    def check_options(cls, options: Mapping[str, Any]) -> None:
        """OptionError for room options the rules cannot play (e.g. 底分 below 1, a negative
        加倍 threshold, numbers beyond what settlement holds)."""
        cls.make_rules(options)

    # --- dealing and phase changes ------------------------------------------------------
    def _start_deal(self, first: int) -> None:
        """发牌: shuffle from the seeded generator; a redeal continues the same stream. The
        physical cards are kept in ``suits`` (their suits, for pictures)."""
        r = self.rules
        n = self.n
        hands, bottom = deal_suited(self._rng, r.decks, n, r.hand_size, r.removed, r.kitty)
        self.suits = Suits(hands, bottom)
        dealt = [list(map(_RANK, h)) for h in hands]
        kitty_cards = list(map(_RANK, bottom))
        self.dealt: list[list[int]] = dealt
        self.hands: list[list[int]] = []
        for cards in dealt:
            counts = [0] * NRANKS
            for c in cards:
                counts[c] += 1
            self.hands.append(counts)
        kitty = [0] * NRANKS
        for c in kitty_cards:
            kitty[c] += 1
        self.kitty: tuple[int, ...] = tuple(kitty)
        self.kitty_cards = tuple(kitty_cards)
        self.peeks: list[list[str]] = [[] for _ in range(n)]  # 黄金眼: kitty places seen
        self.status: list[str | None] = [None] * n  # last canonical action per seat
        self.auction: Auction = make_auction(r, n, first)
        self.doubled: list[bool | None] = [None] * n
        self.landlord: int | None = None
        self.kitty_taken = False
        self.pending: list[int] = []
        self.turn = first
        self.last: Play | None = None
        self.last_seat: int | None = None
        self.rounds = RoundLog()  # 本轮: the plays and passes since the last lead
        self.round_plays: dict[int, Play] = {}  # each seat's last play in it (for its suits)
        self.played_hands = [0] * n
        self.bombs = 0
        self.bomb_factors: list[int] = []
        self.out: list[int] = [0] * NRANKS
        self.winner: int | None = None
        self.over = False
        self._phase = "auction"

    # The auction's figures, read by the views, the scoring and the trustee.
    @property
    def high(self) -> int:
        """The highest 叫分 bid so far (0: none; always 0 under 叫/抢地主)."""
        return self.auction.high

    @property
    def grabs(self) -> int:
        """抢地主 count (each ×2)."""
        return self.auction.grabs

    @property
    def shown(self) -> list[int]:
        """Each seat's 明牌 factor (0: not shown)."""
        return self.auction.shown

    @property
    def rotation_first(self) -> int:
        """The seat the deal's selection started from (rotates from hand to hand)."""
        return self.auction.rotation_first

    @property
    def first(self) -> int:
        """The first bidder or caller (under 明牌, the first seat that showed)."""
        return self.auction.first

    def _order(self, start: int) -> list[int]:
        return [(start + i) % self.n for i in range(self.n)]

    # --- the Game interface ---------------------------------------------------------------
    def decision(self) -> Window | None:
        """加倍 is optional, in a timed window (003/004: 在限制时间内…直到限制时间到), public, each
        answer its own deadline: a seat that lets it pass has not doubled, and that is no miss
        (nobody's stake grows unasked)."""
        if self.over or self._phase != "double" or not self.pending:
            return None
        return Window(tuple(self.pending), timeout="nodouble", miss=False)

    def turn_seats(self) -> tuple[int, ...]:
        if self.over:
            return ()
        if self._phase == "auction":
            return self.auction.to_act()
        return (self.turn,)

    def phase(self) -> str:
        return self.auction.phase if self._phase == "auction" else self._phase

    def is_over(self) -> bool:
        return self.over

    def _acting(self, seat: int) -> bool:
        return seat in self.to_act()

    def _kind(self) -> str:
        """The action kind of the current phase (bid/call/grab/show/double/play)."""
        if self._phase == "auction":
            return self.auction.kind()
        return self._phase

    def _phase_label(self) -> str:
        return self.auction.label() if self._phase == "auction" else self._phase

    # --- views -----------------------------------------------------------------------------
    def visible_hand(self, seat: int) -> tuple[int, ...]:
        """The cards ``seat`` holds (the whole deal is seen at once)."""
        return tuple(self.hands[seat])

    # --- 明牌开始: chosen at the Start button, before the deal ----------------------------------
    @classmethod
    def start_offers(cls, options: Mapping[str, Any]) -> tuple[Choice, ...]:
        """明牌开始 ×5 (003 四.2, "在还没发牌时，就选择明牌并保持开始游戏") wherever the rules have
        明牌: chosen with the Start button, before any card exists."""
        if not cls.make_rules(options).mingpai:
            return ()
        # the old 明牌开始 step's name says what is chosen: "明牌开始（发牌前明牌 ×5）"
        return (Choice(START_SHOW, T("ddz.phase.show_start"), "success"),)

    def _show_at_start(self, starts: tuple[tuple[int, str], ...]) -> None:
        """明牌开始: each seat in ``starts`` (checked by ``Game.check_starts``) shows its hand
        from the deal on, ×5, exactly as a 明牌 at ×5 counts: the largest 明牌 factor applies
        (003 四.5), the first to choose it calls first (003 二.2), and if everyone then says 不叫
        it is the landlord (003 二.3), so the hand is never redealt."""
        if not starts:
            return
        auction = self.auction
        assert isinstance(auction, CallAuction)  # only 叫/抢地主 rules have 明牌
        for seat, _ in starts:
            auction.show(seat, SHOW_FACTOR["start"])
            self.status[seat] = "show"
        auction.first = auction.turn = auction.show_order[0]

    # --- debugging and tests -------------------------------------------------------------------
    def snapshot(self) -> dict[str, Any]:
        """The whole state as plain data (like a FEN): equal snapshots mean equal states."""
        return {
            "phase": self.phase(),
            "deal": self.deal_no,
            "hands": [format_cards(tuple(h)) for h in self.hands],
            "kitty": format_cards(self.kitty),
            "kitty_taken": self.kitty_taken,
            "peeks": [list(p) for p in self.peeks],
            "auction": self.auction.snapshot(),
            "turn": self.turn,
            "pending": list(self.pending),
            "doubled": list(self.doubled),
            "landlord": self.landlord,
            "last": None if self.last is None else [self.last_seat, self.last.text],
            "played_hands": list(self.played_hands),
            "bombs": self.bombs,
            "bomb_factors": list(self.bomb_factors),
            "winner": self.winner,
            "over": self.over,
            "void": self.void,
            "escaped": sorted(self.escaped),
            "escape_before_bid": sorted(self.escape_before_bid.items()),
            "escape_penalties": sorted(self.escape_penalties.items()),
            "out": format_cards(tuple(self.out)) if any(self.out) else "",
            "status": list(self.status),
        }
