"""癞子 shapes: the wild-tile counter against a brute-force checker written from the text ("胡牌
的基本牌型 11、123…、111…", the pair 2/5/8 "除风一色、将一色、碰碰胡、清一色以外"): every way of
giving the wilds a face is tried, and the hand is complete if one of them is."""

from __future__ import annotations

from itertools import combinations_with_replacement

from hypothesis import given, settings
from hypothesis import strategies as st

from engines.mahjong.wild import ANY_PAIR, PAIR_258, need, need_triplets


def sets_only(c: list[int], triplets: bool = False) -> bool:
    i = next((k for k, n in enumerate(c) if n), -1)
    if i < 0:
        return True
    if c[i] >= 3:
        c[i] -= 3
        ok = sets_only(c, triplets)
        c[i] += 3
        if ok:
            return True
    if not triplets and i < 27 and i % 9 <= 6 and c[i + 1] and c[i + 2]:
        for t in (i, i + 1, i + 2):
            c[t] -= 1
        ok = sets_only(c, triplets)
        for t in (i, i + 1, i + 2):
            c[t] += 1
        return ok
    return False


def complete(c: list[int], pair: int, triplets: bool = False) -> bool:
    for p in range(34):
        if c[p] >= 2 and (pair == ANY_PAIR or (p < 27 and p % 9 in (1, 4, 7))):
            c[p] -= 2
            ok = sets_only(c, triplets)
            c[p] += 2
            if ok:
                return True
    return False


def brute(natural: list[int], wilds: int, pair: int, triplets: bool = False) -> bool:
    for faces in combinations_with_replacement(range(34), wilds):
        c = list(natural)
        for f in faces:
            c[f] += 1
        if complete(c, pair, triplets):
            return True
    return False


@st.composite
def near_hands(draw: st.DrawFn) -> tuple[list[int], int]:
    """14 tiles built from four sets and a pair (some random), then ``wilds`` of them taken
    out to be replaced by wilds."""
    tiles: list[int] = []
    for _ in range(4):
        t = draw(st.integers(0, 33))
        run = t < 27 and t % 9 <= 6 and draw(st.booleans())
        tiles += [t, t + 1, t + 2] if run else [t, t, t]
    p = draw(st.integers(0, 33))
    tiles += [p, p]
    for _ in range(draw(st.integers(0, 2))):
        tiles[draw(st.integers(0, 13))] = draw(st.integers(0, 33))
    wilds = draw(st.integers(0, 2))
    for _ in range(wilds):
        tiles.pop(draw(st.integers(0, len(tiles) - 1)))
    counts = [0] * 34
    for t in tiles:
        counts[t] += 1
    return counts, wilds


@settings(max_examples=300, deadline=None)
@given(near_hands())
def test_wild_count_agrees_with_trying_every_face(hand: tuple[list[int], int]) -> None:
    natural, wilds = hand
    for pair in (PAIR_258, ANY_PAIR):
        assert (need(natural, pair) <= wilds) == brute(natural, wilds, pair), (natural, pair)
    assert (need_triplets(natural) <= wilds) == brute(natural, wilds, ANY_PAIR, True)


def test_the_sample_has_both_answers() -> None:
    import random

    rng = random.Random(4)
    wins = losses = 0
    for _ in range(300):
        tiles = []
        for _ in range(4):
            t = rng.randrange(27)
            tiles += [t, t + 1, t + 2] if t % 9 <= 6 else [t] * 3
        tiles += [4, 4]
        tiles.pop(rng.randrange(14))
        if rng.random() < 0.5:
            tiles[rng.randrange(13)] = rng.randrange(34)
        counts = [0] * 34
        for t in tiles:
            counts[t] += 1
        ok = need(counts, PAIR_258) <= 1
        assert ok == brute(counts, 1, PAIR_258)
        wins += ok
        losses += not ok
    assert wins > 50 and losses > 50
