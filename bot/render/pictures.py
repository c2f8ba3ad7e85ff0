"""牌面图: pictures of a hand and of a table, drawn with Pillow from the games' faces.

A game says what its notation shows through ``GameSpec.faces`` (``engines.base.Face``); this
module draws those faces — playing cards (suits, ranks, 小王 / 大王), mahjong tiles (万 筒 条,
winds, dragons) and word tiles — and lays them out:

- ``hand_picture``: a seat's private picture: its hand, its melds, cards others show to it,
  the table's cards (the last play, the kitty) as its view tells them;
- ``table_picture``: the public table: the seats around it with name, role, cards left, open
  cards, melds and discards, and in the middle the lines that carry cards (last play, kitty).

Both build a plain, frozen description first; ``render`` turns a description into PNG bytes,
cached by the digest of the description, so an unchanged picture is never drawn twice and
its file name (``table-<digest>.png``) tells whether a message already carries it.

Text is set in Noto Sans CJK (SIL Open Font License 1.1), installed by the
``cvttf-notosanscjk-regular`` package, so 大王 / 地主 / 万 render; where it is missing a
system CJK font is used, else Pillow's default font (no Chinese glyphs).

    python -m bot.render.pictures --demo docs/img
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import importlib.util
import io
import os
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from bot.i18n import render as render_text
from bot.i18n import t
from engines.base import Face, FaceKind, Shown, Text, View, no_faces

Faces = Callable[[str], "tuple[Face, ...] | None"]

VERSION = 3
"""Part of every digest: bump it when the drawing changes, so cached pictures are redrawn."""

FONT_PACKAGE = "cvttf_NotoSansCJK_Regular"
"""The pip package (``cvttf-notosanscjk-regular``) that ships Noto Sans CJK."""

SYSTEM_FONTS = (
    "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc",
    "/usr/share/fonts/noto-cjk/NotoSansCJK-Regular.ttc",
    "/usr/share/fonts/truetype/wqy/wqy-microhei.ttc",
    "/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc",
)

CARD_ARGS = ("cards", "card", "tiles", "tile")
"""Arguments of a view line that may hold cards in notation (the last play, the kitty)."""

FELT = (22, 96, 58)
PANEL = (14, 66, 40)
WHITE = (255, 255, 255)
GOLD = (250, 204, 60)
INK = (25, 25, 25)
RED = (205, 30, 40)
GREEN = (20, 130, 70)
BLUE = (40, 80, 170)
EDGE = (120, 120, 120)
IVORY = (252, 248, 234)
BACKDROP = (30, 34, 40)
RIM = (90, 60, 30)
BACK_STRIPE = (70, 110, 200)
SEAT_DETAIL = (200, 230, 210)


# --- font --------------------------------------------------------------------------------------
@lru_cache(maxsize=1)
def font_path() -> str | None:
    """The CJK font file: the package's, else a system one; None if there is none."""
    spec = importlib.util.find_spec(FONT_PACKAGE)
    for folder in (spec.submodule_search_locations or []) if spec is not None else []:
        for name in sorted(os.listdir(folder)):
            if name.lower().endswith((".otf", ".ttf", ".ttc")):
                return os.path.join(folder, name)
    return next((p for p in SYSTEM_FONTS if os.path.exists(p)), None)


