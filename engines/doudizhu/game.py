"""一局斗地主: a hand from the deal to the settlement, as a pure state machine.

Seats are numbered in turn order: play passes counter-clockwise (逆时针), which is seat
``s`` → ``s + 1``. The phases (``phase()``, also the timer keys) are:

- ``bid``: 叫分 (classic) or 叫地主 (happy);
- ``grab``: 抢地主 (happy);
- ``double``: 加倍/不加倍;
- ``play``: 出牌.

Canonical actions (what ``apply`` returns and the log holds): ``bid 1``, ``bid 2``,
``bid 3``, ``nobid``, ``call``, ``nocall``, ``grab``, ``nograb``, ``double``, ``nodouble``,
``pass`` and plays in card notation (``33344``). Typed aliases are listed in ``WORDS``;
``pass``/``不出`` also declines whatever the phase offers.

明牌 (the happy rules) is an offer (``Game.open_offers``), never a step the hand waits for:
``show 3`` while the landlord is chosen (the whole deal seen, 003 四.3), ``show 2`` for the
landlord from the kitty to its first play (003 四.4); ``show``/``明牌`` takes the one open.
明牌开始 ×5 (003 四.2) is chosen before the deal, at the Start button (``Game.start_offers``):
it comes in ``Setup.starts`` and is taken as the hand is dealt, never in the log.

>>> from engines.base import Setup
>>> g = ClassicGame(Setup(seats=3, seed=7))
>>> g.phase(), g.to_act()
('bid', (1,))
>>> g.apply(1, "叫3分")
'bid 3'
>>> g.phase(), g.to_act(), g.landlord
('play', (1,), 1)
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Mapping
from operator import itemgetter
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
    Transfer,
    View,
    Window,
)
from engines.doudizhu import ai, four, wild
from engines.doudizhu.auction import (
    NO,
    SHOW_FACTOR,
    YES,
    Auction,
    BlindAuction,
    CallAuction,
    make_auction,
)
from engines.doudizhu.counter import counter_shown, counter_text
from engines.doudizhu.moves import can_beat, follow_plays, lead_plays
from engines.doudizhu.notation import (
    BIG_JOKER,
    NRANKS,
    PASS_WORDS,
    RANKS,
    SMALL_JOKER,
    deal_suited,
    format_cards,
    label,
    parse_cards,
)
from engines.doudizhu.patterns import Pattern, Play, ambiguous, beats, playbook
from engines.doudizhu.rules import (
    Rules,
    classic_rules,
    four_rules,
    happy_rules,
    hot_rules,
    mala_rules,
    two_player_rules,
)
from engines.doudizhu.scoring import escape_penalty, settle, settle_escapes
from engines.doudizhu.suits import Suits, Texts, with_shown
from engines.doudizhu.texts import NOTATION_ERRORS
from engines.errors import IllegalActionError, OptionError

DECLINE = "decline"
START_SHOW = f"show {SHOW_FACTOR['start']}"
"""明牌开始's start choice (``Game.start_offers``): show the hand before the deal, ×5."""

# Typed spellings → (kind, value). "decline" means the no-option of the current phase.
WORDS: dict[str, tuple[str, int]] = {}


def _words(kind: str, value: int, *spellings: str) -> None:
    for s in spellings:
        WORDS[s] = (kind, value)


for _n, _zh in ((1, "一"), (2, "二"), (3, "三")):
    _words("bid", _n, f"bid {_n}", f"bid{_n}", str(_n), f"{_n}分", f"叫{_n}分", f"{_zh}分")
_words(DECLINE, 0, "bid 0", "bid0", "nobid", "no bid", "0", "不叫", "nocall", "no call")
_words(DECLINE, 0, "nograb", "no grab", "不抢", "不抢地主")
_words(DECLINE, 0, "nodouble", "no double", "不加倍")
for _p in PASS_WORDS:
    _words(DECLINE, 0, _p)
_words("call", 0, "call", "叫地主", "叫")
_words("grab", 0, "grab", "抢地主", "抢")
_words("double", 0, "double", "加倍")
_words("blind", 0, "blind", "闷抓")

_SUIT_TAGS = "shcd"
_RANK = itemgetter(0)  # of a dealt (rank, card) pair
_LAST_PLAY_LINES = frozenset({"ddz.line.can_beat", "ddz.line.cannot_beat"})
_PEEK_PAIRS = ("12", "13", "23")
_STATUS_WORDS = frozenset(NO.values()) | frozenset(YES.values()) | {"pass"}
# First words of the phase actions: typed in the play phase they are not cards.
_ACTION_HEADS = frozenset(w.split()[0] for w in WORDS if not w[0].isdigit()) | {
    "bid",
    "叫",
    "抢",
    "明牌",
    "show",
    "加倍",
}


