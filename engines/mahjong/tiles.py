"""牌: mahjong tiles and their notation, ``123m456p789s1234567z``.

A tile is an ``int``: suit × 9 + rank − 1, suits ``m`` 万 (0–8), ``p`` 筒 (9–17), ``s`` 条
(18–26) and ``z`` honours (27–33: 东南西北中发白 as ``1z``–``7z``). 四川麻将 uses only the three
suits; honours are still read and written so the notation serves every mahjong game.

Digits are followed by their suit; a run of one suit shares the letter. Parsing forgives
spaces, commas and case, and reads the Chinese suit words (万, 筒/饼, 条/索, 字), numerals
(一 … 九) and the honours' names too: 东风/东 南风/南 西风/西 北风/北 红中/中 发财/发 白板/白
(Traditional 東 發 紅 as well), so 八万, 九筒, 三条 and 红中 are tiles. ``format_tiles`` sorts;
``format_run`` keeps the order.

>>> format_tiles(parse_tiles("9s 1m 5p 1m"))
'11m5p9s'
>>> parse_tiles("123m") == [0, 1, 2]
True
>>> tile_name(parse_tile("五万")), tile_name(parse_tile("7Z")), tile_name(parse_tile("红中"))
('5m', '7z', '5z')
>>> format_tiles(parse_tiles("东风 中发白 九筒"))
'9p1567z'
>>> format_run(parse_tiles("1m9m3z1m"))
'19m3z1m'
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from engines.base import T
from engines.errors import NotationError

SUITS = "mpsz"
"""Suit letters in tile order: 万 m, 筒 p, 条 s, honours z."""

NUM_KINDS = 34
SUITED = 27
"""Tiles 0–26 are the three suits 四川麻将 plays with."""

_SUIT_WORDS = {
    "m": 0,
    "万": 0,
    "萬": 0,
    "w": 0,
    "p": 1,
    "筒": 1,
    "饼": 1,
    "餅": 1,
    "b": 1,
    "s": 2,
    "条": 2,
    "條": 2,
    "索": 2,
    "t": 2,
    "z": 3,
    "字": 3,
}
_NUMERALS = {c: i + 1 for i, c in enumerate("一二三四五六七八九")}
HONOUR_NAMES: dict[str, int] = {
    word: 27 + i
    for i, words in enumerate(
        (
            ("东风", "東風", "东", "東"),
            ("南风", "南風", "南"),
            ("西风", "西風", "西"),
            ("北风", "北風", "北"),
            ("红中", "紅中", "中"),
            ("发财", "發財", "发", "發"),
            ("白板", "白"),
        )
    )
    for word in words
}
HONOUR_NAMES.update(
    {
        word: 27 + i
        for i, words in enumerate(
            (
                ("east wind", "east"),
                ("south wind", "south"),
                ("west wind", "west"),
                ("north wind", "north"),
                ("red dragon", "red"),
                ("green dragon", "green"),
                ("white dragon", "white"),
            )
        )
        for word in words
    }
)
"""The honours by name, ``1z``–``7z``: 东风 … 北风, 红中, 发财, 白板 and their short forms
(Traditional too), and in English East (wind) … White (dragon), any case."""
_HONOUR_WORDS = sorted(HONOUR_NAMES, key=len, reverse=True)
_SEPARATORS = set(" \t\n,;|/+、，；")


def tile_name(tile: int) -> str:
    """The notation of one tile: ``5m``."""
    return f"{tile % 9 + 1}{SUITS[tile // 9]}"


def suit_of(tile: int) -> int:
    """The suit index of ``tile``: 0 万, 1 筒, 2 条, 3 honours."""
    return tile // 9


def parse_tiles(text: str) -> list[int]:
    """Read tiles in notation, in the order written.

    Raises NotationError naming the bad character, a digit with no suit, a rank the suit
    does not have (``0m``, ``8z``) or empty input.

    >>> parse_tiles("5万 6饼")
    [4, 14]
    """
    out: list[int] = []
    pending: list[int] = []
    folded = text.lower()
    if len(folded) != len(text):  # (a rare letter whose lower case is longer: no names then)
        folded = text
    i = 0
    while i < len(text):
        ch = text[i]
        low = ch.lower()
        i += 1
        word = next((w for w in _HONOUR_WORDS if folded.startswith(w, i - 1)), None)
        if word is not None:
            if pending:
                raise NotationError(
                    text,
                    "the last ranks have no suit (m 万, p 筒, s 条)",
                    text=T("err.mj.tile_nosuit", typed=text),
                )
            out.append(HONOUR_NAMES[word])
            i += len(word) - 1
        elif ch in _SEPARATORS:
            continue
        elif ch.isdigit() and ch.isascii():
            pending.append(int(ch))
        elif ch in _NUMERALS:
            pending.append(_NUMERALS[ch])
        elif low in _SUIT_WORDS:
            suit = _SUIT_WORDS[low]
            if not pending:
                raise NotationError(
                    text,
                    f"{ch!r} has no ranks before it",
                    text=T("err.mj.tile_suit", typed=text, char=ch),
                )
            for rank in pending:
                if not 1 <= rank <= (7 if suit == 3 else 9):
                    name = f"{rank}{SUITS[suit]}"
                    raise NotationError(
                        text,
                        f"there is no tile {name}",
                        text=T("err.mj.tile_rank", typed=text, tile=name),
                    )
                out.append(suit * 9 + rank - 1)
            pending = []
        else:
            raise NotationError(
                text,
                f"{ch!r} is not part of a tile; write tiles like 123m 456p 789s",
                text=T("err.mj.tile_char", typed=text, char=ch),
            )
    if pending:
        raise NotationError(
            text,
            "the last ranks have no suit (m 万, p 筒, s 条)",
            text=T("err.mj.tile_nosuit", typed=text),
        )
    if not out:
        raise NotationError(text, "no tiles", text=T("err.mj.tile_empty", typed=text))
    return out


def parse_tile(text: str) -> int:
    """Read exactly one tile (``5m``); NotationError otherwise."""
    tiles = parse_tiles(text)
    if len(tiles) != 1:
        raise NotationError(
            text, "write exactly one tile, e.g. 5m", text=T("err.mj.one_tile", typed=text)
        )
    return tiles[0]


def parse_hand(text: str) -> list[int]:
    """Read tiles as counts per kind (34 entries); NotationError if a kind appears more
    than four times.

    >>> parse_hand("1112m")[:3]
    [3, 1, 0]
    """
    counts = [0] * NUM_KINDS
    for t in parse_tiles(text):
        counts[t] += 1
        if counts[t] > 4:
            raise NotationError(
                text,
                f"{tile_name(t)} appears more than four times",
                text=T("err.mj.tile_many", typed=text, tile=tile_name(t)),
            )
    return counts


def format_run(tiles: Iterable[int]) -> str:
    """Tiles in the given order, consecutive tiles of one suit sharing their letter."""
    out: list[str] = []
    suit = -1
    for t in tiles:
        s = t // 9
        if out and s != suit:
            out.append(SUITS[suit])
        out.append(str(t % 9 + 1))
        suit = s
    if out:
        out.append(SUITS[suit])
    return "".join(out)


def format_tiles(tiles: Iterable[int]) -> str:
    """Tiles sorted canonically (万, 筒, 条, honours; by rank): ``123m45p``."""
    return format_run(sorted(tiles))


def format_counts(counts: Sequence[int]) -> str:
    """A hand given as counts per kind, sorted: ``[2, 1, 0 …]`` → ``112m``."""
    return format_run(t for t, c in enumerate(counts) for _ in range(c))


def tiles_of(counts: Sequence[int]) -> list[int]:
    """The tiles of a counts vector, sorted."""
    return [t for t, c in enumerate(counts) for _ in range(c)]


def full_set() -> list[int]:
    """The 108 tiles of 四川麻将: four of every tile of the three suits, sorted."""
    return [t for t in range(SUITED) for _ in range(4)]
