"""规则配置: one frozen value describing a 斗地主 rule set.

Every variant is this configuration plus, where needed, a small extension: the classic
叫分 game and the happy 叫/抢地主 game differ only in ``bidding``, ``mingpai``, ``doubling``
and the 底分; 二人斗地主 is the happy rules with ``seats=2, removed=11, hand_size=20``; 麻辣 would set
``PatternRules(pair_kickers=False, paired_singles=False)``; 火拼 is the happy rules without 加倍 and with 底分 1.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from engines.base import T, option_type_error
from engines.doudizhu.counter import MODES as COUNTER_MODES
from engines.doudizhu.patterns import CLASSIC, PatternRules
from engines.errors import OptionError


class Bidding(Enum):
    """How the landlord is chosen."""

    SCORE = "score"
    """叫分: one bid each of 1/2/3 or 不叫, higher than the last; 3 ends it (000/001/002)."""
    CALL = "call"
    """叫/抢地主: the first 叫地主 ends the calling, then one 抢地主 chance each (003/004)."""
    BLIND = "blind"
    """麻辣: the 明牌 card's holder 闷抓 (landlord unseen) or 看牌, then 叫地主 (001 麻辣)."""


@dataclass(frozen=True)
class Rules:
    """A complete rule set. ``base`` is 底分 (classic: the room base, times the bid).

    ``multiplier``: the initial 倍数. ``doubling``: a 加倍/不加倍 step. ``double_threshold``:
    points a seat's stake must exceed to double (0: anyone may). ``mingpai``: the 明牌
    steps. ``max_deals``: deals with no landlord before the hand is void (流局); 0: redeal
    until someone becomes landlord (003 "直到有人叫地主为止").
    ``escape_factor``/``escape_early``: the escape penalty 底分×倍数×factor, or the flat
    ``escape_early`` before anyone has bid (none at all when ``escape_penalty`` is False). ``spring``: factor for 春天 and 反春.
    """

    bidding: Bidding
    seats: int = 3
    hand_size: int = 17
    kitty: int = 3
    removed: int = 0
    patterns: PatternRules = field(default=CLASSIC)
    base: int = 1
    multiplier: int = 1
    doubling: bool = False
    double_threshold: int = 0
    mingpai: bool = False
    max_deals: int = 3
    escape_factor: int = 3
    escape_early: int = 3
    escape_penalty: bool = True
    """False: an escape is 托管 to the end of the hand and nothing more (002 "玩家逃跑后系統
    自動托管直至此局游戲結束", no penalty stated): the seat settles as the hand ends."""
    spring: int = 2
    half: int = 9
    """发牌明牌: cards of each hand dealt when the ×4 window closes (the rest give ×3)."""
    deal_show: bool = False
    """发牌明牌 ×4 (004 五.3) is offered from the deal until the calling's first answer, and
    the first seat to show then calls first (004 三.2); with it off (欢乐, 火拼, 癞子) only ×3."""
    decks: int = 1
    """Decks shuffled together (四人斗地主: 2, so up to 8 of a rank and 2 of each joker)."""
    pairwise: bool = False
    """Settle every hand as landlord–farmer transfers, so the host caps each pair (001 火拼's
    "只扣到0为止" and the winner's cap, GAMES.md §1.3)."""
    golden_eye: int = 0
    """黄金眼: peeks at two kitty cards a seat may take while the landlord is chosen (火拼)."""
    counter: str = "auto"
    """记牌器 in each seat's own view: ``engines.doudizhu.counter.MODES``."""


CLASSIC_OPTIONS: dict[str, Any] = {
    "doubling": False, "base": 1, "max_deals": 3, "counter": "auto",
}
HAPPY_OPTIONS: dict[str, Any] = {
    "base": 4,
    "multiplier": 1,
    "doubling": True,
    "double_threshold": 0,
    "mingpai": True,
    "counter": "auto",
}

_MINIMUM = {"base": 1, "multiplier": 1, "double_threshold": 0, "max_deals": 1}
_MAXIMUM = {
    "base": 1_000_000,
    "multiplier": 1_000_000,
    "double_threshold": 10**12,
    "max_deals": 100,
}
"""Bounds beyond which a room option cannot be played (points overflow what settlement holds)."""


