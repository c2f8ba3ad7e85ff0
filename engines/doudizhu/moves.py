"""出牌生成: every legal play of a hand, leading or following, each once, canonical.

The generator works on rank-count vectors and emits canonical strings straight from
precomputed tables (no sorting, no de-duplication pass): each pattern is enumerated by its
own parameters (rank, sequence start and length, attachment multiset), and a set of cards
is emitted once, under its highest-key reading (``patterns.readings``); four consecutive
trios come out twice, once per reading, with the reading word (``333444555666 chain``,
``333444555666 plane``). The perft tests check this against brute force over every subset.

>>> legal_plays("33345")
['3', '4', '5', '33', '333', '3334', '3335']
>>> legal_plays("3456789TJ", "34567")
['45678', '56789', '6789T', '789TJ']
"""

from __future__ import annotations

import math
from typing import Any

from engines.doudizhu.notation import (
    ACE,
    BIG_JOKER,
    CH,
    FIELD,
    HIGH,
    NRANKS,
    J_FIELD,
    JOKER_FIELDS,
    ONES,
    OVER,
    REFUSED,
    SMALL_JOKER,
    TWO,
    WEIGHT,
    Counts,
    pack,
    packed,
    parse_cards,
)
from engines.doudizhu.patterns import (
    CLASSIC,
    WINDOW,
    Pattern,
    PatternRules,
    Play,
    kinds,
    parse_play,
)
from engines.memo import Memo

_SOLO = "3456789TJQKA"
_PAIRS = "".join(c * 2 for c in _SOLO)
_TRIOS = "".join(c * 3 for c in _SOLO)
_ROCKET = "BR"
_RANGE = range(NRANKS)
_S1 = tuple(CH[r][1] for r in _RANGE)
_S2 = tuple(CH[r][2] for r in _RANGE)
_S3 = tuple(CH[r][3] for r in _RANGE)
_S4 = tuple(CH[r][4] for r in _RANGE)
# 三带一 / 三带一对 of trio t and attachment a, canonical (lower rank first): _T1[t][a].
_T1 = tuple(tuple(_S1[a] + _S3[t] if a < t else _S3[t] + _S1[a] for a in _RANGE) for t in _RANGE)
_T2 = tuple(tuple(_S2[a] + _S3[t] if a < t else _S3[t] + _S2[a] for a in _RANGE) for t in _RANGE)
Vector = Counts | bytes
"""Counts as a tuple (or bytes: both index to ints)."""
CHAIN_WORD = " chain"
PLANE_WORD = " plane"

# Fixed tables keyed by a rank mask (the top bit of each rank's field, ``patterns.masks``),
# all built at import (a few tens of milliseconds) and never changed: a restarted bot's
# first hand is answered as fast as its millionth, with no memo to warm. The memo of
# previous plays (``TABLES``) holds at most ``TABLE_LIMIT`` entries.
TABLE_LIMIT = 2048
_BIT = tuple(1 << (FIELD * r + FIELD - 1) for r in _RANGE)
_SEQ = sum(_BIT[: ACE + 1])
_NEXT_SEQ = sum(_BIT[:ACE])  # ranks r whose r + 1 is still a sequence rank
_ROCKET_MASK = _BIT[SMALL_JOKER] | _BIT[BIG_JOKER]
_ABOVE = tuple(~((1 << (FIELD * (r + 1))) - 1) for r in _RANGE)
"""_ABOVE[r]: the mask bits of the ranks above r."""
_HIGH_ABOVE = tuple(HIGH & above for above in _ABOVE)
"""_HIGH_ABOVE[r]: the top bits of the ranks above r (the ranks a single, pair or trio of
rank r is beaten by)."""
_LOW = sum(_BIT[:8])
"""The mask bits of ranks 3-T: a mask is read as its low half (256 values) and its high
half (J-R, 128 values), each half a row of a fixed table."""
_HIGH_HALF = sum(_BIT[8:])


def _fold_width(ranks: int) -> int:
    """The least n from ``ranks`` up with no factor in common with FIELD: the masks of
    ``ranks`` consecutive ranks, taken modulo 2**n - 1, are as many different indices (2**k
    mod 2**n - 1 is 2**(k mod n), and FIELD*r + FIELD - 1 for those ranks r are distinct mod
    n); ``_fold`` checks it."""
    n = ranks
    while math.gcd(n, FIELD) != 1:
        n += 1
    return n


