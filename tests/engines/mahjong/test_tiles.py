"""牌的记法: tiles and actions read and written, round trips, and readable errors."""

from __future__ import annotations

import doctest

import pytest
from hypothesis import given
from hypothesis import strategies as st

import engines.mahjong
from engines.errors import NotationError
from engines.mahjong import ai, fan, game, notation, shaanxi, shape, tiles, wild, wuhan, yongzhou
from engines.mahjong.notation import parse_action
from engines.mahjong.tiles import (
    format_counts,
    format_run,
    format_tiles,
    parse_hand,
    parse_tile,
    parse_tiles,
    tile_name,
)

TILE = st.integers(min_value=0, max_value=33)


@given(st.lists(TILE, min_size=1, max_size=20))
def test_sorted_notation_round_trips(ts: list[int]) -> None:
    assert parse_tiles(format_tiles(ts)) == sorted(ts)
    assert format_tiles(parse_tiles(format_tiles(ts))) == format_tiles(ts)


@given(st.lists(TILE, min_size=1, max_size=30))
def test_ordered_notation_keeps_the_order(ts: list[int]) -> None:
    assert parse_tiles(format_run(ts)) == ts


@given(st.lists(TILE, min_size=1, max_size=14))
def test_loose_spelling_reads_the_same(ts: list[int]) -> None:
    spaced = " ".join(tile_name(t).upper() for t in ts)
    assert parse_tiles(spaced) == ts


def test_counts_and_names() -> None:
    counts = parse_hand("1112m 9s")
    assert format_counts(counts) == "1112m9s"
    assert [tile_name(parse_tile(t)) for t in ("5万", "五筒", "7条", "9索", "3饼", "1z")] == [
        "5m",
        "5p",
        "7s",
        "9s",
        "3p",
        "1z",
    ]


@pytest.mark.parametrize(
    ("typed", "key"),
    [
        ("5x", "err.mj.tile_char"),
        ("m", "err.mj.tile_suit"),
        ("0m", "err.mj.tile_rank"),
        ("8z", "err.mj.tile_rank"),
        ("55", "err.mj.tile_nosuit"),
        (" ", "err.mj.tile_empty"),
    ],
)
def test_bad_tiles_say_what_is_wrong(typed: str, key: str) -> None:
    with pytest.raises(NotationError) as info:
        parse_tiles(typed)
    assert info.value.text is not None and info.value.text.key == key


def test_too_many_and_not_one() -> None:
    with pytest.raises(NotationError) as info:
        parse_hand("11111m")
    assert info.value.text is not None and info.value.text.args["tile"] == "1m"
    with pytest.raises(NotationError):
        parse_tile("12m")


@pytest.mark.parametrize(
    ("typed", "parsed"),
    [
        ("que m", ("que", 0)),
        ("缺筒", ("que", 1)),
        ("dingque 条", ("que", 2)),
        ("5m", ("discard", 4)),
        ("打 5万", ("discard", 4)),
        ("discard 9s", ("discard", 26)),
        ("peng", ("peng", None)),
        ("碰", ("peng", None)),
        ("PONG", ("peng", None)),
        ("gang", ("gang", None)),
        ("杠 7s", ("gang", 24)),
        ("kong 1p", ("gang", 9)),
        ("hu", ("hu", None)),
        ("胡", ("hu", None)),
        ("自摸", ("hu", None)),
        ("pass", ("pass", None)),
        ("过", ("pass", None)),
        ("chi 345m", ("chi", 2)),
        ("吃 5 3 4m", ("chi", 2)),
        ("上 789s", ("chi", 24)),
        ("chow", ("chi", None)),
        ("pao 0", ("pao", 0)),
        ("下炮 4", ("pao", 4)),
        ("炮子 2个", ("pao", 2)),
        ("gang 5z", ("gang", 31)),
        ("5z", ("discard", 31)),
    ],
)
def test_actions_and_their_aliases(typed: str, parsed: tuple[str, int | None]) -> None:
    assert parse_action(typed) == parsed


@pytest.mark.parametrize(
    ("typed", "key"),
    [
        ("que x", "err.mj.que_suit"),
        ("hello", "err.mj.action"),
        ("打", "err.mj.action"),
        ("5q", "err.mj.tile_char"),
        ("chi 357m", "err.mj.chi_run"),
        ("吃 123z", "err.mj.chi_run"),
        ("chi 89m1p", "err.mj.chi_run"),
        ("pao 5", "err.mj.pao"),
        ("下炮 two", "err.mj.pao"),
    ],
)
def test_unreadable_actions(typed: str, key: str) -> None:
    with pytest.raises(NotationError) as info:
        parse_action(typed)
    assert info.value.text is not None and info.value.text.key == key


@pytest.mark.parametrize(
    "module",
    [engines.mahjong, tiles, shape, fan, notation, game, ai, shaanxi, wuhan, wild, yongzhou],
)
def test_docstring_examples(module: object) -> None:
    result = doctest.testmod(module, raise_on_error=False)  # type: ignore[arg-type]
    assert result.failed == 0