def merge_options(defaults: Mapping[str, Any], options: Mapping[str, Any]) -> dict[str, Any]:
    """Room options over the defaults; OptionError for an unknown key, type or range."""
    merged = dict(defaults)
    for key, value in options.items():
        if key not in defaults:
            raise OptionError(
                key,
                "unknown option for 斗地主",
                text=T("err.base.option_unknown", option=key, game=T("ddz.name")),
            )
        default = defaults[key]
        if isinstance(default, bool) != isinstance(value, bool) or not isinstance(
            value, type(default)
        ):
            raise option_type_error(key, default, value)
        if key in _MINIMUM and value < _MINIMUM[key]:
            raise OptionError(
                key,
                f"must be at least {_MINIMUM[key]}",
                text=T("err.base.option_min", option=key, min=_MINIMUM[key]),
            )
        if key in _MAXIMUM and value > _MAXIMUM[key]:
            raise OptionError(
                key,
                f"must be at most {_MAXIMUM[key]}",
                text=T("err.ddz.option_max", option=key, max=_MAXIMUM[key]),
            )
        if key == "counter" and value not in COUNTER_MODES:
            raise OptionError(
                key,
                f"must be one of {', '.join(COUNTER_MODES)}",
                text=T("err.ddz.option_counter", value=value),
            )
        merged[key] = value
    return merged


def classic_rules(options: Mapping[str, Any]) -> Rules:
    """斗地主 (000/001) and 三人斗地主 with 加倍 (002, ``doubling``): 002's escape is 托管 to
    the end of the hand with no penalty (000/001: 底分×倍数×3)."""
    o = merge_options(CLASSIC_OPTIONS, options)
    return Rules(
        bidding=Bidding.SCORE,
        base=o["base"],
        doubling=o["doubling"],
        escape_penalty=not o["doubling"],
        max_deals=o["max_deals"],
        counter=o["counter"],
    )


def two_player_rules(options: Mapping[str, Any]) -> Rules:
    """二人斗地主 / 面对面 for two (004 一): 11 cards removed unseen, 20 each, kitty 3, the happy
    叫/抢/明牌/加倍 steps, 底分 4, role factor 1 (the one pair settles 底分×倍数)."""
    o = merge_options(HAPPY_OPTIONS, options)
    return Rules(
        bidding=Bidding.CALL,
        seats=2,
        hand_size=20,
        removed=11,
        half=10,
        deal_show=True,
        base=o["base"],
        multiplier=o["multiplier"],
        doubling=o["doubling"],
        double_threshold=o["double_threshold"],
        mingpai=o["mingpai"],
        max_deals=0,
        counter=o["counter"],
    )


HOT_OPTIONS: dict[str, Any] = {
    "base": 1, "multiplier": 1, "mingpai": True, "golden_eye": True, "counter": "auto",
}


def hot_rules(options: Mapping[str, Any]) -> Rules:
    """火拼斗地主 (001): the 叫/抢地主 and 明牌 steps, no 加倍, 底分 1 ("叫地主的分数为 1 分"),
    role factor 2, settled per pair with F1's caps; 黄金眼 (two peeks) as a room option."""
    o = merge_options(HOT_OPTIONS, options)
    return Rules(
        bidding=Bidding.CALL,
        base=o["base"],
        multiplier=o["multiplier"],
        mingpai=o["mingpai"],
        max_deals=0,
        pairwise=True,
        golden_eye=2 if o["golden_eye"] else 0,
        counter=o["counter"],
    )


FOUR_OPTIONS: dict[str, Any] = {"base": 1, "max_deals": 3, "counter": "auto"}


def four_rules(options: Mapping[str, Any]) -> Rules:
    """四人斗地主 (001): two decks, 25 each, kitty 8, 叫分 1/2/3, three deals with no landlord
    dissolve the game; its patterns are ``engines.doudizhu.four``'s."""
    o = merge_options(FOUR_OPTIONS, options)
    return Rules(
        bidding=Bidding.SCORE,
        seats=4,
        hand_size=25,
        kitty=8,
        decks=2,
        base=o["base"],
        max_deals=o["max_deals"],
        counter=o["counter"],
    )


MALA_OPTIONS: dict[str, Any] = {"base": 1, "multiplier": 1, "counter": "auto"}


def mala_rules(options: Mapping[str, Any]) -> Rules:
    """麻辣斗地主 (001): 闷抓/看牌 then 叫地主, 倒拉垒沃 per pair, attachments singles only."""
    o = merge_options(MALA_OPTIONS, options)
    return Rules(
        bidding=Bidding.BLIND,
        # "均只能带单张，不能带对子": no pair attached, and no two attached singles of one rank
        patterns=PatternRules(pair_kickers=False, paired_singles=False),
        base=o["base"],
        multiplier=o["multiplier"],
        max_deals=0,
        counter=o["counter"],
    )


def happy_rules(options: Mapping[str, Any]) -> Rules:
    """欢乐斗地主 (003, scored by 004)."""
    o = merge_options(HAPPY_OPTIONS, options)
    return Rules(
        bidding=Bidding.CALL,
        base=o["base"],
        multiplier=o["multiplier"],
        doubling=o["doubling"],
        double_threshold=o["double_threshold"],
        mingpai=o["mingpai"],
        max_deals=0,
        counter=o["counter"],
    )
