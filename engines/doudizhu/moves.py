"""出牌生成: every legal play of a hand, leading or following, each once, canonical.

The generator works on count tuples and emits canonical strings directly (no sorting, no
de-duplication pass): each pattern is enumerated by its own parameters (rank, sequence
start and length, kicker ranks), and a set of cards has exactly one pattern, so no play can
come out twice. The perft tests check this against brute force over every subset.

>>> legal_plays("33345")
['3', '4', '5', '33', '333', '3334', '3335']
>>> legal_plays("3456789TJ", "34567")
['45678', '56789', '6789T', '789TJ']
"""

from __future__ import annotations

from itertools import combinations

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


def _wings(out: list[str], main: str, lo: int, hi: int, ranks: list[int], k: int, n: int) -> None:
    """``main`` (ranks lo..hi) with ``k`` attachments of ``n`` cards, distinct ranks from
    ``ranks`` outside lo..hi; the two jokers are never both attached (the rocket)."""
    strs = CH
    below = [strs[r][n] for r in ranks if r < lo]
    above = [strs[r][n] for r in ranks if r > hi]
    if len(below) + len(above) < k:
        return
    for j in range(max(0, k - len(above)), min(k, len(below)) + 1):
        left = ["".join(c) for c in combinations(below, j)] if j else [""]
        if j == k:
            right = [""]
        else:
            right = ["".join(c) for c in combinations(above, k - j)]
            if n == 1 and above[-1:] == ["R"] and "B" in above:
                right = [x for x in right if not x.endswith("BR")]
        for a in left:
            pre = a + main
            out += [pre + b for b in right]


def _trio_kickers(
    out: list[str], trios: list[int], ones: list[int], pairs: list[int], pk: bool
) -> None:
    for t in trios:
        s3 = CH[t][3]
        for s in ones:
            if s < t:
                out.append(CH[s][1] + s3)
            elif s > t:
                out.append(s3 + CH[s][1])
        if pk:
            for p in pairs:
                if p < t:
                    out.append(CH[p][2] + s3)
                elif p > t:
                    out.append(s3 + CH[p][2])


def _planes(
    out: list[str],
    s: int,
    k: int,
    ones: list[int],
    pairs: list[int],
    bare: bool,
    singles: bool,
    doubles: bool,
) -> None:
    """Trio chain s..s+k-1: bare, with k single wings, with k pair wings."""
    e = s + k - 1
    chain = _TRIOS[3 * s : 3 * (e + 1)]
    if bare:
        out.append(chain)
    if singles:
        _wings(out, chain, s, e, ones, k, 1)
    if doubles:
        _wings(out, chain, s, e, pairs, k, 2)


def _fours(out: list[str], fours: list[int], ones: list[int], pairs: list[int], pk: bool) -> None:
    for f in fours:
        s4 = CH[f][4]
        _wings(out, s4, f, f, ones, 2, 1)
        if pk:
            _wings(out, s4, f, f, pairs, 2, 2)


def _runs(counts: Counts, need: int) -> list[int]:
    """run[s] = how many consecutive ranks from s (up to A) hold at least ``need`` cards."""
    run = [0] * (ACE + 2)
    for r in range(ACE, -1, -1):
        run[r] = run[r + 1] + 1 if counts[r] >= need else 0
    return run


_S1 = tuple(CH[r][1] for r in range(NRANKS))
_S2 = tuple(CH[r][2] for r in range(NRANKS))
_S3 = tuple(CH[r][3] for r in range(NRANKS))
_S4 = tuple(CH[r][4] for r in range(NRANKS))
_RANGE = range(NRANKS)