_FOLD = (1 << _fold_width(8)) - 1
"""A half mask modulo ``_FOLD`` is the index of its row (below 511): an index into a tuple,
where the masks themselves (a few set bits, each at one place in its byte) would collide
in a dict."""
_SEQ_FOLD = (1 << _fold_width(ACE + 1)) - 1
"""The same for masks of the twelve sequence ranks (3..A): an index below 8191."""


def _fold(rows: dict[int, Any], fold: int) -> tuple[Any, ...]:
    """The rows of a table keyed by mask, as a tuple indexed by ``mask % fold`` (the
    indices unused hold ())."""
    table: list[Any] = [()] * fold
    for mask, row in rows.items():
        table[mask % fold] = row
    if len({mask % fold for mask in rows}) != len(rows):
        raise AssertionError("two masks share an index")  # (no FIELD makes this happen)
    return tuple(table)


def _halves(
    items: tuple[Any, ...] | list[Any], skip: int | None = None
) -> tuple[tuple[tuple[Any, ...], ...], tuple[tuple[Any, ...], ...]]:
    """``items[r]`` for the ranks r of each half mask, low to high, but rank ``skip``: two
    fixed tables indexed by the folded half mask (``_FOLD``), each mask's row the row of the
    mask without its top rank and one more."""
    out = []
    for ranks in (range(8), range(8, NRANKS)):
        table: dict[int, tuple[Any, ...]] = {0: ()}
        for r in ranks:
            add = () if r == skip else (items[r],)
            table.update([(key | _BIT[r], row + add) for key, row in table.items()])
        out.append(_fold(table, _FOLD))
    return out[0], out[1]


_RANKS_LO, _RANKS_HI = _halves(tuple(_RANGE))
_S1_LO, _S1_HI = _halves(_S1)
_S2_LO, _S2_HI = _halves(_S2)
_S3_LO, _S3_HI = _halves(_S3)
_S4_LO, _S4_HI = _halves(_S4)
_T1_ROWS = tuple(_halves(_T1[t], t) for t in range(SMALL_JOKER))
_T2_ROWS = tuple(_halves(_T2[t], t) for t in range(SMALL_JOKER))
"""三带一 / 三带一对 of trio t with each attachment rank of a half mask but t: _T1_ROWS[t]."""
_RUN_SHIFTS = tuple(tuple(FIELD * i for i in range(1, n)) for n in range(ACE + 2))
"""_RUN_SHIFTS[n]: a mask shifted by each is ANDed in to keep the ranks that start n in a row."""
_STRAIGHT_STARTS = tuple(
    _halves([_SOLO[s : s + n] for s in _RANGE]) if n >= 5 else () for n in range(ACE + 2)
)
_PAIR_STRAIGHT_STARTS = tuple(
    _halves([_PAIRS[2 * s : 2 * (s + n)] for s in _RANGE]) if n >= 3 else ()
    for n in range(ACE + 2)
)
"""单顺 / 双顺 of n ranks by the mask of their first ranks (n is the index)."""
TABLES: tuple[Memo, ...] = ()
"""The memos (bounded by TABLE_LIMIT, emptied by ``clear_tables``)."""


def _unpack(p: int) -> bytes:
    """The counts of a packed vector as bytes (they index to ints): the planes need them."""
    return p.to_bytes(NRANKS, "little")


_TWO_OF: dict[tuple[str, int], tuple[tuple[str, ...], ...]] = {}


def _two_table(main: str, lo: int, hi: int, width: int) -> tuple[tuple[str, ...], ...]:
    """table[a][b] (a <= b, neither in lo..hi): ``main`` with two attachments of ``width``
    cards at ranks a and b, canonical; table[a][a] with width 1 is a pair of a's as two
    singles. At most one table per main part and width (fours and trio chains of two)."""
    hit = _TWO_OF.get((main, width))
    if hit is None:
        strings = _S1 if width == 1 else _S2
        rows = []
        for a in _RANGE:
            row = []
            for b in _RANGE:
                if b < a:
                    row.append("")
                    continue
                parts = [(a, strings[a] + strings[b] if a == b else strings[a])]
                if b != a:
                    parts.append((b, strings[b]))
                below = "".join(x for r, x in parts if r < lo)
                above = "".join(x for r, x in parts if r > hi)
                row.append(below + main + above)
            rows.append(tuple(row))
        hit = tuple(rows)
        _TWO_OF[(main, width)] = hit
    return hit


