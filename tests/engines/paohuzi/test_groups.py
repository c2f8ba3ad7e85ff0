"""胡息 and the win check: the fast checker against a brute force over every grouping."""

from __future__ import annotations

import itertools
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engines.paohuzi.groups import Group, Kind, best_huxi, is_run, run_value, same_value
from engines.paohuzi.tiles import WILD, counts_of, parse_tile, parse_tiles


def _kind_value(kind: Kind, tile: int) -> int:
    # Written out from 003 四、积分规则, independently of the engine's table.
    small, big = {
        Kind.PENG: (1, 3),
        Kind.KAN: (3, 6),
        Kind.PAO: (6, 9),
        Kind.QING: (9, 12),
    }[kind]
    return big if tile >= 10 else small


def _group_ok(g: tuple[int, ...]) -> bool:
    a, b, c = sorted(g)
    if a == b == c:
        return True
    numbers = sorted(t % 10 for t in g)
    scripts = {t // 10 for t in g}
    if len(scripts) == 1:
        return numbers in ([numbers[0], numbers[0] + 1, numbers[0] + 2], [1, 6, 9])
    return len(set(numbers)) == 1  # 绞牌: a pair and the same number in the other script


def _value(g: tuple[int, ...], peng_tile: int | None) -> int:
    a, b, c = sorted(g)
    if a == b == c:
        return _kind_value(Kind.PENG if a == peng_tile else Kind.KAN, a)
    if {a // 10, b // 10, c // 10} == {a // 10} and [t % 10 for t in (a, b, c)] in (
        [0, 1, 2],
        [1, 6, 9],
    ):
        return 6 if a >= 10 else 3
    return 0


def _groupings(tiles: list[int]) -> list[list[tuple[int, ...]]]:
    """Every way to cut ``tiles`` into valid groups of three and at most one pair."""
    if not tiles:
        return [[]]
    first, rest = tiles[0], tiles[1:]
    out: list[list[tuple[int, ...]]] = []
    for i, j in itertools.combinations(range(len(rest)), 2):
        g = (first, rest[i], rest[j])
        if _group_ok(g):
            left = [t for k, t in enumerate(rest) if k not in (i, j)]
            out += [[g, *more] for more in _groupings(left)]
    for i in range(len(rest)):
        if rest[i] == first:
            left = rest[:i] + rest[i + 1 :]
            out += [
                [(first, first), *more]
                for more in _groupings(left)
                if all(len(m) == 3 for m in more)
            ]
    return out


def brute_huxi(tiles: list[int], peng_tile: int | None = None) -> int | None:
    """The most 胡息 over every substitution of the 王霸 and every grouping; a 坎 held (three
    real copies, the winning copy of ``peng_tile`` apart) must stay whole and scores as 坎."""
    real = Counter(t for t in tiles if t != WILD)
    if peng_tile is not None:
        real[peng_tile] -= 1
    locked = [t for t, n in real.items() if n >= 3]
    words = [t for t in tiles if t != WILD]
    best: int | None = None
    for subs in itertools.product(range(20), repeat=tiles.count(WILD)):
        hand = sorted(words + list(subs))
        if any(n > 4 + len(subs) for n in Counter(hand).values()):
            continue
        for grouping in _groupings(hand):
            triples = [g for g in grouping if len(g) == 3]
            total = 0
            kept = list(triples)
            ok = True
            for t in locked:
                if (t, t, t) not in kept:
                    ok = False
                    break
                kept.remove((t, t, t))
                total += _kind_value(Kind.KAN, t)
            if not ok:
                continue
            total += sum(_value(g, peng_tile) for g in kept)
            if best is None or total > best:
                best = total
    return best


def test_the_values_of_the_seed_table() -> None:
    assert [same_value(k, 0) for k in (Kind.PENG, Kind.KAN, Kind.WEI, Kind.PAO, Kind.QING)] == [
        1,
        3,
        3,
        6,
        9,
    ]
    assert [same_value(k, 10) for k in (Kind.PENG, Kind.KAN, Kind.WEI, Kind.PAO, Kind.QING)] == [
        3,
        6,
        6,
        9,
        12,
    ]
    assert run_value(tuple(parse_tiles("一二三"))) == 3
    assert run_value(tuple(parse_tiles("壹贰叁"))) == 6
    assert run_value(tuple(parse_tiles("二七十"))) == 3
    assert run_value(tuple(parse_tiles("贰柒拾"))) == 6
    assert run_value(tuple(parse_tiles("四五六"))) == 0
    assert run_value(tuple(parse_tiles("九九玖"))) == 0  # 绞牌 scores nothing


@pytest.mark.parametrize(
    ("text", "ok"),
    [
        ("四五六", True),
        ("二七十", True),
        ("贰柒拾", True),
        ("九九玖", True),
        ("九玖玖", True),
        ("八九十", True),
        ("九十一", False),
        ("一二叁", False),
        ("一七十", False),
        ("九玖九", True),
        ("一一一", False),
        ("二七拾", False),
    ],
)
def test_runs(text: str, ok: bool) -> None:
    # 一句话: 小四、五、六; 二、七、十; 绞牌: 1对小九与1张大玖 (003 二、牌型介绍)
    assert is_run(tuple(parse_tiles(text))) is ok


@pytest.mark.parametrize(
    ("hand", "huxi"),
    [
        ("一二三 壹贰叁 二七十", 12),
        ("一二三 一", None),  # four tiles cannot be grouped
        ("三三三 四五六", 3),  # a 坎 held
        ("三三三 四五", None),  # a 坎 is never split (三三 and 三四五 would need it)
        ("三三三 三四五", 3),  # the fourth 三 may join a 一句话
        ("九九玖 二二", 0),  # a 绞牌 and the pair
        ("壹壹 王 二七十", 9),  # the 王霸 completes a big 坎
        ("王 王 一", 3),  # two 王霸 and 一: 一二三 or 一一一, 3 either way
        ("王", None),
        ("王王", 0),
    ],
)
def test_best_huxi_of_fixed_hands(hand: str, huxi: int | None) -> None:
    tiles = parse_tiles(hand)
    assert best_huxi(counts_of(tiles)) == huxi
    assert brute_huxi(tiles) == huxi


def test_a_triple_completed_by_another_seat_s_tile_is_a_peng() -> None:
    tiles = parse_tiles("壹壹壹 二七十")
    assert best_huxi(counts_of(tiles)) == 9  # held: a 坎 (6) + 二七十 (3)
    assert best_huxi(counts_of(tiles), peng_tile=parse_tile("壹")) == 6  # 碰 (3) + 3


def test_group_texts() -> None:
    wei = Group(Kind.WEI, (12, 12, 12))
    assert wei.text(hidden=True) == "[▢▢▢]" and wei.text() == "[叁叁叁]"
    assert Group(Kind.CHOU_WEI, (2, 2, 2)).text(hidden=True) == "[▢▢三]"
    assert Group(Kind.CHI, (1, 6, 9)).text() == "二七十" and Group(Kind.CHI, (1, 6, 9)).value == 3


_RUN_GROUPS = [g for g in itertools.combinations_with_replacement(range(20), 3) if _group_ok(g)]


@st.composite
def hands(draw: st.DrawFn) -> tuple[list[int], int | None]:
    """Hands of 2–11 tiles: built from random groups (so many are complete) or random tiles,
    some tiles turned into 王霸."""
    if draw(st.booleans()):
        groups = draw(st.lists(st.sampled_from(_RUN_GROUPS), min_size=0, max_size=3))
        tiles = [t for g in groups for t in g]
        if draw(st.booleans()):
            pair = draw(st.integers(0, 19))
            tiles += [pair, pair]
        tiles += draw(st.lists(st.integers(0, 19), max_size=1))
    else:
        tiles = draw(st.lists(st.integers(0, 19), min_size=2, max_size=9))
    c = Counter(tiles)
    tiles = [t for t in tiles if c[t] <= 4] or [0, 0]
    wilds = draw(st.integers(0, min(2, len(tiles))))
    for i in draw(st.permutations(range(len(tiles))))[:wilds]:
        tiles[i] = WILD
    peng = draw(st.one_of(st.none(), st.sampled_from([t for t in tiles if t != WILD] or [0])))
    if peng is not None and peng not in tiles:
        peng = None
    return tiles, peng


@settings(max_examples=300, deadline=None)
@given(hands())
def test_the_fast_checker_agrees_with_the_brute_force(case: tuple[list[int], int | None]) -> None:
    tiles, peng = case
    assert best_huxi(counts_of(tiles), peng) == brute_huxi(tiles, peng)
