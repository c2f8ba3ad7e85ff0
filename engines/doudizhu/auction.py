"""选地主: the interchangeable ways a 斗地主 hand chooses its landlord.

An ``Auction`` runs every step before the landlord is known and reports a result: a
landlord, or a redeal (都不叫). The game owns the deal, the kitty, 加倍 and the play; it
hands the auction typed actions already read into a kind (``bid``, ``call``, ``grab``,
``show``) and a yes/no (and a bid value), and asks it who acts, what they may do and the
factors it contributes to the score (the bid, the grabs, the largest 明牌).

- ``ScoreAuction``: 叫分 1/2/3 once each, higher than the last, 3 ends it (000/001/002).
- ``CallAuction``: 叫地主 (the first call ends the calling), one 抢地主 chance each, ×2 per
  grab; it records the 明牌 taken meanwhile, which the game offers (003/004).
- ``BlindAuction``: 麻辣's 闷抓 or 看牌 by the 明牌 card's holder, then 叫地主 (001).

``make_auction`` picks one from ``Rules.bidding``; a new way (闷抓, the 五人 card) is one
more class with the same methods.

>>> a = ScoreAuction(3, first=1)
>>> a.legal(1)
['bid 1', 'bid 2', 'bid 3', 'nobid']
>>> a.act(1, "bid", 2), a.act(2, "bid", 3), a.landlord
('bid 2', 'bid 3', 2)
"""

from __future__ import annotations

from typing import Any

from engines.doudizhu.rules import Bidding, Rules

SHOW_FACTOR = {"start": 5, "deal1": 4, "deal2": 3, "kitty": 2}
"""明牌 ×5 before the deal, ×4 after its first half, ×3 after all of it, ×2 after the kitty
(003 四). The hall deals at once, so ×5 is chosen at the Start button (``Setup.starts``), ×3
(the whole deal seen) and ×2 are offers, and ×4 has no moment to be chosen in."""
YES = {
    "bid": "bid",
    "call": "call",
    "grab": "grab",
    "show": "show",
    "double": "double",
    "blind": "blind",
}
NO = {
    "bid": "nobid",
    "call": "nocall",
    "grab": "nograb",
    "show": "noshow",
    "double": "nodouble",
    "blind": "look",
}


class Auction:
    """One way of choosing the landlord; subclasses implement the steps.

    After each ``act`` the game reads ``landlord`` (decided) or ``redeal`` (nobody took it).
    """

    def __init__(self, n: int, first: int) -> None:
        self.n = n
        self.first = first
        self.rotation_first = first
        self.turn = first
        self.phase = "bid"
        self.pending: list[int] = []
        self.landlord: int | None = None
        self.redeal = False
        self.high = 0
        self.high_seat: int | None = None
        self.grabs = 0
        self.shown: list[int] = [0] * n
        self.blind = False  # 闷抓 (麻辣): the landlord took the hand unseen

    def order(self, start: int) -> list[int]:
        return [(start + i) % self.n for i in range(self.n)]

    def to_act(self) -> tuple[int, ...]:
        return tuple(self.pending) if self.pending else (self.turn,)

    def kind(self) -> str:
        """The action kind now (``bid``, ``call``, ``grab`` or ``show``)."""
        return self.phase

    def label(self) -> str:
        """The phase's text key suffix (``ddz.phase.<label>``)."""
        return self.phase

    def legal(self, seat: int) -> list[str]:
        kind = self.kind()
        return [YES[kind], NO[kind]]

    def act(self, seat: int, kind: str, value: int) -> str:
        """Apply one step (``value`` 0 declines); returns the canonical action."""
        raise NotImplementedError

    def before_bid(self) -> bool:
        """还没人叫牌: nobody has bid or called yet in this deal (000 §8 escape rule)."""
        return self.landlord is None and self.high == 0

    def base_factor(self) -> int:
        """What the auction multiplies the room's 底分 by (the bid in 叫分)."""
        return 1

    def snapshot(self) -> dict[str, Any]:
        return {
            "phase": self.phase,
            "first": [self.rotation_first, self.first],
            "turn": self.turn,
            "pending": list(self.pending),
            "high": [self.high, self.high_seat],
            "grabs": self.grabs,
            "shown": list(self.shown),
            "landlord": self.landlord,
            "redeal": self.redeal,
        }


class ScoreAuction(Auction):
    """叫分: one bid each of 1/2/3 or 不叫, higher than the last; 3 ends it (000 §2)."""

    def __init__(self, n: int, first: int) -> None:
        super().__init__(n, first)
        self.bids: list[int | None] = [None] * n

    def legal(self, seat: int) -> list[str]:
        return [f"bid {b}" for b in range(self.high + 1, 4)] + ["nobid"]

    def act(self, seat: int, kind: str, value: int) -> str:
        if value and value <= self.high:
            raise ValueError(self.high)
        self.bids[seat] = value
        if value:
            self.high, self.high_seat = value, seat
        action = f"bid {value}" if value else "nobid"
        if value == 3:
            self.landlord = seat
            return action
        self.turn = (seat + 1) % self.n
        if self.turn == self.first:
            if self.high_seat is not None:
                self.landlord = self.high_seat
            else:
                self.redeal = True
        return action

    def base_factor(self) -> int:
        return max(self.high, 1)

    def snapshot(self) -> dict[str, Any]:
        return super().snapshot() | {"bids": list(self.bids)}


