"""积分: the QQ 五子棋 rating rules (seed 000 范文四 §四).

The seed's clause for a lower-rated winner is truncated; it is completed as GAMES.md §11
suggests.

With ``gap = |winner − loser|`` in whole points and ``gap // 10`` in whole tens:

- gap < 100: the winner gains ``10 − gap // 10`` if the winner's score is ≥ the loser's,
  else ``10 + gap // 10``; the loser loses what the winner gains.
- 100 ≤ gap < 200: 胜者得 1 分，负者输 1 分.
- gap ≥ 200: 胜负都不计分 (nothing changes, draws included).
- Draw (gap < 200): 分高者输一分，分低者赢一分; equal scores change nothing.
"""

from __future__ import annotations

NO_SCORE_GAP = 200
"""两个玩家的分数差别大于等于 200 分时，胜负都不计分."""

SMALL_GAP = 100


def win_change(winner: int, loser: int) -> tuple[int, int]:
    """胜负计分: the score changes ``(winner's, loser's)`` for a decided game.

    >>> win_change(0, 0)
    (10, -10)
    >>> win_change(150, 100), win_change(100, 150)
    ((5, -5), (15, -15))
    >>> win_change(300, 150), win_change(0, 250)
    ((1, -1), (0, 0))
    """
    gap = abs(winner - loser)
    if gap >= NO_SCORE_GAP:
        return (0, 0)
    if gap >= SMALL_GAP:
        return (1, -1)
    gain = 10 - gap // 10 if winner >= loser else 10 + gap // 10
    return (gain, -gain)


def draw_change(a: int, b: int) -> tuple[int, int]:
    """和棋计分: one point moves from the higher score to the lower; ``(a's, b's)``.

    >>> draw_change(120, 80), draw_change(80, 120), draw_change(50, 50), draw_change(0, 200)
    ((-1, 1), (1, -1), (0, 0), (0, 0))
    """
    if a == b or abs(a - b) >= NO_SCORE_GAP:
        return (0, 0)
    return (-1, 1) if a > b else (1, -1)
