"""扑克牌: the one card model of every card game — the physical card, the shoe, the deal.

A **card** (``Card``) is a suited card A..K (``rank`` 1..13 and a ``Suit``) or a joker:
小王 ``SMALL_JOKER`` (rank 14) and 大王 ``BIG_JOKER`` (rank 15), with no suit. ``copy`` tells
the copies of one face apart in a shoe of several decks (0 for the first deck), so every
physical card is distinct; notation shows the face only.

A **shoe** (``Shoe(decks, jokers)``) is ``decks`` decks of 52, with one 小王 and one 大王 per deck
when ``jokers``. It knows how many copies of each face it holds (``copies``) and, in the
rank-count form of the climbing family, how many of each rank (``climb_limits``): a rule
"at most N of a rank" is always the shoe's, never a constant. ``deck(decks=1, jokers=False)``
lists a shoe in canonical order (the 52-card deck K♠ first, A♦ last, as it always was).

**Dealing**: ``deal(rng, shoe, layout, seats, each, ...)`` lays the shoe out in a ``Layout``,
shuffles it with a ``random.Random`` (never the global one), optionally takes cards out
unseen (二人斗地主), deals ``each`` cards to each seat one at a time in turn or in blocks, and
leaves the rest as the kitty (底牌). The shuffle moves positions only, so the layout decides
which card a seed puts where: each family keeps the layout it has always used, and a seed
deals the same cards forever (saved tables, replays and ``/verify`` re-deal from seeds).

**Family forms**: 斗地主 and the climbing games (双扣, 够级) count cards by rank
(``CLIMB_RANKS`` ``3456789TJQKA2BR``: ``climb_index``, ``climb_counts``); 升级 and 打滚子
number the 54 faces (``trick_id``: ``suit * 13 + rank - 2`` with A = 14, 52 小王, 53 大王;
``from_trick_id``); 斗牛 and 吃火锅 use ``Card`` itself. Each family keeps its own notation.

Notation: ``<rank><suit>``, ranks ``A23456789TJQK`` (A low, K high), suits ``s h c d``
(♠ 黑桃, ♥ 红桃, ♣ 梅花, ♦ 方片, strongest first); jokers ``B`` (小王) and ``R`` (大王), also
``BJ``/``RJ`` and ``小王``/``大王``, read by ``read_joker`` for every family. A list of cards
is written with single spaces, sorted canonically: 大王, 小王, then rank high to low, then
suit strong to weak.

>>> Card.parse("10h")
Card(rank=10, suit=<Suit.HEARTS: 'h'>)
>>> str(Card.parse("as"))
'As'
>>> format_cards(parse_cards("9h, as Td"))
'Td 9h As'
>>> parse_cards("♠A 10d")
(Card(rank=1, suit=<Suit.SPADES: 's'>), Card(rank=10, suit=<Suit.DIAMONDS: 'd'>))
>>> parse_ranks("KQ10")
(13, 12, 10)
>>> format_cards(parse_cards("小王 2s rj", jokers=True))
'R B 2s'
>>> Shoe(2, jokers=True).size, Shoe(2, jokers=True).climb_limits[CLIMB_RANKS.index("A")]
(108, 8)

The card games' actions also carry amounts (下注 10, 添菜 1,000): ``parse_amount`` reads them
and bounds them where they enter (``MAX_AMOUNT``).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from enum import Enum
from functools import lru_cache
from typing import Any, Generic, TypeVar, overload

from engines.base import T
from engines.errors import NotationError

RANKS = "A23456789TJQK"
"""Rank characters in order; a rank's number is its position + 1 (A = 1 ... K = 13)."""