_FOUR_WITH = tuple(
    (_two_table(_S4[f], f, f, 1), _two_table(_S4[f], f, f, 2)) for f in range(TWO + 1)
)
_CHAIN_WITH = tuple(
    (_two_table(chain, s, s + 1, 1), _two_table(chain, s, s + 1, 2))
    for s, chain in ((s, _TRIOS[3 * s : 3 * s + 6]) for s in range(ACE))
)
"""四带二 of each four, 飞机 of each chain of two trios: (two singles, two pairs) tables."""
_KEEP = tuple(tuple(HIGH & ~sum(_BIT[lo : hi + 1]) for hi in _RANGE) for lo in _RANGE)
"""_KEEP[lo][hi]: the mask of the ranks outside lo..hi (where a main part's attachments are)."""


def clear_tables() -> None:
    """Empty every memo of the generator (they refill on use), e.g. to measure it cold; the
    fixed tables (``FIXED``) are its rules and stay."""
    for table in TABLES:
        table.clear()


def _two_singles(
    out: list[str], table: tuple[tuple[str, ...], ...], keep: int, m1: int, m2: int
) -> None:
    """A main part with two single cards (any two of the ranks ``m1 & keep``, the rocket
    never; two of one rank where ``m2 & keep`` holds it): ``table`` is its ``_two_table``."""
    cands = _ranks(m1 & keep)
    out += [table[a][b] for i, a in enumerate(cands) for b in cands[i + 1 :]]
    if m1 & _ROCKET_MASK == _ROCKET_MASK:
        out.pop()  # the rocket, the last two ranks, is never two singles
    if m2:
        out += [table[a][a] for a in _ranks(m2 & keep)]


def _two_pairs(out: list[str], table: tuple[tuple[str, ...], ...], keep: int, m2: int) -> None:
    """A main part with two pairs of different ranks of ``m2 & keep`` (``table``: its
    ``_two_table`` of pairs)."""
    cands = _ranks(m2 & keep)
    out += [table[a][b] for i, a in enumerate(cands) for b in cands[i + 1 :]]


def _ranks(mask: int) -> tuple[int, ...]:
    """The ranks of a mask, low to high."""
    return _RANKS_LO[(mask & _LOW) % _FOLD] + _RANKS_HI[(mask & _HIGH_HALF) % _FOLD]


def _runs(mask: int) -> tuple[tuple[int, int], ...]:
    """The maximal runs (first, last) of consecutive sequence ranks (3..A) in ``mask``."""
    found = []
    run = 0
    for r in range(ACE + 2):
        if r <= ACE and mask & _BIT[r]:
            run += 1
            continue
        if run:
            found.append((r - run, r - 1))
        run = 0
    return tuple(found)


def _sequences(mask: int, width: int) -> tuple[str, ...]:
    """单顺 (width 1, 5+ ranks) or 双顺 (width 2, 3+ ranks) of the sequence ranks in ``mask``."""
    shortest, source = (5, _SOLO) if width == 1 else (3, _PAIRS)
    found: list[str] = []
    for first, last in _runs(mask):
        for s in range(first, last - shortest + 2):
            found += [source[width * s : width * e] for e in range(s + shortest, last + 2)]
    return tuple(found)


def _sequence_masks() -> list[int]:
    """Every mask of sequence ranks (2**12)."""
    return [sum(_BIT[r] for r in range(ACE + 1) if sub >> r & 1) for sub in range(1 << 12)]


_STRAIGHTS = _fold({m: _sequences(m, 1) for m in _sequence_masks()}, _SEQ_FOLD)
_PAIR_STRAIGHTS = _fold({m: _sequences(m, 2) for m in _sequence_masks()}, _SEQ_FOLD)
"""单顺 / 双顺 of every mask of sequence ranks, indexed by the folded mask (``_SEQ_FOLD``)."""


