"""Reading a board game's table message in SimCord: the attached PNG and the text board.

The table message of a board game carries ``board.png`` (shown as the embed image) and a
monospace fallback in a code block of the embed description (``X`` black, ``O`` white, the
last stone in parentheses, a ``marks:`` line). These helpers read both back so a scenario can
check that the picture and the text show the same position.
"""

from __future__ import annotations

import io
import re
from dataclasses import dataclass, field
from typing import Any

import discord
from PIL import Image

from bot.render.board import BACKGROUND, RED, image_size, pixel_of
from engines.base import Board

_BLOCK = re.compile(r"```\n(.*?)\n```", re.DOTALL)
STONE_RGB = {"X": (0, 0, 0), "O": (255, 255, 255)}


@dataclass(frozen=True)
class TextBoard:
    """The text fallback as read back: stones by point (``X``/``O``), the last stone, marks."""

    size: int
    stones: dict[str, str]
    last: str | None
    marks: dict[str, str] = field(default_factory=dict)

    def as_board(self) -> Board:
        colours = {"X": 0, "O": 1}
        return Board(size=self.size, stones={p: colours[s] for p, s in self.stones.items()},
                     last=self.last, marks=dict(self.marks))


def text_board(message: discord.Message) -> TextBoard | None:
    """The board drawn in the embed description's code block, or None if there is none."""
    if not message.embeds:
        return None
    found = _BLOCK.search(message.embeds[0].description or "")
    if found is None:
        return None
    lines = found[1].split("\n")
    letters = lines[0].split()
    size = len(letters)
    width = len(str(size))
    stones: dict[str, str] = {}
    last = None
    marks: dict[str, str] = {}
    for line in lines[1:]:
        if line.startswith("marks: "):
            for item in line[len("marks: "):].split(", "):
                point, label = item.split(" ", 1)
                marks[point] = label
            continue
        label = line[:width].strip()
        if not label.isdigit():
            continue  # the column letters again
        for col, letter in enumerate(letters):
            before, cell = line[width + 2 * col], line[width + 2 * col + 1]
            point = f"{letter}{label}"
            if cell in STONE_RGB:
                stones[point] = cell
            if before == "(":
                last = point
    return TextBoard(size=size, stones=stones, last=last, marks=marks)


async def board_image(message: discord.Message) -> Image.Image | None:
    """The decoded ``board.png`` the embed shows, or None if the message carries none."""
    if not message.embeds or message.embeds[0].image.url != "attachment://board.png":
        return None
    files = [a for a in message.attachments if a.filename == "board.png"]
    if len(files) != 1:
        return None
    image = Image.open(io.BytesIO(await files[0].read()))
    assert image.format == "PNG"
    image.load()
    return image.convert("RGB")


def image_mismatches(image: Image.Image, board: TextBoard) -> list[str]:
    """Points where the PNG does not show what the text board says (empty list: they agree).

    Each point is probed inside its stone, off the grid lines and off a red ``×``; the last
    stone's centre must carry the red dot.
    """
    drawn = board.as_board()
    problems = []
    if image.size != image_size(drawn):
        problems.append(f"image size {image.size}, expected {image_size(drawn)}")
        return problems
    for row in range(1, board.size + 1):
        for col in range(board.size):
            point = f"{chr(ord('A') + col)}{row}"
            if point in board.marks and point not in board.stones:
                continue
            x, y = pixel_of(drawn, point)
            want = STONE_RGB[board.stones[point]] if point in board.stones else BACKGROUND
            got = image.getpixel((x + 9, y + 3))
            if got != want:
                problems.append(f"{point}: {got} instead of {want}")
    if board.last is not None:
        centre = image.getpixel(pixel_of(drawn, board.last))
        if centre != RED:
            problems.append(f"last stone {board.last} has no red dot ({centre})")
    return problems


def red_pixels_near(image: Image.Image, board: TextBoard, point: str) -> int:
    """How many red pixels the PNG has within a third of a cell of ``point`` (a mark)."""
    x, y = pixel_of(board.as_board(), point)
    return sum(1 for dx in range(-12, 13) for dy in range(-12, 13)
               if image.getpixel((x + dx, y + dy)) == RED)


def five_through(stones: dict[str, Any], point: str) -> bool:
    """Whether the stone on ``point`` is part of five or more of its colour in a line."""
    colour = stones[point]
    col, row = ord(point[0]) - ord("A"), int(point[1:])
    for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
        run = 1
        for sign in (1, -1):
            c, r = col + sign * dc, row + sign * dr
            while stones.get(f"{chr(ord('A') + c)}{r}") == colour:
                run += 1
                c, r = c + sign * dc, r + sign * dr
        if run >= 5:
            return True
    return False


def field_value(message: discord.Message, name: str) -> str | None:
    """The value of the embed field called ``name`` (e.g. "Last hand"), if any."""
    for embed_field in message.embeds[0].fields if message.embeds else []:
        if embed_field.name == name:
            return embed_field.value
    return None


def seat_detail(message: discord.Message, seat: int) -> str:
    """What the table message shows for a seat (0-based): role, status."""
    for embed_field in message.embeds[0].fields:
        if re.match(rf"(▶ )?{seat + 1}\. ", embed_field.name):
            return embed_field.value
    raise AssertionError(f"no seat {seat + 1} on the table message")
