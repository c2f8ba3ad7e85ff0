"""牌型: the patterns of 百变双扣, the 大王 as 财神 (wild), the star ladder and comparison.

A play is a set of cards (``Counts``) and a *reading*: which natural cards its 大王 stand for
(``Pattern.rep``, 13 counts over ``3``…``2``). A play of jokers only is read as itself: ``R`` is
the 大王, ``RR`` a pair of 大王, ``BB``/``BR`` a pair of 小王, three jokers 三王, four 天王
(002: "大王单张出的时候，还是算大王").

>>> [p.kind.value for p in readings(parse_cards("666666", 2))]
['bomb']
>>> readings(parse_cards("666666", 2))[0].stars
6
>>> chain = readings(parse_cards("3333 44444 555555", 2))[0]
>>> chain.kind.value, chain.stars
('chain', 7)
>>> sorted(format_cards(p.rep + (0, 0)) for p in readings(parse_cards("45678R", 2)))
['345678', '456789']
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from enum import Enum
from itertools import combinations_with_replacement, product

from engines.climbing.notation import ACE, BIG, SMALL, Counts, format_cards, parse_cards
from engines.memo import memoized

__all__ = [
    "Kind",
    "Pattern",
    "beats",
    "beats_any",
    "best_stars",
    "format_cards",
    "parse_cards",
    "plays",
    "readings",
]

NAT = 13
"""Natural ranks 3…2 (indexes 0…12)."""


class Kind(Enum):
    """牌型 of 百变双扣 (002 §3)."""

    SINGLE = "single"      # 单张
    PAIR = "pair"          # 对子
    TRIPLE = "triple"      # 三张
    STRAIGHT = "straight"  # 顺子: 5+ in sequence, no 2
    PAIRS = "pairs"        # 连对: 3+ pairs in sequence
    TRIPLES = "triples"    # 连三张: 3+ triples in sequence
    BOMB = "bomb"          # 炸弹: 4+ of a rank, X 相 = X★
    CHAIN = "chain"        # 连炸: 3+ adjacent bombs, X 相 Y 连 = X+Y★ (X the smallest bomb)
    THREE_KINGS = "three_kings"  # 三王炸弹: 6★, the smallest 6★
    FOUR_KINGS = "four_kings"    # 天王炸弹: 7★, the largest 7★


BOMBS = frozenset({Kind.BOMB, Kind.CHAIN, Kind.THREE_KINGS, Kind.FOUR_KINGS})


@dataclass(frozen=True)
class Pattern:
    """One reading of a play: ``kind``, ``n`` cards, ``top`` rank index, ``stars`` (bombs),
    and ``rep``: the natural cards it stands for (13 counts; all zero for joker plays)."""

    kind: Kind
    n: int
    top: int
    stars: int = 0
    rep: tuple[int, ...] = (0,) * NAT

    @property
    def bomb(self) -> bool:
        return self.kind in BOMBS

    def key(self) -> tuple[object, ...]:
        """What comparison sees: two readings with the same key are the same play."""
        return (self.kind, self.n, self.top, self.stars)

    def power(self) -> tuple[int, int, int]:
        """Bomb order: more stars, then fewer cards, then the higher rank (002 §3); 天王 is the
        largest 7★ and 三王 the smallest 6★."""
        if self.kind is Kind.FOUR_KINGS:
            return (7, 0, 0)
        if self.kind is Kind.THREE_KINGS:
            return (6, -99, 0)
        return (self.stars, -self.n, self.top)

    def strength(self) -> tuple[int, int, int, int]:
        """A total order used to prefer one reading over another (bombs above the rest)."""
        if self.bomb:
            return (1, *self.power())
        return (0, self.n, self.top, 0)


def beats(a: Pattern, b: Pattern) -> bool:
    """True when ``a`` may be played over ``b``: bombs beat every non-bomb and weaker bombs;
    other patterns need the same kind and count and a higher top card.

    >>> p = lambda s: readings(parse_cards(s, 2))[0]
    >>> beats(p("4444"), p("AAA")), beats(p("BBRR"), p("7777777")), beats(p("BRR"), p("666666"))
    (True, True, False)
    >>> beats(p("55667788"), p("445566")), beats(p("666666"), p("33334444555566667777"))
    (False, False)
    """
    if a.bomb or b.bomb:
        return a.bomb and (not b.bomb or a.power() > b.power())
    return a.kind is b.kind and a.n == b.n and a.top > b.top


@memoized(8192)
def natural(counts: tuple[int, ...]) -> Pattern | None:
    """The pattern of natural cards (13 counts, no jokers), or None if they form none."""
    present = [r for r in range(NAT) if counts[r]]
    if not present:
        return None
    n = sum(counts)
    lo, hi = present[0], present[-1]
    if lo == hi:
        kind = {1: Kind.SINGLE, 2: Kind.PAIR, 3: Kind.TRIPLE}.get(n, Kind.BOMB)
        return Pattern(kind, n, hi, n if kind is Kind.BOMB else 0, counts)
    if hi > ACE or hi - lo + 1 != len(present):
        return None  # sequences are consecutive and never hold a 2
    sizes = {counts[r] for r in present}
    length = len(present)
    if sizes == {1} and length >= 5:
        return Pattern(Kind.STRAIGHT, n, hi, 0, counts)
    if sizes == {2} and length >= 3:
        return Pattern(Kind.PAIRS, n, hi, 0, counts)
    if sizes == {3} and length >= 3:
        return Pattern(Kind.TRIPLES, n, hi, 0, counts)
    if min(sizes) >= 4 and length >= 3:
        return Pattern(Kind.CHAIN, n, hi, min(sizes) + length, counts)
    return None


_ZERO = (0,) * NAT


@memoized(8192)
def readings(cards: Counts) -> tuple[Pattern, ...]:
    """Every distinct reading of a set of cards, strongest first; () if it is no pattern.

    The first reading found for a key is kept as its canonical ``rep`` (wilds as low as
    possible in rank order)."""
    jokers = cards[SMALL] + cards[BIG]
    if not any(cards[:NAT]):
        if jokers == 1:
            return (Pattern(Kind.SINGLE, 1, BIG if cards[BIG] else SMALL),)
        if jokers == 2:
            return (Pattern(Kind.PAIR, 2, BIG if cards[BIG] == 2 else SMALL),)
        if jokers == 3:
            return (Pattern(Kind.THREE_KINGS, 3, BIG, 6),)
        if jokers == 4:
            return (Pattern(Kind.FOUR_KINGS, 4, BIG, 7),)
        return ()
    if cards[SMALL]:
        return ()  # a 小王 never joins other ranks
    wild = cards[BIG]
    base = list(cards[:NAT])
    found: dict[tuple[object, ...], Pattern] = {}
    for picks in combinations_with_replacement(range(NAT), wild):
        counts = base[:]
        for r in picks:
            counts[r] += 1
        p = natural(tuple(counts))
        if p is not None and p.key() not in found:
            found[p.key()] = p
    return tuple(sorted(found.values(), key=Pattern.strength, reverse=True))


def play_text(cards: Counts, pattern: Pattern) -> str:
    """Canonical text of a play: its cards, then ``=`` and the reading when a 大王 is wild.

    >>> play_text(parse_cards("5R", 2), readings(parse_cards("5R", 2))[0])
    '5R=55'
    """
    text = format_cards(cards)
    if cards[BIG] and any(cards[:NAT]):
        text += "=" + format_cards(pattern.rep + (0, 0))
    return text


def best_stars(hand: Counts) -> int:
    """星级 of a hand: the most stars of any bomb it can form (0 if below 4★).

    >>> best_stars(parse_cards("666666 RR 3", 2)), best_stars(parse_cards("BBR 4444", 2))
    (8, 6)
    """
    best = 0
    jokers = hand[SMALL] + hand[BIG]
    if jokers == 4:
        best = 7
    elif jokers == 3:
        best = 6
    w = hand[BIG]
    for r in range(NAT):
        if hand[r]:
            best = max(best, hand[r] + w if hand[r] + w >= 4 else 0)
    # 连炸: for a run of ranks, spend the wilds to raise the smallest bombs
    for lo in range(ACE + 1):
        for hi in range(lo + 2, ACE + 1):
            sizes = sorted(hand[lo:hi + 1])
            deficit = sum(max(0, 4 - s) for s in sizes)
            if deficit > w:
                break
            spare = w - deficit
            sizes = [max(4, s) for s in sizes]
            for _ in range(spare):
                sizes.sort()
                sizes[0] += 1
            best = max(best, min(sizes) + len(sizes))
    return best


def _targets(hand: Counts, lead: Pattern | None) -> Iterator[tuple[int, ...]]:
    """Natural shapes (13 counts) the hand might make with its wilds, by the led pattern."""
    h, w = hand[:NAT], hand[BIG]
    want = None if lead is None or lead.bomb else (lead.kind, lead.n)
    kinds = {want[0]} if want else set(Kind)

    def one(r: int, n: int) -> tuple[int, ...]:
        t = [0] * NAT
        t[r] = n
        return tuple(t)

    for r in range(NAT):
        if not h[r]:
            continue
        if Kind.SINGLE in kinds:
            yield one(r, 1)
        if Kind.PAIR in kinds and h[r] + w >= 2:
            yield one(r, 2)
        if Kind.TRIPLE in kinds and h[r] + w >= 3:
            yield one(r, 3)
        for n in range(4, h[r] + w + 1):
            yield one(r, n)
    for kind, size, shortest in ((Kind.STRAIGHT, 1, 5), (Kind.PAIRS, 2, 3),
                                 (Kind.TRIPLES, 3, 3)):
        if kind not in kinds:
            continue
        for lo in range(ACE + 1):
            deficit = 0
            for hi in range(lo, ACE + 1):
                deficit += max(0, size - h[hi])
                if deficit > w:
                    break
                length = hi - lo + 1
                if length >= shortest and (want is None or want[1] == length * size):
                    t = [0] * NAT
                    for r in range(lo, hi + 1):
                        t[r] = size
                    if any(h[r] for r in range(lo, hi + 1)):
                        yield tuple(t)
    for lo in range(ACE + 1):
        for hi in range(lo + 2, ACE + 1):
            ranks = range(lo, hi + 1)
            if sum(max(0, 4 - h[r]) for r in ranks) > w:
                break
            for sizes in product(*(range(4, h[r] + w + 1) for r in ranks)):
                if sum(max(0, s - h[r]) for s, r in zip(sizes, ranks)) <= w:
                    t = [0] * NAT
                    for s, r in zip(sizes, ranks):
                        t[r] = s
                    yield tuple(t)


def _fills(hand: Counts, target: tuple[int, ...]) -> Iterator[Counts]:
    """The card sets that make ``target``: naturals from the hand, the rest 大王 (up to all
    the 大王 held, at least one natural card kept)."""
    h, w = hand[:NAT], hand[BIG]
    deficit = [max(0, t - x) for t, x in zip(target, h)]
    need = sum(deficit)
    if need > w:
        return
    spare = [t - d for t, d in zip(target, deficit)]
    ranks = [r for r in range(NAT) if spare[r]]
    n = sum(target)
    for extra in range(w - need + 1):
        for picks in combinations_with_replacement(ranks, extra):
            nat = [t - d for t, d in zip(target, deficit)]
            ok = True
            for r in picks:
                nat[r] -= 1
                if nat[r] < 0:
                    ok = False
            if not ok or sum(nat) == 0 or need + extra >= n:
                continue
            yield (*nat, 0, need + extra)


def _joker_plays(hand: Counts) -> Iterator[Counts]:
    b, r = hand[SMALL], hand[BIG]
    for nb in range(b + 1):
        for nr in range(r + 1):
            if nb + nr:
                yield (0,) * NAT + (nb, nr)


def beats_any(hand: Counts, lead: Pattern) -> bool:
    """Whether ``plays(hand, lead)`` has any play, found without listing them (要不起: the
    host asks after every action).

    >>> beats_any(parse_cards("55R", 2), readings(parse_cards("44", 2))[0])
    True
    >>> beats_any(parse_cards("3 4", 2), readings(parse_cards("44", 2))[0])
    False
    """
    if any(beats(p, lead) for cards in _joker_plays(hand) for p in readings(cards)):
        return True
    return any(beats(p, lead) for target in _targets(hand, lead)
               for cards in _fills(hand, target) for p in readings(cards))


def plays(hand: Counts, lead: Pattern | None) -> list[tuple[Counts, Pattern]]:
    """Every play of ``hand`` (cards, reading) that may be made over ``lead`` (None: a lead),
    each once, sorted weakest first.

    >>> [play_text(c, p) for c, p in plays(parse_cards("55R", 2), readings(parse_cards("44", 2))[0])]
    ['55', '5R=55']
    """
    seen: dict[tuple[Counts, tuple[object, ...]], Pattern] = {}
    candidates: list[Counts] = list(_joker_plays(hand))
    for target in _targets(hand, lead):
        candidates.extend(_fills(hand, target))
    for cards in candidates:
        for p in readings(cards):
            if lead is not None and not beats(p, lead):
                continue
            k = (cards, p.key())
            if k not in seen:
                seen[k] = p
    out = [(cards, p) for (cards, _), p in seen.items()]
    out.sort(key=lambda cp: (cp[1].strength(), cp[0][BIG], format_cards(cp[0])))
    return out
