"""四人斗地主 (001 《四人斗地主》, GAMES.md §2.7): two decks, four seats, its own patterns.

Cards: two decks (108), so up to 8 of a rank and 2 of each joker; the notation is the
classic one (``33333``, ``BBRR``). Patterns (``classify``):

- 单张, 对子 (``BB`` and ``RR`` are pairs; ``BR`` is nothing: no rocket), 三张;
- 三带二: a trio and a pair of another rank (``55577``; never 三带一);
- 顺子 (5+), 连对 (3+ pairs), 三顺 (2+ trios): from 3 to A, never a 2 or a joker;
- 飞机带翅膀: a 三顺 and as many pairs, each of another rank, all different (``555666+99JJ``);
- 炸弹: 4 to 8 of a rank; more cards beat fewer, then the higher rank; 天王炸弹 ``BBRR``
  beats everything. No 四带二 (four of a rank is always a bomb).

Each set of cards has at most one reading. 倍数: a 6- or 7-card bomb ×2, an 8-card bomb or
天王炸弹 ×3; 4- and 5-card bombs none.

>>> classify(parse("555666JJ99")).pattern.name
'PLANE_PAIRS'
>>> classify(parse("3334")) is None
True
>>> beats(classify(parse("333333")), classify(parse("22222")))
True
>>> [p.text for p in plays(parse("33334"))]
['3', '4', '33', '333', '3333']
"""

from __future__ import annotations

from itertools import combinations
from typing import TYPE_CHECKING

from engines.base import Picker, T
from engines.doudizhu.notation import (
    ACE,
    BIG_JOKER,
    NRANKS,
    RANKS,
    SMALL_JOKER,
    Counts,
    _parse_slow,
    format_cards,
    label,
    limits,
)
from engines.doudizhu.patterns import Pattern, Play
from engines.errors import IllegalActionError
from engines.memo import Memo

if TYPE_CHECKING:
    from engines.doudizhu.game import DoudizhuGame

LIMITS = limits(2)
"""Two decks: 8 of each rank, 2 of each joker (the shoe's limits, ``engines.cards``)."""
_MEMO = Memo("engines.doudizhu.four.plays", 192)


def parse(text: str) -> Counts:
    """Cards of two decks in notation (NotationError for a card unknown or beyond two decks).

    >>> format_cards(parse("3 3 3 3 3 BJ BJ"))
    '33333BB'
    """
    return _parse_slow(text, LIMITS)


def _play(counts: list[int] | Counts, pattern: Pattern, key: int) -> Play:
    c = tuple(counts)
    return Play(c, pattern, key, sum(c), format_cards(c))


def _chain(ranks: list[int]) -> bool:
    return ranks[-1] <= ACE and ranks[-1] - ranks[0] == len(ranks) - 1


def classify(counts: Counts) -> Play | None:
    """The one reading of a set of cards, or None."""
    n = sum(counts)
    if n == 0:
        return None
    present = [r for r in range(NRANKS) if counts[r]]
    if n == 4 and counts[SMALL_JOKER] == 2 and counts[BIG_JOKER] == 2:
        return _play(counts, Pattern.KING_BOMB, BIG_JOKER)
    if len(present) == 1:
        r = present[0]
        c = counts[r]
        if c == 1:
            return _play(counts, Pattern.SINGLE, r)
        if c == 2:
            return _play(counts, Pattern.PAIR, r)
        if c == 3:
            return _play(counts, Pattern.TRIO, r)
        return _play(counts, Pattern.BOMB, r)
    by = {c: [r for r in present if counts[r] == c] for c in (1, 2, 3)}
    if any(counts[r] > 3 for r in present):
        return None
    k = len(present)
    if len(by[1]) == k and k >= 5 and _chain(present):
        return _play(counts, Pattern.STRAIGHT, present[-1])
    if len(by[2]) == k and k >= 3 and _chain(present):
        return _play(counts, Pattern.PAIR_STRAIGHT, present[-1])
    if len(by[3]) == k and k >= 2 and _chain(present):
        return _play(counts, Pattern.PLANE, present[-1])
    trios, pairs = by[3], by[2]
    if not by[1] and trios and len(trios) == len(pairs):
        if len(trios) == 1:
            return _play(counts, Pattern.TRIO_PAIR, trios[0])
        if _chain(trios):
            return _play(counts, Pattern.PLANE_PAIRS, trios[-1])
    return None


