"""牌型: the play patterns of 斗地主 and how plays compare (GAMES.md §2.0).

A ``Play`` is a classified set of cards. ``classify`` finds its pattern, ``beats`` compares
two plays. The open cases of the seeds are decided here (docs/games/doudizhu.md), in
agreement with the two independent judges DouZero and RLCard:

- the rocket is never split: both jokers in one play are only ever the rocket itself, so
  they are never two singles of 三带一 wings, 飞机 wings or 四带二;
- attached cards (带牌, wings) never share a rank with the main part (``333+3`` is a bomb,
  not 三带一; ``333444+35`` is not a plane) and are never a bomb;
- attached singles may share a rank (单牌 is "one card"): ``3333+55`` is 四带二 with two
  singles, ``555666+88`` a plane with two single wings, ``QQQKKKAAA+333`` a plane of three
  with three single wings; attached pairs are of different ranks;
- sequences run from 3 to A: never a 2 or a joker.

One set of cards has at most one reading except four consecutive trios (``333444555666``):
三顺 of four (typed ``333444555666 chain``) or a plane of three with three wings (typed
``333444555666 plane``). Such a play's canonical text carries its reading.

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
    FIELD,
    HIGH,
    NRANKS,
    ONES,
    RANKS,
    SMALL_JOKER,
    Counts,
    format_cards,
    is_pass,
    pack,
    parse_cards,
)
from engines.errors import IllegalActionError
from engines.memo import Memo


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
    KING_BOMB = "天王炸弹"
    """Four jokers (四人斗地主, two decks)."""
    SOFT_BOMB = "软炸弹"
    """癞子斗地主: four of a rank with a 癞子 standing in."""
    WILD_BOMB = "纯癞子炸弹"
    """癞子斗地主: the four 癞子."""


@dataclass(frozen=True)
class PatternRules:
    """Which attachments a rule set allows; the classic rules allow all.

    ``pair_kickers``: 三带一对, 飞机带对 and 四带两对 exist (麻辣斗地主 has singles only).
    ``four_with_two``: 四带二 exists (四人斗地主 has none).
    ``paired_singles``: the attached singles of 四带二 and 飞机 may be of one rank (``3333+55``,
    ``333444+55``); 麻辣 ("均只能带单张，不能带对子") wants them all of different ranks.
    """

    pair_kickers: bool = True
    four_with_two: bool = True
    paired_singles: bool = True

    def allows(self, pattern: Pattern) -> bool:
        if not self.pair_kickers and pattern in _PAIR_KICKERS:
            return False
        return self.four_with_two or pattern not in (Pattern.FOUR_SINGLES, Pattern.FOUR_PAIRS)


CLASSIC = PatternRules()
_BOMBS = frozenset(
    {Pattern.BOMB, Pattern.ROCKET, Pattern.KING_BOMB, Pattern.SOFT_BOMB, Pattern.WILD_BOMB}
)
_PAIR_KICKERS = frozenset({Pattern.TRIO_PAIR, Pattern.PLANE_PAIRS, Pattern.FOUR_PAIRS})
_SINGLE_KICKERS = frozenset({Pattern.PLANE_SINGLES, Pattern.FOUR_SINGLES})


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
        bomb = self.pattern in _BOMBS
        object.__setattr__(self, "is_bomb", bomb)

    def __str__(self) -> str:
        return self.text


Reading = tuple[Pattern, int]
"""One way to read a set of cards: (pattern, key)."""


_GE1, _GE2, _GE3, _GE4 = (ONES * ((1 << (FIELD - 1)) - k) for k in (1, 2, 3, 4))
_TOP = FIELD - 1
_JOKERS = (1 << (FIELD * SMALL_JOKER + _TOP)) | (1 << (FIELD * BIG_JOKER + _TOP))
_SEQ = sum(1 << (FIELD * r + _TOP) for r in range(ACE + 1))
# WINDOW[m][hi]: the mask of the m ranks hi-m+1 .. hi (a chain of length m ending at hi).
WINDOW = [
    [
        sum(1 << (FIELD * r + _TOP) for r in range(hi - m + 1, hi + 1)) if hi >= m - 1 else 0
        for hi in range(NRANKS)
    ]
    for m in range(NRANKS + 1)
]


def masks(p: int) -> tuple[int, int, int, int]:
    """The ranks holding at least 1, 2, 3 and 4 cards of a packed vector, as masks with the
    top bit of each rank's byte (``notation.packed``)."""
    return (p + _GE1) & HIGH, (p + _GE2) & HIGH, (p + _GE3) & HIGH, (p + _GE4) & HIGH


