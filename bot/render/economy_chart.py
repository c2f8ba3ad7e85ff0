"""货币供应图: the money supply over time as a PNG line chart (Pillow, no fonts needed)."""

from __future__ import annotations

import io
from collections.abc import Sequence
from datetime import UTC, datetime

from PIL import Image, ImageDraw

WIDTH, HEIGHT = 640, 280
MARGIN_LEFT, MARGIN_RIGHT, MARGIN_TOP, MARGIN_BOTTOM = 90, 20, 20, 40


def _short(amount: int) -> str:
    for size, unit in ((10**12, "T"), (10**9, "G"), (10**6, "M"), (10**3, "k")):
        if abs(amount) >= size:
            return f"{amount / size:.1f}{unit}"
    return str(amount)


def supply_chart(series: Sequence[tuple[float, int]]) -> bytes:
    """A PNG of (day start, supply) points: the line, the lowest and highest supply on the
    left axis and the first and last day below."""
    image = Image.new("RGB", (WIDTH, HEIGHT), (255, 255, 255))
    draw = ImageDraw.Draw(image)
    left, right = MARGIN_LEFT, WIDTH - MARGIN_RIGHT
    top, bottom = MARGIN_TOP, HEIGHT - MARGIN_BOTTOM
    draw.line([(left, top), (left, bottom), (right, bottom)], fill=(0, 0, 0), width=1)
    if series:
        values = [v for _, v in series]
        low, high = min(values), max(values)
        span = (high - low) or 1
        step = (right - left) / max(1, len(series) - 1)
        points = [
            (left + i * step, bottom - (v - low) / span * (bottom - top))
            for i, (_, v) in enumerate(series)
        ]
        if len(points) == 1:
            points.append((right, points[0][1]))
        draw.line(points, fill=(200, 40, 40), width=2)
        draw.text((4, top), _short(high), fill=(0, 0, 0))
        draw.text((4, bottom - 10), _short(low), fill=(0, 0, 0))
        for x, (at, _) in ((left, series[0]), (right - 60, series[-1])):
            day = datetime.fromtimestamp(at, UTC).strftime("%Y-%m-%d")
            draw.text((x, bottom + 8), day, fill=(0, 0, 0))
    out = io.BytesIO()
    image.save(out, format="PNG")
    return out.getvalue()
