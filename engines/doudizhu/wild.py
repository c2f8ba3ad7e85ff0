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

**One reading per play.** Two readings of the same cards with the same pattern, key and size
play alike (a 癞子 kicker standing for a 4 or for a 9): only one is listed, the one with the
fewest 癞子 standing in, then the first reading text (so natural readings are kept).

>>> from engines.doudizhu.notation import parse_cards
>>> sorted(p.text for p in plays(parse_cards("3335"), wild=2) if p.size == 4)
['3335', '3335=3333']
>>> [p.pattern.name for p in plays(parse_cards("5555"), wild=2) if p.size == 4]
['WILD_BOMB']
"""

from __future__ import annotations

from itertools import product

from engines.base import T
from engines.doudizhu.moves import lead_plays
from engines.doudizhu.notation import (
    FIELD,
    HIGH,
    NRANKS,
    ONES,
    RANKS,
    SMALL_JOKER,
    Counts,
    format_cards,
    pack,
    packed,
    parse_cards,
)
from engines.doudizhu.patterns import CLASSIC, Pattern, Play, PlayBook, ambiguous, playbook
from engines.errors import IllegalActionError

TIER = {Pattern.SOFT_BOMB: 1, Pattern.BOMB: 2, Pattern.WILD_BOMB: 3, Pattern.ROCKET: 4}
"""Bomb tiers (004): 软炸弹 < 硬炸弹 < 纯癞子炸弹 < 火箭."""
FACTOR = {Pattern.SOFT_BOMB: 2, Pattern.BOMB: 4, Pattern.WILD_BOMB: 4, Pattern.ROCKET: 4}
"""倍数 of each bomb played in the 癞子场 (004: 软炸弹 ×2, 硬炸弹 ×4, 纯癞子 ×4, 王炸 ×4)."""
_MEMO_LIMIT = 20_000
_FIELD_ONE = 1
_MEMO: dict[tuple[Counts, int], tuple[Play, ...]] = {}


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
    text = read.text if not subs else f"{format_cards(phys)}={read.text}"
    parts = tuple((r, c) for r, c in enumerate(phys) if c)
    return Play(read.cards, _tiered(read, wild, subs), read.key, read.size, text, parts)


def _splits(hand: Counts, read: Counts, wild: int) -> list[tuple[Counts, int]]:
    """Every way of making ``read`` from the hand: (the cards given up, 癞子 standing in)."""
    spare = hand[wild] - read[wild]
    if spare < 0:
        return []
    choices: list[range] = []
    ranks: list[int] = []
    for r in range(SMALL_JOKER):
        if r != wild and read[r]:
            lo = max(0, read[r] - spare)
            hi = min(read[r], hand[r])
            if lo > hi:
                return []
            ranks.append(r)
            choices.append(range(lo, hi + 1))
    for r in (SMALL_JOKER, SMALL_JOKER + 1):
        if read[r] > hand[r]:
            return []
    out = []
    for naturals in product(*choices):
        subs = sum(read[r] - n for r, n in zip(ranks, naturals))
        if subs > spare:
            continue
        phys = list(read)
        for r, n in zip(ranks, naturals):
            phys[r] = n
        phys[wild] = read[wild] + subs
        if subs and sum(phys) == phys[wild]:
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
        found = _generate(hand, wild, book or playbook(CLASSIC))
        if len(_MEMO) >= _MEMO_LIMIT:
            _MEMO.clear()
        _MEMO[(hand, wild)] = found
    if previous is None:
        return list(found)
    return [p for p in found if beats(p, previous)]


def _generate(hand: Counts, wild: int, book: PlayBook) -> tuple[Play, ...]:
    w = hand[wild]
    if not w:
        return tuple(
            sorted((make(c.cards, c, wild, 0) for c in _natural(hand, book)), key=lambda p: p.text)
        )
    wide = list(hand)
    for r in range(SMALL_JOKER):
        if r != wild:
            wide[r] = min(4, hand[r] + w)
    # A wide play needs sum(max(0, P[r] - hand[r])) 癞子 standing in (r not the 癞子 rank),
    # plus P[wild] 癞子 as themselves: computed on packed vectors, field by field, so that
    # most wide plays are dropped before they are read.
    keep = ONES & ~(_FIELD_ONE << (FIELD * wild)) & ~(_FIELD_ONE << (FIELD * SMALL_JOKER))
    keep &= ~(_FIELD_ONE << (FIELD * (SMALL_JOKER + 1)))
    keep7 = keep * 7
    h = pack(hand)
    wshift = FIELD * wild
    total = FIELD * (NRANKS - 1)
    size = sum(hand)
    best: dict[tuple[Counts, Pattern, int, int], tuple[int, str, Play]] = {}
    for text in lead_plays(tuple(wide)):
        cards = text.split(" ", 1)[0]
        if len(cards) > size:
            continue  # more cards than the hand holds (the wide hand is larger)
        p = packed(cards)
        assert p is not None
        x = (p | HIGH) - h
        pos = x & (((x & HIGH) >> (FIELD - 1)) * 7) & keep7
        need = ((pos * ONES) >> total) & 63
        if need + ((p >> wshift) & 63) > w:
            continue
        for read in book.options(text):
            for phys, subs in _splits(hand, read.cards, wild):
                play = make(phys, read, wild, subs)
                key = (phys, play.pattern, play.key, play.size)
                rank = (subs, read.text)
                old = best.get(key)
                if old is None or rank < old[:2]:
                    best[key] = (subs, read.text, play)
    return tuple(sorted((v[2] for v in best.values()), key=lambda p: p.text))


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
    """读牌 with 癞子: ``cards=reading`` or plain cards (read as themselves; when they are no
    pattern so, the one reading of them that fits the table). The result is always one of
    ``plays`` for the hand, so typed and listed plays agree."""
    phys_text, eq, read_text = text.partition("=")
    phys = parse_cards(phys_text)
    cards = format_cards(phys)
    if any(c > h for c, h in zip(phys, hand)):
        raise IllegalActionError(
            "you do not hold these cards", action=text, text=T("err.ddz.not_held", cards=cards)
        )
    legal = plays(hand, wild)
    same = [p for p in legal if p.parts == tuple((r, c) for r, c in enumerate(phys) if c)]
    if eq:
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
            text=T(
                "err.ddz.wild_reading", cards=cards, reading=read_text.strip(), wild=RANKS[wild]
            ),
        )
    natural = {p.text: p for p in same if "=" not in p.text}
    if natural:
        # Read as themselves, by the classic rules (a suffix names 三顺 or 飞机).
        options = book.options(text)
        if len(options) > 1:
            if previous is None:
                raise ambiguous(options)
            options = tuple(o for o in options if beats(o, previous)) or options
        if options[0].text in natural:
            return natural[options[0].text]
    fitting = [p for p in same if previous is None or beats(p, previous)]
    if len(fitting) == 1:
        return fitting[0]
    if not same:
        raise IllegalActionError(
            "these cards are not a valid pattern (牌型)",
            action=cards,
            text=T("err.ddz.no_pattern", cards=cards),
        )
    forms = " / ".join(f"`{p.text}`" for p in (fitting or same)[:6])
    raise IllegalActionError(
        f"with the 癞子 these cards can be read several ways: type {forms}",
        action=cards,
        text=T("err.ddz.wild_choose", cards=cards, forms=forms),
    )


__all__ = ["FACTOR", "TIER", "beats", "bombs", "make", "plays", "read"]
