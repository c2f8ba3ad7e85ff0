"""番: every hand example of 000 §9.1 with its patterns, and the 002 (血战) table's items."""

from __future__ import annotations

import pytest

from engines.mahjong import Meld, MeldKind, Situation, Table, best_ready, evaluate, parse_hand
from engines.mahjong.tiles import parse_tile

# 000 "四川麻将规则的番种", each example hand as printed (筒 p, 条 s, 万 m; "铜" read as 筒).
CLASSIC_EXAMPLES = [
    ("23445677p345789s", "pinghu", 1),
    ("111222444m33399p", "duidui", 2),
    ("11333222456999s", "qingyise", 3),
    ("111222333m78999p", "daiyaojiu", 3),
    # Printed as the 七对 example, but it holds four 2万: by 000's own definition that is
    # 龙七对 (5番, the four 2万 being its 龙, so no 根). Flagged in docs/games/mahjong.md.
    ("2244552299m1199p", "longqidui", 5),
    # Printed as 清对 (清一色 对对胡), but it is seven pairs of one suit: 清七对 (GAMES.md FLAG).
    ("99887755221166p", "qingqidui", 5),
    ("222555888s88855m", "jiangdui", 4),
    ("11222244p557799m", "longqidui", 5),
    ("11334466778899s", "qingqidui", 5),
    ("11123777888999p", "qingyaojiu", 5),
    ("11224444557799m", "qinglongqidui", 6),
]


@pytest.mark.parametrize(("hand", "pattern", "fan"), CLASSIC_EXAMPLES)
def test_every_000_example_scores_its_largest_pattern_only(
    hand: str, pattern: str, fan: int
) -> None:
    result = evaluate(Table.CLASSIC, parse_hand(hand), ())
    assert result is not None
    assert result.items == ((pattern, fan),)
    assert result.fan == fan and result.multiple == 2 ** (fan - 1)


def test_a_real_qingdui_and_a_real_qidui() -> None:
    qingdui = evaluate(Table.CLASSIC, parse_hand("11122233344499p"), ())
    assert qingdui is not None and qingdui.items == (("qingdui", 4),)
    qidui = evaluate(Table.CLASSIC, parse_hand("2244556699m1133p"), ())
    assert qidui is not None and qidui.items == (("qidui", 3),) and qidui.multiple == 4


def test_classic_roots_are_unkonged_fours_and_the_extras_add() -> None:
    # Four 1万 held, not konged → 根; the kong of 9筒 is no 根 in 000.
    hand = parse_hand("11112344m567p")
    kong = Meld(MeldKind.ANGANG, parse_tile("9p"))
    result = evaluate(Table.CLASSIC, hand, (kong,), Situation(self_draw=True, kong_draw=True))
    assert result is not None
    assert result.items == (("pinghu", 1), ("gen", 1), ("gangshanghua", 1))
    assert result.fan == 3 and result.multiple == 4
    pao = evaluate(Table.CLASSIC, parse_hand("11224444557799m"), (), Situation(kong_discard=True))
    assert pao is not None and pao.items == (("qinglongqidui", 6), ("gangshangpao", 1))


def test_heaven_and_earth_are_six_fan_in_000_and_plus_four_in_002() -> None:
    hand = parse_hand("23445677p345789s")
    heaven = evaluate(Table.CLASSIC, hand, (), Situation(self_draw=True, heaven=True))
    assert heaven is not None and heaven.items == (("tianhu", 6),) and heaven.multiple == 32
    earth = evaluate(Table.BLOOD, hand, (), Situation(earth=True), cap=0)
    assert earth is not None and earth.items == (("sufan", 0), ("dihu", 4)) and earth.fan == 4
    capped = evaluate(Table.BLOOD, hand, (), Situation(earth=True), cap=3)
    assert capped is not None and capped.raw == 4 and capped.fan == 3 and capped.multiple == 8


@pytest.mark.parametrize(
    ("hand", "melds", "items"),
    [
        ("23445677p345789s", "", (("sufan", 0),)),
        ("111222444m33399p", "", (("duidui", 1),)),
        ("11333222456999s", "", (("qingyise", 2),)),
        ("2244556699m1133p", "", (("anqidui", 2),)),
        ("111222333m78999p", "", (("quandaiyao", 2),)),
        ("11122233344499p", "", (("qingdui", 3),)),
        ("11334466778899s", "", (("qingqidui", 3),)),
        ("11222244p557799m", "", (("longqidui", 3),)),
        # 清一色 + 全带幺 add up in 002 (no 清幺九 there): 4番, counted as the cap 3.
        ("11123777888999p", "", (("qingyise", 2), ("quandaiyao", 2))),
        # A 碰 of 5筒 and the fourth 5筒 in hand: a four of a kind, 根.
        ("456p111333s99s", "5p", (("sufan", 0), ("gen", 1))),
    ],
)
def test_blood_items_add_up(hand: str, melds: str, items: tuple[tuple[str, int], ...]) -> None:
    ms = tuple(Meld(MeldKind.PENG, parse_tile(t)) for t in melds.split() if t)
    result = evaluate(Table.BLOOD, parse_hand(hand), ms, cap=3)
    assert result is not None and result.items == items
    total = sum(f for _, f in items)
    assert result.raw == total and result.fan == min(total, 3)
    assert result.multiple == 2 ** min(total, 3)


def test_blood_counts_konged_fours_as_roots_and_robbing_adds_one() -> None:
    kong = Meld(MeldKind.ZHIGANG, parse_tile("9p"))
    result = evaluate(
        Table.BLOOD,
        parse_hand("123m456m55m"),
        (kong, Meld(MeldKind.PENG, 13)),
        Situation(robbed=True),
        cap=0,
    )
    assert result is not None
    assert result.items == (("sufan", 0), ("gen", 1), ("qianggang", 1))


def test_no_win_is_none() -> None:
    assert evaluate(Table.CLASSIC, parse_hand("12345678m12345p"), ()) is None
    assert evaluate(Table.BLOOD, parse_hand("1133557799m1357p"), ()) is None


def test_check_the_biggest_possible_fan_of_a_ready_hand() -> None:
    # 1112345678999m waits on every 万; a 1万 or 9万 adds a four of a kind (根) to 清一色.
    ready = best_ready(Table.CLASSIC, parse_hand("1112345678999m"), (), (0, 1))
    assert ready is not None
    assert ready.items == (("qingyise", 3), ("gen", 1)) and ready.fan == 4
    # Waits 6条 (对对胡) or 5条 (平胡): 查大叫 takes 对对胡.
    two = best_ready(Table.CLASSIC, parse_hand("555p777p888p4446s"), (), (1, 2))
    assert two is not None and two.items == (("duidui", 2),)
    assert best_ready(Table.CLASSIC, parse_hand("1357m2468p1357s9s"), (), (0, 1)) is None