CARD_TEXTS: dict[str, dict[str, str]] = {
    "zh-CN": {
        "err.cards.one_card": "看不懂“{typed}”：这里只能写一张牌，例如 As。",
        "err.cards.not_rank": "看不懂“{typed}”：“{char}”不是点数"
        "（可用 A23456789TJQK，10 也可写 T）。",
        "err.cards.suit_needs_rank": "看不懂“{typed}”：花色后面要跟点数，例如 ♠A。",
        "err.cards.needs_suit": "看不懂“{typed}”：{rank} 缺少花色"
        "（s 黑桃、h 红桃、c 梅花、d 方片）。",
        "err.cards.twice": "看不懂“{typed}”：{card} 写了两次。",
        "err.cards.amount": "看不懂“{typed}”：数目太大了，最多 {max}。",
    },
    "en-US": {
        "err.cards.one_card": "Cannot read '{typed}': expected exactly one card, e.g. As.",
        "err.cards.not_rank": "Cannot read '{typed}': '{char}' is not a rank (use A23456789TJQK).",
        "err.cards.suit_needs_rank": "Cannot read '{typed}': a suit needs a rank, e.g. ♠A.",
        "err.cards.needs_suit": "Cannot read '{typed}': {rank} needs a suit (s h c d).",
        "err.cards.twice": "Cannot read '{typed}': {card} appears twice.",
        "err.cards.amount": "Cannot read '{typed}': the amount is too large (at most {max}).",
    },
}
"""Texts of the card-reading errors; merged into the catalogue of every game using cards."""

CARD_TEXTS["zh-TW"] = {
    "err.cards.one_card": "看不懂「{typed}」：這裡只能寫一張牌，例如 As。",
    "err.cards.not_rank": "看不懂「{typed}」：「{char}」不是點數（可用 A23456789TJQK，10 也可寫 T）。",
    "err.cards.suit_needs_rank": "看不懂「{typed}」：花色後面要跟點數，例如 ♠A。",
    "err.cards.needs_suit": "看不懂「{typed}」：{rank} 缺少花色（s 黑桃、h 紅桃、c 梅花、d 方片）。",
    "err.cards.twice": "看不懂「{typed}」：{card} 寫了兩次。",
    "err.cards.amount": "看不懂「{typed}」：數目太大了，最多 {max}。",
}
"""繁體中文 (Taiwan): kept complete by ``python -m bot.i18n.tw --fill``."""

MAX_AMOUNT = 10**12
"""The largest amount (stake, bet, option) a card game reads: far above any real stake, far
below what settlement can hold (2^63 beans) even times a room coefficient."""

ECHO = 40
"""How many characters of a player's input an amount error repeats."""

_RANK_ALIASES = {"1": 1, "0": 10}
_SEPARATORS = set(" \t\n,;|/+、，；")


class Suit(Enum):
    """花色, strongest first: 黑桃 ♠ > 红桃 ♥ > 梅花 ♣ > 方片 ♦."""

    SPADES = "s"
    HEARTS = "h"
    CLUBS = "c"
    DIAMONDS = "d"

    @property
    def strength(self) -> int:
        """3 for ♠ down to 0 for ♦ (the seeds' order 黑桃、红桃、梅花、方片)."""
        return _SUIT_STRENGTH[self]

    @property
    def index(self) -> int:
        """0 for ♠ up to 3 for ♦: the suit's place in ``s h c d`` (升级's ids, layouts)."""
        return 3 - _SUIT_STRENGTH[self]


_SUIT_STRENGTH = {Suit.SPADES: 3, Suit.HEARTS: 2, Suit.CLUBS: 1, Suit.DIAMONDS: 0}
_SUIT_WORDS = {
    "s": Suit.SPADES,
    "h": Suit.HEARTS,
    "c": Suit.CLUBS,
    "d": Suit.DIAMONDS,
    "♠": Suit.SPADES,
    "♤": Suit.SPADES,
    "♥": Suit.HEARTS,
    "♡": Suit.HEARTS,
    "♣": Suit.CLUBS,
    "♧": Suit.CLUBS,
    "♦": Suit.DIAMONDS,
    "♢": Suit.DIAMONDS,
    "黑桃": Suit.SPADES,
    "红桃": Suit.HEARTS,
    "紅桃": Suit.HEARTS,
    "梅花": Suit.CLUBS,
    "草花": Suit.CLUBS,
    "方片": Suit.DIAMONDS,
    "方块": Suit.DIAMONDS,
    "方塊": Suit.DIAMONDS,
}
# Symbols and Chinese names may come before the rank ("♠A", "黑桃A"); letters only after it.
_PREFIX_SUITS = sorted((w for w in _SUIT_WORDS if not w.isascii()), key=len, reverse=True)


