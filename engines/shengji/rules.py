"""规则: deal sizes, declarations (亮主 / 反主 / 反底), level changes, match points (积分).

Decisions on the text's gaps are in docs/games/shengji.md.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from engines.trick.cards import BIG, SMALL, rank_of, suit_of

DEAL: dict[int, tuple[int, int]] = {1: (12, 6), 2: (25, 8), 3: (39, 6)}
"""Cards per seat and kitty size by number of decks (1 deck: 4×12 + 6; 2: 4×25 + 8;
3: 4×39 + 6)."""

PACKETS = 3
"""The deal comes in this many packets; a declaration window follows each."""

TOTAL = {1: 100, 2: 200, 3: 300}
BAND = {1: 20, 2: 40, 3: 60}
"""Points in the decks, and the width of one scoring band (一副牌 20, 两副 40, 三副 60)."""

ACE = 14


@dataclass(frozen=True)
class Declaration:
    """亮主: ``seat`` showed ``count`` copies of one card: a level card of ``suit`` (0..3), or
    jokers (``suit`` None: 无主; ``joker`` the joker's id). ``strength`` orders declarations."""

    seat: int
    count: int
    suit: int | None
    joker: int | None = None

    def strength(self, decks: int) -> int:
        """单张 < 对子 < 对王 (小 < 大) < 三张 < 三王 (小 < 大); with one deck the pair of jokers is
        小王 + 大王 (GAMES.md §5; the 3-deck order is the text's 抢亮 list)."""
        if self.joker is None:
            return {1: 1, 2: 2, 3: 5}[self.count]
        if decks == 1:
            return 3
        base = 3 if self.count == 2 else 6
        return base + (1 if self.joker == BIG else 0)

    def counter_strength(self) -> tuple[int, int]:
        """反底 order (欢乐升级): a pair beats any single; pairs by ♦ < ♣ < ♥ < ♠ < 小王对 <
        大王对; three beat any two, ordered the same way."""
        if self.count == 1:
            return (1, 0)
        if self.joker is not None:
            sub = 4 if self.joker == SMALL else 5
        else:
            sub = {3: 0, 2: 1, 1: 2, 0: 3}[self.suit or 0]
        return (self.count, sub)


def declarations(cards: Sequence[int], level: int, decks: int, seat: int) -> list[Declaration]:
    """Every declaration ``cards`` allow: 1..k copies of a level card of one suit, or two or
    more identical jokers (one deck: 小王 + 大王)."""
    counts = Counter(cards)
    out: list[Declaration] = []
    for cid, k in sorted(counts.items()):
        if cid < SMALL and rank_of(cid) == level:
            out.extend(Declaration(seat, n, suit_of(cid)) for n in range(1, k + 1))
        elif cid >= SMALL:
            out.extend(Declaration(seat, n, None, cid) for n in range(2, k + 1))
    if decks == 1 and counts[SMALL] and counts[BIG]:
        out.append(Declaration(seat, 2, None, BIG))
    return out


def declarations_held(counts: Sequence[int], level: int, decks: int,
                      seat: int) -> list[Declaration]:
    """``declarations`` of a hand given as a count vector (card id → copies), read straight
    from the counts: the declaration windows ask it of every seat after every action."""
    out: list[Declaration] = []
    for cid, k in enumerate(counts):
        if not k:
            continue
        if cid < SMALL and rank_of(cid) == level:
            out.extend(Declaration(seat, n, suit_of(cid)) for n in range(1, k + 1))
        elif cid >= SMALL:
            out.extend(Declaration(seat, n, None, cid) for n in range(2, k + 1))
    if decks == 1 and counts[SMALL] and counts[BIG]:
        out.append(Declaration(seat, 2, None, BIG))
    return out


def level_change(points: int, decks: int) -> tuple[str, int]:
    """Who goes up and by how much, from the 闲 side's points: ("zhuang", n) or ("xian", n)
    (the 闲 take the deal, 上台, and go up n ≥ 0).

    Bands of b = 20/40/60: 0 → 庄 +3 (大光), < b → +2 (小光), < 2b → +1, < 3b → 闲 上台,
    then +1 per further b.

    >>> [level_change(p, 2) for p in (0, 35, 40, 80, 120, 160, 200, 240)]
    [('zhuang', 3), ('zhuang', 2), ('zhuang', 1), ('xian', 0), ('xian', 1), ('xian', 2), ('xian', 3), ('xian', 4)]
    >>> [level_change(p, 3) for p in (0, 59, 60, 120, 180, 240)]
    [('zhuang', 3), ('zhuang', 2), ('zhuang', 1), ('xian', 0), ('xian', 1), ('xian', 2)]
    """
    b = BAND[decks]
    if points <= 0:
        return ("zhuang", 3)
    if points < b:
        return ("zhuang", 2)
    if points < 2 * b:
        return ("zhuang", 1)
    return ("xian", (points - 2 * b) // b)


def match_points(side: str, levels: int, sweep: int = 0) -> int:
    """积分 of the hand (before the band multiplier): 闲 上台 2, +1 per level; 庄 +1 level 2,
    +1 per further level, at most 4 (大光); ``sweep`` > 0 replaces the 大光 value (大光积分
    rooms)."""
    if side == "xian":
        return 2 + levels
    if levels >= 3 and sweep:
        return sweep
    return min(4, 1 + levels)


def rating_multiplier(ratings: Sequence[int]) -> int:
    """All four seats at 80 ≤ s < 300 → ×2; all at ≥ 300 → ×3; else ×1 (SJ-E1, SJ-E2).

    >>> rating_multiplier([90] * 4), rating_multiplier([400] * 4), rating_multiplier([90, 400, 90, 90])
    (2, 3, 1)
    >>> rating_multiplier([10, 400, 90, 90])
    1
    """
    if len(ratings) < 4:
        return 1
    if all(r >= 300 for r in ratings):
        return 3
    if all(80 <= r < 300 for r in ratings):
        return 2
    return 1
