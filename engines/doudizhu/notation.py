"""斗地主记法: the text form of cards, plays and table actions.

Cards are ranks, suits ignored: ``3456789TJQKA2`` then ``B`` (小王, small joker) and ``R``
(大王, big joker). A set of cards is written sorted from low to high: ``33344``, ``TJQKA``,
``BR`` (the rocket). ``pass`` is the play of no cards. Parsing forgives:

- spaces, commas and ``+`` between cards (``333+6``, ``3 3 3 4 4``);
- case (``tjqka``), ``10`` or ``0`` for ``T``;
- ``BJ``/``RJ``, ``小王``/``大王``, ``王炸``/``火箭`` for ``BR``;
- a suit letter ``s h c d`` after a rank (``3s3h``: suits do not matter in 斗地主);
- ``不出``/``要不起``/``过``/``p`` for ``pass``.

Internally a set of cards is a tuple of 15 counts, index 0 = rank 3 … 12 = rank 2,
13 = small joker, 14 = big joker: ``engines.cards.climb_counts`` of the physical cards. The
cards come from the shared card model: ``deal`` shuffles and deals a shoe of one or two decks,
``limits(decks)`` is how many of each rank the shoe holds (one deck: 4; 四人/五人: 8), and the
jokers' spellings are read by ``engines.cards.read_joker``.

>>> format_cards(parse_cards("10 J q K a 10"))
'TTJQKA'
>>> format_cards(parse_cards("大王小王"))
'BR'
"""

from __future__ import annotations

import random

from engines.base import T
from engines.cards import JOKER_STARTS, Card, Layout, Shoe, climb_index, read_joker
from engines.cards import SMALL_JOKER as CARD_SMALL_JOKER
from engines.cards import deal as deal_cards
from engines.errors import NotationError

RANKS = "3456789TJQKA2BR"
"""Rank characters in order, weakest first; the index of a rank is its strength."""

TEN = 7
SMALL_JOKER = 13
BIG_JOKER = 14
TWO = 12
ACE = 11
NRANKS = 15

Counts = tuple[int, ...]
"""A multiset of cards: 15 counts, one per rank in ``RANKS`` order."""

EMPTY: Counts = (0,) * NRANKS

PASS = "pass"
PASS_WORDS = frozenset({"pass", "p", "不出", "不要", "要不起", "过", "過"})

_LIMITS = Shoe(1, jokers=True).climb_limits
_CHARS = {c: i for i, c in enumerate(RANKS)} | {c.lower(): i for i, c in enumerate(RANKS)}
_SUITS = frozenset("shcdSHCD")
# Longest aliases first so "10" wins over "1", "BJ" over "B".
_ALIASES: tuple[tuple[str, tuple[int, ...]], ...] = (
    ("王炸", (SMALL_JOKER, BIG_JOKER)),
    ("火箭", (SMALL_JOKER, BIG_JOKER)),
    ("10", (TEN,)),
)  # (the jokers themselves are read by engines.cards.read_joker)
_SEPARATORS = frozenset(" \t,，、+＋")
_HELP = "cards are 3-9, T (or 10), J, Q, K, A, 2, B (small joker), R (big joker)"

# Canonical strings of n copies of a rank, for building plays quickly.
CH: tuple[tuple[str, ...], ...] = tuple(tuple(c * n for n in range(9)) for c in RANKS)
"""``CH[r][n]``: n copies of rank r (up to 8: two decks)."""


_ALIAS_STARTS = frozenset(a[0] for a, _ in _ALIASES)

# The packed form: a byte per rank, rank r in bits FIELD*r.. of an int (a rank-count vector
# the generator reads with a few integer operations): ``int.from_bytes`` of the counts.
FIELD = 8
"""Bits per rank in a packed vector: a byte, so 32 cards never carry into the next."""
_FIELD_MASK = (1 << FIELD) - 1
SHIFTS = tuple(FIELD * r for r in range(NRANKS))
"""Where each rank's field starts in a packed vector."""
POISON_BIT = FIELD * NRANKS
"""A 16th field, counting the bytes of a text that are no rank letter."""
WEIGHT = [1 << POISON_BIT] * 256  # any other byte (UTF-8 included) marks the text
for _r, _c in enumerate(RANKS):
    WEIGHT[ord(_c)] = 1 << (FIELD * _r)
