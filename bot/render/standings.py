"""排名图: the standings of an event as a picture, drawn with Pillow in the pictures' font.

``standings_picture`` lays out a title and one row per player (place, name, chips; tied
players share a place), the leaders highlighted; ``render_standings`` turns it into PNG bytes
off the event loop. The texts come in already translated (the caller's catalogue), so this
module knows no language.
"""

from __future__ import annotations

import asyncio
import hashlib
import io
from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from bot.render.pictures import font

ROWS = 24
"""Rows drawn at most (a 1,000-player field shows its top; the text lists the rest)."""

WIDTH, ROW, PAD = 560, 34, 18
BACKGROUND, HEAD, TEXT, MUTED = (22, 92, 58), (250, 246, 230), (240, 240, 235), (170, 200, 180)
MEDALS = ((236, 196, 64), (200, 204, 210), (205, 140, 80))


@dataclass(frozen=True)
class StandingsPicture:
    """What the picture shows: ``rows`` are (place, name, chips), best first; ``more`` the
    line under the rows when the field has more players than ``ROWS`` (else empty)."""

    title: str
    rows: tuple[tuple[int, str, int], ...]
    more: str = ""

    @property
    def filename(self) -> str:
        digest = hashlib.sha256(repr(self).encode()).hexdigest()[:16]
        return f"standings-{digest}.png"


def standings_picture(title: str, rows: Sequence[tuple[int, str, int]], more: str = ""
                      ) -> StandingsPicture:
    """The picture's description: the first ``ROWS`` rows, ``more`` said below them if cut."""
    return StandingsPicture(title, tuple(rows[:ROWS]), more if len(rows) > ROWS else "")


def draw(picture: StandingsPicture) -> bytes:
    """The picture as PNG bytes."""
    lines = len(picture.rows) + (1 if picture.more else 0)
    height = PAD * 2 + ROW + 8 + ROW * lines
    image = Image.new("RGB", (WIDTH, height), BACKGROUND)
    pen = ImageDraw.Draw(image)
    big, small = font(22), font(18)
    pen.text((PAD, PAD), picture.title, font=big, fill=HEAD)
    y = PAD + ROW + 8
    for place, name, chips in picture.rows:
        colour = MEDALS[place - 1] if place <= len(MEDALS) else TEXT
        if place <= len(MEDALS):
            pen.ellipse((PAD, y + 4, PAD + 24, y + 28), fill=colour)
            pen.text((PAD + 12, y + 16), str(place), font=small, fill=BACKGROUND, anchor="mm")
        else:
            pen.text((PAD + 12, y + 16), str(place), font=small, fill=MUTED, anchor="mm")
        pen.text((PAD + 40, y + 16), name[:28], font=small, fill=TEXT, anchor="lm")
        pen.text((WIDTH - PAD, y + 16), str(chips), font=small, fill=colour, anchor="rm")
        y += ROW
    if picture.more:
        pen.text((PAD + 40, y + 16), picture.more, font=small, fill=MUTED, anchor="lm")
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=True)
    return out.getvalue()


async def render_standings(picture: StandingsPicture) -> bytes:
    """``draw`` in a worker thread, so the tables of the process go on meanwhile."""
    return await asyncio.to_thread(draw, picture)
