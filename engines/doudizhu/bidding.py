"""斗地主's landlord selection: the auction's steps, 都不叫 and the redeal, the kitty, 加倍,
黄金眼 (火拼) and 明牌 as an offer.
"""

from __future__ import annotations

from engines.base import Choice, T
from engines.doudizhu.auction import SHOW_FACTOR, CallAuction
from engines.doudizhu.notation import NRANKS, format_cards
from engines.doudizhu.settlement import DoudizhuSettlement
from engines.errors import IllegalActionError

_PEEK_PAIRS = ("12", "13", "23")


def _one(rank: int) -> tuple[int, ...]:
    counts = [0] * NRANKS
    counts[rank] = 1
    return tuple(counts)


class DoudizhuBidding(DoudizhuSettlement):
    """The landlord selection, the kitty, 加倍, 黄金眼 and 明牌 as an offer."""

    def _redeal(self) -> None:
        """都不叫: redeal with the next first bidder; void after ``max_deals`` deals (never
        when it is 0: 欢乐斗地主 redeals "直到有人叫地主为止", 003 二)."""
        self.deal_no += 1
        if self.rules.max_deals and self.deal_no >= self.rules.max_deals:
            self.void = True
            self.over = True
            self._phase = "over"
            self.pending = []
            return
        self._start_deal((self.rotation_first + 1) % self.n)

    def _make_landlord(self, seat: int) -> None:
        """地主确定: the kitty goes to the landlord face up, then 加倍 / 明牌 / play."""
        self.landlord = seat
        self._rng = None  # no redeal can follow: the shuffle's stream (2.5 KB) is let go
        hand = self.hands[seat]
        for rank, c in enumerate(self.kitty):
            hand[rank] += c
        self.kitty_taken = True
        self.suits.take_kitty(seat)
        if self.rules.doubling:
            eligible = [s for s in self._order(seat) if self.may_double(s)]
            if eligible:
                self._phase = "double"
                self.pending = eligible
                return
        self._after_double()

    def may_double(self, seat: int) -> bool:
        """加倍条件 (003 五.4-5): every stake involved must exceed the room threshold.

        A landlord needs all seats above it; a farmer itself and the landlord. A threshold of
        0 (普通场) lets anyone double; an unknown stake (None) counts as unlimited.
        """
        t = self.rules.double_threshold
        if t <= 0 or self.landlord is None:
            return True

        def above(s: int) -> bool:
            stake = self.stakes[s]
            return stake is None or stake > t

        if seat == self.landlord:
            return all(above(s) for s in range(self.n))
        return above(seat) and above(self.landlord)

    def _after_double(self) -> None:
        self.pending = []
        self._start_play()

    def _start_play(self) -> None:
        assert self.landlord is not None
        self._phase = "play"
        self.pending = []
        self.turn = self.landlord
        self.last = None
        self.last_seat = None

    def _auction_act(self, seat: int, kind: str, value: int) -> str:
        """One step of the landlord selection; then the landlord takes the kitty, or the
        hand is redealt (都不叫)."""
        if kind == "bid" and value and value <= self.auction.high:
            raise IllegalActionError(
                f"a bid must be higher than {self.auction.high}",
                seat=seat,
                action=f"bid {value}",
                text=T("err.ddz.bid_low", high=self.auction.high),
            )
        auction = self.auction
        action = auction.act(seat, kind, value)
        self.status[seat] = action
        if auction.landlord is not None:
            self._make_landlord(auction.landlord)
        elif auction.redeal:
            self._redeal()
        return action

    def _double(self, seat: int, yes: bool) -> str:
        """加倍/不加倍: doubles this seat's settlement with its opponents (002 §4, 003 五)."""
        self.pending.remove(seat)
        self.doubled[seat] = yes
        self.status[seat] = "double" if yes else "nodouble"
        if not self.pending:
            self._after_double()
        return "double" if yes else "nodouble"

    # --- 黄金眼 (火拼) ---------------------------------------------------------------------
    def _peek_actions(self, seat: int) -> list[str]:
        """黄金眼: while the landlord is chosen (叫/抢地主), a seat with peeks left may look at
        two of the three kitty cards it has not seen together yet (001 火拼)."""
        if not self.rules.golden_eye or self.auction.phase not in ("bid", "grab"):
            return []
        seen = self.peeks[seat]
        if len(seen) >= self.rules.golden_eye:
            return []
        return [f"peek {pair}" for pair in _PEEK_PAIRS if pair not in seen]

    def peeked(self, seat: int) -> str:
        """The kitty cards ``seat`` has seen with 黄金眼, by place ("1:3 2:K"), or ""."""
        places = sorted({int(c) for pair in self.peeks[seat] for c in pair})
        return " ".join(f"{p}:{format_cards(_one(self.kitty_cards[p - 1]))}" for p in places)

    # --- 明牌 as an offer ----------------------------------------------------------------------
    def show_factor(self, seat: int) -> int:
        """The 明牌 factor open to ``seat`` now, 0 if none: ×3 while the landlord is chosen
        (the hall deals at once, so every seat has seen its whole deal: 发牌明牌 after all of
        it, 003 四.3), ×2 for the landlord from the kitty to its first play (003 四.4);
        nothing once the seat has shown, for the farmers once the landlord is known, or after
        the landlord's first play."""
        if not self.rules.mingpai or self.over or self.shown[seat] or seat in self.escaped:
            return 0
        if self.landlord is None:
            if self._phase != "auction":
                return 0
            return SHOW_FACTOR["deal1"] if self.deal_open() else SHOW_FACTOR["deal2"]
        return 2 if seat == self.landlord and self.played_hands[seat] == 0 else 0

    def deal_open(self) -> bool:
        """发牌明牌 ×4 is open (``Rules.deal_show``, 二人): the deal has landed and nobody has
        answered the calling yet. **Decided** (004 五.3 "在发牌的过程中…根据发牌数量的多少
        *4 和 *3"): the hall deals a hand at once, so the deal "in progress" is the moment
        between the deal and the calling's first answer (叫牌前): ×4 then, ×3 once the
        calling has begun; a ×4 taken then is a 明牌 before the calling, so the first to show
        calls first (004 三.2)."""
        auction = self.auction
        return (
            self.rules.deal_show
            and self._phase == "auction"
            and isinstance(auction, CallAuction)
            and auction.phase == "bid"
            and all(c is None for c in auction.calls)
        )

    def open_offers(self, seat: int) -> tuple[Choice, ...]:
        """明牌 at its current factor (``show 3`` / ``show 2``), while one is open."""
        factor = self.show_factor(seat) if 0 <= seat < self.n else 0
        if not factor:
            return ()
        return (Choice(f"show {factor}", T("ddz.choice.show", x=factor), "success"),)

    def read_offer(self, seat: int, text: str) -> str | None:
        """``show``/``明牌`` takes the 明牌 open now, ``show N`` only at factor N; an offer
        that is not open (any more) is refused, saying what is open instead."""
        if not self.rules.mingpai:
            return None
        typed = text.strip().lower()
        if not typed.startswith(("show", "明牌")):
            return None
        head, _, rest = " ".join(typed.replace("明牌", "show ").split()).partition(" ")
        if head != "show":
            return None
        factor = self.show_factor(seat)
        rest = rest.lstrip("x×")
        if factor and (not rest or rest == str(factor)):
            return f"show {factor}"
        now = ", ".join(c.action for c in self.open_offers(seat)) or "—"
        raise IllegalActionError(
            f"this 明牌 is not open now (×3 while the landlord is chosen, ×2 for the landlord "
            f"before its first play); open now: {now}",
            seat=seat,
            action=text,
            text=T("err.ddz.show_closed", now=now),
        )

    def _take_offer(self, seat: int, action: str) -> str:
        factor = int(action.split()[1])
        auction = self.auction
        assert isinstance(auction, CallAuction)
        first_to_show = not auction.show_order
        auction.show(seat, factor)
        self.status[seat] = "show"
        if factor == SHOW_FACTOR["deal1"] and first_to_show:
            # 明牌 before the calling: the first to show calls first (004 三.2); nobody has
            # answered yet, so the calling simply starts from this seat
            auction.first = auction.turn = seat
        return action
