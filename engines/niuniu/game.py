"""斗牛 / 欢乐斗牛 / 牛牛: one hand of a bull game, banker against each player.

Every seat is dealt five cards from one shuffled 52-card deck. The banker is chosen by
the variant's rule; in 牛牛 the players then pick stakes. All seats arrange their split
at once (``to_act`` holds every seat still arranging) and the cards are revealed together
when the last split is in: until then ``view(seat)`` shows only that seat's own cards.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from engines.base import (
    Choice,
    Game,
    Outcome,
    Picker,
    SeatView,
    Setup,
    T,
    Text,
    View,
    net_points,
)
from engines.cards import MAX_AMOUNT, Card, echo, format_cards, shuffled, sort_cards
from engines.errors import IllegalActionError, NotationError, OptionError
from engines.niuniu.hands import Hand, Kind, Split, best_split, bull_splits, evaluate
from engines.niuniu.notation import parse_bet, parse_grab, split_word
from engines.niuniu.scoring import Versus, compare, settle

GRAB, BET, SPLIT, DONE = "grab", "bet", "split", "done"


def _kind_text(kind: Kind) -> Text:
    return T(kind.text_key)


def _whole(value: Any, low: int, high: int | None) -> bool:
    """An int (not a bool) from ``low`` to ``high`` (None: no upper bound)."""
    if not isinstance(value, int) or isinstance(value, bool):
        return False
    return low <= value and (high is None or value <= high)


class BullGame(Game):
    """Shared machinery of the three variants; subclasses choose banker, units and escape."""

    VARIANT: ClassVar[str] = ""
    PHASES: ClassVar[tuple[str, ...]] = (SPLIT,)

    def __init__(self, setup: Setup, hands: Sequence[Sequence[Card]] = ()) -> None:
        """A new hand; ``hands`` deals the given five cards to each seat instead of the
        shuffle (puzzles and tests; such a hand does not replay from its record)."""
        super().__init__(setup)
        self.seats = setup.seats
        self.options: dict[str, Any] = dict(setup.options)
        self.check_options(self.options)
        rng = random.Random(setup.seed)
        deck = shuffled(rng)
        self.cards: list[tuple[Card, ...]] = [
            tuple(sort_cards(deck[5 * i : 5 * i + 5])) for i in range(self.seats)
        ]
        if hands:
            if len(hands) != self.seats or any(len(h) != 5 for h in hands):
                raise ValueError("stack five cards for every seat")
            if len({c for h in hands for c in h}) != 5 * self.seats:
                raise ValueError("a card is dealt twice")
            self.cards = [tuple(sort_cards(h)) for h in hands]
        self.banker: int | None = None
        self.units: dict[int, int] = {}
        self.splits: dict[int, Split | None] = {}
        self.regrouped = False
        self._start(rng)

    # --- variant hooks --------------------------------------------------------------
    def _start(self, rng: random.Random) -> None:
        """Choose the banker (and units) for this hand."""
        raise NotImplementedError

    def _penalty(self, seat: int) -> int:
        """逃跑: what an escaping seat pays (at least; more if its opponents are owed more)."""
        raise NotImplementedError

    def _rule_line(self) -> Text:
        raise NotImplementedError

    def escape_cost(self, seat: int) -> int | None:
        """The variant's escape penalty (``_penalty``; more if its opponents are owed more);
        the stakes it counts are on the table. 0 once escaped; None while the seat has neither
        the bank nor a stake (牛牛 before the bank is taken)."""
        if seat in self.escaped or self.is_over():
            return 0
        if seat != self.banker and seat not in self.units:
            return None
        return self._penalty(seat)

    # --- state --------------------------------------------------------------------------
    @property
    def players(self) -> list[int]:
        """闲家: every seat but the banker (empty while the banker is unknown)."""
        return [] if self.banker is None else [s for s in range(self.seats) if s != self.banker]

    def phase(self) -> str:
        if self.is_over():
            return DONE
        if self.banker is None:
            return GRAB
        if len(self.units) < self.seats - 1:
            return BET
        return SPLIT

    def is_over(self) -> bool:
        return self.regrouped or len(self.splits) == self.seats

    def cards_visible(self, seat: int) -> bool:
        """Whether ``seat`` may see its own cards yet."""
        return self.phase() in (SPLIT, DONE)

    def turn_seats(self) -> tuple[int, ...]:
        phase = self.phase()
        if phase == BET:
            return tuple(s for s in self.players if s not in self.units)
        if phase == SPLIT:
            return tuple(s for s in range(self.seats) if s not in self.splits)
        return ()

    def hand(self, seat: int) -> Hand:
        """The seat's declared result (its best, before it has declared)."""
        split = self.splits[seat] if seat in self.splits else best_split(self.cards[seat])
        return evaluate(self.cards[seat], split)

    # --- actions ------------------------------------------------------------------------
    def legal_actions(self, seat: int) -> list[str]:
        if seat not in self.to_act():
            return []
        phase = self.phase()
        if phase == GRAB:
            return ["bank", "decline"]
        if phase == BET:
            return [f"bet {s}" for s in self._presets(seat)]
        return [str(s) for s in bull_splits(self.cards[seat])] + ["nobull"]

    def _presets(self, seat: int) -> list[int]:
        raise IllegalActionError(
            "this game has no stakes to pick", seat=seat, text=T("err.niuniu.no_stakes")
        )

    def _apply(self, seat: int, text: str) -> str:
        phase = self.phase()
        if phase == GRAB:
            return self._grab(seat, parse_grab(text))
        if phase == BET:
            return self._bet(seat, text)
        split = self._read_split(seat, text)
        self.splits[seat] = split if split is not None and split.is_bull else None
        return self._canonical(self.splits[seat])

    def _grab(self, seat: int, take: bool) -> str:
        raise IllegalActionError(
            "the banker is already chosen", seat=seat, text=T("err.niuniu.banker_chosen")
        )

    def _bet(self, seat: int, text: str) -> str:
        presets = self._presets(seat)
        amount = parse_bet(text)
        if amount == "min":
            amount = presets[0]
        elif amount == "max":
            amount = presets[-1]
        if amount not in presets:
            offer = ", ".join(map(str, presets))
            raise IllegalActionError(
                f"stakes on offer are {offer}",
                seat=seat,
                action=text,
                text=T("err.niuniu.stake_offer", stakes=offer),
            )
        assert isinstance(amount, int)
        self.units[seat] = amount
        return f"bet {amount}"

    def _read_split(self, seat: int, text: str) -> Split | None:
        word = split_word(text)
        if word == "best":
            return best_split(self.cards[seat])
        if word == "nobull":
            return None
        try:
            return Split.parse(text, self.cards[seat])
        except IllegalActionError as exc:
            raise IllegalActionError(exc.reason, seat=seat, action=text, text=exc.text) from None
        except NotationError:
            shown = echo(text)
            raise NotationError(
                shown,
                "split with the three bull cards (split KQ5), best, or nobull",
                text=T("err.niuniu.split", typed=shown),
            ) from None

    @staticmethod
    def _canonical(split: Split | None) -> str:
        return "nobull" if split is None else str(split)

    # --- trustee --------------------------------------------------------------------------
    def _trustee(self, seat: int, level: str = "normal") -> str:
        """托管: decline the bank (unless last to be offered), the smallest stake, best split."""
        phase = self.phase()
        if phase == GRAB:
            return self._trustee_grab(seat)
        if phase == BET:
            return f"bet {self._presets(seat)[0]}"
        split = best_split(self.cards[seat])
        return self._canonical(split)

    def _trustee_grab(self, seat: int) -> str:
        return "decline"

    # --- outcome ----------------------------------------------------------------------------
    def versus(self) -> list[Versus]:
        """The banker-player comparisons of the finished hand."""
        if self.banker is None or self.regrouped:
            return []
        hands = [self.hand(s) for s in range(self.seats)]
        return compare(self.banker, hands, self.units)

    def outcome(self) -> Outcome:
        if not self.is_over():
            raise IllegalActionError("the hand is not over", text=T("err.base.not_over"))
        if self.regrouped:
            zeros = (0,) * self.seats
            return Outcome(points=zeros, scores=zeros, lines=(T("niuniu.line.regroup"),))
        results = self.versus()
        caps = self.setup.stakes if len(self.setup.stakes) == self.seats else ()
        transfers = settle(self.seats, results, set(self.escaped), self._penalty, caps)
        points = net_points(self.seats, transfers)
        versus = {
            t.payer if t.payee == self.banker else t.payee: t.points
            for t in transfers
            if t.reason is not None and t.reason.key == "niuniu.reason.versus"
        }
        lines: list[Text] = []
        for v in results:
            lines.append(
                T(
                    "niuniu.line.versus",
                    player=v.player + 1,
                    hand=_kind_text(self.hand(v.player).kind),
                    banker_hand=_kind_text(self.hand(v.banker).kind),
                    result=T("niuniu.result." + ("player" if v.winner == v.player else "banker")),
                    amount=versus.get(v.player, 0),
                )
            )
        for seat in sorted(self.escaped):
            paid = sum(t.points for t in transfers if t.payer == seat)
            lines.append(T("niuniu.line.escape", seat=seat + 1, points=paid))
        lines.extend(self._carry_lines())
        return Outcome(
            points=points,
            scores=points,
            lines=tuple(lines),
            winners=tuple(s for s in range(self.seats) if points[s] > 0),
            transfers=tuple(transfers),
        )

    def _carry_lines(self) -> list[Text]:
        return []

    # --- views ------------------------------------------------------------------------------
    def view(self, seat: int | None) -> View:
        phase = self.phase()
        over = phase == DONE and not self.regrouped
        points = self.outcome().points if over else None
        seats = []
        for s in range(self.seats):
            role = None
            if self.banker is not None:
                role = T("niuniu.role.banker" if s == self.banker else "niuniu.role.player")
            cards = None
            if over:
                split = self.splits.get(s)
                cards = (
                    format_cards(self.cards[s])
                    if split is None
                    else (format_cards(split.three) + " " + format_cards(split.two))
                )
            elif s == seat and self.cards_visible(s):
                cards = format_cards(self.cards[s])
            seats.append(
                SeatView(role=role, count=None, cards=cards, status=self._status(s, seat, points))
            )
        lines: list[Text] = [self._rule_line()]
        if self.banker is not None:
            lines.append(T("niuniu.line.banker", seat=self.banker + 1))
        if seat is not None and 0 <= seat < self.seats and self.cards_visible(seat) and not over:
            best = best_split(self.cards[seat])
            kind = evaluate(self.cards[seat], best).kind
            if best is None:
                lines.append(T("niuniu.line.no_best", kind=_kind_text(kind)))
            else:
                lines.append(T("niuniu.line.best", split=best.body, kind=_kind_text(kind)))
        lines.extend(self._extra_lines(seat))
        own = None
        if seat is not None and 0 <= seat < self.seats and self.cards_visible(seat):
            own = format_cards(self.cards[seat])
        return View(phase=self._phase_text(), seats=tuple(seats), lines=tuple(lines), hand=own)

    def _phase_text(self) -> Text:
        return T("niuniu.phase." + self.phase())

    def _extra_lines(self, seat: int | None) -> list[Text]:
        return []

    def _status(self, s: int, viewer: int | None, points: tuple[int, ...] | None) -> Text | None:
        if points is not None:
            return T("niuniu.status.shown", kind=_kind_text(self.hand(s).kind), points=points[s])
        phase = self.phase()
        if phase == SPLIT:
            if s not in self.splits:
                return T("niuniu.status.waiting")
            if s == viewer:
                return T("niuniu.status.mine", kind=_kind_text(self.hand(s).kind))
            return T("niuniu.status.ready")
        if s in self.units:
            return T("niuniu.status.stake", stake=self.units[s])
        return None

    # --- buttons ---------------------------------------------------------------------------
    def choices(self, seat: int) -> list[Choice]:
        if seat not in self.to_act():
            return []
        phase = self.phase()
        if phase == GRAB:
            return [
                Choice("bank", T("niuniu.choice.bank"), "primary"),
                Choice("decline", T("niuniu.choice.decline")),
            ]
        if phase == BET:
            return [
                Choice(f"bet {s}", T("niuniu.choice.bet", stake=s)) for s in self._presets(seat)
            ]
        # The same two buttons for every seat: the host may show them on the public table
        # message, so neither the action nor the label may tell anything about the cards.
        return [
            Choice("best", T("niuniu.choice.best"), "success"),
            Choice("nobull", T("niuniu.choice.nobull"), "danger"),
        ]

    def picker(self, seat: int) -> Picker | None:
        if self.phase() != SPLIT or seat not in self.to_act():
            return None
        tokens = tuple(str(c) for c in self.cards[seat])
        return Picker(
            tokens=tokens, labels=tokens, min_values=3, max_values=3, template="split {}", sep=""
        )


