"""An independent judge: PyMahjongGB (the Chinese Official rules' C++ library) agrees with our
win check on random 14-tile hands of three suits, seven pairs included (a four of a kind
counts as two pairs in both), on hands with honours, and on 陕西麻将's special shapes 十三幺,
全不靠 and 组合龙."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from engines.mahjong.shape import (
    KNITS,
    ORPHANS,
    is_knitted_and_honours,
    is_knitted_straight,
    is_thirteen_orphans,
    is_win,
    standard_mask,
)
from engines.mahjong.tiles import parse_hand

MahjongGB = pytest.importorskip("MahjongGB")

GB_SUIT = "WBT"  # GB names: W 万, B 饼 (筒), T 条


def gb_name(tile: int) -> str:
    return f"{GB_SUIT[tile // 9]}{tile % 9 + 1}"


def gb_wins(tiles: list[int]) -> bool:
    """Complete by GB's judgement: some tile of the 14, taken out, leaves a hand ready on it
    (regular form or seven pairs)."""
    for t in sorted(set(tiles)):
        rest = list(tiles)
        rest.remove(t)
        names = tuple(gb_name(x) for x in rest)
        for judge in (MahjongGB.RegularShanten, MahjongGB.SevenPairsShanten):
            shanten, useful = judge(names)
            if shanten == 0 and gb_name(t) in useful:
                return True
    return False


def random_hands(seed: int, count: int, suits: int) -> list[list[int]]:
    """``count`` random 14-tile hands over ``suits`` suits, half of them forced near a win
    (so both answers are well represented)."""
    rng = random.Random(seed)
    out = []
    for i in range(count):
        pool = [t for t in range(9 * suits) for _ in range(4)]
        rng.shuffle(pool)
        if i % 2:
            hand = pool[:14]
        else:  # build from sets and a pair or from seven pairs, then perturb one tile
            counts = [0] * 27
            tiles: list[int] = []
            kinds = list(range(9 * suits))
            if rng.random() < 0.3:
                for t in rng.sample(kinds, 7):
                    tiles += [t, t]
            else:
                while len(tiles) < 12:
                    t = rng.choice(kinds)
                    group = [t, t, t] if rng.random() < 0.4 or t % 9 > 6 else [t, t + 1, t + 2]
                    tiles += group
                t = rng.choice(kinds)
                tiles += [t, t]
            if rng.random() < 0.5:
                tiles[rng.randrange(14)] = rng.choice(kinds)
            for t in tiles:
                counts[t] += 1
            if max(counts) > 4:
                tiles = pool[:14]
            hand = tiles
        out.append(hand)
    return out


@pytest.mark.parametrize("suits", [1, 2, 3])
def test_pymahjonggb_agrees_on_win_or_no_win(suits: int) -> None:
    wins = 0
    for hand in random_hands(suits, 1500, suits):
        counts = [0] * 34
        for t in hand:
            counts[t] += 1
        ours = is_win(counts)
        assert ours == gb_wins(hand), sorted(hand)
        wins += ours
    assert wins > 200  # the sample really holds many wins


def test_the_judge_itself_knows_seven_pairs_with_a_four() -> None:
    tiles = [t for t, n in enumerate(parse_hand("1111m22m33m44m55m66m")) for _ in range(n)]
    assert gb_wins(tiles) and is_win(parse_hand("1111m22m33m44m55m66m"))


# --- 陕西麻将's 国标 shapes: 十三幺, 全不靠, 组合龙 ---------------------------------------------------
def gb_tile(tile: int) -> str:
    """GB's name with honours: F1-F4 东南西北 (1z-4z), J1-J3 中发白 (5z-7z)."""
    if tile < 27:
        return gb_name(tile)
    k = tile - 27
    return f"F{k + 1}" if k < 4 else f"J{k - 3}"


def gb_complete(tiles: list[int], judge: Callable[..., tuple[int, tuple[str, ...]]]) -> bool:
    for t in sorted(set(tiles)):
        rest = list(tiles)
        rest.remove(t)
        shanten, useful = judge(tuple(gb_tile(x) for x in rest))
        if shanten == 0 and gb_tile(t) in useful:
            return True
    return False


def special_hands(seed: int, count: int, kind: str) -> list[list[int]]:
    """Random 14-tile hands built as ``kind`` (十三幺, 全不靠 or 组合龙), half perturbed."""
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        knit = list(KNITS[rng.randrange(6)])
        if kind == "orphans":
            tiles = [*ORPHANS, rng.choice(ORPHANS)]
        elif kind == "knitted":
            tiles = rng.sample(knit + list(range(27, 34)), 14)
        else:
            tiles = list(knit)
            t = rng.randrange(34)
            if t < 27 and t % 9 < 7 and rng.random() < 0.5:
                tiles += [t, t + 1, t + 2]
            else:
                tiles += [t, t, t]
            p = rng.randrange(34)
            tiles += [p, p]
        if rng.random() < 0.5:
            tiles[rng.randrange(14)] = rng.randrange(34)
        if max(tiles.count(t) for t in tiles) <= 4:
            out.append(tiles)
    return out


@pytest.mark.parametrize(
    ("kind", "ours", "judge"),
    [
        ("orphans", is_thirteen_orphans, "ThirteenOrphansShanten"),
        ("knitted", is_knitted_and_honours, "HonorsAndKnittedTilesShanten"),
        ("straight", is_knitted_straight, "KnittedStraightShanten"),
    ],
)
def test_pymahjonggb_agrees_on_the_special_shapes(
    kind: str, ours: Callable[[list[int]], bool], judge: str
) -> None:
    wins = 0
    for hand in special_hands(len(kind), 600, kind):
        counts = [0] * 34
        for t in hand:
            counts[t] += 1
        mine = ours(counts)
        assert mine == gb_complete(hand, getattr(MahjongGB, judge)), sorted(hand)
        wins += mine
    assert 150 < wins < 600  # both answers are well represented


def test_the_judge_agrees_with_honours_in_the_regular_shape() -> None:
    rng = random.Random(9)
    wins = 0
    for _ in range(800):
        tiles: list[int] = []
        while len(tiles) < 12:
            t = rng.randrange(34)
            tiles += [t, t + 1, t + 2] if t < 27 and t % 9 < 7 and rng.random() < 0.5 else [t] * 3
        p = rng.randrange(34)
        tiles += [p, p]
        if rng.random() < 0.5:
            tiles[rng.randrange(14)] = rng.randrange(34)
        if max(tiles.count(t) for t in tiles) > 4:
            continue
        counts = [0] * 34
        for t in tiles:
            counts[t] += 1
        mine = standard_mask(counts) != 0
        assert mine == gb_complete(tiles, MahjongGB.RegularShanten), sorted(tiles)
        wins += mine
    assert wins > 100