def top(mask: int) -> int:
    """The highest rank of a non-empty mask."""
    return (mask.bit_length() - FIELD) // FIELD


def _low(mask: int) -> int:
    return ((mask & -mask).bit_length() - FIELD) // FIELD


def _is_chain(mask: int) -> bool:
    """Consecutive ranks, none above A (sequences never hold a 2 or a joker)."""
    hi = top(mask)
    return hi <= ACE and mask.bit_count() == hi - _low(mask) + 1


def kinds(p: int, rules: PatternRules = CLASSIC) -> tuple[Reading, ...]:
    """``readings`` of a packed vector: a handful of integer operations, no loop."""
    m1, m2, m3, m4 = masks(p)
    e1, e2, e3 = m1 ^ m2, m2 ^ m3, m3 ^ m4
    c1, c2, c3, c4 = e1.bit_count(), e2.bit_count(), e3.bit_count(), m4.bit_count()
    n = c1 + 2 * c2 + 3 * c3 + 4 * c4
    found: list[Reading] = []
    if n <= 2:
        if n == 1:
            found.append((Pattern.SINGLE, top(e1)))
        elif c2:
            found.append((Pattern.PAIR, top(e2)))
        elif e1 == _JOKERS:
            found.append((Pattern.ROCKET, BIG_JOKER))
    elif c4:
        if c4 == 1 and not c3:
            f = top(m4)
            if n == 4:
                found.append((Pattern.BOMB, f))
            elif n == 6 and (c2 or e1 != _JOKERS):
                # Two singles, which may be of one rank (3333+55), never the rocket.
                found.append((Pattern.FOUR_SINGLES, f))
            elif n == 8 and c2 == 2:
                found.append((Pattern.FOUR_PAIRS, f))
    elif c3:
        if c3 == 1:
            t = top(e3)
            if n == 3:
                found.append((Pattern.TRIO, t))
            elif n == 4:
                found.append((Pattern.TRIO_SINGLE, t))
            elif n == 5 and c2:
                found.append((Pattern.TRIO_PAIR, t))
        else:
            chain = _is_chain(e3)
            if n == 3 * c3 and chain:
                found.append((Pattern.PLANE, top(e3)))
            if not n & 3 and e1 & _JOKERS != _JOKERS:
                # m trios with m single wings; the wings may hold a pair or a trio.
                m = n >> 2
                row = WINDOW[m]
                for hi in range(min(top(e3), ACE), m - 2, -1):
                    w = row[hi]
                    if e3 & w == w:
                        found.append((Pattern.PLANE_SINGLES, hi))
                        break
            if not c1 and c2 == c3 and chain:
                found.append((Pattern.PLANE_PAIRS, top(e3)))
    elif c2:
        if not c1 and c2 >= 3 and _is_chain(e2):
            found.append((Pattern.PAIR_STRAIGHT, top(e2)))
    elif c1 >= 5 and _is_chain(e1):
        found.append((Pattern.STRAIGHT, top(e1)))
    if rules is not CLASSIC:
        found = [f for f in found if rules.allows(f[0])]
        if not rules.paired_singles:
            # 麻辣: the attached singles all of different ranks — 四带二's two are two ranks,
            # a plane's wings hold no pair or trio (its trios are then exactly the chain).
            found = [
                f
                for f in found
                if (f[0] is not Pattern.FOUR_SINGLES or c1 == 2)
                and (f[0] is not Pattern.PLANE_SINGLES or (not c2 and c3 == n >> 2))
            ]
        return tuple(found)
    return tuple(found)


