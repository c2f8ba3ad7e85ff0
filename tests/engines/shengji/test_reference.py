"""A brute-force reference for follow legality and 甩牌 checks, written from the rules as stated
(docs/games/shengji.md), compared with the engine under Hypothesis.

The reference enumerates every sub-multiset of a hand and every way of reading cards into
singles, pairs, triples and runs; the engine reads selections of units with a run-cover DP.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from itertools import product

from hypothesis import given, settings
from hypothesis import strategies as st

from engines.shengji.patterns import Lead, decompose, failed_throw, follow_problem
from engines.trick.cards import Context, counts_of

CTXS = [Context(10, 1, False), Context(5, None, False), Context(2, 0, True), Context(14, 3, False)]


def readings(cards: Sequence[int]) -> Iterator[list[tuple[int, int]]]:
    """Every way to split a multiset into units (id, width)."""
    counts = sorted(Counter(cards).items())
    splits = {1: [(1,)], 2: [(2,), (1, 1)], 3: [(3,), (2, 1), (1, 1, 1)]}
    for pick in product(*(splits[k] for _, k in counts)):
        yield [(cid, w) for (cid, _), ws in zip(counts, pick, strict=True) for w in ws]


def run_cover(orders: list[int]) -> int:
    """Most units (given by order, with repeats) placed in runs of ≥ 2 adjacent orders, one unit
    per order per run: by trying every run from the lowest unit."""
    if not orders:
        return 0
    rest = sorted(orders)
    low = rest[0]
    best = run_cover(rest[1:])  # the lowest unit in no run
    # or a run starting at it, of every length
    remaining = rest[1:]
    run = 1
    o = low
    while o + 1 in remaining:
        remaining = remaining.copy()
        remaining.remove(o + 1)
        o += 1
        run += 1
        best = max(best, run + run_cover(remaining))
    return best


def ref_score(cards: Sequence[int], ctx: Context, caps: tuple[int, ...]) -> tuple[int, ...]:
    best = (0, 0, 0, 0)
    for reading in readings(cards):
        triples = [ctx.order[c] for c, w in reading if w == 3]
        pairs = [ctx.order[c] for c, w in reading if w == 2]
        s = (run_cover(triples), run_cover(pairs), len(triples), len(pairs))
        s = tuple(min(a, b) for a, b in zip(s, caps, strict=True))
        best = max(best, s)
    return best


def submultisets(cards: Sequence[int], n: int) -> Iterator[tuple[int, ...]]:
    counts = sorted(Counter(cards).items())

    def go(i: int, left: int) -> Iterator[tuple[int, ...]]:
        if left == 0:
            yield ()
            return
        if i == len(counts):
            return
        cid, k = counts[i]
        for take in range(min(k, left), -1, -1):
            for tail in go(i + 1, left - take):
                yield (cid,) * take + tail

    yield from go(0, n)


def ref_legal_follows(hand: Sequence[int], lead: Sequence[int], ctx: Context) -> set[tuple]:
    """The rules as written: follow suit as far as you can; with more cards of the suit than
    the lead, play the most structure (capped by the lead's own)."""
    n = len(lead)
    suit = ctx.eff[lead[0]]
    own = ref_score(lead, ctx, (99, 99, 99, 99))
    # A triple may be answered by a pair, a 泰坦尼克 by a tractor (the text's orders).
    caps = (own[0], own[1] + own[0], own[2], own[3] + own[2])
    held = [c for c in hand if ctx.eff[c] == suit]
    plays = set(submultisets(hand, n))
    if len(held) <= n:
        return {p for p in plays if sum(1 for c in p if ctx.eff[c] == suit) == len(held)}
    in_suit = [p for p in plays if all(ctx.eff[c] == suit for c in p)]
    top = max(ref_score(p, ctx, caps) for p in in_suit)
    return {p for p in in_suit if ref_score(p, ctx, caps) == top}


def cards_in(suits: Sequence[int], ctx: Context) -> list[int]:
    return [c for c in range(54) if ctx.eff[c] in suits]


@st.composite
def follow_case(draw: st.DrawFn) -> tuple[Context, list[int], list[int]]:
    ctx = draw(st.sampled_from(CTXS))
    suits = [x for x in range(5) if cards_in([x], ctx)]
    suit = draw(st.sampled_from(suits))
    pool = cards_in([suit], ctx)
    other = [x for x in suits if x != suit]
    small = draw(st.lists(st.sampled_from(pool), min_size=3, max_size=6, unique=True))
    lead: list[int] = []
    for cid in small[: draw(st.integers(1, 4))]:
        lead += [cid] * draw(st.integers(1, 2))
    hand_pool = draw(st.lists(st.sampled_from(pool + cards_in(other[:1], ctx)), min_size=4,
                              max_size=8, unique=True))
    hand: list[int] = []
    for cid in hand_pool:
        hand += [cid] * draw(st.integers(1, 2))
    hand = hand[:12]
    if len(hand) < len(lead):
        hand += [c for c in cards_in(other[-1:], ctx)][: len(lead) - len(hand)]
    return ctx, sorted(lead), sorted(hand)


@settings(max_examples=150, deadline=None)
@given(follow_case())
def test_follow_legality_matches_the_brute_force_reference(
        case: tuple[Context, list[int], list[int]]) -> None:
    ctx, lead, hand = case
    expected = ref_legal_follows(hand, lead, ctx)
    counts = counts_of(hand)
    info = Lead.of(lead, ctx)
    got = {p for p in submultisets(hand, len(lead))
           if follow_problem(counts, info, p, ctx) is None}
    assert got == expected


def ref_beats_part(width: int, length: int, top: int, hand: Sequence[int], suit: int,
                   ctx: Context) -> bool:
    """Some sub-multiset of the hand's suit cards is ``length`` adjacent orders of
    ``width``-fold identical cards with a top above ``top``."""
    held = [c for c in hand if ctx.eff[c] == suit]
    for sub in set(submultisets(held, width * length)):
        counts = Counter(sub)
        if any(k != width for k in counts.values()):
            continue
        orders = sorted(ctx.order[c] for c in counts)
        if orders == list(range(orders[0], orders[0] + length)) and orders[-1] > top:
            return True
    return False


@st.composite
def throw_case(draw: st.DrawFn) -> tuple[Context, list[int], list[list[int]]]:
    ctx = draw(st.sampled_from(CTXS))
    suit = draw(st.sampled_from([x for x in range(5) if cards_in([x], ctx)]))
    pool = cards_in([suit], ctx)
    ids = draw(st.lists(st.sampled_from(pool), min_size=2, max_size=4, unique=True))
    throw = [c for c in ids for _ in range(draw(st.integers(1, 2)))]
    others = []
    for _ in range(3):
        picks = draw(st.lists(st.sampled_from(pool), max_size=4, unique=True))
        others.append([c for c in picks for _ in range(draw(st.integers(1, 2)))])
    return ctx, throw, others


@settings(max_examples=200, deadline=None)
@given(throw_case())
def test_throw_checks_match_the_reference(
        case: tuple[Context, list[int], list[list[int]]]) -> None:
    ctx, throw, others = case
    suit = ctx.eff[throw[0]]
    comps = decompose(throw, ctx)
    beaten = [c for c in comps
              if any(ref_beats_part(c.width, c.length, c.top, h, suit, ctx) for h in others)]
    forced = failed_throw(throw, [counts_of(h) for h in others], ctx)
    if len(comps) == 1 or not beaten:
        assert forced is None
    else:
        assert forced is not None
        assert (forced.top, forced.size) == min((c.top, c.size) for c in beaten)


def test_a_long_tractor_lead_against_two_short_tractors() -> None:
    """A 3-pair tractor led; the follower holds two 2-pair tractors: it owes one tractor and a
    pair (the best 6 cards can carry), not three tractor pairs."""
    from engines.trick.cards import parse_ids

    ctx = CTXS[0]
    lead = parse_ids("As As Ks Ks Qs Qs")
    hand = parse_ids("Js Js 9s 9s 7s 7s 6s 6s")
    info = Lead.of(lead, ctx)
    ok = parse_ids("Js Js 9s 9s 7s 7s")
    assert follow_problem(counts_of(hand), info, ok, ctx) is None
    bad = parse_ids("Js Js 9s 7s 7s 6s")
    assert follow_problem(counts_of(hand), info, bad, ctx) is not None
    assert {p for p in submultisets(hand, 6) if follow_problem(counts_of(hand), info, p, ctx)
            is None} == ref_legal_follows(hand, lead, ctx)
