"""记法: the actions of a mahjong hand, typed and canonical.

Canonical forms (what ``apply`` returns and the log holds):

- ``que m`` / ``que p`` / ``que s`` — 定缺, the suit this seat will be void in;
- ``5m`` — discard (打) that tile;
- ``peng`` — 碰 the discard; ``gang 5m`` — 杠 (明杠 on a discard, 暗杠 or 补杠 on your turn);
- ``chi 345m`` — 吃 (上) the discard of the seat before into that run;
- ``hu`` — 胡 (on a discard, robbing a kong, or 自摸); ``pass`` — 过;
- ``pao 2`` — 陕西麻将's 下炮子: stake 0–4 炮子 before the dealer's first discard.

Typed aliases: 缺万 / 缺m / dingque 筒; 打5m / discard 5m / 五万; 碰 / pong; 杠 / kong (the tile
may be left out when only one kong is possible); 胡 / 和 / 自摸 / win / zimo; 过 / guo / skip;
炮子 2 / 下炮 2 / paozi 2; 吃 345m / 上 345m / chow 345m (the run may be left out when only
one 吃 is possible).

>>> parse_action("缺万"), parse_action(" 打 5万"), parse_action("Kong 7s"), parse_action("过")
(('que', 0), ('discard', 4), ('gang', 24), ('pass', None))
>>> parse_action("下炮 3"), parse_action("pao 0")
(('pao', 3), ('pao', 0))
>>> parse_action("吃 5 3 4m"), parse_action("chi")
(('chi', 2), ('chi', None))
"""

from __future__ import annotations


from engines.base import T
from engines.errors import NotationError
from engines.mahjong.tiles import SUITS, format_run, parse_tile, parse_tiles
from engines.memo import memoized

_HU = {"hu", "胡", "和", "胡牌", "win", "zimo", "自摸", "ron", "tsumo"}
_PASS = {"pass", "过", "guo", "skip", "不要", "过牌"}
_PENG = {"peng", "碰", "pong"}
_GANG = ("gang", "kong", "杠")
_QUE = ("dingque", "定缺", "que", "缺")
_DISCARD = ("discard", "打", "出")
_CHI = ("chi", "chow", "吃", "上")
_PAO = ("paozi", "pao", "下炮子", "下炮", "炮子", "炮")
PAO_MAX = 4
"""陕西麻将: "炮子最多能下4个，最少可以为零"."""
_SUIT_NAMES = {"m": 0, "万": 0, "萬": 0, "p": 1, "筒": 1, "饼": 1, "s": 2, "条": 2, "索": 2}


@memoized(4096)
def parse_action(text: str) -> tuple[str, int | None]:
    """(kind, value) of a typed action: kinds ``que`` (value: suit 0–2), ``discard`` and
    ``gang`` (value: tile, or None for a bare 杠), ``pao`` (value: 炮子 0–4), ``chi``
    (value: the run's lowest tile, or None), ``peng``, ``hu``, ``pass``.

    Raises NotationError when the text is no action or names no valid tile or suit. A pure
    function of the text with an immutable answer, read after every action of every table
    and for every listed one: the last few thousand texts' answers are kept (an error is
    raised afresh each time).
    """
    low = " ".join(text.strip().lower().split())
    if low in _HU:
        return "hu", None
    if low in _PASS:
        return "pass", None
    if low in _PENG:
        return "peng", None
    for word in _GANG:
        if low.startswith(word):
            rest = low[len(word) :].strip()
            return "gang", (parse_tile(rest) if rest else None)
    for word in _CHI:
        if low.startswith(word):
            rest = low[len(word) :].strip()
            if not rest:
                return "chi", None
            run = sorted(parse_tiles(rest))
            if (
                len(run) != 3
                or run[0] >= 27
                or run != [run[0], run[0] + 1, run[0] + 2]
                or (run[0] % 9 > 6)
            ):
                raise NotationError(
                    text,
                    "吃 makes a run of three tiles of one suit, e.g. chi 345m",
                    text=T("err.mj.chi_run", typed=text),
                )
            return "chi", run[0]
    for word in _PAO:
        if low.startswith(word):
            rest = low[len(word) :].strip().rstrip("个")
            if rest.isdigit() and rest.isascii() and int(rest) <= PAO_MAX:
                return "pao", int(rest)
            raise NotationError(
                text,
                f"stake a whole number of 炮子 from 0 to {PAO_MAX}, e.g. pao 2",
                text=T("err.mj.pao", typed=text, max=PAO_MAX),
            )
    for word in _QUE:
        if low.startswith(word):
            rest = low[len(word) :].strip()
            if rest in _SUIT_NAMES:
                return "que", _SUIT_NAMES[rest]
            raise NotationError(
                text,
                "name the suit to be void in: m (万), p (筒) or s (条)",
                text=T("err.mj.que_suit", typed=text),
            )
    for word in _DISCARD:
        if low.startswith(word):
            low = low[len(word) :].strip()
            break
    if not low:
        raise NotationError(text, "no action", text=T("err.mj.action", typed=text))
    try:
        return "discard", parse_tile(low)
    except NotationError as exc:
        if any(ch.isdigit() or ch in "一二三四五六七八九" for ch in low):
            raise
        raise NotationError(
            text,
            "not an action: a tile to discard (5m), peng, gang, hu, pass or que m/p/s",
            text=T("err.mj.action", typed=text),
        ) from exc


def chi_action(start: int) -> str:
    """The canonical 吃 action for the run starting at ``start``: ``chi 345m``."""
    return "chi " + format_run((start, start + 1, start + 2))


def que_action(suit: int) -> str:
    """The canonical 定缺 action for ``suit``: ``que m``."""
    return f"que {SUITS[suit]}"