def readings(counts: Counts, rules: PatternRules = CLASSIC) -> tuple[Reading, ...]:
    """牌型判断: every (pattern, key) the cards can be read as; () if they are no play.

    Only four consecutive trios have two readings (三顺, then 飞机带单翅膀). Where one
    pattern fits with several keys (``333444555+666``: the chain 345 or 456) the highest
    key is the reading, as it beats everything the others do.

    >>> [(p.name, k) for p, k in readings((3, 3, 3, 3) + (0,) * 11)]
    [('PLANE', 3), ('PLANE_SINGLES', 3)]
    """
    return kinds(pack(counts), rules)


def classify(counts: Counts, rules: PatternRules = CLASSIC) -> Reading | None:
    """牌型判断: the first reading of a set of cards (see ``readings``), or None."""
    found = readings(counts, rules)
    return found[0] if found else None


SUFFIX: dict[Pattern, str] = {Pattern.PLANE: "chain", Pattern.PLANE_SINGLES: "plane"}
"""The canonical reading word of each pattern that can share its cards with another."""
_SUFFIX_PATTERN = {"chain": Pattern.PLANE, "plane": Pattern.PLANE_SINGLES}
READING_WORDS: dict[str, str] = {
    "chain": "chain",
    "trios": "chain",
    "三顺": "chain",
    "连三": "chain",
    "飞机不带": "chain",
    "plane": "plane",
    "wings": "plane",
    "wing": "plane",
    "飞机带翅膀": "plane",
    "带翅膀": "plane",
    "翅膀": "plane",
    "飞机": "plane",
}
"""Typed reading words (aliases, Chinese included) → the canonical word."""
_READING_ENDINGS = tuple(sorted(READING_WORDS, key=len, reverse=True))


def split_reading(text: str) -> tuple[str, str | None]:
    """The cards part of a typed play and its canonical reading word, if one ends it.

    >>> split_reading("333444555666 Plane")
    ('333444555666', 'plane')
    >>> split_reading("333444555666三顺")
    ('333444555666', 'chain')
    >>> split_reading("33344")
    ('33344', None)
    """
    low = text.rstrip().lower()
    if low and low[-1] in _LAST_CHARS:
        for word in _READING_ENDINGS:
            if low.endswith(word):
                return text.rstrip()[: len(low) - len(word)].rstrip(), READING_WORDS[word]
    return text, None


_LAST_CHARS = frozenset(w[-1] for w in READING_WORDS)

_CACHE_LIMIT = 2048
"""The most entries each PlayBook memo holds (``engines.memo``)."""


