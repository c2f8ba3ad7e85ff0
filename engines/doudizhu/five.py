"""五人斗地主 (001 《五人斗地主》, GAMES.md §2.8): two decks, five seats, 明地主 and 暗地主.

Cards: two decks (108, notation as in ``four``); 21 each, kitty 3. Patterns (``classify``):
四人's, except that a pair of jokers is a bomb, not a pair (对子: "除王外"):

- 双王炸弹 ``BB`` or ``RR``; 三王炸弹 any three jokers (``BBR``, ``BRR``); 天王炸弹 ``BBRR``.
- Bomb ladder (ascending): 4-bomb < 双王 < 5-bomb < 6-bomb < 三王 < 7-bomb < 8-bomb < 天王;
  the same step compares by rank (``RR`` over ``BB``, ``BRR`` over ``BBR``).
- 倍数 per bomb played: 5-, 6-, 7-, 8-bomb, 三王 and 天王 ×2; a 4-bomb and 双王 nothing.

>>> classify(four.parse("BB")).pattern.name
'ROCKET'
>>> classify(four.parse("BR")) is None
True
>>> beats(classify(four.parse("BB")), classify(four.parse("AAAA")))
True
>>> beats(classify(four.parse("33333")), classify(four.parse("RR")))
True
>>> [p.text for p in plays(four.parse("BBR"))]
['B', 'R', 'BB', 'BBR']
"""

from __future__ import annotations

import random
from collections.abc import Mapping
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
from engines.cards import Card, Layout, Shoe, climb_index, deal
from engines.doudizhu import four
from engines.doudizhu.counter import counter_shown, counter_text
from engines.doudizhu.notation import (
    BIG_JOKER,
    NRANKS,
    PASS_WORDS,
    RANKS,
    SMALL_JOKER,
    Counts,
    format_cards,
)
from engines.doudizhu.patterns import Pattern, Play
from engines.doudizhu.rules import merge_options
from engines.doudizhu.suits import Suits, Texts, card, with_shown
from engines.doudizhu.texts import NOTATION_ERRORS
from engines.errors import IllegalActionError, OptionError

SEATS = 5
STEP_KEYS = {"reveal": -1, "double": -2}  # ``Window.key`` of the two steps (once each)
HAND = 21
KITTY = 3
SUITS = "♠♥♣♦"
FIVE_OPTIONS: dict[str, Any] = {"base": 1, "counter": "auto"}
MAX_BASE = 1_000_000

_JOKER_BOMBS = (Pattern.ROCKET, Pattern.KING_BOMB)


def _physical(card: Card) -> tuple[int, int, int]:
    """A card of the shoe as (rank, suit, deck): rank in ``RANKS`` order, suit 0..3 for
    ♠ ♥ ♣ ♦ (0 for a joker), deck 0 or 1."""
    return (climb_index(card), 0 if card.suit is None else card.suit.index, card.copy)


def _play(counts: Counts, pattern: Pattern, key: int) -> Play:
    return Play(tuple(counts), pattern, key, sum(counts), format_cards(tuple(counts)))


def classify(counts: Counts) -> Play | None:
    """The one reading of a set of cards under 五人's patterns, or None."""
    jokers = counts[SMALL_JOKER] + counts[BIG_JOKER]
    if jokers and jokers == sum(counts):
        if jokers == 1:
            return _play(counts, Pattern.SINGLE, SMALL_JOKER if counts[SMALL_JOKER] else BIG_JOKER)
        if jokers == 2 and 2 in (counts[SMALL_JOKER], counts[BIG_JOKER]):
            return _play(counts, Pattern.ROCKET, SMALL_JOKER if counts[SMALL_JOKER] else BIG_JOKER)
        if jokers == 3:
            return _play(
                counts, Pattern.ROCKET, BIG_JOKER if counts[BIG_JOKER] == 2 else SMALL_JOKER
            )
        if jokers == 4:
            return _play(counts, Pattern.KING_BOMB, BIG_JOKER)
        return None  # BR: no rocket
    if jokers:
        return None  # jokers never join another pattern (no pair of jokers: a bomb)
    return four.classify(counts)