ONES = sum(1 << s for s in SHIFTS)
"""1 in every rank's field."""
HIGH = ONES << (FIELD - 1)
"""The top bit of every rank's field."""
_TOP = (1 << (FIELD - 1)) - 1
OVER = sum((_TOP - limit) << (FIELD * r) for r, limit in enumerate(_LIMITS)) | (
    _TOP << POISON_BIT
)
"""Added to a text's sum of ``WEIGHT``, sets a top bit where a rank exceeds its deck limit or
where the text holds anything but rank letters (the 16th field)."""
REFUSED = HIGH | (1 << (POISON_BIT + FIELD - 1))
"""The top bits ``OVER`` may set: the fast reading of a text holds when none is set."""
J_FIELD = _FIELD_MASK << FIELD * RANKS.index("J")
JOKER_FIELDS = (_FIELD_MASK << FIELD * SMALL_JOKER) | (_FIELD_MASK << FIELD * BIG_JOKER)
"""A text holding a J and a joker may spell BJ or RJ (the jokers' aliases), which only the
forgiving reading reads right."""


def packed(text: str) -> int | None:
    """The packed counts of ``text`` when it is canonical rank letters only (in any order)
    and holds no rank more often than a deck; None otherwise (``parse_cards`` then reads it
    the forgiving way, or says what is wrong).

    >>> packed("33B") == 2 + (1 << FIELD * 13)
    True
    >>> packed("3 3") is None, packed("BJ") is None, packed("JB") is None
    (True, True, False)
    """
    raw = text.encode()
    if not 0 < len(raw) <= 32:
        return None
    p = sum(map(WEIGHT.__getitem__, raw))
    if (p + OVER) & REFUSED:  # not a rank letter, or too many of a rank
        return None
    if p & JOKER_FIELDS and p & J_FIELD and (b"BJ" in raw or b"RJ" in raw):
        return None  # (BJ and RJ are the joker aliases, not a joker and a J)
    return p


def parse_cards(text: str, decks: int = 1) -> Counts:
    """记牌: read a set of cards of ``decks`` decks (四人/五人斗地主: 2); the counts tuple.

    Raises NotationError naming the first unreadable character, or a rank given more often
    than the decks hold.

    >>> parse_cards("3 3 B")[:3], parse_cards("3 3 B")[13]
    ((2, 0, 0), 1)
    >>> format_cards(parse_cards("33333333 BB", decks=2))
    '33333333BB'
    """
    if decks != 1:
        return _parse_slow(text, limits(decks))
    p = packed(text)
    if p is not None:
        return unpack(p)
    return _parse_slow(text)


def pack(counts: Counts | list[int] | bytes) -> int:
    """The packed form of a counts vector (see ``packed``): its bytes read as one int."""
    return int.from_bytes(bytes(counts), "little")


def unpack(p: int) -> Counts:
    """The counts vector of a packed one."""
    return tuple(p.to_bytes(NRANKS, "little"))


def _parse_slow(text: str, limits: tuple[int, ...] = _LIMITS) -> Counts:
    counts = [0] * NRANKS
    i, n = 0, len(text)
    low = text.lower()
    while i < n:
        ch = low[i]
        if ch in _SEPARATORS:
            i += 1
            continue
        for alias, ranks in _ALIASES if ch in _ALIAS_STARTS else ():
            if low.startswith(alias, i):
                for r in ranks:
                    counts[r] += 1
                i += len(alias)
                break
        else:
            joker = read_joker(text, i) if ch in JOKER_STARTS else None
            if joker is not None:
                counts[SMALL_JOKER if joker[0] == CARD_SMALL_JOKER else BIG_JOKER] += 1
                i = joker[1]
                continue
            if ch == "0":
                r = TEN
            elif ch in _CHARS:
                r = _CHARS[ch]
            else:
                raise NotationError(
                    text,
                    f"{text[i]!r} is not a card; {_HELP}",
                    text=T("err.ddz.not_card", typed=text, char=text[i]),
                )
            counts[r] += 1
            i += 1
            # A suit letter right after a rank is ignored ("3s3h" = "33"); not after a joker.
            if r < SMALL_JOKER and i < n and text[i] in _SUITS:
                i += 1
    if not any(counts):
        raise NotationError(
            text, f"no cards given; {_HELP}, or 'pass'", text=T("err.ddz.no_cards", typed=text)
        )
    for r, c in enumerate(counts):
        if c > limits[r]:
            what = "joker" if r >= SMALL_JOKER else RANKS[r]
            name = (
                T("err.ddz.small_joker")
                if r == SMALL_JOKER
                else T("err.ddz.big_joker")
                if r == BIG_JOKER
                else RANKS[r]
            )
            raise NotationError(
                text,
                f"{c}× {what}: the deck has only {limits[r]} of each",
                text=T("err.ddz.too_many", typed=text, count=c, card=name, limit=limits[r]),
            )
    return tuple(counts)


