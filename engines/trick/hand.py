"""一副牌: what a trick game's hand (升级, 打滚子) keeps and does the same way, written once —
the claim windows of the deal and the kitty (亮主, 反主, 亮大王, 扣王), the packets, reading and
checking a play's cards, closing a trick, each seat's line on the table, the result.

A game's state class builds on ``TrickHand`` and says what differs: its own error texts
(``NO_CARDS``, ``NOT_HELD``), the phases whose claims are private (``PRIVATE_PHASES``), who
may claim now (``_eligible``) and how an action is read (``_act``).
"""

from __future__ import annotations

from abc import abstractmethod
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar

from engines.base import Game, Outcome, RoundLog, SeatView, T, Text, View, Window
from engines.errors import IllegalActionError, NotationError
from engines.trick.cards import NCARDS, Context, counts_of, format_ids, ids_of, parse_ids, points

DONE = "done"


def team(seat: int) -> int:
    """Seats 0 and 2 are team 0, seats 1 and 3 team 1 (对家 are partners)."""
    return seat % 2


def split_action(text: str, aliases: Mapping[str, str]) -> tuple[str, str]:
    """An action's verb (lower case, Chinese ``aliases`` read as the verb they name) and the
    rest of it.

    >>> split_action("亮 2h 2h", {"亮": "declare"})
    ('declare', '2h 2h')
    >>> split_action("  ", {})
    ('', '')
    """
    words = text.strip().split(None, 1)
    verb = words[0].lower() if words else ""
    return aliases.get(verb, verb), words[1] if len(words) > 1 else ""


def low_cards(cards: Sequence[int], pool: Sequence[int], ctx: Context, k: int,
              keep: Callable[[int], bool]) -> list[int]:
    """扣底's usual choice of ``k`` cards of ``cards``: whole short side suits first where none
    of their cards is to ``keep`` (a void to ruff with), then the least of ``pool``: side cards
    before trumps, no points before points, what need not be kept first, low before high."""
    chosen: list[int] = []
    suits = sorted({ctx.eff[c] for c in cards if not ctx.is_trump(c)},
                   key=lambda s: sum(1 for c in cards if ctx.eff[c] == s))
    for suit in suits:
        held = [c for c in cards if ctx.eff[c] == suit]
        if len(chosen) + len(held) <= k and not any(keep(c) for c in held):
            chosen += held
    rest = Counter(pool) - Counter(chosen)
    fill = sorted(rest.elements(), key=lambda c: (ctx.is_trump(c), points(c) > 0, keep(c),
                                                   ctx.order[c]))
    return chosen + fill[: k - len(chosen)]


