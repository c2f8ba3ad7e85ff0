"""番, 省 and 子: PH-E1 and PH-E2, the seed's 番 table, and 王钓 / 王闯 on set positions."""

from __future__ import annotations

import doctest

import pytest

from engines.base import Setup
from engines.paohuzi import PaohuziGame, game, groups, notation, scoring, tiles
from engines.paohuzi.groups import Group, Kind
from engines.paohuzi.scoring import fan_of, shen_count, zi
from engines.paohuzi.tiles import WILD, counts_of, parse_tile, parse_tiles


def test_ph_e1_zi_from_huxi_and_shen() -> None:
    # 21胡胡了，翻了三省，那就是6个子。加了个底的话，就是7个子
    assert zi(21, 3, 0) == 6 and zi(21, 3, 1) == 7
    assert zi(15, 0, 0) == 1  # 15 胡息 is one 子
    assert zi(17, 0, 0) == 1 and zi(18, 0, 0) == 2  # every full 3 胡息 is one more


def test_shen_counts_copies_and_every_wangba_at_most_six() -> None:
    five = parse_tile("五")
    assert shen_count(parse_tiles("五五五 六七八"), five) == 3
    assert shen_count(parse_tiles("五五五五 王王"), five) == 6  # 省最多有6省
    assert shen_count(parse_tiles("五五五"), None) == 0


RED_10 = parse_tiles("二二七七十十贰贰柒柒")
ONE_RED = parse_tiles("一三四五六八九 二")
NO_RED = parse_tiles("一三四五六八九")


@pytest.mark.parametrize(
    ("tiles", "self_drawn", "wang", "total"),
    [
        (RED_10, False, None, 2),  # 红胡 2番
        (ONE_RED, False, None, 3),  # 一点朱 3番
        (NO_RED, False, None, 4),  # 黑胡 4番
        (parse_tiles("二七十 二七"), True, None, 2),  # 自摸 2番 (5 red: no colour 番)
        (parse_tiles("二七十 二七"), True, "wangdiao", 4),  # 王钓 4番
        (parse_tiles("二七十 二七"), True, "wangdiaowang", 8),  # 王钓王 8番
        (parse_tiles("二七十 二七"), True, "wangchuang", 8),  # 王闯 8番
        (RED_10, True, "wangdiao", 8),  # 红胡王钓 8
        (RED_10, True, "wangchuang", 16),  # 红胡王闯 16
        (NO_RED, True, "wangdiao", 16),  # 黑胡王钓 16
        (NO_RED, True, "wangchuang", 32),  # 黑胡王闯 32
        (ONE_RED, True, "wangdiao", 12),  # 点钩王钓 12
        (ONE_RED, True, "wangchuang", 24),  # 点钩王闯 24
    ],
)
def test_the_fan_table(tiles: list[int], self_drawn: bool, wang: str | None, total: int) -> None:
    assert fan_of(tiles, self_drawn, wang).total == total


def _position(hand: str, open_groups: list[Group]) -> PaohuziGame:
    """Seat 1 holds ``hand`` concealed with ``open_groups`` laid down (a set-up position)."""
    g = PaohuziGame(Setup(seats=3, seed=0, carry={"dealer": 0}))
    g.hands[1] = counts_of(parse_tiles(hand))
    g.groups[1] = list(open_groups)
    return g


BIG_QING = [Group(Kind.QING, (19,) * 4), Group(Kind.QING, (18,) * 4)]  # 拾 and 玖: 24 胡息


def test_wangdiao_a_lone_wangba_pairs_with_the_drawn_tile() -> None:
    g = _position("王", [*BIG_QING, Group(Kind.CHI, tuple(parse_tiles("一二三")))])
    win = g.win_check(1, parse_tile("五"), "own")
    assert win is not None and win.huxi == 27
    assert ("wangdiao", 4) in win.fan.items and ("zimo", 2) not in win.fan.items
    # a 王霸 holder never wins on another seat's tile
    assert g.win_check(1, parse_tile("五"), "discard") is None
    assert g.win_check(1, parse_tile("五"), "draw") is None


def test_wangdiaowang_and_wangchuang() -> None:
    g = _position("王王", [*BIG_QING, Group(Kind.CHI, tuple(parse_tiles("一二三")))])
    g.last_drawn = WILD  # the second 王霸 was just drawn: 王钓王
    win = g.win_check(1, None, "self")
    assert win is not None and ("wangdiaowang", 8) in win.fan.items
    g.last_drawn = parse_tile("一")
    chuang = g.win_check(1, parse_tile("五"), "own")  # two 王霸 left and a tile: 王闯
    assert chuang is not None and ("wangchuang", 8) in chuang.fan.items


def test_pao_hu_on_a_kan_or_a_wei_counts_the_pao() -> None:
    # 跑胡: the winning tile goes onto the seat's 坎 or 偎 as a 跑 (9 for a big tile)
    wei_ten = Group(Kind.WEI, (19,) * 3)
    g = _position("玖玖玖 壹贰叁 捌捌", [wei_ten])
    win = g.win_check(1, parse_tile("玖"), "discard")
    assert win is not None and win.huxi == 6 + 9 + 6  # 偎 拾, 跑 玖, 壹贰叁 and the pair 捌捌
    g = _position("壹贰叁 捌捌", [wei_ten, Group(Kind.WEI, (18,) * 3)])
    win = g.win_check(1, parse_tile("玖"), "draw")
    assert win is not None and win.huxi == 21
    # a 碰 becomes a 跑 only on a drawn tile
    g = _position("壹贰叁 捌捌", [wei_ten, Group(Kind.PENG, (18,) * 3)])
    assert g.win_check(1, parse_tile("玖"), "discard") is None
    win = g.win_check(1, parse_tile("玖"), "draw")
    assert win is not None and win.huxi == 21


def test_doctests() -> None:
    for module in (game, groups, notation, scoring, tiles):
        assert doctest.testmod(module).failed == 0
