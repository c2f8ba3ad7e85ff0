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

from engines.doudizhu.notation import (
    ACE,
    BIG_JOKER,
    CH,
    NRANKS,
    SMALL_JOKER,
    Counts,
    parse_cards,
)
from engines.doudizhu.patterns import CLASSIC, Pattern, PatternRules, Play, parse_play

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
_T1 = tuple(
    tuple(_S1[a] + _S3[t] if a < t else _S3[t] + _S1[a] for a in _RANGE) for t in _RANGE
)
_T2 = tuple(
    tuple(_S2[a] + _S3[t] if a < t else _S3[t] + _S2[a] for a in _RANGE) for t in _RANGE
)
CHAIN_WORD = " chain"
PLANE_WORD = " plane"


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


def _attach(out: list[str], main: str, counts: Counts, lo: int, hi: int, k: int, cap: int,
            top_cap: int) -> None:
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


def _pair_wings(out: list[str], main: str, lo: int, hi: int, pairs: list[int], k: int) -> None:
    """``main`` (ranks lo..hi) with ``k`` pairs of distinct ranks from ``pairs`` outside it."""
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


def _plane_singles(out: list[str], counts: Counts, s: int, k: int) -> None:
    """Trio chain s..s+k-1 with k single wings. A trio right above the chain is left out
    (that set reads higher with the chain moved up); a trio right below it is the plane of
    four consecutive trios' second reading when k = 3."""
    e = s + k - 1
    chain = _TRIOS[3 * s : 3 * (e + 1)]
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


def _fours(out: list[str], counts: Counts, fours: list[int], pairs: list[int],
           singles: bool, doubles: bool) -> None:
    for f in fours:
        if singles:
            _attach(out, _S4[f], counts, f, f, 2, 2, 2)
        if doubles:
            _pair_wings(out, _S4[f], f, f, [p for p in pairs if p != f], 2)


def _runs(counts: Counts, need: int) -> list[int]:
    """run[s] = how many consecutive ranks from s (up to A) hold at least ``need`` cards."""
    run = [0] * (ACE + 2)
    for r in range(ACE, -1, -1):
        run[r] = run[r + 1] + 1 if counts[r] >= need else 0
    return run


def lead_plays(counts: Counts, rules: PatternRules = CLASSIC) -> list[str]:
    """首出: every play ``counts`` can lead, canonical, each reading once."""
    ones = [r for r in _RANGE if counts[r]]
    out = [_S1[r] for r in ones]
    pairs = [r for r in ones if counts[r] >= 2]
    pk = rules.pair_kickers
    trios: list[int] = []
    if pairs:
        out += [_S2[r] for r in pairs]
        trios = [r for r in pairs if counts[r] >= 3]
        if trios:
            out += [_S3[r] for r in trios]
            for t in trios:
                row = _T1[t]
                out += [row[a] for a in ones if a != t]
                if pk:
                    row = _T2[t]
                    out += [row[a] for a in pairs if a != t]
    # Sequences: one pass finds the runs of ranks holding >= 1, 2, 3 cards (3..A).
    r1 = r2 = r3 = 0
    ends3: list[tuple[int, int]] = []
    for r in range(ACE + 2):
        c = counts[r] if r <= ACE else 0
        if c:
            r1 += 1
        else:
            if r1 >= 5:
                lo = r - r1
                for s in range(lo, r - 4):
                    out += [_SOLO[s:e] for e in range(s + 5, r + 1)]
            r1 = 0
        if c >= 2:
            r2 += 1
        else:
            if r2 >= 3:
                lo = r - r2
                for s in range(lo, r - 2):
                    out += [_PAIRS[2 * s : 2 * e] for e in range(s + 3, r + 1)]
            r2 = 0
        if c >= 3:
            r3 += 1
        else:
            if r3 >= 2:
                ends3.append((r - r3, r))
            r3 = 0
    for lo, hi in ends3:
        for s in range(lo, hi - 1):
            for k in range(2, hi - s + 1):
                out.append(_chain_text(s, k))
                _plane_singles(out, counts, s, k)
                if pk:
                    e = s + k - 1
                    _pair_wings(out, _TRIOS[3 * s : 3 * (e + 1)], s, e, pairs, k)
    if trios:
        fours = [r for r in trios if counts[r] == 4]
        if fours:
            if rules.four_with_two:
                _fours(out, counts, fours, pairs, True, pk)
            out += [_S4[r] for r in fours]
    if counts[SMALL_JOKER] and counts[BIG_JOKER]:
        out.append(_ROCKET)
    return out