class TrickHand(Game):
    """The hand's state both trick games keep alike, and the steps they take alike."""

    NO_CARDS: ClassVar[str]
    """The game's text key of a play that names no cards (``{typed}``)."""
    NOT_HELD: ClassVar[str]
    """The game's text key of a play of cards the seat does not hold (``{cards}``)."""

    PRIVATE_PHASES: ClassVar[frozenset[str]] = frozenset()
    """Phases whose claims are answered privately: who may claim would tell what they hold."""

    _phase: str
    hands: list[list[int]]
    packet: int
    passed: set[int]
    ctx: Context
    dealer: int | None
    turn: int
    trick: list[tuple[int, list[int]]]
    last_trick: list[tuple[int, list[int]]]
    last_winner: int | None
    rounds: RoundLog
    tricks: int
    xian_points: int
    _outcome: Outcome | None
    _carry: dict[str, Any]
    _claims: Window | None = None
    """The open claim window, worked out once per state change (``decision``)."""

    # --- who acts ---------------------------------------------------------------------------
    def phase(self) -> str:
        return self._phase

    def is_over(self) -> bool:
        return self._phase == DONE

    def decision(self) -> Window | None:
        """The claims of a private phase (亮主, 反主, 反底, 亮大王, 扣王): who may claim would
        tell what they hold. Worked out once per state change: the host asks it many times
        per action (``to_act``, ``public_to_act``, ``window``), and who may declare means
        reading every hand."""
        if self._phase not in self.PRIVATE_PHASES:
            return None
        claims = self._claims
        if claims is None:
            claims = self._claims = Window.claims(self._eligible(), self.window_key)
        return claims

    @abstractmethod
    def _eligible(self) -> tuple[int, ...]:
        """The seats that may still claim in the open private phase."""

    def _apply(self, seat: int, text: str) -> str:
        try:
            return self._act(seat, text)
        finally:
            self._claims = None  # the state may have changed: who may claim is asked again

    @abstractmethod
    def _act(self, seat: int, text: str) -> str:
        """Read and perform ``text`` for ``seat`` (``Game._apply``)."""

    def _open_claims(self) -> bool:
        """A claim window opens in the current phase, nobody has passed yet; whether anyone
        may claim in it."""
        self.passed = set()
        self._open_window()
        self._claims = None
        return bool(self._eligible())

    def _deal_packets(self, per: int, packets: int, dealt: Sequence[Sequence[int]]) -> bool:
        """Deal the next packets of ``dealt`` (``per`` cards a seat in ``packets`` packets)
        until some seat may declare: True then (its window is open), False once all are
        dealt and nobody may."""
        while self.packet < packets:
            start = per * self.packet // packets
            self.packet += 1
            stop = per * self.packet // packets
            for s in range(4):
                for cid in dealt[s][start:stop]:
                    self.hands[s][cid] += 1
            if self._open_claims():
                return True
        return False

    # --- reading a play -----------------------------------------------------------------------
    def _parse(self, text: str) -> list[int]:
        ids = parse_ids(text)
        if not ids:
            raise NotationError(text, "no cards", text=T(self.NO_CARDS, typed=text))
        return ids

    def _check_held(self, seat: int, ids: Sequence[int], text: str) -> None:
        need = counts_of(ids)
        missing = [c for c in range(NCARDS) if need[c] > self.hands[seat][c]]
        if missing:
            cards = format_ids(missing, self.ctx)
            raise IllegalActionError(f"you do not hold {cards}", seat=seat, action=text,
                                     text=T(self.NOT_HELD, cards=cards))

    def _take_trick(self, winner: int) -> bool:
        """The trick is ``winner``'s: the 闲 count its points, it becomes the last trick and
        ``winner`` leads the next; whether that was the hand's last trick."""
        assert self.dealer is not None
        if team(winner) != team(self.dealer):
            self.xian_points += sum(points(c) for _, play in self.trick for c in play)
        self.last_trick, self.last_winner = self.trick, winner
        self.rounds.close(winner)
        self.trick = []
        self.tricks += 1
        self.turn = winner
        return not any(self.hands[winner])

    # --- what the table sees ------------------------------------------------------------------
    def _seat_views(self, seat: int | None, roles: bool, declared: tuple[int, Text] | None,
                    role_keys: tuple[str, str]) -> tuple[SeatView, ...]:
        """Each seat's line: 庄 or 闲 once ``roles`` are known (``role_keys``), its card count,
        its play in this trick (else the ``declared`` seat's declaration), and its cards to
        itself alone."""
        current = dict(self.trick)
        seats = []
        for s in range(4):
            role = None
            if roles and self.dealer is not None:
                role = T(role_keys[0] if team(s) == team(self.dealer) else role_keys[1])
            status = None
            if s in current:
                status = T("shengji.status.played", cards=format_ids(current[s], self.ctx))
            elif declared is not None and declared[0] == s:
                status = declared[1]
            seats.append(SeatView(role=role, count=sum(self.hands[s]), status=status,
                                  cards=(format_ids(ids_of(self.hands[s]), self.ctx)
                                         if seat == s else None)))
        return tuple(seats)

    @staticmethod
    def _declared_line(seat: int, cards: str) -> Text:
        """The table's record of the declaration standing (亮主, 反主): who declared it and its
        ``cards``, in base's form of what a closed window took (``Window.took``)."""
        return Window.took(seat, T("shengji.status.declared", cards=cards))

    def _table_view(self, seat: int | None, seats: tuple[SeatView, ...], lines: list[Text],
                    phase: Text) -> View:
        """``seat``'s view (None: the table's) of the seats and ``lines`` a game shows, with
        the result's lines once the hand is over, the viewer's own cards, the trick so far and
        the last one (``View.round``, ``View.last_round``); ``phase`` as base shows it while a
        window is open (``Game.window_phase``)."""
        if self._phase == DONE:
            lines = [*lines, *self.outcome().lines]
        hand = format_ids(ids_of(self.hands[seat]), self.ctx) if seat is not None else None
        return View(phase=self.window_phase(phase), seats=seats, lines=tuple(lines), hand=hand,
                    round=self.rounds.current(), last_round=self.rounds.last)

    # --- the result ---------------------------------------------------------------------------
    def outcome(self) -> Outcome:
        if self._outcome is None:
            raise IllegalActionError("the game is not over", text=T("err.base.not_over"))
        return self._outcome

    def next_carry(self) -> dict[str, Any]:
        return dict(self._carry)
