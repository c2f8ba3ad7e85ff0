"""牌型表: the per-suit tables behind ``shape``'s win check, shanten and waits.

Loaded once, when the module is imported, from ``shape_tables.zlib`` beside it (about 10 MB
in memory, a few tens of milliseconds to read): a restarted bot answers its first question
as fast as its millionth, with no memo to warm. ``tablegen`` builds the file from the
reference recursions in ``shape`` and documents each table; indices are a part's counts as
one base-5 number (``int(digits, 5)``).
"""

from __future__ import annotations

import sys
import zlib
from array import array
from pathlib import Path
from typing import Any

NOT_TABULATED = 0x80
NO_SHAPE = 0xFF
WAIT_NOT_TABULATED = 0x8000
MAGIC = b"MJST2"
SUIT, HONOURS = 5**9, 5**7

DIGITS = bytes((48 + n if n < 5 else 57) for n in range(256))
"""bytes.translate table: a count 0-4 to its base-5 digit, any other count to ``9`` (not a
base-5 digit, so ``int`` refuses it and the caller falls back to the recursions)."""


def _load() -> tuple[Any, ...]:
    data = zlib.decompress((Path(__file__).with_name("shape_tables.zlib")).read_bytes())
    if not data.startswith(MAGIC):
        raise ValueError("shape_tables.zlib: not a shape table file")
    at = len(MAGIC)
    keyed = []
    for size in (9, 7):
        n = int.from_bytes(data[at : at + 4], "little")
        at += 4
        keys = [data[k : k + size] for k in range(at, at + n * size, size)]
        at += n * size
        keyed.append(dict(zip(keys, data[at : at + n], strict=True)))
        at += n
    count = data[at]
    at += 1
    parts: list[bytes | array[int]] = []
    for size, width in (
        (SUIT, 1),
        (SUIT, 1),
        (SUIT, 2),
        (HONOURS, 1),
        (HONOURS, 1),
        (HONOURS, 2),
        (count * count, 1),
        (count * 5, 1),
    ):
        chunk = data[at : at + size * width]
        at += size * width
        if width == 2:
            table = array("H")
            table.frombytes(chunk)
            if sys.byteorder == "big":
                table.byteswap()
            parts.append(table)
        else:
            parts.append(chunk)
    if at != len(data):
        raise ValueError("shape_tables.zlib: wrong length")
    win, shp, wait, hwin, hshp, hwait, comb, best = parts
    return (*keyed, win, shp, wait, hwin, hshp, hwait, comb, best, count)


WINS: dict[bytes, int]
"""A suit's raw counts (9 bytes) that decompose → its ``win`` value; HWINS the honours'."""
HWINS: dict[bytes, int]
WIN: bytes
SHAPE: bytes
WAIT: array[int]
HWIN: bytes
HSHAPE: bytes
HWAIT: array[int]
COMB: bytes
BEST: bytes
PROFILES: int
WINS, HWINS, WIN, SHAPE, WAIT, HWIN, HSHAPE, HWAIT, COMB, BEST, PROFILES = _load()