def _multisets(ranks: list[int], caps: list[int], size: int, start: int = 0) -> list[str]:
    """Canonical strings of every multiset of ``size`` cards from ``ranks[start:]``, at most
    ``caps[i]`` of ``ranks[i]``."""
    if size == 0:
        return [""]
    out: list[str] = []
    for i in range(start, len(ranks)):
        row = CH[ranks[i]]
        for c in range(1, min(caps[i], size) + 1):
            if c == size:
                out.append(row[c])
            else:
                head = row[c]
                out += [head + tail for tail in _multisets(ranks, caps, size - c, i + 1)]
    return out


def _attach(
    out: list[str], main: str, counts: Vector, lo: int, hi: int, k: int, cap: int, top_cap: int
) -> None:
    """``main`` (ranks lo..hi) with ``k`` attached cards as a multiset of other ranks, at
    most ``cap`` of a rank (``top_cap`` of rank hi+1), never both jokers (the rocket)."""
    below_r = [r for r in range(lo) if counts[r]]
    above_r = [r for r in range(hi + 1, NRANKS) if counts[r]]
    below_c = [min(counts[r], cap) for r in below_r]
    above_c = [min(counts[r], top_cap if r == hi + 1 else cap) for r in above_r]
    nb = sum(below_c)
    na = sum(above_c)
    rocket = counts[SMALL_JOKER] and counts[BIG_JOKER]
    for j in range(max(0, k - na), min(k, nb) + 1):
        left = _multisets(below_r, below_c, j) if j else [""]
        if j == k:
            right = [""]
        else:
            right = _multisets(above_r, above_c, k - j)
            if rocket:
                right = [x for x in right if not x.endswith(_ROCKET)]
        if len(right) == 1:
            tail = main + right[0]
            out += [a + tail for a in left]
        else:
            for a in left:
                pre = a + main
                out += [pre + b for b in right]


def _pair_wings(
    out: list[str], main: str, lo: int, hi: int, pairs: tuple[int, ...] | list[int], k: int
) -> None:
    """``main`` (ranks lo..hi) with ``k`` >= 3 pairs of distinct ranks from ``pairs`` outside
    it (two pairs: ``_two_pairs``)."""
    below = [r for r in pairs if r < lo]
    above = [r for r in pairs if r > hi]
    caps_b = [1] * len(below)
    caps_a = [1] * len(above)
    for j in range(max(0, k - len(above)), min(k, len(below)) + 1):
        left = [_double(x) for x in _multisets(below, caps_b, j)] if j else [""]
        right = [_double(x) for x in _multisets(above, caps_a, k - j)] if j < k else [""]
        for a in left:
            pre = a + main
            out += [pre + b for b in right]


def _double(text: str) -> str:
    return "".join(c + c for c in text)


def _plane_singles(out: list[str], counts: Vector, s: int, k: int, distinct: bool) -> None:
    """Trio chain s..s+k-1 with k >= 3 single wings (``distinct``: of k different ranks, 麻辣;
    two wings: ``_two_singles``). A trio right above the chain is left out (that set reads
    higher with the chain moved up); a trio right below it is the plane of four consecutive
    trios' second reading when k = 3."""
    e = s + k - 1
    chain = _TRIOS[3 * s : 3 * (e + 1)]
    if distinct:
        _attach(out, chain, counts, s, e, k, 1, 1)
        return
    top_cap = 2 if e + 1 <= ACE else 3
    start = len(out)
    _attach(out, chain, counts, s, e, k, 3, top_cap)
    if k == 3 and s > 0 and counts[s - 1] >= 3:
        lone = _S3[s - 1] + chain
        for i in range(start, len(out)):
            if out[i] == lone:
                out[i] = lone + PLANE_WORD
                break


def _chain_text(s: int, k: int) -> str:
    text = _TRIOS[3 * s : 3 * (s + k)]
    return text + CHAIN_WORD if k == 4 else text


def lead_plays(counts: Counts, rules: PatternRules = CLASSIC) -> list[str]:
    """首出: every play ``counts`` can lead, canonical, each reading once."""
    return _lead(pack(counts), counts, rules)


