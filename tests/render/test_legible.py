"""牌面图 at Discord's size (issue 26): real game states drawn, shrunk to 400 px wide as a phone
shows them, and measured by their pixels: the trick in progress in front of each seat, faces at
least 18 px wide, little empty felt, melds inside their panel with labelled rows, a "10" that
fits its corner, the 小王's star in sight in a 39-card hand, big hands broken between suits."""

from __future__ import annotations

import io
from collections.abc import Callable

import pytest
from PIL import Image

from bot.render.pictures import (
    GOLD,
    IVORY,
    SEAT_DETAIL,
    WHITE,
    hand_picture,
    render,
    seat_boxes,
    table_layout,
    table_picture,
)
from engines import registry
from engines.base import FaceKind, Game, GameSpec, Play, Setup, View

SHOWN = 400  # px: about what Discord gives an attached picture on a phone
FELT = (22, 96, 58)
BACKDROP = (30, 34, 40)
Box = tuple[int, int, int, int]


def near(pixel: tuple[int, ...], colour: tuple[int, int, int], tolerance: int) -> bool:
    return all(abs(a - b) <= tolerance for a, b in zip(pixel, colour, strict=False))


def shrunk(png: bytes) -> tuple[Image.Image, float]:
    """The picture at 400 px wide (LANCZOS, as a browser shrinks it) and the scale used."""
    img = Image.open(io.BytesIO(png)).convert("RGB")
    scale = SHOWN / img.width
    return img.resize((SHOWN, round(img.height * scale)), Image.Resampling.LANCZOS), scale


def blobs(img: Image.Image, colour: tuple[int, int, int], tolerance: int = 10,
          min_height: int = 12) -> list[Box]:
    """Bounding boxes (left, top, right, bottom; inclusive) of the connected areas of
    ``colour``: the faces of cards (white) or tiles (ivory), at least ``min_height`` tall."""
    w, h = img.size
    data = img.load()
    assert data is not None
    seen = bytearray(w * h)
    out = []
    for y0 in range(h):
        for x0 in range(w):
            if seen[y0 * w + x0] or not near(data[x0, y0], colour, tolerance):
                continue
            stack, box = [(x0, y0)], [x0, y0, x0, y0]
            seen[y0 * w + x0] = 1
            while stack:
                x, y = stack.pop()
                box = [min(box[0], x), min(box[1], y), max(box[2], x), max(box[3], y)]
                for nx, ny in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
                    if 0 <= nx < w and 0 <= ny < h and not seen[ny * w + nx] \
                            and near(data[nx, ny], colour, tolerance):
                        seen[ny * w + nx] = 1
                        stack.append((nx, ny))
            if box[3] - box[1] + 1 >= min_height:
                out.append((box[0], box[1], box[2], box[3]))
    # an area enclosed in a face (inside 白's frame, between pips) is part of that face
    return [b for b in out if not any(o != b and inside(b, o) for o in out)]


def plays_of(cards: list[Box]) -> list[Box]:
    """Overlapping cards (white areas parted by a card's edge) merged into one box per play."""
    out: list[Box] = []
    for b in sorted(cards):
        last = out[-1] if out else None
        if last is not None and b[0] - last[2] <= 4 and b[1] < last[3] and last[1] < b[3]:
            out[-1] = (last[0], min(last[1], b[1]), max(last[2], b[2]), max(last[3], b[3]))
        else:
            out.append(b)
    return out


def inside(inner: Box, outer: Box) -> bool:
    return (outer[0] <= inner[0] and outer[1] <= inner[1] and inner[2] <= outer[2]
            and inner[3] <= outer[3])


def scaled(box: Box, scale: float) -> Box:
    return (int(box[0] * scale), int(box[1] * scale), int(box[2] * scale) + 1,
            int(box[3] * scale) + 1)


def play(key: str, seed: int = 5, until: Callable[[Game], bool] = lambda g: False,
         steps: int = 1000) -> tuple[GameSpec, Game]:
    """A seeded game played by the trustee until ``until`` holds (or ``steps`` actions)."""
    spec = registry.get(key)
    game = spec.new(Setup(seats=spec.seats_default or spec.min_seats, seed=seed,
                          options=spec.options))
    for _ in range(steps):
        if game.is_over() or until(game):
            break
        seat = game.to_act()[0]
        game.apply(seat, game.trustee(seat))
    return spec, game


