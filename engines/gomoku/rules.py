"""规则: the board, five in a row, and the 禁手 referee for black (连珠 / Renju rules).

Definitions (as the 禁手 rules use them, for black in a 禁手 room):

- 五连 (five): exactly five black stones in a line; for white (and in 无禁手 rooms, for
  both colours) five or more.
- 四 (four): a line in which one more stone makes a five. A 活四 (straight four,
  ``.XXXX.``) has two completing points and counts once; two completing points that are
  not the two ends of four adjacent stones are two fours on one line (``X.XXX.X``,
  ``XXX.X.XXX``): that alone is 四四.
- 活三 (three): a line that one more stone turns into a straight four, where that stone is
  not itself a 禁手 (checked recursively, on the board with the new stone).
- 禁手: a black move (not making five) that makes an overline (长连), two or more fours
  (四四) or two or more threes (三三). A five made by the same stone wins instead.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from enum import Enum
from functools import lru_cache

from engines.base import T
from engines.errors import NotationError
from engines.gomoku.notation import POINTS, SIZE, parse_point, point, point_name

EMPTY, BLACK, WHITE = 0, 1, 2
"""Cell values; the colour index shown to players is ``colour - 1`` (0 black, 1 white)."""

DIRECTIONS: tuple[tuple[int, int], ...] = ((1, 0), (0, 1), (1, 1), (1, -1))
RADIUS = 5
_WALL = 3


class Forbidden(Enum):
    """禁手: the shape that makes a black move lose."""

    DOUBLE_THREE = "double_three"  # 三三
    DOUBLE_FOUR = "double_four"  # 四四
    OVERLINE = "overline"  # 长连


def other(colour: int) -> int:
    return BLACK + WHITE - colour


@lru_cache(maxsize=1)
def _rays() -> tuple[tuple[tuple[int, ...], ...], ...]:
    """For each point and direction, the 11 cells from -5 … +5 along the line (-1 off board)."""
    table: list[tuple[tuple[int, ...], ...]] = []
    for p in range(POINTS):
        c0, r0 = p % SIZE, p // SIZE
        per_dir = []
        for dc, dr in DIRECTIONS:
            cells = []
            for k in range(-RADIUS, RADIUS + 1):
                c, r = c0 + k * dc, r0 + k * dr
                cells.append(point(c, r) if 0 <= c < SIZE and 0 <= r < SIZE else -1)
            per_dir.append(tuple(cells))
        table.append(tuple(per_dir))
    return tuple(table)


def rays(p: int) -> tuple[tuple[int, ...], ...]:
    """The four lines through ``p`` (cells -5 … +5, -1 off the board)."""
    return _rays()[p]


def _segment(cells: list[int], ray: tuple[int, ...]) -> list[int]:
    return [cells[q] if q >= 0 else _WALL for q in ray]


def _run(seg: list[int], i: int, colour: int) -> int:
    """Length of the run of ``colour`` through index ``i`` of a segment."""
    lo = i
    while lo > 0 and seg[lo - 1] == colour:
        lo -= 1
    hi = i
    while hi < len(seg) - 1 and seg[hi + 1] == colour:
        hi += 1
    return hi - lo + 1


def _five(run: int, exact: bool) -> bool:
    return run == 5 if exact else run >= 5


def _four_points(seg: list[int], colour: int, exact: bool) -> list[int]:
    """Segment indices where one more stone makes a five through the centre."""
    found = []
    for e in range(RADIUS - 4, RADIUS + 5):
        if seg[e] != EMPTY:
            continue
        seg[e] = colour
        # The centre and e must be in one run: the five has to use the new stone.
        lo, hi = min(e, RADIUS), max(e, RADIUS)
        joined = all(seg[k] == colour for k in range(lo, hi + 1))
        if joined and _five(_run(seg, RADIUS, colour), exact):
            found.append(e)
        seg[e] = EMPTY
    return found


def count_fours(seg: list[int], colour: int, exact: bool) -> int:
    """四: how many fours a segment (from ``Position.segment``) has through its centre."""
    pts = _four_points(seg, colour, exact)
    if len(pts) == 2 and pts[1] - pts[0] == 5:
        return 1  # 活四 .XXXX. is one four with two completing points
    return len(pts)


def is_straight_four(seg: list[int], colour: int, exact: bool) -> bool:
    """活四: whether the segment's centre is in a straight four (two ends complete a five)."""
    pts = _four_points(seg, colour, exact)
    return len(pts) == 2 and pts[1] - pts[0] == 5