def _lead(p: int, counts: Vector | None, rules: PatternRules) -> list[str]:
    m1 = (p + _GE1) & HIGH
    m2 = (p + _GE2) & HIGH
    lo1, hi1 = (m1 & _LOW) % _FOLD, (m1 & _HIGH_HALF) % _FOLD
    # singles, 单顺 and the rocket; pairs and 双顺; trios; bombs: fixed tables by mask
    out = [*_S1_LO[lo1], *_S1_HI[hi1], *_STRAIGHTS[(m1 & _SEQ) % _SEQ_FOLD]]
    if m1 & _ROCKET_MASK == _ROCKET_MASK:
        out.append(_ROCKET)
    if m2:
        lo2, hi2 = (m2 & _LOW) % _FOLD, (m2 & _HIGH_HALF) % _FOLD
        out += _S2_LO[lo2]
        out += _S2_HI[hi2]
        out += _PAIR_STRAIGHTS[(m2 & _SEQ) % _SEQ_FOLD]
        m3 = (p + _GE3) & HIGH
        if m3:
            lo3, hi3 = (m3 & _LOW) % _FOLD, (m3 & _HIGH_HALF) % _FOLD
            out += _S3_LO[lo3]
            out += _S3_HI[hi3]
            pk = rules.pair_kickers
            # 三带一 / 三带一对 with every other rank held: rows of fixed tables
            for t in _RANKS_LO[lo3] + _RANKS_HI[hi3]:
                lo, hi = _T1_ROWS[t]
                out += lo[lo1]
                out += hi[hi1]
                if pk:
                    lo, hi = _T2_ROWS[t]
                    out += lo[lo2]
                    out += hi[hi2]
            distinct = not rules.paired_singles
            wings = 0 if distinct else m2  # 麻辣: no two single wings of one rank (3333+55)
            if m3 & (m3 >> FIELD) & _NEXT_SEQ:
                _lead_planes(out, p, counts, (m1, m2, m3), pk, distinct)
            m4 = (p + _GE4) & HIGH
            if m4:
                if rules.four_with_two:
                    for f in _RANKS_LO[(m4 & _LOW) % _FOLD] + _RANKS_HI[(m4 & _HIGH_HALF) % _FOLD]:
                        singles, pairs = _FOUR_WITH[f]
                        _two_singles(out, singles, _KEEP[f][f], m1, wings)
                        if pk:
                            _two_pairs(out, pairs, _KEEP[f][f], m2)
                out += _S4_LO[(m4 & _LOW) % _FOLD]
                out += _S4_HI[(m4 & _HIGH_HALF) % _FOLD]
    return out


def _lead_planes(
    out: list[str],
    p: int,
    counts: Vector | None,
    masks: tuple[int, int, int],
    pk: bool,
    distinct: bool,
) -> None:
    """三顺 and 飞机 of every run of two or more consecutive trios (3..A): each chain from
    its first rank s, two trios long and longer while the next rank holds a trio. ``masks``:
    the ranks holding at least one, two and three cards."""
    m1, m2, m3 = masks
    wings = 0 if distinct else m2
    trios = m3 & _SEQ
    for s in _ranks(trios & (trios >> FIELD)):
        singles, pairs = _CHAIN_WITH[s]
        keep = _KEEP[s][s + 1]
        out.append(_TRIOS[3 * s : 3 * s + 6])
        _two_singles(out, singles, keep, m1, wings)
        if pk:
            _two_pairs(out, pairs, keep, m2)
        k = 3
        while trios & _BIT[s + k - 1]:
            counts = counts or _unpack(p)
            out.append(_chain_text(s, k))
            _plane_singles(out, counts, s, k, distinct)
            if pk:
                e = s + k - 1
                _pair_wings(out, _TRIOS[3 * s : 3 * (e + 1)], s, e, _ranks(m2), k)
            k += 1


_PREVIOUS = Memo("engines.doudizhu.moves.previous", TABLE_LIMIT)
"""Previous plays as typed → (pattern, key, size) (``engines.memo``)."""
TABLES += (_PREVIOUS,)


_KNOWN_PLAYS: dict[str, tuple[Pattern, int, int]] = {}