def table_png(spec: GameSpec, game: Game) -> tuple[bytes, object]:
    names = [f"P{i + 1}" for i in range(game.setup.seats)]
    picture = table_picture(spec.faces, game.view(None), spec.name_zh, names,
                            game.public_to_act(), "zh-CN")
    assert picture is not None
    return render(picture).png, picture


def played_seats(game: Game) -> list[int]:
    return [i for i, sv in enumerate(game.view(None).seats)
            if sv.status is not None and sv.status.key == "shengji.status.played"]


# --- the trick in progress --------------------------------------------------------------------
@pytest.mark.parametrize("key", ["shengji", "dagunzi"])
def test_the_trick_in_progress_is_drawn_in_front_of_each_seat_that_played(key: str) -> None:
    """Bug (issue 26): 升级 and 打滚子 passed the trick to the renderer and drew nothing of it."""
    spec, before = play(key, until=lambda g: g.view(None).phase.key == "shengji.phase.play")
    assert before.view(None).phase.key == "shengji.phase.play" and not played_seats(before)
    spec, during = play(key, until=lambda g: len(played_seats(g)) == 2)
    assert len(played_seats(during)) == 2

    def cards_off_panels(game: Game) -> tuple[list[Box], list[Box], float]:
        png, picture = table_png(spec, game)
        img, scale = shrunk(png)
        panels = [scaled(box, scale) for box in seat_boxes(picture)]  # type: ignore[arg-type]
        return plays_of([b for b in blobs(img, WHITE, min_height=20)
                         if not any(inside(b, p) for p in panels)]), panels, scale

    quiet, _, _ = cards_off_panels(before)
    busy, panels, _scale = cards_off_panels(during)
    new = [b for b in busy if b not in quiet]
    assert len(new) == 2, (quiet, busy)  # one play of cards for each seat that played
    for seat in played_seats(during):
        panel = panels[seat]

        def distance(b: Box, p: Box) -> float:
            return abs((b[0] + b[2]) / 2 - (p[0] + p[2]) / 2) + abs((b[1] + b[3]) / 2
                                                                    - (p[1] + p[3]) / 2)

        mine = min(new, key=lambda b, panel=panel: distance(b, panel))  # type: ignore[misc]
        # the play lies in front of its seat: nearer its panel than any other seat's panel
        assert min(range(len(panels)), key=lambda k: distance(mine, panels[k])) == seat
        assert mine[2] - mine[0] + 1 >= 18  # and its cards are 18 px wide or more at 400 px


@pytest.mark.parametrize("key", ["shengji", "dagunzi"])
def test_a_trick_just_taken_stays_drawn_until_the_next_lead(key: str) -> None:
    """Bug (issue 26): once the fourth card closed a trick the centre went empty, so the card
    that took it (often a bot's) was never seen in the picture; the text showed the trick. Now
    the picture draws the trick just finished until the next lead, as the text does."""
    spec, game = play(key, until=lambda g: bool(g.view(None).last_round)
                      and not g.view(None).round)
    view = game.view(None)
    assert view.round == () and view.last_round is not None and len(view.last_round.plays) == 4
    _, picture = table_png(spec, game)
    drawn = {i: seat.play for i, seat in enumerate(picture.seats) if seat.play}
    assert sorted(drawn) == [0, 1, 2, 3], "every card of the trick just taken"
    for p in view.last_round.plays:
        assert [f.label for f in drawn[p.seat]] == [
            f.label for f in spec.faces(p.cards or "") or ()]


def last_plays(view: View) -> dict[int, tuple[int, Play]]:
    """Each seat's last play or pass this round (``View.round``), with its index there."""
    return {p.seat: (k, p) for k, p in enumerate(view.round or ())}


def ink_in(img: Image.Image, box: Box, colour: tuple[int, int, int], tolerance: int = 30) -> int:
    return sum(1 for x in range(box[0], box[2]) for y in range(box[1], box[3])
               if near(img.getpixel((x, y)), colour, tolerance))


def dealt_into_a_round_with_a_pass(g: Game) -> bool:
    view = g.view(None)
    mine = last_plays(view)
    return (sum(1 for _, p in mine.values() if p.cards) >= 2
            and any(p.cards is None and p.note is None for _, p in mine.values()))


def drawn_as_its_round(spec: GameSpec, game: Game) -> None:
    """Each seat's picture shows its last play of ``View.round`` (suited where the view has
    the twin), a pass none, and a seat that has not acted this round none."""
    view = game.view(None)
    _, picture = table_png(spec, game)
    mine = last_plays(view)
    for i, seat in enumerate(picture.seats):  # type: ignore[attr-defined]
        k, p = mine.get(i, (0, None))
        if p is None or p.cards is None:
            assert seat.play == (), (i, seat.play)
            continue
        twin = view.shown.play(k) if view.shown is not None else None
        assert seat.play == spec.faces(twin or p.cards)
        assert [f.label for f in seat.play] == [f.label for f in spec.faces(p.cards) or ()]


