"""记牌: the climbing family's rank-only card notation (百变双扣, 够级), several decks.

Cards are ranks, suits ignored: ``3456789TJQKA2`` then ``B`` (小王, small joker) and ``R``
(大王, big joker). A set of cards is written sorted from low to high (``3345R``). Parsing
forgives spaces, commas and ``+``, case, ``10``/``0`` for ``T``, ``BJ``/``RJ`` and
``小王``/``大王``, a suit letter after a rank (``3s3h``) and the picker's copy tags (``3#2``).

Internally a set of cards is a tuple of 15 counts, index 0 = rank 3 … 12 = rank 2,
13 = small joker, 14 = big joker: the shared card model's ``climb_counts`` (``engines.cards``),
which also shuffles and deals the physical cards (``deal_ranks``) and bounds each rank by
what the shoe holds (``limits``). Jokers are read by ``engines.cards.read_joker``.

>>> format_cards(parse_cards("10 j R 3#2 3", decks=2))
'33TJR'
>>> format_cards(parse_cards("大王 小王", decks=2))
'BR'
"""

from __future__ import annotations

import random
from collections.abc import Iterable

from engines.base import T
from engines.cards import (
    BIG_JOKER,
    JOKER_STARTS,
    Card,
    Layout,
    Shoe,
    climb_index,
    read_joker,
)
from engines.cards import deal as deal_shoe
from engines.errors import IllegalActionError, NotationError

RANKS = "3456789TJQKA2BR"
"""Rank characters, weakest first; the index of a rank is its strength."""

TEN, ACE, TWO, SMALL, BIG, NRANKS = 7, 11, 12, 13, 14, 15

Counts = tuple[int, ...]
"""A multiset of cards: 15 counts, one per rank in ``RANKS`` order."""

EMPTY: Counts = (0,) * NRANKS
PASS = "pass"
PASS_WORDS = frozenset({"pass", "p", "不出", "不要", "要不起", "过", "過"})

_CHARS = {c: i for i, c in enumerate(RANKS)} | {c.lower(): i for i, c in enumerate(RANKS)}
_ALIASES: tuple[tuple[str, int], ...] = (("10", TEN),)  # jokers: engines.cards.read_joker
_SEPARATORS = frozenset(" \t,，、+＋")
_SUITS = frozenset("shcdSHCD")
HELP = "cards are 3-9, T (or 10), J, Q, K, A, 2, B (small joker), R (big joker)"

CLIMB_TEXTS: dict[str, dict[str, str]] = {
    "zh-CN": {
        "err.climb.not_card": "看不懂“{typed}”：“{char}”不是牌（可用 3-9、T 或 10、J、Q、K、A、2、"
        "B 小王、R 大王）。",
        "err.climb.no_cards": "看不懂“{typed}”：没有写牌（不出请写 pass）。",
        "err.climb.too_many": "看不懂“{typed}”：{card} 写了 {count} 张，{decks} 副牌只有 {limit} 张。",
        "err.climb.not_held": "你手里缺 {missing}，出不了 {cards}。",
    },
    "en-US": {
        "err.climb.not_card": "Cannot read '{typed}': '{char}' is not a card ({help}).",
        "err.climb.no_cards": "Cannot read '{typed}': no cards given (write pass to pass).",
        "err.climb.too_many": "Cannot read '{typed}': {count}× {card}, but {decks} decks hold "
        "only {limit}.",
        "err.climb.not_held": "You are missing {missing}, so you cannot play {cards}.",
    },
}
"""Texts of the card-reading errors, merged into each climbing game's catalogue."""

CLIMB_TEXTS["zh-TW"] = {
    "err.climb.not_card": "看不懂「{typed}」：「{char}」不是牌（可用 3-9、T 或 10、J、Q、K、A、2、B 小王、R 大王）。",
    "err.climb.no_cards": "看不懂「{typed}」：沒有寫牌（不出請寫 pass）。",
    "err.climb.too_many": "看不懂「{typed}」：{card} 寫了 {count} 張，{decks} 副牌只有 {limit} 張。",
    "err.climb.not_held": "你手裡缺 {missing}，出不了 {cards}。",
}
"""繁體中文 (Taiwan): kept complete by ``python -m bot.i18n.tw --fill``."""


def limits(decks: int) -> Counts:
    """How many of each rank ``decks`` decks hold (4 per deck, 1 per deck of each joker): the
    shoe's ``climb_limits``.

    >>> limits(4)[TWO], limits(4)[BIG]
    (16, 4)
    """
    return Shoe(decks, jokers=True).climb_limits


def is_pass(text: str) -> bool:
    """True for ``pass`` and its aliases (``不出``, ``过`` …)."""
    return text.strip().lower() in PASS_WORDS