def _known_plays() -> dict[str, tuple[Pattern, int, int]]:
    """A fixed table, canonical text → (pattern, key, size), of every play of at most eight
    cards but planes of three or more trios: singles … 四带二, planes of two with their
    wings, and every sequence (单顺, 双顺, 三顺 of any length). About 4,300 entries, built
    on first use from the generator's own pieces."""
    if not _KNOWN_PLAYS:
        every = list(_RANGE)
        ranks = every[:SMALL_JOKER]
        m1, m2 = sum(_BIT), sum(_BIT[:SMALL_JOKER])  # every rank; every rank but the jokers
        texts = [*_S1, *_S2[:SMALL_JOKER], *_S3[:SMALL_JOKER], *_S4[:SMALL_JOKER], _ROCKET]
        for t in ranks:
            texts += [_T1[t][a] for a in every if a != t]
            texts += [_T2[t][a] for a in ranks if a != t]
            _two_singles(texts, _FOUR_WITH[t][0], _KEEP[t][t], m1, m2)
            _two_pairs(texts, _FOUR_WITH[t][1], _KEEP[t][t], m2)
        seq = sum(_BIT[: ACE + 1])
        texts += _sequences(seq, 1) + _sequences(seq, 2)
        for s in range(ACE):
            for k in range(2, min(6, ACE + 1 - s) + 1):
                texts.append(_chain_text(s, k))
            _two_singles(texts, _CHAIN_WITH[s][0], _KEEP[s][s + 1], m1, m2)
            _two_pairs(texts, _CHAIN_WITH[s][1], _KEEP[s][s + 1], m2)
        for text in texts:
            cards = text.split(" ")[0]
            found = kinds(sum(1 << (FIELD * _RANK_INDEX[c]) for c in cards))
            kind = found[0] if len(found) == 1 else (Pattern.PLANE, found[0][1])
            _KNOWN_PLAYS[text] = (kind[0], kind[1], len(cards))
    return _KNOWN_PLAYS


_RANK_INDEX = {c: r for r, c in enumerate("3456789TJQKA2BR")}
_WEIGHT_OF = WEIGHT.__getitem__
_known_plays()  # a fixed table, and with it every two-attachment table (_TWO_OF)
FIXED: tuple[dict[Any, Any] | tuple[Any, ...], ...] = (
    _KNOWN_PLAYS,
    _TWO_OF,
    _STRAIGHTS,
    _PAIR_STRAIGHTS,
    _RANKS_LO,
    _RANKS_HI,
    _S1_LO,
    _S1_HI,
    _S2_LO,
    _S2_HI,
    _S3_LO,
    _S3_HI,
    _S4_LO,
    _S4_HI,
    *(half for rows in (_T1_ROWS, _T2_ROWS) for row in rows for half in row),
    *(half for rows in (_STRAIGHT_STARTS, _PAIR_STRAIGHT_STARTS) for row in rows for half in row),
)
"""The fixed tables, built at import: bounded by construction, never emptied or grown."""


def clear_memos() -> None:
    """Empty the memo of previous plays (keyed by what was typed, unlike the mask tables)."""
    _PREVIOUS.clear()


_GE1, _GE2, _GE3, _GE4 = (ONES * ((1 << (FIELD - 1)) - k) for k in (1, 2, 3, 4))


def follow_plays(counts: Counts, previous: Play, rules: PatternRules = CLASSIC) -> list[str]:
    """跟牌: every play of ``counts`` that beats ``previous`` (pass not included)."""
    if rules.paired_singles:
        return _follow(pack(counts), previous.pattern, previous.key, previous.size)
    return _follow(pack(counts), previous.pattern, previous.key, previous.size, True)


# The patterns as module globals: the dispatch below is the inner loop of following.
_SINGLE, _PAIR, _TRIO, _BOMB, _ROCKET_PATTERN = (
    Pattern.SINGLE,
    Pattern.PAIR,
    Pattern.TRIO,
    Pattern.BOMB,
    Pattern.ROCKET,
)
_TRIO_SINGLE, _TRIO_PAIR = Pattern.TRIO_SINGLE, Pattern.TRIO_PAIR
_STRAIGHT, _PAIR_STRAIGHT = Pattern.STRAIGHT, Pattern.PAIR_STRAIGHT


