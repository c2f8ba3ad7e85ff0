"""字牌: the 82 tiles of 王炸跑胡子 and their notation in both scripts and in ASCII.

Tile ids: 0–9 are the small tiles 一…十 (小字), 10–19 the big tiles 壹…拾 (大字), 20 is the
王霸 wild. Three ways to write a tile, all read back by ``parse_tiles``:

- ASCII for typing (canonical): ``x1`` … ``x10`` small, ``d1`` … ``d10`` big, ``W`` 王霸;
- Chinese, one character a tile: 一 … 十 small, 壹 … 拾 big, 王 the wild;
- forgiving aliases: ``X3``, ``s3`` / ``b3``, ``小3`` / ``大8``, ``小六`` / ``大捌``, ``小一`` = 一,
  ``大一`` = 壹, 貳 / 參 / 陸 / 参 (traditional and common forms), ``王霸``, ``w``, ``wang``;
  spaces, commas and 、 between tiles are ignored.

>>> parse_tiles("x1 x10 d3 W")
[0, 9, 12, 20]
>>> format_zh(parse_tiles("小6 大捌 王")), format_tiles(parse_tiles("六捌王"))
('六捌王', 'x6 d8 W')
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from engines.base import T
from engines.errors import NotationError

SMALL_ZH = "一二三四五六七八九十"
BIG_ZH = "壹贰叁肆伍陆柒捌玖拾"
WILD = 20
KINDS = 21
"""Number of tile kinds (20 word tiles and the 王霸)."""
WORD_KINDS = 20
RED = frozenset({1, 6, 9, 11, 16, 19})
"""红字: 二七十 and 贰柒拾 (the seed names 红胡 but not the red tiles; docs/games/paohuzi.md)."""

_CHAR: dict[str, int] = {c: i for i, c in enumerate(SMALL_ZH)}
_CHAR.update({c: 10 + i for i, c in enumerate(BIG_ZH)})
_CHAR.update({"貳": 11, "參": 12, "参": 12, "陸": 15, "两": 1})
_WILD_WORDS = ("王霸", "wang", "王", "w")
_TOKEN = re.compile(r"([xsdb小大])\s*(10|[1-9]|[一二三四五六七八九十壹贰叁肆伍陆柒捌玖拾貳參参陸])")


def full_set() -> list[int]:
    """The 82 tiles, sorted: four of each word tile and two 王霸."""
    return [t for t in range(WORD_KINDS) for _ in range(4)] + [WILD, WILD]


def is_big(tile: int) -> bool:
    return 10 <= tile < WORD_KINDS


def rank(tile: int) -> int:
    """The tile's number 1–10 (0 for the 王霸)."""
    return 0 if tile == WILD else tile % 10 + 1


def tile_name(tile: int) -> str:
    """The ASCII name: ``x3``, ``d10``, ``W``.

    >>> tile_name(0), tile_name(19), tile_name(20)
    ('x1', 'd10', 'W')
    """
    if tile == WILD:
        return "W"
    return f"{'d' if is_big(tile) else 'x'}{rank(tile)}"


def tile_zh(tile: int) -> str:
    """The Chinese character: 一…十 small, 壹…拾 big, 王 the 王霸."""
    if tile == WILD:
        return "王"
    return (BIG_ZH if is_big(tile) else SMALL_ZH)[tile % 10]


def next_tile(tile: int) -> int:
    """省: the tile after ``tile`` in its own script, 十 wrapping to 一 (小6 → 小7, 大捌 → 大玖).

    >>> tile_zh(next_tile(parse_tile("x6"))), tile_zh(next_tile(parse_tile("大捌")))
    ('七', '玖')
    """
    return tile - tile % 10 + (tile % 10 + 1) % 10


def _bad(typed: str, reason: str) -> NotationError:
    return NotationError(typed, reason, text=T("err.phz.tile", typed=typed))


def parse_tiles(text: str) -> list[int]:
    """Tiles in any of the three writings (module doc), in the order written.

    Raises NotationError naming the text when something in it is no tile.
    """
    rest = text.strip()
    out: list[int] = []
    i = 0
    while i < len(rest):
        ch = rest[i]
        if ch in " ,，、;+":
            i += 1
            continue
        low = rest[i:].lower()
        wild = next((w for w in _WILD_WORDS if low.startswith(w)), None)
        if wild is not None:
            out.append(WILD)
            i += len(wild)
            continue
        m = _TOKEN.match(low)
        if m:
            big = m.group(1) in "db大"
            value = m.group(2)
            number = int(value) if value.isdigit() else _CHAR[value] % 10 + 1
            out.append((10 if big else 0) + number - 1)
            i += m.end()
            continue
        if ch in _CHAR:
            out.append(_CHAR[ch])
            i += 1
            continue
        raise _bad(text, f"{rest[i : i + 4]!r} is no tile (x1…x10 small, d1…d10 big, W 王霸)")
    return out


def parse_tile(text: str) -> int:
    """Exactly one tile; NotationError otherwise."""
    tiles = parse_tiles(text)
    if len(tiles) != 1:
        raise NotationError(text, "expected one tile", text=T("err.phz.one_tile", typed=text))
    return tiles[0]


def format_tiles(tiles: Iterable[int]) -> str:
    """Canonical ASCII, sorted, space separated: ``x1 x1 d10 W``."""
    return " ".join(tile_name(t) for t in sorted(tiles))


def format_zh(tiles: Iterable[int]) -> str:
    """Chinese, sorted, one character a tile: ``一一拾王``."""
    return "".join(tile_zh(t) for t in sorted(tiles))


def format_group(tiles: Iterable[int]) -> str:
    """One group in ASCII without spaces, sorted: ``x1x2x3`` (how ``chi`` actions name it)."""
    return "".join(tile_name(t) for t in sorted(tiles))


def counts_of(tiles: Iterable[int]) -> list[int]:
    """The 21 per-kind counts of ``tiles``."""
    c = [0] * KINDS
    for t in tiles:
        c[t] += 1
    return c


def tiles_of(counts: list[int]) -> list[int]:
    """The sorted tiles of per-kind ``counts``."""
    return [t for t, n in enumerate(counts) for _ in range(n)]