def beats(play: Play, previous: Play) -> bool:
    """管得上 (001): 天王炸弹 over all; a bomb over any non-bomb, bombs by (cards, rank);
    others: the same pattern and number of cards, higher key."""
    if previous.pattern is Pattern.KING_BOMB:
        return False
    if play.pattern is Pattern.KING_BOMB:
        return True
    if play.pattern is Pattern.BOMB:
        if previous.pattern is not Pattern.BOMB:
            return True
        return (play.size, play.key) > (previous.size, previous.key)
    return (
        play.pattern is previous.pattern and play.size == previous.size and play.key > previous.key
    )


def bomb_factor(play: Play) -> int:
    """倍数 of a bomb played (001): 6–7 cards ×2, 8 cards and 天王炸弹 ×3, else ×1."""
    if play.pattern is Pattern.KING_BOMB or play.size >= 8:
        return 3
    return 2 if play.size >= 6 else 1


def _all(counts: Counts) -> tuple[Play, ...]:
    """Every play a hand can make, in a fixed order (memoized, bounded)."""
    found = _MEMO.get(counts)
    if found is not None:
        return found
    out: list[Play] = []
    one = [0] * NRANKS

    def add(parts: dict[int, int], pattern: Pattern, key: int) -> None:
        c = list(one)
        for r, k in parts.items():
            c[r] = k
        out.append(_play(c, pattern, key))

    for r in range(NRANKS):
        if counts[r] >= 1:
            add({r: 1}, Pattern.SINGLE, r)
    for r in range(NRANKS):
        if counts[r] >= 2:
            add({r: 2}, Pattern.PAIR, r)
    pairable = [r for r in range(NRANKS) if counts[r] >= 2]
    for t in range(SMALL_JOKER):
        if counts[t] >= 3:
            add({t: 3}, Pattern.TRIO, t)
            for p in pairable:
                if p != t:
                    add({t: 3, p: 2}, Pattern.TRIO_PAIR, t)
    for width, least, pattern in (
        (1, 5, Pattern.STRAIGHT),
        (2, 3, Pattern.PAIR_STRAIGHT),
        (3, 2, Pattern.PLANE),
    ):
        for lo in range(ACE + 1):
            hi = lo
            while hi <= ACE and counts[hi] >= width:
                length = hi - lo + 1
                if length >= least:
                    chain = {r: width for r in range(lo, hi + 1)}
                    add(chain, pattern, hi)
                    if width == 3:
                        wings = [p for p in pairable if not lo <= p <= hi]
                        for pick in combinations(wings, length):
                            add(chain | {p: 2 for p in pick}, Pattern.PLANE_PAIRS, hi)
                hi += 1
    for r in range(SMALL_JOKER):
        for size in range(4, counts[r] + 1):
            add({r: size}, Pattern.BOMB, r)
    if counts[SMALL_JOKER] == 2 and counts[BIG_JOKER] == 2:
        add({SMALL_JOKER: 2, BIG_JOKER: 2}, Pattern.KING_BOMB, BIG_JOKER)
    result = tuple(out)
    return _MEMO.keep(counts, result)


def plays(counts: Counts, previous: Play | None = None) -> list[Play]:
    """The legal plays of a hand: every lead, or those beating ``previous``."""
    every = _all(tuple(counts))
    if previous is None:
        return list(every)
    return [p for p in every if beats(p, previous)]


def read(text: str) -> Play:
    """A typed play of 四人斗地主; IllegalActionError when the cards form no pattern."""
    counts = parse(text)
    play = classify(counts)
    if play is None:
        cards = format_cards(counts)
        raise IllegalActionError(
            f"{cards} is not a pattern of 四人斗地主",
            action=text,
            text=T("err.ddz.four_pattern", cards=cards),
        )
    return play


_TOKENS = "shcdSHCD"


