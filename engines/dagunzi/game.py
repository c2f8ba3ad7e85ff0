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

import random
from collections.abc import Mapping, Sequence
from itertools import combinations
from typing import Any

from engines.base import (
    Choice,
    Game,
    Outcome,
    Picker,
    RoundLog,
    SeatView,
    Setup,
    T,
    Text,
    View,
    Window,
)
from engines.dagunzi import ai
from engines.dagunzi.rules import (
    ACE,
    DECKS,
    KITTY,
    PER,
    Declaration,
    beats,
    declarations,
    follow_problem,
    is_dry,
    level_points,
    level_result,
    pattern_of,
    tribute_count,
)
from engines.dagunzi.texts import NOTATION_ERRORS
from engines.errors import IllegalActionError, NotationError, OptionError
from engines.trick.cards import (
    BIG,
    NCARDS,
    SMALL,
    SUITS,
    TRUMP,
    Context,
    card_id,
    counts_of,
    deal_ids,
    format_ids,
    ids_of,
    level_name,
    parse_ids,
    points,
    rank_of,
)

DECLARE, SHOW, RETURN, BURY = "declare", "show", "return", "bury"
JOKERS, PLAY, DONE = "jokers", "play", "done"
PACKETS = 3
DEFAULTS: dict[str, Any] = {"mode": "dead"}
MODES = ("dead", "live")


def team(seat: int) -> int:
    return seat % 2