def parse_cards(text: str, decks: int) -> Counts:
    """Read a set of cards; the counts tuple.

    Raises NotationError naming the first unreadable character, an empty text, or a rank
    given more often than ``decks`` decks hold.

    >>> parse_cards("3 3 B", decks=2)[:2], parse_cards("3 3 B", decks=2)[SMALL]
    ((2, 0), 1)
    """
    counts = [0] * NRANKS
    i, n = 0, len(text)
    low = text.lower()
    while i < n:
        ch = low[i]
        if ch in _SEPARATORS:
            i += 1
            continue
        if ch == "#":  # the picker's copy tag: 3#2 is the second 3
            i += 1
            while i < n and text[i].isdigit():
                i += 1
            continue
        joker = read_joker(text, i) if ch in JOKER_STARTS else None
        if joker is not None:
            counts[BIG if joker[0] == BIG_JOKER else SMALL] += 1
            i = joker[1]
            continue
        for alias, r in _ALIASES:
            if low.startswith(alias, i):
                counts[r] += 1
                i += len(alias)
                break
        else:
            if ch == "0":
                r = TEN
            elif ch in _CHARS:
                r = _CHARS[ch]
            else:
                raise NotationError(text, f"{text[i]!r} is not a card; {HELP}",
                                    text=T("err.climb.not_card", typed=text, char=text[i],
                                           help=HELP))
            counts[r] += 1
            i += 1
            if r < SMALL and i < n and text[i] in _SUITS:
                i += 1
    if not any(counts):
        raise NotationError(text, f"no cards given; {HELP}, or 'pass'",
                            text=T("err.climb.no_cards", typed=text))
    top = limits(decks)
    for r, c in enumerate(counts):
        if c > top[r]:
            raise NotationError(
                text, f"{c}× {RANKS[r]}: {decks} decks hold only {top[r]}",
                text=T("err.climb.too_many", typed=text, count=c, card=RANKS[r], decks=decks,
                       limit=top[r]))
    return tuple(counts)


def format_cards(counts: Counts) -> str:
    """The canonical text of a set of cards, from 3 up to the big joker.

    >>> format_cards((1,) * 15)
    '3456789TJQKA2BR'
    """
    return "".join(RANKS[r] * c for r, c in enumerate(counts) if c)


def contains(hand: Counts, cards: Counts) -> bool:
    """True when ``hand`` holds every card of ``cards``."""
    return all(h >= c for h, c in zip(hand, cards))


def lacking(hand: Counts, cards: Counts) -> Counts:
    """The cards of ``cards`` that ``hand`` does not hold (per rank, what is short).

    >>> format_cards(lacking(parse_cards("3 4 6 9", 2), parse_cards("3456 99", 2)))
    '59'
    """
    return tuple(max(c - h, 0) for h, c in zip(hand, cards))


def not_held(seat: int, action: str, hand: Counts, cards: Counts) -> IllegalActionError:
    """The refusal of a play whose cards ``hand`` does not hold: names the missing cards
    (``5`` of ``3456``), not the whole play."""
    short = format_cards(lacking(hand, cards))
    return IllegalActionError(
        f"you do not hold {short} of {format_cards(cards)}", seat=seat, action=action,
        text=T("err.climb.not_held", missing=short, cards=format_cards(cards)))


def minus(hand: Counts, cards: Counts) -> Counts:
    """``hand`` without ``cards`` (which it must hold)."""
    return tuple(h - c for h, c in zip(hand, cards))


def plus(a: Counts, b: Counts) -> Counts:
    """The union of two sets of cards."""
    return tuple(x + y for x, y in zip(a, b))


def deal_ranks(
    rng: random.Random, decks: int, seats: int, each: int
) -> list[tuple[tuple[int, int], ...]]:
    """发牌: ``decks`` decks with jokers shuffled by ``rng`` through the shared card model, laid
    out as the climbing games always have (``Layout.RANK_DECK_SUIT``), ``each`` cards to each
    seat in blocks; each seat's cards in the order dealt as (rank index, suit 0..3 for
    ``s h c d``; 0 for a joker) — ``rank_suit`` of each physical card.

    >>> hands = [counts(h) for h in deal_ranks(random.Random(2), 2, 4, 27)]
    >>> [sum(h) for h in hands], plus(plus(*hands[:2]), plus(*hands[2:])) == limits(2)
    ([27, 27, 27, 27], True)
    """
    shoe = Shoe(decks, jokers=True)
    dealt = deal_shoe(rng, shoe, Layout.RANK_DECK_SUIT, seats, each, in_turn=False, form=rank_suit)
    return list(dealt.hands)


def rank_suit(card: Card) -> tuple[int, int]:
    """A physical card as (rank index, suit 0..3 for ``s h c d``; 0 for a joker).

    >>> rank_suit(Card.parse("Ac")), rank_suit(Card(15))
    ((11, 2), (14, 0))
    """
    return climb_index(card), 0 if card.suit is None else card.suit.index


def counts(cards: Iterable[tuple[int, int]]) -> Counts:
    """The rank counts of dealt cards (``deal_ranks``)."""
    out = [0] * NRANKS
    for r, _ in cards:
        out[r] += 1
    return tuple(out)


def picker_tokens(hand: Counts) -> tuple[tuple[str, ...], tuple[str, ...], tuple[int, ...]]:
    """The hand as unique picker tokens (``3``, ``3#2`` …), their labels, and menu sizes:
    whole ranks per menu where they fit, each menu at most 25 (``Picker.groups``).

    >>> toks, labels, groups = picker_tokens(parse_cards("3"*8 + "4"*8 + "5"*8 + "6"*3, 2))
    >>> groups, toks[1]
    ((24, 3), '3#2')
    """
    tokens: list[str] = []
    labels: list[str] = []
    groups: list[int] = []
    size = 0
    for r, c in enumerate(hand):
        if not c:
            continue
        if size and size + c > 25:
            groups.append(size)
            size = 0
        for i in range(c):
            tokens.append(RANKS[r] if i == 0 else f"{RANKS[r]}#{i + 1}")
            labels.append(RANKS[r])
        size += c
        while size > 25:  # a rank with more than 25 copies cannot happen with ≤ 4 decks
            groups.append(25)
            size -= 25
    if size:
        groups.append(size)
    return tuple(tokens), tuple(labels), tuple(groups)
