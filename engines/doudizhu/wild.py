"""癞子斗地主 (004 癞子场, GAMES.md §2.5): one rank is wild (癞子) for the hand.

The 癞子 stands for any rank but a joker, in any pattern; a play made **only** of 癞子 is
read as itself ("77" is only a pair of 7s, "7777" the pure wild bomb). Bombs: 软炸弹 (four of
a rank with at least one 癞子 standing in) < 硬炸弹 (four natural cards, no 癞子) < 纯癞子炸弹
(the four 癞子) < 火箭; within a tier by rank. Any other wild-built pattern is the same as
the natural one ("不区分大小").

**Notation.** A play in which a 癞子 stands for another rank is written ``cards=reading``:
the cards given up, then the cards they are read as, in the classic notation (with the
reading suffix where the classic one needs it): 癞子 7, ``445567=445566`` (DDZ-E3); 癞子 5,
``3335=3333`` (a soft bomb) beside ``3335`` (三带一, nothing standing in). A play without
``=`` is read as its own cards. Where one set of cards has several readings (``3335``) each
is its own text, so the player chooses by what it types.

**Attachments.** 004 lets the 癞子 join "any of the patterns above" (癞子不妨和其他牌搭配成
上述各种牌型) and names no exception, so an attached card (带牌, wings) may be a 癞子 too: as
itself (``3335``, 癞子 5), completing an attached pair (``3334Q=33344``, 癞子 Q) or standing
for any rank (``3222=3555``, 癞子 2: three 癞子 and a 3 are 三带一 of any rank but 3).

**One reading per play.** Two readings of the same cards with the same pattern, key and size
play alike (a 癞子 kicker standing for a 4 or for a 9): only one is listed, the one with the
fewest 癞子 standing in, then the first reading text (so natural readings are kept).

**Generation.** ``plays`` builds each pattern's main part (the trio, four, sequence or trio
chain) with as many 癞子 as it needs, then the attachments from what is left, where a 癞子
stands as itself unless that would change the play (``_readings``); ``reference`` finds the
same list the slow way (every substitution of every 癞子), and the tests hold the two equal.
Following generates only the previous play's pattern and size, and the bombs.

>>> from engines.doudizhu.notation import parse_cards
>>> sorted(p.text for p in plays(parse_cards("3335"), wild=2) if p.size == 4)
['3335', '3335=3333']
>>> [p.pattern.name for p in plays(parse_cards("5555"), wild=2) if p.size == 4]
['WILD_BOMB']
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations_with_replacement, compress, product
from operator import attrgetter

from engines.base import T
from engines.doudizhu.moves import lead_plays
from engines.doudizhu.notation import (
    ACE,
    CH,
    NRANKS,
    RANKS,
    SMALL_JOKER,
    Counts,
    format_cards,
    parse_cards,
)
from engines.doudizhu.patterns import CLASSIC, Pattern, Play, PlayBook, ambiguous, playbook
from engines.errors import IllegalActionError
from engines.memo import Memo

TIER = {Pattern.SOFT_BOMB: 1, Pattern.BOMB: 2, Pattern.WILD_BOMB: 3, Pattern.ROCKET: 4}
"""Bomb tiers (004): 软炸弹 < 硬炸弹 < 纯癞子炸弹 < 火箭."""
FACTOR = {Pattern.SOFT_BOMB: 2, Pattern.BOMB: 4, Pattern.WILD_BOMB: 4, Pattern.ROCKET: 4}
"""倍数 of each bomb played in the 癞子场 (004: 软炸弹 ×2, 硬炸弹 ×4, 纯癞子 ×4, 王炸 ×4)."""
_MEMO = Memo("engines.doudizhu.wild.plays", 384)
"""Leads by (hand, 癞子 rank); the candidates of a follow by (hand, 癞子 rank, pattern, size)."""
_TEXT = attrgetter("text")
_RANKS = range(NRANKS)
_BOMB = Pattern.BOMB
_SINGLE, _PAIR, _TRIO = Pattern.SINGLE, Pattern.PAIR, Pattern.TRIO
_TRIO_SINGLE, _TRIO_PAIR = Pattern.TRIO_SINGLE, Pattern.TRIO_PAIR
_FOUR_SINGLES, _FOUR_PAIRS = Pattern.FOUR_SINGLES, Pattern.FOUR_PAIRS
_WIDTH = {Pattern.STRAIGHT: 1, Pattern.PAIR_STRAIGHT: 2}
_PLANES = {Pattern.PLANE: 3, Pattern.PLANE_SINGLES: 4, Pattern.PLANE_PAIRS: 5}
"""Cards per trio of each trio-chain pattern."""


def beats(play: Play, previous: Play) -> bool:
    """管得上 with the bomb tiers; other plays as classic (same pattern and size, higher key)."""
    mine, theirs = TIER.get(play.pattern, 0), TIER.get(previous.pattern, 0)
    if mine or theirs:
        return mine > theirs or (mine == theirs and play.key > previous.key)
    return (
        play.pattern is previous.pattern and play.size == previous.size and play.key > previous.key
    )


def _tiered(read: Play, wild: int, subs: int) -> Pattern:
    if read.pattern is Pattern.BOMB:
        if subs:
            return Pattern.SOFT_BOMB
        return Pattern.WILD_BOMB if read.key == wild else Pattern.BOMB
    return read.pattern


def make(phys: Counts, read: Play, wild: int, subs: int) -> Play:
    """The Play of cards ``phys`` read as ``read`` with ``subs`` 癞子 standing in."""
    pattern = _tiered(read, wild, subs)
    if not subs:
        if pattern is read.pattern:
            return read  # the cards as themselves: the classic play
        return Play(read.cards, pattern, read.key, read.size, read.text, read.parts)
    parts = tuple(zip(compress(_RANKS, phys), filter(None, phys)))
    text = "".join([CH[r][c] for r, c in parts]) + "=" + read.text
    return Play(read.cards, pattern, read.key, read.size, text, parts)


def _splits(hand: Counts, read: Counts, wild: int) -> list[tuple[Counts, int]]:
    """Every way of making ``read`` from the hand: (the cards given up, 癞子 standing in)."""
    spare = hand[wild] - read[wild]
    if spare < 0 or read[SMALL_JOKER] > hand[SMALL_JOKER]:
        return []
    if read[SMALL_JOKER + 1] > hand[SMALL_JOKER + 1]:
        return []
    base = list(read)
    forced = 0
    flexible: list[tuple[int, int]] = []
    for r in range(SMALL_JOKER):
        c = read[r]
        if c and r != wild:
            h = hand[r]
            if c > h:
                forced += c - h
                base[r] = h
                if h:
                    flexible.append((r, h))
            else:
                flexible.append((r, c))
    if forced > spare:
        return []
    states = [(base, forced)]
    for r, most in flexible:
        grown = []
        for phys, subs in states:
            for j in range(1, min(most, spare - subs) + 1):
                more = list(phys)
                more[r] -= j
                grown.append((more, subs + j))
        states += grown
    size = sum(read)
    out = []
    for phys, subs in states:
        phys[wild] = read[wild] + subs
        if subs and phys[wild] == size:
            continue  # only 癞子: read as themselves
        out.append((tuple(phys), subs))
    return out


def plays(
    hand: Counts, wild: int, previous: Play | None = None, book: PlayBook | None = None
) -> list[Play]:
    """The legal plays of a hand with 癞子 rank ``wild`` (every lead, or those beating
    ``previous``): the classic plays of the hand with each 癞子 free to be any rank,
    one per (cards, pattern, key, size)."""
    hand = tuple(hand)
    found = _MEMO.get((hand, wild))
    if found is None:
        if previous is not None and hand[wild]:
            # Following: only the previous play's pattern and size, and the bombs.
            shape = (hand, wild, previous.pattern, previous.size)
            found = _MEMO.get(shape)
            if found is None:
                want = (previous.pattern, previous.size)
                found = _generate(hand, wild, book or playbook(CLASSIC), want)
                _MEMO.keep(shape, found)
            return [p for p in found if beats(p, previous)]
        found = _generate(hand, wild, book or playbook(CLASSIC))
        _MEMO.keep((hand, wild), found)
    if previous is None:
        return list(found)
    return [p for p in found if beats(p, previous)]


def _generate(
    hand: Counts, wild: int, book: PlayBook, want: tuple[Pattern, int] | None = None
) -> tuple[Play, ...]:
    """One play per (cards, pattern, key, size), sorted by text; ``want``: only plays of this
    (pattern, size) and the bombs (a follow's candidates)."""
    w = hand[wild]
    if not w:
        return tuple(
            sorted((make(c.cards, c, wild, 0) for c in _natural(hand, book)), key=lambda p: p.text)
        )
    best: dict[tuple[Counts, int, int], tuple[int, str, Play]] = {}
    get = best.get
    readings_of = book.readings
    for reading in _readings(hand, wild, want):
        options = readings_of(reading)
        if not options:
            continue
        splits = _splits(hand, reading, wild)
        for read in options:
            text, key = read.text, read.key
            # (id: the pattern's identity, cheaper to hash than the Enum member; the size is
            # the cards' own)
            pid = id(read.pattern)
            tiered = read.pattern is _BOMB
            for phys, subs in splits:
                if tiered:
                    pid = id(_tiered(read, wild, subs))
                slot = (phys, pid, key)
                old = get(slot)
                if old is None or subs < old[0] or (subs == old[0] and text < old[1]):
                    best[slot] = (subs, text, read)
    found = [make(slot[0], read, wild, subs) for slot, (subs, _, read) in best.items()]
    found.sort(key=_TEXT)
    return tuple(found)


def _readings(hand: Counts, wild: int, want: tuple[Pattern, int] | None = None) -> set[Counts]:
    """The candidate readings (read-as counts) of a hand holding 癞子: every pattern's main
    part (single, pair, trio, bomb, sequences, trio chains) the 癞子 can complete, each with
    every attachment the rest of the hand can give.

    An attachment takes natural cards, 癞子 as themselves, and 癞子 completing natural cards
    of a rank; a 癞子 stands for a rank the hand lacks ("fresh") in an attachment only where
    standing as itself would change the play: when its own rank is in the main part, or
    (singles) when it would make a trio of the 癞子 rank, or (pairs) when 癞子 already pair
    as themselves. Any other fresh attachment has a reading of the same cards, pattern and
    key with fewer 癞子 standing in, so it is never the listed one (``reference`` agrees).

    ``want`` (pattern, size): only the readings that may be of that pattern and size, and the
    bombs."""
    need = _needs(hand, wild)
    group, with_singles, with_pairs, chains, plane, top = _shapes(want)
    out: set[Counts] = set()
    _groups(out, hand, wild, need, group, with_singles, with_pairs)
    _chains(out, hand, wild, need, want, chains, plane, top)
    return out


_Shapes = tuple[list[bool], list[bool], list[bool], dict[int, int], dict[bool, int], int]
"""What ``_readings`` looks for: by count (0-4) the groups, the groups with singles, with
pairs; the chains (width: the shortest run), the planes (attached pairs: the shortest), and
the longest run."""


def _needs(hand: Counts, wild: int) -> list[list[int]]:
    """How many 癞子 make ``c`` cards of rank ``r`` (``need[r][c]``): ``hand[wild] + 1``
    where none can (a joker)."""
    w = hand[wild]
    need = [[0] * 5 for _ in range(NRANKS)]
    for r in range(NRANKS):
        for c in range(5):
            if r == wild:
                need[r][c] = c
            elif r >= SMALL_JOKER:
                need[r][c] = 0 if c <= hand[r] else w + 1
            else:
                need[r][c] = max(0, c - hand[r])
    return need


def _shapes(want: tuple[Pattern, int] | None) -> _Shapes:
    """The patterns ``_readings`` reads: all of them, or those of ``want`` (and the bombs)."""
    group = [True] * 5  # single, pair, trio, bomb (always)
    with_singles = [False, False, False, True, True]  # attachments beside a trio, a four
    with_pairs = list(with_singles)
    chains = {1: 5, 2: 3, 3: 2}  # width: the shortest run
    plane = {False: 2, True: 2}  # attached pairs: the shortest plane
    top = ACE + 1
    if want is not None:
        pattern, size = want
        group = [False, pattern is _SINGLE, pattern is _PAIR, pattern is _TRIO, True]
        with_singles = [False, False, False, pattern is _TRIO_SINGLE, pattern is _FOUR_SINGLES]
        with_pairs = [False, False, False, pattern is _TRIO_PAIR, pattern is _FOUR_PAIRS]
        chains = {}
        plane = {}
        width = _WIDTH.get(pattern)
        if width is not None:
            chains[width] = size // width
            top = size // width
        elif pattern in _PLANES:
            chains[3] = size // _PLANES[pattern]
            top = chains[3]
            if pattern is not Pattern.PLANE:
                del chains[3]
                plane[pattern is Pattern.PLANE_PAIRS] = top
    return group, with_singles, with_pairs, chains, plane, top


def _groups(
    out: set[Counts],
    hand: Counts,
    wild: int,
    need: list[list[int]],
    group: list[bool],
    with_singles: list[bool],
    with_pairs: list[bool],
) -> None:
    """The readings of one rank (single, pair, trio, bomb, with their attachments) and the
    rocket, into ``out``."""
    w = hand[wild]
    for r in range(NRANKS):
        for c in range(1, 5):
            cost = need[r][c]
            if cost > w:
                break
            body = [0] * NRANKS
            body[r] = c
            if group[c] and (r == wild or hand[r]):  # (癞子 alone are read as themselves)
                out.add(tuple(body))
            if with_singles[c]:
                _attached(out, hand, wild, need, body, (r,), c - 2, w - cost, False)
            if with_pairs[c]:
                _attached(out, hand, wild, need, body, (r,), c - 2, w - cost, True)
    if hand[SMALL_JOKER] and hand[SMALL_JOKER + 1]:
        body = [0] * NRANKS
        body[SMALL_JOKER] = body[SMALL_JOKER + 1] = 1
        out.add(tuple(body))


def _chains(
    out: set[Counts],
    hand: Counts,
    wild: int,
    need: list[list[int]],
    want: tuple[Pattern, int] | None,
    chains: dict[int, int],
    plane: dict[bool, int],
    top: int,
) -> None:
    """The readings of runs (顺子, 连对, 三顺) and planes with their attachments, into
    ``out`` (``want``: only those of its length)."""
    w = hand[wild]
    for width in (1, 2, 3):
        shortest = chains.get(width, 99)
        if width == 3 and plane:
            shortest = min(shortest, *plane.values())
        for s in range(ACE + 1):
            cost = 0
            body = [0] * NRANKS
            for e in range(s, min(ACE, s + top - 1) + 1):
                cost += need[e][width]
                if cost > w:
                    break
                body[e] = width
                length = e - s + 1
                if length < shortest:
                    continue
                if width in chains and (want is None or length == chains[width]):
                    out.add(tuple(body))
                if width == 3:
                    chain = tuple(range(s, e + 1))
                    for pairs, m in plane.items():
                        if want is None or length == m:
                            _attached(out, hand, wild, need, body, chain, length, w - cost, pairs)


def _attached(
    out: set[Counts],
    hand: Counts,
    wild: int,
    need: list[list[int]],
    body: list[int],
    main: tuple[int, ...],
    k: int,
    rem: int,
    pairs: bool,
) -> None:
    """``body`` with ``k`` attached singles (up to three of a rank beside a chain, two beside
    a four, one beside a trio) or ``k`` pairs of different ranks, none of a rank in ``main``,
    using at most ``rem`` 癞子 (see ``_readings`` for the fresh ranks); into ``out``."""
    inside = wild in main
    cap = 2 if pairs else 3 if len(main) > 1 else 2 if body[main[0]] == 4 else 1
    fresh_ok = inside or rem >= (4 if pairs else 3)
    ranks: list[tuple[int, int, bool]] = []
    for r in range(NRANKS):
        if r in main or (pairs and r >= SMALL_JOKER):
            continue
        fresh = r != wild and not hand[r]
        if fresh and (r >= SMALL_JOKER or not fresh_ok):
            continue
        ranks.append((r, hand[r] if r >= SMALL_JOKER else cap, fresh))
    steps = (2,) if pairs else (1, 2, 3)
    reading = list(body)
    n = len(ranks)

    def walk(i: int, left: int, budget: int, fresh: int) -> None:
        if not left:
            if fresh and not inside:
                spare = reading[wild]
                if spare < 2 if pairs else spare + fresh < 3:
                    return
            if not pairs and reading[SMALL_JOKER] and reading[SMALL_JOKER + 1]:
                return  # never the rocket as two attachments
            out.add(tuple(reading))
            return
        for j in range(i, n):
            r, top, new = ranks[j]
            cost_of = need[r]
            for c in steps:
                if c > top or c > (left * 2 if pairs else left):
                    break
                cost = cost_of[c]
                if cost > budget:
                    break
                reading[r] = c
                walk(j + 1, left - (1 if pairs else c), budget - cost, fresh + c * new)
            reading[r] = 0

    walk(0, k, rem, 0)


def _natural(hand: Counts, book: PlayBook) -> list[Play]:
    return [book.of_text(t) for t in lead_plays(hand)]


def bombs(hand: Counts, wild: int, book: PlayBook | None = None) -> list[Play]:
    """The bombs of a hand (soft, hard, pure 癞子) and the rocket, straight from the counts:
    the same as the bombs among ``plays`` (tested), without generating the rest."""
    book = book or playbook(CLASSIC)
    w = hand[wild]
    out: list[Play] = []
    for r in range(SMALL_JOKER):
        if r == wild:
            continue
        four = book.of_text(RANKS[r] * 4)
        if hand[r] == 4:
            out.append(make(four.cards, four, wild, 0))
        for n in range(max(1, 4 - w), min(3, hand[r]) + 1):
            phys = [0] * NRANKS
            phys[r], phys[wild] = n, 4 - n
            out.append(make(tuple(phys), four, wild, 4 - n))
    if w == 4:
        four = book.of_text(RANKS[wild] * 4)
        out.append(make(four.cards, four, wild, 0))
    if hand[SMALL_JOKER] and hand[SMALL_JOKER + 1]:
        out.append(book.of_text("BR"))
    return sorted(out, key=lambda p: p.text)


def read(text: str, hand: Counts, wild: int, previous: Play | None, book: PlayBook) -> Play:
    """读牌 with 癞子: ``cards=reading`` or plain cards (read as themselves when that is a
    pattern legal now; otherwise the one reading of them that is legal now, any when leading
    or beating ``previous``). None legal: refused naming the readings; several: the player
    is asked to type one (``cards=reading``). The result is always one of ``plays`` for the
    hand, so typed and listed plays agree.

    >>> book = playbook(CLASSIC)
    >>> read("666T", parse_cards("666T"), RANKS.index("T"), book.of_text("22"), book).text
    '666T=6666'
    """
    phys_text, eq, read_text = text.partition("=")
    phys = parse_cards(phys_text)
    cards = format_cards(phys)
    if any(c > h for c, h in zip(phys, hand)):
        raise IllegalActionError(
            "you do not hold these cards", action=text, text=T("err.ddz.not_held", cards=cards)
        )
    # The plays of the hand made of exactly these cards are the plays of these cards alone
    # that use them all (a reading's choice depends on the cards given up only).
    size = sum(phys)
    same = [p for p in plays(phys, wild) if p.size == size]
    if eq:
        return _read_as(text, cards, read_text, same, wild, book)
    mine = _as_themselves(text, same, previous, book)
    if mine is not None:
        return mine
    # Otherwise the readings of these cards that are legal now (any, leading; those beating
    # the table, following): one is taken, none is refused naming them, several are asked.
    fitting = [p for p in same if previous is None or beats(p, previous)]
    if len(fitting) == 1:
        return fitting[0]
    raise _unread(cards, same, fitting, wild, previous)


def _read_as(
    text: str, cards: str, read_text: str, same: list[Play], wild: int, book: PlayBook
) -> Play:
    """``cards=reading``: the play of ``same`` read as ``read_text``, else refused."""
    wanted = book.options(read_text.strip())
    for option in wanted:
        for p in same:
            if (p.cards, p.key, p.size) == (option.cards, option.key, option.size) and (
                option.pattern is p.pattern or TIER.get(p.pattern)
            ):
                return p
    raise IllegalActionError(
        f"{cards} cannot be read as {read_text.strip()} with the 癞子 {RANKS[wild]}",
        action=text,
        text=T("err.ddz.wild_reading", cards=cards, reading=read_text.strip(), wild=RANKS[wild]),
    )


def _as_themselves(
    text: str, same: list[Play], previous: Play | None, book: PlayBook
) -> Play | None:
    """The cards of ``text`` read as themselves (a natural play of ``same``) when that is
    legal now; None otherwise."""
    natural = {p.text: p for p in same if "=" not in p.text}
    if natural:
        # Read as themselves, by the classic rules (a suffix names 三顺 or 飞机), when that is
        # legal now: the listed text of a natural play always means that play.
        options = book.options(text)
        if len(options) > 1:
            if previous is None:
                raise ambiguous(options)
            options = tuple(o for o in options if beats(o, previous)) or options
        mine = natural.get(options[0].text)
        if mine is not None and (previous is None or beats(mine, previous)):
            return mine
    return None


def _unread(
    cards: str, same: list[Play], fitting: list[Play], wild: int, previous: Play | None
) -> IllegalActionError:
    """The refusal of cards with no reading legal now (none, none beating, or several)."""
    if not same:
        return IllegalActionError(
            "these cards are not a valid pattern (牌型)",
            action=cards,
            text=T("err.ddz.no_pattern", cards=cards),
        )
    wild_rank = RANKS[wild]
    if not fitting:
        assert previous is not None
        pattern = T("ddz.pattern." + previous.pattern.name.lower())
        # one reading: name it (its `=` form); several: list them
        one = len(same) == 1
        readings = f"`{same[0].text}`" if one else _forms(same)
        key, arg = ("err.ddz.wild_not_beat", "reading") if one else ("err.ddz.wild_none_beat",
                                                                     "forms")
        return IllegalActionError(
            f"with the 癞子 {wild_rank} these cards read as {readings}; none beats "
            f"{previous.text}",
            action=cards,
            text=T(key, cards=cards, wild=wild_rank, last=previous.text, pattern=pattern,
                   **{arg: readings}),
        )
    forms = _forms(fitting)
    return IllegalActionError(
        f"with the 癞子 these cards can be read several ways: type {forms}",
        action=cards,
        text=T("err.ddz.wild_choose", cards=cards, forms=forms, wild=wild_rank),
    )


def _forms(found: list[Play]) -> str:
    """The texts of some readings, to type: natural first, then by text; at most six."""
    ordered = sorted(found, key=lambda p: ("=" in p.text, p.text))
    return " / ".join(f"`{p.text}`" for p in ordered[:6])


def reference(hand: Counts, wild: int, book: PlayBook | None = None) -> list[Play]:
    """The legal leads of ``plays`` found the slow way, for tests and benchmarks: every
    substitution of every 癞子 of the hand (each read as any rank but a joker), every classic
    play of the hand so read, every way of making it from the real cards; one play per
    (cards, pattern, key, size), the fewest 癞子 standing in, then the first reading."""
    book = book or playbook(CLASSIC)
    w = hand[wild]
    base = list(hand)
    base[wild] = 0
    found: set[Counts] = set()
    for targets in combinations_with_replacement(range(SMALL_JOKER), w):
        whole = list(base)
        for t in targets:
            whole[t] = min(4, whole[t] + 1)
        for text in lead_plays(tuple(whole)):
            found.add(parse_cards(text.split(" ", 1)[0]))
    best: dict[tuple[Counts, Pattern, int, int], tuple[int, str, Play]] = {}
    for cards in found:
        for read in book.readings(cards):
            for phys, subs in _made_of(hand, cards, wild):
                play = make(phys, read, wild, subs)
                key = (phys, play.pattern, play.key, play.size)
                if key not in best or (subs, read.text) < best[key][:2]:
                    best[key] = (subs, read.text, play)
    return sorted((v[2] for v in best.values()), key=lambda p: p.text)


def _made_of(hand: Counts, cards: Counts, wild: int) -> Iterator[tuple[Counts, int]]:
    """Every way of taking ``cards`` (read-as counts) from the hand: naturals of each rank,
    the rest 癞子 standing in; 癞子 only are never read as another rank."""
    if any(cards[r] > hand[r] for r in (SMALL_JOKER, SMALL_JOKER + 1)):
        return
    ranks = [r for r in range(SMALL_JOKER) if r != wild and cards[r]]
    for naturals in product(*(range(min(cards[r], hand[r]) + 1) for r in ranks)):
        phys = list(cards)
        subs = 0
        for r, n in zip(ranks, naturals):
            phys[r] = n
            subs += cards[r] - n
        phys[wild] = cards[wild] + subs
        if phys[wild] <= hand[wild] and not (subs and sum(phys) == phys[wild]):
            yield tuple(phys), subs


__all__ = ["FACTOR", "TIER", "beats", "bombs", "make", "plays", "read", "reference"]
