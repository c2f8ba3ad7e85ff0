"""牌: the trick family's cards (升级, 打滚子) with 1–3 decks, their notation, level names and the
trump order of one hand.

A thin layer over the shared card model (``engines.cards``): a card is its face's number
``trick_id`` — ``suit * 13 + rank - 2`` for suited cards (suits ``s h c d`` = 0..3, ranks
2..14 with A = 14), 52 for the small joker ``B`` (小王) and 53 for the big joker ``R`` (大王).
With several decks a hand holds up to three copies of an id; hands are ``list[int]`` counts.
The shuffle and deal are the shared ones (``deal_ids``), jokers are read by
``engines.cards.read_joker``.

Notation: suited cards as in ``engines.cards`` (``Ah``, ``Td``, ``10d``), jokers ``B``/``R``
(also ``BJ``/``RJ``, 小王/大王). A play is written with single spaces, canonical order: trump
first, strongest first, then suits ``s h c d``.

>>> format_ids(parse_ids("ah ah 10d B"))
'B Ah Ah Td'
>>> parse_ids("2s#2 2s")
[0, 0]
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from engines.base import T
from engines.cards import (
    BIG_JOKER,
    JOKER_STARTS,
    TRICK_IDS,
    Layout,
    Shoe,
    deal,
    from_trick_id,
    read_joker,
    trick_id,
)
from engines.errors import NotationError

SUITS = "shcd"
SMALL, BIG = 52, 53
NCARDS = TRICK_IDS
RANK_CHARS = "23456789TJQKA"
TRUMP = 4
"""The effective suit of every trump (主牌)."""

_SUIT_WORDS = {
    "♠": 0, "♤": 0, "黑桃": 0, "♥": 1, "♡": 1, "红桃": 1, "♣": 2, "♧": 2, "梅花": 2,
    "草花": 2, "♦": 3, "♢": 3, "方片": 3, "方块": 3,
}
_SEPARATORS = set(" \t\n,;|/+、，；")


def card_id(rank: int, suit: int) -> int:
    """The id of the suited card ``rank`` (2..14) of ``suit`` (0..3)."""
    return suit * 13 + rank - 2


def rank_of(cid: int) -> int:
    """2..14 for a suited card, 0 for a joker."""
    return cid % 13 + 2 if cid < SMALL else 0


def suit_of(cid: int) -> int:
    """0..3 for a suited card, 4 for a joker."""
    return cid // 13 if cid < SMALL else 4


_TEXTS = tuple(str(from_trick_id(cid)) for cid in range(NCARDS))


def card_text(cid: int) -> str:
    """Notation of one card: ``Ah``, ``Td``, ``B``, ``R`` (the shared model's)."""
    return _TEXTS[cid]


def deal_ids(rng: random.Random, decks: int, seats: int, each: int, *,
             in_turn: bool) -> tuple[list[list[int]], list[int]]:
    """发牌: ``decks`` decks with jokers shuffled by ``rng`` through the shared card model,
    laid out deck by deck in id order as these games always have (``Layout.DECK_BY_DECK``);
    ``each`` cards to each seat, one at a time in turn or in blocks (``in_turn``). Each seat's
    ids in the order dealt, and the kitty's (the rest).

    >>> hands, kitty = deal_ids(random.Random(3), 2, 4, 25, in_turn=False)
    >>> [len(h) for h in hands], len(kitty), sorted(sum(hands, kitty)) == sorted([*range(54)] * 2)
    ([25, 25, 25, 25], 8, True)
    """
    ids = deal(rng, Shoe(decks, jokers=True), Layout.DECK_BY_DECK, seats, each,
               in_turn=in_turn, form=trick_id)
    return [list(hand) for hand in ids.hands], list(ids.kitty)


def level_name(level: int) -> str:
    """级: a level rank as the table writes it, 2..10, J, Q, K, A (``10``, not ``T``).

    >>> [level_name(r) for r in (2, 10, 11, 14)]
    ['2', '10', 'J', 'A']
    """
    return {11: "J", 12: "Q", 13: "K", 14: "A"}.get(level, str(level))


def points(cid: int) -> int:
    """分: 5 → 5, 10 and K → 10."""
    return {5: 5, 10: 10, 13: 10}.get(rank_of(cid), 0)


def _read_rank(text: str, i: int) -> tuple[int, int] | None:
    ch = text[i].upper()
    if ch == "1" and i + 1 < len(text) and text[i + 1] == "0":
        return 10, i + 2
    if ch in RANK_CHARS:
        return RANK_CHARS.index(ch) + 2, i + 1
    if ch == "1":
        return 14, i + 1
    if ch == "0":
        return 10, i + 1
    return None


def parse_ids(text: str) -> list[int]:
    """Card ids in the order typed; forgives spaces, case, ``10``, suit symbols before the
    rank, and a copy marker ``#2`` (picker tokens of identical cards).

    Raises NotationError naming the part that cannot be read.
    """
    out: list[int] = []
    i, n = 0, len(text)
    while i < n:
        if text[i] in _SEPARATORS:
            i += 1
            continue
        if text[i] == "#":
            i += 1
            while i < n and text[i].isdigit():
                i += 1
            continue
        joker = read_joker(text, i) if text[i] in JOKER_STARTS else None
        if joker is not None:
            out.append(BIG if joker[0] == BIG_JOKER else SMALL)
            i = joker[1]
            continue
        suit = None
        for w, s in _SUIT_WORDS.items():
            if text.startswith(w, i):
                suit, i = s, i + len(w)
                break
        if i >= n:
            raise NotationError(text, "a suit needs a rank",
                                text=T("err.shengji.card", typed=text, part=text[-1:]))
        got = _read_rank(text, i)
        if got is None:
            raise NotationError(text, f"{text[i]!r} is not a card",
                                text=T("err.shengji.card", typed=text, part=text[i]))
        rank, i = got
        if suit is None:
            if i < n and text[i].lower() in SUITS:
                suit, i = SUITS.index(text[i].lower()), i + 1
            else:
                for w, s in _SUIT_WORDS.items():
                    if text.startswith(w, i):
                        suit, i = s, i + len(w)
                        break
        if suit is None:
            raise NotationError(text, f"{RANK_CHARS[rank - 2]} needs a suit (s h c d)",
                                text=T("err.shengji.card", typed=text, part=RANK_CHARS[rank - 2]))
        out.append(card_id(rank, suit))
    return out


def counts_of(ids: Iterable[int]) -> list[int]:
    """The count vector (54 entries) of a list of ids."""
    c = [0] * NCARDS
    for cid in ids:
        c[cid] += 1
    return c


def ids_of(counts: Sequence[int]) -> list[int]:
    """Every id of a count vector, each repeated by its count."""
    return [cid for cid, k in enumerate(counts) if k for _ in range(k)]


def format_ids(ids: Iterable[int], ctx: Context | None = None) -> str:
    """Canonical text: with a trump context, trumps first and strongest first; without one,
    jokers then suits ``s h c d``, high rank first."""
    if ctx is None:
        key = sorted(ids, key=lambda c: (0, -c) if c >= SMALL else (1, suit_of(c), -rank_of(c)))
        return " ".join(card_text(c) for c in key)
    return " ".join(card_text(c) for c in ctx.sort(ids))


@dataclass(frozen=True)
class Context:
    """The trump picture of one hand: level rank (级牌, 2..14), trump suit (None: 无主) and
    whether 2 is a permanent trump (常主). ``eff[id]`` is the card's effective suit (4 for
    trump) and ``order[id]`` its strength within that suit; equal orders are equal cards
    (e.g. 副10 of two suits), adjacent orders can form tractors.

    >>> c = Context(10, 1, False)
    >>> [c.order[i] for i in parse_ids("Ah Th Ts R B")]
    [11, 13, 12, 15, 14]
    >>> c.eff[card_id(10, 0)] == TRUMP and c.eff[card_id(9, 0)] == 0
    True
    """

    level: int
    trump: int | None
    fixed_two: bool

    def __post_init__(self) -> None:
        eff = [0] * NCARDS
        order = [0] * NCARDS
        two = self.fixed_two and self.level != 2
        plain = [r for r in range(2, 15) if r != self.level and not (two and r == 2)]
        for s in range(4):
            for o, r in enumerate(plain):
                cid = card_id(r, s)
                eff[cid] = TRUMP if s == self.trump else s
                order[cid] = o
        top = len(plain)
        for layer in ((2,) if two else ()) + (self.level,):
            for s in range(4):
                cid = card_id(layer, s)
                eff[cid] = TRUMP
                order[cid] = top if self.trump is None or s != self.trump else top + 1
            top += 1 if self.trump is None else 2
        eff[SMALL] = eff[BIG] = TRUMP
        order[SMALL], order[BIG] = top, top + 1
        object.__setattr__(self, "eff", tuple(eff))
        object.__setattr__(self, "order", tuple(order))

    eff: tuple[int, ...] = field(default=(), repr=False, compare=False)
    order: tuple[int, ...] = field(default=(), repr=False, compare=False)

    def is_trump(self, cid: int) -> bool:
        return self.eff[cid] == TRUMP

    def sort(self, ids: Iterable[int]) -> list[int]:
        """Trumps first, then suits ``s h c d``; strongest first, ties by suit."""
        return sorted(ids, key=lambda c: (0 if self.eff[c] == TRUMP else 1 + self.eff[c],
                                          -self.order[c], suit_of(c)))

    def sort_key(self, cid: int) -> tuple[int, int, int]:
        """Weakest first: side suits before trumps, then order."""
        return (1 if self.eff[cid] == TRUMP else 0, self.order[cid], -suit_of(cid))

    def menus(self, counts: Sequence[int], size: int) -> tuple[list[str], list[str], list[int]]:
        """A hand as picker tokens, labels and menu sizes: one menu per suit and one for
        trumps, each cut at ``size``; identical cards are told apart by ``#2``/``#3`` in their
        tokens (the parser ignores the mark)."""
        tokens: list[str] = []
        labels: list[str] = []
        groups: list[int] = []
        ordered = self.sort(ids_of(counts))
        for suit in (TRUMP, 0, 1, 2, 3):
            part = [c for c in ordered if self.eff[c] == suit]
            seen: dict[int, int] = {}
            for cid in part:
                seen[cid] = seen.get(cid, 0) + 1
                name = format_ids([cid])
                tokens.append(name if seen[cid] == 1 else f"{name}#{seen[cid]}")
                labels.append(name)
            groups += [min(size, len(part) - i) for i in range(0, len(part), size)]
        return tokens, labels, groups


def key_top(cards: Sequence[int], ctx: Context, width: int, length: int) -> int | None:
    """The highest top order of a run of ``length`` adjacent orders of ``width``-fold cards
    in ``cards`` (one effective suit), or None."""
    counts = Counter(cards)
    orders = {ctx.order[c] for c, k in counts.items() if k >= width}
    tops = [o for o in orders if all(o - i in orders for i in range(length))]
    return max(tops) if tops else None