def _follow(p: int, pat: Pattern, key: int, size: int, distinct: bool = False) -> list[str]:
    out: list[str]
    if pat is _SINGLE:
        m = (p + _GE1) & _HIGH_ABOVE[key]
        out = [*_S1_LO[(m & _LOW) % _FOLD], *_S1_HI[(m & _HIGH_HALF) % _FOLD]]
    elif pat is _TRIO_SINGLE or pat is _TRIO_PAIR:
        out = []
        trios = (p + _GE3) & _HIGH_ABOVE[key]
        if trios:
            if pat is _TRIO_SINGLE:
                rows, m = _T1_ROWS, (p + _GE1) & HIGH
            else:
                rows, m = _T2_ROWS, (p + _GE2) & HIGH
            mlo, mhi = (m & _LOW) % _FOLD, (m & _HIGH_HALF) % _FOLD
            for t in _RANKS_LO[(trios & _LOW) % _FOLD] + _RANKS_HI[(trios & _HIGH_HALF) % _FOLD]:
                lo, hi = rows[t]
                out += lo[mlo]
                out += hi[mhi]
    elif pat is _PAIR:
        m = (p + _GE2) & _HIGH_ABOVE[key]
        out = [*_S2_LO[(m & _LOW) % _FOLD], *_S2_HI[(m & _HIGH_HALF) % _FOLD]]
    elif pat is _TRIO:
        m = (p + _GE3) & _HIGH_ABOVE[key]
        out = [*_S3_LO[(m & _LOW) % _FOLD], *_S3_HI[(m & _HIGH_HALF) % _FOLD]]
    elif pat is _BOMB or pat is _ROCKET_PATTERN:
        if pat is _ROCKET_PATTERN:
            return []
        out = []
    elif pat is _STRAIGHT or pat is _PAIR_STRAIGHT:
        # 单顺 / 双顺 of the same length ending above key: the ranks that start as many
        # sequence ranks in a row, the first above key - length + 1
        if pat is _STRAIGHT:
            length, m = size, (p + _GE1) & _SEQ
            lo, hi = _STRAIGHT_STARTS[length]
        else:
            length, m = size >> 1, (p + _GE2) & _SEQ
            lo, hi = _PAIR_STRAIGHT_STARTS[length]
        starts = m & _ABOVE[key - length + 1]
        for shift in _RUN_SHIFTS[length]:
            starts &= m >> shift
        out = [*lo[(starts & _LOW) % _FOLD], *hi[(starts & _HIGH_HALF) % _FOLD]]
    else:
        out = _follow_other(p, pat, key, size, distinct)
    m4 = (p + _GE4) & HIGH
    if m4:
        if pat is _BOMB:
            m4 &= _ABOVE[key]
        out += _S4_LO[(m4 & _LOW) % _FOLD]
        out += _S4_HI[(m4 & _HIGH_HALF) % _FOLD]
    if p >> _JOKER_SHIFT == _BOTH_JOKERS:
        out.append(_ROCKET)
    return out


def can_beat(counts: Counts, previous: Play, rules: PatternRules = CLASSIC) -> bool:
    """要不起?: whether ``follow_plays(counts, previous, rules)`` has any play — a bomb or the
    rocket, or a single, pair or trio above the table, read from the rank masks without
    building the list (the host asks after every action).

    >>> prev = parse_play("KK")
    >>> can_beat(parse_cards("AA3"), prev), can_beat(parse_cards("QQ3"), prev)
    (True, False)
    >>> can_beat(parse_cards("3333"), prev), can_beat(parse_cards("BR"), parse_play("2222"))
    (True, True)
    """
    pat, key = previous.pattern, previous.key
    if pat is _ROCKET_PATTERN:
        return False
    p = pack(counts)
    if p >> _JOKER_SHIFT == _BOTH_JOKERS:
        return True
    m4 = (p + _GE4) & HIGH
    if pat is _BOMB:
        return bool(m4 & _ABOVE[key])
    if m4:
        return True
    if pat is _SINGLE:
        return bool((p + _GE1) & _HIGH_ABOVE[key])
    if pat is _PAIR:
        return bool((p + _GE2) & _HIGH_ABOVE[key])
    if pat is _TRIO:
        return bool((p + _GE3) & _HIGH_ABOVE[key])
    return bool(_follow(p, pat, key, previous.size, not rules.paired_singles))


_SEQ_MASK = _SEQ


_JOKER_SHIFT = FIELD * SMALL_JOKER
_BOTH_JOKERS = 1 | (1 << FIELD)
"""The packed jokers' fields when a hand holds both (the rocket)."""


