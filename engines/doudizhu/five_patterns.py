"""五人斗地主's cards and patterns: the table's sizes, the two-deck patterns with the joker bombs
and their ladder (``classify``, ``beats``, ``bomb_factor``, ``plays``, ``read``), and the room
options (``five_rules``). The game is ``engines.doudizhu.five``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engines.base import T
from engines.cards import Card, climb_index
from engines.doudizhu import four
from engines.doudizhu.notation import BIG_JOKER, NRANKS, SMALL_JOKER, Counts, format_cards
from engines.doudizhu.patterns import Pattern, Play
from engines.doudizhu.rules import merge_options
from engines.errors import IllegalActionError, OptionError

SEATS = 5
STEP_KEYS = {"reveal": -1, "double": -2}  # ``Window.key`` of the two steps (once each)
HAND = 21
KITTY = 3
SUITS = "♠♥♣♦"
FIVE_OPTIONS: dict[str, Any] = {"base": 1, "counter": "auto"}
MAX_BASE = 1_000_000

_JOKER_BOMBS = (Pattern.ROCKET, Pattern.KING_BOMB)


def _physical(card: Card) -> tuple[int, int, int]:
    """A card of the shoe as (rank, suit, deck): rank in ``RANKS`` order, suit 0..3 for
    ♠ ♥ ♣ ♦ (0 for a joker), deck 0 or 1."""
    return (climb_index(card), 0 if card.suit is None else card.suit.index, card.copy)


def _play(counts: Counts, pattern: Pattern, key: int) -> Play:
    return Play(tuple(counts), pattern, key, sum(counts), format_cards(tuple(counts)))


def classify(counts: Counts) -> Play | None:
    """The one reading of a set of cards under 五人's patterns, or None."""
    jokers = counts[SMALL_JOKER] + counts[BIG_JOKER]
    if jokers and jokers == sum(counts):
        if jokers == 1:
            return _play(counts, Pattern.SINGLE, SMALL_JOKER if counts[SMALL_JOKER] else BIG_JOKER)
        if jokers == 2 and 2 in (counts[SMALL_JOKER], counts[BIG_JOKER]):
            return _play(counts, Pattern.ROCKET, SMALL_JOKER if counts[SMALL_JOKER] else BIG_JOKER)
        if jokers == 3:
            return _play(
                counts, Pattern.ROCKET, BIG_JOKER if counts[BIG_JOKER] == 2 else SMALL_JOKER
            )
        if jokers == 4:
            return _play(counts, Pattern.KING_BOMB, BIG_JOKER)
        return None  # BR: no rocket
    if jokers:
        return None  # jokers never join another pattern (no pair of jokers: a bomb)
    return four.classify(counts)


def tier(play: Play) -> int:
    """The bomb's step on the ladder: 4 < 双王 < 5 < 6 < 三王 < 7 < 8 < 天王 (0…7)."""
    if play.pattern is Pattern.KING_BOMB:
        return 7
    if play.pattern is Pattern.ROCKET:
        return 1 if play.size == 2 else 4
    return {4: 0, 5: 2, 6: 3, 7: 5}.get(play.size, 6)


def beats(play: Play, previous: Play) -> bool:
    """管得上: a bomb over any non-bomb, bombs by (ladder step, rank); others: the same
    pattern and number of cards, higher key."""
    if play.is_bomb:
        if not previous.is_bomb:
            return True
        return (tier(play), play.key) > (tier(previous), previous.key)
    if previous.is_bomb:
        return False
    return (
        play.pattern is previous.pattern and play.size == previous.size and play.key > previous.key
    )


def bomb_factor(play: Play) -> int:
    """倍数 of a bomb played (001): ×2 from the 5-bomb up (5/6/三王/7/8/天王), else ×1."""
    return 2 if tier(play) >= 2 else 1


def plays(counts: Counts, previous: Play | None = None) -> list[Play]:
    """The legal plays of a hand: every lead, or those beating ``previous``. 四人's generator,
    re-read under 五人's patterns (a joker pair becomes 双王), plus the 三王 bombs."""
    out: list[Play] = []
    for p in four.plays(tuple(counts)):
        q = classify(p.cards)
        if q is not None:
            out.append(q)
    s, b = counts[SMALL_JOKER], counts[BIG_JOKER]
    if s + b >= 3:
        for cs, cb in ((2, 1), (1, 2)):
            if s >= cs and b >= cb:
                c = [0] * NRANKS
                c[SMALL_JOKER], c[BIG_JOKER] = cs, cb
                q = classify(tuple(c))
                assert q is not None
                out.insert(len(out) - (1 if s == b == 2 else 0), q)
    if previous is None:
        return out
    return [p for p in out if beats(p, previous)]


def read(text: str) -> Play:
    """A typed play of 五人斗地主; IllegalActionError when the cards form no pattern."""
    counts = four.parse(text)
    play = classify(counts)
    if play is None:
        cards = format_cards(counts)
        raise IllegalActionError(
            f"{cards} is not a pattern of 五人斗地主",
            action=text,
            text=T("err.ddz.five_pattern", cards=cards),
        )
    return play


def five_rules(options: Mapping[str, Any]) -> int:
    """The room's 底分 (001 has no bid; GAMES.md §2.8 suggests the room base)."""
    base = merge_options(FIVE_OPTIONS, options)["base"]
    if not isinstance(base, int) or isinstance(base, bool) or not 1 <= base <= MAX_BASE:
        raise OptionError(
            "base",
            f"must be a whole number from 1 to {MAX_BASE}",
            text=T("err.ddz.five_base", max=MAX_BASE),
        )
    return base


_YES = {
    "reveal": "reveal",
    "亮": "reveal",
    "亮出身份": "reveal",
    "double": "double",
    "加倍": "double",
}
_NO = {
    "noreveal": "noreveal",
    "no reveal": "noreveal",
    "放弃": "decline",
    "nodouble": "nodouble",
    "no double": "nodouble",
    "不加倍": "nodouble",
    "pass": "decline",
    "不出": "decline",
}