def follow_plays(counts: Counts, previous: Play, rules: PatternRules = CLASSIC) -> list[str]:
    """跟牌: every play of ``counts`` that beats ``previous`` (pass not included)."""
    pat = previous.pattern
    if pat is Pattern.ROCKET:
        return []
    key = previous.key
    out: list[str]
    if pat is Pattern.SINGLE:
        out = [_S1[r] for r in range(key + 1, NRANKS) if counts[r]]
    elif pat is Pattern.PAIR:
        out = [_S2[r] for r in range(key + 1, SMALL_JOKER) if counts[r] >= 2]
    elif pat is Pattern.TRIO:
        out = [_S3[r] for r in range(key + 1, SMALL_JOKER) if counts[r] >= 3]
    elif pat is Pattern.BOMB:
        out = []
    else:
        out = _follow_other(counts, previous, pat, key)
    if 4 in counts:
        low = key + 1 if pat is Pattern.BOMB else 0
        out += [_S4[r] for r in range(low, SMALL_JOKER) if counts[r] == 4]
    if counts[SMALL_JOKER] and counts[BIG_JOKER]:
        out.append(_ROCKET)
    return out


def _follow_other(counts: Counts, previous: Play, pat: Pattern, key: int) -> list[str]:
    out: list[str] = []
    if pat is Pattern.TRIO_SINGLE or pat is Pattern.TRIO_PAIR:
        trios = [r for r in range(key + 1, SMALL_JOKER) if counts[r] >= 3]
        if trios:
            need = 1 if pat is Pattern.TRIO_SINGLE else 2
            table = _T1 if need == 1 else _T2
            att = [r for r in _RANGE if counts[r] >= need]
            for t in trios:
                row = table[t]
                out += [row[a] for a in att if a != t]
    elif pat is Pattern.STRAIGHT or pat is Pattern.PAIR_STRAIGHT:
        width = 1 if pat is Pattern.STRAIGHT else 2
        length = previous.size // width
        source = _SOLO if width == 1 else _PAIRS
        run = _runs(counts, width)
        for s in range(key - length + 2, ACE - length + 2):
            if run[s] >= length:
                out.append(source[width * s : width * (s + length)])
    elif pat is Pattern.PLANE:
        length = previous.size // 3
        run = _runs(counts, 3)
        out += [
            _chain_text(s, length)
            for s in range(key - length + 2, ACE - length + 2)
            if run[s] >= length
        ]
    elif pat is Pattern.PLANE_SINGLES or pat is Pattern.PLANE_PAIRS:
        singles = pat is Pattern.PLANE_SINGLES
        k = previous.size // (4 if singles else 5)
        run = _runs(counts, 3)
        starts = [s for s in range(key - k + 2, ACE - k + 2) if run[s] >= k]
        if starts:
            if singles:
                for s in starts:
                    _plane_singles(out, counts, s, k)
            else:
                pairs = [r for r in _RANGE if counts[r] >= 2]
                for s in starts:
                    e = s + k - 1
                    _pair_wings(out, _TRIOS[3 * s : 3 * (e + 1)], s, e, pairs, k)
    elif pat is Pattern.FOUR_SINGLES or pat is Pattern.FOUR_PAIRS:
        fours = [r for r in range(key + 1, SMALL_JOKER) if counts[r] == 4]
        if fours:
            singles = pat is Pattern.FOUR_SINGLES
            pairs = [r for r in _RANGE if counts[r] >= 2]
            _fours(out, counts, fours, pairs, singles, not singles)
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
    counts = parse_cards(hand)
    if previous is None:
        return lead_plays(counts)
    prev = parse_play(previous)
    return plays(counts, prev)