SMALL_JOKER = 14
"""小王 (small joker, ``B``): the rank number of the small joker."""
BIG_JOKER = 15
"""大王 (big joker, ``R``): the rank number of the big joker."""
JOKER_CHARS = {SMALL_JOKER: "B", BIG_JOKER: "R"}
"""The notation letter of each joker."""
MAX_DECKS = 8
"""The most decks a shoe holds (够级 plays with 4; more is not a card game of the hall)."""

_JOKER_PAIRS = {"小王": SMALL_JOKER, "大王": BIG_JOKER, "bj": SMALL_JOKER, "rj": BIG_JOKER}
_JOKER_LETTERS = {"b": SMALL_JOKER, "B": SMALL_JOKER, "r": BIG_JOKER, "R": BIG_JOKER}
JOKER_STARTS = frozenset(w[0] for w in _JOKER_PAIRS) | frozenset(_JOKER_LETTERS)
"""First characters of every joker spelling (a quick test before ``read_joker``)."""


def read_joker(text: str, i: int) -> tuple[int, int] | None:
    """The joker spelled at ``text[i:]`` — ``B``/``R``, ``BJ``/``RJ`` (any case), ``小王``/``大王``
    — as (``SMALL_JOKER`` or ``BIG_JOKER``, the index after it); None if none is. The one
    reader of joker notation for every family; ``BJ`` is the small joker, not a joker and a J.

    >>> read_joker("3BJ", 1), read_joker("大王", 0), read_joker("rx", 0), read_joker("x", 0)
    ((14, 3), (15, 2), (15, 1), None)
    """
    ch = text[i]
    if ch not in JOKER_STARTS:
        return None
    pair = _JOKER_PAIRS.get(text[i : i + 2].lower())
    if pair is not None:
        return pair, i + 2
    letter = _JOKER_LETTERS.get(ch)
    return None if letter is None else (letter, i + 1)


def rank_char(rank: int) -> str:
    """The notation character of rank 1..13 (``T`` for 10), ``B``/``R`` for the jokers."""
    return RANKS[rank - 1] if rank <= 13 else JOKER_CHARS[rank]


@dataclass(frozen=True)
class Card:
    """一张牌: ``rank`` 1 (A) .. 13 (K) and ``suit``, or a joker (``rank`` ``SMALL_JOKER`` 小王
    or ``BIG_JOKER`` 大王, ``suit`` None); ``copy``: which deck of the shoe it comes from.

    >>> Card(14), str(Card(15)), Card(1, Suit.SPADES, 1) == Card(1, Suit.SPADES)
    (Card(rank=14, suit=None), 'R', False)
    """

    rank: int
    suit: Suit | None = None
    copy: int = 0

    def __post_init__(self) -> None:
        if not 1 <= self.rank <= BIG_JOKER:
            raise ValueError(f"rank must be 1..13 or a joker (14, 15), not {self.rank}")
        if (self.suit is None) != (self.rank > 13):
            raise ValueError(f"rank {self.rank} {'takes no' if self.rank > 13 else 'needs a'} suit")
        if not 0 <= self.copy < MAX_DECKS:
            raise ValueError(f"copy must be 0..{MAX_DECKS - 1}, not {self.copy}")

    def __repr__(self) -> str:
        tail = f", copy={self.copy}" if self.copy else ""
        return f"Card(rank={self.rank}, suit={self.suit!r}{tail})"

    def __str__(self) -> str:
        if self.suit is None:
            return JOKER_CHARS[self.rank]
        return RANKS[self.rank - 1] + self.suit.value

    @property
    def is_joker(self) -> bool:
        """True for 小王 and 大王."""
        return self.suit is None

    @property
    def face(self) -> Card:
        """The card as notation sees it: the same rank and suit from the first deck."""
        return self if not self.copy else Card(self.rank, self.suit)

    @property
    def order(self) -> tuple[int, int]:
        """Sort key: rank (A low, K high, then 小王, 大王), then suit strength (♠ highest)."""
        return (self.rank, -1 if self.suit is None else self.suit.strength)

    @classmethod
    def parse(cls, text: str, *, jokers: bool = False) -> Card:
        """One card: ``As``, ``td``, ``10h``, ``♠A``, ``黑桃A`` (with ``jokers``: ``B``, ``大王`` …).

        Raises NotationError if ``text`` is not exactly one card.
        """
        cards = parse_cards(text, jokers=jokers)
        if len(cards) != 1:
            raise NotationError(
                text, "expected exactly one card", text=T("err.cards.one_card", typed=text)
            )
        return cards[0]