def tier(play: Play) -> int:
    """The bomb's step on the ladder: 4 < 双王 < 5 < 6 < 三王 < 7 < 8 < 天王 (0…7)."""
    if play.pattern is Pattern.KING_BOMB:
        return 7
    if play.pattern is Pattern.ROCKET:
        return 1 if play.size == 2 else 4
    return {4: 0, 5: 2, 6: 3, 7: 5}.get(play.size, 6)


def beats(play: Play, previous: Play) -> bool:
    """管得上: a bomb over any non-bomb, bombs by (ladder step, rank); others: the same
    pattern and number of cards, higher key."""
    if play.is_bomb:
        if not previous.is_bomb:
            return True
        return (tier(play), play.key) > (tier(previous), previous.key)
    if previous.is_bomb:
        return False
    return (
        play.pattern is previous.pattern and play.size == previous.size and play.key > previous.key
    )


def bomb_factor(play: Play) -> int:
    """倍数 of a bomb played (001): ×2 from the 5-bomb up (5/6/三王/7/8/天王), else ×1."""
    return 2 if tier(play) >= 2 else 1


def plays(counts: Counts, previous: Play | None = None) -> list[Play]:
    """The legal plays of a hand: every lead, or those beating ``previous``. 四人's generator,
    re-read under 五人's patterns (a joker pair becomes 双王), plus the 三王 bombs."""
    out: list[Play] = []
    for p in four.plays(tuple(counts)):
        q = classify(p.cards)
        if q is not None:
            out.append(q)
    s, b = counts[SMALL_JOKER], counts[BIG_JOKER]
    if s + b >= 3:
        for cs, cb in ((2, 1), (1, 2)):
            if s >= cs and b >= cb:
                c = [0] * NRANKS
                c[SMALL_JOKER], c[BIG_JOKER] = cs, cb
                q = classify(tuple(c))
                assert q is not None
                out.insert(len(out) - (1 if s == b == 2 else 0), q)
    if previous is None:
        return out
    return [p for p in out if beats(p, previous)]


def read(text: str) -> Play:
    """A typed play of 五人斗地主; IllegalActionError when the cards form no pattern."""
    counts = four.parse(text)
    play = classify(counts)
    if play is None:
        cards = format_cards(counts)
        raise IllegalActionError(
            f"{cards} is not a pattern of 五人斗地主",
            action=text,
            text=T("err.ddz.five_pattern", cards=cards),
        )
    return play


def five_rules(options: Mapping[str, Any]) -> int:
    """The room's 底分 (001 has no bid; GAMES.md §2.8 suggests the room base)."""
    base = merge_options(FIVE_OPTIONS, options)["base"]
    if not isinstance(base, int) or isinstance(base, bool) or not 1 <= base <= MAX_BASE:
        raise OptionError(
            "base",
            f"must be a whole number from 1 to {MAX_BASE}",
            text=T("err.ddz.five_base", max=MAX_BASE),
        )
    return base


_YES = {
    "reveal": "reveal",
    "亮": "reveal",
    "亮出身份": "reveal",
    "double": "double",
    "加倍": "double",
}
_NO = {
    "noreveal": "noreveal",
    "no reveal": "noreveal",
    "放弃": "decline",
    "nodouble": "nodouble",
    "no double": "nodouble",
    "不加倍": "nodouble",
    "pass": "decline",
    "不出": "decline",
}


