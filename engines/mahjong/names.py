"""牌名: tiles as people read them, for texts (``Text`` values the hall renders per locale).

The notation (``5z``, ``984s7m``) is what a log keeps and what ``/play`` examples show; texts
name the tiles instead: zh-CN 九筒 / 红中 / 东风, zh-TW 九筒 / 紅中 / 東風, en-US ``9p`` and
``Red dragon`` / ``East wind`` (English players type and read the suited tiles as ``9p``;
only the honours, ``1z``–``7z``, need words). docs/games/mahjong.md, "Tiles by name".

- ``tile_text(t)``: one tile;
- ``group_text(tiles)``: one meld, ranks then suit: 五五五筒 / ``555p``, 中中中 / ``Red dragon ×3``;
- ``spell(notation)``: melds (``555p [5555z] 345m``) or a river (``9s 8s 4s``) group by group,
  for the hall's seat lines (``GameSpec.spell``);
- ``or_list(texts)``: "碰、杠或胡" / "peng, kong or win".

>>> tile_text(31), group_text([4, 4, 4]).key, spell("bid 2") is None
(Text(key='mj.tile.5z', args={}), 'mj.group.m', True)
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from engines.base import T, Text
from engines.errors import NotationError
from engines.mahjong.tiles import NUM_KINDS, SUITS, parse_tiles, tile_name
from engines.memo import FIXED_DOMAIN


@lru_cache(maxsize=NUM_KINDS)
def tile_text(tile: int) -> Text:
    """One tile by name: 九筒, 红中 (en-US ``9p``, ``Red dragon``). One text per tile, which
    every hand shares (texts are never changed once made)."""
    return T(f"mj.tile.{tile_name(tile)}")


@lru_cache(maxsize=FIXED_DOMAIN)
def tile_status(key: str, tile: int) -> Text:
    """A seat's status naming one tile (``mj.status.discard``: 打出 九筒), one per key and
    tile, shared: every seat of every live hand shows its last discard all hand long (the
    least lately shown make way first: a rarer key's, 金 discards')."""
    return T(key, tile=tile_text(tile))


def _chain(items: Sequence[Text], key: str) -> Text:
    out = items[-1]
    for item in reversed(items[:-1]):
        out = T(key, a=item, b=out)
    return out


def joined(items: Sequence[Text], key: str = "mj.join.space") -> Text:
    """``items`` one after another: ``mj.join.space`` ("{a} {b}"), ``mj.join.list``
    ("{a}、{b}" / "{a}, {b}") or ``mj.join.none`` ("{a}{b}"). ValueError when empty."""
    if not items:
        raise ValueError("nothing to join")
    return _chain(list(items), key)


def or_list(items: Sequence[Text]) -> Text:
    """"碰、杠或胡" / "peng, kong or win"."""
    if len(items) == 1:
        return items[0]
    return T("mj.join.or", a=joined(items[:-1], "mj.join.list"), b=items[-1])


def group_text(tiles: Sequence[int]) -> Text:
    """One group of one suit: suited tiles as ranks then the suit (三四五万, ``345m``); honours
    (always one tile repeated, as in a meld) as 中中中 / ``Red dragon ×3``; a single tile by its
    name (九筒)."""
    if len(tiles) == 1:
        return tile_text(tiles[0])
    suit = tiles[0] // 9
    if suit == 3:
        return T("mj.group.z", tile=tile_text(tiles[0]), n=len(tiles),
                 short=joined([T(f"mj.short.{tile_name(t)}") for t in tiles], "mj.join.none"))
    ranks = joined([T(f"mj.rank.{t % 9 + 1}") for t in tiles], "mj.join.none")
    return T(f"mj.group.{SUITS[suit]}", ranks=ranks)


def _part(part: str) -> Text:
    concealed = part.startswith("[") and part.endswith("]")
    tiles = parse_tiles(part[1:-1] if concealed else part)
    groups: list[list[int]] = []
    for t in tiles:
        if groups and groups[-1][0] // 9 == t // 9 and (t // 9 < 3 or groups[-1][0] == t):
            groups[-1].append(t)
        else:
            groups.append([t])
    text = joined([group_text(g) for g in groups], "mj.join.none")
    return T("mj.group.concealed", group=text) if concealed else text


def spell(notation: str) -> Text | None:
    """Melds or a river in notation, each space-separated group by name; None if it is no
    tiles (shown as written then).

    >>> spell("9s 4s").key, spell("[5555z]").key
    ('mj.join.space', 'mj.group.concealed')
    """
    parts = notation.split()
    try:
        return joined([_part(p) for p in parts]) if parts else None
    except NotationError:
        return None
