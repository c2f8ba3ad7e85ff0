"""牌型: hand evaluation shared by 斗牛, 欢乐斗牛 and 牛牛 (GAMES.md §3.0).

A hand of five cards is split 3 + 2. If the three sum to a multiple of ten (A-9 at face
value, T/J/Q/K = 10) the hand 有牛 and the two others, summed mod 10, give the bull:
1 is 牛丁 ... 9 is 牛九, 0 is 牛牛. 四炸 (four of a kind) and 五花牛 (five J/Q/K) need no
split. Order: 没牛 < 牛丁 < ... < 牛九 < 牛牛 < 四炸 < 五花牛; within one kind, the highest
card then its suit (♠ > ♥ > ♣ > ♦) decide, and two 四炸 compare by the quad's rank.

>>> cards = parse_cards("Ks Qd Th 7c 3d")
>>> split = Split.parse("split KQT", cards)
>>> str(split), evaluate(cards, split).kind.name
('split KsQdTh 7c3d', 'BULL_BULL')
>>> evaluate(cards, Split.parse("split K73", cards)).kind.name
'BULL_BULL'
>>> evaluate(cards, Split.parse("split KQ7", cards)).kind.name
'NO_BULL'
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from enum import IntEnum
from itertools import combinations

from engines.base import T
from engines.cards import Card, format_cards, parse_cards, parse_ranks, rank_char
from engines.errors import IllegalActionError, NotationError


class Kind(IntEnum):
    """牌型 from weakest to strongest."""

    NO_BULL = 0  # 没牛
    BULL_1 = 1  # 牛丁 (= 牛一, GAMES.md §3.0 FLAG)
    BULL_2 = 2
    BULL_3 = 3
    BULL_4 = 4
    BULL_5 = 5
    BULL_6 = 6
    BULL_7 = 7
    BULL_8 = 8
    BULL_9 = 9
    BULL_BULL = 10  # 牛牛
    FOUR_BOMB = 11  # 四炸
    FIVE_FLOWER = 12  # 五花牛

    @property
    def text_key(self) -> str:
        """Catalogue key of the kind's name (``niuniu.kind.bull_8`` ...)."""
        return "niuniu.kind." + self.name.lower()

    @property
    def multiplier(self) -> int:
        """赔率 of a win with this kind (牛牛 seed 002 rule 13): ×1, 牛八/牛九 ×2, 牛牛 ×3,
        四炸 ×4, 五花牛 ×5."""
        if self >= Kind.FIVE_FLOWER:
            return 5
        if self == Kind.FOUR_BOMB:
            return 4
        if self == Kind.BULL_BULL:
            return 3
        if self >= Kind.BULL_8:
            return 2
        return 1


def value(card: Card) -> int:
    """点数 for making a bull: A-9 face value, T/J/Q/K count 10."""
    return min(card.rank, 10)


@dataclass(frozen=True)
class Split:
    """拼牛: the three cards meant to make ten(s) and the two that give the bull."""

    three: tuple[Card, ...]
    two: tuple[Card, ...]

    def __str__(self) -> str:
        return f"split {self.body}"

    @property
    def body(self) -> str:
        """The two groups in notation, e.g. ``"KsQd5h 7c3d"``."""
        return f"{format_cards(self.three, '')} {format_cards(self.two, '')}"

    @property
    def is_bull(self) -> bool:
        """有牛: the three cards sum to 10, 20 or 30."""
        return sum(value(c) for c in self.three) % 10 == 0

    @property
    def bull(self) -> Kind:
        """The bull this split makes (NO_BULL if the three do not sum to tens)."""
        if not self.is_bull:
            return Kind.NO_BULL
        points = sum(value(c) for c in self.two) % 10
        return Kind.BULL_BULL if points == 0 else Kind(points)

    @classmethod
    def of(cls, hand: Sequence[Card], three: Sequence[Card]) -> Split:
        """The split of ``hand`` whose three-card group is ``three``."""
        rest = tuple(c for c in hand if c not in three)
        return cls(tuple(_sorted(three)), tuple(_sorted(rest)))

    @classmethod
    def parse(cls, text: str, hand: Sequence[Card]) -> Split:
        """A split of ``hand`` typed as cards or ranks, with or without the word ``split``.

        ``"split KsQd5h 7c3d"``, ``"KsQd5h"`` (the other two implied), ``"KQ5"`` (ranks; any
        card of that rank, which cannot change the result), ``"Ks Qd 5h 7c 3d"`` (first three
        make the bull). Raises NotationError (unreadable) or IllegalActionError (not these
        cards).
        """
        body = text.strip()
        for word in ("split", "拼牛", "拼"):
            if body.lower().startswith(word):
                body = body[len(word) :]
                break
        if not body.strip():
            raise NotationError(
                text,
                "name the three cards that make the bull, e.g. split KQ5",
                text=T("err.niuniu.split_empty", typed=text),
            )
        picked: list[Card] | None
        try:
            picked = list(parse_cards(body))
            count = len(picked)
        except NotationError:
            picked, ranks = None, parse_ranks(body)
            count = len(ranks)
        if count not in (3, 5):
            raise NotationError(
                text,
                "name three cards (the bull) or all five",
                text=T("err.niuniu.split_count", typed=text),
            )
        if picked is None:
            picked = _cards_by_rank(text, ranks, hand)
        if len(set(picked)) != len(picked):
            raise NotationError(
                text, "a card appears twice", text=T("err.niuniu.split_twice", typed=text)
            )
        missing = [c for c in picked if c not in hand]
        if missing:
            cards, held = format_cards(missing), format_cards(hand)
            raise IllegalActionError(
                f"{cards} not in your hand {held}",
                action=text,
                text=T("err.niuniu.not_held", cards=cards, hand=held),
            )
        return cls.of(hand, picked[:3])


