"""禁手 referee: a table of known positions (black to play at ``*``).

Each expectation was worked out by hand from the definitions in ``engines/gomoku/rules.py``
(the reasoning is in the comment of each case) and agrees with the Piskvork Renju judge.
Rows not drawn are empty.
"""

from __future__ import annotations

import pytest

from engines.gomoku.notation import parse_point, point_name
from engines.gomoku.rules import BLACK, EMPTY, WHITE, Forbidden, Position

HEADER = "   A B C D E F G H I J K L M N O"


def diagram(text: str) -> tuple[Position, int]:
    """Read a diagram: rows ``NN`` + 15 cells (``X`` black, ``O`` white, ``.``, ``*`` target)."""
    pos = Position()
    target = None
    for line in text.strip("\n").splitlines():
        tokens = line.split()
        if not tokens or not tokens[0].isdigit():
            assert line.strip() == HEADER.strip(), line
            continue
        row = int(tokens[0])
        cells = tokens[1:]
        assert len(cells) == 15, line
        for col, ch in enumerate(cells):
            p = (row - 1) * 15 + col
            if ch == "X":
                pos.cells[p] = BLACK
            elif ch == "O":
                pos.cells[p] = WHITE
            elif ch == "*":
                target = p
            else:
                assert ch == ".", line
    assert target is not None
    return pos, target


DT, DF, OL = Forbidden.DOUBLE_THREE, Forbidden.DOUBLE_FOUR, Forbidden.OVERLINE

