"""Board rendering: PNG with Pillow and the monospace text fallback, for any Board."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from PIL import Image

from bot.render.board import (
    BACKGROUND,
    RED,
    image_size,
    pixel_of,
    render_board_png,
    render_board_text,
)
from engines.base import Board

BOARD = Board(
    size=15,
    stones={"H8": 0, "J9": 1, "A1": 0, "O15": 1, "G7": 0},
    last="G7",
    marks={"K10": "5", "J9": "×"},
)


def _image(board: Board, **kw: bool) -> Image.Image:
    data = render_board_png(board, **kw)
    assert data.startswith(b"\x89PNG\r\n\x1a\n")
    return Image.open(io.BytesIO(data)).convert("RGB")


def _near(a: tuple[int, ...], b: tuple[int, ...], tol: int = 40) -> bool:
    return all(abs(x - y) <= tol for x, y in zip(a, b, strict=True))


@pytest.mark.parametrize("labels", [True, False])
def test_png_size_and_stones(labels: bool) -> None:
    img = _image(BOARD, labels=labels)
    assert img.size == image_size(BOARD, labels=labels)
    px = img.load()
    assert px is not None
    black = pixel_of(BOARD, "H8", labels=labels)
    white = pixel_of(BOARD, "O15", labels=labels)
    corner = pixel_of(BOARD, "A1", labels=labels)
    assert _near(px[black], (0, 0, 0))
    assert _near(px[white], (255, 255, 255))
    assert _near(px[corner], (0, 0, 0))
    # The last stone carries a red dot; a few pixels off the centre it is still black.
    x, y = pixel_of(BOARD, "G7", labels=labels)
    assert _near(px[x, y], RED)
    assert _near(px[x + 10, y], (0, 0, 0))
    # An empty point off the grid lines shows the board colour.
    ex, ey = pixel_of(BOARD, "C12", labels=labels)
    assert _near(px[ex + 10, ey + 10], BACKGROUND)


def test_png_marks_are_drawn() -> None:
    img = _image(BOARD)
    px = img.load()
    assert px is not None
    # The × on the white stone J9: its arms pass through the centre.
    x, y = pixel_of(BOARD, "J9")
    assert _near(px[x, y], RED) and _near(px[x + 6, y + 6], RED)
    # The "5" label on the empty K10: some red pixels near the point.
    kx, ky = pixel_of(BOARD, "K10")
    reds = sum(
        1 for dx in range(-8, 9) for dy in range(-10, 11) if _near(px[kx + dx, ky + dy], RED, 60)
    )
    assert reds > 5
    plain = _image(Board(size=15, stones={}))
    ppx = plain.load()
    assert ppx is not None
    assert not _near(ppx[kx + 2, ky + 2], RED, 60)


def test_png_labels_change_the_margin() -> None:
    assert image_size(BOARD, labels=True)[0] > image_size(BOARD, labels=False)[0]
    with_labels = _image(Board(size=15, stones={}))
    # Column letters are drawn in the top margin above column A.
    x, _ = pixel_of(BOARD, "A15")
    dark = sum(
        1
        for dx in range(-6, 7)
        for y in range(4, 28)
        if sum(with_labels.getpixel((x + dx, y))) < 300
    )
    assert dark > 5


def test_other_board_sizes() -> None:
    small = Board(size=9, stones={"E5": 0, "I9": 1}, last="I9")
    img = _image(small)
    assert img.size == image_size(small)
    assert _near(img.getpixel(pixel_of(small, "E5")), (0, 0, 0))


def test_bad_point_is_an_error() -> None:
    with pytest.raises(ValueError):
        render_board_png(Board(size=15, stones={"P1": 0}))
    with pytest.raises(ValueError):
        render_board_text(Board(size=15, stones={"A16": 0}))


def test_text_fallback() -> None:
    text = render_board_text(BOARD)
    lines = text.splitlines()
    assert lines[0].split() == list("ABCDEFGHIJKLMNO")
    row8 = next(line for line in lines if line.split()[0] == "8")
    assert row8.split()[0] == "8" and row8.split()[-1] == "8"
    assert row8.index("X") == lines[0].index("H")  # the stone sits under its column letter
    row7 = next(line for line in lines if line.split()[0] == "7")
    assert "(X)" in row7 and row7.index("(X)") + 1 == lines[0].index("G")
    row15 = next(line for line in lines if line.split()[0] == "15")
    assert row15.rstrip().endswith("O  15")
    row10 = next(line for line in lines if line.split()[0] == "10")
    assert row10[lines[0].index("K")] == "5"  # an empty marked point shows its label
    row1 = next(line for line in lines if line.split()[0] == "1")
    assert row1[lines[0].index("A")] == "X"
    assert lines[-1] == "marks: J9 ×, K10 5"
    assert sum(line.count("X") for line in lines[1:16]) == 3
    assert sum(line.count("O") for line in lines[1:16]) == 2
    assert len({len(line.rstrip()) for line in lines[1:16]}) <= 2  # aligned columns


def test_renderer_does_not_name_a_game() -> None:
    import bot.render.board as module

    source = Path(module.__file__).read_text(encoding="utf-8").lower()
    for word in ("gomoku", "renju", "五子棋", "禁手"):
        assert word not in source


def test_docstring_example() -> None:
    import doctest

    import bot.render.board as module

    result = doctest.testmod(module)
    assert result.attempted > 0 and result.failed == 0