class PlayBook:
    """Memoized classification of plays under one PatternRules (text and counts → Play).

    Both memos are bounded by ``_CACHE_LIMIT`` entries."""

    def __init__(self, rules: PatternRules) -> None:
        self.rules = rules
        self._by_counts = Memo("engines.doudizhu.patterns.PlayBook.readings", _CACHE_LIMIT)
        self._by_text = Memo("engines.doudizhu.patterns.PlayBook.texts", _CACHE_LIMIT)

    def __deepcopy__(self, memo: dict[int, object]) -> PlayBook:
        # A process-wide cache, not part of any game's state: copying a game shares it.
        return self

    def __copy__(self) -> PlayBook:
        return self

    def readings(self, counts: Counts) -> tuple[Play, ...]:
        """Every Play the cards can be read as (several only for four consecutive trios)."""
        try:
            return self._by_counts[counts]
        except KeyError:
            pass
        kinds = readings(counts, self.rules)
        cards = format_cards(counts)
        size = sum(counts)
        if len(kinds) > 1:
            plays = tuple(Play(counts, p, k, size, f"{cards} {SUFFIX[p]}") for p, k in kinds)
        else:
            plays = tuple(Play(counts, p, k, size, cards) for p, k in kinds)
        return self._by_counts.keep(counts, plays)

    def of(self, counts: Counts) -> Play | None:
        """The Play made of ``counts`` (its first reading), or None if it is no pattern."""
        plays = self.readings(counts)
        return plays[0] if plays else None

    def known(self, text: str) -> Play | None:
        """The Play of ``text`` if it was parsed before (a fast path), else None."""
        return self._by_text.get(text)

    def texts(self) -> dict[str, Play]:
        """The text → Play memo itself (read-only use: a fast path for hot loops)."""
        return self._by_text

    def clear(self) -> None:
        """Empty both memos (e.g. to measure the generator cold)."""
        self._by_counts.clear()
        self._by_text.clear()

    def sizes(self) -> tuple[int, int]:
        """How many entries the two memos hold now (each at most ``_CACHE_LIMIT``)."""
        return len(self._by_counts), len(self._by_text)

    def of_text(self, text: str) -> Play:
        """The Play of a text known to be a play (e.g. from the generator)."""
        play = self._by_text.get(text)
        if play is None:
            play = self.parse(text)
            assert play is not None, text
        return play

    def options(self, text: str) -> tuple[Play, ...]:
        """读牌: the readings a typed play may mean: one when the cards have one reading or
        the text names its reading, several for bare ambiguous cards; () for pass.

        Raises NotationError for unreadable text and IllegalActionError when the cards
        form no pattern, or not the named one."""
        hit = self._by_text.get(text)
        if hit is not None:
            return (hit,)
        if is_pass(text):
            return ()
        cards_text, word = split_reading(text)
        counts = parse_cards(cards_text)
        plays = self.readings(counts)
        cards = format_cards(counts)
        if not plays:
            self._refuse_attachments(counts, cards, None)
            raise IllegalActionError(
                "these cards are not a valid pattern (牌型)",
                action=cards,
                text=T("err.ddz.no_pattern", cards=cards),
            )
        if word is not None:
            wanted = _SUFFIX_PATTERN[word]
            plays = tuple(p for p in plays if p.pattern is wanted)
            if not plays:
                self._refuse_attachments(counts, cards, wanted)
                raise IllegalActionError(
                    f"{cards} cannot be read as {word}",
                    action=text,
                    text=T("err.ddz.no_reading", cards=cards, reading=T(f"ddz.reading.{word}")),
                )
        if len(plays) == 1:
            self._by_text.keep(text, plays[0])
        return plays

    def _refuse_attachments(self, counts: Counts, cards: str, wanted: Pattern | None) -> None:
        """IllegalActionError saying why, when the classic rules would read ``counts`` (as
        ``wanted``, if given) as an attachment these rules forbid: 麻辣's "只能带单张，不能带对子"
        (a pair attached, or attached singles forming a pair). Otherwise nothing."""
        if self.rules.pair_kickers and self.rules.paired_singles:
            return
        for pattern, _ in readings(counts):
            if wanted is not None and pattern is not wanted:
                continue
            if pattern in _PAIR_KICKERS or pattern in _SINGLE_KICKERS:
                raise IllegalActionError(
                    "here 三带一, 飞机 and 四带二 carry singles only, all of different ranks: "
                    "no pair attached, and no two attached singles of one rank",
                    action=cards,
                    text=T("err.ddz.singles_only", cards=cards),
                )

    def parse(self, text: str) -> Play | None:
        """A play in notation; None for pass. NotationError / IllegalActionError, also when
        the cards have several readings and the text names none."""
        plays = self.options(text)
        if not plays:
            return None
        if len(plays) > 1:
            raise ambiguous(plays)
        return plays[0]


def ambiguous(plays: tuple[Play, ...]) -> IllegalActionError:
    """The error for a play typed without its reading: it names the typed forms."""
    forms = " or ".join(f"`{p.text}`" for p in plays)
    return IllegalActionError(
        f"these cards can be played two ways: type {forms}",
        action=format_cards(plays[0].cards),
        text=T(
            "err.ddz.ambiguous",
            cards=format_cards(plays[0].cards),
            forms=" / ".join(f"`{p.text}`" for p in plays),
        ),
    )


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
    the cards form no pattern, or have two readings and the text names none.

    >>> parse_play("10 10 10 + 2").text
    'TTT2'
    >>> parse_play("333444555666 飞机").pattern.name
    'PLANE_SINGLES'
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
    "READING_WORDS",
    "Pattern",
    "PatternRules",
    "Play",
    "PlayBook",
    "ambiguous",
    "beats",
    "classify",
    "describe",
    "format_play",
    "parse_play",
    "play_of",
    "playbook",
    "readings",
    "split_reading",
]
