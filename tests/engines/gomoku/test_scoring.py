"""QQ 五子棋 rating (积分) rules: seed 000 范文四 §四 with GAMES.md §11's completion."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engines.gomoku.scoring import draw_change, win_change


@pytest.mark.parametrize(
    ("winner", "loser", "expected"),
    [
        (0, 0, (10, -10)),  # gap 0: 10 − 0
        (115, 100, (9, -9)),  # gap 15: 10 − 15 // 10
        (150, 100, (5, -5)),  # 胜者积分 >= 负者积分: 10 − 两人分差 / 10
        (199, 100, (1, -1)),  # gap 99: 10 − 9
        (100, 150, (15, -15)),  # winner lower: 10 + gap / 10 (GAMES.md completion)
        (100, 199, (19, -19)),
        (-300, -250, (15, -15)),  # negative scores (9级 … 2级) work the same
        (200, 100, (1, -1)),  # 100 ≤ gap < 200: 胜者得 1 分，负者输 1 分
        (100, 200, (1, -1)),
        (0, 199, (1, -1)),
        (0, 200, (0, 0)),  # gap ≥ 200: 胜负都不计分
        (900, -800, (0, 0)),
    ],
)
def test_win_change(winner: int, loser: int, expected: tuple[int, int]) -> None:
    assert win_change(winner, loser) == expected


@pytest.mark.parametrize(
    ("a", "b", "expected"),
    [
        (120, 80, (-1, 1)),  # 和棋时，分高者输一分，分低者赢一分
        (80, 120, (1, -1)),
        (50, 50, (0, 0)),
        (0, 199, (1, -1)),
        (0, 200, (0, 0)),  # the ≥ 200 rule covers draws too
        (-800, 900, (0, 0)),
    ],
)
def test_draw_change(a: int, b: int, expected: tuple[int, int]) -> None:
    assert draw_change(a, b) == expected


@settings(max_examples=200)
@given(st.integers(-1000, 1000), st.integers(-1000, 1000))
def test_zero_sum_and_bounds(a: int, b: int) -> None:
    gain, loss = win_change(a, b)
    assert gain == -loss and 0 <= gain <= 19
    if abs(a - b) < 100:
        assert gain >= 1
        # The lower-rated winner never gains less than the higher-rated one would.
        assert win_change(min(a, b), max(a, b))[0] >= win_change(max(a, b), min(a, b))[0]
    x, y = draw_change(a, b)
    assert x == -y and abs(x) <= 1
