"""牌型表: the table-driven win check, shanten and waits answer exactly what the recursions
they replace answer, agree with the independent judges (PyMahjongGB, ``mahjong``) on random
hands, need no memo (a restarted bot's first hand costs what its millionth does), and the
shipped table file is the one ``tablegen`` builds."""

from __future__ import annotations

import random
import zlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engines.mahjong import decompose, suit_tables, tablegen
from engines.mahjong.shape import is_win, shanten, shanten_standard, standard_mask, waits
from engines.mahjong.tiles import format_counts, parse_hand


@st.composite
def hands(draw: st.DrawFn, kinds: int = 34) -> tuple[list[int], int]:
    """A hand of 3k + 1 or 3k + 2 concealed tiles (k sets short of 4 are melds), over the
    first ``kinds`` kinds, often near a win."""
    melds = draw(st.integers(0, 4))
    size = 3 * (4 - melds) + draw(st.sampled_from((1, 2)))
    counts = [0] * 34
    if draw(st.booleans()):  # built from sets and a pair, one tile maybe spoiled
        tiles: list[int] = []
        while len(tiles) < size - 2:
            t = draw(st.integers(0, kinds - 1))
            run = t < 27 and t % 9 < 7 and draw(st.booleans())
            tiles += [t, t + 1, t + 2] if run else [t, t, t]
        t = draw(st.integers(0, kinds - 1))
        tiles = (tiles + [t, t])[:size]
        if draw(st.booleans()):
            tiles[draw(st.integers(0, size - 1))] = draw(st.integers(0, kinds - 1))
        for t in tiles:
            counts[t] += 1
        if max(counts) <= 4:
            return counts, melds
        counts = [0] * 34
    pool = [t for t in range(kinds) for _ in range(4)]
    for t in draw(st.permutations(pool))[:size]:
        counts[t] += 1
    return counts, melds


@settings(max_examples=400, deadline=None)
@given(hands())
def test_the_tables_answer_what_the_recursions_answer(hand: tuple[list[int], int]) -> None:
    counts, melds = hand
    text = format_counts(counts)
    assert is_win(counts, melds) == decompose.recursive_is_win(counts, melds), text
    assert standard_mask(counts) == decompose.recursive_standard_mask(counts), text
    assert shanten(counts, melds) == decompose.recursive_shanten(counts, melds), text
    assert shanten_standard(counts, melds) == decompose.recursive_shanten_standard(counts, melds), (
        text
    )
    every = (0, 1, 2, 3)
    assert waits(counts, melds, every) == decompose.recursive_waits(counts, melds, every), text
    assert waits(counts, melds) == decompose.recursive_waits(counts, melds), text


@pytest.mark.parametrize(
    ("hand", "melds"),
    [
        ("111122223333444m", 0),  # more than 14 tiles of one suit: not in the tables
        ("11112222333344445555m", 0),
        ("11112222333344445555z", 0),  # honours beyond the tables too
        ("", 0),
        ("1m", 4),
        ("1112345678999m5z", 0),
    ],
)
def test_hands_the_tables_lack_fall_back_to_the_recursions(hand: str, melds: int) -> None:
    counts = parse_hand(hand) if hand else [0] * 34
    assert is_win(counts, melds) == decompose.recursive_is_win(counts, melds)
    assert standard_mask(counts) == decompose.recursive_standard_mask(counts)
    assert shanten(counts, melds) == decompose.recursive_shanten(counts, melds)
    assert waits(counts, melds, (0, 1, 2, 3)) == decompose.recursive_waits(
        counts, melds, (0, 1, 2, 3)
    )


def test_counts_outside_zero_to_four_fall_back_to_the_recursions() -> None:
    counts = parse_hand("11122233344455m")
    counts[0] = 5  # not a real hand, but the answer is still the recursion's
    assert is_win(counts) == decompose.recursive_is_win(counts)
    assert shanten(counts) == decompose.recursive_shanten(counts)


