"""吃火锅: one game of Hot Pot, from the antes until the pot is empty or 20 turns are played.

Each seat antes into the pot; from a random first seat, in seat order, each turn deals the
player two open cards; the player passes (放弃) or bets (添菜) and gets a third card. The
deck is reshuffled every round (one turn per seat). All cards are open, so every seat sees
the same view. Amounts are points; beans are points × the room coefficient.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from engines.base import Choice, Game, Outcome, SeatView, Setup, T, Text, View
from engines.cards import MAX_AMOUNT, Card, format_cards, rank_char, shuffled
from engines.errors import IllegalActionError, OptionError
from engines.hotpot.notation import parse_action
from engines.hotpot.rules import (
    Third,
    bet_cap,
    consecutive,
    factor,
    is_pair,
    loss,
    ranks_for,
    resolve,
    worst_loss,
)

PLAY, DONE = "play", "done"
DEFAULTS: dict[str, Any] = {"ante": 10, "min_bet": 1, "max_bet": 100_000, "loss_cap": 200_000}


@dataclass(frozen=True)
class Turn:
    """One turn (一手): the seat, its two open cards, what it did, and the result.

    ``action``: "pass", "consecutive" (auto-pass), "nobet" (auto-pass: no bet possible) or
    "bet". ``delta``: the seat's change (+ won from the pot, − paid into it).
    """

    seat: int
    cards: tuple[Card, Card]
    action: str
    bet: int = 0
    third: Card | None = None
    result: Third | None = None
    delta: int = 0

    def text(self) -> Text:
        """The turn told as a line."""
        args: dict[str, Any] = {"seat": self.seat + 1, "cards": _pair_text(self.cards)}
        if self.result is None:
            return T("hotpot.turn." + self.action, **args)
        a, b = (c.rank for c in self.cards)
        return T(
            "hotpot.turn." + self.result.value,
            bet=self.bet,
            third=str(self.third),
            amount=abs(self.delta),
            factor=factor(a, b, self.result),
            **args,
        )


def _pair_text(cards: tuple[Card, Card]) -> str:
    return format_cards(cards)


def _ranks_text(ranks: list[int]) -> Text | str:
    return " ".join(rank_char(r) for r in ranks) if ranks else T("hotpot.none")


class HotpotGame(Game):
    """吃火锅 (001). Options: ``ante`` (底料) and ``min_bet`` (最小添菜数) in points;
    ``max_bet`` (每次添菜上限, 100,000) and ``loss_cap`` (每次输最大上限, 200,000) in coins,
    i.e. beans: ``max_bet // N`` and ``loss_cap // N`` points with the room's coefficient N
    (``Setup.coefficient``; points as coins in a score-only room)."""

    TURNS: ClassVar[int] = 20

    def __init__(self, setup: Setup, decks: Sequence[Sequence[Card]] = ()) -> None:
        """A new game; ``decks`` stacks the first rounds' decks (each a prefix, the rest of
        the 52 cards following in shuffled order) for puzzles and tests; a stacked game
        does not replay from its record."""
        super().__init__(setup)
        self.seats = setup.seats
        opts = {**DEFAULTS, **dict(setup.options)}
        self.check_options(opts)
        self.ante: int = opts["ante"]
        self.min_bet: int = opts["min_bet"]
        n = max(setup.coefficient, 0)
        # The seed's caps are coins (每次添菜数最大上限为100000, 每次输最大上限为200000): in a
        # bean room they bind the beans, N per point; in a score-only room (N = 0) the points.
        self.max_bet: int = opts["max_bet"] // n if n else opts["max_bet"]
        self.loss_cap: int = opts["loss_cap"] // n if n else opts["loss_cap"]
        self.pairs_dealt = [0] * self.seats
        rng = random.Random(setup.seed)
        self.first = rng.randrange(self.seats)
        rounds = -(-self.TURNS // self.seats)
        self.decks: list[list[Card]] = [shuffled(rng) for _ in range(rounds)]
        for i, top in enumerate(decks):
            top = list(top)
            self.decks[i] = top + [c for c in self.decks[i] if c not in top]
        self.pot = 0
        self.net = [0] * self.seats
        self.turn = 0
        self.pos = 0
        self.open: tuple[Card, Card] | None = None
        self.history: list[Turn] = []
        self.ended: str | None = None
        self.shares: list[int] = [0] * self.seats
        self.present: list[int] = []
        self.leftover = 0
        for s in range(self.seats):
            paid = loss(self.ante, self.carried(s), self.ante)
            self.net[s] -= paid
            self.pot += paid
        if self.pot == 0:
            self.ended = "empty"
        else:
            self._next_decision()

    @classmethod
    def check_options(cls, options: Mapping[str, Any]) -> None:
        """``ante``, ``min_bet``, ``max_bet``, ``loss_cap``: whole numbers from 1 to
        ``MAX_AMOUNT``, with ``min_bet`` ≤ ``max_bet`` ≤ ``loss_cap`` (a loss capped below
        the bet would make every bet a winning one). Raises OptionError naming the option."""
        opts = {**DEFAULTS, **dict(options)}
        for key in DEFAULTS:
            v = opts[key]
            if not isinstance(v, int) or isinstance(v, bool) or v < 1:
                raise OptionError(
                    key,
                    "must be a whole number ≥ 1",
                    text=T("err.base.option_whole", option=key, min=1),
                )
            if v > MAX_AMOUNT:
                raise OptionError(
                    key,
                    f"must be a whole number from 1 to {MAX_AMOUNT:,}",
                    text=T("err.hotpot.option_range", option=key, max=f"{MAX_AMOUNT:,}"),
                )
        if opts["max_bet"] < opts["min_bet"]:
            raise OptionError(
                "max_bet", "must be at least min_bet", text=T("err.hotpot.option_max_bet")
            )
        if opts["loss_cap"] < opts["max_bet"]:
            raise OptionError(
                "loss_cap", "must be at least max_bet", text=T("err.hotpot.option_loss_cap")
            )

    # --- state -------------------------------------------------------------------------------
    @property
    def current(self) -> int:
        """The seat whose turn it is (or would be)."""
        return (self.first + self.turn) % self.seats

    @property
    def round(self) -> int:
        return self.turn // self.seats

    def carried(self, seat: int) -> int | None:
        """携带: the points the seat has now (what it brought ± this game), None if unlimited."""
        stakes = self.setup.stakes
        if seat >= len(stakes) or stakes[seat] is None:
            return None
        return int(stakes[seat]) + self.net[seat]  # type: ignore[arg-type]

    def bet_range(self, seat: int) -> tuple[int, int] | None:
        """The smallest and largest legal bet now, or None if the seat cannot bet."""
        if self.open is None or seat != self.current:
            return None
        cap = bet_cap(self.pot, self.carried(seat), self.max_bet)
        if cap < self.min_bet:
            return None
        a, b = (c.rank for c in self.open)
        # 三张: with a pair only the minimum may be bet.
        return (self.min_bet, self.min_bet) if is_pair(a, b) else (self.min_bet, cap)

    def is_over(self) -> bool:
        return self.ended is not None

    def phase(self) -> str:
        return DONE if self.is_over() else PLAY

    def turn_seats(self) -> tuple[int, ...]:
        return () if self.is_over() else (self.current,)

    def seen(self) -> list[Card]:
        """Cards dealt this round (all open), the current two included."""
        return self.decks[self.round][: self.pos] if not self.is_over() else []

    # --- the flow -------------------------------------------------------------------------
    def _deal_two(self) -> tuple[Card, Card]:
        if self.turn % self.seats == 0:
            self.pos = 0  # 每一圈重新洗牌一次: a fresh deck each round
        deck = self.decks[self.round]
        cards = (deck[self.pos], deck[self.pos + 1])
        self.pos += 2
        return cards

    def _next_decision(self) -> None:
        """Deal turns until a player has a decision, auto-passing 连张 and hopeless turns."""
        self.open = None
        while self.turn < self.TURNS:
            cards = self._deal_two()
            a, b = (c.rank for c in cards)
            self.open = cards
            if consecutive(a, b):
                self._close(Turn(self.current, cards, "consecutive"))
                continue
            if self.bet_range(self.current) is None:
                self._close(Turn(self.current, cards, "nobet"))
                continue
            self.pairs_dealt[self.current] += 1
            return
        self.open = None
        self._share_leftover()

    def _close(self, turn: Turn) -> None:
        self.history.append(turn)
        self.open = None
        self.turn += 1

    def _share_leftover(self) -> None:
        # Rule 17: half the leftover goes to the players still at the table, in equal shares;
        # the other half (left open by the seed) is shared the same way so the game settles
        # zero-sum (docs/games/hotpot.md).
        present = [s for s in range(self.seats) if s not in self.escaped] or list(range(self.seats))
        order = [(self.first + k) % self.seats for k in range(self.seats)]
        order = [s for s in order if s in present]
        self.present = order
        base, odd = divmod(self.pot, len(order))
        for i, s in enumerate(order):
            got = base + (1 if i < odd else 0)
            self.shares[s] = got
            self.net[s] += got
        self.leftover = self.pot
        self.pot = 0
        self.ended = "turns"

    # --- actions ----------------------------------------------------------------------------
    def legal_actions(self, seat: int) -> list[str]:
        if seat not in self.to_act():
            return []
        span = self.bet_range(seat)
        bets = [] if span is None else [f"bet {n}" for n in range(span[0], span[1] + 1)]
        return ["pass", *bets]

    def _apply(self, seat: int, text: str) -> str:
        choice = parse_action(text)
        assert self.open is not None
        if choice is None:
            self._close(Turn(seat, self.open, "pass"))
            self._next_decision()
            return "pass"
        span = self.bet_range(seat)
        if span is None:
            raise IllegalActionError(
                "you cannot bet now; pass", seat=seat, action=text, text=T("err.hotpot.no_bet")
            )
        low, high = span
        bet = low if choice == "min" else high if choice == "max" else choice
        assert isinstance(bet, int)
        if not low <= bet <= high:
            a, b = (c.rank for c in self.open)
            if is_pair(a, b):
                why = f"with a pair you may only bet the minimum, {low}"
                msg = T("err.hotpot.pair_min", low=low)
            else:
                why = f"a bet must be {low} to {high}"
                msg = T("err.hotpot.bet_range", low=low, high=high)
            raise IllegalActionError(why, seat=seat, action=text, text=msg)
        self._bet(seat, bet)
        return f"bet {bet}"

    def _bet(self, seat: int, bet: int) -> None:
        assert self.open is not None
        cards = self.open
        third = self.decks[self.round][self.pos]
        self.pos += 1
        a, b = (c.rank for c in cards)
        result = resolve(a, b, third.rank)
        if result is Third.TRIPLE:
            delta = self.pot
        elif result is Third.BETWEEN:
            delta = bet
        else:
            delta = -loss(bet * factor(a, b, result), self.carried(seat), self.loss_cap)
        self.net[seat] += delta
        self.pot -= delta
        self._close(Turn(seat, cards, "bet", bet, third, result, delta))
        if self.pot == 0:
            self.ended = "empty"
        else:
            self._next_decision()

    # --- trustee ------------------------------------------------------------------------------
    def _trustee(self, seat: int, level: str = "normal") -> str:
        """托管: bet the minimum only when the odds favour it (the gap is wide, or a pair with
        a big pot), counting the cards already open this round; escaped seats pass."""
        if seat in self.escaped or self.bet_range(seat) is None or self.open is None:
            return "pass"
        return f"bet {self.min_bet}" if self.edge(seat) > 0 else "pass"

    def edge(self, seat: int) -> float:
        """Expected points of a minimum bet now, per the cards left in this round's deck."""
        assert self.open is not None
        left = Counter({r: 4 for r in range(1, 14)})
        left.subtract(c.rank for c in self.seen())
        total = sum(left.values())
        a, b = (c.rank for c in self.open)
        ev = 0.0
        for rank, n in left.items():
            result = resolve(a, b, rank)
            if result is Third.TRIPLE:
                gain = self.pot
            elif result is Third.BETWEEN:
                gain = self.min_bet
            else:
                gain = -self.min_bet * factor(a, b, result)
            ev += n * gain
        return ev / total

    # --- outcome --------------------------------------------------------------------------
    def outcome(self) -> Outcome:
        if not self.is_over():
            raise IllegalActionError("the game is not over", text=T("err.base.not_over"))
        points = tuple(self.net)
        lines: list[Text] = [t.text() for t in self.history if t.result is not None]
        if self.ended == "empty" and self.history:
            lines.append(T("hotpot.line.end_empty", seat=self.history[-1].seat + 1))
        elif self.ended == "turns":
            given = sorted({self.shares[s] for s in self.present}) or [0]
            share = str(given[0]) if len(given) == 1 else f"{given[0]}~{given[-1]}"
            lines.append(
                T("hotpot.line.end_turns", turns=self.TURNS, leftover=self.leftover, share=share)
            )
        return Outcome(
            points=points,
            scores=tuple((p > 0) - (p < 0) for p in points),
            lines=tuple(lines),
            winners=tuple(s for s in range(self.seats) if points[s] > 0),
        )

    # --- views -----------------------------------------------------------------------------
    def view(self, seat: int | None) -> View:
        seats = tuple(
            SeatView(
                cards=_pair_text(self.open)
                if self.open is not None and s == self.current
                else None,
                status=T("hotpot.status.net", net=self.net[s]),
            )
            for s in range(self.seats)
        )
        lines: list[Text] = [
            T("hotpot.line.pot", pot=self.pot),
            T(
                "hotpot.line.turn",
                turn=min(self.turn + 1, self.TURNS),
                turns=self.TURNS,
                round=min(self.round + 1, -(-self.TURNS // self.seats)),
            ),
            T("hotpot.line.rules", ante=self.ante, min_bet=self.min_bet),
        ]
        lines.extend(t.text() for t in self.history[-self.seats :])
        if self.open is not None:
            cur = self.current
            a, b = (c.rank for c in self.open)
            lines.append(T("hotpot.line.open", seat=cur + 1, cards=_pair_text(self.open)))
            if is_pair(a, b):
                lines.append(T("hotpot.line.hint_pair", min_bet=self.min_bet, rank=rank_char(a)))
            else:
                table = ranks_for(a, b)
                lines.append(
                    T(
                        "hotpot.line.hint",
                        win=_ranks_text(table[Third.BETWEEN]),
                        lose=_ranks_text(table[Third.OUTSIDE]),
                        post=_ranks_text(table[Third.POST]),
                        factor=factor(a, b, Third.POST),
                    )
                )
            span = self.bet_range(cur)
            if span is not None:
                lines.append(T("hotpot.line.limits", low=span[0], high=span[1]))
        if self.is_over():
            lines.extend(self.outcome().lines[-1:])
        hand = None
        if seat is not None and self.open is not None and seat == self.current:
            hand = _pair_text(self.open)
        return View(phase=self._phase_text(), seats=seats, lines=tuple(lines), hand=hand)

    def _phase_text(self) -> Text:
        if self.is_over():
            return T("hotpot.phase.done")
        return T("hotpot.phase.play", seat=self.current + 1)

    def choices(self, seat: int) -> list[Choice]:
        if seat not in self.to_act():
            return []
        out = [Choice("pass", T("hotpot.choice.pass"), "secondary")]
        span = self.bet_range(seat)
        if span is not None:
            low, high = span
            amounts = sorted({low, max(low, high // 4), max(low, high // 2), high})
            out.extend(
                Choice(
                    f"bet {n}",
                    T("hotpot.choice.bet", amount=n),
                    "danger" if n == high and n != low else "primary",
                )
                for n in amounts
            )
        return out


def max_loss(options: Mapping[str, Any], seats: int) -> int:
    """The most one seat can lose in a game under the rules' caps (see ``worst_loss``)."""
    opts = {**DEFAULTS, **dict(options)}
    return worst_loss(
        int(opts["ante"]), seats, HotpotGame.TURNS, int(opts["max_bet"]), int(opts["loss_cap"])
    )
