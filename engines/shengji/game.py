"""升级 / 欢乐升级: one hand of the four-seat trick game, from the deal to the level change.

Seats 0 and 2 play against 1 and 3. The deal comes in ``PACKETS`` packets; after each, every
seat that can make a stronger declaration (亮主, 自保, 反主, 自反, 反无主) may do so in one
window. The 庄 takes the kitty and buries as many cards (扣底); in 欢乐升级 the others may then
反底 in turn. The 庄 leads the first trick; each trick's winner leads the next. The 闲 side's
points, with the kitty multiplied if they win the last trick, decide the levels.

Actions (notation): ``declare 2h`` / ``declare 2h 2h`` / ``declare B B``, ``pass``,
``bury <cards>``, ``counter <cards>`` (反底), and a play: cards such as ``Ah Ah Kh``.
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
from engines.errors import IllegalActionError, NotationError, OptionError
from engines.shengji import ai
from engines.shengji.patterns import (
    Lead,
    beats,
    decompose,
    failed_throw,
    follow_problem,
    kitty_multiplier,
    shortfall,
    suit_cards,
)
from engines.shengji.rules import (
    ACE,
    DEAL,
    PACKETS,
    Declaration,
    declarations_held,
    level_change,
    match_points,
    rating_multiplier,
)
from engines.shengji.texts import NOTATION_ERRORS
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
)

DECLARE, BURY, COUNTER, PLAY, DONE = "declare", "bury", "counter", "play", "done"
DEFAULTS: dict[str, Any] = {"decks": 2, "fixed_two": False, "sweep": 0}
HAPPY_CAP = 64
"""欢乐升级: each 反主 and 反底 doubles the stake, at most ×64 in all (our cap, so a seat's
largest loss is bounded)."""


def team(seat: int) -> int:
    """Seats 0 and 2 are team 0, seats 1 and 3 team 1 (对家 are partners)."""
    return seat % 2


class ShengjiGame(Game):
    """升级 (001). Options: ``decks`` 1–3 (2), ``fixed_two`` (2 为常主), ``sweep`` (大光积分
    rooms: the 庄's points for a 大光, 0 = the usual 4). ``Setup.carry``: ``levels`` [team 0,
    team 1] and ``dealer`` (None in a match's first hand)."""

    # answered privately: who may declare would tell who holds level cards
    PRIVATE_PHASES = frozenset({DECLARE, COUNTER})

    HAPPY = False
    notation_errors = NOTATION_ERRORS

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
        self.epochs = [0] * 4
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
        self._deal_packet()

    @classmethod
    def position(cls, hands: Sequence[str], *, level: int = 10, trump: int | None = 1,
                 dealer: int = 0, leader: int | None = None, decks: int = 2,
                 fixed_two: bool = False, sweep: int = 0,
                 ratings: Sequence[int] = ()) -> ShengjiGame:
        """A hand set up at the start of a trick, for puzzles and tests: ``hands`` in
        notation per seat, trump ``trump`` (None: 无主) at ``level``. Such a game does not
        replay from its record."""
        game = cls(Setup(seats=4, seed=0,
                         options={"decks": decks, "fixed_two": fixed_two, "sweep": sweep},
                         carry={"levels": [level, level], "dealer": dealer},
                         ratings=tuple(ratings)))
        game.hands = [counts_of(parse_ids(h)) for h in hands]
        game.kitty, game.buried = [], []
        game.level = level
        game.decl = None if trump is None else Declaration(dealer, 1, trump)
        game._set_trump(game.decl)
        game._phase = PLAY
        game.leader = game.turn = dealer if leader is None else leader
        return game

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

    # --- the deal and the declaration windows ------------------------------------------------
    def _deal_packet(self) -> None:
        """Deal packets until some seat may declare (a window opens) or the deal is done."""
        while self.packet < PACKETS:
            start = self.per * self.packet // PACKETS
            self.packet += 1
            stop = self.per * self.packet // PACKETS
            for s in range(4):
                for cid in self.dealt[s][start:stop]:
                    self.hands[s][cid] += 1
                self.epochs[s] += 1
            self.passed = set()
            self._open_window()
            if self._eligible():
                return
        self._end_declaring()

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

    def _end_declaring(self) -> None:
        if self.dealer is None:
            # 争庄: "先亮者为庄": the first declarer deals; later declarations change the trump
            first = self.decl_history[0].seat if self.decl_history else self.fallback_dealer
            self.dealer = first
            self.level = self.levels[team(self.dealer)]
        self._set_trump(self.decl)
        self.counter_strength = self.decl.counter_strength() if self.decl else (0, 0)
        self._take_kitty(self.dealer)

    def _set_trump(self, decl: Declaration | None) -> None:
        self.ctx = Context(self.level, decl.suit if decl else None, self.fixed_two)

    def _take_kitty(self, seat: int) -> None:
        for cid in self.kitty:
            self.hands[seat][cid] += 1
        self.kitty = []
        self.kitty_owner = seat
        self.epochs[seat] += 1
        self._phase = BURY

    # --- who acts -----------------------------------------------------------------------------
    def phase(self) -> str:
        return self._phase

    def is_over(self) -> bool:
        return self._phase == DONE

    def decision(self) -> Window | None:
        """亮主/反主 and 反底 are claims: who may declare would tell who holds level cards."""
        if self._phase not in self.PRIVATE_PHASES:
            return None
        return Window.claims(self._eligible(), self.window_key)

    def turn_seats(self) -> tuple[int, ...]:
        if self._phase == BURY:
            assert self.kitty_owner is not None
            return (self.kitty_owner,)
        if self._phase == PLAY:
            return (self.turn,)
        return ()

    # --- actions ------------------------------------------------------------------------------
    def legal_actions(self, seat: int) -> list[str]:
        """Every legal action in the declaration windows. A bury or a throw has too many forms
        to list: in the bury phase the trustee's choice; leading, every single and the
        components of each suit as read by ``decompose``; following, every legal follow among
        the first 5,000 candidate sets. The trustee's choice is always included."""
        if seat not in self.to_act():
            return []
        if self._phase in (DECLARE, COUNTER):
            verb = "declare" if self._phase == DECLARE else "counter"
            return ["pass"] + [f"{verb} {self._decl_text(d)}" for d in self._declarations(seat)]
        if self._phase == BURY:
            return [self.trustee(seat)]
        cards = ids_of(self.hands[seat])
        out: set[str] = {self.trustee(seat)}
        if not self.trick:
            for suit in {self.ctx.eff[c] for c in cards}:
                held = [c for c in cards if self.ctx.eff[c] == suit]
                for comp in decompose(held, self.ctx):
                    out.add(format_ids(comp.ids, self.ctx))
                out.update(format_ids([c], self.ctx) for c in held)
        else:
            assert self.lead is not None
            seen: set[tuple[int, ...]] = set()
            for combo in combinations(sorted(cards), self.lead.n):
                if combo in seen:
                    continue
                seen.add(combo)
                if len(seen) > 5000:
                    break
                if follow_problem(self.hands[seat], self.lead, combo, self.ctx) is None:
                    out.add(format_ids(combo, self.ctx))
        return sorted(out)

    def forced_action(self, seat: int) -> str | None:
        """Never ``pass`` alone: the declaration windows ask only the seats that have
        something to declare (``to_act``), and a bury or a play is never a pass — so nothing
        needs computing (tests/engines/test_forced_action.py holds this to the listing)."""
        return None

    def _decl_text(self, d: Declaration) -> str:
        return format_ids(self._decl_ids(d))

    def _apply(self, seat: int, text: str) -> str:
        words = text.strip().split(None, 1)
        verb = words[0].lower() if words else ""
        rest = words[1] if len(words) > 1 else ""
        verb = {"亮": "declare", "亮主": "declare", "反": "declare", "不亮": "pass", "过": "pass",
                "扣底": "bury", "扣": "bury", "反底": "counter", "不反": "pass"}.get(verb, verb)
        if self._phase in (DECLARE, COUNTER):
            return self._apply_window(seat, verb, rest, text)
        if self._phase == BURY:
            if verb != "bury":
                raise IllegalActionError("bury the kitty first: bury and the cards", seat=seat,
                                         action=text, text=T("err.shengji.bury_first",
                                                             n=DEAL[self.decks][1]))
            return self._apply_bury(seat, rest, text)
        if verb in ("play", "出"):
            text = rest
        elif verb in ("pass", "declare", "bury", "counter"):
            raise IllegalActionError("play cards now", seat=seat, action=text,
                                     text=T("err.shengji.play_now"))
        return self._apply_play(seat, text)

    def _parse(self, text: str) -> list[int]:
        ids = parse_ids(text)
        if not ids:
            raise NotationError(text, "no cards", text=T("err.shengji.no_cards", typed=text))
        return ids

    def _check_held(self, seat: int, ids: Sequence[int], text: str) -> None:
        need = counts_of(ids)
        missing = [c for c in range(NCARDS) if need[c] > self.hands[seat][c]]
        if missing:
            cards = format_ids(missing, self.ctx)
            raise IllegalActionError(f"you do not hold {cards}", seat=seat, action=text,
                                     text=T("err.shengji.not_held", cards=cards))

    def _apply_window(self, seat: int, verb: str, rest: str, text: str) -> str:
        if verb == "pass":
            self.passed.add(seat)
            self._after_window()
            return "pass"
        want = "declare" if self._phase == DECLARE else "counter"
        if verb != want:
            key = "err.shengji.declare_now" if want == "declare" else "err.shengji.counter_now"
            raise IllegalActionError(f"now {want} or pass", seat=seat, action=text, text=T(key))
        ids = self._parse(rest)
        self._check_held(seat, ids, text)
        match = [d for d in self._declarations(seat)
                 if sorted(self._decl_ids(d)) == sorted(ids)]
        if not match:
            raise IllegalActionError(
                "not a declaration stronger than the current one", seat=seat, action=text,
                text=T("err.shengji.weak_declaration", cards=format_ids(ids),
                       level=level_name(self.level)))
        d = match[0]
        canonical = f"{want} {self._decl_text(d)}"
        for other in range(4):  # the others' possible declarations changed: show them anew
            if other != seat:
                self.epochs[other] += 1
        if self._phase == DECLARE:
            if self.decl is not None and self.decl.seat != seat:
                self.fanzhu += 1
            self.decl = d
            self.decl_history.append(d)
            self._after_window()
        else:
            self.fandi += 1
            self.counter_strength = d.counter_strength()
            self.decl = d
            self.decl_history.append(d)
            self._set_trump(d)
            self._take_kitty(seat)
        return canonical

    def _decl_ids(self, d: Declaration) -> list[int]:
        if d.joker is not None and self.decks == 1:
            return [SMALL, BIG]  # one deck: 小王 + 大王 make the no-trump pair
        return [d.joker if d.joker is not None else card_id(self.level, d.suit or 0)] * d.count

    def _after_window(self) -> None:
        if self._eligible():
            return
        if self._phase == DECLARE:
            self._deal_packet()
        else:
            self._start_play()

    def _apply_bury(self, seat: int, rest: str, text: str) -> str:
        ids = self._parse(rest)
        k = DEAL[self.decks][1]
        if len(ids) != k:
            raise IllegalActionError(f"bury exactly {k} cards", seat=seat, action=text,
                                     text=T("err.shengji.bury_count", n=k, got=len(ids)))
        self._check_held(seat, ids, text)
        for cid in ids:
            self.hands[seat][cid] -= 1
        self.kitty = list(ids)
        self.buried = list(ids)
        if self.HAPPY:
            self._phase = COUNTER
            self.passed = set()
            self._open_window()
            for other in self._eligible():  # a claim they may make: their DMs show it
                self.epochs[other] += 1
            if not self._eligible():
                self._start_play()
        else:
            self._start_play()
        return "bury " + format_ids(ids, self.ctx)

    def _start_play(self) -> None:
        assert self.dealer is not None
        self._phase = PLAY
        self.leader = self.turn = self.dealer

    def _apply_play(self, seat: int, text: str) -> str:
        ids = self._parse(text)
        self._check_held(seat, ids, text)
        ctx = self.ctx
        if not self.trick:
            suits = {ctx.eff[c] for c in ids}
            if len(suits) != 1:
                raise IllegalActionError("a lead must be of one suit (or all trumps)", seat=seat,
                                         action=text, text=T("err.shengji.lead_one_suit"))
            others = [self.hands[s] for s in range(4) if s != seat]
            forced = failed_throw(ids, others, ctx)
            canonical = format_ids(ids, ctx)
            self.failed = None
            note = None
            if forced is not None:
                self.failed = (seat, canonical, forced.text(ctx))
                note = T("shengji.note.failed", tried=canonical, played=self.failed[2])
                ids = list(forced.ids)
            self.lead = Lead.of(ids, ctx)
            self._put(seat, ids, note)
            return canonical
        assert self.lead is not None
        problem = follow_problem(self.hands[seat], self.lead, ids, ctx)
        if problem is not None:
            raise self._follow_error(seat, text, ids, problem)
        self._put(seat, ids)
        return format_ids(ids, ctx)

    def _suit_text(self, suit: int) -> Text:
        return T("shengji.suit.trump") if suit == TRUMP else T(f"shengji.suit.{SUITS[suit]}")

    def _follow_error(self, seat: int, text: str, ids: Sequence[int],
                      problem: tuple[str, Any, Any]) -> IllegalActionError:
        assert self.lead is not None
        what, best, got = problem
        suit = self._suit_text(self.lead.suit)
        if what == "count":
            return IllegalActionError(
                f"play {self.lead.n} cards, as many as the lead", seat=seat, action=text,
                text=T("err.shengji.follow_count", n=self.lead.n, got=len(ids)))
        if what == "suit":
            held = len(suit_cards(self.hands[seat], self.ctx, self.lead.suit))
            return IllegalActionError(
                f"you still hold {held} card(s) of the led suit; follow suit first", seat=seat,
                action=text, text=T("err.shengji.follow_suit", suit=suit, held=held))
        kind = shortfall(got, best)
        return IllegalActionError(
            f"you still hold a {kind} of the led suit; a {self.lead.kind} was led", seat=seat,
            action=text, text=T("err.shengji.follow_structure", suit=suit,
                                kind=T(f"shengji.kind.{kind}"),
                                led=T(f"shengji.kind.{self.lead.kind}")))

    def _put(self, seat: int, ids: Sequence[int], note: Text | None = None) -> None:
        for cid in ids:
            self.hands[seat][cid] -= 1
        self.trick.append((seat, list(ids)))
        self.rounds.play(seat, format_ids(ids, self.ctx), note)
        if len(self.trick) < 4:
            self.turn = (seat + 1) % 4
            return
        assert self.lead is not None
        best_seat, best = self.trick[0]
        for s, play in self.trick[1:]:
            if beats(play, best, self.lead, self.ctx):
                best_seat, best = s, play
        got = sum(points(c) for _, play in self.trick for c in play)
        assert self.dealer is not None
        if team(best_seat) != team(self.dealer):
            self.xian_points += got
        self.last_trick, self.last_winner = self.trick, best_seat
        self.rounds.close(best_seat)
        self.trick = []
        self.tricks += 1
        self.leader = self.turn = best_seat
        if not any(self.hands[best_seat]):
            if team(best_seat) != team(self.dealer):
                mult = kitty_multiplier(self.lead)
                bonus = sum(points(c) for c in self.buried) * mult
                self.kitty_bonus = (mult, bonus)
                self.xian_points += bonus
            self._finish()

    # --- the end of the hand ------------------------------------------------------------------
    def _finish(self) -> None:
        assert self.dealer is not None
        self._phase = DONE
        side, n = level_change(self.xian_points, self.decks)
        zteam = team(self.dealer)
        up = zteam if side == "zhuang" else 1 - zteam
        base = match_points(side, n, self.sweep)
        x = base * rating_multiplier(self.setup.ratings)
        mult = 1
        if self.HAPPY:
            mult = min(HAPPY_CAP, 2 ** (self.fanzhu + self.fandi))
            x *= mult
        pts = tuple(x if team(s) == up else -x for s in range(4))
        lines: list[Text] = [T("shengji.line.result_" + side, points=self.xian_points, n=n,
                               team=up + 1)]
        if self.kitty_bonus:
            lines.append(T("shengji.line.kitty_bonus", mult=self.kitty_bonus[0],
                           bonus=self.kitty_bonus[1]))
        lines.append(T("shengji.line.kitty", cards=format_ids(self.buried, self.ctx)))
        if self.HAPPY and mult > 1:
            lines.append(T("shengji.line.happy", fanzhu=self.fanzhu, fandi=self.fandi, mult=mult))
        levels = list(self.levels)
        levels[up] += n
        winner = None
        if levels[up] > ACE:
            winner = up
            lines.append(T("shengji.line.match", team=up + 1))
        nxt = (self.dealer + 2) % 4 if side == "zhuang" else (self.dealer + 1) % 4
        self._carry = ({"levels": [2, 2], "dealer": None} if winner is not None
                       else {"levels": levels, "dealer": nxt})
        self.new_levels = levels
        self._outcome = Outcome(points=pts, scores=pts, lines=tuple(lines),
                                winners=tuple(s for s in range(4) if team(s) == up))

    def outcome(self) -> Outcome:
        if self._outcome is None:
            raise IllegalActionError("the game is not over", text=T("err.base.not_over"))
        return self._outcome

    def next_carry(self) -> dict[str, Any]:
        return dict(self._carry)

    # --- trustee --------------------------------------------------------------------------------
    def _trustee(self, seat: int, level: str = "normal") -> str:
        """托管: legal always (``ai.choose``); never ruffs a partner's winning trick."""
        return ai.choose(self, seat)

    # --- views ----------------------------------------------------------------------------------
    def _trump_text(self) -> Text:
        if self._phase == DECLARE and self.decl is None:
            return T("shengji.trump.none_yet", level=level_name(self.level))
        if self.decl is None or self.decl.suit is None:
            return T("shengji.trump.notrump", level=level_name(self.level))
        return T("shengji.trump.suit", suit=self._suit_text(self.decl.suit),
                 level=level_name(self.level))

    def private_epoch(self, seat: int) -> int:
        """Bumped when the seat's private picture grows (the kitty, a claim it may make)."""
        return self.epochs[seat]

    def view(self, seat: int | None) -> View:
        current = dict(self.trick)
        seats = []
        for s in range(4):
            role = None
            if self.dealer is not None:
                role = T("shengji.role.zhuang" if team(s) == team(self.dealer)
                         else "shengji.role.xian")
            status = None
            if s in current:
                status = T("shengji.status.played", cards=format_ids(current[s], self.ctx))
            elif self.decl is not None and self.decl.seat == s and self._phase == DECLARE:
                status = T("shengji.status.declared", cards=self._decl_text(self.decl))
            seats.append(SeatView(role=role, count=sum(self.hands[s]), status=status,
                                  cards=(format_ids(ids_of(self.hands[s]), self.ctx)
                                         if seat == s else None)))
        lines: list[Text] = [
            T("shengji.line.levels", a=level_name(self.levels[0]), b=level_name(self.levels[1])),
            self._trump_text(),
        ]
        if self.decl is not None:
            lines.append(T("shengji.line.declared", seat=self.decl.seat + 1,
                           cards=self._decl_text(self.decl)))
        if self._phase in (PLAY, DONE):
            lines.append(T("shengji.line.points", points=self.xian_points))
        # the trick so far, the last trick and a failed 甩牌: View.round, View.last_round
        if self.HAPPY and (self.fanzhu or self.fandi):
            lines.append(T("shengji.line.happy_now", fanzhu=self.fanzhu, fandi=self.fandi))
        if self._phase == DONE:
            lines.extend(self.outcome().lines)
        hand = format_ids(ids_of(self.hands[seat]), self.ctx) if seat is not None else None
        return View(phase=self._phase_text(), seats=tuple(seats), lines=tuple(lines), hand=hand,
                    round=self.rounds.current(), last_round=self.rounds.last)

    def _phase_text(self) -> Text:
        if self._phase == DECLARE:
            return T("shengji.phase.declare", packet=self.packet, packets=PACKETS)
        if self._phase == COUNTER:
            return T("shengji.phase.counter")
        if self._phase == BURY:
            assert self.kitty_owner is not None
            return T("shengji.phase.bury", seat=self.kitty_owner + 1, n=DEAL[self.decks][1])
        if self._phase == PLAY:
            return T("shengji.phase.play", seat=self.turn + 1, trick=self.tricks + 1)
        return T("shengji.phase.done")

    def choices(self, seat: int) -> list[Choice]:
        if seat not in self.to_act() or self._phase not in (DECLARE, COUNTER):
            return []
        verb = "declare" if self._phase == DECLARE else "counter"
        out = [Choice(f"{verb} {self._decl_text(d)}",
                      T(f"shengji.choice.{verb}", cards=self._decl_text(d)), "primary")
               for d in self._declarations(seat)]
        out.append(Choice("pass", T("shengji.choice.pass")))
        return out

    def picker(self, seat: int) -> Picker | None:
        """The seat's cards, one menu per suit and one for trumps (a group over 25 is cut);
        identical cards are told apart by ``#2``/``#3`` in their tokens."""
        if self._phase not in (BURY, PLAY) or not any(self.hands[seat]):
            return None
        if self._phase == BURY and seat != self.kitty_owner:
            return None
        tokens, labels, groups = self.ctx.menus(self.hands[seat], Picker.MENU_SIZE)
        if self._phase == BURY:
            k = DEAL[self.decks][1]
            return Picker(tuple(tokens), tuple(labels), k, k, "bury {}", " ", tuple(groups))
        return Picker(tuple(tokens), tuple(labels), 1, len(tokens), "{}", " ", tuple(groups))


class HappyShengjiGame(ShengjiGame):
    """欢乐升级 (001): 升级 plus 反底 after each bury; each 反主 and each 反底 doubles the stake."""

    HAPPY = True


def max_loss(options: Mapping[str, Any], seats: int) -> int:
    """The most one seat can lose: 闲 climbing from 2 past A is 2 + 13 points, ×3 for the
    rating band (or the room's 大光 value)."""
    opts = {**DEFAULTS, **dict(options)}
    return max(15, int(opts["sweep"])) * 3


def max_loss_happy(options: Mapping[str, Any], seats: int) -> int:
    return max_loss(options, seats) * HAPPY_CAP