CASES: list[tuple[str, str, Forbidden | None]] = [
    (
        # F8 G8 * and * H9 H10: two open threes.
        "double three",
        """
   A B C D E F G H I J K L M N O
10 . . . . . . . X . . . . . . .
 9 . . . . . . . X . . . . . . .
 8 . . . . . X X * . . . . . . .
""",
        DT,
    ),
    (
        # G8 * . J8 is a split three (I8 makes a straight four); H6 H7 * an open three.
        "double three with a split three",
        """
   A B C D E F G H I J K L M N O
 8 . . . . . . X * . X . . . . .
 7 . . . . . . . X . . . . . . .
 6 . . . . . . . X . . . . . . .
""",
        DT,
    ),
    (
        # H1 H2 * touches the edge: H4 gives H1-H4 with only H5 to complete, not a straight
        # four. Only the row three is real.
        "fake three blocked by the edge",
        """
   A B C D E F G H I J K L M N O
 3 . . . . . X X * . . . . . . .
 2 . . . . . . . X . . . . . . .
 1 . . . . . . . X . . . . . . .
""",
        None,
    ),
    (
        # The same shapes one line up: H1 is free, so H2 H3 * becomes a straight four at H5.
        "real three one line from the edge",
        """
   A B C D E F G H I J K L M N O
 4 . . . . . X X * . . . . . . .
 3 . . . . . . . X . . . . . . .
 2 . . . . . . . X . . . . . . .
""",
        DT,
    ),
    (
        # O X X * . . : white on E8 leaves only I8-J8, never a straight four.
        "fake three blocked by a white stone",
        """
   A B C D E F G H I J K L M N O
10 . . . . . . . X . . . . . . .
 9 . . . . . . . X . . . . . . .
 8 . . . . O X X * . . . . . . .
""",
        None,
    ),
    (
        # O . X X * . . : I8 makes E8/J8 both complete an exact five, a straight four.
        "three with a white stone one point away",
        """
   A B C D E F G H I J K L M N O
10 . . . . . . . X . . . . . . .
 9 . . . . . . . X . . . . . . .
 8 . . . O . X X * . . . . . . .
""",
        DT,
    ),
    (
        # X . . X X * . O : I8 would complete only at E8 = C8-I8 overline; E8 only at I8.
        "fake three blocked by overline and white",
        """
   A B C D E F G H I J K L M N O
10 . . . . . . . X . . . . . . .
 9 . . . . . . . X . . . . . . .
 8 . . X . . X X * . O . . . . .
""",
        None,
    ),
    (
        # The row three's only straight-four point is I8, and I8 is 四四 (row straight four +
        # I8 . I10 I11 I12), so the row is not a three: one three, no 禁手.
        "three whose completing point is a double four",
        """
   A B C D E F G H I J K L M N O
12 . . . . . . . . X . . . . . .
11 . . . . . . . . X . . . . . .
10 . . . . . . . X X . . . . . .
 9 . . . . . . . X . . . . . . .
 8 . . . O . X X * . . . . . . .
""",
        None,
    ),
    (
        # Without I12, I8 is a four-three (legal), so the row is a real three again.
        "three whose completing point is a legal four-three",
        """
   A B C D E F G H I J K L M N O
11 . . . . . . . . X . . . . . .
10 . . . . . . . X X . . . . . .
 9 . . . . . . . X . . . . . . .
 8 . . . O . X X * . . . . . . .
""",
        DT,
    ),
    (
        # I8 would join I5-I7 and I9-I10 into an overline, so the row is not a three.
        "three whose completing point is an overline",
        """
   A B C D E F G H I J K L M N O
10 . . . . . . . X X . . . . . .
 9 . . . . . . . X X . . . . . .
 8 . . . O . X X * . . . . . . .
 7 . . . . . . . . X . . . . . .
 6 . . . . . . . . X . . . . . .
 5 . . . . . . . . X . . . . . .
""",
        None,
    ),
    (
        # Diagonal * F9 G10 completes to a straight four only at D7 or H11; D7 is 四四 with
        # D7 E7 . G7 H7, H11 is 四四 with H11 . J11 K11 L11. Only the column E7 * E9 is a three.
        "three whose two completing points are both forbidden",
        """
   A B C D E F G H I J K L M N O
11 . . . . . . . . . X X X . . .
10 . . . . . . X . . . . . . . .
 9 . . . . X X . . . . . . . . .
 8 . . . . * . . . . . . . . . .
 7 . . . . X . X X . . . . . . .
""",
        None,
    ),
    (
        # Three levels: the row H10 I10 . * needs J10; J10 looks like 4-3-3 but its three
        # I11 J10 . L8 needs K9, which is 四四 (K8-K11 and I11-L8), so J10 is a legal
        # four-three and the row is a real three; with the column K8 . * K11: 三三.
        "recursive: the completing point's own three is fake",
        """
   A B C D E F G H I J K L M N O
11 . . . . . . . . X . X . . . .
10 . . . . . . . X X . * . . . .
 9 . . . . . . . . X . . . . . .
 8 . . . . . . . . . . X X . . .
""",
        DT,
    ),
    (
        # Four levels: * I7 I8 is a three (I9 completes it); the diagonal H5 * . K8 needs J7.
        # J7 is four (H5-K8) + three J4 . J6 J7 (needs J5) + three G10 . I8 J7 (needs H9).
        # J5 looks like 4-3-3 too, but its row three H5 . J5 K5 needs I5, and I5 is 四四
        # (H5-K5 and I5-I8); so J5 is a legal four-three, J7 is a real 四三三 (禁手), the
        # diagonal is not a three, and * has one three only.
        "recursive: four levels deep",
        """
   A B C D E F G H I J K L M N O
10 . . . . . . X . . . . . . . .
 8 . . . . . . . . X . X . . . .
 7 . . . . . . . . X . . . . . .
 6 . . . . . . . . * X . . . . .
 5 . . . . . . . X . . X . . . .
 4 . . . . . . . . . X X . . . .
""",
        None,
    ),
    (
        # X . X * X . X: E8 and I8 each complete a different five: two fours on one line.
        "double four on one line (X.XXX.X)",
        """
   A B C D E F G H I J K L M N O
 8 . . . X . X * X . X . . . . .
""",
        DF,
    ),
    (
        "double four on one line (XXX.X.XXX)",
        """
   A B C D E F G H I J K L M N O
 8 . X X X . * . X X X . . . . .
""",
        DF,
    ),
    (
        "double four on one line (XX.XX.XX)",
        """
   A B C D E F G H I J K L M N O
 8 . X X . * X . X X . . . . . .
""",
        DF,
    ),
    (
        # E8 F8 . * I8 (G8 completes) and * . H10 H11 H12 (H9 completes).
        "double four of two split fours",
        """
   A B C D E F G H I J K L M N O
12 . . . . . . . X . . . . . . .
11 . . . . . . . X . . . . . . .
10 . . . . . . . X . . . . . . .
 8 . . . . X X . * X . . . . . .
""",
        DF,
    ),
    (
        "double four: straight four and a split four",
        """
   A B C D E F G H I J K L M N O
12 . . . . . . . X . . . . . . .
11 . . . . . . . X . . . . . . .
10 . . . . . . . X . . . . . . .
 8 . . . . X X X * . . . . . . .
""",
        DF,
    ),
    (
        # C8 D8 . F8 G8 *: E8 would make C8-H8, six: not a four. One real four: legal.
        "fake four that only makes an overline",
        """
   A B C D E F G H I J K L M N O
12 . . . . . . . X . . . . . . .
11 . . . . . . . X . . . . . . .
10 . . . . . . . X . . . . . . .
 8 . . X X . X X * . . . . . . .
""",
        None,
    ),
    (
        "four-three is legal",
        """
   A B C D E F G H I J K L M N O
10 . . . . . . . X . . . . . . .
 9 . . . . . . . X . . . . . . .
 8 . . . O X X X * . . . . . . .
""",
        None,
    ),
    (
        # A four and two threes (四三三) contains 三三.
        "four-three-three",
        """
   A B C D E F G H I J K L M N O
10 . . . . . . . X . X . . . . .
 9 . . . . . . . X X . . . . . .
 8 . . . O X X X * . . . . . . .
""",
        DT,
    ),
    (
        "straight four alone",
        "   A B C D E F G H I J K L M N O\n 8 . . . . X X X * . . . . . . .",
        None,
    ),
    ("overline", "   A B C D E F G H I J K L M N O\n 8 . . . X X X X * X . . . . . .", OL),
    ("exact five", "   A B C D E F G H I J K L M N O\n 8 . . . . X X X * X . . . . . .", None),
    (
        # Five in the row and six in the column at once: the five wins.
        "five with an overline in another line",
        """
   A B C D E F G H I J K L M N O
10 . . . . . . . X . . . . . . .
 9 . . . . . . . X . . . . . . .
 8 . . . . X X X * X . . . . . .
 7 . . . . . . . X . . . . . . .
 6 . . . . . . . X . . . . . . .
 5 . . . . . . . X . . . . . . .
""",
        None,
    ),
    (
        "five together with double three",
        """
   A B C D E F G H I J K L M N O
10 . . . . . . . X . X . . . . .
 9 . . . . . . . X X . . . . . .
 8 . . . . X X X * X . . . . . .
""",
        None,
    ),
    (
        # A three and a four are not 三三; two threes need two lines.
        "one open three is legal",
        "   A B C D E F G H I J K L M N O\n 8 . . . . . X X * . . . . . . .",
        None,
    ),
]