@lru_cache(maxsize=16)
def font(px: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """The picture font at ``px`` pixels (see ``font_path``)."""
    path = font_path()
    if path is not None:
        return ImageFont.truetype(path, px)
    try:
        return ImageFont.load_default(size=px)
    except TypeError:  # pragma: no cover - Pillow without FreeType
        return ImageFont.load_default()


# --- what a picture shows ----------------------------------------------------------------------
@dataclass(frozen=True)
class Row:
    """One line of faces, with a caption above it ("" for none)."""

    caption: str
    faces: tuple[Face, ...]


@dataclass(frozen=True)
class SeatPicture:
    """One seat at the table: who, what is known of it, what lies open in front of it."""

    name: str
    detail: str
    acting: bool
    count: int | None
    rows: tuple[Row, ...]


@dataclass(frozen=True)
class TablePicture:
    """The public table: the title, the seats in order, and the card lines in the middle."""

    title: str
    seats: tuple[SeatPicture, ...]
    centre: tuple[Row, ...]


@dataclass(frozen=True)
class HandPicture:
    """A seat's private picture: rows of faces, the hand first."""

    rows: tuple[Row, ...]


@dataclass(frozen=True)
class Picture:
    """A rendered picture: PNG bytes, the digest of what it shows, the file name to send."""

    png: bytes
    digest: str
    filename: str


def digest(picture: TablePicture | HandPicture) -> str:
    """The content key of a description: equal descriptions draw equal pictures."""
    return hashlib.sha256(f"{VERSION}{picture!r}".encode()).hexdigest()[:20]


def content_named(filename: str) -> bool:
    """Whether a file name is one ``render`` gives (it names the content: same name, same
    picture), so a message carrying it needs no new upload."""
    prefix, _, rest = filename.partition("-")
    return prefix in ("table", "hand") and len(rest) == 24 and rest.endswith(".png")


def card_rows(lines: Iterable[Text], faces: Faces, locale: str, *, limit: int = 4,
              suited: Sequence[str | None] = ()) -> tuple[Row, ...]:
    """The view lines that carry cards (``CARD_ARGS``) as captioned rows, the last ``limit``;
    ``suited[k]``, where given, is drawn for line k's cards instead (``Shown.lines``)."""
    rows = []
    for k, line in enumerate(lines):
        twin = suited[k] if k < len(suited) else None
        for key in CARD_ARGS:
            value = line.args.get(key)
            if twin and isinstance(value, str):
                value = twin
            shown = faces(value) if isinstance(value, str) else None
            if shown:
                rows.append(Row(render_text(line, locale), shown))
                break
    return tuple(rows[-limit:])


def _faces(faces: Faces, notation: str | None, twin: str | None = None) -> tuple[Face, ...]:
    """The faces of ``notation``, drawn from its suited ``twin`` (``View.shown``) if any."""
    if twin:
        notation = twin
    return (faces(notation) or ()) if notation else ()


def hand_picture(faces: Faces, view: View, seat: int, names: Sequence[str], locale: str
                 ) -> HandPicture | None:
    """What ``seat`` sees of its own cards, as a picture; None when nothing can be drawn.

    Only ``view`` (the seat's own view) is read, so it holds nothing the seat may not see.
    Where the view carries the suited twin of its cards (``View.shown``), that is drawn."""
    shown = view.shown or Shown()
    mine, twin = (view.hand, shown.hand) if view.hand is not None else (
        (view.seats[seat].cards, shown.seat(seat)) if seat < len(view.seats) else (None, None))
    rows = []
    hand = _faces(faces, mine, twin)
    if hand:
        rows.append(Row("", hand))
    if seat < len(view.seats) and view.seats[seat].melds:
        melds = _faces(faces, view.seats[seat].melds)
        if melds:
            rows.append(Row(t("hand.melds", locale, melds=""), melds))
    for i, sv in enumerate(view.seats):
        open_cards = _faces(faces, sv.cards, shown.seat(i)) if i != seat and sv.cards else ()
        if open_cards:
            name = names[i] if i < len(names) else f"#{i + 1}"
            rows.append(Row(t("hand.shown", locale, name=name, cards=""), open_cards))
    for row in card_rows(view.lines, faces, locale, limit=2, suited=shown.lines):
        if all(row.faces != earlier.faces for earlier in rows):
            rows.append(row)
    return HandPicture(tuple(rows)) if rows else None


def table_picture(faces: Faces, view: View, title: str, names: Sequence[str],
                  acting: Iterable[int], locale: str) -> TablePicture | None:
    """The public table as a picture, from the public view only; None when the game draws no
    faces (its ``GameSpec.faces`` is the default). Open cards and the lines' cards are drawn
    from their suited twin where the view carries one (``View.shown``)."""
    if faces is no_faces:
        return None
    acting = set(acting)
    suited = view.shown or Shown()
    seats = []
    for i, sv in enumerate(view.seats):
        parts = []
        if sv.role is not None:
            parts.append(render_text(sv.role, locale))
        if sv.status is not None:
            parts.append(render_text(sv.status, locale))
        rows = []
        for notation, twin in ((sv.cards, suited.seat(i)), (sv.melds, None)):
            shown = _faces(faces, notation, twin)
            if shown:
                rows.append(Row("", shown))
        discards = _faces(faces, sv.discards)
        if discards:
            rows.append(Row("", tuple(f if not f.gap else Face(f.kind, f.label, f.suit, f.red)
                                      for f in discards[-24:])))
        name = names[i] if i < len(names) else f"#{i + 1}"
        seats.append(SeatPicture(f"{i + 1}. {name}"[:24], " · ".join(parts)[:40], i in acting,
                                 sv.count if not sv.cards else None, tuple(rows)))
    return TablePicture(title, tuple(seats),
                        card_rows(view.lines, faces, locale, suited=suited.lines))


# --- drawing one face --------------------------------------------------------------------------
@dataclass(frozen=True)
class Size:
    """A face size: width, height, and the step between overlapping faces in a row."""

    w: int
    h: int
    step: int


CARD_BIG = Size(70, 98, 32)
CARD_MID = Size(48, 68, 22)
CARD_SMALL = Size(34, 48, 16)
TILE_BIG = Size(44, 62, 46)
TILE_MID = Size(34, 48, 36)
TILE_SMALL = Size(24, 34, 25)

_NUMERALS = "一二三四五六七八九"
_PIPS: dict[int, tuple[tuple[float, float], ...]] = {
    1: ((.5, .5),),
    2: ((.5, .27), (.5, .73)),
    3: ((.25, .2), (.5, .5), (.75, .8)),
    4: ((.3, .27), (.7, .27), (.3, .73), (.7, .73)),
    5: ((.28, .22), (.72, .22), (.5, .5), (.28, .78), (.72, .78)),
    6: ((.3, .18), (.7, .18), (.3, .5), (.7, .5), (.3, .82), (.7, .82)),
    7: ((.22, .13), (.5, .24), (.78, .35), (.3, .6), (.7, .6), (.3, .86), (.7, .86)),
    8: ((.3, .13), (.7, .13), (.3, .38), (.7, .38), (.3, .62), (.7, .62), (.3, .87), (.7, .87)),
    9: tuple((x, y) for y in (.17, .5, .83) for x in (.22, .5, .78)),
}


def is_tile(face: Face) -> bool:
    return face.kind is FaceKind.TILE


def suit_shape(draw: ImageDraw.ImageDraw, suit: str, cx: float, cy: float, s: float,
               colour: tuple[int, int, int]) -> None:
    """A suit symbol (♠ ♥ ♣ ♦) of half-size ``s`` centred on (cx, cy), drawn as shapes so it
    needs no font."""
    r = s * 0.52
    if suit == "d":
        draw.polygon([(cx, cy - s), (cx + s * 0.72, cy), (cx, cy + s), (cx - s * 0.72, cy)],
                     fill=colour)
    elif suit == "h":
        for dx in (-1, 1):
            draw.ellipse([cx + dx * r - r, cy - s * 0.38 - r, cx + dx * r + r, cy - s * 0.38 + r],
                         fill=colour)
        draw.polygon([(cx - s * 1.02, cy - s * 0.25), (cx + s * 1.02, cy - s * 0.25), (cx, cy + s)],
                     fill=colour)
    elif suit == "s":
        for dx in (-1, 1):
            draw.ellipse([cx + dx * r - r, cy + s * 0.2 - r, cx + dx * r + r, cy + s * 0.2 + r],
                         fill=colour)
        draw.polygon([(cx - s * 1.02, cy + s * 0.08), (cx + s * 1.02, cy + s * 0.08), (cx, cy - s)],
                     fill=colour)
        draw.polygon([(cx, cy + s * 0.2), (cx - s * 0.4, cy + s), (cx + s * 0.4, cy + s)],
                     fill=colour)
    elif suit == "c":
        q = s * 0.44
        for px, py in ((cx, cy - s * 0.48), (cx - s * 0.52, cy + s * 0.12),
                       (cx + s * 0.52, cy + s * 0.12)):
            draw.ellipse([px - q, py - q, px + q, py + q], fill=colour)
        draw.ellipse([cx - q * 0.6, cy - q * 0.6, cx + q * 0.6, cy + q * 0.6], fill=colour)
        draw.polygon([(cx, cy), (cx - s * 0.4, cy + s), (cx + s * 0.4, cy + s)], fill=colour)


def star(draw: ImageDraw.ImageDraw, cx: float, cy: float, s: float,
         fill: tuple[int, int, int] | None, outline: tuple[int, int, int]) -> None:
    """A five-pointed star of radius ``s``: the jokers' emblem."""
    import math

    points = []
    for k in range(10):
        radius = s if k % 2 == 0 else s * 0.42
        angle = -math.pi / 2 + k * math.pi / 5
        points.append((cx + radius * math.cos(angle), cy + radius * math.sin(angle)))
    draw.polygon(points, fill=fill, outline=outline, width=2)


def draw_face(img: Image.Image, face: Face, x: int, y: int, size: Size) -> None:
    """Draw one face with its top-left corner at (x, y)."""
    draw = ImageDraw.Draw(img)
    w, h = size.w, size.h
    if face.kind is FaceKind.TILE:
        _tile(draw, face, x, y, w, h)
        return
    if face.kind is FaceKind.BACK:
        draw.rounded_rectangle([x, y, x + w, y + h], radius=max(3, w // 10), fill=BLUE,
                               outline=WHITE, width=2)
        for k in range(-h, w, 7):
            draw.line([(x + max(k, 0) + 3, y + max(-k, 0) + 3),
                       (x + min(k + h, w) - 3, y + min(h, w - k) - 3)], fill=BACK_STRIPE)
        if face.label:
            draw.text((x + w / 2, y + h / 2), face.label, fill=WHITE, font=font(int(h * 0.36)),
                      anchor="mm", stroke_width=2, stroke_fill=BLUE)
        return
    draw.rounded_rectangle([x, y, x + w, y + h], radius=max(3, w // 10), fill=WHITE,
                           outline=EDGE, width=1)
    colour = RED if face.red else INK
    if face.kind is FaceKind.JOKER:
        px = int(w * 0.3)
        for k, ch in enumerate(face.label):
            draw.text((x + 4 + px / 2, y + 4 + k * px * 1.1), ch, fill=colour, font=font(px),
                      anchor="mt")
        star(draw, x + w * 0.68, y + h * 0.64, w * 0.27, RED if face.red else None, colour)
        return
    rank_px = int(h * 0.25)
    draw.text((x + w * 0.2, y + 4), face.label, fill=colour, font=font(rank_px), anchor="mt")
    if face.suit:
        suit_shape(draw, face.suit, x + w * 0.2, y + 8 + rank_px * 1.35, w * 0.1, colour)
        suit_shape(draw, face.suit, x + w * 0.7, y + h * 0.66, w * 0.2, colour)
    else:
        draw.text((x + w * 0.74, y + h * 0.66), face.label, fill=colour,
                  font=font(int(h * 0.38)), anchor="mm")


def _tile(draw: ImageDraw.ImageDraw, face: Face, x: int, y: int, w: int, h: int) -> None:
    draw.rounded_rectangle([x, y, x + w, y + h], radius=max(3, w // 8), fill=GREEN)
    draw.rounded_rectangle([x, y, x + w, y + h - max(3, h // 12)], radius=max(3, w // 8),
                           fill=IVORY, outline=EDGE, width=1)
    inner = (x + w * 0.12, y + h * 0.08, w * 0.76, h * 0.76)
    colour = RED if face.red else INK
    if face.suit == "m" and face.label.isdigit():
        px = int(h * 0.34)
        draw.text((x + w / 2, y + h * 0.27), _NUMERALS[int(face.label) - 1], fill=INK,
                  font=font(px), anchor="mm")
        draw.text((x + w / 2, y + h * 0.64), "万", fill=RED, font=font(px), anchor="mm")
    elif face.suit in ("p", "s") and face.label.isdigit():
        n = int(face.label)
        ix, iy, iw, ih = inner
        radius = min(iw, ih) * (0.3 if n == 1 else 0.13 if n < 7 else 0.105)
        for k, (fx, fy) in enumerate(_PIPS[n]):
            cx, cy = ix + fx * iw, iy + fy * ih
            if face.suit == "p":
                fill = RED if (n == 1 or (n in (5, 9) and k == len(_PIPS[n]) // 2)) else BLUE
                draw.ellipse([cx - radius, cy - radius, cx + radius, cy + radius], fill=fill,
                             outline=INK)
                draw.ellipse([cx - radius / 3, cy - radius / 3, cx + radius / 3, cy + radius / 3],
                             fill=IVORY)
            else:
                stick = RED if n == 1 or (n in (5, 7, 9) and k in (0, len(_PIPS[n]) // 2)) \
                    else GREEN
                half = ih * (0.3 if n == 1 else 0.12 if n < 7 else 0.09)
                draw.rounded_rectangle([cx - radius * 0.55, cy - half, cx + radius * 0.55,
                                        cy + half], radius=2, fill=stick)
    elif face.label == "白":
        ix, iy, iw, ih = inner
        draw.rectangle([ix + iw * 0.12, iy + ih * 0.12, ix + iw * 0.88, iy + ih * 0.88],
                       outline=BLUE, width=max(2, w // 14))
    else:
        fill = GREEN if face.label == "發" else colour
        if face.suit == "w":  # 王霸: the wild word tile
            fill = RED
            draw.rectangle([x + 3, y + 3, x + w - 3, y + h - 6], outline=GOLD, width=2)
        draw.text((x + w / 2, y + h * 0.45), face.label, fill=fill, font=font(int(h * 0.5)),
                  anchor="mm")
        if face.suit == "d":  # big word tiles: a mark under the character
            draw.line([(x + w * 0.3, y + h * 0.82), (x + w * 0.7, y + h * 0.82)], fill=fill,
                      width=2)


# --- laying out ----------------------------------------------------------------------------------
def face_size(faces: Sequence[Face], big: Size, tile: Size) -> Size:
    return tile if faces and is_tile(faces[0]) else big


def strip_width(faces: Sequence[Face], size: Size) -> int:
    """Width of a row of faces drawn by ``draw_strip``."""
    if not faces:
        return 0
    gaps = sum(1 for f in faces[1:] if f.gap)
    return size.step * (len(faces) - 1) + size.w + gaps * size.w // 2


def draw_strip(img: Image.Image, faces: Sequence[Face], x: int, y: int, size: Size) -> list[
        tuple[int, int]]:
    """Draw ``faces`` left to right from (x, y); the top-left corner of each face."""
    corners = []
    for k, face in enumerate(faces):
        if k and face.gap:
            x += size.w // 2
        draw_face(img, face, x, y, size)
        corners.append((x, y))
        x += size.step
    return corners


def wrap(faces: tuple[Face, ...], per_row: int) -> list[tuple[Face, ...]]:
    return [faces[i:i + per_row] for i in range(0, len(faces), per_row)] or [()]


def _hand_image(picture: HandPicture) -> Image.Image:
    pad, caption_h = 14, 26
    blocks: list[tuple[str, list[tuple[Face, ...]], Size]] = []
    for row in picture.rows:
        size = face_size(row.faces, CARD_BIG, TILE_BIG)
        blocks.append((row.caption, wrap(row.faces, 18 if size is TILE_BIG else 20), size))
    width = max(max(strip_width(line, size) for line in lines) for _, lines, size in blocks)
    width = max(width, 200) + 2 * pad
    height = pad + sum((caption_h if caption else 0) + len(lines) * (size.h + 8)
                       for caption, lines, size in blocks) + pad
    img = Image.new("RGB", (width, height), FELT)
    draw = ImageDraw.Draw(img)
    y = pad
    for caption, lines, size in blocks:
        if caption:
            draw.text((pad, y + 2), caption[:width // 18], fill=WHITE, font=font(18))
            y += caption_h
        for line in lines:
            draw_strip(img, line, pad, y, size)
            y += size.h + 8
    return img


TABLE_SIZE = (1000, 760)
TITLE_H = 48
SEAT_W = 300

_SPOTS: dict[int, tuple[tuple[float, float], ...]] = {
    # (x, y) of each seat panel's centre below the title, seat 1 at the bottom and the next
    # seat (下家) to its right, as at a real table
    1: ((.5, .86),),
    2: ((.5, .86), (.5, .14)),
    3: ((.5, .86), (.82, .17), (.18, .17)),
    4: ((.5, .86), (.84, .5), (.5, .14), (.16, .5)),
    5: ((.5, .86), (.84, .62), (.74, .14), (.26, .14), (.16, .62)),
    6: ((.5, .86), (.84, .64), (.84, .25), (.5, .12), (.16, .25), (.16, .64)),
}


def _seat_lines(seat: SeatPicture) -> list[tuple[tuple[Face, ...], Size]]:
    """The rows of faces a seat panel draws: each row wrapped to the panel, two lines at most."""
    out = []
    for row in seat.rows:
        size = face_size(row.faces, CARD_SMALL, TILE_SMALL)
        per_row = max(1, (SEAT_W - 20 - size.w) // size.step + 1)
        out.extend((line, size) for line in wrap(row.faces, per_row)[:2])
    return out


def seat_boxes(picture: TablePicture) -> list[tuple[int, int, int, int]]:
    """(left, top, right, bottom) of each seat's panel in the table picture."""
    width, height = TABLE_SIZE
    n = len(picture.seats)
    spots = _SPOTS.get(n) or tuple(_SPOTS[6][k % 6] for k in range(n))
    boxes = []
    for (fx, fy), seat in zip(spots, picture.seats, strict=False):
        tall = min(190, 62 + sum(size.h + 4 for _, size in _seat_lines(seat)))
        cx, cy = int(fx * width), TITLE_H + int(fy * (height - TITLE_H))
        top = min(max(TITLE_H, cy - tall // 2), height - tall - 6)
        boxes.append((cx - SEAT_W // 2, top, cx + SEAT_W // 2, top + tall))
    return boxes


def _table_image(picture: TablePicture) -> Image.Image:
    width, height = TABLE_SIZE
    img = Image.new("RGB", (width, height), BACKDROP)
    draw = ImageDraw.Draw(img)
    draw.ellipse([40, TITLE_H + 20, width - 40, height - 20], fill=FELT, outline=RIM,
                 width=10)
    draw.text((width / 2, 12), picture.title, fill=WHITE, font=font(24), anchor="mt")
    for box, seat in zip(seat_boxes(picture), picture.seats, strict=False):
        _seat_panel(img, draw, box, seat)
    rows = picture.centre
    tall = sum(24 + face_size(r.faces, CARD_MID, TILE_MID).h + 10 for r in rows)
    y = TITLE_H + (height - TITLE_H) // 2 - tall // 2
    for row in rows:
        size = face_size(row.faces, CARD_MID, TILE_MID)
        draw.text((width / 2, y), row.caption[:36], fill=WHITE, font=font(17), anchor="mt")
        y += 24
        line = row.faces[:20]
        x = width // 2 - strip_width(line, size) // 2
        draw_strip(img, line, x, y, size)
        y += size.h + 10
    return img


def _seat_panel(img: Image.Image, draw: ImageDraw.ImageDraw, box: tuple[int, int, int, int],
                seat: SeatPicture) -> None:
    left, top, right, bottom = box
    draw.rounded_rectangle(box, radius=12, fill=PANEL, outline=GOLD if seat.acting else PANEL,
                           width=3)
    name = ("▶ " if seat.acting else "") + seat.name
    draw.text((left + 10, top + 8), name, fill=GOLD if seat.acting else WHITE, font=font(19))
    draw.text((left + 10, top + 34), seat.detail, fill=SEAT_DETAIL, font=font(15))
    if seat.count is not None:
        draw_face(img, Face(FaceKind.BACK, str(seat.count)), right - 46, top + 8, CARD_SMALL)
    y = top + 58
    for line, size in _seat_lines(seat):
        if y + size.h > bottom - 2:
            return
        draw_strip(img, line, left + 10, y, size)
        y += size.h + 4


# --- rendering with a cache ---------------------------------------------------------------------
_CACHE: OrderedDict[str, bytes] = OrderedDict()
_LOCK = threading.Lock()
CACHE_SIZE = 256

_INKS = (FELT, PANEL, WHITE, GOLD, INK, RED, GREEN, BLUE, EDGE, IVORY, BACKDROP, RIM,
         BACK_STRIPE, SEAT_DETAIL)
_GROUNDS = (FELT, PANEL, WHITE, IVORY, BACKDROP)


@lru_cache(maxsize=1)
def _palette() -> Image.Image:
    """The pictures' one palette: every colour drawn, and three steps of each blended into each
    background (the edges of antialiased text and shapes): 14 + 14 × 5 × 3 = 224 colours. Mapping to a fixed palette is a
    nearest-colour lookup, about seven times quicker than finding a palette per picture."""
    colours: list[tuple[int, int, int]] = list(_INKS)
    for ink in _INKS:
        for ground in _GROUNDS:
            for step in (1, 2, 3):
                mix = tuple(round(i + (g - i) * step / 4) for i, g in zip(ink, ground, strict=True))
                colours.append(mix)  # type: ignore[arg-type]
    flat = [c for colour in colours[:256] for c in colour]
    holder = Image.new("P", (1, 1))
    holder.putpalette(flat + [0] * (768 - len(flat)))
    return holder


def _draw(picture: TablePicture | HandPicture) -> bytes:
    img = _table_image(picture) if isinstance(picture, TablePicture) else _hand_image(picture)
    out = io.BytesIO()
    # a palette PNG: the picture is flat colours and text, so it is half the bytes of RGB and
    # quicker to write, on every redraw of a table
    img.quantize(palette=_palette(), dither=Image.Dither.NONE).save(
        out, format="PNG", compress_level=3)
    return out.getvalue()


def _cached(key: str) -> bytes | None:
    with _LOCK:
        png = _CACHE.get(key)
        if png is not None:
            _CACHE.move_to_end(key)
        return png


def _named(picture: TablePicture | HandPicture, key: str, png: bytes) -> Picture:
    kind = "table" if isinstance(picture, TablePicture) else "hand"
    return Picture(png, key, f"{kind}-{key}.png")


def render(picture: TablePicture | HandPicture) -> Picture:
    """The picture as PNG, drawn once per content (an LRU cache keyed by ``digest``, shared
    by the event loop and the worker threads of ``render_async``)."""
    key = digest(picture)
    png = _cached(key)
    if png is None:
        png = _draw(picture)
        with _LOCK:
            _CACHE[key] = png
            while len(_CACHE) > CACHE_SIZE:
                _CACHE.popitem(last=False)
    return _named(picture, key, png)


async def render_async(picture: TablePicture | HandPicture) -> Picture:
    """``render`` without holding up the event loop: a picture not in the cache is drawn in a
    worker thread (Pillow releases the GIL while it draws text and encodes), so the other
    tables of the process go on meanwhile; a cached one is returned at once."""
    key = digest(picture)
    png = _cached(key)
    if png is not None:
        return _named(picture, key, png)
    return await asyncio.to_thread(render, picture)


# --- demo -----------------------------------------------------------------------------------------
def demo(folder: Path) -> list[Path]:
    """Write a 斗地主 hand and its table, and a mahjong hand, as PNGs into ``folder``."""
    from engines import registry
    from engines.base import Setup

    folder.mkdir(parents=True, exist_ok=True)
    spec = registry.get("doudizhu")
    game = spec.new(Setup(seats=3, seed=2028, options=spec.options))
    while game.phase() != "play" or len(game.log) < 6:
        seat = game.to_act()[0]
        game.apply(seat, game.trustee(seat))
    names = ("安妮", "Bob", "小明")
    seat = game.to_act()[0]
    written = []
    hand = hand_picture(spec.faces, game.view(seat), seat, names, "zh-CN")
    table = table_picture(spec.faces, game.view(None), f"{spec.name_zh} · 新手场", names,
                          game.public_to_act(), "zh-CN")
    for name, picture in (("hand.png", hand), ("table.png", table)):
        assert picture is not None
        path = folder / name
        path.write_bytes(render(picture).png)
        written.append(path)
    mahjong = registry.get("sichuan")
    game = mahjong.new(Setup(seats=4, seed=7, options=mahjong.options))
    while len(game.log) < 12:
        seat = game.to_act()[0]
        game.apply(seat, game.trustee(seat))
    picture = table_picture(mahjong.faces, game.view(None), mahjong.name_zh,
                            ("东家", "南家", "西家", "北家"), game.public_to_act(), "zh-CN")
    assert picture is not None
    path = folder / "mahjong.png"
    path.write_bytes(render(picture).png)
    written.append(path)
    return written


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description="Draw the README's example pictures.")
    parser.add_argument("--demo", type=Path, required=True, metavar="FOLDER")
    for written_path in demo(parser.parse_args().demo):
        print(written_path)