def _sorted(cards: Sequence[Card]) -> list[Card]:
    return sorted(cards, key=lambda c: c.order, reverse=True)


def _cards_by_rank(text: str, ranks: Sequence[int], hand: Sequence[Card]) -> list[Card]:
    free = _sorted(hand)
    picked: list[Card] = []
    for rank in ranks:
        card = next((c for c in free if c.rank == rank), None)
        if card is None:
            held = format_cards(hand)
            raise IllegalActionError(
                f"no more cards of rank {rank} in your hand {held}",
                action=text,
                text=T("err.niuniu.rank_not_held", rank=rank_char(rank), hand=held),
            )
        free.remove(card)
        picked.append(card)
    return picked


@dataclass(frozen=True)
class Hand:
    """A hand's result: ``kind``, its highest card and, for 四炸, the quad's rank."""

    kind: Kind
    high: Card
    quad: int | None = None

    @property
    def key(self) -> tuple[int, int, int]:
        """Comparison key: kind, then the quad rank (四炸) or highest card, then suit."""
        if self.kind == Kind.FOUR_BOMB and self.quad is not None:
            return (int(self.kind), self.quad, 0)
        return (int(self.kind), self.high.rank, self.high.suit.strength)

    def beats(self, other: Hand) -> bool:
        """True if this hand is bigger than ``other`` (never equal from one deck)."""
        return self.key > other.key


def special(cards: Sequence[Card]) -> Kind | None:
    """五花牛 or 四炸 if the five cards make one (the larger if both), else None."""
    if all(c.rank >= 11 for c in cards):
        return Kind.FIVE_FLOWER
    if max(Counter(c.rank for c in cards).values()) >= 4:
        return Kind.FOUR_BOMB
    return None


def evaluate(cards: Sequence[Card], split: Split | None) -> Hand:
    """The result of ``cards`` as split by ``split`` (None: declared 没牛).

    Special hands count whatever the split ("此时无需有牛"); otherwise a split that is not a
    bull is 没牛.
    """
    if len(cards) != 5:
        raise ValueError("a bull hand has five cards")
    high = max(cards, key=lambda c: c.order)
    kind = special(cards)
    if kind == Kind.FOUR_BOMB:
        quad = Counter(c.rank for c in cards).most_common(1)[0][0]
        return Hand(kind, high, quad)
    if kind is None:
        kind = split.bull if split is not None else Kind.NO_BULL
    return Hand(kind, high)


def splits(cards: Sequence[Card]) -> list[Split]:
    """All ten 3 + 2 splits of the hand, in a fixed order."""
    ordered = _sorted(cards)
    return [Split.of(ordered, three) for three in combinations(ordered, 3)]


def bull_splits(cards: Sequence[Card]) -> list[Split]:
    """The splits that make a bull (distinct three-card groups)."""
    return [s for s in splits(cards) if s.is_bull]


def best_split(cards: Sequence[Card]) -> Split | None:
    """最佳拼法: the split giving the biggest result, or None if no split makes a bull."""
    best: Split | None = None
    for s in splits(cards):
        if s.is_bull and (best is None or s.bull > best.bull):
            best = s
    return best


def best_hand(cards: Sequence[Card]) -> Hand:
    """The result of the best split."""
    return evaluate(cards, best_split(cards))


__all__ = [
    "Hand",
    "Kind",
    "Split",
    "best_hand",
    "best_split",
    "bull_splits",
    "evaluate",
    "special",
    "splits",
    "value",
]