@pytest.mark.parametrize(("name", "text", "expected"), CASES, ids=[c[0] for c in CASES])
def test_referee_table(name: str, text: str, expected: Forbidden | None) -> None:
    pos, target = diagram(text)
    before = pos.fen()
    assert pos.forbidden(target) is expected, name
    assert pos.fen() == before  # the referee leaves the position as it found it


def test_recursive_case_step_by_step() -> None:
    """The three-level case of the table, one level at a time."""
    pos, k10 = _case("recursive: the completing point's own three is fake")
    assert point_name(k10) == "K10"
    pos.cells[k10] = BLACK
    j10, k9 = parse_point("J10"), parse_point("K9")
    assert pos.forbidden(j10) is None  # 四三: its second "three" is fake
    pos.cells[j10] = BLACK
    assert pos.forbidden(k9) is Forbidden.DOUBLE_FOUR


def test_four_level_case_step_by_step() -> None:
    pos, i6 = _case("recursive: four levels deep")
    assert point_name(i6) == "I6"
    steps = [("J7", Forbidden.DOUBLE_THREE), ("J5", None), ("I5", Forbidden.DOUBLE_FOUR)]
    pos.cells[i6] = BLACK
    for name, expected in steps:
        p = parse_point(name)
        assert pos.forbidden(p) is expected, name
        pos.cells[p] = BLACK


def _case(name: str) -> tuple[Position, int]:
    return diagram(next(text for n, text, _ in CASES if n == name))


def test_five_and_overline_shapes() -> None:
    five, p = _case("exact five")
    assert five.makes_five(p, BLACK, exact=True)
    six, q = _case("overline")
    assert not six.makes_five(q, BLACK, exact=True)
    assert six.makes_five(q, BLACK, exact=False)  # white / 无禁手: six still wins


def test_referee_rejects_occupied_point() -> None:
    pos = Position.from_stones("H8")
    with pytest.raises(ValueError):
        pos.forbidden(parse_point("H8"))


def test_same_shape_mirrored_everywhere() -> None:
    """The double three is found in all four directions and near every edge."""
    base = [(-2, 0), (-1, 0), (0, 1), (0, 2)]  # F8 G8 * H9 H10 in offsets
    for cx, cy in ((7, 7), (3, 3), (11, 11), (3, 11), (11, 3)):
        for tx, ty in ((1, 1), (-1, 1), (1, -1), (-1, -1)):
            for swap in (False, True):
                pos = Position()
                for dx, dy in base:
                    dx, dy = dx * tx, dy * ty
                    if swap:
                        dx, dy = dy, dx
                    pos.cells[(cy + dy) * 15 + cx + dx] = BLACK
                centre = cy * 15 + cx
                assert pos.forbidden(centre) is Forbidden.DOUBLE_THREE
    assert Position().cells.count(EMPTY) == 225