def picker(hand: list[int]) -> Picker:
    """The seat's cards as tokens (``3s`` … ``3D``: eight of a rank; ``B``/``BJ``, ``R``/``RJ``
    for the two copies of each joker); one menu per group of at most 25, cut between ranks."""
    tokens: list[str] = []
    labels: list[str] = []
    groups: list[int] = []
    size = 0
    for rank, c in enumerate(hand):
        if not c:
            continue
        if size + c > Picker.MENU_SIZE:
            groups.append(size)
            size = 0
        for i in range(c):
            if rank >= SMALL_JOKER:
                tokens.append("BR"[rank - SMALL_JOKER] + ("J" if i else ""))
            else:
                tokens.append(RANKS[rank] + _TOKENS[i])
            labels.append(label(rank))
        size += c
    if size:
        groups.append(size)
    return Picker(tuple(tokens), tuple(labels), 1, len(tokens), "{}", "", tuple(groups))


# --- trustee ---------------------------------------------------------------------------------
def bid_for(hand: list[int] | Counts) -> int:
    """叫分 of the trustee: bombs, jokers and 2s make a landlord's hand."""
    strong = sum(2 for r in range(13) if hand[r] >= 4) + hand[SMALL_JOKER] + 2 * hand[BIG_JOKER]
    strong += hand[12] + (1 if hand[ACE] >= 3 else 0)
    return 3 if strong >= 10 else 2 if strong >= 8 else 1 if strong >= 6 else 0


def _breaks(hand: list[int] | Counts, play: Play) -> bool:
    """A non-bomb play taking cards from a rank of four or more."""
    return any(hand[r] >= 4 and c for r, c in play.parts if r < SMALL_JOKER)


def units(hand: list[int] | Counts) -> int:
    """A rough count of the plays a hand needs: one per rank held, a pair riding on a trio
    (三带二) for free, five or more single ranks in a row as one 顺子."""
    ranks = [r for r in range(NRANKS) if hand[r]]
    trios = sum(1 for r in ranks if hand[r] == 3)
    pairs = sum(1 for r in ranks if hand[r] == 2)
    run = best = 0
    for r in range(ACE + 1):
        run = run + 1 if hand[r] == 1 else 0
        best = max(best, run)
    return len(ranks) - min(trios, pairs) - (best - 1 if best >= 5 else 0)


def _rest(hand: list[int] | Counts, play: Play) -> list[int]:
    rest = list(hand)
    for r, c in play.parts:
        rest[r] -= c
    return rest


def choose(game: DoudizhuGame, seat: int) -> str:
    """托管 for 四人: bid by strength; play what leaves the fewest plays to make (``units``),
    lowest first, keeping bombs whole; partners let each other's plays stand; a bomb only
    against an opponent close to going out, to keep the landlord's lead, or to go out."""
    phase = game.phase()
    hand = game.hands[seat]
    if phase == "bid":
        bid = bid_for(hand)
        return f"bid {bid}" if bid > game.high else "nobid"
    if phase == "double":
        return "nodouble"
    landlord = game.landlord
    options = plays(tuple(hand), game.last)
    size = sum(hand)
    for p in options:
        if p.size == size:
            return p.text  # 出完
    opponents = [s for s in range(game.n) if (s == landlord) != (seat == landlord)]
    danger = min(sum(game.hands[o]) for o in opponents)
    plain = [p for p in options if p.pattern not in (Pattern.BOMB, Pattern.KING_BOMB)]
    whole = [p for p in plain if not _breaks(hand, p)]

    def score(p: Play) -> tuple[int, int]:
        key = -p.key if danger <= p.size else p.key  # an opponent about to go out: high
        return units(_rest(hand, p)), key

    if game.last is None:
        pool = whole or plain or options
        return min(pool, key=score).text
    if seat != landlord and game.last_seat != landlord:
        return "pass"
    if whole:
        return min(whole, key=score).text
    if plain or (options and (danger <= 6 or seat == landlord)):
        pool = plain or options
        return min(pool, key=lambda p: (p.pattern is Pattern.KING_BOMB, p.size, p.key)).text
    return "pass"


__all__ = ["LIMITS", "beats", "bomb_factor", "choose", "classify", "parse", "picker", "plays"]
