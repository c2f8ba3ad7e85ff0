"""打滚子's deal: the first hand's 亮大王 (or the kitty flip), the later hands' packets with
their declaration windows (亮主), and fixing the 庄 and trump.
"""

from __future__ import annotations

from engines.base import T, Window
from engines.dagunzi.kitty import DagunziKitty
from engines.dagunzi.rules import DECKS, PER
from engines.dagunzi.state import DECLARE, PACKETS, SHOW, team
from engines.errors import IllegalActionError
from engines.trick.cards import (
    NCARDS,
    SMALL,
    SUITS,
    Context,
    deal_ids,
    format_ids,
    level_name,
    rank_of,
)


class DagunziDeal(DagunziKitty):
    """The deal: 亮大王 or the kitty flip, the packets and their 亮主 windows, the trump."""

    # --- the deal --------------------------------------------------------------------------
    def _deal(self) -> None:
        # Dealt one at a time, seat 0 first: seat s gets deck[s], deck[s + 4], ...
        self.kitty: list[int]
        self.dealt, self.kitty = deal_ids(self.rng, DECKS, 4, PER, in_turn=True)
        self.hands: list[list[int]] = [[0] * NCARDS for _ in range(4)]
        self.packet = 0
        if self.dealer is None:
            self._first_hand()
            return
        self._phase = DECLARE
        self._deal_packet()

    def _first_hand(self) -> None:
        """第一局: the whole deal, then the 亮大王 window (``_close_show`` decides)."""
        for s in range(4):
            for cid in self.dealt[s]:
                self.hands[s][cid] += 1
        self.packet = PACKETS
        self._phase = SHOW
        self.shown = set()
        if not self._open_claims():
            self._close_show()

    def _close_show(self) -> None:
        """先抓到大王的玩家成为庄: of the seats that showed, the one dealt a 大王 first. "若第一
        局没人抢亮大王": seats 1-4 flip the kitty's first four cards; the lowest suited card
        makes its flipper 庄 and gives the suit (all jokers: a new deal)."""
        claims = sorted((claim, s) for s in self.shown if (claim := self._big_claim(s)))
        if claims:
            (_, suit), seat = claims[0]
            self.declared = True  # the 大王 shown is the hand's 亮主: the kitty is shown
            self.first_line = Window.took(seat, T("dagunzi.took.shown"))
            self._fix(seat, suit)
            return
        flips = [(rank_of(c), s, c) for s, c in enumerate(self.kitty[:4]) if c < SMALL]
        if not flips:
            self._deal()
            return
        _, seat, cid = min(flips)
        self.first_line = T("dagunzi.line.flipped", cards=format_ids(self.kitty[:4]),
                            seat=seat + 1)
        self._fix(seat, cid // 13)

    def _deal_packet(self) -> None:
        if self._deal_packets(PER, PACKETS, self.dealt):
            return
        if self.decl is not None:
            self.declared = True
            self._fix(None, self.decl.suit)
            return
        # Nobody declared: a random kitty card gives the suit, past jokers (all jokers: redeal).
        suited = [c for c in self.kitty if c < SMALL]
        if not suited:
            self._deal()
            return
        self._fix(None, self.rng.choice(suited) // 13)

    def _fix(self, dealer: int | None, suit: int) -> None:
        """Trump and 庄 are known: set the order, then 进贡 and the kitty."""
        if dealer is not None:
            self.dealer = dealer
        assert self.dealer is not None
        self.level = self.levels[team(self.dealer)]
        self.trump = suit
        self.ctx = Context(self.level, suit, True)
        self._start_tribute()

    def _apply_show(self, seat: int, verb: str, rest: str, text: str) -> str:
        """亮大王 (``show``, also ``亮``/``亮 R``) or not (``pass``); the window closes once
        every seat that may show has answered."""
        if verb == "pass" and not rest.strip():
            self.passed.add(seat)
        elif verb in ("show", "declare") and rest.strip().lower() in ("", "r", "大王"):
            self.shown.add(seat)
        else:
            raise IllegalActionError("show the big joker or pass", seat=seat, action=text,
                                     text=T("err.dagunzi.show_now"))
        if not self._eligible():
            self._close_show()
        return "pass" if seat in self.passed else "show"

    def _apply_declare(self, seat: int, verb: str, rest: str, text: str) -> str:
        if verb == "pass":
            self.passed.add(seat)
            if not self._eligible():
                self._deal_packet()
            return "pass"
        if verb != "declare":
            raise IllegalActionError("declare or pass", seat=seat, action=text,
                                     text=T("err.dagunzi.declare_now"))
        parts = rest.split()
        suit = None
        if parts and parts[-1].lower() in SUITS and len(parts) > 1:
            suit = SUITS.index(parts[-1].lower())
            rest = " ".join(parts[:-1])
        ids = self._parse(rest)
        self._check_held(seat, ids, text)
        match = [d for d in self._declarations(seat) if sorted(self._decl_ids(d)) == sorted(ids)
                 and (d.joker is None or d.suit == suit)]
        if not match:
            raise IllegalActionError(
                "not a stronger declaration", seat=seat, action=text,
                text=T("err.dagunzi.weak_declaration", cards=format_ids(ids),
                       level=level_name(self.level)))
        self.decl = match[0]
        if not self._eligible():
            self._deal_packet()
        return f"declare {self._decl_text(match[0])}"