CLIMB_RANKS = "3456789TJQKA2BR"
"""斗地主 and the climbing games (双扣, 够级, 打滚子's counts): ranks weakest first, 3 … A, 2,
小王, 大王; a card's index here is its strength (``climb_index``)."""
_CLIMB = (-1, 11, 12, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 13, 14)  # by Card.rank
_SUIT_LIST = tuple(Suit)


def climb_index(card: Card) -> int:
    """The card's rank in ``CLIMB_RANKS`` order: 0 for a 3 … 11 for A, 12 for 2, 13 小王, 14 大王.

    >>> [climb_index(Card.parse(t, jokers=True)) for t in ("3s", "Ah", "2d", "B", "R")]
    [0, 11, 12, 13, 14]
    """
    return _CLIMB[card.rank]


def climb_counts(cards: Iterable[Card]) -> tuple[int, ...]:
    """The rank counts (15, ``CLIMB_RANKS`` order) of some cards: the climbing family's hand.

    >>> climb_counts(parse_cards("3s 3h B", jokers=True))
    (2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0)
    """
    counts = [0] * len(CLIMB_RANKS)
    for card in cards:
        counts[_CLIMB[card.rank]] += 1
    return tuple(counts)


TRICK_IDS = 54
"""How many faces the trick-taking family (升级, 打滚子) numbers: 52 suited and two jokers."""


def trick_id(card: Card) -> int:
    """升级's number of a face: ``suit * 13 + rank - 2`` (suits ``s h c d`` = 0..3, A = 14),
    52 for 小王, 53 for 大王.

    >>> [trick_id(Card.parse(t, jokers=True)) for t in ("2s", "As", "2h", "Ad", "B", "R")]
    [0, 12, 13, 51, 52, 53]
    """
    if card.suit is None:
        return 52 if card.rank == SMALL_JOKER else 53
    rank = 14 if card.rank == 1 else card.rank
    return card.suit.index * 13 + rank - 2