class CallAuction(Auction):
    """叫/抢地主 (003 二–三); the 明牌 taken meanwhile decide the landlord when all say 不叫."""

    def __init__(self, n: int, first: int, mingpai: bool) -> None:
        super().__init__(n, first)
        self.calls: list[bool | None] = [None] * n
        self.caller: int | None = None
        self.holder: int | None = None
        self.grab_queue: list[int] = []
        self.grab_back_done = False
        self.show_order: list[int] = []
        self.mingpai = mingpai

    def kind(self) -> str:
        return "call" if self.phase == "bid" else self.phase

    def label(self) -> str:
        return "call" if self.phase == "bid" else self.phase

    def before_bid(self) -> bool:
        return self.landlord is None and self.caller is None

    def show(self, seat: int, factor: int) -> None:
        """明牌 at ``factor``: the largest factor among the seats that showed applies (003 四)."""
        self.shown[seat] = factor
        self.show_order.append(seat)

    def act(self, seat: int, kind: str, value: int) -> str:
        yes = bool(value)
        if kind == "call":
            return self._call(seat, yes)
        return self._grab(seat, yes)

    def _call(self, seat: int, yes: bool) -> str:
        """叫地主/不叫: the first call ends the calling (003 二)."""
        self.calls[seat] = yes
        if yes:
            self.caller = self.holder = seat
            # One 抢地主 chance each, in order; those who said 不叫 may not grab (003 三.4).
            self.grab_queue = [s for s in self.order(seat)[1:] if self.calls[s] is not False]
            self._next_grab()
            return "call"
        self.turn = (seat + 1) % self.n
        if self.turn == self.first:
            if self.show_order:
                # 都不叫 but someone showed: the first 明牌 player is landlord (003 二.3).
                self.landlord = self.show_order[0]
            else:
                self.redeal = True
        return "nocall"

    def _next_grab(self) -> None:
        if not self.grab_queue and self.grabs and not self.grab_back_done:
            # The caller's own single chance comes after the others have grabbed.
            self.grab_back_done = True
            assert self.caller is not None
            if self.holder != self.caller:
                self.grab_queue = [self.caller]
        if self.grab_queue:
            self.phase = "grab"
            self.turn = self.grab_queue[0]
            return
        self.landlord = self.holder

    def _grab(self, seat: int, yes: bool) -> str:
        """抢地主: ×2 each; the last grabber not out-grabbed is landlord (003 三)."""
        self.grab_queue.pop(0)
        if yes:
            self.grabs += 1
            self.holder = seat
        self._next_grab()
        return "grab" if yes else "nograb"

    def snapshot(self) -> dict[str, Any]:
        return super().snapshot() | {
            "calls": list(self.calls),
            "caller": self.caller,
            "holder": self.holder,
            "grab_queue": list(self.grab_queue),
            "grab_back_done": self.grab_back_done,
            "show_order": list(self.show_order),
        }


class BlindAuction(Auction):
    """麻辣 (001): the holder of the 明牌 card (``first``) chooses 闷抓 — landlord at once,
    without looking, stakes ×2 — or 看牌; then 叫地主/不叫 in turn from the holder, the first
    call ends it; all 不叫: redeal."""

    def __init__(self, n: int, first: int) -> None:
        super().__init__(n, first)
        self.phase = "blind"

    def kind(self) -> str:
        return "blind" if self.phase == "blind" else "call"

    def label(self) -> str:
        return "blind" if self.phase == "blind" else "call"

    def legal(self, seat: int) -> list[str]:
        return ["blind", "look"] if self.phase == "blind" else ["call", "nocall"]

    def before_bid(self) -> bool:
        return self.landlord is None and self.phase == "blind"

    def act(self, seat: int, kind: str, value: int) -> str:
        if self.phase == "blind":
            if value:
                self.blind = True
                self.landlord = seat
                return "blind"
            self.phase = "bid"
            self.turn = seat
            return "look"
        if value:
            self.landlord = seat
            return "call"
        self.turn = (seat + 1) % self.n
        if self.turn == self.first:
            self.redeal = True
        return "nocall"

    def snapshot(self) -> dict[str, Any]:
        return super().snapshot() | {"blind": self.blind}


def make_auction(rules: Rules, n: int, first: int) -> Auction:
    """The auction of a rule set, for one deal."""
    if rules.bidding is Bidding.SCORE:
        return ScoreAuction(n, first)
    if rules.bidding is Bidding.BLIND:
        return BlindAuction(n, first)
    return CallAuction(n, first, rules.mingpai)