class Position:
    """盘面: stones on the 15 × 15 board; a plain mutable grid with a text form (like FEN).

    ``cells[p]`` is EMPTY, BLACK or WHITE. The text form lists the 15 rows from row 15 down
    to row 1, separated by ``/``, with ``x`` black, ``o`` white and digits for runs of empty
    points; :meth:`from_stones` builds a position from coordinate lists.
    """

    __slots__ = ("cells",)

    def __init__(self, cells: Iterable[int] | None = None) -> None:
        self.cells: list[int] = list(cells) if cells is not None else [EMPTY] * POINTS
        if len(self.cells) != POINTS:
            raise ValueError("a position has 225 points")

    def copy(self) -> Position:
        return Position(self.cells)

    def __eq__(self, other_: object) -> bool:
        return isinstance(other_, Position) and self.cells == other_.cells

    def __hash__(self) -> int:
        return hash(tuple(self.cells))

    def __repr__(self) -> str:
        return f"Position({self.fen()!r})"

    def stones(self, colour: int) -> list[int]:
        return [p for p, v in enumerate(self.cells) if v == colour]

    def empty_points(self) -> Iterator[int]:
        return (p for p, v in enumerate(self.cells) if v == EMPTY)

    def is_full(self) -> bool:
        return EMPTY not in self.cells

    # --- text forms ------------------------------------------------------------------------
    @classmethod
    def from_stones(cls, black: str = "", white: str = "") -> Position:
        """A position from two lists of points: ``from_stones("H8 I9", "J10")``.

        Raises NotationError for an unreadable point or a point listed twice.
        """
        pos = cls()
        for colour, text in ((BLACK, black), (WHITE, white)):
            for token in text.replace(",", " ").split():
                p = parse_point(token)
                if pos.cells[p] != EMPTY:
                    raise NotationError(
                        token, "point listed twice", text=T("err.gomoku.listed_twice", typed=token)
                    )
                pos.cells[p] = colour
        return pos

    def fen(self) -> str:
        """The text form: rows 15 … 1, ``x``/``o``/digits, joined by ``/``.

        >>> Position.from_stones("H8", "I9").fen().split("/")[6:8]
        ['8o6', '7x7']
        """
        rows = []
        for r in range(SIZE - 1, -1, -1):
            out, gap = "", 0
            for c in range(SIZE):
                v = self.cells[point(c, r)]
                if v == EMPTY:
                    gap += 1
                    continue
                if gap:
                    out += str(gap)
                    gap = 0
                out += "x" if v == BLACK else "o"
            rows.append(out + (str(gap) if gap else ""))
        return "/".join(rows)

    @classmethod
    def from_fen(cls, text: str) -> Position:
        """Read the text form of :meth:`fen`; NotationError if malformed."""
        rows = text.strip().split("/")
        if len(rows) != SIZE:
            raise NotationError(
                text,
                "a position has 15 rows separated by '/'",
                text=T("err.gomoku.fen_rows", typed=text),
            )
        pos = cls()
        for i, row in enumerate(rows):
            r = SIZE - 1 - i
            c = 0
            for tok in _fen_tokens(row, text):
                if isinstance(tok, int):
                    c += tok
                    continue
                if c >= SIZE:
                    break
                pos.cells[point(c, r)] = BLACK if tok == "x" else WHITE
                c += 1
            if c != SIZE:
                raise NotationError(
                    text,
                    f"row {r + 1} does not have 15 points",
                    text=T("err.gomoku.fen_row", typed=text, row=r + 1),
                )
        return pos

    # --- lines -------------------------------------------------------------------------------
    def segment(self, p: int, d: int) -> list[int]:
        """Cells -5 … +5 through ``p`` in direction ``d`` (off-board cells are walls)."""
        return _segment(self.cells, rays(p)[d])

    def makes_five(self, p: int, colour: int, exact: bool) -> bool:
        """连五: would ``colour`` at empty ``p`` make five (``exact``: exactly five)?"""
        self.cells[p] = colour
        try:
            return any(_five(_run(self.segment(p, d), RADIUS, colour), exact) for d in range(4))
        finally:
            self.cells[p] = EMPTY

    def has_five_at(self, p: int, colour: int, exact: bool) -> bool:
        """Whether the stone at ``p`` is part of a five."""
        return any(_five(_run(self.segment(p, d), RADIUS, colour), exact) for d in range(4))

    def five_line(self, p: int, colour: int) -> list[int]:
        """The points of the longest line of ``colour`` through ``p`` (for highlighting)."""
        best: list[int] = [p]
        for d in range(4):
            ray = rays(p)[d]
            line = [p]
            for step in (1, -1):
                k = RADIUS + step
                while 0 <= k < len(ray) and ray[k] >= 0 and self.cells[ray[k]] == colour:
                    line.append(ray[k])
                    k += step
            if len(line) > len(best):
                best = line
        return sorted(best)

    def fours_after(self, p: int, colour: int, exact: bool) -> int:
        """How many fours ``colour`` at empty ``p`` would make (活四 counts once)."""
        self.cells[p] = colour
        try:
            return sum(count_fours(self.segment(p, d), colour, exact) for d in range(4))
        finally:
            self.cells[p] = EMPTY

    def makes_straight_four(self, p: int, colour: int, exact: bool) -> bool:
        """活四: would ``colour`` at empty ``p`` make a straight four?"""
        self.cells[p] = colour
        try:
            return any(is_straight_four(self.segment(p, d), colour, exact) for d in range(4))
        finally:
            self.cells[p] = EMPTY

    # --- the 禁手 referee ------------------------------------------------------------------
    def forbidden(self, p: int) -> Forbidden | None:
        """禁手判定: the forbidden shape black at empty ``p`` would make, or None.

        None also when the move makes exactly five (the five wins). Only for 禁手 rooms.
        """
        if self.cells[p] != EMPTY:
            raise ValueError(f"{point_name(p)} is not empty")
        cells = self.cells
        cells[p] = BLACK
        try:
            segs = [self.segment(p, d) for d in range(4)]
            runs = [_run(s, RADIUS, BLACK) for s in segs]
            if 5 in runs:
                return None
            if any(r > 5 for r in runs):
                return Forbidden.OVERLINE
            fours = [count_fours(s, BLACK, True) for s in segs]
            if sum(fours) >= 2:
                return Forbidden.DOUBLE_FOUR
            threes = 0
            for d in range(4):
                if fours[d] == 0 and self._is_three(p, d, segs[d]):
                    threes += 1
                    if threes >= 2:
                        return Forbidden.DOUBLE_THREE
            return None
        finally:
            cells[p] = EMPTY

    def _is_three(self, p: int, d: int, seg: list[int]) -> bool:
        """活三 through ``p`` (already placed) in direction ``d``: some stone on the line
        makes a straight four with ``p`` in it, and that stone is not itself 禁手."""
        ray = rays(p)[d]
        for e in range(RADIUS - 3, RADIUS + 4):
            if seg[e] != EMPTY:
                continue
            seg[e] = BLACK
            straight = is_straight_four(seg, BLACK, True)
            seg[e] = EMPTY
            if straight and self.forbidden(ray[e]) is None:
                return True
        return False

    def can_still_five(self, colour: int, exact: bool) -> bool:
        """Whether some line of five points holds no stone of the other colour (and, with
        ``exact``, is not flanked by ``colour``), i.e. ``colour`` could still make five."""
        cells = self.cells
        foe = other(colour)
        for start, (dc, dr) in _windows():
            c0, r0 = start % SIZE, start // SIZE
            pts = [point(c0 + k * dc, r0 + k * dr) for k in range(5)]
            if any(cells[q] == foe for q in pts):
                continue
            if exact:
                before = (c0 - dc, r0 - dr)
                after = (c0 + 5 * dc, r0 + 5 * dr)
                if any(
                    0 <= c < SIZE and 0 <= r < SIZE and cells[point(c, r)] == colour
                    for c, r in (before, after)
                ):
                    continue
            return True
        return False


