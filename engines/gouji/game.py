"""够级 / 新够级 (000, 001): six seats in two alliances of three, four decks, 够级牌 answered by
the 对头 alone, 烧牌 claim windows, 让牌, 开点, 革命, 四户乱缠, ranks and team scores, and the
5-game 进贡 series.

Rules and decisions: docs/games/gouji.md.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engines.base import (
    Choice,
    Game,
    Outcome,
    Picker,
    RoundLog,
    SeatView,
    Setup,
    Shown,
    T,
    Text,
    View,
    Window,
)
from engines.climbing.notation import (
    BIG,
    NRANKS,
    PASS,
    SMALL,
    TWO,
    Counts,
    contains,
    counts,
    deal_ranks,
    format_cards,
    is_pass,
    minus,
    not_held,
    parse_cards,
    picker_tokens,
    plus,
)
from engines.errors import IllegalActionError, OptionError
from engines.gouji import ai
from engines.gouji.patterns import (
    THREE,
    Play,
    beats,
    beats_any,
    burnable,
    burns_any,
    is_gouji,
    plays,
    read,
)
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


class GoujiGame(Game):
    """够级 / 新够级 with the option flags of ``NEW`` / ``CLASSIC`` (docs/games/gouji.md)."""

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
        self.start_lines: list[Text] = []
        self.events: list[Text] = []
        # 上班: most same-suit cards shown (at least 2); a tie goes to the first to show, the
        # showing going round from a drawn seat; nobody: a drawn seat
        first_show = rng.randrange(SEATS)
        order = [(first_show + i) % SEATS for i in range(SEATS)]
        best = max(shown)
        drawn = rng.randrange(SEATS)
        if best >= 2:
            self.leader = next(s for s in order if shown[s] == best)
            self.start_lines.append(T("gouji.line.shangban", seat=self.leader + 1, n=best,
                                      rank="4" if self.beisan else "3"))
        else:
            self.leader = drawn
            self.start_lines.append(T("gouji.line.shangban_random", seat=drawn + 1))
        if carry[2] is not None:
            self.leader = carry[2]
            self.start_lines.append(T("gouji.line.daluo_leads", seat=carry[2] + 1))
        self.carried: list[tuple[int, int, int, str]] = carry[1]
        self._pay_tributes()
        self.revolted: list[int] = []
        if self.beisan:
            self._buy_threes()
        self.dealt: tuple[Counts, ...] = tuple(self.hands)
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
        self.epochs = [0] * SEATS
        self.void = False
        self.played = False
        self._phase = DECLARE
        self._outcome: Outcome | None = None
        self._carry: dict[str, Any] = {}
        if len(self.answers) == SEATS:
            self._end_declare()

    # --- set-up -------------------------------------------------------------------------------
    @classmethod
    def position(cls, hands: list[str], *, leader: int = 0, declared: tuple[int, ...] = (),
                 options: Mapping[str, Any] | None = None) -> GoujiGame:
        """A game in play from written hands (tests and examples): ``hands`` in notation, any
        sizes; ``declared`` the seats that 宣点; nobody revolts."""
        game = cls(Setup(seats=SEATS, seed=0, options=dict(options or {})))
        game.hands = [parse_cards(h, DECKS) if h else (0,) * NRANKS for h in hands]
        game.suits = None  # written hands were never dealt: no suits to show
        game.dealt = tuple(game.hands)
        game.revolted = []
        game.answers = {s: "declare" if s in declared else "nodeclare" for s in range(SEATS)}
        game.leader = leader
        game.start_lines = []
        game.status = {}
        game._end_declare()
        return game

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

    def decision(self) -> Window | None:
        """宣点 is answered privately by all (a public 革命 button would tell that some hand
        holds no 2 and no joker) and lapses to no, no miss. In a 够级 window the seats that
        may beat show and answer as on a turn; 烧 claims are private and lapse to no, no
        miss. Each window has one deadline."""
        if self._phase == DECLARE:
            return Window(tuple(s for s in range(SEATS) if s not in self.answers), private=True,
                          key=DECLARE_KEY, timeout="nodeclare", miss=False)
        if self._phase == PLAY and self.mode == "window":
            seats = self.window_seats
            return Window.claims(tuple(sorted(seats)), self.window_start, self.window_answers,
                                 seats, shown=tuple(s for s in seats if seats[s] == "beat"))
        return None

    def turn_seats(self) -> tuple[int, ...]:
        if self._phase == HEAD:
            assert self.revolutionary is not None
            return (opposite(self.revolutionary),)
        if self._phase == PLAY:
            return (self.turn,)
        return ()

    def private_epoch(self, seat: int) -> int:
        return self.epochs[seat]

    def may_rang(self, seat: int) -> bool:
        """让牌: the 对头's play, both seats before this one passed on it, before 乱缠."""
        top = self.top
        if (self.mode != "turn" or top is None or self.luanchan() or self.rang_by is not None
                or top.owner != opposite(seat) or self.rang_asked):
            return False
        before = [(seat - 1) % SEATS, (seat - 2) % SEATS]
        return all(s in self.passed_now or not self.active(s) for s in before)

    # --- legal actions ------------------------------------------------------------------------
    def legal_actions(self, seat: int) -> list[str]:
        """宣点 window: ``declare``, ``nodeclare``, ``revolt`` (when eligible); 要头: ``yaotou``,
        ``wutou``; play: every play (and ``pass``, ``rang``), in a window ``burn <cards>``."""
        if seat not in self.to_act():
            return []
        if self._phase == DECLARE:
            return ["declare", "nodeclare"] + (["revolt"] if self.may_revolt(seat) else [])
        if self._phase == HEAD:
            return ["yaotou", "wutou"]
        hand = self.hands[seat]
        if self.mode == "lead":
            return [format_cards(c) for c, _ in plays(hand, None, self.beisan, self.big_top)]
        assert self.top is not None
        if self.mode == "window" and self.window_seats[seat] == "burn":
            return ["burn " + format_cards(c)
                    for c in burnable(hand, self.top.play, self.beisan, self.big_top)] + [PASS]
        out = [format_cards(c) for c, _ in plays(hand, self.top.play, self.beisan, self.big_top)]
        out.append(PASS)
        if self.may_rang(seat):
            out.append("rang")
        return out

    def forced_action(self, seat: int) -> str | None:
        """``pass`` when nothing beats the top play (and 让牌 is not open to the seat), or, in a
        烧 window, when the seat has nothing to burn with: found without listing the plays."""
        if seat not in self.to_act() or self._phase in (DECLARE, HEAD) or self.mode == "lead":
            return None
        assert self.top is not None
        hand = self.hands[seat]
        if self.mode == "window" and self.window_seats[seat] == "burn":
            return None if burns_any(hand, self.top.play, self.beisan, self.big_top) else PASS
        if beats_any(hand, self.top.play, self.beisan, self.big_top) or self.may_rang(seat):
            return None
        return PASS

    def may_revolt(self, seat: int) -> bool:
        """革命: no 花 and no 2 right after the deal."""
        h = self.hands[seat]
        return not (h[TWO] or h[SMALL] or h[BIG])

    # --- actions --------------------------------------------------------------------------------
    def _apply(self, seat: int, text: str) -> str:
        word = text.strip().lower()
        if self._phase == DECLARE:
            return self._apply_declare(seat, word, text)
        if self._phase == HEAD:
            if word not in ("yaotou", "wutou", "要头", "无头"):
                raise IllegalActionError("choose yaotou (要头) or wutou (无头)", seat=seat,
                                         action=text, text=T("err.gouji.head_now"))
            choice = "yaotou" if word in ("yaotou", "要头") else "wutou"
            self.head = choice
            o = seat
            if choice == "yaotou":
                self.dead_left[o] = 3
                self.yaotou = o
            else:
                self.wutou[o] = True
            self.status[seat] = T(f"gouji.status.{choice}")
            self._start_play()
            return choice
        return self._apply_play(seat, word, text)

    def _apply_declare(self, seat: int, word: str, text: str) -> str:
        words = {"declare": "declare", "宣点": "declare", "nodeclare": "nodeclare",
                 "不宣": "nodeclare", "pass": "nodeclare", "revolt": "revolt", "革命": "revolt"}
        action = words.get(word)
        if action is None:
            raise IllegalActionError("declare (宣点), nodeclare or revolt (革命) now", seat=seat,
                                     action=text, text=T("err.gouji.declare_now"))
        if action == "revolt" and not self.may_revolt(seat):
            raise IllegalActionError("only a hand without 花 and 2s may revolt", seat=seat,
                                     action=text, text=T("err.gouji.no_revolt"))
        self.answers[seat] = action
        if len(self.answers) == SEATS:
            self._end_declare()
        return action

    def _end_declare(self) -> None:
        revolts = [s for s, a in self.answers.items() if a == "revolt"]
        self.declared = {s: a == "declare" for s, a in self.answers.items()}
        for s in range(SEATS):
            if self.declared[s]:
                self.status[s] = T("gouji.status.declared")
        if len(revolts) >= 2:
            # "如同时出现2个(含2个)以上革命者，则该局作废"
            self.void = True
            self._phase = DONE
            self.events.append(T("gouji.line.void", seats=" ".join(str(s + 1) for s in revolts)))
            self._outcome = Outcome(points=(0,) * SEATS, scores=(0,) * SEATS,
                                    lines=(T("gouji.line.void", seats=" ".join(
                                        str(s + 1) for s in revolts)),))
            self._carry = self._next_carry_void()
            return
        if revolts:
            r = revolts[0]
            self.revolutionary = r
            self.status[r] = T("gouji.status.revolt")
            self.kaidian.add(opposite(r))  # 革命算自动认点: 对家开点
            self._phase = HEAD
            return
        self._start_play()

    def _start_play(self) -> None:
        self._phase = PLAY
        self.mode = "lead"
        if not self.active(self.leader):
            self.leader = self._next_active(self.leader)
        self.turn = self.leader

    def _next_active(self, seat: int) -> int:
        nxt = (seat + 1) % SEATS
        for _ in range(SEATS):
            if self.active(nxt):
                return nxt
            nxt = (nxt + 1) % SEATS
        return seat

    def _read_cards(self, seat: int, body: str, text: str) -> tuple[Counts, Play]:
        cards = parse_cards(body, DECKS)
        hand = self.hands[seat]
        if not contains(hand, cards):
            raise not_held(seat, text, hand, cards)
        p = read(cards)
        if p is None:
            raise IllegalActionError(
                f"{format_cards(cards)} is not one rank (2s and jokers may join a rank)",
                seat=seat, action=text, text=T("err.gouji.no_play", cards=format_cards(cards)))
        if self.beisan and cards[THREE] and (cards != hand or cards[TWO] or cards[SMALL]
                                              or cards[BIG]):
            raise IllegalActionError(
                "憋3: the 3s go out last, all together, with no 2 or joker", seat=seat,
                action=text, text=T("err.gouji.beisan"))
        top = self.top
        if self.mode != "lead" and top is not None and not beats(p, top.play, self.big_top):
            raise IllegalActionError(
                f"{format_cards(cards)} does not beat {format_cards(top.cards)}", seat=seat,
                action=text, text=T("err.gouji.no_beat", cards=format_cards(cards),
                                    table=format_cards(top.cards), n=top.play.n))
        return cards, p

    def _apply_play(self, seat: int, word: str, text: str) -> str:
        if self.mode == "window":
            return self._answer_window(seat, word, text)
        if is_pass(word):
            if self.mode == "lead":
                raise IllegalActionError("you lead: play some cards", seat=seat, action=text,
                                         text=T("err.gouji.must_lead"))
            self._pass_turn(seat)
            return PASS
        if word in ("rang", "让", "让牌"):
            if not self.may_rang(seat):
                raise IllegalActionError(
                    "让牌 only on your 对头's play after the two seats before you passed",
                    seat=seat, action=text, text=T("err.gouji.no_rang"))
            self.rang_by = seat
            self.status[seat] = T("gouji.status.rang")
            self.rounds.pass_(seat, T("gouji.status.rang"))
            self.round_suited.append(None)
            self._next_turn(seat)
            return "rang"
        if word.startswith(("burn", "烧")):
            raise IllegalActionError("烧牌 is claimed only when a 够级牌 is answered",
                                     seat=seat, action=text, text=T("err.gouji.no_burn_now"))
        cards, p = self._read_cards(seat, text, text)
        restricted = self.rang_by == seat
        self._play(seat, cards, p, restricted=restricted)
        return format_cards(cards)

    def _answer_window(self, seat: int, word: str, text: str) -> str:
        assert self.top is not None
        role = self.window_seats[seat]
        if is_pass(word):
            self.window_answers[seat] = PASS
            self._maybe_resolve()
            return PASS
        if role == "burn":
            body = word.removeprefix("burn").removeprefix("烧牌").removeprefix("烧")
            if body == word:
                raise IllegalActionError(
                    "only the 对头 may beat a 够级牌: claim a burn (burn <cards>) or pass",
                    seat=seat, action=text, text=T("err.gouji.only_duitou"))
            cards, _ = self._read_cards(seat, body, text)
            if cards not in burnable(self.hands[seat], self.top.play, self.beisan,
                                     self.big_top):
                raise IllegalActionError(
                    "after this play the rest cannot be led out with a joker in every lead",
                    seat=seat, action=text,
                    text=T("err.gouji.burn_condition", cards=format_cards(cards)))
            canonical = "burn " + format_cards(cards)
        else:
            if word.startswith(("burn", "烧")):
                raise IllegalActionError("you may simply beat it", seat=seat, action=text,
                                         text=T("err.gouji.no_burn_now"))
            cards, _ = self._read_cards(seat, text, text)
            canonical = format_cards(cards)
        self.window_answers[seat] = canonical
        self._maybe_resolve()
        return canonical

    def _maybe_resolve(self) -> None:
        if any(s not in self.window_answers for s in self.window_seats):
            return
        top = self.top
        assert top is not None
        owner = top.owner
        answers = self.window_answers
        burns = sorted((s for s, a in answers.items() if a.startswith("burn ")),
                       key=lambda s: (alliance(s) != alliance(owner), (s - owner) % SEATS))
        beaters = sorted((s for s, a in answers.items()
                          if self.window_seats[s] == "beat" and a != PASS),
                         key=lambda s: (s != opposite(owner), (s - owner) % SEATS))
        # only the passes of seats that could beat it are told: who could have burnt is not
        for s in sorted(answers, key=lambda s: (s - owner) % SEATS):
            if self.window_seats[s] == "beat" and answers[s] == PASS:
                self.passed_now.add(s)
                self.passed_round.add(s)
                self.status[s] = T("gouji.status.pass")
                self.rounds.pass_(s)
                self.round_suited.append(None)
        self.mode = "turn"
        self.window_seats = {}
        self.window_answers = {}
        if burns:
            burner = burns[0]
            cards = parse_cards(answers[burner][5:], DECKS)
            p = read(cards)
            assert p is not None
            if self.burn is not None:
                self.events.append(T("gouji.event.jieshao", seat=self.burn[0] + 1))
            self.burn = (burner, owner)
            self.events.append(T("gouji.event.burn", seat=burner + 1, victim=owner + 1))
            self._play(burner, cards, p, via_burn=True)
            return
        if beaters:
            s = beaters[0]
            cards = parse_cards(answers[s], DECKS)
            p = read(cards)
            assert p is not None
            self._play(s, cards, p)
            return
        # nobody answered the 够级牌: a new round
        self._open_point(top)
        leader = owner
        if self.opts["new_round_leader"] == "duitou" and self.active(opposite(owner)):
            leader = opposite(owner)  # 000/001-够级: "由对头发牌"
        self._end_round(leader)

    def _open_point(self, top: Top) -> None:
        """开点: a 够级牌 that nobody answered (not 花 plays, a single 2, nor in 新够级 贴钱
        plays or plays after 乱缠)."""
        p = top.play
        if not top.gouji or p.jokers or (p.n == 1 and p.main == TWO):
            return
        if self.opts["kaidian"] == "new" and (p.money or self.luanchan()):
            return
        if top.owner not in self.kaidian:
            self.kaidian.add(top.owner)
            self.events.append(T("gouji.event.kaidian", seat=top.owner + 1))

    def _may_answer(self, seat: int) -> bool:
        if not self.active(seat) or seat in self.passed_now:
            return False
        if seat not in self.passed_round:
            return True
        assert self.top is not None
        if self.luanchan():
            return self.opts["pass_reentry"] == "classic" or seat not in self.reentered
        # 000/001-够级: after passing, only the 对头's play may be beaten again
        return self.opts["pass_reentry"] == "classic" and self.top.owner == opposite(seat)

    def _pass_turn(self, seat: int) -> None:
        self.passed_now.add(seat)
        self.passed_round.add(seat)
        self.status[seat] = T("gouji.status.pass")
        self.rounds.pass_(seat)
        self.round_suited.append(None)
        if self.rang_by == seat:
            self.rang_by = None
        self._next_turn(seat)

    def _next_turn(self, cur: int) -> None:
        top = self.top
        assert top is not None
        owner = top.owner
        s = cur
        for _ in range(SEATS):
            s = (s + 1) % SEATS
            if s == owner:
                break
            if s != self.rang_by and self._may_answer(s):
                self.turn = s
                return
        if self.rang_by is not None and not self.rang_asked and self.active(self.rang_by):
            self.turn = self.rang_by  # both seats after the 让牌 seat passed: it decides now
            self.rang_asked = True
            self.second_used = True
            return
        o = opposite(owner)
        if (not self.luanchan() and o in self.passed_now and not self.second_used
                and self.active(o) and self.rang_by != o):
            # the 对家's play that nobody else beat may be beaten after all (001 过牌 (1))
            self.second_used = True
            self.passed_now.discard(o)
            self.turn = o
            return
        if top.gouji:
            self._open_point(top)
        self._end_round(owner)

    def _end_round(self, leader: int) -> None:
        if self._phase != PLAY:
            return
        if not self.active(leader):
            leader = self._next_active(leader)
        self.rounds.close(None if self.top is None else self.top.owner)
        if self.round_suited:
            self.last_suited = tuple(self.round_suited)
        self.round_suited = []
        self.top = None
        self.mode = "lead"
        self.turn = leader
        self.passed_round = set()
        self.passed_now = set()
        self.reentered = set()
        self.second_used = False
        self.rang_by = None
        self.rang_asked = False
        self.status = {s: v for s, v in self.status.items()
                       if s in self.finished or s in self.failed or s == self.revolutionary}

    def _play(self, seat: int, cards: Counts, p: Play, *, via_burn: bool = False,
              restricted: bool = False) -> None:
        prev = self.top
        lead = self.mode == "lead"
        self.played = True
        if seat in self.passed_round:
            self.reentered.add(seat)
        if prev is not None and prev.owner != seat:
            if self.men_watch[prev.owner]:
                self.men.append((prev.owner, seat))  # 被闷: the hand before the 3s was beaten
                self.events.append(T("gouji.event.men", seat=prev.owner + 1, by=seat + 1))
                self.men_watch[prev.owner] = False
            if self.burn is not None and self.burn[0] == prev.owner and not via_burn:
                self.events.append(T("gouji.event.jieshao", seat=prev.owner + 1))
                self.burn = None
            if (prev.final and prev.gouji and prev.owner in self.finished[:2]
                    and seat == opposite(prev.owner) and not via_burn):
                self.dead_left[seat] += 1  # the 对头 beat a 科's 够级 底牌: one 够死级
        rest = minus(self.hands[seat], cards)
        suited = None if self.suits is None else self.suits.take(seat, cards)
        # 烧失败: while burning, a lead without 花 that is not the last
        failed = (self.burn is not None and self.burn[0] == seat and lead and not via_burn
                  and not p.jokers and any(rest))
        self.hands[seat] = rest
        self.men_watch[seat] = (self.beisan and any(rest)
                                and sum(rest) == rest[THREE])
        gouji = is_gouji(p)
        dead = False
        if gouji and self.dead_left[seat] and not self.luanchan():
            dead = True
            self.dead_left[seat] -= 1
            if self.yaotou == seat and self.dead_left[seat] == 0:
                self.wutou[seat] = True  # 三次够死级之后算无头
        self.top = Top(seat, cards, p, gouji, dead=dead, restricted=restricted,
                       final=not any(rest), suited=suited)
        self.passed_now = set()
        self.second_used = False
        if self.rang_by is not None and self.rang_by != seat:
            self.passed_round.add(self.rang_by)
        self.rang_by = None
        self.rang_asked = False
        self.status[seat] = T("gouji.status.played", cards=format_cards(cards))
        # what the table should know of the play, the weightiest one: 烧失败, 烧牌, 够死级 (no
        # answer but a 烧), 够级 (a window for the 对头 and the burners)
        note = (T("gouji.note.shao_fail") if failed else T("gouji.note.burn") if via_burn
                else T("gouji.tag.dead") if dead else T("gouji.tag.gouji") if gouji else None)
        self.rounds.play(seat, format_cards(cards), note)
        self.round_suited.append(suited)
        if failed:
            assert self.burn is not None
            self.failed.append(seat)
            self.events.append(T("gouji.event.shao_fail", seat=seat + 1))
            self.status[seat] = T("gouji.status.failed", cards=format_cards(cards))
            self.burn = None
        elif not any(rest):
            self.finished.append(seat)
            self.status[seat] = T("gouji.status.out", place=len(self.finished),
                                  cards=format_cards(cards))
            if self.burn is not None and self.burn[0] == seat:
                self.shao.append((self.burn[1], seat))
                self.events.append(T("gouji.event.shao_ok", seat=seat + 1,
                                     victim=self.burn[1] + 1))
                self.burn = None
            if self.opts["wutou_after_ke"] and len(self.finished) <= 2:
                self.wutou[opposite(seat)] = True  # 新够级: a 科's 对家 is 无头
        if len(self.actives()) <= 1:
            self._finish()
            return
        self.events = self.events[-3:]
        self._respond(seat)

    def _respond(self, seat: int) -> None:
        """Who answers the play just made: nobody (挂大花), the 够级 window, or turn by turn."""
        top = self.top
        assert top is not None
        if self.big_top and top.play.big_flower:
            self._end_round(seat)  # 新够级: "挂大花的牌为最大牌，直接开始下一轮发牌"
            return
        if self.luanchan() or not (top.gouji or top.restricted) or (
                self.wutou[seat] and not top.dead and not top.restricted):
            self.mode = "turn"
            self._next_turn(seat)
            return
        seats: dict[int, str] = {}
        o = opposite(seat)
        if not top.dead and self.active(o):
            seats[o] = "beat"
        if not top.dead and not top.restricted:
            for s in self.actives():
                if s not in (seat, o) and self.wutou[s]:
                    seats[s] = "beat"
        if not top.restricted:
            for s in self.actives():
                if s != seat and s not in seats and burns_any(self.hands[s], top.play,
                                                              self.beisan, self.big_top):
                    seats[s] = "burn"
                    self.epochs[s] += 1
        if not seats:
            self._open_point(top)
            leader = seat
            if self.opts["new_round_leader"] == "duitou" and self.active(o):
                leader = o
            self._end_round(leader)
            return
        self.mode = "window"
        self.window_seats = seats
        self.window_answers = {}
        self.window_start += 1

    # --- the result -----------------------------------------------------------------------------
    def slots(self) -> list[int]:
        """The rank of each seat: 0 头科 … 5 大落 (decided once the hand is over)."""
        slot: dict[int, int] = {}
        free = list(range(SEATS))
        r = self.revolutionary
        if r is not None:
            mine = self.finished[:2]
            s = 2 if len(mine) == 2 and all(alliance(x) == alliance(r) for x in mine) else 3
            slot[r] = s
            free.remove(s)
        for seat in self.failed:  # 烧失败 counts as 大落: from the bottom
            slot[seat] = free.pop()
        for seat in self.finished + [s for s in range(SEATS) if s not in slot
                                     and s not in self.finished]:
            if seat not in slot:
                slot[seat] = free.pop(0)
        return [slot[s] for s in range(SEATS)]

    def _finish(self) -> None:
        self._phase = DONE
        self.top = None
        slots = self.slots()
        team = [sum(RANK_POINTS[slots[s]] for s in range(SEATS) if alliance(s) == a)
                for a in (0, 1)]
        chuan = any(sorted(slots[s] for s in range(SEATS) if alliance(s) == a) == [0, 1, 2]
                    for a in (0, 1))
        mult = 2 if chuan else 1
        pts = tuple(team[alliance(s)] * mult * self.base for s in range(SEATS))
        seat_at = {slots[s]: s + 1 for s in range(SEATS)}
        lines: list[Text] = [T("gouji.line.ranks", **{f"r{i}": seat_at[i] for i in range(SEATS)})]
        lines.append(T("gouji.line.team", a=team[0] * mult, b=team[1] * mult))
        if chuan:
            lines.append(T("gouji.line.chuan"))
        win = max((0, 1), key=lambda a: team[a])
        winners = tuple(s for s in range(SEATS) if alliance(s) == win) if team[win] > 0 else ()
        self.final_slots = slots
        self._outcome = Outcome(points=pts, scores=pts, lines=tuple(lines), winners=winners)
        self._carry = self._next_carry(slots, chuan)

    def tributes(self, slots: list[int], chuan: bool) -> list[tuple[int, int, int, str]]:
        """进贡 owed to the next game of the series, in the variant's order."""
        if chuan:
            return []  # 串三户: "同时不再进贡"
        by_kind: dict[str, list[tuple[int, int, int, str]]] = {k: [] for k in TRIBUTE_ORDER["new"]}
        for payer, payee in self.men:
            by_kind["men"].append((payer, payee, 1, "men"))
        for payer, payee in self.shao:
            by_kind["shao"].append((payer, payee, 1, "shao"))
        for a in range(3):
            b = opposite(a)
            da = self.declared.get(a, False) and a != self.revolutionary
            db = self.declared.get(b, False) and b != self.revolutionary
            pa, pb = dian_pay(da, db, a in self.kaidian, b in self.kaidian)
            if pa:
                by_kind["dian"].append((a, b, pa, "dian"))
            if pb:
                by_kind["dian"].append((b, a, pb, "dian"))
        seat_at = {slots[s]: s for s in range(SEATS)}
        by_kind["luo"].append((seat_at[5], seat_at[0], 2, "luo"))
        by_kind["luo"].append((seat_at[4], seat_at[1], 1, "luo"))
        order = TRIBUTE_ORDER[self.opts["tribute_order"]]
        return [t for kind in order for t in by_kind[kind]]

    def _next_carry(self, slots: list[int], chuan: bool) -> dict[str, Any]:
        if not self.opts["tribute"]:
            return {}
        nxt = self.game_no % SERIES + 1
        tributes = self.tributes(slots, chuan) if nxt != 1 else []
        first = slots.index(5) if self.beisan else None  # 憋3: 本局大落下一局第一个发牌
        return {"game": nxt, "tributes": [list(t) for t in tributes], "first": first}

    def _next_carry_void(self) -> dict[str, Any]:
        if not self.opts["tribute"]:
            return {}
        return {"game": self.game_no % SERIES + 1, "tributes": [], "first": None}

    def outcome(self) -> Outcome:
        if self._outcome is None:
            raise IllegalActionError("the game is not over", text=T("err.base.not_over"))
        return self._outcome

    def next_carry(self) -> dict[str, Any]:
        return dict(self._carry)

    # --- trustee --------------------------------------------------------------------------------
    def _trustee(self, seat: int, level: str = "normal") -> str:
        """托管: ``ai.choose``; always legal, burns only when the rest is one lead."""
        return ai.choose(self, seat)

    # --- views ----------------------------------------------------------------------------------
    def _count(self, seat: int, viewer: int | None) -> int | None:
        n = sum(self.hands[seat])
        if viewer == seat or self._phase == DONE:
            return n
        if self.beisan:
            return None  # 憋3: 不报牌
        if self.opts["baopai"]:
            return n if n <= 10 else None  # 报牌: ten cards or fewer
        return n

    def view(self, seat: int | None) -> View:
        over = self._phase == DONE
        slots = self.slots() if over and not self.void else None
        seats = []
        for s in range(SEATS):
            role: Text = T("gouji.role.alliance", a=alliance(s) + 1)
            if slots is not None:
                role = T("gouji.role.ranked", a=alliance(s) + 1, rank=T(f"gouji.rank.{slots[s]}"))
            status = self.status.get(s)
            if self._phase == DECLARE and s in self.answers and seat != s:
                status = T("gouji.status.answered")
            elif self._phase == DECLARE and s in self.answers:
                status = T(f"gouji.status.{self.answers[s]}")
            seats.append(SeatView(role=role, count=self._count(s, seat), status=status,
                                  cards=format_cards(self.hands[s]) if seat == s else None))
        # the opening facts (上班, 进贡, 买3) until the first play, so six seats stay readable
        lines: list[Text] = [] if self.played else list(self.start_lines)
        if self.revolutionary is not None:
            lines.append(T("gouji.line.revolution", seat=self.revolutionary + 1))
            if self.head is not None:
                lines.append(T(f"gouji.line.{self.head}",
                               seat=opposite(self.revolutionary) + 1))
        if self._phase not in (DECLARE,) and any(self.declared.values()):
            lines.append(T("gouji.line.declared", seats=" ".join(
                str(s + 1) for s in range(SEATS) if self.declared.get(s))))
        if self.kaidian:
            lines.append(T("gouji.line.kaidian", seats=" ".join(
                str(s + 1) for s in sorted(self.kaidian))))
        # the top play: the round's last play (View.round), its 够级 / 够死级 its note
        if self.burn is not None:
            lines.append(T("gouji.line.burning", seat=self.burn[0] + 1, victim=self.burn[1] + 1))
        lines.extend(self.events)
        if self.finished:
            lines.append(T("gouji.line.order", seats=" ".join(str(s + 1) for s in self.finished)))
        if over:
            lines.extend(self.outcome().lines)
        hand = format_cards(self.hands[seat]) if seat is not None else None
        return View(phase=self._phase_text(), seats=tuple(seats), lines=tuple(lines), hand=hand,
                    shown=self._shown(seat, hand),
                    round=self.rounds.current(), last_round=self.rounds.last)

    def _shown(self, seat: int | None, hand: str | None) -> Shown | None:
        """The suited twin of the cards the view shows (``View.shown``, for pictures): the
        seat's own hand (also its seat's open cards) and each play of 本轮 and 上一轮; None
        where there is none (a written position has no suits). Another seat's hand never gets
        one."""
        if self.suits is None:
            return None
        mine = self.suits.hand(seat) if seat is not None and hand else None
        seats: tuple[str | None, ...] = ()
        if mine is not None:
            assert seat is not None
            seats = (None,) * seat + (mine,) + (None,) * (SEATS - seat - 1)
        played = tuple(self.round_suited)
        if mine is None and not played and not self.last_suited:
            return None
        return Shown(mine, seats, (), played, self.last_suited)

    def _phase_text(self) -> Text:
        if self._phase == DECLARE:
            return T("gouji.phase.declare")
        if self._phase == HEAD:
            assert self.revolutionary is not None
            return T("gouji.phase.head", seat=opposite(self.revolutionary) + 1)
        if self._phase == DONE:
            return T("gouji.phase.done")
        if self.mode == "lead":
            return T("gouji.phase.lead", seat=self.turn + 1)
        if self.mode == "window":
            assert self.top is not None
            if self.top.dead or "beat" not in self.window_seats.values():
                return T("gouji.phase.window_dead", seat=self.top.owner + 1)
            return T("gouji.phase.window", seat=self.top.owner + 1,
                     duitou=opposite(self.top.owner) + 1)
        return T("gouji.phase.follow", seat=self.turn + 1)

    def choices(self, seat: int) -> list[Choice]:
        if seat not in self.to_act():
            return []
        if self._phase == DECLARE:
            out = [Choice("declare", T("gouji.choice.declare"), "primary"),
                   Choice("nodeclare", T("gouji.choice.nodeclare"))]
            if self.may_revolt(seat):
                out.append(Choice("revolt", T("gouji.choice.revolt"), "danger"))
            return out
        if self._phase == HEAD:
            return [Choice("yaotou", T("gouji.choice.yaotou"), "primary"),
                    Choice("wutou", T("gouji.choice.wutou"))]
        if self._phase != PLAY or self.mode == "lead":
            return []
        out = [Choice(PASS, T("gouji.choice.noburn" if self.mode == "window"
                               and self.window_seats[seat] == "burn" else "gouji.choice.pass"))]
        if self.may_rang(seat):
            out.append(Choice("rang", T("gouji.choice.rang")))
        return out

    def picker(self, seat: int) -> Picker | None:
        """The seat's cards (up to 36), one menu per run of ranks of at most 25 cards; in a
        burn claim window the picked cards form ``burn <cards>``."""
        if self._phase != PLAY or not self.active(seat) or not any(self.hands[seat]):
            return None
        tokens, labels, groups = picker_tokens(self.hands[seat])
        template = "{}"
        if self.mode == "window" and self.window_seats.get(seat) == "burn":
            template = "burn {}"
        return Picker(tokens, labels, 1, len(tokens), template, " ", groups)


class ClassicGoujiGame(GoujiGame):
    """够级 (000, 001-够级): the classic flags."""

    DEFAULTS = CLASSIC


def max_loss(options: Mapping[str, Any], seats: int) -> int:
    """The most one seat can lose: its team's 0 − 2 − 4 doubled by 串三户, times 底注."""
    base = options.get("base", 1)
    return 12 * (base if isinstance(base, int) else 1)


__all__ = ["CLASSIC", "NEW", "ClassicGoujiGame", "GoujiGame", "alliance", "dian_pay",
           "max_loss", "opposite"]