class DoudizhuGame(Game):
    """斗地主: one hand under a ``Rules`` set; subclasses pick the rules from the options."""

    fast_reading = True
    """Canonical play texts are looked up in the classic PlayBook (one deck, classic patterns)."""

    notation_errors = NOTATION_ERRORS

    def __init__(self, setup: Setup) -> None:
        super().__init__(setup)
        self.rules = self.make_rules(setup.options)
        n = self.rules.seats
        if setup.seats != n:
            raise OptionError(
                "seats",
                f"this 斗地主 is for {n} players",
                text=T("err.ddz.seats", n=n, seats=setup.seats),
            )
        self.book = playbook(self.rules.patterns)
        self.n = n
        self._rng = random.Random(setup.seed)
        first = setup.carry.get("first")
        if not isinstance(first, int) or isinstance(first, bool) or not 0 <= first < n:
            first = self._rng.randrange(n)
        stakes = tuple(setup.stakes) + (None,) * (n - len(setup.stakes))
        self.stakes: tuple[int | None, ...] = stakes[:n]
        self.deal_no = 0
        self.escape_before_bid: dict[int, bool] = {}
        self.escape_penalties: dict[int, int] = {}
        self.void = False
        self._start_deal(first)
        self._show_at_start(setup.starts)

    @classmethod
    def make_rules(cls, options: Mapping[str, Any]) -> Rules:
        return classic_rules(options)

    # --- dealing and phase changes ------------------------------------------------------
    def _start_deal(self, first: int) -> None:
        """发牌: shuffle from the seeded generator; a redeal continues the same stream. The
        physical cards are kept in ``suits`` (their suits, for pictures)."""
        r = self.rules
        n = self.n
        hands, bottom = deal_suited(self._rng, r.decks, n, r.hand_size, r.removed, r.kitty)
        self.suits = Suits(hands, bottom)
        dealt = [list(map(_RANK, h)) for h in hands]
        kitty_cards = list(map(_RANK, bottom))
        self.dealt: list[list[int]] = dealt
        self.hands: list[list[int]] = []
        for cards in dealt:
            counts = [0] * NRANKS
            for c in cards:
                counts[c] += 1
            self.hands.append(counts)
        kitty = [0] * NRANKS
        for c in kitty_cards:
            kitty[c] += 1
        self.kitty: tuple[int, ...] = tuple(kitty)
        self.kitty_cards = tuple(kitty_cards)
        self.peeks: list[list[str]] = [[] for _ in range(n)]  # 黄金眼: kitty places seen
        self.status: list[str | None] = [None] * n  # last canonical action per seat
        self.auction: Auction = make_auction(r, n, first)
        self.doubled: list[bool | None] = [None] * n
        self.landlord: int | None = None
        self.kitty_taken = False
        self.pending: list[int] = []
        self.turn = first
        self.last: Play | None = None
        self.last_seat: int | None = None
        self.rounds = RoundLog()  # 本轮: the plays and passes since the last lead
        self.round_plays: dict[int, Play] = {}  # each seat's last play in it (for its suits)
        self.played_hands = [0] * n
        self.bombs = 0
        self.bomb_factors: list[int] = []
        self.out: list[int] = [0] * NRANKS
        self.winner: int | None = None
        self.over = False
        self._phase = "auction"

    # The auction's figures, read by the views, the scoring and the trustee.
    @property
    def high(self) -> int:
        """The highest 叫分 bid so far (0: none; always 0 under 叫/抢地主)."""
        return self.auction.high

    @property
    def grabs(self) -> int:
        """抢地主 count (each ×2)."""
        return self.auction.grabs

    @property
    def shown(self) -> list[int]:
        """Each seat's 明牌 factor (0: not shown)."""
        return self.auction.shown

    @property
    def rotation_first(self) -> int:
        """The seat the deal's selection started from (rotates from hand to hand)."""
        return self.auction.rotation_first

    @property
    def first(self) -> int:
        """The first bidder or caller (under 明牌, the first seat that showed)."""
        return self.auction.first

    def _order(self, start: int) -> list[int]:
        return [(start + i) % self.n for i in range(self.n)]

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

    # --- the Game interface ---------------------------------------------------------------
    def decision(self) -> Window | None:
        """加倍 is optional, in a timed window (003/004: 在限制时间内…直到限制时间到), public, each
        answer its own deadline: a seat that lets it pass has not doubled, and that is no miss
        (nobody's stake grows unasked)."""
        if self.over or self._phase != "double" or not self.pending:
            return None
        return Window(tuple(self.pending), timeout="nodouble", miss=False)

    def turn_seats(self) -> tuple[int, ...]:
        if self.over:
            return ()
        if self._phase == "auction":
            return self.auction.to_act()
        return (self.turn,)

    def phase(self) -> str:
        return self.auction.phase if self._phase == "auction" else self._phase

    def is_over(self) -> bool:
        return self.over

    def _acting(self, seat: int) -> bool:
        return seat in self.to_act()

    def legal_actions(self, seat: int) -> list[str]:
        if not self._acting(seat):
            return []
        p = self._phase
        if p == "play":
            acts = self.plays(seat)
            if self.last is not None:
                acts.append("pass")
            return acts
        if p == "auction":
            return self._peek_actions(seat) + self.auction.legal(seat)
        return [YES[p], NO[p]]

    def forced_action(self, seat: int) -> str | None:
        """要不起: ``pass`` when the seat follows and nothing it holds beats the table (found
        without listing the plays); outside the play phase the few actions are listed."""
        if self._phase != "play":
            return super().forced_action(seat)
        if self.last is None or not self._acting(seat):
            return None
        return None if self._can_follow(seat) else "pass"

    def _can_follow(self, seat: int) -> bool:
        """Whether ``plays(seat)`` (following) has any play. A variant with plays of its own
        (四人's, 癞子's) answers from them."""
        if type(self).plays is not DoudizhuGame.plays:
            return bool(self.plays(seat))
        assert self.last is not None
        return can_beat(tuple(self.hands[seat]), self.last, self.rules.patterns)

    def plays(self, seat: int) -> list[str]:
        """The seat's plays now: every lead, or every play beating the table (no pass)."""
        hand = tuple(self.hands[seat])
        if self.last is None:
            return lead_plays(hand, self.rules.patterns)
        return follow_plays(hand, self.last, self.rules.patterns)

    def read_play(self, seat: int, text: str) -> Play | None:
        """The play typed in the play phase (None: pass); IllegalActionError or
        NotationError when it is no play."""
        known = self.book.known(text)
        if known is not None:
            return known
        options = self.book.options(text)
        if len(options) > 1:
            # One set of cards, two readings (三顺 or 飞机带翅膀): leading, the player
            # names one; following, the one that answers the table is meant.
            if self.last is None:
                raise ambiguous(options)
            fitting = [p for p in options if beats(p, self.last)]
            same = [p for p in options if p.pattern is self.last.pattern]
            options = tuple(fitting or same or options)
        return options[0] if options else None

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

    def _peek(self, seat: int, text: str, low: str) -> str:
        words = low.replace("黄金眼", "peek").split()
        action = "peek " + "".join(sorted("".join(words[1:])))
        if action not in self._peek_actions(seat):
            now = self._phase_actions(seat)
            raise IllegalActionError(
                f"not an action of this phase; now: {now}",
                seat=seat,
                action=text,
                text=T("err.ddz.peek", actions=now),
            )
        self.peeks[seat].append(action[5:])
        return action

    def peeked(self, seat: int) -> str:
        """The kitty cards ``seat`` has seen with 黄金眼, by place ("1:3 2:K"), or ""."""
        places = sorted({int(c) for pair in self.peeks[seat] for c in pair})
        return " ".join(f"{p}:{format_cards(_one(self.kitty_cards[p - 1]))}" for p in places)

    def _kind(self) -> str:
        """The action kind of the current phase (bid/call/grab/show/double/play)."""
        if self._phase == "auction":
            return self.auction.kind()
        return self._phase

    def _apply(self, seat: int, text: str) -> str:
        if self._phase == "play" and self.fast_reading:
            known = self.book.known(text)  # a canonical play text: no parsing at all
            if known is not None:
                return self._play(seat, known)
        kind = self._kind()
        low = " ".join(text.strip().lower().split())
        if kind == "play":
            if low in PASS_WORDS:
                return self._pass(seat)
            if (low in WORDS and not low.isdigit()) or low.split(" ")[0] in _ACTION_HEADS:
                raise IllegalActionError(
                    "it is the play phase: play cards (e.g. 33344) or pass (不出)",
                    seat=seat,
                    action=text,
                    text=T("err.ddz.play_phase"),
                )
            return self._play(seat, self.read_play(seat, text))
        if low.startswith(("peek", "黄金眼")):
            return self._peek(seat, text, low)
        word = WORDS.get(low)
        if word is None:
            now = self._phase_actions(seat)
            try:
                parse_cards(text, self.rules.decks)
            except ValueError:
                # Neither this phase's action nor cards: say what the phase takes.
                raise IllegalActionError(
                    f"not an action of this phase; now: {now}",
                    seat=seat,
                    action=text,
                    text=T(
                        "err.ddz.phase_takes",
                        phase=T(f"ddz.phase.{self._phase_label()}"),
                        actions=now,
                    ),
                ) from None
            raise IllegalActionError(
                f"cards are played later; now: {now}",
                seat=seat,
                action=text,
                text=T("err.ddz.cards_later", actions=now),
            )
        what, value = word
        if what != DECLINE and what != kind:
            now = self._phase_actions(seat)
            raise IllegalActionError(
                f"not in this phase; now: {now}",
                seat=seat,
                action=text,
                text=T("err.ddz.wrong_phase", actions=now),
            )
        yes = what != DECLINE
        if kind == "double":
            return self._double(seat, yes)
        return self._auction_act(seat, kind, (value or 1) if yes else 0)

    def _phase_actions(self, seat: int) -> str:
        """The actions the seat may type now, as one line ("bid 1, bid 2, ...")."""
        return ", ".join(self.legal_actions(seat))

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

    def _pass(self, seat: int) -> str:
        if self.last is None:
            raise IllegalActionError(
                "you lead this round: play any pattern (首出不能不出)",
                seat=seat,
                action="pass",
                text=T("err.ddz.must_lead"),
            )
        self.status[seat] = "pass"
        self.rounds.pass_(seat)
        nxt = (seat + 1) % self.n
        if nxt == self.last_seat:
            self.last = None  # everyone passed: the player who played last leads
            self.rounds.close(nxt)
            self.round_plays = {}
        self.turn = nxt
        return "pass"

    def _play(self, seat: int, play: Play | None) -> str:
        if play is None:
            return self._pass(seat)
        hand = self.hands[seat]
        for r, c in play.parts:
            if c > hand[r]:
                raise IllegalActionError(
                    "you do not hold these cards",
                    seat=seat,
                    action=play.text,
                    text=T("err.ddz.not_held", cards=play.text),
                )
        last = self.last
        if last is not None and not self.beats(play, last):
            raise IllegalActionError(
                f"does not beat {last.text} ({last.pattern.value}): play the same pattern "
                "with the same number of cards and higher, a bomb, or pass",
                seat=seat,
                action=play.text,
                text=T(
                    "err.ddz.not_beat",
                    cards=play.text,
                    last=last.text,
                    pattern=T("ddz.pattern." + last.pattern.name.lower()),
                ),
            )
        out = self.out
        for r, c in play.parts:
            hand[r] -= c
            out[r] += c
        self.played_hands[seat] += 1
        if play.is_bomb:
            self.bombs += 1
            self.bomb_factors.append(self.bomb_factor(play))
        self.last = play
        self.last_seat = seat
        self.rounds.play(seat, play.text)
        self.round_plays[seat] = play
        self.status[seat] = play.text
        if not any(hand):
            self.winner = seat
            self.over = True
            self._phase = "over"
        else:
            self.turn = (seat + 1) % self.n
        return play.text

    def _on_escape(self, seat: int) -> None:
        # "还没人叫牌时逃跑" (000 §8): nobody has bid/called in the current deal yet.
        before = self.auction.before_bid()
        self.escape_before_bid[seat] = before
        if self.rules.escape_penalty:
            self.escape_penalties[seat] = self.escape_penalty(seat, before)

    def escape_cost(self, seat: int) -> int | None:
        """The escape penalty if ``seat`` escaped now (``escape_penalty``), 0 once escaped."""
        if seat in self.escaped or self.is_over():
            return 0
        return self.escape_penalty(seat, self.auction.before_bid())

    def escape_penalty(self, seat: int, before: bool) -> int:
        """逃跑扣分 (000/001): 底分 × 倍数 × 3 at the moment of escape (not as the trustee later
        ends it), or the flat 3 points before anyone bid."""
        return escape_penalty(
            self.base_score(),
            self.multiplier(),
            self.rules.escape_factor,
            self.rules.escape_early,
            before,
        )

    # --- scoring -------------------------------------------------------------------------
    def base_score(self) -> int:
        """底分: classic = room base × the bid (002); happy = the room's 底分 (004)."""
        return self.rules.base * self.auction.base_factor()

    def pair_doubles(self) -> list[int]:
        """Per seat, the factor it brings to its landlord–farmer pairs (×2 if it doubled)."""
        return [2 if d else 1 for d in self.doubled]

    def beats(self, play: Play, previous: Play) -> bool:
        """管得上 under this variant's ranking (classic: ``patterns.beats``)."""
        return beats(play, previous)

    def bomb_factor(self, play: Play) -> int:
        """倍数 factor of one bomb or rocket played: ×2 (000 §8)."""
        return 2

    def bomb_multiplier(self) -> int:
        """The product of the factors of the bombs played so far."""
        m = 1
        for f in self.bomb_factors:
            m *= f
        return m

    def spring(self) -> str | None:
        """ "spring" (春天), "anti" (反春) or None, once the hand is over (000 §8)."""
        if self.winner is None or self.landlord is None:
            return None
        if self.winner == self.landlord:
            farmers = [s for s in range(self.n) if s != self.landlord]
            if all(self.played_hands[f] == 0 for f in farmers):
                return "spring"
        elif self.played_hands[self.landlord] == 1:
            return "anti"
        return None

    def multiplier(self) -> int:
        """倍数: initial × 2 per grab × the largest 明牌 × 2 per bomb/rocket × spring."""
        m: int = (self.rules.multiplier << self.grabs) * self.bomb_multiplier()
        m *= max(self.shown) or 1
        if self.spring():
            m *= self.rules.spring
        return m

    def outcome(self) -> Outcome:
        if not self.over:
            raise IllegalActionError("the hand is not over yet", text=T("err.base.not_over"))
        base = self.base_score()
        mult = self.multiplier()
        escapes = dict(self.escape_penalties)
        doubles = self.pair_doubles()
        landlord_won = self.winner is not None and self.winner == self.landlord
        landlord = None if self.void else self.landlord
        transfers: tuple[Transfer, ...] = ()
        if escapes or (self.rules.pairwise and landlord is not None):
            transfers = tuple(
                Transfer(payer, payee, amount, T(reason, seat=payer + 1))
                for payer, payee, amount, reason in settle_escapes(
                    self.n, landlord, landlord_won, base * mult, doubles, escapes
                )
            )
            points = [0] * self.n
            for t in transfers:
                points[t.payer] -= t.points
                points[t.payee] += t.points
        else:
            points = settle(self.n, landlord, landlord_won, base * mult, doubles)
        lines: list[Text] = []
        winners: tuple[int, ...] = ()
        if self.void:
            lines.append(T("ddz.out.void", deals=self.deal_no))
        else:
            assert self.landlord is not None
            if landlord_won:
                lines.append(T("ddz.out.landlord_wins", seat=self.landlord + 1))
                winners = (self.landlord,)
            else:
                lines.append(T("ddz.out.farmers_win"))
                winners = tuple(s for s in range(self.n) if s != self.landlord)
            lines.append(T("ddz.out.base", base=base))
            if self.grabs:
                lines.append(T("ddz.out.grabs", n=self.grabs, x=2**self.grabs))
            if max(self.shown):
                lines.append(T("ddz.out.show", x=max(self.shown)))
            if self.bombs:
                lines.append(T("ddz.out.bombs", n=self.bombs, x=self.bomb_multiplier()))
            sp = self.spring()
            if sp:
                lines.append(T(f"ddz.out.{sp}", x=self.rules.spring))
            lines.append(T("ddz.out.multiplier", x=mult))
            for s in range(self.n):
                if self.doubled[s]:
                    lines.append(T("ddz.out.doubled", seat=s + 1))
        for s in sorted(self.escaped):
            if s in escapes:
                lines.append(T("ddz.out.escape", seat=s + 1, penalty=escapes[s]))
            else:  # 002: 托管 to the end, no penalty; the seat settled as the hand ended
                lines.append(T("ddz.out.escape_trustee", seat=s + 1))
        return Outcome(
            points=tuple(points),
            scores=tuple(points),
            lines=tuple(lines),
            winners=winners,
            transfers=transfers,
        )

    def next_carry(self) -> dict[str, Any]:
        """The first bidder rotates in turn order from hand to hand (000 §3)."""
        return {"first": (self.rotation_first + 1) % self.n}

    # --- views -----------------------------------------------------------------------------
    def visible_hand(self, seat: int) -> tuple[int, ...]:
        """The cards ``seat`` holds (the whole deal is seen at once)."""
        return tuple(self.hands[seat])

    def view(self, seat: int | None) -> View:
        """``plain_view`` with its suited twin for pictures (``View.shown``; which card of a
        rank leaves a hand: ``engines.doudizhu.suits``)."""
        return with_shown(self.plain_view(seat), seat, self._suited_hand, self._suited_line,
                          self._suited_play)

    def _suited_hand(self, seat: int) -> Texts | None:
        return self.suits.hand(seat, self.visible_hand(seat))

    def _suited_play(self, seat: int) -> Texts | None:
        """``seat``'s last play of the round (``View.round``) as (rank-only, suited) notation."""
        return self.suits.play_texts(seat, self.hands[seat], self.round_plays.get(seat))

    def _suited_line(self, key: str) -> Texts | None:
        """The cards a line shows as (rank-only, suited) notation: the kitty, the last play
        named by the line of what the seat to act may answer."""
        if key == "ddz.line.kitty":
            return self.suits.kitty_texts()
        if key in _LAST_PLAY_LINES and self.last is not None and self.last_seat is not None:
            seat = self.last_seat
            played = self.suits.played(seat, self.hands[seat], self.last.parts)
            return None if played is None else (self.last.text, played)
        return None

    def plain_view(self, seat: int | None) -> View:
        """What ``seat`` (None: the public) sees, in notation (``view`` adds the suits)."""
        seats = []
        for s in range(self.n):
            role = None
            if self.landlord is not None:
                role = T("ddz.role.landlord" if s == self.landlord else "ddz.role.farmer")
            visible = self.visible_hand(s)
            # 亮牌: once the hand is over every seat's remaining cards are shown.
            shown = s == seat or self.shown[s] or self.over
            cards = format_cards(visible) if shown else None
            status = T("ddz.status.escaped") if s in self.escaped else self._status_text(s)
            seats.append(SeatView(role=role, count=sum(visible), cards=cards, status=status))
        lines: list[Text] = []
        if self.deal_no:
            lines.append(T("ddz.line.redeal", n=self.deal_no + 1))
        if self.high:
            lines.append(T("ddz.line.bid", bid=self.high, seat=(self.auction.high_seat or 0) + 1))
        lines.append(T("ddz.line.base", base=self.base_score()))
        lines.append(T("ddz.line.multiplier", x=self.multiplier()))
        if self.kitty_taken:
            lines.append(T("ddz.line.kitty", cards=format_cards(self.kitty)))
        # the plays of the round, the top one last: View.round
        if self.last is None and self._phase == "play":
            lines.append(T("ddz.line.lead", seat=self.turn + 1))
        if seat is not None and self.peeks[seat]:
            lines.append(T("ddz.line.peek", cards=self.peeked(seat)))
        if seat is not None and self._phase == "play" and self._acting(seat):
            lines.append(self._options_line(seat))
        hand = format_cards(self.visible_hand(seat)) if seat is not None else None
        return View(
            phase=T(f"ddz.phase.{self._phase_label()}"),
            seats=tuple(seats),
            lines=tuple(lines),
            hand=hand,
            counter=self.counter(seat),
            round=self.rounds.current(),
            last_round=self.rounds.last,
        )

    def counter(self, seat: int | None) -> str | None:
        """记牌器: the ranks still out as ``seat`` may know them (not in its hand, not played;
        the kitty before it is shown and removed cards count as out), or None for the public,
        where the room turns it off (option ``counter``), and once the hand is over."""
        if seat is None or self.over or not counter_shown(self.rules.counter, self.setup.coefficient):
            return None
        whole = self.rules.decks
        return counter_text(
            [4 * whole - h - o for h, o in zip(self.hands[seat][:SMALL_JOKER], self.out)]
            + [whole - self.hands[seat][r] - self.out[r] for r in (SMALL_JOKER, BIG_JOKER)]
        )

    def _options_line(self, seat: int) -> Text:
        """The seat to play: how many plays it may lead, how many beat the table, or 要不起."""
        n = len(self.plays(seat))
        if self.last is None:
            return T("ddz.line.you_lead", n=n)
        if n:
            return T("ddz.line.can_beat", n=n, cards=self.last.text)
        return T("ddz.line.cannot_beat", cards=self.last.text)

    def private_epoch(self, seat: int) -> int:
        """Changes on a redeal, for the landlord when it takes the kitty (its 明牌 offer
        turns from ×3 to ×2 then too), and in 二人 for both seats when ×4 turns to ×3. Another seat's 明牌 is public (every view shows it), so
        it is no private change; nor is an offer lapsing (a click on it is refused)."""
        kitty = 1 if self.kitty_taken and seat == self.landlord else 0
        # 二人: the ×4 of 发牌明牌 lapses for every seat at the calling's first answer
        lapsed = 2 if self.rules.deal_show and self.rules.mingpai and not self.deal_open() else 0
        return self.deal_no * 4 + lapsed + kitty

    @classmethod
    def check_options(cls, options: Mapping[str, Any]) -> None:
        """OptionError for room options the rules cannot play (e.g. 底分 below 1, a negative
        加倍 threshold, numbers beyond what settlement holds)."""
        cls.make_rules(options)

    def _status_text(self, seat: int) -> Text | None:
        action = self.status[seat]
        if action is None:
            return None
        if action.startswith("bid "):
            return T("ddz.status.bid", n=int(action[4:]))
        if action == "show":
            return T("ddz.status.show", x=self.shown[seat])
        if action in _STATUS_WORDS:
            return T(f"ddz.status.{action}")
        return T("ddz.status.play", cards=action)

    def _phase_label(self) -> str:
        return self.auction.label() if self._phase == "auction" else self._phase

    def choices(self, seat: int) -> list[Choice]:
        acts = [] if self._phase == "play" else self.legal_actions(seat)
        out: list[Choice] = []
        for a in acts:
            if a.startswith("peek "):
                out.append(Choice(a, T("ddz.choice.peek", places=" + ".join(a[5:]))))
            elif a.startswith("bid "):
                out.append(Choice(a, T("ddz.choice.bid", n=int(a[4:])), "primary"))
            elif a in ("call", "grab", "double"):
                out.append(Choice(a, T(f"ddz.choice.{a}"), "primary"))
            else:
                out.append(Choice(a, T(f"ddz.choice.{a}")))
        if self._phase == "play" and seat in self.to_act() and self.last is not None:
            out.append(Choice("pass", T("ddz.choice.pass")))
        return out

    def picker(self, seat: int) -> Picker | None:
        """The seat's cards as tokens: ``3s``, ``3h`` … (unique values; suits are ignored).

        Offered during the whole play phase, not only on the seat's turn: a seat's cards change
        only when it plays, so a picker shown while others play is still right when its turn
        comes (picking out of turn is refused by ``apply``)."""
        if self._phase != "play" or self.over or not self.hands[seat]:
            return None
        tokens: list[str] = []
        labels: list[str] = []
        for rank, c in enumerate(self.hands[seat]):
            for i in range(c):
                tokens.append(
                    "BR"[rank - SMALL_JOKER]
                    if rank >= SMALL_JOKER
                    else "3456789TJQKA2"[rank] + _SUIT_TAGS[i]
                )
                labels.append(label(rank))
        tokens, labels = tokens[:25], labels[:25]
        return Picker(tuple(tokens), tuple(labels), 1, len(tokens), "{}", "")

    # --- 明牌开始: chosen at the Start button, before the deal ----------------------------------
    @classmethod
    def start_offers(cls, options: Mapping[str, Any]) -> tuple[Choice, ...]:
        """明牌开始 ×5 (003 四.2, "在还没发牌时，就选择明牌并保持开始游戏") wherever the rules have
        明牌: chosen with the Start button, before any card exists."""
        if not cls.make_rules(options).mingpai:
            return ()
        # the old 明牌开始 step's name says what is chosen: "明牌开始（发牌前明牌 ×5）"
        return (Choice(START_SHOW, T("ddz.phase.show_start"), "success"),)

    def _show_at_start(self, starts: tuple[tuple[int, str], ...]) -> None:
        """明牌开始: each seat in ``starts`` (checked by ``Game.check_starts``) shows its hand
        from the deal on, ×5, exactly as a 明牌 at ×5 counts: the largest 明牌 factor applies
        (003 四.5), the first to choose it calls first (003 二.2), and if everyone then says 不叫
        it is the landlord (003 二.3), so the hand is never redealt."""
        if not starts:
            return
        auction = self.auction
        assert isinstance(auction, CallAuction)  # only 叫/抢地主 rules have 明牌
        for seat, _ in starts:
            auction.show(seat, SHOW_FACTOR["start"])
            self.status[seat] = "show"
        auction.first = auction.turn = auction.show_order[0]

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

    # --- trustee ----------------------------------------------------------------------------
    def _trustee(self, seat: int, level: str = "normal") -> str:
        """托管: the policy of ``ai.choose`` (timeouts, escaped seats and bots alike)."""
        return ai.choose(self, seat, level)

    # --- debugging and tests -------------------------------------------------------------------
    def snapshot(self) -> dict[str, Any]:
        """The whole state as plain data (like a FEN): equal snapshots mean equal states."""
        return {
            "phase": self.phase(),
            "deal": self.deal_no,
            "hands": [format_cards(tuple(h)) for h in self.hands],
            "kitty": format_cards(self.kitty),
            "kitty_taken": self.kitty_taken,
            "peeks": [list(p) for p in self.peeks],
            "auction": self.auction.snapshot(),
            "turn": self.turn,
            "pending": list(self.pending),
            "doubled": list(self.doubled),
            "landlord": self.landlord,
            "last": None if self.last is None else [self.last_seat, self.last.text],
            "played_hands": list(self.played_hands),
            "bombs": self.bombs,
            "bomb_factors": list(self.bomb_factors),
            "winner": self.winner,
            "over": self.over,
            "void": self.void,
            "escaped": sorted(self.escaped),
            "escape_before_bid": sorted(self.escape_before_bid.items()),
            "escape_penalties": sorted(self.escape_penalties.items()),
            "out": format_cards(tuple(self.out)) if any(self.out) else "",
            "status": list(self.status),
        }


