"""规则: the two presets of the one Sichuan engine, built from a room's options.

- ``sichuan`` — 000 "QQ classic" 四川麻将: 番 table ``CLASSIC`` (2^(番−1), no cap), 基本分 6,
  直杠 1 from the discarder, 花猪 16×, the escape penalty; option ``blood`` turns on 000's 血战
  mode (the hand goes on after a win).
- ``xuezhan`` — 002 血战到底: 番 table ``BLOOD`` (2^番, capped at 3番), room score 1, 直杠 2
  from the discarder, 花猪 3番, 过手胡, 24 points at most from one payer to one payee, 托管 on
  escape.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engines.base import T
from engines.errors import OptionError
from engines.mahjong.fan import Table
from engines.mahjong.props import PROP_OPTIONS, check_prop_options

SICHUAN_OPTIONS: dict[str, Any] = {
    "base": 6, "blood": False, "cap": 0, "dingque": False, **PROP_OPTIONS
}
"""000: ``base`` 基本分 (points per 倍), ``blood`` 血战模式, ``cap`` most 番 counted (0 none),
``dingque`` 定缺 (the later client's custom: each seat names its void suit at the start; off:
the seeds' 缺一门, no third suit at the win); ``props`` and the props' prices
(``engines.mahjong.props``)."""

XUEZHAN_OPTIONS: dict[str, Any] = {
    "base": 1, "cap": 3, "pair_cap": 24, "dingque": False, **PROP_OPTIONS
}
"""002: ``base`` points per 倍 (the room score is the room coefficient), ``cap`` most 番
counted ("根据不同房间封顶番数不同", 3 by default), ``pair_cap`` most points one payer pays
one payee in a hand (24; 0 = none), ``dingque`` as for ``sichuan``."""

SICHUAN_KEYS = ("sichuan", "xuezhan")
"""The presets that require 缺一门 (a win of at most two suits)."""


@dataclass(frozen=True)
class Rules:
    """Everything in which the presets differ.

    ``huazhu``: 花猪's payment in 倍 to each non-花猪 seat; ``zhigang``, ``bugang``,
    ``angang``: kong money in 倍 (from the discarder / each other seat still in play);
    ``guoshou``: 过手胡 applies; ``escape_penalty``: 000's escape rule (else 托管 only);
    ``two_suits``: 缺一门 — a win, a ready hand and a seat that is no 花猪 hold at most two
    suits (000 "胡牌的时候不能有三种花色的牌", 002 "必須缺一門才可以胡牌"); ``dingque``: 定缺 —
    the void suit is chosen at the start instead, and its tiles may not be 碰/杠.
    """

    key: str
    table: Table
    base: int
    cap: int
    blood: bool
    pair_cap: int
    huazhu: int
    zhigang: int
    bugang: int
    angang: int
    guoshou: bool
    escape_penalty: bool
    two_suits: bool = False
    dingque: bool = False

    def multiple(self, fan: int) -> int:
        """倍数 of ``fan`` counted 番."""
        return 1 << (fan - 1 if self.table is Table.CLASSIC else fan)


def _flag(options: Mapping[str, Any], key: str) -> bool:
    value = options[key]
    if not isinstance(value, bool):
        raise OptionError(
            key,
            "expected true or false",
            text=T(
                "err.base.option_type",
                option=key,
                type=T("err.base.type.bool"),
                value=repr(value),
            ),
        )
    return value


def _whole(options: Mapping[str, Any], key: str, low: int) -> int:
    value = options[key]
    if not isinstance(value, int) or isinstance(value, bool) or value < low:
        raise OptionError(
            key,
            f"must be a whole number ≥ {low}",
            text=T("err.base.option_whole", option=key, min=low),
        )
    return value


def make_rules(key: str, options: Mapping[str, Any]) -> Rules:
    """The rules of preset ``key`` with a room's ``options``; OptionError names a bad one."""
    if key == "shaanxi":
        return shaanxi_rules(options)
    if key == "wuhan":
        return wuhan_rules(options)
    if key == "yongzhou":
        # checked by yongzhou.check_yongzhou; 永州 pays no kong money
        base = options.get("base", 1)
        return Rules(
            key,
            Table.CLASSIC,
            base if isinstance(base, int) else 1,
            0,
            False,
            0,
            huazhu=0,
            zhigang=0,
            bugang=0,
            angang=0,
            guoshou=False,
            escape_penalty=True,
        )
    if key == "sichuan":
        opts = {**SICHUAN_OPTIONS, **dict(options)}
        _known(opts, SICHUAN_OPTIONS)
        check_prop_options(opts)
        blood = _flag(opts, "blood")
        base = _whole(opts, "base", 1)
        return Rules(
            key,
            Table.CLASSIC,
            base,
            _whole(opts, "cap", 0),
            blood,
            0,
            huazhu=16,
            zhigang=1,
            bugang=1,
            angang=2,
            guoshou=False,
            escape_penalty=True,
            two_suits=True,
            dingque=_flag(opts, "dingque"),
        )
    opts = {**XUEZHAN_OPTIONS, **dict(options)}
    _known(opts, XUEZHAN_OPTIONS)
    check_prop_options(opts)
    return Rules(
        key,
        Table.BLOOD,
        _whole(opts, "base", 1),
        _whole(opts, "cap", 0),
        True,
        _whole(opts, "pair_cap", 0),
        huazhu=8,
        zhigang=2,
        bugang=1,
        angang=2,
        guoshou=True,
        escape_penalty=False,
        two_suits=key in SICHUAN_KEYS,
        dingque=_flag(opts, "dingque") and key in SICHUAN_KEYS,
    )


def _known(opts: Mapping[str, Any], defaults: Mapping[str, Any]) -> None:
    for k in opts:
        if k not in defaults:
            raise OptionError(
                k, "unknown option", text=T("err.base.option_unknown", option=k, game="mahjong")
            )


def max_loss_sichuan(options: Mapping[str, Any], seats: int) -> int | None:
    """000 sets no bound (番 and 根 have no cap; 花猪 16×)."""
    return None


def max_loss_xuezhan(options: Mapping[str, Any], seats: int) -> int | None:
    """002: at most ``pair_cap`` × base to each other seat."""
    rules = make_rules("xuezhan", options)
    if not rules.pair_cap:
        return None
    return rules.pair_cap * rules.base * (seats - 1)


SHAANXI_OPTIONS: dict[str, Any] = {"base": 3}
"""000 陕西麻将: ``base`` 底分 ("一个固定的分数3分")."""

HUANGZHUANG_STACKS = (13, 7, 8, 13)
"""陕西麻将 荒庄: the 墩 left in the wall when the hand is drawn, by the number of kongs made
(0, 1, 2, 3 or more), exactly as the seed gives them (GAMES.md §9.2 flags the order)."""


def shaanxi_rules(options: Mapping[str, Any]) -> Rules:
    """陕西麻将's kong money in 底分: 暗杠 2 from each other seat, 放杠 2 from the discarder,
    明杠 (补杠) 1 from each other seat."""
    opts = {**SHAANXI_OPTIONS, **dict(options)}
    _known(opts, SHAANXI_OPTIONS)
    return Rules(
        "shaanxi",
        Table.CLASSIC,
        _whole(opts, "base", 1),
        0,
        False,
        0,
        huazhu=0,
        zhigang=2,
        bugang=1,
        angang=2,
        guoshou=False,
        escape_penalty=True,
    )


def max_loss_shaanxi(options: Mapping[str, Any], seats: int) -> int | None:
    """The most one seat can lose in a hand, in points: a 自摸 against it as dealer (2 × 2),
    炮子 at 4 each way on a 自摸 ((4 + 4) × 2), and the kong money of the other three's at
    most four kongs each (2 a kong) — more than the escape penalty (8 + 4 × 3 + 12)."""
    base = shaanxi_rules(options).base
    return base * (2 * 2 + (4 + 4) * 2 + (seats - 1) * 4 * 2)


WUHAN_OPTIONS: dict[str, Any] = {"koukou": False, **PROP_OPTIONS}
"""000 武汉麻将: ``koukou`` 口口翻 (×2 for every opening, 金顶 and escape 500)."""


def wuhan_rules(options: Mapping[str, Any]) -> Rules:
    """武汉麻将 pays no kong money (kongs are factors at the win); points are the seed's
    (小胡 base 1, 大胡 10)."""
    opts = {**WUHAN_OPTIONS, **dict(options)}
    _known(opts, WUHAN_OPTIONS)
    check_prop_options(opts)
    if not isinstance(opts["koukou"], bool):
        raise OptionError(
            "koukou",
            "expected true or false",
            text=T(
                "err.base.option_type",
                option="koukou",
                type=T("err.base.type.bool"),
                value=repr(opts["koukou"]),
            ),
        )
    return Rules(
        "wuhan",
        Table.CLASSIC,
        1,
        0,
        False,
        0,
        huazhu=0,
        zhigang=0,
        bugang=0,
        angang=0,
        guoshou=False,
        escape_penalty=True,
    )


def max_loss_wuhan(options: Mapping[str, Any], seats: int) -> int | None:
    """承包 pays all three losers' shares: three 金顶 (400, 口口翻 500) at most."""
    koukou = wuhan_rules(options) and bool({**WUHAN_OPTIONS, **dict(options)}["koukou"])
    return (seats - 1) * (500 if koukou else 400)