class DouniuGame(BullGame):
    """斗牛 (001): banker random at first, kept until a 牛九 appears; §3.3 multipliers on
    the room's ``base``."""

    VARIANT = "douniu"

    @classmethod
    def check_options(cls, options: Mapping[str, Any]) -> None:
        """底分 ``base``: a whole number from 1 to ``MAX_AMOUNT``. Raises OptionError."""
        base = options.get("base", 1)
        if not _whole(base, 1, None):
            raise OptionError(
                "base",
                "must be a whole number ≥ 1",
                text=T("err.base.option_whole", option="base", min=1),
            )
        if base > MAX_AMOUNT:
            raise OptionError(
                "base",
                f"must be a whole number from 1 to {MAX_AMOUNT:,}",
                text=T("err.niuniu.option_range", option="base", min=1, max=f"{MAX_AMOUNT:,}"),
            )

    @property
    def base(self) -> int:
        """底分: each player's unit."""
        return int(self.options.get("base", 1))

    def _start(self, rng: random.Random) -> None:
        drawn = rng.randrange(self.seats)
        carried = self.setup.carry.get("banker")
        same_table = self.setup.carry.get("seats") == self.seats
        if (
            isinstance(carried, int)
            and not isinstance(carried, bool)
            and same_table
            and 0 <= carried < self.seats
        ):
            self.banker = carried
        else:
            self.banker = drawn
        self.units = {s: self.base for s in self.players}

    def _penalty(self, seat: int) -> int:
        # Seeds silent: the most that seat could lose this hand (GAMES.md §1.5 resolution).
        return 5 * sum(self.units.values()) if seat == self.banker else 5 * self.units[seat]

    def _rule_line(self) -> Text:
        return T("niuniu.line.rule_douniu", base=self.base)

    def next_banker(self) -> int | None:
        """下盘庄家: the biggest 牛九 (escapers skipped), else the banker stays, else random."""
        if not self.is_over() or self.banker is None:
            return None
        nines = [
            s
            for s in range(self.seats)
            if self.hand(s).kind == Kind.BULL_9 and s not in self.escaped
        ]
        if nines:
            return max(nines, key=lambda s: self.hand(s).key)
        return None if self.banker in self.escaped else self.banker

    def next_carry(self) -> dict[str, Any]:
        nxt = self.next_banker()
        return {} if nxt is None else {"banker": nxt, "seats": self.seats}

    def _carry_lines(self) -> list[Text]:
        nxt = self.next_banker()
        if nxt is None:
            return [T("niuniu.line.next_random")]
        if self.hand(nxt).kind == Kind.BULL_9 and nxt not in self.escaped:
            return [T("niuniu.line.next_nine", seat=nxt + 1)]
        return [T("niuniu.line.next_stays", seat=nxt + 1)]