def _follow_other(p: int, pat: Pattern, key: int, size: int, distinct: bool = False) -> list[str]:
    """三顺, 飞机 and 四带二 that beat a play of ``size`` cards with ``key`` (``distinct``:
    attached singles of different ranks, 麻辣)."""
    out: list[str] = []
    m3 = (p + _GE3) & HIGH
    if pat is Pattern.FOUR_SINGLES or pat is Pattern.FOUR_PAIRS:
        fours = (p + _GE4) & _HIGH_ABOVE[key]
        if fours:
            m2 = (p + _GE2) & HIGH
            for f in _ranks(fours):
                if pat is Pattern.FOUR_SINGLES:
                    m1 = (p + _GE1) & HIGH
                    _two_singles(out, _FOUR_WITH[f][0], _KEEP[f][f], m1, 0 if distinct else m2)
                else:
                    _two_pairs(out, _FOUR_WITH[f][1], _KEEP[f][f], m2)
        return out
    k = size // (3 if pat is Pattern.PLANE else 4 if pat is Pattern.PLANE_SINGLES else 5)
    windows = WINDOW[k]
    tops = [hi for hi in range(key + 1, ACE + 1) if m3 & windows[hi] == windows[hi]]
    if not tops:
        return out
    if pat is Pattern.PLANE:
        return [_chain_text(hi - k + 1, k) for hi in tops]
    m1, m2 = (p + _GE1) & HIGH, (p + _GE2) & HIGH
    counts = _unpack(p)
    for hi in tops:
        s = hi - k + 1
        if pat is Pattern.PLANE_SINGLES:
            if k == 2:
                _two_singles(out, _CHAIN_WITH[s][0], _KEEP[s][hi], m1, 0 if distinct else m2)
            else:
                _plane_singles(out, counts, s, k, distinct)
        elif k == 2:
            _two_pairs(out, _CHAIN_WITH[s][1], _KEEP[s][hi], m2)
        else:
            _pair_wings(out, _TRIOS[3 * s : 3 * (hi + 1)], s, hi, _ranks(m2), k)
    return out


def plays(counts: Counts, previous: Play | None, rules: PatternRules = CLASSIC) -> list[str]:
    """Every legal play (not pass): leading when ``previous`` is None, else following."""
    if previous is None:
        return lead_plays(counts, rules)
    return follow_plays(counts, previous, rules)


def legal_plays(hand: str, previous: str | None = None) -> list[str]:
    """合法出牌: every play of ``hand`` that may be led (``previous`` None or "pass") or
    that beats ``previous``, each reading once, in canonical notation. Pass is not listed.

    Raises NotationError for an unreadable hand or previous play, IllegalActionError when
    ``previous`` is not a valid pattern (or has two readings and names none).

    >>> legal_plays("BR2", "2")
    ['B', 'R', 'BR']
    >>> legal_plays("444555666777", "333444555666 plane")
    ['444555666777 plane']
    >>> [p for p in legal_plays("333444555666") if len(p) > 12]
    ['333444555666 chain', '333444555666 plane']
    """
    # notation.packed, inlined: this is the inner loop of every search.
    raw = hand.encode()
    if 0 < len(raw) <= 32:
        p = sum(map(_WEIGHT_OF, raw))
        if (p + OVER) & REFUSED or (
            p & JOKER_FIELDS and p & J_FIELD and (b"BJ" in raw or b"RJ" in raw)
        ):
            p = pack(parse_cards(hand))
    else:
        p = pack(parse_cards(hand))
    if previous is None:
        return _lead(p, None, CLASSIC)
    known = _KNOWN_PLAYS.get(previous) or _PREVIOUS.get(previous)
    if known is not None:
        return _follow(p, *known)
    q = packed(previous)
    if q is not None:
        found = kinds(q)
        if len(found) == 1:  # canonical letters with one reading: no Play object needed
            pat, key = found[0]
            _PREVIOUS.keep(previous, (pat, key, len(previous)))
            return _follow(p, pat, key, len(previous))
    prev = parse_play(previous)
    if prev is None:
        return _lead(p, None, CLASSIC)
    return _follow(p, prev.pattern, prev.key, prev.size)
