"""牌型表: builds ``shape_tables.zlib``, the per-suit tables ``suit_tables`` loads.

Run once after changing a shape rule (``python -m engines.mahjong.tablegen``); it takes a few
minutes, since every entry comes from the reference recursions in ``shape`` (``_decomp`` and
``_front``), so the tables say exactly what those say. The file is checked against them by
``tests/engines/mahjong/test_suit_tables.py``.

A suit's nine counts (0-4 each) are one base-5 number, the first rank the most significant
digit (``int(digits, 5)``), so every table has 5**9 entries; the honours' seven counts have
5**7. A suit of more than 14 tiles holds ``NOT_TABULATED`` (no hand of 14 tiles has one):
the caller falls back to the recursions.

Per suit (and per honours' counts) the tables hold:

- ``win``: the decomposition properties (TRIP|YAO bits, as ``shape._decomp``) of the counts
  into sets, with the pair their tile count asks for (``n % 3 == 2``), or 0 when there is
  none (``n % 3 == 1`` included); bit 4 set when that decomposition has the pair. Honours
  form only triplets and one pair and add no properties (an empty part is ``1 << 3``, the
  neutral mask).
- ``wait``: bits 0-8 the kinds whose one more tile makes ``win`` non-zero (a kind held four
  times excluded), bit 9 set when the counts plus a tile take the pair (``n % 3 == 1``).
- ``win`` once more, as the list of the parts that decompose (their raw counts, and their
  ``win``), for a dictionary keyed by ``bytes(counts)`` slices.
- ``shape``: an id of the part's shanten profile: for p in (no pair, pair) and k = 0..4
  blocks, the most ``2·sets + partial sets + pair`` that k blocks (sets first) of one
  decomposition reach (-1 for none with p). Profiles combine by max-plus convolution
  (``comb``: a table over every pair of ids, closed under combination), and ``best`` gives,
  per id and block budget 4 − melds, the best value: shanten = 8 − 2·melds − best.
"""

from __future__ import annotations

import zlib
from array import array
from pathlib import Path

NOT_TABULATED = 0x80
NO_SHAPE = 0xFF
WAIT_NOT_TABULATED = 0x8000
NEG = -1
MAGIC = b"MJST2"
PATH = Path(__file__).with_name("shape_tables.zlib")
SUIT, HONOURS = 5**9, 5**7


def profile(front: tuple[tuple[int, int, int], ...]) -> tuple[int, ...]:
    """The shanten profile (10 values: no pair k=0..4, pair k=0..4) of a Pareto front."""
    out = [NEG] * 10
    for m, t, p in front:
        for k in range(5):
            a = min(m, k)
            v = 2 * a + min(t, k - a) + p
            out[5 * p + k] = max(out[5 * p + k], v)
    return tuple(out)


def combine(a: tuple[int, ...], b: tuple[int, ...]) -> tuple[int, ...]:
    """Max-plus convolution of two profiles (blocks add up to at most 4, one pair)."""
    out = [NEG] * 10
    for pa in (0, 1):
        for pb in (0, 1 - pa):
            for k in range(5):
                best = NEG
                for ka in range(k + 1):
                    x, y = a[5 * pa + ka], b[5 * pb + k - ka]
                    if x >= 0 and y >= 0 and x + y > best:
                        best = x + y
                out[5 * (pa + pb) + k] = max(out[5 * (pa + pb) + k], best)
    return tuple(out)


EMPTY = (0, 0, 0, 0, 0, NEG, NEG, NEG, NEG, NEG)
"""The profile of a part with no tiles (the neutral element of ``combine``)."""


def _vectors(size: int):  # type: ignore[no-untyped-def]
    """Every counts vector of ``size`` kinds, in base-5 index order."""
    for index in range(5**size):
        digits = []
        x = index
        for _ in range(size):
            x, d = divmod(x, 5)
            digits.append(d)
        yield index, tuple(reversed(digits))