def from_trick_id(cid: int, copy: int = 0) -> Card:
    """The card of 升级's number ``cid`` (0..53), from deck ``copy``.

    >>> [str(from_trick_id(i)) for i in (0, 12, 51, 52, 53)]
    ['2s', 'As', 'Ad', 'B', 'R']
    """
    if not 0 <= cid < TRICK_IDS:
        raise ValueError(f"a trick id is 0..53, not {cid}")
    if cid >= 52:
        return Card(SMALL_JOKER if cid == 52 else BIG_JOKER, None, copy)
    rank = cid % 13 + 2
    return Card(1 if rank == 14 else rank, _SUIT_LIST[cid // 13], copy)


class Layout(Enum):
    """洗牌前的排列: the order a shoe is laid out in before the shuffle.

    ``random.Random.shuffle`` moves positions and draws the same numbers for any list of a
    given length, so the layout alone decides which card a seed deals where. Each family keeps
    the layout it has always used (pinned by the golden deals in the tests):

    - ``FACES``: canonical, ``deck``'s order: 大王, 小王, rank K down to A, suits ♠ ♥ ♣ ♦, then
      deck by deck for each face (斗牛, 牛牛, 吃火锅);
    - ``RANK_DECK_SUIT``: ``CLIMB_RANKS`` order 3 … 2, 小王, 大王; within a rank deck by deck,
      suits ♠ ♥ ♣ ♦ within a deck (双扣, 够级);
    - ``RANK_SUIT_DECK``: the same ranks; within a rank suit by suit, deck by deck within a
      suit, and each joker deck by deck (五人斗地主);
    - ``RANKS_THEN_JOKERS``: the suited cards as ``RANK_DECK_SUIT``, then the jokers deck by
      deck, 小王 before 大王 in each (斗地主, 二人, 四人, 癞子, 麻辣 …);
    - ``DECK_BY_DECK``: deck by deck, each in ``trick_id`` order (升级, 打滚子).
    """

    FACES = "faces"
    RANK_DECK_SUIT = "rank_deck_suit"
    RANK_SUIT_DECK = "rank_suit_deck"
    RANKS_THEN_JOKERS = "ranks_then_jokers"
    DECK_BY_DECK = "deck_by_deck"

    def key(self, card: Card) -> tuple[int, ...]:
        """The sort key of ``card`` in this layout (ascending)."""
        suit = 0 if card.suit is None else card.suit.index
        rank = _CLIMB[card.rank]
        if self is Layout.FACES:
            return (-card.order[0], -card.order[1], card.copy)
        if self is Layout.RANK_DECK_SUIT:
            return (rank, card.copy, suit)
        if self is Layout.RANK_SUIT_DECK:
            return (rank, suit, card.copy)
        if self is Layout.RANKS_THEN_JOKERS:
            return (0, rank, card.copy, suit) if card.suit else (1, card.copy, rank, 0)
        return (card.copy, trick_id(card))


@dataclass(frozen=True)
class Shoe:
    """一副或几副牌: ``decks`` decks of 52 suited cards, with one 小王 and one 大王 per deck
    when ``jokers``.

    >>> Shoe().size, Shoe(2, jokers=True).copies(Card(15)), Shoe(2).copies(Card(15))
    (52, 2, 0)
    >>> Shoe(4, jokers=True).climb_limits
    (16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 4, 4)
    """

    decks: int = 1
    jokers: bool = False

    def __post_init__(self) -> None:
        if isinstance(self.decks, bool) or not 1 <= self.decks <= MAX_DECKS:
            raise ValueError(f"a shoe holds 1..{MAX_DECKS} decks, not {self.decks!r}")

    @property
    def size(self) -> int:
        """How many cards the shoe holds."""
        return self.decks * (54 if self.jokers else 52)

    def copies(self, card: Card) -> int:
        """How many cards of ``card``'s face the shoe holds (0: none, e.g. a joker without
        jokers)."""
        return 0 if card.is_joker and not self.jokers else self.decks

    @property
    def climb_limits(self) -> tuple[int, ...]:
        """How many of each rank the shoe holds, in ``CLIMB_RANKS`` order (4 per deck of a
        suited rank, 1 per deck of each joker)."""
        joker = self.decks if self.jokers else 0
        return (4 * self.decks,) * 13 + (joker, joker)

    @property
    def trick_limits(self) -> tuple[int, ...]:
        """How many of each face the shoe holds, by ``trick_id``."""
        joker = self.decks if self.jokers else 0
        return (self.decks,) * 52 + (joker, joker)

    def cards(self, layout: Layout = Layout.FACES) -> tuple[Card, ...]:
        """Every card of the shoe, laid out in ``layout``."""
        return _laid_out(self.decks, self.jokers, layout)


@lru_cache(maxsize=32)
def _laid_out(decks: int, jokers: bool, layout: Layout) -> tuple[Card, ...]:
    faces = [
        Card(rank, suit, copy) for rank in range(1, 14) for suit in Suit for copy in range(decks)
    ]
    if jokers:
        faces += [
            Card(rank, None, copy) for rank in (SMALL_JOKER, BIG_JOKER) for copy in range(decks)
        ]
    return tuple(sorted(faces, key=layout.key))


@lru_cache(maxsize=64)
def _laid_out_as(shoe: Shoe, layout: Layout, form: Callable[[Card], Any]) -> tuple[Any, ...]:
    return tuple(map(form, shoe.cards(layout)))


def deck(decks: int = 1, jokers: bool = False) -> list[Card]:
    """Every card of ``decks`` decks (with ``jokers``: 小王 and 大王 in each), in canonical
    order: 大王, 小王, K♠ … A♦, the copies of a face together. One deck without jokers is
    the 52 cards K♠ first, A♦ last."""
    return list(Shoe(decks, jokers).cards(Layout.FACES))


def shuffled(rng: random.Random, shoe: Shoe = Shoe(), layout: Layout = Layout.FACES) -> list[Card]:
    """The cards of ``shoe`` (default: one deck of 52) laid out in ``layout`` and shuffled by
    ``rng`` (never the global random)."""
    cards = list(shoe.cards(layout))
    rng.shuffle(cards)
    return cards


C = TypeVar("C")


@dataclass(frozen=True)
class Deal(Generic[C]):
    """发牌的结果: ``hands[s]`` is seat ``s``'s cards in the order dealt; ``kitty`` (底牌) the
    cards left after the hands, in order; ``removed`` the cards taken out unseen first. The
    cards are ``Card``s, or a family's form of them (``deal``'s ``form``)."""

    hands: tuple[tuple[C, ...], ...]
    kitty: tuple[C, ...]
    removed: tuple[C, ...] = ()


@overload
def deal(
    rng: random.Random,
    shoe: Shoe,
    layout: Layout,
    seats: int,
    each: int,
    *,
    removed: int = 0,
    in_turn: bool = True,
    form: None = None,
) -> Deal[Card]: ...
@overload
def deal(
    rng: random.Random,
    shoe: Shoe,
    layout: Layout,
    seats: int,
    each: int,
    *,
    removed: int = 0,
    in_turn: bool = True,
    form: Callable[[Card], C],
) -> Deal[C]: ...
def deal(
    rng: random.Random,
    shoe: Shoe,
    layout: Layout,
    seats: int,
    each: int,
    *,
    removed: int = 0,
    in_turn: bool = True,
    form: Callable[[Card], Any] | None = None,
) -> Deal[Any]:
    """发牌: shuffle ``shoe`` laid out in ``layout`` with ``rng``, take the first ``removed``
    cards out, then deal ``each`` cards to each of ``seats`` seats — one at a time in turn
    from seat 0 when ``in_turn`` (seat s gets cards s, s + seats, …), else in blocks (seat s
    gets the s-th run of ``each``); the rest is the kitty.

    ``form`` (a module-level function such as ``climb_index`` or ``trick_id``): deal each card
    in that family form instead of as a ``Card``. The shoe is converted once and cached, and
    the shuffle moves the same positions either way, so the deal is the same cards.

    >>> d = deal(random.Random(1), Shoe(jokers=True), Layout.RANKS_THEN_JOKERS, 3, 17)
    >>> [len(h) for h in d.hands], len(d.kitty), len({*d.hands[0], *d.hands[1], *d.kitty})
    ([17, 17, 17], 3, 37)
    >>> f = deal(random.Random(1), Shoe(jokers=True), Layout.RANKS_THEN_JOKERS, 3, 17,
    ...          form=climb_index)
    >>> f.hands[2] == tuple(map(climb_index, d.hands[2]))
    True
    """
    if seats < 1 or each < 0 or removed < 0 or removed + seats * each > shoe.size:
        raise ValueError(f"cannot deal {seats}×{each} (+{removed} removed) from {shoe.size} cards")
    cards = list(shoe.cards(layout) if form is None else _laid_out_as(shoe, layout, form))
    rng.shuffle(cards)
    out, rest = (cards[:removed], cards[removed:]) if removed else ((), cards)
    dealt = seats * each
    if in_turn:
        hands = tuple(tuple(rest[s:dealt:seats]) for s in range(seats))
    else:
        hands = tuple(tuple(rest[s * each : (s + 1) * each]) for s in range(seats))
    return Deal(hands, tuple(rest[dealt:]), tuple(out))


def sort_cards(cards: Iterable[Card]) -> list[Card]:
    """Canonical order: 大王, 小王, rank high to low, then suit ♠ ♥ ♣ ♦."""
    return sorted(cards, key=lambda c: c.order, reverse=True)


def format_cards(cards: Iterable[Card], sep: str = " ") -> str:
    """Cards in canonical order and notation, e.g. ``"Ks Qd 5h"`` (``sep`` between cards)."""
    return sep.join(str(c) for c in sort_cards(cards))


def _read_rank(text: str, i: int, whole: str) -> tuple[int, int]:
    ch = text[i].upper()
    if ch == "1" and i + 1 < len(text) and text[i + 1] == "0":
        return 10, i + 2
    if ch in RANKS:
        return RANKS.index(ch) + 1, i + 1
    if ch in _RANK_ALIASES:
        return _RANK_ALIASES[ch], i + 1
    raise NotationError(
        whole,
        f"{text[i]!r} is not a rank (use A23456789TJQK)",
        text=T("err.cards.not_rank", typed=whole, char=text[i]),
    )


def _read_prefix_suit(text: str, i: int) -> tuple[Suit | None, int]:
    for word in _PREFIX_SUITS:
        if text.startswith(word, i):
            return _SUIT_WORDS[word], i + len(word)
    return None, i


def parse_cards(text: str, *, unique: bool = True, jokers: bool = False) -> tuple[Card, ...]:
    """Cards in the order typed; forgiving of spaces, commas, case, ``10`` and suit symbols.

    ``unique``: reject a card typed twice; ``jokers``: read 小王 and 大王 too (``B``, ``RJ``,
    ``大王`` …; see ``read_joker``). Raises NotationError.

    >>> format_cards(parse_cards("KsQD 5h"))
    'Ks Qd 5h'
    """
    cards: list[Card] = []
    i, n = 0, len(text)
    while i < n:
        if text[i] in _SEPARATORS:
            i += 1
            continue
        joker = read_joker(text, i) if jokers else None
        if joker is not None:
            card = Card(joker[0])
            i = joker[1]
            if unique and card in cards:
                raise NotationError(
                    text,
                    f"{card} appears twice",
                    text=T("err.cards.twice", typed=text, card=str(card)),
                )
            cards.append(card)
            continue
        suit, i = _read_prefix_suit(text, i)
        if i >= n:
            raise NotationError(
                text, "a suit needs a rank", text=T("err.cards.suit_needs_rank", typed=text)
            )
        rank, i = _read_rank(text, i, text)
        if suit is None:
            if i < n and text[i].lower() in _SUIT_WORDS:
                suit, i = _SUIT_WORDS[text[i].lower()], i + 1
            else:
                suit, i = _read_prefix_suit(text, i)
            if suit is None:
                raise NotationError(
                    text,
                    f"{rank_char(rank)} needs a suit (s h c d)",
                    text=T("err.cards.needs_suit", typed=text, rank=rank_char(rank)),
                )
        card = Card(rank, suit)
        if unique and card in cards:
            raise NotationError(
                text, f"{card} appears twice", text=T("err.cards.twice", typed=text, card=str(card))
            )
        cards.append(card)
    return tuple(cards)


def parse_ranks(text: str) -> tuple[int, ...]:
    """Ranks only, e.g. ``"KQ5"`` or ``"10 J q"`` → (13, 12, 5) style numbers.

    Raises NotationError.
    """
    ranks: list[int] = []
    i, n = 0, len(text)
    while i < n:
        if text[i] in _SEPARATORS:
            i += 1
            continue
        rank, i = _read_rank(text, i, text)
        ranks.append(rank)
    return tuple(ranks)


def echo(text: str) -> str:
    """What an error message repeats of ``text``: at most ``ECHO`` characters, ``…`` at a cut.

    >>> echo("bet 12"), echo("bet " + "9" * 100)[-3:], len(echo("bet " + "9" * 100))
    ('bet 12', '99…', 40)
    """
    return text if len(text) <= ECHO else text[: ECHO - 1] + "…"


def parse_amount(digits: str, typed: str) -> int:
    """数目: a whole amount written with digits and ``,`` or ``_`` separators (``1,000``),
    at most ``MAX_AMOUNT``; ``typed`` is the whole action, for the message.

    Raises NotationError for anything larger (before converting, so a number of thousands
    of digits costs nothing and never reaches ``int``'s own limit).

    >>> parse_amount("1,000", "bet 1,000"), parse_amount("007", "bet 007")
    (1000, 7)
    """
    plain = digits.replace(",", "").replace("_", "").lstrip("0") or "0"
    width = len(str(MAX_AMOUNT))
    # Leading zeros and separators count too, so that no error repeats a huge input.
    if len(digits) > 2 * width or len(plain) > width or int(plain) > MAX_AMOUNT:
        shown = echo(typed)
        raise NotationError(
            shown,
            f"the amount is too large (at most {MAX_AMOUNT:,})",
            text=T("err.cards.amount", typed=shown, max=f"{MAX_AMOUNT:,}"),
        )
    return int(plain)
