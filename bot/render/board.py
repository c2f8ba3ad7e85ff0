"""Board images and text for grid board games: any ``engines.base.Board``.

Conventions (the engine's notation): points are named ``<column letter><row number>`` with
columns ``A, B, C …`` left to right (no letter skipped) and row ``1`` at the bottom.
``stones`` maps a point to a colour index: 0 black, 1 white, further indices get other
colours. ``last`` is marked with a small red dot. ``marks`` map a point to a short label:
``×`` / ``x`` draws a red cross, anything else is written in red on the point.
"""

from __future__ import annotations

import io
import re

from PIL import Image, ImageDraw, ImageFont

from engines.base import Board

CELL = 36
"""Pixels between two grid lines."""

MARGIN_LABELS = 46
MARGIN_PLAIN = 22

BACKGROUND = (222, 184, 107)
GRID = (40, 30, 20)
RED = (210, 30, 30)
STONE_FILL: tuple[tuple[int, int, int], ...] = (
    (0, 0, 0),
    (255, 255, 255),
    (200, 40, 40),
    (40, 80, 200),
    (40, 160, 60),
)
STONE_EDGE = (30, 30, 30)
TEXT_STONES = "XOABCDEFG"

_POINT = re.compile(r"([A-Za-z])(\d{1,2})")


def point_xy(name: str, size: int) -> tuple[int, int]:
    """(column, row) of a point name, row 0 at the bottom; ValueError if off the board."""
    m = _POINT.fullmatch(name.strip())
    if m is None:
        raise ValueError(f"not a point: {name!r}")
    col = ord(m.group(1).upper()) - ord("A")
    row = int(m.group(2)) - 1
    if not (0 <= col < size and 0 <= row < size):
        raise ValueError(f"{name!r} is off a {size}×{size} board")
    return col, row


def column_letter(col: int) -> str:
    return chr(ord("A") + col)


def star_points(size: int) -> list[tuple[int, int]]:
    """星位: the centre and the 4th-line corners on boards of 13 and more."""
    if size < 7:
        return []
    mid = size // 2
    pts = [(mid, mid)] if size % 2 else []
    if size >= 13:
        k = 3
        pts += [(k, k), (size - 1 - k, k), (k, size - 1 - k), (size - 1 - k, size - 1 - k)]
    return pts


def _font(px: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """The pictures' CJK font, so a mark such as 禁 renders (``bot.render.pictures.font``)."""
    from bot.render.pictures import font

    return font(px)


def image_size(board: Board, *, labels: bool = True) -> tuple[int, int]:
    """The width and height of the PNG ``render_board_png`` makes for ``board``."""
    margin = MARGIN_LABELS if labels else MARGIN_PLAIN
    side = 2 * margin + (board.size - 1) * CELL
    return side, side


def pixel_of(board: Board, name: str, *, labels: bool = True) -> tuple[int, int]:
    """The image pixel at the centre of point ``name``."""
    col, row = point_xy(name, board.size)
    margin = MARGIN_LABELS if labels else MARGIN_PLAIN
    return margin + col * CELL, margin + (board.size - 1 - row) * CELL


def render_board_png(board: Board, *, labels: bool = True) -> bytes:
    """棋盘图: the board as PNG bytes: grid, coordinates, stones, last move and marks.

    Raises ValueError if a point name is not on the board.
    """
    width, height = image_size(board, labels=labels)
    img = Image.new("RGB", (width, height), BACKGROUND)
    draw = ImageDraw.Draw(img)
    n = board.size

    def xy(col: int, row: int) -> tuple[int, int]:
        margin = MARGIN_LABELS if labels else MARGIN_PLAIN
        return margin + col * CELL, margin + (n - 1 - row) * CELL

    x0, y0 = xy(0, n - 1)
    x1, y1 = xy(n - 1, 0)
    for i in range(n):
        x, _ = xy(i, 0)
        draw.line([(x, y0), (x, y1)], fill=GRID, width=1)
        _, y = xy(0, i)
        draw.line([(x0, y), (x1, y)], fill=GRID, width=1)
    draw.rectangle([x0, y0, x1, y1], outline=GRID, width=2)
    for c, r in star_points(n):
        x, y = xy(c, r)
        draw.ellipse([x - 4, y - 4, x + 4, y + 4], fill=GRID)

    if labels:
        font = _font(14)
        for i in range(n):
            x, _ = xy(i, 0)
            for ly in (y0 - MARGIN_LABELS + 13, y1 + MARGIN_LABELS - 13):
                draw.text((x, ly), column_letter(i), fill=GRID, font=font, anchor="mm")
            _, y = xy(0, i)
            for lx in (x0 - MARGIN_LABELS + 13, x1 + MARGIN_LABELS - 13):
                draw.text((lx, y), str(i + 1), fill=GRID, font=font, anchor="mm")

    radius = CELL // 2 - 2
    for name, colour in board.stones.items():
        x, y = xy(*point_xy(name, n))
        fill = STONE_FILL[colour % len(STONE_FILL)]
        draw.ellipse(
            [x - radius, y - radius, x + radius, y + radius], fill=fill, outline=STONE_EDGE, width=1
        )

    if board.last is not None:
        x, y = xy(*point_xy(board.last, n))
        draw.ellipse([x - 5, y - 5, x + 5, y + 5], fill=RED)

    mark_font = _font(24)
    for name, label in board.marks.items():
        x, y = xy(*point_xy(name, n))
        if label in ("×", "x", "X"):
            k = CELL // 3
            draw.line([(x - k, y - k), (x + k, y + k)], fill=RED, width=4)
            draw.line([(x - k, y + k), (x + k, y - k)], fill=RED, width=4)
        else:
            draw.text(
                (x, y),
                label,
                fill=RED,
                font=mark_font,
                anchor="mm",
                stroke_width=1,
                stroke_fill=RED,
            )

    out = io.BytesIO()
    img.save(out, format="PNG", optimize=True)
    return out.getvalue()


def render_board_text(board: Board) -> str:
    """棋盘文字: a monospace grid (for a code block): ``X`` black, ``O`` white, ``.`` empty.

    The last stone is wrapped in parentheses, ``(X)``; marked empty points show the mark's
    first character when it is plain ASCII (else ``*``); a last line lists every mark.

    >>> print(render_board_text(Board(size=3, stones={"B2": 0, "A1": 1}, last="B2")))
      A B C
    3 . . .  3
    2 .(X).  2
    1 O . .  1
      A B C
    """
    n = board.size
    cells = [["."] * n for _ in range(n)]
    for name, label in board.marks.items():
        c, r = point_xy(name, n)
        ch = label[:1]
        cells[r][c] = ch if ch.isascii() and ch.isprintable() and ch != " " else "*"
    for name, colour in board.stones.items():
        c, r = point_xy(name, n)
        cells[r][c] = TEXT_STONES[colour % len(TEXT_STONES)]
    last = point_xy(board.last, n) if board.last is not None else None
    width = len(str(n))
    header = " " * (width + 1) + " ".join(column_letter(i) for i in range(n))
    lines = [header]
    for r in range(n - 1, -1, -1):
        row = ""
        for c in range(n):
            before = " "
            if last == (c, r):
                before = "("
            elif last == (c - 1, r):
                before = ")"
            row += before + cells[r][c]
        after = ")" if last == (n - 1, r) else " "
        label = str(r + 1).rjust(width)
        lines.append(f"{label}{row}{after} {label}")
    lines.append(header)
    if board.marks:
        lines.append("marks: " + ", ".join(f"{k} {v}" for k, v in sorted(board.marks.items())))
    return "\n".join(lines)
