"""打滚子 rules: patterns (单张, 棒子, 滚子), follow duties in 活棒 / 死棒, declarations, 进贡
counts, levels and the score table (GAMES.md §6; decisions in docs/games/dagunzi.md).

>>> tribute_count(0, 0), tribute_count(75, 3), tribute_count(100, 2), tribute_count(130, 1)
(('xian', 8), ('xian', 4), ('xian', 2), ('zhuang', 1))
>>> tribute_count(180, 0), tribute_count(100, 0)
(('zhuang', 3), ('xian', 0))
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from engines.trick.cards import BIG, SMALL, TRUMP, Context, rank_of, suit_of

PER, KITTY, DECKS = 39, 6, 3
ACE = 14


def pattern_of(cards: Sequence[int]) -> int | None:
    """1 单张, 2 棒子 (two identical cards), 3 滚子 (three identical); None otherwise."""
    if not cards or len(cards) > 3 or len(set(cards)) != 1:
        return None
    return len(cards)


def follow_problem(hand: Sequence[int], lead: Sequence[int], play: Sequence[int], ctx: Context,
                   dead: bool) -> str | None:
    """Why ``play`` is not a legal answer to ``lead`` from ``hand`` (counts), or None.

    "count": not as many cards as the lead; "suit": cards of the led suit kept back;
    "bang": 死棒, a 棒子 was owed; "gun": 死棒, a 滚子 was owed. In 死棒 a 棒 led asks for a
    棒 (a 滚子 need not be broken), a 滚子 led asks for a 滚子, else 棒 + 单张, else singles.
    """
    n = len(lead)
    if len(play) != n:
        return "count"
    suit = ctx.eff[lead[0]]
    held = Counter({c: k for c, k in enumerate(hand) if k and ctx.eff[c] == suit})
    in_suit = [c for c in play if ctx.eff[c] == suit]
    total = sum(held.values())
    if len(in_suit) < min(total, n):
        return "suit"
    if total <= n or not dead or n == 1:
        return None
    got = Counter(play)
    if n == 2:
        if any(k == 2 for k in held.values()) and max(got.values()) < 2:
            return "bang"
        return None
    if any(k == 3 for k in held.values()) and max(got.values()) < 3:
        return "gun"
    if any(k >= 2 for k in held.values()) and max(got.values()) < 2:
        return "bang"
    return None


def beats(play: Sequence[int], winner: Sequence[int], lead: Sequence[int], ctx: Context) -> bool:
    """A play beats the best so far only with the lead's pattern (a different pattern is always
    smaller), in the led suit or in trumps against a side suit, and a higher card."""
    if pattern_of(play) != pattern_of(lead):
        return False
    suit, wsuit = ctx.eff[play[0]], ctx.eff[winner[0]]
    if suit not in (ctx.eff[lead[0]], TRUMP):
        return False
    if pattern_of(winner) != pattern_of(lead):
        return True
    if suit == TRUMP and wsuit != TRUMP:
        return True
    return suit == wsuit and ctx.order[play[0]] > ctx.order[winner[0]]


@dataclass(frozen=True)
class Declaration:
    """亮主: ``count`` level cards of ``suit``, or three identical jokers (``joker``) naming
    ``suit``."""

    seat: int
    count: int
    suit: int
    joker: int | None = None

    @property
    def strength(self) -> int:
        """1, 2, 3 level cards; three 小王 4; three 大王 5 (大王的叫牌权优于小王)."""
        if self.joker is None:
            return self.count
        return 5 if self.joker == BIG else 4


def declarations(cards: Sequence[int], level: int, seat: int) -> list[Declaration]:
    counts = Counter(cards)
    out: list[Declaration] = []
    for cid, k in sorted(counts.items()):
        if cid < SMALL and rank_of(cid) == level:
            out.extend(Declaration(seat, n, suit_of(cid)) for n in range(1, k + 1))
        elif cid >= SMALL and k >= 3:
            out.extend(Declaration(seat, 3, s, cid) for s in range(4))
    return out


def tribute_count(score: int, jokers: int) -> tuple[str, int]:
    """进贡 from the last hand's 抓分方 ``score`` and its kitty ``jokers`` (大王 2, 小王 1):
    who pays ("xian": the 庄's 上家 pays the 庄; "zhuang": the 庄 pays) and how many cards.
    < 80: one per 10 short of 80 + jokers; 80–115: jokers; 120–150: the 庄 pays jokers;
    > 150: the 庄 pays one per 10 above 150 + jokers. Both ways a started 10 counts (75 → 1,
    155 → 1), so each band's first score already pays a card."""
    if score < 80:
        return ("xian", -(-(80 - score) // 10) + jokers)
    if score < 120:
        return ("xian", jokers)
    if score <= 150:
        return ("zhuang", jokers)
    return ("zhuang", -(-(score - 150) // 10) + jokers)


def level_result(score: int, koudi: bool, joker_levels: int) -> tuple[str, int]:
    """("xian", n) 抓分方 上台 and go up n (n may be 0), ("zhuang", n) the 庄 side goes up n,
    or ("none", 0). Base +1, plus the kitty jokers' levels for the side that levels.

    >>> level_result(130, True, 2), level_result(130, False, 2), level_result(90, False, 1)
    (('xian', 3), ('xian', 0), ('zhuang', 2))
    >>> level_result(90, True, 1)
    ('none', 0)
    """
    if score >= 120:
        return ("xian", 1 + joker_levels if koudi else 0)
    if not koudi:
        return ("zhuang", 1 + joker_levels)
    return ("none", 0)


def level_points(side: str, n: int) -> int:
    """Points per seat of the side that gains: 庄 +3 per level; 抓分方 上台 +1, +3 per level."""
    if side == "zhuang":
        return 3 * n
    if side == "xian":
        return 1 + 3 * n
    return 0


def is_dry(kitty: Sequence[int], ctx: Context) -> bool:
    """干锅: the shown kitty's cards other than jokers are all trumps or all side cards."""
    rest = [c for c in kitty if c < SMALL]
    return all(ctx.eff[c] == TRUMP for c in rest) or all(ctx.eff[c] != TRUMP for c in rest)