def build() -> bytes:
    """The whole table file's bytes (uncompressed)."""
    from engines.mahjong.decompose import _decomp, _front, _honours

    win = bytearray(SUIT)
    wait = array("H", bytes(2 * SUIT))
    shp = bytearray(SUIT)
    hwin = bytearray(HONOURS)
    hwait = array("H", bytes(2 * HONOURS))
    hshp = bytearray(HONOURS)
    profiles: dict[tuple[int, ...], int] = {}

    def suit_win(c: tuple[int, ...]) -> int:
        n = sum(c)
        if n % 3 == 1:
            return 0
        if not any(c):
            return 1 << 3
        m = _decomp(c, n % 3 == 2)
        return m | (16 if m and n % 3 == 2 else 0)

    def honour_win(c: tuple[int, ...]) -> int:
        n = sum(c)
        if n % 3 == 1 or not _honours(c, n % 3 == 2):
            return 0
        return 1 << 3 | (16 if n % 3 == 2 else 0)

    for size, wins, waits, shapes, honours in (
        (9, win, wait, shp, False),
        (7, hwin, hwait, hshp, True),
    ):
        judge = honour_win if honours else suit_win
        for index, c in _vectors(size):
            n = sum(c)
            if n > 14:
                wins[index], waits[index], shapes[index] = (
                    NOT_TABULATED,
                    WAIT_NOT_TABULATED,
                    NO_SHAPE,
                )
                continue
            wins[index] = judge(c)
            if n == 14:
                waits[index] = WAIT_NOT_TABULATED
            else:
                bits = 512 if n % 3 == 1 else 0
                for x in range(size):
                    if c[x] < 4:
                        more = c[:x] + (c[x] + 1,) + c[x + 1 :]
                        if judge(more):
                            bits |= 1 << x
                waits[index] = bits
            prof = profile(_front(c, honours)) if any(c) else EMPTY
            shapes[index] = profiles.setdefault(prof, len(profiles))
    count, comb, best = _combinations(profiles)
    for table in (wait, hwait):
        if array("H", [1]).tobytes() != b"\x01\x00":
            table.byteswap()  # the file is little-endian
    return b"".join(
        (
            MAGIC,
            _keys(win, 9),
            _keys(hwin, 7),
            bytes([count]),
            bytes(win),
            bytes(shp),
            wait.tobytes(),
            bytes(hwin),
            bytes(hshp),
            hwait.tobytes(),
            bytes(comb),
            bytes(best),
        )
    )


def _combinations(profiles: dict[tuple[int, ...], int]) -> tuple[int, bytearray, bytearray]:
    """Close ``profiles`` (profile → id) under combination; the count of ids, the table of
    their combinations and each id's best shanten figures."""
    # close the profiles under combination, so that comb is a table over ids
    grown = True
    while grown:
        grown = False
        known = list(profiles)
        for a in known:
            for b in known:
                c2 = combine(a, b)
                if c2 not in profiles:
                    profiles[c2] = len(profiles)
                    grown = True
    every = list(profiles)
    count = len(every)
    assert count < NO_SHAPE, count
    comb = bytearray(count * count)
    for a in every:
        for b in every:
            comb[profiles[a] * count + profiles[b]] = profiles[combine(a, b)]
    best = bytearray(count * 5)
    for prof, i in profiles.items():
        for k in range(5):
            best[5 * i + k] = max(prof[k], prof[5 + k])
    return count, comb, best


def _keys(win: bytearray, size: int) -> bytes:
    """The parts that decompose (``win`` neither 0 nor NOT_TABULATED) as a count, their
    counts (``size`` bytes each, the raw counts, as ``bytes(counts)`` slices them) and their
    ``win`` values: the win check looks a part up by its bytes, with no index to compute."""
    keys, values = [], bytearray()
    for index, c in _vectors(size):
        w = win[index]
        if w and w != NOT_TABULATED:
            keys.append(bytes(c))
            values.append(w)
    return len(keys).to_bytes(4, "little") + b"".join(keys) + bytes(values)


def main() -> None:
    PATH.write_bytes(zlib.compress(build(), 9))
    print(f"wrote {PATH} ({PATH.stat().st_size:,} bytes)")


if __name__ == "__main__":
    main()