class FiveGame(Game):
    """五人斗地主: 明地主 by a random card, the hidden 暗地主 holding its twin, 2 (or 1) vs 3."""

    notation_errors = NOTATION_ERRORS

    def __init__(self, setup: Setup) -> None:
        super().__init__(setup)
        if setup.seats != SEATS:
            raise OptionError(
                "seats",
                "this 斗地主 is for 5 players",
                text=T("err.ddz.seats", n=SEATS, seats=setup.seats),
            )
        self.base = five_rules(setup.options)
        self.counter_mode = merge_options(FIVE_OPTIONS, setup.options)["counter"]
        self.n = SEATS
        rng = random.Random(setup.seed)
        # Every card is (rank, suit, deck); jokers have suit 0 and deck 0/1. The shared card
        # model deals them, laid out as this game always has (same seed, same deal).
        shoe = deal(rng, Shoe(2, jokers=True), Layout.RANK_SUIT_DECK, SEATS, HAND, form=_physical)
        dealt, kitty = shoe.hands, shoe.kitty
        # 明牌: a random non-joker card among those dealt (the kitty is nobody's).
        in_order = [dealt[p % SEATS][p // SEATS] for p in range(SEATS * HAND)]
        marker = rng.choice([c for c in in_order if c[0] < SMALL_JOKER])
        twin = (marker[0], marker[1], 1 - marker[2])
        self.marker = marker[:2]
        self.landlord = next(s for s in range(SEATS) if marker in dealt[s])
        twin_seat = next((s for s in range(SEATS) if twin in dealt[s]), None)
        # The twin in the kitty or in the 明地主's hand: one landlord only.
        self.partner: int | None = None if twin_seat in (None, self.landlord) else twin_seat
        self.hands: list[list[int]] = []
        for cards in dealt:
            counts = [0] * NRANKS
            for c in cards:
                counts[c[0]] += 1
            self.hands.append(counts)
        self.kitty = tuple(sum(1 for c in kitty if c[0] == r) for r in range(NRANKS))
        for r, k in enumerate(self.kitty):
            self.hands[self.landlord][r] += k
        # The physical cards, for pictures (engines.doudizhu.suits); the 暗地主's twin leaves
        # first of its rank, as the play that makes it known counts it (001).
        self.suits = Suits(
            [[(c[0], card(*c)) for c in h] for h in dealt], [(c[0], card(*c)) for c in kitty]
        )
        self.suits.take_kitty(self.landlord)
        if self.partner is not None:
            self.suits.keep_first(self.partner, card(*twin))
        self.known = False  # the 暗地主 (or its absence) is public
        self.revealed: dict[int, bool] = {}
        self.doubled: list[bool | None] = [None] * SEATS
        self._phase = "reveal"
        # 亮出身份 is the 明地主's step; the 暗地主's is an offer (``open_offers``), so whether
        # there is one never shows in whom the table waits for, or for how long (issue 23)
        self.pending = [self.landlord]
        self.turn = self.landlord
        self.last: Play | None = None
        self.last_seat: int | None = None
        self.rounds = RoundLog()  # 本轮: the plays and passes since the last lead
        self.round_plays: dict[int, Play] = {}  # each seat's last play in it (for its suits)
        self.played = [0] * SEATS
        self.bomb_factors: list[int] = []
        self.status: list[str | None] = [None] * SEATS
        self.winner: int | None = None
        self.escape_penalties: dict[int, int] = {}

    # --- sides ----------------------------------------------------------------------------
    @property
    def landlords(self) -> tuple[int, ...]:
        """明地主 first, then the 暗地主 if there is one."""
        return (self.landlord,) if self.partner is None else (self.landlord, self.partner)

    def knows_landlords(self, seat: int | None) -> tuple[int, ...]:
        """The landlord seats ``seat`` knows of (None: the public)."""
        if self.known or self.winner is not None or seat in self.landlords and seat == self.partner:
            return self.landlords
        if seat == self.landlord and self.partner is None:
            return self.landlords
        return (self.landlord,)

    # --- the Game interface ---------------------------------------------------------------
    def decision(self) -> Window | None:
        """The two simultaneous steps, each one window with one deadline, public (亮出身份
        waits for the 明地主 alone, 加倍 for all five): both optional, so a timeout is 放弃 /
        不加倍 and no miss. The 暗地主's 亮出身份 is an offer inside them, and taking it
        restarts nobody's clock."""
        if self.winner is not None or self._phase not in STEP_KEYS:
            return None
        return Window(tuple(self.pending), key=STEP_KEYS[self._phase],
                      timeout="no" + self._phase, miss=False)

    def turn_seats(self) -> tuple[int, ...]:
        return () if self.winner is not None else (self.turn,)

    # --- the 暗地主's 亮出身份: an offer, never a step the table waits for -------------------
    def open_offers(self, seat: int) -> tuple[Choice, ...]:
        """亮出身份 for the 暗地主 while it is hidden: from the deal through the 亮出身份 step
        and the 加倍 step until its own 加倍 answer (001: 亮出身份, then 加倍), never once the
        play starts. An offer puts nobody in ``to_act``: 亮出身份 waits for the 明地主 alone and
        加倍 for all five, with or without a 暗地主, so nothing the table sees (who is
        waited for, for how long, the windows) tells whether one exists; there is nothing to
        decline, and letting it lapse shows nothing either."""
        if (
            seat != self.partner
            or self.known
            or self._phase not in ("reveal", "double")
            or self.doubled[seat] is not None
        ):
            return ()
        return (Choice("reveal", T("ddz.choice.reveal"), "primary"),)

    def read_offer(self, seat: int, text: str) -> str | None:
        """亮出身份 (``reveal``) typed by the 暗地主 takes its offer; once it has lapsed, a clear
        refusal (only the 暗地主 can meet it, so it tells nobody else anything). Every other
        seat's ``reveal`` is an ordinary action (the 明地主's step, or refused)."""
        low = " ".join(text.strip().lower().split())
        if seat != self.partner or _YES.get(low) != "reveal":
            return None
        if self.open_offers(seat):
            return "reveal"
        raise IllegalActionError(
            "亮出身份 is no longer open",
            seat=seat,
            action=text,
            text=T("err.ddz.five_reveal_closed"),
        )

    def _take_offer(self, seat: int, action: str) -> str:
        self.revealed[seat] = True
        self.known = True
        self.status[seat] = "reveal"
        return action

    def trustee_offer(self, seat: int) -> str | None:
        """托管 of a hidden 暗地主: it reveals by the same strength rule as a landlord's step
        (``REVEAL_AT["an"]``), at the first moment it is asked while the offer is open — in
        the 亮出身份 step, as the host asks after every action (``Game.trustee_offer``)."""
        if self.open_offers(seat) and power(self.hands[seat]) >= REVEAL_AT["an"]:
            return "reveal"
        return None

    def phase(self) -> str:
        return self._phase

    def is_over(self) -> bool:
        return self.winner is not None

    def private_epoch(self, seat: int) -> int:
        """A landlord's private picture gains the partner's hand once the partner is known."""
        return 1 if self.known and seat in self.landlords else 0

    @classmethod
    def check_options(cls, options: Mapping[str, Any]) -> None:
        five_rules(options)

    def legal_actions(self, seat: int) -> list[str]:
        if seat not in self.to_act():
            return []
        if self._phase == "reveal":
            return ["reveal", "noreveal"]
        if self._phase == "double":
            return ["double", "nodouble"]
        acts = [p.text for p in plays(tuple(self.hands[seat]), self.last)]
        if self.last is not None:
            acts.append("pass")
        return acts

    def _apply(self, seat: int, text: str) -> str:
        low = " ".join(text.strip().lower().split())
        if self._phase in ("reveal", "double"):
            yes = "reveal" if self._phase == "reveal" else "double"
            no = "no" + yes
            if _YES.get(low) == yes or low == yes:
                return self._step(seat, True)
            if low == no or _NO.get(low) in (no, "decline"):
                return self._step(seat, False)
            raise IllegalActionError(
                f"now: {yes} or {no}",
                seat=seat,
                action=text,
                text=T("err.ddz.wrong_phase", actions=f"{yes} / {no}"),
            )
        if low in PASS_WORDS:
            if self.last is None:
                raise IllegalActionError(
                    "you lead: play any pattern",
                    seat=seat,
                    action=text,
                    text=T("err.ddz.must_lead"),
                )
            return self._pass(seat)
        return self._play(seat, read(text))

    def _step(self, seat: int, yes: bool) -> str:
        word = ("" if yes else "no") + ("reveal" if self._phase == "reveal" else "double")
        self.pending.remove(seat)
        self.status[seat] = word
        if self._phase == "reveal":
            self.revealed[seat] = yes
            if yes:
                self.known = True
        else:
            self.doubled[seat] = yes
        if not self.pending:
            if self._phase == "reveal":
                self._phase = "double"
                self.pending = [(self.landlord + i) % SEATS for i in range(SEATS)]
            else:
                self._phase = "play"
                self.turn = self.landlord
        return word

    def _pass(self, seat: int) -> str:
        self.status[seat] = "pass"
        self.rounds.pass_(seat)
        nxt = (seat + 1) % SEATS
        if nxt == self.last_seat:
            self.last = None  # everyone passed: the last player leads
            self.rounds.close(nxt)
            self.round_plays = {}
        self.turn = nxt
        return "pass"

    def _play(self, seat: int, play: Play) -> str:
        hand = self.hands[seat]
        if any(c > hand[r] for r, c in play.parts):
            raise IllegalActionError(
                "you do not hold these cards",
                seat=seat,
                action=play.text,
                text=T("err.ddz.not_held", cards=play.text),
            )
        if self.last is not None and not beats(play, self.last):
            raise IllegalActionError(
                f"does not beat {self.last.text}",
                seat=seat,
                action=play.text,
                text=T(
                    "err.ddz.not_beat",
                    cards=play.text,
                    last=self.last.text,
                    pattern=T("ddz.pattern." + self.last.pattern.name.lower()),
                ),
            )
        for r, c in play.parts:
            hand[r] -= c
        # 001: both declined, the 暗地主 is known when it plays the 明牌's twin; suits do not
        # matter in play, so its first card of that rank is the twin.
        if seat == self.partner and play.cards[self.marker[0]]:
            self.known = True
        self.played[seat] += 1
        if play.is_bomb:
            self.bomb_factors.append(bomb_factor(play))
        self.last = play
        self.last_seat = seat
        self.rounds.play(seat, play.text)
        self.round_plays[seat] = play
        self.status[seat] = play.text
        if not any(hand):
            self.winner = seat
            self.known = True
        else:
            self.turn = (seat + 1) % SEATS
        return play.text

    def _on_escape(self, seat: int) -> None:
        self.escape_penalties[seat] = self.base * self.multiplier() * 3

    def escape_cost(self, seat: int) -> int | None:
        """底分 × 倍数 × 3 at the moment of escape (``_on_escape``); 0 once escaped."""
        if seat in self.escaped or self.is_over():
            return 0
        return self.base * self.multiplier() * 3

    # --- scoring ----------------------------------------------------------------------------
    def spring(self) -> bool:
        """失败方所有玩家一张牌也没出 (001): ×2."""
        if self.winner is None:
            return False
        won = self.winner in self.landlords
        return all(self.played[s] == 0 for s in range(SEATS) if (s in self.landlords) != won)

    def multiplier(self) -> int:
        """倍数: ×2 if anyone 亮出身份, ×2 per bomb from the 5-bomb up, ×2 for a spring."""
        m = 2 if any(self.revealed.values()) else 1
        for f in self.bomb_factors:
            m *= f
        return m * (2 if self.spring() else 1)

    def pairs(self) -> list[tuple[int, int, int]]:
        """(landlord, farmer, points) of every pair: 底分×倍数×加倍 / 地主数量, so a farmer's
        X is 底分×倍数 and a landlord's 农民数量×底分×倍数/地主数量 (001). With two landlords
        a farmer's two halves make one point: it goes to the 明地主 and the 暗地主 in turn
        (the 明地主's X rounded half up, the 暗地主's the rest); a lone half rounds up."""
        stake = self.base * self.multiplier()
        lands = self.landlords
        d = [2 if x else 1 for x in self.doubled]
        out: list[tuple[int, int, int]] = []
        k = 0
        for f in range(SEATS):
            if f in lands:
                continue
            amounts = {l: stake * d[l] * d[f] for l in lands}
            if len(lands) == 2:
                odd = [l for l in lands if amounts[l] % 2]
                halves = {l: amounts[l] // 2 for l in lands}
                if len(odd) == 2:
                    halves[odd[k % 2]] += 1
                    k += 1
                elif odd:
                    halves[odd[0]] += 1
                amounts = halves
            out.extend((l, f, amounts[l]) for l in lands)
        return out

    def outcome(self) -> Outcome:
        if self.winner is None:
            raise IllegalActionError("the hand is not over yet", text=T("err.base.not_over"))
        lands = self.landlords
        won = self.winner in lands
        transfers: list[Transfer] = []
        for seat, pen in sorted(self.escape_penalties.items()):
            mine = seat in lands
            opponents = [s for s in range(SEATS) if (s in lands) != mine]
            share, extra = divmod(pen, len(opponents))
            for i, o in enumerate(opponents):
                amount = share + (1 if i < extra else 0)
                if amount:
                    transfers.append(
                        Transfer(seat, o, amount, T("ddz.transfer.escape", seat=seat + 1))
                    )
        for l, f, amount in self.pairs():
            if amount and l not in self.escape_penalties and f not in self.escape_penalties:
                payer, payee = (f, l) if won else (l, f)
                transfers.append(Transfer(payer, payee, amount, T("ddz.transfer.hand")))
        points = [0] * SEATS
        for t in transfers:
            points[t.payer] -= t.points
            points[t.payee] += t.points
        lines: list[Text] = [
            T("ddz.out.five_landlords", seats=" ".join(str(s + 1) for s in lands)),
            T("ddz.out.five_landlords_win" if won else "ddz.out.farmers_win"),
            T("ddz.out.base", base=self.base),
        ]
        if any(self.revealed.values()):
            lines.append(T("ddz.out.five_reveal"))
        if self.bomb_factors:
            m = 1
            for f in self.bomb_factors:
                m *= f
            lines.append(T("ddz.out.bombs", n=len(self.bomb_factors), x=m))
        if self.spring():
            lines.append(T("ddz.out.spring", x=2))
        lines.append(T("ddz.out.multiplier", x=self.multiplier()))
        lines += [T("ddz.out.doubled", seat=s + 1) for s in range(SEATS) if self.doubled[s]]
        lines += [
            T("ddz.out.escape", seat=s + 1, penalty=p)
            for s, p in sorted(self.escape_penalties.items())
        ]
        winners = tuple(s for s in range(SEATS) if (s in lands) == won)
        return Outcome(
            points=tuple(points),
            scores=tuple(points),
            lines=tuple(lines),
            winners=winners,
            transfers=tuple(transfers),
        )

    # --- views ------------------------------------------------------------------------------
    def marker_text(self) -> str:
        """The 明牌 as suit and rank, e.g. ``♠7``."""
        return SUITS[self.marker[1]] + RANKS[self.marker[0]]

    def view(self, seat: int | None) -> View:
        """``plain_view`` with its suited twin for pictures (``View.shown``; which card of a
        rank leaves a hand: ``engines.doudizhu.suits``)."""
        return with_shown(self.plain_view(seat), seat, self._suited_hand, self._suited_line,
                          self._suited_play)

    def _suited_hand(self, seat: int) -> Texts | None:
        return self.suits.hand(seat, self.hands[seat])

    def _suited_line(self, key: str) -> Texts | None:
        if key == "ddz.line.kitty":
            return self.suits.kitty_texts()
        return None

    def _suited_play(self, seat: int) -> Texts | None:
        """``seat``'s last play of the round (``View.round``) as (rank-only, suited) notation."""
        return self.suits.play_texts(seat, self.hands[seat], self.round_plays.get(seat))

    def plain_view(self, seat: int | None) -> View:
        """What ``seat`` sees, in notation: the 暗地主 is shown only to itself until it is
        known; then the two landlords see each other's cards (privately); everything at the
        end."""
        over = self.winner is not None
        lands = self.knows_landlords(seat)
        team = seat is not None and seat in lands and self.known
        seats = []
        for s in range(SEATS):
            if s in lands:
                role: Text | None = T("ddz.role.landlord")
            elif s == seat or len(lands) == len(self.landlords) and (self.known or over):
                role = T("ddz.role.farmer")
            else:
                role = None
            shown = s == seat or over or team and s in lands
            cards = format_cards(tuple(self.hands[s])) if shown else None
            status = T("ddz.status.escaped") if s in self.escaped else self._status(s)
            seats.append(SeatView(role=role, count=sum(self.hands[s]), cards=cards, status=status))
        lines: list[Text] = [
            T("ddz.line.five_marker", card=self.marker_text(), seat=self.landlord + 1),
            T("ddz.line.base", base=self.base),
            T("ddz.line.multiplier", x=self.multiplier()),
        ]
        if seat is not None and seat == self.partner and not self.known:
            lines.append(T("ddz.line.five_hidden", card=self.marker_text()))
            if self.open_offers(seat):
                lines.append(T("ddz.line.five_reveal_open"))
        if seat == self.landlord and self.partner is None and not (self.known or over):
            lines.append(T("ddz.line.five_alone"))
        if self.known and self.partner is None:
            lines.append(T("ddz.line.five_no_partner"))
        if seat == self.landlord:
            lines.append(T("ddz.line.kitty", cards=format_cards(self.kitty)))
        # the plays of the round, the top one last: View.round
        if self.last is None and self._phase == "play" and not over:
            lines.append(T("ddz.line.lead", seat=self.turn + 1))
        hand = format_cards(tuple(self.hands[seat])) if seat is not None else None
        return View(
            phase=T(f"ddz.phase.{'over' if over else self._phase}"),
            seats=tuple(seats),
            lines=tuple(lines),
            hand=hand,
            counter=self.counter(seat),
            round=self.rounds.current(),
            last_round=self.rounds.last,
        )

    def counter(self, seat: int | None) -> str | None:
        """记牌器: the cards of the other four hands by rank (all 108 are dealt, the kitty
        into the 明地主's hand), in the seat's own view while the room offers it."""
        if seat is None or self.winner is not None:
            return None
        if not counter_shown(self.counter_mode, self.setup.coefficient):
            return None
        return counter_text([sum(self.hands[s][r] for s in range(SEATS) if s != seat)
                             for r in range(NRANKS)])

    def _status(self, seat: int) -> Text | None:
        action = self.status[seat]
        if action is None:
            return None
        if action in ("reveal", "noreveal"):
            # 放弃 is the 明地主's alone (the 暗地主 never declines: its reveal is an offer);
            # shown as no status, as a reveal not taken.
            return T("ddz.status.reveal") if action == "reveal" else None
        if action in ("double", "nodouble", "pass"):
            return T(f"ddz.status.{action}")
        return T("ddz.status.play", cards=action)

    def choices(self, seat: int) -> list[Choice]:
        acts = [] if self._phase == "play" else self.legal_actions(seat)
        out = [
            Choice(a, T(f"ddz.choice.{a}"), "secondary" if a.startswith("no") else "primary")
            for a in acts
        ]
        if self._phase == "play" and seat in self.to_act() and self.last is not None:
            out.append(Choice("pass", T("ddz.choice.pass")))
        return out

    def picker(self, seat: int) -> Picker | None:
        if self._phase != "play" or self.winner is not None or not any(self.hands[seat]):
            return None
        return four.picker(self.hands[seat])

    # --- trustee ------------------------------------------------------------------------------
    def _trustee(self, seat: int, level: str = "normal") -> str:
        """托管: 亮出身份 (the 明地主's step; the 暗地主's offer: ``trustee_offer``) and 加倍 by
        the hand's ``power`` against the thresholds of the seat's role as the seat knows it
        (``trustee_role``), except that a 暗地主 still hidden doubles at a farmer's step (a
        lower one would make doubling a public hint of who it is); in play 四人's policy with
        what the seat knows of the sides."""
        if self._phase in ("reveal", "double"):
            table = REVEAL_AT if self._phase == "reveal" else DOUBLE_AT
            role = trustee_role(self, seat)
            if self._phase == "double" and role == "an" and not self.known:
                role = "farmer"  # 加倍 is public: a hidden 暗地主 doubles as a farmer would
            yes = power(self.hands[seat]) >= table[role]
            return ("" if yes else "no") + self._phase
        return choose(self, seat)

    def snapshot(self) -> dict[str, Any]:
        """The whole state as plain data: equal snapshots mean equal states."""
        return {
            "phase": self._phase,
            "hands": [format_cards(tuple(h)) for h in self.hands],
            "landlords": list(self.landlords),
            "known": self.known,
            "revealed": sorted(self.revealed.items()),
            "doubled": list(self.doubled),
            "turn": self.turn,
            "last": None if self.last is None else [self.last_seat, self.last.text],
            "played": list(self.played),
            "bombs": list(self.bomb_factors),
            "winner": self.winner,
            "escaped": sorted(self.escaped),
        }


def power(hand: list[int] | Counts) -> int:
    """牌力 of a 五人 hand for 亮出身份 and 加倍: jokers (大王 5, 小王 3), 2s, half the As and 4
    per bomb count for; the plays the hand needs (``four.units``) and every bomb card beyond
    four (a long bomb spends cards a short one keeps) against. The weights are a logistic
    fit of the side's wins on the hand in 3,000 seeded all-trustee hands."""
    bombs = sum(1 for r in range(13) if hand[r] >= 4)
    extra = sum(hand[r] - 4 for r in range(13) if hand[r] > 4)
    top = 5 * hand[BIG_JOKER] + 3 * hand[SMALL_JOKER] + hand[12] + hand[11] // 2
    return top + 4 * bombs - 2 * extra - four.units(hand)


def trustee_role(game: FiveGame, seat: int) -> str:
    """The seat's side as it knows it: ``ming`` / ``an`` (the two landlords), ``alone`` (a
    明地主 who holds or sees the twin: in its hand or the kitty), ``farmer2`` / ``farmer1``
    (a farmer once the sides are public: against two landlords or one), ``farmer`` (a farmer
    who does not know yet whether there is a 暗地主)."""
    if seat == game.landlord:
        return "alone" if game.partner is None else "ming"
    if seat == game.partner:
        return "an"
    if game.known:
        return "farmer1" if game.partner is None else "farmer2"
    return "farmer"


REVEAL_AT = {"ming": 4, "an": 2, "alone": 12}
"""``power`` at which the trustee reveals (亮出身份), by role. Revealing doubles every pair
and tells the farmers who the 暗地主 is: in 951 seeded all-trustee deals with a 暗地主, each
played both ways, the landlords won 52.8 % when both declined and 50.3 % when the 明地主
revealed, so it pays from about 55 % to win; a 明地主 at power 4 or more won 69 %, a 暗地主
at 2 or more 62 %. A lone 明地主 (1 against 4) wins 37 % overall and 55 % at its best
hands: it reveals only a hand that all but wins alone."""
DOUBLE_AT = {"ming": 4, "an": 2, "alone": 6, "farmer2": 6, "farmer1": 2, "farmer": 4}
"""``power`` at which the trustee doubles (加倍: its own pairs ×2), by role: where the side
won about 60 % or more in the same hands (farmers: 64 % at 6 against two landlords, 67 % at
2 against one; not knowing which, 4). Over 1,000 other seeded all-trustee deals (底分 1)
the landlords' points per deal went from −0.15 to +0.06 with these steps against farmers
who always decline, and the farmers' from +0.15 to +0.19 the other way round."""


def choose(game: FiveGame, seat: int) -> str:
    """Play like 四人's trustee: fewest plays left, bombs kept whole; a known partner's
    play stands; a bomb only against an opponent close to going out, or to go out."""
    hand = game.hands[seat]
    options = plays(tuple(hand), game.last)
    size = sum(hand)
    for p in options:
        if p.size == size:
            return p.text
    lands = game.knows_landlords(seat)
    mine = seat in lands
    opponents = [s for s in range(SEATS) if s != seat and (s in lands) != mine]
    if not mine and len(lands) < len(game.landlords):
        opponents = list(lands)  # a farmer who does not know the 暗地主 yet
    danger = min((sum(game.hands[o]) for o in opponents), default=99)
    plain = [p for p in options if not p.is_bomb]
    whole = [p for p in plain if not four._breaks(hand, p)]

    def score(p: Play) -> tuple[int, int]:
        key = -p.key if danger <= p.size else p.key
        return four.units(four._rest(hand, p)), key

    if game.last is None:
        pool = whole or plain or options
        return min(pool, key=score).text
    ally = game.last_seat is not None and game.last_seat not in opponents
    if ally and (mine or len(lands) == len(game.landlords)):
        return "pass"
    if whole:
        return min(whole, key=score).text
    if options and (danger <= 6 or plain):
        pool = plain or options
        return min(pool, key=lambda p: (tier(p) if p.is_bomb else -1, p.size, p.key)).text
    return "pass"


__all__ = [
    "DOUBLE_AT",
    "FIVE_OPTIONS",
    "REVEAL_AT",
    "FiveGame",
    "beats",
    "bomb_factor",
    "choose",
    "classify",
    "plays",
    "power",
    "read",
    "trustee_role",
]
