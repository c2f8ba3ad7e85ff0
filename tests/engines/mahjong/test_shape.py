"""牌型: the win check, shanten and waits on hands written in notation."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engines.mahjong.shape import is_win, shanten, shanten_pairs, waits
from engines.mahjong.tiles import format_counts, parse_hand, tile_name


@pytest.mark.parametrize(
    ("hand", "win"),
    [
        ("11122233344455m", True),
        ("12345678999m11p", False),
        ("123456789m12356p", False),
        ("11m22m33m44m55m66m77m", True),  # seven pairs
        ("1111m2233445566m", True),  # 龙七对: four of a kind is two pairs
        ("11223344556677z", True),
        ("111z222z333z44z567m", True),
        ("111z222z333z45z567m", False),
        ("11m", True),
        ("1m", False),
    ],
)
def test_win_check(hand: str, win: bool) -> None:
    assert is_win(parse_hand(hand)) is win


def test_seven_pairs_need_a_closed_hand() -> None:
    assert is_win(parse_hand("1133557799m1133p"), 0)
    assert not is_win(parse_hand("1133557799m1133p"), 1)


@pytest.mark.parametrize(
    ("hand", "melds", "expected"),
    [
        ("1112345678999m", 0, 0),
        ("11122233344455m", 0, -1),
        ("123m456p789s1357m", 0, 1),
        ("1357m1357p1357s9m", 0, 4),  # six 嵌张 partials, no set
        ("1122334455667m", 0, 0),
        ("1m", 4, 0),
        ("12m", 3, 1),
    ],
)
def test_shanten(hand: str, melds: int, expected: int) -> None:
    assert shanten(parse_hand(hand), melds) == expected


def test_waits() -> None:
    assert [tile_name(t) for t in waits(parse_hand("2345m"))] == ["2m", "5m"]
    assert [tile_name(t) for t in waits(parse_hand("1111m"), 3)] == []  # all 1万 are held
    assert [tile_name(t) for t in waits(parse_hand("1122334455667m"))] == ["1m", "4m", "7m"]


@st.composite
def hands(draw: st.DrawFn, size: int) -> list[int]:
    counts = [0] * 34
    pool = [t for t in range(27) for _ in range(4)]
    for t in draw(st.permutations(pool))[:size]:
        counts[t] += 1
    return counts


@settings(max_examples=200, deadline=None)
@given(hands(13))
def test_a_ready_hand_waits_and_a_waiting_tile_wins(counts: list[int]) -> None:
    ws = waits(counts)
    if ws:
        assert shanten(counts) == 0, format_counts(counts)
    elif shanten(counts) == 0:  # ready only on a tile the hand already holds four of
        assert 4 in counts, format_counts(counts)
    for t in ws:
        counts[t] += 1
        assert is_win(counts) and shanten(counts) == -1
        counts[t] -= 1


@settings(max_examples=200, deadline=None)
@given(hands(14))
def test_shanten_is_minus_one_exactly_for_wins(counts: list[int]) -> None:
    assert (shanten(counts) == -1) == is_win(counts), format_counts(counts)
    assert shanten_pairs(counts) >= -1