def _one(rank: int) -> tuple[int, ...]:
    counts = [0] * NRANKS
    counts[rank] = 1
    return tuple(counts)


class ClassicGame(DoudizhuGame):
    """斗地主 (000/001): 叫分 1/2/3; option ``doubling`` adds 002's 加倍/不加倍 step."""


class HappyGame(DoudizhuGame):
    """欢乐斗地主 (003/004): 叫/抢地主, 明牌 ×5/×4/×3/×2, gated 加倍, pairwise settlement."""

    @classmethod
    def make_rules(cls, options: Mapping[str, Any]) -> Rules:
        return happy_rules(options)


class TwoPlayerGame(DoudizhuGame):
    """二人斗地主 / 面对面 (004): two seats, 11 cards out of play, 20 each, the happy steps."""

    @classmethod
    def make_rules(cls, options: Mapping[str, Any]) -> Rules:
        return two_player_rules(options)


class HotGame(DoudizhuGame):
    """火拼斗地主 (001): 叫/抢地主 and 明牌 without 加倍, 底分 1, 黄金眼, its escape table, F1
    settled per pair (so the host applies §1.3's caps to each pair)."""

    @classmethod
    def make_rules(cls, options: Mapping[str, Any]) -> Rules:
        return hot_rules(options)

    def held_bombs(self) -> int:
        """Bombs (four of a rank) and rockets still held, in every seat's hand (the kitty
        before it is taken is nobody's hand)."""
        count = 0
        for hand in self.hands:
            count += sum(1 for c in hand[:SMALL_JOKER] if c == 4)
            count += 1 if hand[SMALL_JOKER] and hand[BIG_JOKER] else 0
        return count

    def escape_penalty(self, seat: int, before: bool) -> int:
        """火拼 逃跑 (001): with the 行为倍数 (grabs, 明牌, every bomb of the hand — played, or
        still held by **any** seat: "逃跑计算时将计算当局所有的炸弹数量，无论是否炸出" — 春天;
        not the room's initial 倍数) below 10, the landlord pays 20 × its score at 倍数 1
        (20 × 底分 × 2) and a farmer 10 × 底分; from 10 up, the landlord 4 × and a farmer 2 ×
        its actual score (底分 × 倍数 × 身份系数, held bombs counted). Before the landlord is
        known the escaper counts as a farmer."""
        held = self.held_bombs()
        action = (self.multiplier() // self.rules.multiplier) << held
        landlord = seat == self.landlord
        role = 2 if landlord else 1
        base = self.base_score()
        if action < 10:
            return (20 if landlord else 10) * base * role
        actual = base * (self.multiplier() << held) * role
        return (4 if landlord else 2) * actual


class FourGame(DoudizhuGame):
    """四人斗地主 (001): two decks, 25 each, kitty 8, 叫分, the patterns and bomb ladder of
    ``engines.doudizhu.four``, the landlord against three (±3×底分×倍数)."""

    fast_reading = False

    @classmethod
    def make_rules(cls, options: Mapping[str, Any]) -> Rules:
        return four_rules(options)

    def plays(self, seat: int) -> list[str]:
        return [p.text for p in four.plays(tuple(self.hands[seat]), self.last)]

    def read_play(self, seat: int, text: str) -> Play | None:
        return four.read(text)

    def beats(self, play: Play, previous: Play) -> bool:
        return four.beats(play, previous)

    def bomb_factor(self, play: Play) -> int:
        return four.bomb_factor(play)

    def picker(self, seat: int) -> Picker | None:
        """Up to 33 cards (the landlord's 25 + 8): one menu per run of ranks of at most 25."""
        if self._phase != "play" or self.over or not any(self.hands[seat]):
            return None
        return four.picker(self.hands[seat])

    def _trustee(self, seat: int, level: str = "normal") -> str:
        return four.choose(self, seat)


class WildGame(DoudizhuGame):
    """癞子斗地主 (004 癞子场): the happy rules for three with a 癞子 rank turned up after each
    deal (``engines.doudizhu.wild``); bombs ×2 (soft) or ×4 (hard, pure 癞子, rocket)."""

    fast_reading = False

    @classmethod
    def make_rules(cls, options: Mapping[str, Any]) -> Rules:
        return happy_rules(options)

    def _start_deal(self, first: int) -> None:
        super()._start_deal(first)
        # 004 does not say how the 癞子 is chosen: a random rank (no joker) after the deal,
        # from the same seeded stream, shown to everyone.
        self.wild = self._rng.randrange(SMALL_JOKER)

    def plays(self, seat: int) -> list[str]:
        return [p.text for p in wild.plays(tuple(self.hands[seat]), self.wild, self.last)]

    def read_play(self, seat: int, text: str) -> Play | None:
        return wild.read(text.strip(), tuple(self.hands[seat]), self.wild, self.last, self.book)

    def beats(self, play: Play, previous: Play) -> bool:
        return wild.beats(play, previous)

    def bomb_factor(self, play: Play) -> int:
        return wild.FACTOR[play.pattern]

    def plain_view(self, seat: int | None) -> View:
        v = super().plain_view(seat)
        line = T("ddz.line.wild", rank=label(self.wild))
        return dataclasses.replace(v, lines=(line, *v.lines))

    def _trustee(self, seat: int, level: str = "normal") -> str:
        """托管: the classic policy on the cards as they are (every natural play is legal
        here); over a soft or pure 癞子 bomb, the lowest bomb above it only to go out or to
        stop an opponent on few cards; going out with a 癞子 reading whenever one does."""
        if self._phase != "play":
            return ai.choose(self, seat, level)
        hand = tuple(self.hands[seat])
        size = sum(hand)
        if hand[self.wild] and size <= 8:  # (without 癞子 the classic policy sees it)
            for p in wild.plays(hand, self.wild, self.last):
                if p.size == size:
                    return p.text
        last = self.last
        if last is not None and last.pattern in (Pattern.SOFT_BOMB, Pattern.WILD_BOMB):
            options = [p for p in wild.bombs(hand, self.wild) if wild.beats(p, last)]
            assert self.landlord is not None and self.last_seat is not None
            partner = seat != self.landlord and self.last_seat != self.landlord
            opponents = [
                s for s in range(self.n) if (s == self.landlord) != (seat == self.landlord)
            ]
            low = min(sum(self.hands[o]) for o in opponents) <= 4
            if options and low and not partner:
                return min(options, key=lambda p: (wild.TIER[p.pattern], p.key)).text
            return "pass"
        return ai.choose(self, seat, level)

    def snapshot(self) -> dict[str, Any]:
        return super().snapshot() | {"wild": RANKS[self.wild]}


_DAO_STEPS = ("dao", "la", "lei", "wo")
_DAO_WORDS = {
    "dao": "dao", "倒": "dao", "nodao": "nodao", "不倒": "nodao",
    "la": "la", "拉": "la", "nola": "nola", "不拉": "nola",
    "lei": "lei", "垒": "lei", "nolei": "nolei", "不垒": "nolei",
    "wo": "wo", "沃": "wo", "nowo": "nowo", "不沃": "nowo",
    "mendao": "mendao", "闷倒": "mendao", "look": "look", "看牌": "look",
}  # fmt: skip


class MalaGame(DoudizhuGame):
    """麻辣斗地主 (001): a 明牌 card whose holder calls first, 闷抓 or 看牌, 叫地主, then
    倒拉垒沃 per landlord–farmer pair; attachments are singles only.

    Nobody sees its own hand before looking (看牌): the holder's 看牌 lets everyone look;
    after 闷抓 each farmer 闷倒s unseen or looks, the landlord looks (and alone sees the
    kitty) once 倒拉垒沃 is over."""

    @classmethod
    def make_rules(cls, options: Mapping[str, Any]) -> Rules:
        return mala_rules(options)

    def _start_deal(self, first: int) -> None:
        super()._start_deal(first)
        # 明牌: one of the dealt cards is turned up during the deal; its holder calls first.
        place = self._rng.randrange(self.n * self.rules.hand_size)
        self.open_seat = place % self.n
        self.open_rank = self.dealt[self.open_seat][place // self.n]
        self.open_card = self.suits.dealt[self.open_seat][place // self.n]
        self.auction = BlindAuction(self.n, self.open_seat)
        self.looked = [False] * self.n
        self.pairs = [0] * self.n  # 倒拉垒沃 actions in each farmer's pair
        self.steps: list[tuple[int, str, int]] = []  # (actor, step, farmer)
        self.step = 0

    # --- 倒拉垒沃 --------------------------------------------------------------------------
    def _make_landlord(self, seat: int) -> None:
        self.landlord = seat
        hand = self.hands[seat]
        for rank, c in enumerate(self.kitty):
            hand[rank] += c
        self.kitty_taken = True
        self.suits.take_kitty(seat)
        self.blind = self.auction.blind
        if not self.blind:
            self.looked = [True] * self.n
        self.step = 0
        self.steps = [(f, "dao", f) for f in self._order(seat)[1:]]
        self._phase = "dao"

    def _advance(self) -> None:
        self.steps.pop(0)
        if self.steps:
            return
        assert self.landlord is not None
        while self.step < len(_DAO_STEPS) - 1:
            # The next step is open only in the pairs whose last step was taken.
            self.step += 1
            name = _DAO_STEPS[self.step]
            farmers = [f for f in self._order(self.landlord)[1:] if self.pairs[f] == self.step]
            landlord = self.landlord
            self.steps = [(landlord if name in ("la", "wo") else f, name, f) for f in farmers]
            if self.steps:
                return
            break
        self.looked = [True] * self.n
        self._start_play()

    def turn_seats(self) -> tuple[int, ...]:
        if not self.over and self._phase == "dao":
            return (self.steps[0][0],)
        return super().turn_seats()

    def legal_actions(self, seat: int) -> list[str]:
        if self._phase != "dao":
            return super().legal_actions(seat)
        if self.over or seat != self.steps[0][0]:
            return []
        _, name, _ = self.steps[0]
        if name == "dao" and not self.looked[seat]:
            return ["mendao", "look"]
        return [name, "no" + name]

    def phase(self) -> str:
        return "dao" if self._phase == "dao" and not self.over else super().phase()

    def _apply(self, seat: int, text: str) -> str:
        low = " ".join(text.strip().lower().split())
        if self._phase == "auction" and self.auction.phase == "blind" and low in ("look", "看牌"):
            self.looked = [True] * self.n  # 看牌: every seat picks its hand up, then 叫地主
            return self._auction_act(seat, "blind", 0)
        if self._phase != "dao":
            return super()._apply(seat, text)
        legal = self.legal_actions(seat)
        word = _DAO_WORDS.get(low)
        if word is None and low in PASS_WORDS:
            word = legal[-1] if legal[-1] != "look" else None
        if word not in legal:
            raise IllegalActionError(
                f"not an action of this phase; now: {', '.join(legal)}",
                seat=seat,
                action=text,
                text=T(
                    "err.ddz.phase_takes",
                    phase=T(f"ddz.phase.{self._phase_label()}"),
                    actions=", ".join(legal),
                ),
            )
        assert word is not None
        self.status[seat] = word
        if word == "look":
            self.looked[seat] = True
            return word
        _, name, farmer = self.steps[0]
        if word in ("mendao", name):
            self.pairs[farmer] += 1
        self._advance()
        return word

    def _phase_label(self) -> str:
        if self._phase == "dao" and not self.over:
            return f"dao_{self.steps[0][1]}"
        return super()._phase_label()

    # --- scoring and views -------------------------------------------------------------------
    def pair_doubles(self) -> list[int]:
        """Per farmer: ×2 for each 倒拉垒沃 step taken in its pair, ×2 after 闷抓 (001)."""
        blind = 2 if self.auction.blind else 1
        return [1 if s == self.landlord else blind << self.pairs[s] for s in range(self.n)]

    def outcome(self) -> Outcome:
        out = super().outcome()
        extra: list[Text] = []
        if self.auction.blind and not self.void:
            extra.append(T("ddz.out.blind"))
        for f in range(self.n):
            if f != self.landlord and self.pairs[f]:
                extra.append(T("ddz.out.pair", seat=f + 1, x=2 ** self.pairs[f]))
        return dataclasses.replace(out, lines=(*out.lines, *extra))

    def plain_view(self, seat: int | None) -> View:
        v = super().plain_view(seat)
        lines = [T("ddz.line.open_card", card=label(self.open_rank), seat=self.open_seat + 1)]
        for line in v.lines:
            hidden = seat is None or seat != self.landlord or not self.looked[seat]
            if line.key == "ddz.line.kitty" and self.auction.blind and not self.over and hidden:
                continue  # 闷抓: only the landlord sees the kitty, once 倒拉垒沃 is over (001)
            lines.append(line)
        hand, counter = v.hand, v.counter
        seats = list(v.seats)
        if seat is not None and not self.looked[seat] and not self.over:
            hand = counter = None  # the 记牌器 would tell the unseen hand
            seats[seat] = dataclasses.replace(seats[seat], cards=None)
        return dataclasses.replace(
            v, seats=tuple(seats), lines=tuple(lines), hand=hand, counter=counter
        )

    def private_epoch(self, seat: int) -> int:
        return super().private_epoch(seat) * 2 + self.looked[seat]

    def _suited_line(self, key: str) -> Texts | None:
        if key == "ddz.line.open_card":  # the 明牌 turned up in the deal, a public card
            return label(self.open_rank), str(self.open_card)
        return super()._suited_line(key)

    def picker(self, seat: int) -> Picker | None:
        return super().picker(seat) if self.looked[seat] else None

    def _trustee(self, seat: int, level: str = "normal") -> str:
        """托管: looks, calls by strength, takes a 倒拉垒沃 step with a strong hand only when
        it has looked (a blind landlord declines)."""
        hand = tuple(self.hands[seat])
        if self._phase == "auction":
            if self.auction.phase == "blind":
                return "look"
            return "call" if ai.bid_for(hand) >= 1 else "nocall"
        if self._phase == "dao":
            legal = self.legal_actions(seat)
            if legal[0] == "mendao":
                return "look"
            strong = self.looked[seat] and ai.strength(hand) >= ai.DOUBLE_AT
            return legal[0] if strong else legal[1]
        return ai.choose(self, seat, level)

    def _status_text(self, seat: int) -> Text | None:
        action = self.status[seat]
        if action in _DAO_WORDS.values():
            return T(f"ddz.status.{action}")
        return super()._status_text(seat)

    def snapshot(self) -> dict[str, Any]:
        return super().snapshot() | {
            "open": [self.open_seat, self.open_rank],
            "looked": list(self.looked),
            "pairs": list(self.pairs),
            "steps": [list(s) for s in self.steps],
        }