class DagunziGame(Game):
    """打滚子 (001). Option ``mode``: "dead" (死棒, default) or "live" (活棒). ``Setup.carry``:
    ``levels`` [team 0, team 1], ``dealer`` (None: a match's first hand), ``score`` (the last
    hand's 抓分方 points) and ``jokers`` (its kitty jokers as tribute cards: 大王 2, 小王 1)."""

    # answered privately: who may declare, show a 大王 or bury jokers (and how many) would tell
    # what they hold
    PRIVATE_PHASES = frozenset({DECLARE, SHOW, JOKERS})
    notation_errors = NOTATION_ERRORS

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
        self.epochs = [0] * 4
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
        self._deal()

    @classmethod
    def check_options(cls, options: Mapping[str, Any]) -> None:
        if options.get("mode", "dead") not in MODES:
            raise OptionError("mode", "must be dead or live", text=T("err.dagunzi.option_mode"))

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
            self.epochs[s] += 1
        self.packet = PACKETS
        self._phase = SHOW
        self.passed, self.shown = set(), set()
        self._open_window()
        if not self._eligible():
            self._close_show()

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

    def _close_show(self) -> None:
        """先抓到大王的玩家成为庄: of the seats that showed, the one dealt a 大王 first. "若第一
        局没人抢亮大王": seats 1-4 flip the kitty's first four cards; the lowest suited card
        makes its flipper 庄 and gives the suit (all jokers: a new deal)."""
        claims = sorted((claim, s) for s in self.shown if (claim := self._big_claim(s)))
        if claims:
            (_, suit), seat = claims[0]
            self.declared = True  # the 大王 shown is the hand's 亮主: the kitty is shown
            self.first_line = T("dagunzi.line.shown", seat=seat + 1)
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
        while self.packet < PACKETS:
            start = PER * self.packet // PACKETS
            self.packet += 1
            stop = PER * self.packet // PACKETS
            for s in range(4):
                for cid in self.dealt[s][start:stop]:
                    self.hands[s][cid] += 1
                self.epochs[s] += 1
            self.passed = set()
            self._open_window()
            if self._eligible():
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

    def _fix(self, dealer: int | None, suit: int) -> None:
        """Trump and 庄 are known: set the order, then 进贡 and the kitty."""
        if dealer is not None:
            self.dealer = dealer
        assert self.dealer is not None
        self.level = self.levels[team(self.dealer)]
        self.trump = suit
        self.ctx = Context(self.level, suit, True)
        self._start_tribute()

    # --- 进贡 ----------------------------------------------------------------------------------
    def _start_tribute(self) -> None:
        assert self.dealer is not None
        first = self.setup.carry.get("dealer") is None
        side, n = tribute_count(self.last_score, self.last_jokers)
        upper = (self.dealer + 3) % 4
        payer, receiver = (upper, self.dealer) if side == "xian" else (self.dealer, upper)
        if not first and n > 0:
            if self.hands[payer][BIG] == 3:
                payer, receiver = receiver, payer  # three 大王: the tribute turns round
                self.tribute_note = T("dagunzi.line.tribute_flipped")
            elif self.hands[(payer + 2) % 4][BIG] == 3:
                self.tribute_note = T("dagunzi.line.tribute_none")
                n = 0
            if n > 0:
                n = min(n, PER // 2)
                best = sorted(ids_of(self.hands[payer]), key=self.ctx.sort_key, reverse=True)[:n]
                for cid in best:
                    self.hands[payer][cid] -= 1
                    self.hands[receiver][cid] += 1
                self.epochs[receiver] += 1
                self.tribute = (payer, receiver, best)
                self._phase = RETURN
                return
        self._take_kitty()

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

    def _take_kitty(self) -> None:
        """The 庄 picks up the kitty. After a 亮主 it is shown as dealt first, and judged:
        干锅 when its cards other than jokers are all trumps or all side cards ("底牌没有公开
        （无人亮主）的情况不产生干锅")."""
        assert self.dealer is not None
        if self.declared:
            self.dealt_kitty = list(self.kitty)
            self.dry = is_dry(self.kitty, self.ctx)
        for cid in self.kitty:
            self.hands[self.dealer][cid] += 1
        self.kitty = []
        self.epochs[self.dealer] += 1
        self._phase = BURY

    # --- who acts -------------------------------------------------------------------------------
    def phase(self) -> str:
        return self._phase

    def is_over(self) -> bool:
        return self._phase == DONE

    def decision(self) -> Window | None:
        """亮主, showing the 大王 and burying jokers are claims: who may make one would tell
        what they hold."""
        if self._phase not in self.PRIVATE_PHASES:
            return None
        return Window.claims(self._eligible(), self.window_key)

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

    def legal_actions(self, seat: int) -> list[str]:
        """Exhaustive, except for the bury and the tribute's return (the trustee's choice
        stands for them: too many forms to list)."""
        if seat not in self.to_act():
            return []
        if self._phase == DECLARE:
            return ["pass"] + [f"declare {self._decl_text(d)}" for d in self._declarations(seat)]
        if self._phase == SHOW:
            return ["pass", "show"]
        if self._phase == JOKERS:
            return ["pass"] + [f"bury {format_ids(o)}" for o in self._joker_options(seat)]
        if self._phase in (BURY, RETURN):
            return [self.trustee(seat)]
        cards = ids_of(self.hands[seat])
        if not self.trick:
            return sorted({format_ids([c] * k, self.ctx) for c in set(cards)
                           for k in range(1, self.hands[seat][c] + 1)})
        return sorted({format_ids(p, self.ctx) for p in self._follows(seat)})

    def forced_action(self, seat: int) -> str | None:
        """Never ``pass`` alone: the 亮主, 亮 and joker windows ask only the seats that have
        something to declare, show or bury (``to_act``), 亮 offers show or pass, and a bury,
        a return or a play is never a pass — so nothing needs computing
        (tests/engines/test_forced_action.py holds this to the listing)."""
        return None

    def _follows(self, seat: int) -> list[list[int]]:
        """Every legal answer to the trick's lead (cards of the led suit first: only the rest
        is combined)."""
        lead = self.trick[0][1]
        n = len(lead)
        cards = ids_of(self.hands[seat])
        suit = self.ctx.eff[lead[0]]
        held = sorted(c for c in cards if self.ctx.eff[c] == suit)
        if len(held) >= n:
            plays = {tuple(c) for c in combinations(held, n)}
        else:
            others = sorted(c for c in cards if self.ctx.eff[c] != suit)
            plays = {tuple(held) + c for c in combinations(others, n - len(held))}
        return [list(p) for p in sorted(plays)
                if follow_problem(self.hands[seat], lead, p, self.ctx, self.dead) is None]

    def _parse(self, text: str) -> list[int]:
        ids = parse_ids(text)
        if not ids:
            raise NotationError(text, "no cards", text=T("err.dagunzi.no_cards", typed=text))
        return ids

    def _check_held(self, seat: int, ids: Sequence[int], text: str) -> None:
        need = counts_of(ids)
        missing = [c for c in range(NCARDS) if need[c] > self.hands[seat][c]]
        if missing:
            cards = format_ids(missing, self.ctx)
            raise IllegalActionError(f"you do not hold {cards}", seat=seat, action=text,
                                     text=T("err.dagunzi.not_held", cards=cards))

    def _apply(self, seat: int, text: str) -> str:
        words = text.strip().split(None, 1)
        verb = words[0].lower() if words else ""
        rest = words[1] if len(words) > 1 else ""
        verb = {"亮": "declare", "亮主": "declare", "反": "declare", "不亮": "pass", "过": "pass",
                "扣底": "bury", "扣": "bury", "扣王": "bury", "还贡": "return",
                "亮大王": "show"}.get(verb, verb)
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
        for other in range(4):  # the others' possible declarations changed: show them anew
            if other != seat:
                self.epochs[other] += 1
        if not self._eligible():
            self._deal_packet()
        return f"declare {self._decl_text(match[0])}"

    def _apply_return(self, seat: int, rest: str, text: str) -> str:
        ids = self._parse(rest)
        self._check_held(seat, ids, text)
        assert self.tribute is not None
        if self._return_problem(seat, ids):
            n = len(self.tribute[2])
            raise IllegalActionError(f"return {n} side cards without points", seat=seat,
                                     action=text, text=T("err.dagunzi.return_cards", n=n))
        payer = self.tribute[0]
        for cid in ids:
            self.hands[seat][cid] -= 1
            self.hands[payer][cid] += 1
        self.epochs[payer] += 1
        self.returned = list(ids)
        self._take_kitty()
        return "return " + format_ids(ids, self.ctx)

    def _apply_bury(self, seat: int, rest: str, text: str) -> str:
        ids = self._parse(rest)
        if len(ids) != KITTY:
            raise IllegalActionError(f"bury exactly {KITTY} cards", seat=seat, action=text,
                                     text=T("err.dagunzi.bury_count", n=KITTY, got=len(ids)))
        self._check_held(seat, ids, text)
        if self.dry and self.dealt_kitty is not None and sorted(ids) != sorted(self.dealt_kitty):
            # 干锅时底牌不能替换，也不能在底牌中扣王
            cards = format_ids(self.dealt_kitty, self.ctx)
            raise IllegalActionError("干锅: put the kitty back as dealt", seat=seat,
                                     action=text, text=T("err.dagunzi.dry_bury", cards=cards))
        if not self.dry and SMALL in ids and ids.count(BIG) < self.hands[seat][BIG]:
            raise IllegalActionError("bury your 大王 before any 小王", seat=seat, action=text,
                                     text=T("err.dagunzi.big_first"))
        for cid in ids:
            self.hands[seat][cid] -= 1
        self.kitty = list(ids)
        self.buried_by_dealer = list(ids)
        self.kitty_shown = self.dry or any(c >= SMALL for c in ids)
        self._phase = JOKERS
        self.passed = set()
        self._open_window()
        for other in self._eligible():  # a claim they may make: their DMs show it
            self.epochs[other] += 1
        if not self._eligible():
            self._start_play()
        return "bury " + format_ids(ids, self.ctx)

    def _apply_jokers(self, seat: int, verb: str, rest: str, text: str) -> str:
        if verb == "pass":
            self.passed.add(seat)
        elif verb == "bury":
            ids = sorted(self._parse(rest))
            options = [sorted(o) for o in self._joker_options(seat)]
            if ids not in options:
                raise IllegalActionError("bury jokers only, 大王 before 小王", seat=seat,
                                         action=text, text=T("err.dagunzi.jokers_only"))
            for cid in ids:
                self.hands[seat][cid] -= 1
            back = sorted((c for c in self.kitty if c < SMALL and not points(c)),
                          key=self.ctx.sort_key)[: len(ids)]
            for cid in back:
                self.kitty.remove(cid)
                self.hands[seat][cid] += 1
            self.kitty += ids
            self.kitty_shown = True
            self.joker_buriers.append((seat, ids, back))
            for other in range(4):  # the kitty changed: the others' options too
                if other != self.dealer:
                    self.epochs[other] += 1
        else:
            raise IllegalActionError("bury jokers or pass", seat=seat, action=text,
                                     text=T("err.dagunzi.jokers_now"))
        if not self._eligible():
            self._start_play()
        return "pass" if verb == "pass" else "bury " + format_ids(ids)

    def _start_play(self) -> None:
        assert self.dealer is not None
        self._phase = PLAY
        self.turn = self.dealer

    def _apply_play(self, seat: int, text: str) -> str:
        ids = self._parse(text)
        self._check_held(seat, ids, text)
        if not self.trick:
            if pattern_of(ids) is None:
                raise IllegalActionError("lead a single, a 棒子 or a 滚子", seat=seat,
                                         action=text, text=T("err.dagunzi.lead_pattern"))
        else:
            lead = self.trick[0][1]
            problem = follow_problem(self.hands[seat], lead, ids, self.ctx, self.dead)
            if problem is not None:
                suit = self.ctx.eff[lead[0]]
                name = T("shengji.suit.trump") if suit == TRUMP else T(
                    f"shengji.suit.{SUITS[suit]}")
                if problem == "count":
                    raise IllegalActionError("play as many cards as the lead", seat=seat,
                                             action=text, text=T("err.dagunzi.follow_count",
                                                                 n=len(lead)))
                if problem == "suit":
                    raise IllegalActionError("follow suit", seat=seat, action=text,
                                             text=T("err.dagunzi.follow_suit", suit=name))
                key = "err.dagunzi.follow_bang" if problem == "bang" else "err.dagunzi.follow_gun"
                raise IllegalActionError(f"死棒: you owe a {problem}", seat=seat, action=text,
                                         text=T(key, suit=name))
        for cid in ids:
            self.hands[seat][cid] -= 1
        self.trick.append((seat, list(ids)))
        self.rounds.play(seat, format_ids(ids, self.ctx))
        if len(self.trick) < 4:
            self.turn = (seat + 1) % 4
        else:
            self._close_trick()
        return format_ids(ids, self.ctx)

    def _close_trick(self) -> None:
        assert self.dealer is not None
        lead = self.trick[0][1]
        best_seat, best = self.trick[0]
        for s, play in self.trick[1:]:
            if beats(play, best, lead, self.ctx):
                best_seat, best = s, play
        got = sum(points(c) for _, p in self.trick for c in p)
        if team(best_seat) != team(self.dealer):
            self.xian_points += got
        self.last_trick, self.last_winner = self.trick, best_seat
        self.rounds.close(best_seat)
        self.trick = []
        self.tricks += 1
        self.turn = best_seat
        if not any(self.hands[best_seat]):
            if team(best_seat) != team(self.dealer):
                self.koudi = True
                self.xian_points += 2 * sum(points(c) for c in self.kitty)  # 抠底 doubles
            self._finish()

    # --- the end ---------------------------------------------------------------------------
    def _finish(self) -> None:
        assert self.dealer is not None
        self._phase = DONE
        s = self.xian_points
        zteam, xteam = team(self.dealer), 1 - team(self.dealer)
        big, small = self.kitty.count(BIG), self.kitty.count(SMALL)
        joker_levels = 0 if self.dry else 2 * big + small
        side, n = level_result(s, self.koudi, joker_levels)
        lines: list[Text] = [T(f"dagunzi.line.result_{side}", points=s, n=n)]
        special = 0
        if s <= 0:
            special = -50
        elif self._took_every_point() or (big == 3 and not self.dry and s >= 120 and self.koudi):
            special = 50
        per = [0] * 4
        if special:
            lines.append(T("dagunzi.line.special", points=abs(special),
                           side=T("dagunzi.side.xian" if special > 0 else "dagunzi.side.zhuang")))
            for seat in range(4):
                per[seat] = special if team(seat) == xteam else -special
        else:
            gain = level_points(side, n)
            up = zteam if side == "zhuang" else xteam
            for seat in range(4):
                per[seat] = gain if team(seat) == up else -gain
        if self.tribute is not None:
            payer, receiver, cards = self.tribute
            per[payer] -= len(cards)
            per[receiver] += len(cards)
            lines.append(T("dagunzi.line.tribute", payer=payer + 1, receiver=receiver + 1,
                           n=len(cards)))
        lines.append(T("dagunzi.line.kitty", cards=format_ids(self.kitty, self.ctx)))
        if self.dry:
            lines.append(T("dagunzi.line.dry"))
        levels = list(self.levels)
        if side in ("zhuang", "xian"):
            levels[zteam if side == "zhuang" else xteam] += n
        nxt = (self.dealer + 2) % 4 if s < 120 else (self.dealer + 1) % 4
        over = special != 0 or max(levels) > ACE
        if over:
            lines.append(T("dagunzi.line.match_over"))
            self._carry = {"levels": [2, 2], "dealer": None}
        else:
            self._carry = {"levels": levels, "dealer": nxt, "score": s,
                           "jokers": joker_levels}
        pts = tuple(per)
        self._outcome = Outcome(points=pts, scores=pts, lines=tuple(lines),
                                winners=tuple(i for i in range(4) if pts[i] > 0))

    def _took_every_point(self) -> bool:
        """抓分方得"300"分: every point of the three decks, the kitty counted once (decision: a
        doubled kitty raises the score, not the points taken)."""
        kitty = sum(points(c) for c in self.kitty) if self.koudi else 0
        return self.xian_points - kitty >= 300

    def outcome(self) -> Outcome:
        if self._outcome is None:
            raise IllegalActionError("the game is not over", text=T("err.base.not_over"))
        return self._outcome

    def next_carry(self) -> dict[str, Any]:
        return dict(self._carry)

    # --- trustee ---------------------------------------------------------------------------------
    def _trustee(self, seat: int, level: str = "normal") -> str:
        """托管: always legal; never takes a trick from its partner (``ai.choose``)."""
        return ai.choose(self, seat)

    # --- views -----------------------------------------------------------------------------------
    def private_epoch(self, seat: int) -> int:
        """Bumped when the seat's private picture grows (the kitty, a claim it may make)."""
        return self.epochs[seat]

    def view(self, seat: int | None) -> View:
        current = dict(self.trick)
        seats = []
        for s in range(4):
            role = None
            if self.dealer is not None and self._phase != DECLARE:
                role = T("dagunzi.role.zhuang" if team(s) == team(self.dealer)
                         else "dagunzi.role.xian")
            status = (T("shengji.status.played", cards=format_ids(current[s], self.ctx))
                      if s in current else None)
            seats.append(SeatView(role=role, count=sum(self.hands[s]), status=status,
                                  cards=(format_ids(ids_of(self.hands[s]), self.ctx)
                                         if seat == s else None)))
        lines: list[Text] = [
            T("shengji.line.levels", a=level_name(self.levels[0]), b=level_name(self.levels[1])),
            T("dagunzi.line.mode_dead" if self.dead else "dagunzi.line.mode_live"),
        ]
        if self.trump is not None:
            lines.append(T("shengji.trump.suit", suit=T(f"shengji.suit.{SUITS[self.trump]}"),
                           level=level_name(self.level)))
        elif self.decl is not None:
            lines.append(T("shengji.line.declared", seat=self.decl.seat + 1,
                           cards=self._decl_text(self.decl)))
        if self.first_line is not None and self._phase in (BURY, JOKERS):
            lines.append(self.first_line)
        if self.tribute_note is not None:
            lines.append(self.tribute_note)
        if self.tribute is not None:
            payer, receiver, cards = self.tribute
            lines.append(T("dagunzi.line.tribute", payer=payer + 1, receiver=receiver + 1,
                           n=len(cards)))
        if self.dealt_kitty is not None and not self.dry and self._phase in (BURY, JOKERS):
            lines.append(T("dagunzi.line.dealt_kitty",
                           cards=format_ids(self.dealt_kitty, self.ctx)))
        if self.dry and self._phase == BURY:
            assert self.dealt_kitty is not None
            lines.append(T("dagunzi.line.dealt_kitty",
                           cards=format_ids(self.dealt_kitty, self.ctx)))
            lines.append(T("dagunzi.line.dry_now"))
        if self._phase == JOKERS:
            # while the joker window is open the table sees the kitty as the 庄 buried it: a
            # joker buried in the window shows once it closes, or who could bury one would
            kitty = self.buried_by_dealer
            if self.dry or any(c >= SMALL for c in kitty):
                lines.append(T("dagunzi.line.kitty", cards=format_ids(kitty, self.ctx)))
        elif self.kitty_shown and self._phase in (PLAY, DONE):
            lines.append(T("dagunzi.line.kitty", cards=format_ids(self.kitty, self.ctx)))
        if self._phase in (PLAY, DONE):
            lines.append(T("shengji.line.points", points=self.xian_points))
        # the trick so far and the last trick: View.round, View.last_round
        if self._phase == DONE:
            lines.extend(self.outcome().lines)
        hand = format_ids(ids_of(self.hands[seat]), self.ctx) if seat is not None else None
        return View(phase=self._phase_text(), seats=tuple(seats), lines=tuple(lines), hand=hand,
                    round=self.rounds.current(), last_round=self.rounds.last)

    def _phase_text(self) -> Text:
        if self._phase == DECLARE:
            return T("shengji.phase.declare", packet=self.packet, packets=PACKETS)
        if self._phase == SHOW:
            return T("dagunzi.phase.show")
        if self._phase == RETURN:
            assert self.tribute is not None
            return T("dagunzi.phase.return", seat=self.tribute[1] + 1, n=len(self.tribute[2]))
        if self._phase == BURY:
            assert self.dealer is not None
            return T("shengji.phase.bury", seat=self.dealer + 1, n=KITTY)
        if self._phase == JOKERS:
            return T("dagunzi.phase.jokers")
        if self._phase == PLAY:
            return T("shengji.phase.play", seat=self.turn + 1, trick=self.tricks + 1)
        return T("shengji.phase.done")

    def choices(self, seat: int) -> list[Choice]:
        if self._phase == BURY and self.dry and seat in self.to_act():
            action = self.trustee(seat)  # 干锅: the one bury there is, the kitty as dealt
            return [Choice(action, T("dagunzi.choice.dry", cards=action[5:]), "primary")]
        if seat not in self.to_act() or self._phase not in (DECLARE, SHOW, JOKERS):
            return []
        if self._phase == SHOW:
            claim = self._big_claim(seat)
            assert claim is not None
            suit = T(f"shengji.suit.{SUITS[claim[1]]}")
            return [Choice("show", T("dagunzi.choice.show", suit=suit), "primary"),
                    Choice("pass", T("dagunzi.choice.no_show"), "secondary")]
        return [Choice(a, T("dagunzi.choice.action", action=a),
                       "secondary" if a == "pass" else "primary")
                for a in self.legal_actions(seat)]

    def picker(self, seat: int) -> Picker | None:
        """One menu per suit and one for trumps (cut at 25); ``#2``/``#3`` mark copies."""
        if self._phase not in (BURY, RETURN, PLAY) or not any(self.hands[seat]):
            return None
        if self._phase != PLAY and seat not in self.to_act() or self._phase == BURY and self.dry:
            return None
        tokens, labels, groups = self.ctx.menus(self.hands[seat], Picker.MENU_SIZE)
        if self._phase == BURY:
            return Picker(tuple(tokens), tuple(labels), KITTY, KITTY, "bury {}", " ",
                          tuple(groups))
        if self._phase == RETURN:
            assert self.tribute is not None
            n = len(self.tribute[2])
            return Picker(tuple(tokens), tuple(labels), n, n, "return {}", " ", tuple(groups))
        return Picker(tuple(tokens), tuple(labels), 1, 3, "{}", " ", tuple(groups))


def max_loss(options: Mapping[str, Any], seats: int) -> int:
    """The most one seat can lose: a ±50 special plus the largest tribute (19 cards), or the
    levels: 1 + 3 × (1 + 6 kitty-joker levels)."""
    return 50 + PER // 2
