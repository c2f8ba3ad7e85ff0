"""牌型: the plays of 够级 — 单张 and 一手牌 of one rank, 贴钱 (2s joining the rank), 挂花 (jokers
joining), 够级牌 thresholds, comparison, and the 烧牌 condition.

A play is a set of cards (``Counts``, rank notation of ``engines.shuankou.notation``). Read:
``main`` the rank it counts as (the natural rank; 2 when only 2s and jokers; the joker's rank
for jokers alone), ``n`` its cards, ``jokers`` how many 花 it carries and ``big`` whether they are
all 大花 (a 小花 among them makes every one count as a 小花, 000: "此时大花当做小花").

>>> p = read(parse_cards("22333", 4)); (RANKS[p.main], p.n, p.jokers, p.money)
('3', 5, 0, True)
>>> p = read(parse_cards("RR 222 9999", 4)); (RANKS[p.main], p.n, p.jokers, p.big)
('9', 9, 2, True)
>>> p = read(parse_cards("R B 22 5555", 4)); (RANKS[p.main], p.jokers, p.big)
('5', 2, False)
>>> read(parse_cards("34", 4)) is None
True
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from engines.climbing.notation import (
    ACE,
    BIG,
    RANKS,
    SMALL,
    TEN,
    TWO,
    Counts,
    format_cards,
    parse_cards,
)
from engines.memo import memoized

__all__ = [
    "RANKS",
    "Play",
    "beats",
    "beats_any",
    "burnable",
    "burns_any",
    "format_cards",
    "is_gouji",
    "parse_cards",
    "plays",
    "read",
]

THREE = 0
JACK, QUEEN, KING = 8, 9, 10

THRESHOLDS: tuple[tuple[int, int], ...] = (
    (TWO, 1), (ACE, 2), (KING, 2), (QUEEN, 3), (JACK, 4), (TEN, 5),
)
"""够级牌 minimums (000/001): one 2 (or 花), 2 A, 2 K, 3 Q, 4 J, 5 10."""


@dataclass(frozen=True)
class Play:
    """One play read: rank ``main`` it counts as, ``n`` cards, ``jokers`` (花) carried, ``big``
    (all 大花), ``money`` (贴钱: 2s joined another rank), ``pure`` (jokers only)."""

    main: int
    n: int
    jokers: int
    big: bool
    money: bool
    pure: bool

    @property
    def flower(self) -> bool:
        """挂花: jokers joined to other cards."""
        return self.jokers > 0 and not self.pure

    @property
    def big_flower(self) -> bool:
        """挂大花: only 大花 joined to other cards (新够级: the largest play)."""
        return self.flower and self.big

    def joker_rank(self) -> int:
        return BIG if self.big else SMALL


@memoized(8192)
def read(cards: Counts) -> Play | None:
    """The play ``cards`` make, or None if they make none (two natural ranks other than 2)."""
    n = sum(cards)
    b, r = cards[SMALL], cards[BIG]
    naturals = [x for x in range(TWO) if cards[x]]
    if len(naturals) > 1 or n == 0:
        return None
    jokers = b + r
    big = b == 0
    if naturals:
        return Play(naturals[0], n, jokers, big, cards[TWO] > 0, False)
    if cards[TWO]:
        return Play(TWO, n, jokers, big, False, False)
    return Play(BIG if big else SMALL, n, jokers, big, False, True)


def is_gouji(p: Play) -> bool:
    """够级牌: any play with a 花, or one at or above a threshold in both rank and count (our
    reading of "张数或点数高于、等于这些牌"; 贴钱 counts as converted).

    >>> [is_gouji(read(parse_cards(t, 4))) for t in ("2", "AA", "A", "QQQ", "TTTT", "22TTT", "999999", "B")]
    [True, True, False, True, False, True, False, True]
    """
    if p.jokers:
        return True
    return any(p.main >= rank and p.n >= count for rank, count in THRESHOLDS)


def beats(a: Play, b: Play, big_flower_top: bool = True) -> bool:
    """True when ``a`` may be played over ``b``: the same number of cards and a higher rank;
    over a play with 花, at least as many 花 (as many: as big or bigger) **and** a higher rank
    ("必须在两个方面都大过此牌"). With ``big_flower_top`` (新够级) a 挂大花 play is never beaten.

    >>> p = lambda t: read(parse_cards(t, 4))
    >>> beats(p("99999"), p("22888")), beats(p("RR999"), p("BB888")), beats(p("RRR99"), p("BB888"))
    (True, True, True)
    >>> beats(p("BB999"), p("RR888")), beats(p("RR888"), p("BB999")), beats(p("8888"), p("888"))
    (False, False, False)
    """
    if a.n != b.n:
        return False
    if big_flower_top and b.big_flower:
        return False
    if a.main <= b.main:
        return False
    if b.jokers == 0:
        return True
    return a.jokers > b.jokers or (a.jokers == b.jokers and (a.big or not b.big))


def can_finish_burning(hand: Counts, beisan: bool) -> bool:
    """烧牌 condition after the beating play: the rest can be led out with a 花 in every lead
    but the last (a one-rank rest is that last lead). Each natural rank needs a lead of its
    own; 2s and spare 花 join any lead (or make one); in 憋3 the 3s are the last lead.

    >>> can_finish_burning(parse_cards("55 66 R", 4), False)
    True
    >>> can_finish_burning(parse_cards("55 66", 4), False)
    False
    >>> can_finish_burning(parse_cards("333 22", 4), True)
    False
    """
    if not any(hand):
        return True
    jokers = hand[SMALL] + hand[BIG]
    others = [x for x in range(TWO) if hand[x] and not (beisan and x == THREE)]
    extras = hand[TWO] + jokers
    leads = len(others) if others else (1 if extras else 0)
    if beisan and hand[THREE]:
        return jokers >= leads
    return jokers >= leads - 1


def burnable(hand: Counts, target: Play, beisan: bool, big_flower_top: bool) -> list[Counts]:
    """烧牌: the plays of ``hand`` that beat ``target`` and leave a rest that can be burned out
    (the claim is possible)."""
    out = []
    for cards, p in plays(hand, target, beisan, big_flower_top):
        rest = tuple(h - c for h, c in zip(hand, cards))
        if can_finish_burning(rest, beisan):
            out.append(cards)
    return out


def _legal_shape(cards: Counts, hand: Counts, beisan: bool) -> bool:
    """憋3: 3s are played only all together as the last play, with no 2 or 花."""
    if not beisan or not cards[THREE]:
        return True
    return cards == hand and not (cards[TWO] or cards[SMALL] or cards[BIG])


def plays(hand: Counts, top: Play | None, beisan: bool = False,
          big_flower_top: bool = True) -> list[tuple[Counts, Play]]:
    """Every play of ``hand`` over ``top`` (None: a lead), weakest first, each once."""
    out: list[tuple[Counts, Play]] = []
    want = None if top is None else top.n
    for cards in _candidates(hand, want):
        p = read(cards)
        if p is None or not _legal_shape(cards, hand, beisan):
            continue
        if top is not None and not beats(p, top, big_flower_top):
            continue
        out.append((cards, p))
    out.sort(key=lambda cp: (cp[1].n if top is None else 0, cp[1].main, cp[1].jokers,
                             format_cards(cp[0])))
    return out


def beats_any(hand: Counts, top: Play, beisan: bool = False,
              big_flower_top: bool = True) -> bool:
    """Whether ``plays(hand, top, …)`` has any play, found without listing them (要不起:
    the host asks after every action)."""
    return next(_beating(hand, top, beisan, big_flower_top), None) is not None


def burns_any(hand: Counts, top: Play, beisan: bool = False,
              big_flower_top: bool = True) -> bool:
    """Whether ``burnable(hand, top, …)`` has any play, found without listing them. Asked of
    every other seat after each 够级牌, and most hands cannot burn: a play over the top takes at
    most one natural rank away, and the rest needs a 花 for every lead but the last
    (``can_finish_burning``), so fewer 花 than its natural ranks less two cannot burn."""
    jokers = hand[SMALL] + hand[BIG]
    ranks = sum(1 for x in range(TWO) if hand[x] and not (beisan and x == THREE))
    if jokers < ranks - 2:
        return False
    return any(can_finish_burning(tuple(h - c for h, c in zip(hand, cards)), beisan)
               for cards in _beating(hand, top, beisan, big_flower_top))


def _beating(hand: Counts, top: Play, beisan: bool, big_flower_top: bool) -> Iterator[Counts]:
    """The plays of ``hand`` over ``top``, unsorted: ``plays``' candidates less those whose
    natural rank is not above the top's (such a play never beats it)."""
    if big_flower_top and top.big_flower:
        return
    for cards in _candidates(hand, top.n, above=top.main):
        p = read(cards)
        if p is not None and _legal_shape(cards, hand, beisan) and beats(p, top, big_flower_top):
            yield cards


def _candidates(hand: Counts, want: int | None, above: int = -1) -> Iterator[Counts]:
    """Card sets of ``want`` cards (None: any number): one natural rank (above ``above``) or
    none, with 2s and jokers."""
    twos, bs, rs = hand[TWO], hand[SMALL], hand[BIG]
    for main in [*[x for x in range(above + 1, TWO) if hand[x]], None]:
        top_k = hand[main] if main is not None else 0
        for k in range(1 if main is not None else 0, top_k + 1):
            for t in range(twos + 1):
                for b in range(bs + 1):
                    for r in range(rs + 1):
                        n = k + t + b + r
                        if n == 0 or (want is not None and n != want):
                            continue
                        c = [0] * len(hand)
                        if main is not None:
                            c[main] = k
                        c[TWO], c[SMALL], c[BIG] = t, b, r
                        yield tuple(c)
