"""牌型: the play patterns of 斗地主 and how plays compare (GAMES.md §2.0).

A ``Play`` is a classified set of cards. ``classify`` finds its pattern, ``beats`` compares
two plays. The open cases of the seeds are decided here (docs/games/doudizhu.md):

- the rocket is never split: both jokers in one play are only ever the rocket itself, so
  they are never two singles of 三带一 wings, 飞机 wings or 四带二;
- attached cards (带牌, wings) never share a rank with the main part (``333+3`` is a bomb,
  not 三带一; ``333444+35`` is not a plane);
- attached singles are of different ranks, and so are attached pairs (two cards of a rank
  are a 对牌, four a 炸弹: a bomb is never wings);
- sequences run from 3 to A: never a 2 or a joker.

>>> str(parse_play("44455579"))
'44455579'
>>> parse_play("44455579").pattern.name
'PLANE_SINGLES'
>>> beats(parse_play("BR"), parse_play("2222"))
True
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum

from engines.base import T
from engines.doudizhu.notation import (
    ACE,
    BIG_JOKER,
    NRANKS,
    RANKS,
    SMALL_JOKER,
    Counts,
    format_cards,
    is_pass,
    parse_cards,
)
from engines.errors import IllegalActionError


class Pattern(Enum):
    """牌型: the kinds of play. Values are the Chinese names."""

    ROCKET = "火箭"
    BOMB = "炸弹"
    SINGLE = "单牌"
    PAIR = "对牌"
    TRIO = "三张"
    TRIO_SINGLE = "三带一"
    TRIO_PAIR = "三带一对"
    STRAIGHT = "单顺"
    PAIR_STRAIGHT = "双顺"
    PLANE = "三顺"
    PLANE_SINGLES = "飞机带单翅膀"
    PLANE_PAIRS = "飞机带对翅膀"
    FOUR_SINGLES = "四带二单"
    FOUR_PAIRS = "四带二对"


@dataclass(frozen=True)
class PatternRules:
    """Which attachments a rule set allows; the classic rules allow all.

    ``pair_kickers``: 三带一对, 飞机带对 and 四带两对 exist (麻辣斗地主 has singles only).
    ``four_with_two``: 四带二 exists (四人斗地主 has none).
    """

    pair_kickers: bool = True
    four_with_two: bool = True

    def allows(self, pattern: Pattern) -> bool:
        if not self.pair_kickers and pattern in _PAIR_KICKERS:
            return False
        return self.four_with_two or pattern not in (Pattern.FOUR_SINGLES, Pattern.FOUR_PAIRS)


CLASSIC = PatternRules()
_PAIR_KICKERS = frozenset({Pattern.TRIO_PAIR, Pattern.PLANE_PAIRS, Pattern.FOUR_PAIRS})


@dataclass(frozen=True)
class Play:
    """出牌: a set of cards with its pattern.

    ``key``: the rank that decides comparison (the top of a sequence, the trio chain of a
    plane, the four of 四带二). ``size``: number of cards. ``text``: canonical notation.
    """

    cards: Counts
    pattern: Pattern
    key: int
    size: int
    text: str
    parts: tuple[tuple[int, int], ...] = field(default=(), compare=False, repr=False)
    """(rank, count) of each rank in the play, for quick hand updates."""
    is_bomb: bool = field(default=False, compare=False, repr=False)
    """True for 炸弹 and 火箭 (both double the stakes when played)."""

    def __post_init__(self) -> None:
        if not self.parts:
            parts = tuple((r, c) for r, c in enumerate(self.cards) if c)
            object.__setattr__(self, "parts", parts)
        bomb = self.pattern is Pattern.BOMB or self.pattern is Pattern.ROCKET
        object.__setattr__(self, "is_bomb", bomb)

    def __str__(self) -> str:
        return self.text


def _chain(ranks: list[int]) -> bool:
    """Consecutive ranks, none above A (sequences never hold a 2 or a joker)."""
    return ranks[-1] <= ACE and ranks[-1] - ranks[0] == len(ranks) - 1


def _kickers_ok(ranks: list[int]) -> bool:
    """Attached singles: the two jokers together are the rocket, never two singles."""
    return not (SMALL_JOKER in ranks and BIG_JOKER in ranks)


def classify(counts: Counts, rules: PatternRules = CLASSIC) -> tuple[Pattern, int] | None:
    """牌型判断: the (pattern, key) of a set of cards, or None if it is no play."""
    by: dict[int, list[int]] = {1: [], 2: [], 3: [], 4: []}
    for r in range(NRANKS):
        c = counts[r]
        if c:
            by[c].append(r)
    ones, twos, threes, fours = by[1], by[2], by[3], by[4]
    n = len(ones) + 2 * len(twos) + 3 * len(threes) + 4 * len(fours)
    found: tuple[Pattern, int] | None = None
    if n == 0:
        return None
    if n == 1:
        found = (Pattern.SINGLE, ones[0])
    elif n == 2:
        if twos:
            found = (Pattern.PAIR, twos[0])
        elif ones == [SMALL_JOKER, BIG_JOKER]:
            found = (Pattern.ROCKET, BIG_JOKER)
    elif fours:
        if len(fours) == 1 and not threes:
            if n == 4:
                found = (Pattern.BOMB, fours[0])
            elif n == 6 and len(ones) == 2 and _kickers_ok(ones):
                found = (Pattern.FOUR_SINGLES, fours[0])
            elif n == 8 and len(twos) == 2:
                found = (Pattern.FOUR_PAIRS, fours[0])
    elif threes:
        k = len(threes)
        if k == 1:
            if n == 3:
                found = (Pattern.TRIO, threes[0])
            elif n == 4:
                found = (Pattern.TRIO_SINGLE, threes[0])
            elif n == 5 and twos:
                found = (Pattern.TRIO_PAIR, threes[0])
        elif _chain(threes):
            if n == 3 * k:
                found = (Pattern.PLANE, threes[-1])
            elif not twos and len(ones) == k and _kickers_ok(ones):
                found = (Pattern.PLANE_SINGLES, threes[-1])
            elif not ones and len(twos) == k:
                found = (Pattern.PLANE_PAIRS, threes[-1])
    elif twos:
        if not ones and len(twos) >= 3 and _chain(twos):
            found = (Pattern.PAIR_STRAIGHT, twos[-1])
    elif len(ones) >= 5 and _chain(ones):
        found = (Pattern.STRAIGHT, ones[-1])
    if found is None or not rules.allows(found[0]):
        return None
    return found


_CACHE_LIMIT = 500_000


class PlayBook:
    """Memoized classification of plays under one PatternRules (text and counts → Play)."""

    def __init__(self, rules: PatternRules) -> None:
        self.rules = rules
        self._by_counts: dict[Counts, Play | None] = {}
        self._by_text: dict[str, Play] = {}

    def of(self, counts: Counts) -> Play | None:
        """The Play made of ``counts``, or None if the cards form no pattern."""
        try:
            return self._by_counts[counts]
        except KeyError:
            pass
        kind = classify(counts, self.rules)
        play = None
        if kind is not None:
            play = Play(counts, kind[0], kind[1], sum(counts), format_cards(counts))
        if len(self._by_counts) > _CACHE_LIMIT:
            self._by_counts.clear()
        self._by_counts[counts] = play
        return play

    def known(self, text: str) -> Play | None:
        """The Play of ``text`` if it was parsed before (a fast path), else None."""
        return self._by_text.get(text)

    def texts(self) -> dict[str, Play]:
        """The text → Play memo itself (read-only use: a fast path for hot loops)."""
        return self._by_text

    def of_text(self, text: str) -> Play:
        """The Play of a text known to be a play (e.g. from the generator)."""
        play = self._by_text.get(text)
        if play is None:
            play = self.parse(text)
            assert play is not None, text
        return play

    def parse(self, text: str) -> Play | None:
        """A play in notation; None for pass. NotationError / IllegalActionError."""
        hit = self._by_text.get(text)
        if hit is not None:
            return hit
        if is_pass(text):
            return None
        counts = parse_cards(text)
        play = self.of(counts)
        if play is None:
            cards = format_cards(counts)
            raise IllegalActionError(
                "these cards are not a valid pattern (牌型)",
                action=cards,
                text=T("err.ddz.no_pattern", cards=cards),
            )
        if len(self._by_text) > _CACHE_LIMIT:
            self._by_text.clear()
        self._by_text[text] = play
        return play


_BOOKS: dict[PatternRules, PlayBook] = {}


def playbook(rules: PatternRules = CLASSIC) -> PlayBook:
    """The shared PlayBook of ``rules``."""
    book = _BOOKS.get(rules)
    if book is None:
        book = _BOOKS[rules] = PlayBook(rules)
    return book


def play_of(counts: Counts, rules: PatternRules = CLASSIC) -> Play | None:
    """The Play made of ``counts``, or None if the cards form no pattern (memoized)."""
    return playbook(rules).of(counts)


def parse_play(text: str, rules: PatternRules = CLASSIC) -> Play | None:
    """读牌: a play in notation; None for pass (不出).

    Raises NotationError for unreadable text and IllegalActionError (naming the cards) when
    the cards form no pattern.

    >>> parse_play("10 10 10 + 2").text
    'TTT2'
    >>> parse_play("不出") is None
    True
    """
    return playbook(rules).parse(text)


def format_play(play: Play | None) -> str:
    """The canonical text of a play; ``pass`` for None."""
    return "pass" if play is None else play.text


def beats(play: Play, previous: Play) -> bool:
    """管得上: True if ``play`` may be played over ``previous``.

    The rocket beats everything; a bomb beats every non-bomb and lower bombs; anything
    else only the same pattern with the same number of cards and a lower key.
    """
    if play.pattern is Pattern.ROCKET:
        return previous.pattern is not Pattern.ROCKET
    if previous.pattern is Pattern.ROCKET:
        return False
    if play.pattern is Pattern.BOMB:
        return previous.pattern is not Pattern.BOMB or play.key > previous.key
    return (
        play.pattern is previous.pattern and play.size == previous.size and play.key > previous.key
    )


def describe(play: Play) -> str:
    """A short description for messages: the Chinese pattern name and the cards."""
    return f"{play.pattern.value} {play.text}"


__all__ = [
    "CLASSIC",
    "RANKS",
    "Pattern",
    "PatternRules",
    "Play",
    "PlayBook",
    "beats",
    "classify",
    "describe",
    "format_play",
    "parse_play",
    "play_of",
    "playbook",
]