@lru_cache(maxsize=1)
def _windows() -> tuple[tuple[int, tuple[int, int]], ...]:
    """Every line of five points: (first point, direction)."""
    out = []
    for p in range(POINTS):
        c, r = p % SIZE, p // SIZE
        for dc, dr in DIRECTIONS:
            if 0 <= c + 4 * dc < SIZE and 0 <= r + 4 * dr < SIZE:
                out.append((p, (dc, dr)))
    return tuple(out)


def windows() -> tuple[tuple[int, ...], ...]:
    """Every line of five points as a tuple of points (572 of them)."""
    return _window_points()


@lru_cache(maxsize=1)
def _window_points() -> tuple[tuple[int, ...], ...]:
    out = []
    for start, (dc, dr) in _windows():
        c, r = start % SIZE, start // SIZE
        out.append(tuple(point(c + k * dc, r + k * dr) for k in range(5)))
    return tuple(out)


def _fen_tokens(row: str, text: str) -> Iterator[int | str]:
    i = 0
    while i < len(row):
        ch = row[i].lower()
        if ch.isdigit():
            j = i
            while j < len(row) and row[j].isdigit():
                j += 1
            yield int(row[i:j])
            i = j
        elif ch in "xo":
            yield ch
            i += 1
        else:
            raise NotationError(
                text,
                f"unexpected {row[i]!r} in a position",
                text=T("err.gomoku.fen_char", typed=text, char=row[i]),
            )
