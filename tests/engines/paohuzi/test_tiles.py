"""字牌记法: tiles in ASCII and in both Chinese scripts round trip; aliases; clear errors."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engines.errors import NotationError
from engines.paohuzi.notation import parse_action
from engines.paohuzi.tiles import (
    format_group,
    format_tiles,
    format_zh,
    full_set,
    next_tile,
    parse_tile,
    parse_tiles,
    tile_name,
    tile_zh,
)

TILES = st.lists(st.sampled_from(full_set()), max_size=25)


@given(TILES)
def test_ascii_and_chinese_forms_round_trip(tiles: list[int]) -> None:
    assert parse_tiles(format_tiles(tiles)) == sorted(tiles)
    assert parse_tiles(format_zh(tiles)) == sorted(tiles)
    assert parse_tiles(format_group(tiles)) == sorted(tiles)  # no spaces: x10 stays ten


def test_every_tile_has_one_ascii_and_one_chinese_name() -> None:
    names = [tile_name(t) for t in range(21)]
    assert names[:3] == ["x1", "x2", "x3"] and names[9] == "x10"
    assert names[10] == "d1" and names[19] == "d10" and names[20] == "W"
    assert "".join(tile_zh(t) for t in range(21)) == "一二三四五六七八九十壹贰叁肆伍陆柒捌玖拾王"
    assert len(set(names)) == 21 and sorted(full_set()) == full_set() and len(full_set()) == 82


@pytest.mark.parametrize(
    ("typed", "tile"),
    [
        ("x3", "x3"),
        ("X3", "x3"),
        ("s3", "x3"),
        ("小3", "x3"),
        ("小三", "x3"),
        ("三", "x3"),
        ("d8", "d8"),
        ("D8", "d8"),
        ("b8", "d8"),
        ("大8", "d8"),
        ("大捌", "d8"),
        ("捌", "d8"),
        ("大一", "d1"),
        ("小壹", "x1"),
        ("貳", "d2"),
        ("參", "d3"),
        ("陸", "d6"),
        ("x10", "x10"),
        ("十", "x10"),
        ("拾", "d10"),
        ("d10", "d10"),
        ("W", "W"),
        ("w", "W"),
        ("王", "W"),
        ("王霸", "W"),
        ("wang", "W"),
    ],
)
def test_aliases(typed: str, tile: str) -> None:
    assert tile_name(parse_tile(typed)) == tile


def test_several_tiles_with_or_without_separators() -> None:
    assert format_tiles(parse_tiles("x1x10x2")) == "x1 x2 x10"
    assert parse_tiles("一、二，三 壹") == parse_tiles("x1 x2 x3 d1")


@pytest.mark.parametrize("bad", ["x11", "x0", "y3", "小", "z", "x", "3"])
def test_unknown_tiles_name_the_text(bad: str) -> None:
    with pytest.raises(NotationError) as err:
        parse_tiles(bad)
    assert bad in str(err.value)
    assert err.value.text is not None and err.value.text.key == "err.phz.tile"


def test_the_shen_tile_follows_in_its_own_script() -> None:
    # PH-E2: 翻出的是"小 6"，那省就是"小7"；翻出的是"大捌"，那省就是"大玖"
    assert tile_zh(next_tile(parse_tile("小6"))) == "七"
    assert tile_zh(next_tile(parse_tile("大捌"))) == "玖"
    assert tile_zh(next_tile(parse_tile("十"))) == "一"  # 十 wraps within the small script
    assert tile_zh(next_tile(parse_tile("拾"))) == "壹"


@pytest.mark.parametrize(
    ("typed", "parsed"),
    [
        ("胡", ("hu", [])),
        ("自摸", ("hu", [])),
        ("过", ("pass", [])),
        ("pass", ("pass", [])),
        ("碰", ("peng", [])),
        ("跑", ("pao", [])),
        ("打 三", ("discard", [2])),
        ("discard d10", ("discard", [19])),
        ("x4", ("discard", [3])),
        ("吃 三四五 一二三", ("chi", [[2, 3, 4], [0, 1, 2]])),
        ("chi x4x5", ("chi", [[3, 4]])),
        ("chi", ("chi", [])),
    ],
)
def test_actions(typed: str, parsed: tuple[str, list[int]]) -> None:
    assert parse_action(typed) == parsed


@pytest.mark.parametrize("bad", ["", "   ", "fly", "x1x2", "chi x11"])
def test_bad_actions_are_refused(bad: str) -> None:
    with pytest.raises(NotationError):
        parse_action(bad)