@pytest.mark.parametrize("key", ["gouji", "shuangkou", "doudizhu"])
def test_each_seat_shows_its_last_play_this_round(key: str) -> None:
    for seed in (5, 6):
        spec, game = play(key, seed=seed, until=dealt_into_a_round_with_a_pass)
        assert dealt_into_a_round_with_a_pass(game)
        drawn_as_its_round(spec, game)


def test_a_play_of_the_round_before_is_not_drawn() -> None:
    """Bug: the picture read each seat's play from its status, and 够级's status of a seat gone
    out (走科, with its last cards) outlives the round: those cards stayed in front of it in
    every round after, as if played in this one."""
    def stale(g: Game) -> bool:
        view = g.view(None)
        return bool(view.round) and any(
            sv.status is not None and isinstance(sv.status.args.get("cards"), str)
            and i not in last_plays(view) for i, sv in enumerate(view.seats))

    spec, game = play("gouji", until=stale)
    assert stale(game)
    drawn_as_its_round(spec, game)


def test_doudizhu_draws_every_seats_play_of_the_round_with_its_suits() -> None:
    """The suited twin of each seat's last play this round (``Shown.round``), not only of the
    top play: the other seats' plays were drawn as bare ranks."""
    spec, game = play("doudizhu", until=lambda g: sum(
        1 for _, p in last_plays(g.view(None)).values() if p.cards) >= 3)
    view = game.view(None)
    _, picture = table_png(spec, game)
    drawn = [seat.play for seat in picture.seats if seat.play]  # type: ignore[attr-defined]
    assert len(drawn) == 3
    for faces in drawn:
        assert all(f.suit or f.kind is FaceKind.JOKER for f in faces), faces
    assert view.shown is not None and sum(1 for x in view.shown.round if x) == 3


@pytest.mark.parametrize("key", ["gouji", "shuangkou", "doudizhu"])
def test_a_pass_is_drawn_as_a_label_at_the_passing_seat(key: str) -> None:
    """Who passed this round: a "不出" label in front of the passing seat, and no cards."""
    spec, game = play(key, until=dealt_into_a_round_with_a_pass)
    view = game.view(None)
    passer = next(s for s, (_, p) in last_plays(view).items() if p.cards is None)
    png, picture = table_png(spec, game)
    seat = picture.seats[passer]  # type: ignore[attr-defined]
    assert seat.label == "不出" and seat.play == ()
    layout = table_layout(picture)  # type: ignore[arg-type]
    box = layout.plays[passer]
    assert box is not None
    img = Image.open(io.BytesIO(png)).convert("RGB")
    # the label's ink lies in the place in front of the seat, and no card is drawn there
    assert ink_in(img, box, SEAT_DETAIL) >= 40
    assert not [b for b in blobs(img, WHITE, min_height=20) if inside(b, box)]
    panels = layout.seats

    def centre(b: Box) -> tuple[float, float]:
        return (b[0] + b[2]) / 2, (b[1] + b[3]) / 2

    def distance(a: Box, b: Box) -> float:
        (ax, ay), (bx, by) = centre(a), centre(b)
        return abs(ax - bx) + abs(ay - by)

    assert min(range(len(panels)), key=lambda i: distance(box, panels[i])) == passer
    # and it reads at 400 px: its glyphs are 8 px tall or more there
    small, scale = shrunk(png)
    tiny = scaled(box, scale)
    rows = [y for y in range(tiny[1], tiny[3]) if any(
        near(small.getpixel((x, y)), SEAT_DETAIL, 60) for x in range(tiny[0], tiny[2]))]
    assert rows and rows[-1] - rows[0] + 1 >= 8, rows


