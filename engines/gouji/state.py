"""够级's hand as data: the options, the deal with 上班, the carried 进贡 and 买3, and the
queries the rules ask of it (who still plays, 四户乱缠, 让牌, 革命).

``GoujiGame`` (engines.gouji.game) builds on ``GoujiState`` through the layers of its jobs:
scoring (科 and the series), plays, the 够级 windows and views.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engines.base import Game, Outcome, RoundLog, Setup, T, Text
from engines.climbing.notation import (
    BIG,
    NRANKS,
    SMALL,
    TWO,
    Counts,
    counts,
    deal_ranks,
    minus,
    plus,
)
from engines.errors import OptionError
from engines.gouji.patterns import THREE, Play
from engines.gouji.suits import Suits

DECLARE, HEAD, PLAY, BURN, DONE = "declare", "head", "play", "burn", "done"
DECLARE_KEY = -1  # ``Window.key`` of the 宣点 window (once; 够级 windows count from 1)
SEATS, DECKS, EACH = 6, 4, 36
RANK_POINTS = (4, 2, 0, 0, -2, -4)
"""头科 +4, 二科 +2, 三科 0, 四科 0, 二落 −2, 大落 −4."""
SERIES = 5
"""进贡 is played over a series of 5 games; game 1 has none."""
MAX_BASE = 1_000_000

NEW: dict[str, Any] = {
    "base": 1, "beisan": False, "baopai": True, "tribute": True, "tribute_order": "new",
    "new_round_leader": "last", "pass_reentry": "new", "big_flower_top": True, "kaidian": "new",
    "wutou_after_ke": True,
}
"""新够级 (001) defaults."""
CLASSIC: dict[str, Any] = {
    **NEW, "baopai": False, "tribute_order": "classic", "new_round_leader": "duitou",
    "pass_reentry": "classic", "big_flower_top": False, "kaidian": "classic",
    "wutou_after_ke": False,
}
"""够级 (000 and 001-够级) defaults."""

_CHOICES = {
    "tribute_order": ("new", "classic"), "new_round_leader": ("last", "duitou"),
    "pass_reentry": ("new", "classic"), "kaidian": ("new", "classic"),
}
TRIBUTE_ORDER = {"classic": ("men", "shao", "dian", "luo"), "new": ("dian", "shao", "men", "luo")}
"""闷贡 > 烧贡 > 点贡 > 落贡 (000, 001-够级); 点贡 > 烧贡 > 闷贡 > 落贡 (新够级)."""


def opposite(seat: int) -> int:
    """对头 / 对家: the seat across the table (an opponent)."""
    return (seat + 3) % SEATS


def alliance(seat: int) -> int:
    """联邦: seats 1, 3, 5 (indexes 0, 2, 4) against 2, 4, 6."""
    return seat % 2


def dian_pay(me_decl: bool, they_decl: bool, me_open: bool, they_open: bool) -> tuple[int, int]:
    """点贡 between 对家: (what I pay, what they pay), by 宣点 and 开点 (000/001 tables).

    >>> dian_pay(True, True, True, False), dian_pay(True, False, False, False)
    ((0, 4), (1, 2))
    >>> dian_pay(False, False, True, True), dian_pay(True, False, False, True)
    ((0, 0), (3, 0))
    """
    if me_decl and they_decl:
        if me_open != they_open:
            return (0, 4) if me_open else (4, 0)
        return (2, 2)
    if not me_decl and not they_decl:
        if me_open and they_open:
            return (0, 0)
        if me_open != they_open:
            return (0, 1) if me_open else (1, 0)
        return (1, 1)
    if not me_decl:
        they, me = dian_pay(they_decl, me_decl, they_open, me_open)
        return me, they
    if me_open and not they_open:
        return (0, 3)
    if not me_open and not they_open:
        return (1, 2)
    if me_open and they_open:
        return (2, 0)
    return (3, 0)


@dataclass(frozen=True)
class Top:
    """The play to beat: its ``owner``, cards, reading and what may answer it."""

    owner: int
    cards: Counts
    play: Play
    gouji: bool
    dead: bool = False        # 够死级: only a 烧 may answer
    restricted: bool = False  # played after 让牌: only the 对头 may answer
    final: bool = False       # the owner's 底牌 (it went out with it)
    suited: str | None = None  # its cards with their suits, for pictures (``View.shown``)


class GoujiState(Game):
    """够级's hand as data: the deal, 进贡 and 买3 before play, and the rules' queries."""

    DEFAULTS: Mapping[str, Any] = NEW

    def __init__(self, setup: Setup) -> None:
        super().__init__(setup)
        opts = {**self.DEFAULTS, **dict(setup.options)}
        self.check_options(opts)
        self.opts = opts
        self.beisan: bool = opts["beisan"]
        self.big_top: bool = opts["big_flower_top"]
        self.base: int = opts["base"]
        carry = self._read_carry(setup.carry)
        self.game_no: int = carry[0]
        rng = random.Random(setup.seed)
        shown = self._deal(rng)
        self.start_lines: list[Text] = []
        self.events: list[Text] = []
        self.leader = self._shangban(rng, shown, carry[2])
        self.carried: list[tuple[int, int, int, str]] = carry[1]
        self._pay_tributes()
        self.revolted: list[int] = []
        if self.beisan:
            self._buy_threes()
        self.dealt: tuple[Counts, ...] = tuple(self.hands)
        self._blank_state()

    def _deal(self, rng: random.Random) -> list[int]:
        """Deals the four decks (suits followed for pictures); returns, for each seat, its most
        same-suit cards of the 上班 rank."""
        hands = []
        shown = []
        show_rank = 1 if self.beisan else THREE  # 憋三: same-suit 4s; otherwise 3s
        dealt = deal_ranks(rng, DECKS, SEATS, EACH)
        # the suits of the cards dealt, followed through 进贡, 买3 and the plays (pictures only)
        self.suits: Suits | None = Suits(dealt)
        for mine in dealt:
            hands.append(counts(mine))
            suits = [sum(1 for r, s in mine if r == show_rank and s == k) for k in range(4)]
            shown.append(max(suits))
        self.hands: list[Counts] = hands
        return shown

    def _shangban(self, rng: random.Random, shown: list[int], first: int | None) -> int:
        """上班: who leads first (the carried 大落 when the series says so), with its line."""
        # 上班: most same-suit cards shown (at least 2); a tie goes to the first to show, the
        # showing going round from a drawn seat; nobody: a drawn seat
        first_show = rng.randrange(SEATS)
        order = [(first_show + i) % SEATS for i in range(SEATS)]
        best = max(shown)
        drawn = rng.randrange(SEATS)
        if best >= 2:
            leader = next(s for s in order if shown[s] == best)
            self.start_lines.append(T("gouji.line.shangban", seat=leader + 1, n=best,
                                      rank="4" if self.beisan else "3"))
        else:
            leader = drawn
            self.start_lines.append(T("gouji.line.shangban_random", seat=drawn + 1))
        if first is not None:
            leader = first
            self.start_lines.append(T("gouji.line.daluo_leads", seat=first + 1))
        return leader

    def _blank_state(self) -> None:
        """The state of play before 宣点: nobody declared, out or burning; the leader to lead."""
        self.declared: dict[int, bool] = {}
        self.answers: dict[int, str] = {s: "revolt" for s in self.revolted}
        self.revolutionary: int | None = None
        self.head: str | None = None
        self.finished: list[int] = []
        self.failed: list[int] = []
        self.kaidian: set[int] = set()
        self.dead_left = [0] * SEATS
        self.yaotou: int | None = None
        self.wutou = [False] * SEATS
        self.men: list[tuple[int, int]] = []
        self.men_watch = [False] * SEATS
        self.shao: list[tuple[int, int]] = []
        self.burn: tuple[int, int] | None = None
        self.top: Top | None = None
        self.mode = "lead"
        self.turn = self.leader
        self.window_start = 0  # which 够级 window is open (a count of windows opened)
        self.window_seats: dict[int, str] = {}   # seat -> "beat" | "burn"
        self.window_answers: dict[int, str] = {}
        self.passed_round: set[int] = set()
        self.passed_now: set[int] = set()
        self.rounds = RoundLog()  # 本轮: the plays and passes since the last lead
        self.round_suited: list[str | None] = []  # the suited twin of each of its plays
        self.last_suited: tuple[str | None, ...] = ()  # and of 上一轮's
        self.reentered: set[int] = set()
        self.second_used = False
        self.rang_by: int | None = None
        self.rang_asked = False
        self.status: dict[int, Text] = {}
        self.void = False
        self.played = False
        self._phase = DECLARE
        self._outcome: Outcome | None = None
        self._carry: dict[str, Any] = {}

    @classmethod
    def check_options(cls, options: Mapping[str, Any]) -> None:
        base = options.get("base", 1)
        if not isinstance(base, int) or isinstance(base, bool) or not 1 <= base <= MAX_BASE:
            raise OptionError("base", f"must be a whole number from 1 to {MAX_BASE}",
                              text=T("err.gouji.option_base", max=MAX_BASE))
        for key, allowed in _CHOICES.items():
            value = options.get(key, allowed[0])
            if value not in allowed:
                raise OptionError(key, f"must be one of {', '.join(allowed)}",
                                  text=T("err.gouji.option_choice", option=key,
                                         allowed=", ".join(allowed)))

    @staticmethod
    def _read_carry(carry: Mapping[str, Any]) -> tuple[int, list[tuple[int, int, int, str]],
                                                        int | None]:
        game = carry.get("game", 1)
        tributes = carry.get("tributes", [])
        first = carry.get("first")
        ok = isinstance(game, int) and 1 <= game <= SERIES and isinstance(tributes, list)
        ok = ok and (first is None or isinstance(first, int) and 0 <= first < SEATS)
        out = []
        if ok:
            for item in tributes:
                if not (isinstance(item, list | tuple) and len(item) == 4):
                    ok = False
                    break
                payer, payee, n, kind = item
                if not (isinstance(payer, int) and isinstance(payee, int) and isinstance(n, int)
                        and 0 <= payer < SEATS and 0 <= payee < SEATS and payer != payee
                        and 1 <= n <= 4 and kind in ("men", "shao", "dian", "luo")):
                    ok = False
                    break
                out.append((payer, payee, n, str(kind)))
        if not ok:
            raise OptionError("carry", f"bad carried series {dict(carry)!r}",
                              text=T("err.gouji.carry"))
        return game, out, first

    def _pay_tributes(self) -> None:
        """进贡: each payer gives its biggest cards; 落贡 is returned (还贡) with the receiver's
        smallest (in 憋3, smallest apart from 3s where it can)."""
        for payer, payee, n, kind in self.carried:
            given = self._take(payer, n, biggest=True)
            self.hands[payee] = plus(self.hands[payee], given)
            self._move_suits(payer, payee, given)
            self.start_lines.append(T("gouji.line.tribute", payer=payer + 1, payee=payee + 1,
                                      kind=T(f"gouji.tribute.{kind}"), n=n))
            if kind == "luo":
                back = self._take(payee, n, biggest=False)
                self.hands[payer] = plus(self.hands[payer], back)
                self._move_suits(payee, payer, back)
                self.start_lines.append(T("gouji.line.return", payer=payee + 1,
                                          payee=payer + 1, n=n))

    def _take(self, seat: int, n: int, biggest: bool) -> Counts:
        hand = list(self.hands[seat])
        order = list(range(NRANKS - 1, -1, -1)) if biggest else list(range(NRANKS))
        if not biggest and self.beisan:
            order = order[1:] + [THREE]
        taken = [0] * NRANKS
        for r in order:
            while hand[r] and sum(taken) < n:
                hand[r] -= 1
                taken[r] += 1
        self.hands[seat] = tuple(hand)
        return tuple(taken)

    def _buy_threes(self) -> None:
        """买3/要3 (憋3): a seat without a 3 pays one 2 (else 小花, else 大花) to its 对头 for a
        3, else to another of the 对头's alliance; failing that its own alliance gives one (要3);
        no 3 and no money: automatic 革命."""
        for seat in range(SEATS):
            if self.hands[seat][THREE]:
                continue
            money = next((r for r in (TWO, SMALL, BIG) if self.hands[seat][r]), None)
            if money is None:
                self.revolted.append(seat)
                self.start_lines.append(T("gouji.line.auto_revolt", seat=seat + 1))
                continue
            o = opposite(seat)
            sellers = [o, (seat + 1) % SEATS, (seat + 5) % SEATS]
            seller = next((s for s in sellers if self.hands[s][THREE] >= 2), None)
            pay = True
            if seller is None:
                seller = next((s for s in ((seat + 2) % SEATS, (seat + 4) % SEATS)
                               if self.hands[s][THREE] >= 2), None)
                pay = False
            if seller is None:
                self.revolted.append(seat)
                self.start_lines.append(T("gouji.line.auto_revolt", seat=seat + 1))
                continue
            three = tuple(1 if r == THREE else 0 for r in range(NRANKS))
            self.hands[seller] = minus(self.hands[seller], three)
            self.hands[seat] = plus(self.hands[seat], three)
            self._move_suits(seller, seat, three)
            if pay:
                coin = tuple(1 if r == money else 0 for r in range(NRANKS))
                self.hands[seat] = minus(self.hands[seat], coin)
                self.hands[seller] = plus(self.hands[seller], coin)
                self._move_suits(seat, seller, coin)
                self.start_lines.append(T("gouji.line.buy3", seat=seat + 1, seller=seller + 1))
            else:
                self.start_lines.append(T("gouji.line.ask3", seat=seat + 1, seller=seller + 1))

    def _move_suits(self, giver: int, taker: int, cards: Counts) -> None:
        """The suits follow ``cards`` from ``giver`` to ``taker`` (``engines.gouji.suits``)."""
        if self.suits is not None:
            self.suits.move(giver, taker, cards)

    # --- state helpers ------------------------------------------------------------------------
    def active(self, seat: int) -> bool:
        """Still playing: not out, not burned out (烧失败), not a revolutionary."""
        return (self._phase == PLAY and seat not in self.finished and seat not in self.failed
                and seat != self.revolutionary)

    def actives(self) -> list[int]:
        return [s for s in range(SEATS) if self.active(s)]

    def luanchan(self) -> bool:
        """四户乱缠: four or fewer seats still play ("剩下少于等于四人在打牌")."""
        return len(self.actives()) <= 4

    def phase(self) -> str:
        """``declare``, ``head``, ``play``, ``burn`` (a 够级 window: its own timer), ``done``."""
        if self._phase == PLAY and self.mode == "window":
            return BURN
        return self._phase

    def is_over(self) -> bool:
        return self._phase == DONE

    def turn_seats(self) -> tuple[int, ...]:
        if self._phase == HEAD:
            assert self.revolutionary is not None
            return (opposite(self.revolutionary),)
        if self._phase == PLAY:
            return (self.turn,)
        return ()

    def may_rang(self, seat: int) -> bool:
        """让牌: the 对头's play, both seats before this one passed on it, before 乱缠."""
        top = self.top
        if (self.mode != "turn" or top is None or self.luanchan() or self.rang_by is not None
                or top.owner != opposite(seat) or self.rang_asked):
            return False
        before = [(seat - 1) % SEATS, (seat - 2) % SEATS]
        return all(s in self.passed_now or not self.active(s) for s in before)

    def may_revolt(self, seat: int) -> bool:
        """革命: no 花 and no 2 right after the deal."""
        h = self.hands[seat]
        return not (h[TWO] or h[SMALL] or h[BIG])

    def _next_active(self, seat: int) -> int:
        nxt = (seat + 1) % SEATS
        for _ in range(SEATS):
            if self.active(nxt):
                return nxt
            nxt = (nxt + 1) % SEATS
        return seat