def test_a_first_hand_fills_no_memo() -> None:
    """Cold is warm: the shape functions read tables, and never the memoized recursions."""
    for memo in (decompose._decomp, decompose._front, decompose._and, decompose._combine):
        memo.cache_clear()
    rng = random.Random(4)
    for _ in range(300):
        counts = [0] * 34
        for t in rng.sample([t for t in range(34) for _ in range(4)], rng.choice((13, 14))):
            counts[t] += 1
        is_win(counts), standard_mask(counts), shanten(counts), waits(counts, 0, (0, 1, 2, 3))
    assert decompose._decomp.cache_info().currsize == 0
    assert decompose._front.cache_info().currsize == 0


def test_the_shipped_tables_are_the_ones_tablegen_builds() -> None:
    """Every decomposing part's entry, and a random sample of the others, rebuilt from the
    recursions (the whole file takes minutes to build: ``python -m engines.mahjong.tablegen``)."""
    rng = random.Random(1)
    n = suit_tables.PROFILES
    profiles: dict[int, tuple[int, ...]] = {}
    for index in [*rng.sample(range(5**9), 3000), 0, 5**9 - 1]:
        c = tuple(index // 5 ** (8 - i) % 5 for i in range(9))
        if sum(c) > 14:
            assert suit_tables.WIN[index] == tablegen.NOT_TABULATED
            assert suit_tables.SHAPE[index] == tablegen.NO_SHAPE
            continue
        pair = sum(c) % 3 == 2
        mask = 0 if sum(c) % 3 == 1 else decompose._decomp(c, pair) if any(c) else 8
        expected = mask | (16 if mask and pair else 0)
        assert suit_tables.WIN[index] == expected, c
        assert suit_tables.WINS.get(bytes(c), 0) == expected, c
        prof = tablegen.profile(decompose._front(c)) if any(c) else tablegen.EMPTY
        assert profiles.setdefault(suit_tables.SHAPE[index], prof) == prof, c
    # the combination table is the max-plus convolution of the profiles it names
    for a, pa in profiles.items():
        for b, pb in profiles.items():
            combined = tablegen.combine(pa, pb)
            assert profiles.get(suit_tables.COMB[a * n + b], combined) == combined
    raw = zlib.decompress(tablegen.PATH.read_bytes())
    assert raw.startswith(tablegen.MAGIC)


# --- the independent judges ---------------------------------------------------------------------
MahjongGB = pytest.importorskip("MahjongGB")
GB = [f"{'WBT'[t // 9]}{t % 9 + 1}" for t in range(27)] + [
    *(f"F{k}" for k in range(1, 5)),
    *(f"J{k}" for k in range(1, 4)),
]


@settings(max_examples=300, deadline=None)
@given(hands())
def test_pymahjonggb_finds_the_same_waits(hand: tuple[list[int], int]) -> None:
    counts, melds = hand
    if melds or sum(counts) != 13:
        return
    tiles = tuple(GB[t] for t, n in enumerate(counts) for _ in range(n))
    theirs = set()
    for judge in (MahjongGB.RegularShanten, MahjongGB.SevenPairsShanten):
        sh, useful = judge(tiles)
        if sh == 0:
            theirs |= {GB.index(x) for x in useful}
    theirs = {t for t in theirs if counts[t] < 4}  # a kind held four times is no wait
    assert set(waits(counts, 0, (0, 1, 2, 3))) == theirs, format_counts(counts)


@settings(max_examples=300, deadline=None)
@given(hands())
def test_mahjong_agrees_on_shanten_and_wins(hand: tuple[list[int], int]) -> None:
    """``mahjong`` (Japanese rules) counts no four of a kind as two pairs: hands holding one
    are left out."""
    agari = pytest.importorskip("mahjong.agari")
    calc = pytest.importorskip("mahjong.shanten").Shanten().calculate_shanten
    counts, melds = hand
    if melds or 4 in counts:
        return
    text = format_counts(counts)
    assert shanten(counts) == calc(counts, use_kokushi=False), text
    if sum(counts) == 14:
        assert is_win(counts) == agari.Agari().is_agari(counts), text