def test_a_failed_throw_is_drawn_with_its_note() -> None:
    """Bug (issue 26): a failed 甩牌 was never shown. The forced play is drawn in front of the
    seat with the note (what was tried, what it was forced to) as a label above it."""
    from engines.shengji.game import ShengjiGame

    spec = registry.get("shengji")
    game = ShengjiGame.position(
        ["9s 8s 8s 4s 4s 3d", "Js 2c 3c 4c 5c 6c", "Qc Qc Kc Kc Ac Ac", "5s 5s 7d 6d 5d 4d"],
        level=10, trump=1, dealer=0)
    game.apply(0, "9s 8s 8s 4s 4s")
    game.apply(1, game.trustee(1))
    png, picture = table_png(spec, game)
    seat = picture.seats[0]  # type: ignore[attr-defined]
    assert seat.play == spec.faces("4s 4s")
    assert seat.label.startswith("甩牌失败") and "9s 8s 8s 4s 4s" in seat.label
    assert picture.seats[1].label == ""  # type: ignore[attr-defined]
    layout = table_layout(picture)  # type: ignore[arg-type]
    box = layout.plays[0]
    assert box is not None
    img = Image.open(io.BytesIO(png)).convert("RGB")
    cards = [b for b in blobs(img, WHITE, min_height=20) if inside(b, box)]
    assert len(plays_of(cards)) == 1
    top = min(b[1] for b in cards)
    # the note's gold ink, above the two cards, inside the seat's place
    assert ink_in(img, (box[0], box[1], box[2], top), GOLD) >= 60
    # the other seat's answer is drawn too, with no label
    other = layout.plays[1]
    assert other is not None and ink_in(img, other, GOLD) == 0


# --- faces at least 18 px at 400 --------------------------------------------------------------
@pytest.mark.parametrize("key,steps", [("sichuan", 40), ("wuhan", 40), ("paohuzi", 30),
                                       ("erren", 20)])
def test_tiles_in_rivers_and_melds_are_18_px_wide_at_400(key: str, steps: int) -> None:
    """Bug (issue 26): 四川's discards were about 12 px wide at Discord's size."""
    spec, game = play(key, steps=steps)
    view = game.view(None)
    faces = sum(len(spec.faces(n) or ()) for sv in view.seats for n in (sv.melds, sv.discards)
                if n)
    assert faces >= 8, key
    png, _picture = table_png(spec, game)
    img, _ = shrunk(png)
    tiles = blobs(img, IVORY, tolerance=8, min_height=15)
    assert len(tiles) >= faces  # every tile found apart from its neighbours...
    assert min(b[2] - b[0] + 1 for b in tiles) >= 18  # ...and 18 px wide or more


@pytest.mark.parametrize("key,steps", [("sichuan", 40), ("paohuzi", 30), ("shengji", 60),
                                       ("dagunzi", 60), ("gouji", 30), ("shuangkou", 30),
                                       ("doudizhu", 12), ("hotpot", 10)])
def test_a_table_is_sized_to_what_it_shows(key: str, steps: int) -> None:
    """Bug (issue 26): a fixed 1000 × 760 table, most of it empty felt."""
    spec, game = play(key, steps=steps)
    png, _ = table_png(spec, game)
    img, _ = shrunk(png)
    pixels = list(img.get_flattened_data())
    empty = sum(1 for p in pixels if near(p, FELT, 6) or near(p, BACKDROP, 6)) / len(pixels)
    # a table of rivers and melds is mostly faces; a card table mostly its panels and plays
    assert empty <= (0.3 if spec.faces("1m") and key != "paohuzi" else 0.65), (key, empty)


# --- 跑胡子's melds ----------------------------------------------------------------------------
def test_paohuzi_melds_stay_inside_their_panel_with_labelled_rows() -> None:
    """Bug (issue 26): a long row of melds (伍伍伍) was drawn past its panel's edge."""
    spec = registry.get("paohuzi")
    for seed in range(1, 12):
        _, game = play("paohuzi", seed=seed, until=lambda g: any(
            len((sv.melds or "").split()) >= 4 for sv in g.view(None).seats))
        if any(len((sv.melds or "").split()) >= 4 for sv in game.view(None).seats):
            break
    else:
        pytest.fail("no seed melds four times")
    png, picture = table_png(spec, game)
    img = Image.open(io.BytesIO(png)).convert("RGB")
    panels = seat_boxes(picture)  # type: ignore[arg-type]
    tiles = blobs(img, IVORY, tolerance=8, min_height=30)
    middle = [b for b in tiles if not any(inside(b, p) for p in panels)]
    # every tile lies inside a panel, but those the middle's lines show (the tile turned up)
    assert len(middle) == sum(len(row.faces) for row in picture.centre), middle
    # the rows are labelled: 副露 over the melds, 弃牌 over the discards
    for seat, sv in zip(picture.seats, game.view(None).seats, strict=True):  # type: ignore
        captions = [row.caption for row in seat.rows]
        assert ("副露" in captions) == bool(sv.melds) and ("弃牌" in captions) == bool(sv.discards)