def lead_plays(counts: Counts, rules: PatternRules = CLASSIC) -> list[str]:
    """首出: every play ``counts`` can lead, canonical, each once."""
    ones = [r for r in _RANGE if counts[r]]
    pairs = [r for r in ones if counts[r] >= 2]
    out = [_S1[r] for r in ones]
    if pairs:
        out += [_S2[r] for r in pairs]
        trios = [r for r in pairs if counts[r] >= 3]
    else:
        trios = []
    pk = rules.pair_kickers
    if trios:
        out += [_S3[r] for r in trios]
        _trio_kickers(out, trios, ones, pairs, pk)
    # Sequences: one pass finds the runs of ranks holding >= 1, 2, 3 cards (3..A).
    r1 = r2 = r3 = 0
    ends1: list[tuple[int, int]] = []
    ends2: list[tuple[int, int]] = []
    ends3: list[tuple[int, int]] = []
    for r in range(ACE + 2):
        c = counts[r] if r <= ACE else 0
        if c >= 1:
            r1 += 1
        else:
            if r1 >= 5:
                ends1.append((r - r1, r))
            r1 = 0
        if c >= 2:
            r2 += 1
        else:
            if r2 >= 3:
                ends2.append((r - r2, r))
            r2 = 0
        if c >= 3:
            r3 += 1
        else:
            if r3 >= 2:
                ends3.append((r - r3, r))
            r3 = 0
    for lo, hi in ends1:
        for s in range(lo, hi - 4):
            out += [_SOLO[s:e] for e in range(s + 5, hi + 1)]
    for lo, hi in ends2:
        for s in range(lo, hi - 2):
            out += [_PAIRS[2 * s : 2 * e] for e in range(s + 3, hi + 1)]
    for lo, hi in ends3:
        for s in range(lo, hi - 1):
            for k in range(2, hi - s + 1):
                _planes(out, s, k, ones, pairs, True, True, pk)
    fours = [r for r in trios if counts[r] == 4]
    if fours:
        if rules.four_with_two:
            _fours(out, fours, ones, pairs, pk)
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
            if pat is Pattern.TRIO_SINGLE:
                ones = [r for r in _RANGE if counts[r]]
                _trio_kickers(out, trios, ones, [], False)
            else:
                pairs = [r for r in range(SMALL_JOKER) if counts[r] >= 2]
                for t in trios:
                    s3 = _S3[t]
                    for p in pairs:
                        if p < t:
                            out.append(_S2[p] + s3)
                        elif p > t:
                            out.append(s3 + _S2[p])
    elif pat is Pattern.STRAIGHT or pat is Pattern.PAIR_STRAIGHT or pat is Pattern.PLANE:
        width = 1 if pat is Pattern.STRAIGHT else 2 if pat is Pattern.PAIR_STRAIGHT else 3
        length = previous.size // width
        source = _SOLO if width == 1 else _PAIRS if width == 2 else _TRIOS
        run = _runs(counts, width)
        for s in range(key - length + 2, ACE - length + 2):
            if run[s] >= length:
                out.append(source[width * s : width * (s + length)])
    elif pat is Pattern.PLANE_SINGLES or pat is Pattern.PLANE_PAIRS:
        singles = pat is Pattern.PLANE_SINGLES
        k = previous.size // (4 if singles else 5)
        run = _runs(counts, 3)
        starts = [s for s in range(key - k + 2, ACE - k + 2) if run[s] >= k]
        if starts:
            ones = [r for r in _RANGE if counts[r]]
            pairs = [r for r in ones if counts[r] >= 2]
            for s in starts:
                _planes(out, s, k, ones, pairs, False, singles, not singles)
    elif pat is Pattern.FOUR_SINGLES or pat is Pattern.FOUR_PAIRS:
        fours = [r for r in range(key + 1, SMALL_JOKER) if counts[r] == 4]
        if fours:
            ones = [r for r in _RANGE if counts[r]]
            if pat is Pattern.FOUR_SINGLES:
                _fours(out, fours, ones, [], False)
            else:
                pairs = [r for r in ones if counts[r] >= 2]
                for f in fours:
                    _wings(out, _S4[f], f, f, pairs, 2, 2)
    return out


def plays(counts: Counts, previous: Play | None, rules: PatternRules = CLASSIC) -> list[str]:
    """Every legal play (not pass): leading when ``previous`` is None, else following."""
    if previous is None:
        return lead_plays(counts, rules)
    return follow_plays(counts, previous, rules)


def legal_plays(hand: str, previous: str | None = None) -> list[str]:
    """合法出牌: every play of ``hand`` that may be led (``previous`` None or "pass") or
    that beats ``previous``, each once, in canonical notation. Pass is not listed.

    Raises NotationError for an unreadable hand or previous play, IllegalActionError when
    ``previous`` is not a valid pattern.

    >>> legal_plays("BR2", "2")
    ['B', 'R', 'BR']
    """
    counts = parse_cards(hand)
    prev = parse_play(previous) if previous is not None else None
    return plays(counts, prev)