def limits(decks: int) -> Counts:
    """How many of each rank ``decks`` decks with jokers hold (the shoe's, ``engines.cards``):
    4 per deck of a rank, 1 per deck of each joker.

    >>> limits(2)[0], limits(2)[SMALL_JOKER]
    (8, 2)
    """
    return Shoe(decks, jokers=True).climb_limits


def deal(
    rng: random.Random, decks: int, seats: int, each: int, removed: int = 0, kitty: int = 3
) -> tuple[list[list[int]], list[int]]:
    """发牌: shuffle ``decks`` decks with jokers from ``rng`` (the shared card model, laid out
    as 斗地主 always has: ``Layout.RANKS_THEN_JOKERS``), take ``removed`` cards out unseen,
    deal ``each`` to each seat one at a time; each seat's ranks in the order dealt, and the
    ``kitty`` (底牌) ranks.

    >>> hands, bottom = deal(random.Random(5), 1, 3, 17)
    >>> [len(h) for h in hands], len(bottom), sum(h.count(BIG_JOKER) for h in hands + [bottom])
    ([17, 17, 17], 3, 1)
    """
    hands, bottom = deal_suited(rng, decks, seats, each, removed, kitty)
    return [[r for r, _ in hand] for hand in hands], [r for r, _ in bottom]


Ranked = tuple[int, Card]
"""A physical card with its rank index (``RANKS`` order): how ``deal_suited`` deals."""


def ranked(card: Card) -> Ranked:
    """The card with its rank index in front (the form ``deal_suited`` deals in)."""
    return climb_index(card), card


def deal_suited(
    rng: random.Random, decks: int, seats: int, each: int, removed: int = 0, kitty: int = 3
) -> tuple[list[tuple[Ranked, ...]], tuple[Ranked, ...]]:
    """``deal`` with the physical cards: the same shuffle (same seed, same cards), each card
    as (rank index, ``Card``).

    >>> hands, bottom = deal_suited(random.Random(5), 1, 3, 17)
    >>> [r for r, _ in hands[0]] == deal(random.Random(5), 1, 3, 17)[0][0]
    True
    >>> sorted({str(c)[-1] for h in hands for _, c in h if not c.is_joker})
    ['c', 'd', 'h', 's']
    """
    shoe = Shoe(decks, jokers=True)
    dealt = deal_cards(
        rng, shoe, Layout.RANKS_THEN_JOKERS, seats, each, removed=removed, form=ranked
    )
    return list(dealt.hands), dealt.kitty[:kitty]


def format_cards(counts: Counts) -> str:
    """The canonical text of a set of cards: ranks sorted from 3 up to the big joker.

    >>> format_cards((1,) * 15)
    '3456789TJQKA2BR'
    """
    return "".join([CH[r][c] for r, c in enumerate(counts) if c])


def card_list(counts: Counts) -> list[str]:
    """The cards one by one, sorted (``["3", "3", "T", "B"]``)."""
    return [RANKS[r] for r, c in enumerate(counts) for _ in range(c)]


def is_pass(text: str) -> bool:
    """True if ``text`` is one of the spellings of pass (不出)."""
    return text.strip().lower() in PASS_WORDS


def label(rank: int) -> str:
    """A readable label of one card: ``10`` for T, ``B 小王``/``R 大王`` for the jokers."""
    if rank == TEN:
        return "10"
    if rank == SMALL_JOKER:
        return "B 小王"
    if rank == BIG_JOKER:
        return "R 大王"
    return RANKS[rank]


def count(counts: Counts) -> int:
    """Number of cards in a set."""
    return sum(counts)


def contains(hand: Counts | list[int], cards: Counts) -> bool:
    """True if every card of ``cards`` is in ``hand``."""
    return all(h >= c for h, c in zip(hand, cards))


def subtract(hand: Counts, cards: Counts) -> Counts:
    """``hand`` without ``cards`` (which must be contained in it)."""
    return tuple(h - c for h, c in zip(hand, cards))