# --- cards: "10", 小王, big hands ----------------------------------------------------------------
def hand_png(key: str, seed: int, seat: int) -> tuple[bytes, str]:
    spec, game = play(key, seed=seed, steps=0)
    view = game.view(seat)
    picture = hand_picture(spec.faces, view, seat, ["a", "b", "c", "d"], "zh-CN")
    assert picture is not None and view.hand
    return render(picture).png, view.hand


def test_a_39_card_hand_shows_every_joker_star_and_breaks_between_suits() -> None:
    """Bug (issue 26): in 打滚子's 39-card hand the 小王's star was hidden by the next card, and
    its lines broke in the middle of a suit."""
    png, hand = hand_png("dagunzi", 1, 0)
    tokens = hand.split()
    assert len(tokens) == 39 and "B" in tokens and tokens[tokens.index("B") + 1] != "B"
    img, scale = shrunk(png)
    full = Image.open(io.BytesIO(png)).convert("RGB")
    # the lines of cards: count each line's cards by the width of its white strip
    pad, w, h, step = 14, 70, 98, 32
    lines, y = [], pad
    while y + h < full.height:
        xs = [x for x in range(full.width) if near(full.getpixel((x, y + h - 10)), WHITE, 8)]
        lines.append((max(xs) - pad - w) // step + 2)
        y += h + 8
    assert sum(lines) == 39 and len(lines) >= 2
    start = 0
    for n in lines[:-1]:  # a line ends where a suit ends (jokers count as their own suit)
        def suit(token: str) -> str:
            return "J" if token in "BR" else token[-1]
        assert suit(tokens[start + n - 1]) != suit(tokens[start + n]), (lines, tokens)
        start += n
    # each 小王's visible corner holds its black star under the word 小王
    k = tokens.index("B")
    corner = (int((pad + k * step) * scale), int((pad + 52) * scale),
              int((pad + k * step + step - 2) * scale), int((pad + 80) * scale))
    ink = sum(1 for x in range(corner[0], corner[2]) for y in range(corner[1], corner[3])
              if sum(img.getpixel((x, y))) < 200)
    assert ink >= 12, ink


def test_a_ten_fits_its_corner_and_reads_at_400() -> None:
    """A "10" in the corner an overlapping card leaves in sight: its ink ends before the next
    card, its two digits stand apart, and it is tall enough to read at 400 px."""
    spec, game = play("shengji", until=lambda g: any(
        "T" in (sv.status.args.get("cards") or "") for sv in g.view(None).seats
        if sv.status is not None and sv.status.key == "shengji.status.played"))
    png, picture = table_png(spec, game)
    img, scale = shrunk(png)
    view = game.view(None)
    assert any("T" in (sv.status.args.get("cards") or "") for sv in view.seats
               if sv.status is not None)
    # the played cards at 400 px: the 10's corner glyph is at least 8 px tall
    cards = [b for b in blobs(img, WHITE, min_height=20)
             if not any(inside(b, scaled(p, scale)) for p in seat_boxes(picture))]  # type: ignore
    assert cards
    tallest = 0
    for box in cards:
        band = [(x, y) for x in range(box[0], box[2] + 1) for y in range(box[1], box[1] + 14)
                if sum(img.getpixel((x, y))) < 450]
        if band:
            tallest = max(tallest, max(y for _, y in band) - min(y for _, y in band) + 1)
    assert tallest >= 8, tallest


def test_the_ten_glyph_stays_inside_the_corner_in_sight() -> None:
    from bot.render.pictures import CARD_BIG, HandPicture, Row
    from engines.faces import card_faces

    faces = card_faces("Ts Th")
    assert faces is not None
    img = Image.open(io.BytesIO(render(HandPicture((Row("", faces),))).png)).convert("RGB")
    pad, step = 14, CARD_BIG.step
    band = range(pad + 3, pad + int(CARD_BIG.h * 0.3))
    def ink(pixel: tuple[int, ...]) -> bool:  # black or red, not the felt or the card's edge
        return sum(pixel) < 150 or (pixel[0] > 150 and pixel[1] < 110)

    columns = [x for x in range(pad, pad + step) if any(ink(img.getpixel((x, y))) for y in band)]
    assert columns and min(columns) >= pad + 3 and max(columns) <= pad + step - 3
    # "1" and "0" apart: a blank column between them
    assert any(x not in columns for x in range(min(columns), max(columns)))
