"""牌面图: pictures of a hand and of a table, drawn with Pillow from the games' faces.

A game says what its notation shows through ``GameSpec.faces`` (``engines.base.Face``); this
module draws those faces — playing cards (suits, ranks, 小王 / 大王), mahjong tiles (万 筒 条,
winds, dragons) and word tiles — and lays them out:

- ``hand_picture``: a seat's private picture: its hand, its melds, cards others show to it,
  the table's cards (the kitty, the play to beat) as its view tells them;
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
from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from bot.i18n import render as render_text
from bot.i18n import t
from engines.base import Face, FaceKind, Shown, Text, View, no_faces

Faces = Callable[[str], "tuple[Face, ...] | None"]

VERSION = 5
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
    play: tuple[Face, ...] = ()
    """The seat's last play in the trick or round in progress (``View.round``), drawn in the
    middle of the table in front of the seat; () for none, a pass, or a game without rounds
    (where its river shows it)."""
    label: str = ""
    """A word drawn in the same place, above the play: "不出" for a pass, or what the table
    should know of the play (its ``Play.note``: 甩牌失败 and what it was forced to, 烧牌)."""


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
        value = _cards_of(line)
        if twin and value is not None:
            value = twin
        shown = faces(value) if value is not None else None
        if shown:
            rows.append(Row(render_text(line, locale), shown))
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
    extra = list(card_rows(view.lines, faces, locale, limit=2, suited=shown.lines))
    top = next(((k, p) for k, p in reversed(list(enumerate(view.round or ()))) if p.cards), None)
    if top is not None:  # the play to beat: the round's last play of cards
        k, play = top
        name = names[play.seat] if play.seat < len(names) else f"#{play.seat + 1}"
        played = _faces(faces, play.cards, shown.play(k))
        if played:
            extra.append(Row(t("round.play", locale, name=name, cards=""), played))
    for row in extra:
        if all(row.faces != earlier.faces for earlier in rows):
            rows.append(row)
    return HandPicture(tuple(rows)) if rows else None


def _cards_of(text: Text | None) -> str | None:
    """The card notation a status or line carries (``CARD_ARGS``), or None; a text nested in
    its arguments counts too (``Window.took`` wraps the family's words: "4号" + "亮 2h 2h")."""
    if text is None:
        return None
    value = next((text.args[key] for key in CARD_ARGS if key in text.args), None)
    if value is None:
        value = next((_cards_of(v) for v in text.args.values() if isinstance(v, Text)), None)
    return value if isinstance(value, str) else None


def round_plays(faces: Faces, view: View, locale: str
                ) -> dict[int, tuple[tuple[Face, ...], str, str | None]]:
    """Each seat's last play or pass in the trick or round in progress (``View.round``), as
    (faces, label, cards): its cards drawn from their suited twin where the view carries one
    (``Shown.round``); the label is the play's note, else "不出" for a pass, else "".

    Before anything is played in a new trick or round, the one just finished
    (``View.last_round``) is drawn, as the text shows it: the play that closed it (升级's
    fourth card, often a bot's) is seen, not gone at once."""
    suited = view.shown or Shown()
    plays, twin = tuple(view.round or ()), suited.play
    if not plays and view.round is not None and view.last_round is not None:
        plays, twin = view.last_round.plays, suited.last_play
    out: dict[int, tuple[tuple[Face, ...], str, str | None]] = {}
    for k, play in enumerate(plays):
        label = (render_text(play.note, locale) if play.note is not None
                 else t("round.pass", locale) if play.cards is None else "")
        out[play.seat] = (_faces(faces, play.cards, twin(k)), label, play.cards)
    return out


def table_picture(faces: Faces, view: View, title: str, names: Sequence[str],
                  acting: Iterable[int], locale: str) -> TablePicture | None:
    """The public table as a picture, from the public view only; None when the game draws no
    faces (its ``GameSpec.faces`` is the default). Open cards and the lines' cards are drawn
    from their suited twin where the view carries one (``View.shown``).

    Each seat's last play in the trick or round in progress (``View.round``: 升级's trick by
    seat, 斗地主's, 双扣's and 够级's round) is drawn in front of the seat, a pass as a "不出"
    label there and a play's note (a failed 甩牌) as a label above its cards; a line that
    names the same seat and the same cards is not drawn a second time. A game without rounds
    (麻将, 跑胡子: ``View.round`` None) draws none: a seat's discards show what it played."""
    if faces is no_faces:
        return None
    acting = set(acting)
    suited = view.shown or Shown()
    plays = round_plays(faces, view, locale)
    lines, twins = [], []
    for k, line in enumerate(view.lines):
        seat, notation = line.args.get("seat"), _cards_of(line)
        if (isinstance(seat, int) and notation and seat - 1 in plays
                and plays[seat - 1][2] == notation):
            continue
        lines.append(line)
        twins.append(suited.line(k))
    melds, river = t("picture.melds", locale), t("picture.discards", locale)
    seats = []
    for i, sv in enumerate(view.seats):
        parts = []
        if sv.role is not None:
            parts.append(render_text(sv.role, locale))
        if sv.status is not None:
            parts.append(render_text(sv.status, locale))
        rows = []
        for caption, notation, twin in (("", sv.cards, suited.seat(i)), (melds, sv.melds, None),
                                        (river, sv.discards, None)):
            shown = _faces(faces, notation, twin)
            if notation is sv.discards:  # a river is one line of discards, no groups
                shown = tuple(replace(f, gap=False) for f in shown)
            if shown:
                rows.append(Row(caption, shown))
        name = names[i] if i < len(names) else f"#{i + 1}"
        played, label, _ = plays.get(i, ((), "", None))
        seats.append(SeatPicture(f"{i + 1}. {name}"[:24], " · ".join(parts)[:60], i in acting,
                                 sv.count if not sv.cards else None, tuple(rows),
                                 played, label))
    return TablePicture(title, tuple(seats), card_rows(lines, faces, locale, suited=twins))


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
        # a small star under the word, in the corner an overlapping card leaves in sight, so a
        # 小王 in a long hand still shows its star; 大王's is red, 小王's black
        corner = w * 0.13
        star(draw, x + 4 + px / 2, y + 6 + len(face.label) * px * 1.1 + corner, corner, colour,
             colour)
        star(draw, x + w * 0.68, y + h * 0.64, w * 0.27, RED if face.red else None, colour)
        return
    rank_px = int(h * 0.27)
    _rank(draw, face.label, x + w * 0.2, y + 4, rank_px, w * 0.4, colour)
    if face.suit:
        suit_shape(draw, face.suit, x + w * 0.2, y + 8 + rank_px * 1.3, w * 0.1, colour)
        suit_shape(draw, face.suit, x + w * 0.7, y + h * 0.66, w * 0.2, colour)
    else:
        px = int(h * 0.38)
        while px > 8 and font(px).getlength(face.label) > w * 0.5:  # "10" stays on the card
            px -= 1
        draw.text((x + w * 0.72, y + h * 0.66), face.label, fill=colour, font=font(px),
                  anchor="mm")


def _rank(draw: ImageDraw.ImageDraw, label: str, cx: float, top: float, px: int, room: float,
          colour: tuple[int, int, int]) -> None:
    """A card's corner rank centred on ``cx``, no wider than ``room`` (the part of the card an
    overlapping card leaves in sight): "10" is set with its two digits closer together."""
    face = font(px)
    if len(label) == 1 or face.getlength(label) <= room:
        draw.text((cx, top), label, fill=colour, font=face, anchor="mt")
        return
    widths = [face.getlength(ch) for ch in label]
    squeeze = (sum(widths) - room) / (len(label) - 1)
    x = cx - room / 2
    for ch, width in zip(label, widths, strict=True):
        draw.text((x, top), ch, fill=colour, font=face, anchor="lt")
        x += width - squeeze


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


def _group_key(faces: Sequence[Face]) -> Callable[[Face], str]:
    """What a hand is grouped by: its suit where it is sorted by suit (升级: ♠ then ♥ …), else
    its rank (够级, 斗地主: 3s, then 4s …); a joker is its own group."""
    def suit(f: Face) -> str:
        return "J" if f.kind is FaceKind.JOKER else f.suit

    def rank(f: Face) -> str:
        return f.label

    if not all(f.suit or f.kind is FaceKind.JOKER for f in faces):
        return rank
    changes = [sum(1 for a, b in zip(faces, faces[1:], strict=False) if key(a) != key(b))
               for key in (suit, rank)]
    return suit if changes[0] < changes[1] else rank


def wrap(faces: tuple[Face, ...], size: Size, width: int) -> list[tuple[Face, ...]]:
    """``faces`` in lines no wider than ``width``: a line breaks before a group (a ``gap``: a
    meld) rather than through it, and a hand of cards between suits (or ranks, where it is
    sorted by rank), unless one group alone is wider than a line."""
    if not faces:
        return [()]
    key = _group_key(faces) if not is_tile(faces[0]) else None
    lines: list[tuple[Face, ...]] = []
    start = 0
    while start < len(faces):
        end = start + 1
        while end < len(faces) and strip_width(faces[start:end + 1], size) <= width:
            end += 1
        if end < len(faces):
            breaks = [k for k in range(start + 1, end + 1)
                      if faces[k].gap or (key is not None and key(faces[k]) != key(faces[k - 1]))]
            if breaks:
                end = breaks[-1]
        line = faces[start:end]
        if line and line[0].gap:  # a line does not open with a group's half gap
            line = (replace(line[0], gap=False), *line[1:])
        lines.append(line)
        start = end
    return lines


HAND_W = 20
"""Cards in one line of a hand picture, at most (a 39-card 够级 hand draws in two lines)."""


def hand_lines(picture: HandPicture) -> list[tuple[str, list[tuple[Face, ...]], Size]]:
    """Each row of a hand picture as (caption, its lines of faces, face size)."""
    blocks = []
    for row in picture.rows:
        size = face_size(row.faces, CARD_BIG, TILE_BIG)
        width = strip_width(row.faces[:18 if size is TILE_BIG else HAND_W], size)
        blocks.append((row.caption, wrap(row.faces, size, width), size))
    return blocks


def _hand_image(picture: HandPicture) -> Image.Image:
    pad, caption_h = 14, 26
    blocks = hand_lines(picture)
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


TABLE_W = 760
"""The table picture's width: Discord shows it about 400-520 px wide, so its faces are drawn
big enough to stay at least 18 px wide there."""
GAP = 10
TITLE_H = 40
HEADER_H = 56
CARD_TABLE = Size(52, 72, 25)
TILE_TABLE = Size(40, 56, 43)
COUNT_CARD = Size(36, 50, 16)


@dataclass(frozen=True)
class Layout:
    """Where a table picture draws: its size, each seat's panel and the place of its play
    (left, top, right, bottom; the play's None where it has none), and the middle's lines."""

    width: int
    height: int
    seats: tuple[tuple[int, int, int, int], ...]
    plays: tuple[tuple[int, int, int, int] | None, ...]
    middle: tuple[int, int, int, int]


def _panel_rows(seat: SeatPicture, inner: int) -> list[tuple[str, list[tuple[Face, ...]], Size]]:
    return [(row.caption, wrap(row.faces, size, inner), size)
            for row in seat.rows for size in (face_size(row.faces, CARD_TABLE, TILE_TABLE),)]


def _panel_height(seat: SeatPicture, inner: int) -> int:
    return HEADER_H + sum((22 if caption else 0) + len(lines) * (size.h + 4)
                          for caption, lines, size in _panel_rows(seat, inner)) + 6


def _rings(n: int) -> tuple[list[int], list[int]]:
    """The seats along the near side (seat 1 on the left, then its 下家) and along the far side
    (left to right), going round the table as players sit."""
    near = 1 if n <= 3 else n // 2
    return list(range(near)), list(range(n - 1, near - 1, -1))


LABEL_H = 28
"""The height of a seat's label (不出, a play's note) in its place at the middle."""
LABEL_PX = 20


def _play_height(seat: SeatPicture, width: int) -> int:
    """The height of a seat's place at the middle: its label, then its play; 0 for neither."""
    height = LABEL_H if seat.label else 0
    if seat.play:
        size = face_size(seat.play, CARD_TABLE, TILE_TABLE)
        height += len(wrap(seat.play, size, width)) * (size.h + 4) - 4
    return height


def _shows(seat: SeatPicture) -> bool:
    return bool(seat.play or seat.label)


def table_layout(picture: TablePicture) -> Layout:
    """Seats in two rows around the middle, the far side on top: each panel as tall as what it
    shows, each seat's play between its panel and the middle, the picture as tall as all that."""
    n = len(picture.seats)
    near, far = _rings(n)
    seats: list[tuple[int, int, int, int] | None] = [None] * n
    plays: list[tuple[int, int, int, int] | None] = [None] * n
    y = TITLE_H

    def width(ring: list[int]) -> int:  # each side spans the picture
        return (TABLE_W - GAP * (len(ring) + 1)) // max(1, len(ring))

    def place(ring: list[int], top: int) -> int:
        panel_w = width(ring)
        tall = max((_panel_height(picture.seats[i], panel_w - 20) for i in ring), default=0)
        x = GAP
        for i in ring:
            seats[i] = (x, top, x + panel_w, top + tall)
            x += panel_w + GAP
        return tall

    def place_plays(ring: list[int], top: int) -> int:
        tall = max((_play_height(picture.seats[i], width(ring) - 20) for i in ring
                    if _shows(picture.seats[i])), default=0)
        for i in ring:
            box = seats[i]
            if box is not None and _shows(picture.seats[i]):
                plays[i] = (box[0], top, box[2], top + tall)
        return tall + GAP if tall else 0

    if far:
        y += place(far, y) + GAP
        y += place_plays(far, y)
    middle_top = y
    for row in picture.centre:
        size = face_size(row.faces, CARD_TABLE, TILE_TABLE)
        y += 24 + len(wrap(row.faces, size, TABLE_W - 2 * GAP)) * (size.h + 4)
    middle = (GAP, middle_top, TABLE_W - GAP, y)
    if picture.centre:
        y += GAP
    bottom_plays = max((_play_height(picture.seats[i], width(near) - 20) for i in near
                        if _shows(picture.seats[i])), default=0)
    y += bottom_plays + GAP if bottom_plays else 0
    tall = place(near, y)
    if bottom_plays:
        for i in near:
            box = seats[i]
            if box is not None and _shows(picture.seats[i]):
                plays[i] = (box[0], y - GAP - bottom_plays, box[2], y - GAP)
    y += tall + GAP
    boxes = tuple(box or (0, 0, 0, 0) for box in seats)
    return Layout(TABLE_W, y, boxes, tuple(plays), middle)


def seat_boxes(picture: TablePicture) -> list[tuple[int, int, int, int]]:
    """(left, top, right, bottom) of each seat's panel in the table picture."""
    return list(table_layout(picture).seats)


def _fit(text: str, px: int, width: int) -> str:
    """``text`` cut to ``width`` pixels at ``px`` (with an ellipsis where cut)."""
    face = font(px)
    if face.getlength(text) <= width:
        return text
    while text and face.getlength(text + "…") > width:
        text = text[:-1]
    return text + "…"


def _table_image(picture: TablePicture) -> Image.Image:
    layout = table_layout(picture)
    img = Image.new("RGB", (layout.width, layout.height), FELT)
    draw = ImageDraw.Draw(img)
    draw.rectangle([0, 0, layout.width - 1, layout.height - 1], outline=RIM, width=4)
    draw.text((layout.width / 2, 8), _fit(picture.title, 22, layout.width - 20), fill=WHITE,
              font=font(22), anchor="mt")
    for box, seat in zip(layout.seats, picture.seats, strict=False):
        _seat_panel(img, draw, box, seat)
    for place, seat in zip(layout.plays, picture.seats, strict=False):
        if place is None:
            continue
        left, top, right, _bottom = place
        y = top
        if seat.label:  # a pass in the seat's pale ink, a play's note in gold
            draw.text(((left + right) / 2, y + 2), _fit(seat.label, LABEL_PX, right - left - 20),
                      fill=SEAT_DETAIL if not seat.play else GOLD, font=font(LABEL_PX),
                      anchor="mt")
            y += LABEL_H
        size = face_size(seat.play, CARD_TABLE, TILE_TABLE)
        for line in wrap(seat.play, size, right - left - 20) if seat.play else ():
            draw_strip(img, line, (left + right) // 2 - strip_width(line, size) // 2, y, size)
            y += size.h + 4
    y = layout.middle[1]
    for row in picture.centre:
        size = face_size(row.faces, CARD_TABLE, TILE_TABLE)
        draw.text((layout.width / 2, y), _fit(row.caption, 17, layout.width - 20), fill=WHITE,
                  font=font(17), anchor="mt")
        y += 24
        for line in wrap(row.faces, size, layout.width - 2 * GAP):
            draw_strip(img, line, layout.width // 2 - strip_width(line, size) // 2, y, size)
            y += size.h + 4
    return img


def _seat_panel(img: Image.Image, draw: ImageDraw.ImageDraw, box: tuple[int, int, int, int],
                seat: SeatPicture) -> None:
    left, top, right, _bottom = box
    draw.rounded_rectangle(box, radius=12, fill=PANEL, outline=GOLD if seat.acting else PANEL,
                           width=3)
    room = right - left - 20 - (COUNT_CARD.w + 8 if seat.count is not None else 0)
    name = ("▶ " if seat.acting else "") + seat.name
    draw.text((left + 10, top + 6), _fit(name, 19, room), fill=GOLD if seat.acting else WHITE,
              font=font(19))
    draw.text((left + 10, top + 32), _fit(seat.detail, 15, room), fill=SEAT_DETAIL,
              font=font(15))
    if seat.count is not None:
        draw_face(img, Face(FaceKind.BACK, str(seat.count)), right - COUNT_CARD.w - 8, top + 4,
                  COUNT_CARD)
    y = top + HEADER_H
    for caption, lines, size in _panel_rows(seat, right - left - 20):
        if caption:
            draw.text((left + 10, y), _fit(caption, 15, right - left - 20), fill=SEAT_DETAIL,
                      font=font(15))
            y += 22
        for line in lines:
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
