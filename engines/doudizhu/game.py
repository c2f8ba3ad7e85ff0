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
from collections.abc import Mapping
from typing import Any

from engines.base import Outcome, Picker, T, Text, View
from engines.doudizhu import ai, four, wild
from engines.doudizhu.auction import BlindAuction
from engines.doudizhu.notation import BIG_JOKER, PASS_WORDS, RANKS, SMALL_JOKER, label, parse_cards
from engines.doudizhu.patterns import Pattern, Play
from engines.doudizhu.rules import (
    Rules,
    four_rules,
    happy_rules,
    hot_rules,
    mala_rules,
    two_player_rules,
)
from engines.doudizhu.suits import Texts
from engines.doudizhu.texts import NOTATION_ERRORS
from engines.doudizhu.views import DoudizhuViews
from engines.errors import IllegalActionError

DECLINE = "decline"

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

# First words of the phase actions: typed in the play phase they are not cards.
_ACTION_HEADS = frozenset(w.split()[0] for w in WORDS if not w[0].isdigit()) | {
    "bid",
    "叫",
    "抢",
    "明牌",
    "show",
    "加倍",
}


class DoudizhuGame(DoudizhuViews):
    """斗地主: one hand under a ``Rules`` set; subclasses pick the rules from the options.

    Its jobs live in layers of their own, each a module of this package, each calling only the
    layers under it: the hand's state and deal (``state``); 倍数 and the settlement
    (``settlement``); the landlord selection with 加倍, 黄金眼 and 明牌 (``bidding``); the plays
    (``plays``); what each seat sees (``views``). This class reads typed actions and adds the
    trustee; the variants below override the same hooks as before.
    """

    fast_reading = True
    """Canonical play texts are looked up in the classic PlayBook (one deck, classic patterns)."""

    notation_errors = NOTATION_ERRORS

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

    # --- trustee ----------------------------------------------------------------------------
    def _trustee(self, seat: int, level: str = "normal") -> str:
        """托管: the policy of ``ai.choose`` (timeouts, escaped seats and bots alike)."""
        return ai.choose(self, seat, level)


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
        self._rng = None  # no redeal can follow: the shuffle's stream is let go
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

    def private_face(self, seat: int) -> Any:
        """As 斗地主's, but a hand not looked at (闷抓) is not shown to its holder."""
        face = super().private_face(seat)
        if self.looked[seat] or self.over:
            return face
        return (*face[:seat], None, *face[seat + 1:])

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
