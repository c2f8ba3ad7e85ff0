"""道具: the six props of 四川麻将 and 武汉麻将 (GAMES.md §1.8), bought with beans.

A room turns them on with ``props = true``; each prop's price in beans is a room option
(``price_<prop>``, 0 = not on sale). A purchase is refused in a score-only room, when the
price is more than the seat's stake allows (``Setup.stakes[seat]`` × N minus what it spent
this hand) and outside the prop's moment; a refusal changes nothing. What each seat spent is
``Outcome.fees`` (a bean sink, settled with the rake). Every random effect draws from the
hand's own props generator (seeded from the hand's seed) in log order, so a replay
reproduces it. Rules and decisions: docs/games/mahjong.md.

Notation (canonical first; the Chinese names and short forms are aliases)::

    prop qiankun            乾坤大挪移 — before you play: a new hand close to 清一色
    prop toutian 5m 3p      偷天换日 — your turn: give 5m, take a 3p from the wall
    prop yihua 5m           移花接木 — your turn: give 5m, take a random wall tile
    prop qianliyan 7s       千里眼 — your turn: which quarter of the wall holds the next 7s
    prop shunfeng           顺风耳 — your turn: the next wall tile
    prop jinshouzhi         金手指 — the golden-finger discard marker for the hand

>>> parse_prop("道具 偷天换日 5万 3筒"), parse_prop("顺风耳"), parse_prop("5m")
(('toutian', (4, 11)), ('shunfeng', ()), None)
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from engines.base import T, Text
from engines.errors import NotationError, OptionError
from engines.mahjong.tiles import parse_tiles

PROPS: tuple[str, ...] = ("qiankun", "toutian", "yihua", "qianliyan", "shunfeng", "jinshouzhi")
"""The six props, in the order the hall lists them."""

PROP_OPTIONS: dict[str, Any] = {
    "props": False,
    "price_qiankun": 2000,
    "price_toutian": 1000,
    "price_yihua": 300,
    "price_qianliyan": 200,
    "price_shunfeng": 500,
    "price_jinshouzhi": 100,
}
"""Room options of the games that sell props: off by default; prices in beans."""

ARGS: dict[str, int] = {
    "qiankun": 0, "toutian": 2, "yihua": 1, "qianliyan": 1, "shunfeng": 0, "jinshouzhi": 0,
}
"""How many tiles each prop's action names."""

_ALIASES: dict[str, str] = {
    "qiankun": "qiankun", "乾坤大挪移": "qiankun", "乾坤": "qiankun", "大挪移": "qiankun",
    "toutian": "toutian", "偷天换日": "toutian", "偷天": "toutian",
    "yihua": "yihua", "移花接木": "yihua", "移花": "yihua",
    "qianliyan": "qianliyan", "千里眼": "qianliyan",
    "shunfeng": "shunfeng", "顺风耳": "shunfeng",
    "jinshouzhi": "jinshouzhi", "金手指": "jinshouzhi",
}
_PREFIX = ("prop", "道具", "item")


def parse_prop(text: str) -> tuple[str, tuple[int, ...]] | None:
    """(prop, tiles) of a typed prop action, or None when ``text`` is no prop action.

    Raises NotationError when it names a prop with the wrong tiles or an unknown prop.
    """
    words = text.strip().lower().split()
    prefixed = bool(words) and words[0] in _PREFIX
    if prefixed:
        words = words[1:]
    if not words or words[0] not in _ALIASES:
        if prefixed:
            raise NotationError(
                text, "no such prop", text=T("err.mj.prop_unknown", typed=text.strip())
            )
        return None
    prop = _ALIASES[words[0]]
    rest = "".join(words[1:])
    tiles = tuple(parse_tiles(rest)) if rest else ()
    if len(tiles) != ARGS[prop]:
        raise NotationError(
            text,
            f"write it as: {usage(prop)}",
            text=T("err.mj.prop_args", prop=T(f"mj.prop.{prop}"), usage=usage(prop)),
        )
    return prop, tiles


def usage(prop: str) -> str:
    """An example of the prop's action in notation."""
    return {"toutian": "prop toutian 5m 3p", "yihua": "prop yihua 5m",
            "qianliyan": "prop qianliyan 7s"}.get(prop, f"prop {prop}")


def check_prop_options(options: Mapping[str, Any]) -> None:
    """OptionError unless ``props`` is true/false and every price a whole number ≥ 0."""
    on = options.get("props", False)
    if not isinstance(on, bool):
        raise OptionError(
            "props",
            "expected true or false",
            text=T("err.base.option_type", option="props", type=T("err.base.type.bool"),
                   value=repr(on)),
        )
    for prop in PROPS:
        key = f"price_{prop}"
        value = options.get(key, PROP_OPTIONS[key])
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise OptionError(
                key, "must be a whole number ≥ 0", text=T("err.base.option_whole", option=key, min=0)
            )


@dataclass
class Shop:
    """The props of one hand: prices, what each seat spent and bought, its private notes."""

    seats: int
    prices: dict[str, int]
    rng: random.Random
    spent: list[int] = field(default_factory=list)
    bought: list[tuple[int, str, int]] = field(default_factory=list)
    notes: list[list[Text]] = field(default_factory=list)
    turns: list[int] = field(default_factory=list)
    used: set[tuple[int, str, int]] = field(default_factory=set)
    gold: set[int] = field(default_factory=set)

    @classmethod
    def open(cls, options: Mapping[str, Any], seats: int, seed: int) -> Shop | None:
        """The hand's shop when the room sells props, else None."""
        if options.get("props") is not True:
            return None
        prices = {p: int(options.get(f"price_{p}", PROP_OPTIONS[f"price_{p}"])) for p in PROPS}
        return cls(
            seats,
            prices,
            random.Random(f"mahjong-props:{seed}"),
            [0] * seats,
            [],
            [[] for _ in range(seats)],
            [0] * seats,
        )

    def once(self, seat: int, prop: str) -> tuple[int, str, int]:
        """The key that limits a prop to once a turn (乾坤大挪移 and 金手指: once a hand)."""
        turn = -1 if prop in ("qiankun", "jinshouzhi") else self.turns[seat]
        return seat, prop, turn

    def buy(self, seat: int, prop: str) -> None:
        price = self.prices[prop]
        self.spent[seat] += price
        self.bought.append((seat, prop, price))
        self.used.add(self.once(seat, prop))

    def note(self, seat: int, text: Text) -> None:
        """A private line for the buyer (the last few are kept on show)."""
        self.notes[seat] = [*self.notes[seat][-3:], text]