class HappyDouniuGame(BullGame):
    """欢乐斗牛 (001): a random banker every hand; 5/10/15/20/25 points; escape 闲 25, 庄 100."""

    VARIANT = "douniu_happy"
    UNIT: ClassVar[int] = 5
    ESCAPE_PLAYER: ClassVar[int] = 25
    ESCAPE_BANKER: ClassVar[int] = 100

    def _start(self, rng: random.Random) -> None:
        self.banker = rng.randrange(self.seats)
        self.units = {s: self.UNIT for s in self.players}

    def _penalty(self, seat: int) -> int:
        return self.ESCAPE_BANKER if seat == self.banker else self.ESCAPE_PLAYER

    def _rule_line(self) -> Text:
        return T("niuniu.line.rule_happy")


class NiuniuGame(BullGame):
    """牛牛 (002): 抢庄 — 下注 — 拼牛 — 开牌; stake × multiplier.

    The system offers the bank to a random seat; a decline passes the offer to the next
    seat; if every seat declines the table regroups (the hand ends, no points). Cards are
    shown in the split phase, after the stakes (the seed's phase order).
    """

    VARIANT = "niuniu"
    PHASES = (GRAB, BET, SPLIT)

    @classmethod
    def check_options(cls, options: Mapping[str, Any]) -> None:
        """下注 ``stakes``: 1 to 20 whole numbers from 1 to ``MAX_AMOUNT``. Raises OptionError."""
        stakes = options.get("stakes", [1, 2, 5, 10])
        if (
            not isinstance(stakes, list)
            or not 1 <= len(stakes) <= 20
            or not all(_whole(s, 1, MAX_AMOUNT) for s in stakes)
        ):
            raise OptionError(
                "stakes",
                f"must be a list of 1 to 20 whole numbers from 1 to {MAX_AMOUNT:,}",
                text=T("err.niuniu.option_stakes", max=f"{MAX_AMOUNT:,}"),
            )

    @property
    def presets(self) -> list[int]:
        """The stakes on offer (option ``stakes``), smallest first."""
        return sorted(set(self.options.get("stakes", [1, 2, 5, 10])))

    def _start(self, rng: random.Random) -> None:
        first = rng.randrange(self.seats)
        self.offers = [(first + k) % self.seats for k in range(self.seats)]
        self.declined: list[int] = []

    @property
    def offered(self) -> int | None:
        """The seat being offered the bank now, or None."""
        if self.banker is not None or self.regrouped:
            return None
        return self.offers[len(self.declined)]

    def turn_seats(self) -> tuple[int, ...]:
        offered = self.offered
        return (offered,) if offered is not None else super().turn_seats()

    def cards_visible(self, seat: int) -> bool:
        return self.phase() in (SPLIT, DONE) and not self.regrouped

    def _presets(self, seat: int) -> list[int]:
        # A stake is on offer if the seat can cover its worst case (×5); the smallest always.
        carried = self.setup.stakes[seat] if seat < len(self.setup.stakes) else None
        if carried is None:
            return list(self.presets)
        return [s for i, s in enumerate(self.presets) if i == 0 or 5 * s <= carried]

    def _grab(self, seat: int, take: bool) -> str:
        if take:
            self.banker = seat
            return "bank"
        self.declined.append(seat)
        if len(self.declined) == self.seats:
            self.regrouped = True
        return "decline"

    def _trustee_grab(self, seat: int) -> str:
        # Take the bank only as the last seat offered, so an all-trustee table still plays.
        last = len(self.declined) == self.seats - 1
        return "bank" if last and seat not in self.escaped else "decline"

    def _penalty(self, seat: int) -> int:
        return 5 * sum(self.units.values()) if seat == self.banker else 5 * self.units[seat]

    def _rule_line(self) -> Text:
        return T("niuniu.line.rule_niuniu")

    def _phase_text(self) -> Text:
        offered = self.offered
        if offered is not None:
            return T("niuniu.phase.grab", seat=offered + 1)
        return super()._phase_text()

    def _extra_lines(self, seat: int | None) -> list[Text]:
        return [T("niuniu.line.presets", stakes=" / ".join(map(str, self.presets)))]

    def _status(self, s: int, viewer: int | None, points: tuple[int, ...] | None) -> Text | None:
        if self.banker is None:
            if s in self.declined:
                return T("niuniu.status.declined")
            if s == self.offered:
                return T("niuniu.status.offered")
            return None
        inner = super()._status(s, viewer, points)
        if inner is not None and s in self.units and self.phase() != BET:
            return T("niuniu.status.with_stake", stake=self.units[s], status=inner)
        return inner

    def next_carry(self) -> dict[str, Any]:
        return {"regroup": True} if self.regrouped else {}


def max_loss_douniu(options: Mapping[str, Any], seats: int) -> int:
    """The banker's worst case: every player wins with 五花牛 (×5 the base)."""
    return 5 * int(options.get("base", 1)) * max(seats - 1, 1)


def max_loss_happy(options: Mapping[str, Any], seats: int) -> int:
    """The banker's worst case: 25 to each player, or the 100-point escape."""
    return max(HappyDouniuGame.ESCAPE_BANKER, 25 * max(seats - 1, 1))


def max_loss_niuniu(options: Mapping[str, Any], seats: int) -> int:
    """The banker's worst case: every player on the top stake wins with 五花牛 (×5)."""
    stakes = options.get("stakes") or [1]
    return 5 * max(int(s) for s in stakes) * max(seats - 1, 1)
