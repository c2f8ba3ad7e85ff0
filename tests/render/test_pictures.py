"""牌面图: the pictures of cards, tiles, hands and tables, checked by their pixels."""

from __future__ import annotations

import asyncio
import io
from dataclasses import replace
from pathlib import Path

import pytest
from PIL import Image, ImageChops, ImageFont

from bot.render import pictures
from bot.render.pictures import (
    CARD_BIG,
    GOLD,
    PANEL,
    RED,
    TABLE_W,
    WHITE,
    HandPicture,
    Row,
    Size,
    content_named,
    digest,
    font,
    font_path,
    hand_lines,
    hand_picture,
    render,
    render_async,
    seat_boxes,
    table_picture,
)
from engines import registry
from engines.base import Face, FaceKind, Setup, no_faces
from engines.faces import card_faces
from engines.mahjong.faces import tile_faces

GOLDEN = Path(__file__).parent / "golden"
PAD = 14  # the hand picture's margin (bot/render/pictures._hand_image)


def image(png: bytes) -> Image.Image:
    img = Image.open(io.BytesIO(png))
    assert img.format == "PNG"
    return img.convert("RGB")


def one_card(notation: str) -> Image.Image:
    faces = card_faces(notation)
    assert faces is not None and len(faces) == 1
    return image(render(HandPicture((Row("", faces),))).png)


def changed_pixels(a: Image.Image, b: Image.Image, threshold: int) -> int:
    """How many pixels differ between two pictures by more than ``threshold`` (grey level)."""
    return sum(ImageChops.difference(a, b).convert("L").histogram()[threshold + 1:])


def near(pixel: tuple[int, ...], colour: tuple[int, int, int], tolerance: int = 40) -> bool:
    return all(abs(a - b) <= tolerance for a, b in zip(pixel, colour, strict=False))


# --- the font ------------------------------------------------------------------------------------
def test_the_project_font_draws_chinese_glyphs_not_the_missing_glyph_box() -> None:
    assert font_path() is not None, "a CJK font must be installed (cvttf-notosanscjk-regular)"
    face = font(40)
    assert isinstance(face, ImageFont.FreeTypeFont)
    tofu = face.getmask("\U000f0000")  # a private-use code point no font covers: .notdef
    for char in "大王地主万條":
        mask = face.getmask(char)
        assert mask.getbbox() is not None, char
        assert (mask.size != tofu.size or bytes(mask) != bytes(tofu)), f"{char} is tofu"
    assert bytes(face.getmask("大")) != bytes(face.getmask("王"))


# --- cards ---------------------------------------------------------------------------------------
def test_a_red_suit_is_red_and_a_black_suit_is_black() -> None:
    centre = (PAD + int(CARD_BIG.w * 0.7), PAD + int(CARD_BIG.h * 0.66))
    for notation, colour in (("Ah", RED), ("Kd", RED), ("As", (25, 25, 25)), ("9c", (25, 25, 25))):
        img = one_card(notation)
        assert near(img.getpixel(centre), colour), (notation, img.getpixel(centre))
    # rank and suit differ between two cards, so do their pictures
    assert ImageChops.difference(one_card("Ah"), one_card("Ad")).getbbox() is not None


def test_the_big_joker_is_not_the_small_joker() -> None:
    big, small = one_card("R"), one_card("B")
    assert big.size == small.size
    star = (PAD + int(CARD_BIG.w * 0.68), PAD + int(CARD_BIG.h * 0.64))
    assert near(big.getpixel(star), RED)  # 大王: a red star
    assert near(small.getpixel(star), WHITE)  # 小王: an outlined one
    assert changed_pixels(big, small, 60) > 200


def test_a_hand_picture_is_as_wide_as_its_overlapping_cards() -> None:
    faces = card_faces("3344TJQKA2BR")
    assert faces is not None
    img = image(render(HandPicture((Row("", faces),))).png)
    assert img.size == (2 * PAD + CARD_BIG.step * 11 + CARD_BIG.w, 2 * PAD + CARD_BIG.h + 8)
    for k in range(len(faces)):  # each card's top-left corner shows white card stock
        assert near(img.getpixel((PAD + k * CARD_BIG.step + 3, PAD + CARD_BIG.h - 6)), WHITE), k


def test_one_fixed_hand_matches_its_golden_picture() -> None:
    cards, tiles = card_faces("3TJQKA2BR Ah Kd 9c"), tile_faces("159m 2p 3s 1234567z")
    assert cards is not None and tiles is not None
    img = image(render(HandPicture((Row("", cards), Row("麻将 万 条", tiles)))).png)
    golden = Image.open(GOLDEN / "hand.png").convert("RGB")
    assert img.size == golden.size
    changed = changed_pixels(img, golden, 64)
    # font hinting may move a few edge pixels between FreeType versions, no more
    assert changed < img.size[0] * img.size[1] // 100, changed


def test_tiles_show_their_suit_and_the_red_dragon() -> None:
    faces = tile_faces("5z 6z 1p")
    assert faces is not None and [f.label for f in faces] == ["中", "發", "1"]
    img = image(render(HandPicture((Row("", faces),))).png)
    reds = sum(1 for x in range(PAD, PAD + 44) for y in range(PAD, PAD + 60)
               if near(img.getpixel((x, y)), RED, 50))
    assert reds > 40  # 中 is written in red
    greens = sum(1 for x in range(PAD + 46, PAD + 90) for y in range(PAD, PAD + 50)
                 if near(img.getpixel((x, y)), (20, 130, 70), 50))
    assert greens > 40  # 發 in green


# --- the cache -----------------------------------------------------------------------------------
def test_the_cache_gives_the_same_bytes_for_the_same_content() -> None:
    first = render(HandPicture((Row("", card_faces("345") or ()),)))
    again = render(HandPicture((Row("", card_faces("3 4 5") or ()),)))
    other = render(HandPicture((Row("", card_faces("346") or ()),)))
    assert again.png is first.png and again.filename == first.filename
    assert other.digest != first.digest and other.png != first.png
    assert content_named(first.filename) and first.filename.startswith("hand-")
    assert not content_named("board.png")


async def test_pictures_drawn_off_the_event_loop_match_and_stay_bounded(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """render_async draws in worker threads at once; each picture is the one render draws, the
    cache (shared with the threads) keeps its bound, and a cached picture comes back as is."""
    monkeypatch.setattr(pictures, "CACHE_SIZE", 6)
    hands = [HandPicture((Row("", card_faces(cards) or ()),))
             for cards in ("345", "3456", "34567", "TJQ", "JQKA", "22BR", "789", "99TT", "3")]
    drawn = await asyncio.gather(*(render_async(hand) for hand in hands))
    assert len(pictures._CACHE) == 6
    for hand, picture in zip(hands, drawn, strict=True):
        assert picture.png == render(hand).png and picture.digest == digest(hand)
    again = await render_async(hands[-1])
    assert again.png is render(hands[-1]).png  # from the cache, not drawn again


# --- hands and tables from games -----------------------------------------------------------------
def played(key: str, steps: int, seed: int = 5):
    spec = registry.get(key)
    game = spec.new(Setup(seats=spec.seats_default or spec.min_seats, seed=seed,
                          options=spec.options))
    for _ in range(steps):
        if game.is_over():
            break
        seat = game.to_act()[0]
        game.apply(seat, game.trustee(seat))
    return spec, game


@pytest.mark.parametrize("key", [k for k, s in registry.specs().items() if s.faces is not no_faces])
def test_every_game_with_faces_reads_its_own_hand(key: str) -> None:
    spec, game = played(key, 6)
    for seat in range(game.setup.seats):
        view = game.view(seat)
        own = view.hand if view.hand is not None else view.seats[seat].cards
        if not own:
            continue
        faces = spec.faces(own)
        assert faces is not None, (key, own)
        if view.seats[seat].count is not None:
            assert len(faces) == view.seats[seat].count, (key, own)
        assert hand_picture(spec.faces, view, seat, ["a"] * 6, "zh-CN") is not None


def test_the_table_picture_never_draws_a_hidden_card() -> None:
    spec, game = played("doudizhu", 0)
    names = ["ann", "bob", "cat"]
    picture = table_picture(spec.faces, game.view(None), "斗地主", names, game.public_to_act(),
                            "en-US")
    assert picture is not None
    # before the kitty is shown nobody's cards are on the table: no face at any seat
    assert all(not seat.rows for seat in picture.seats) and picture.centre == ()
    assert [seat.count for seat in picture.seats] == [17, 17, 17]
    img = image(render(picture).png)
    assert img.width == TABLE_W
    for box, seat in zip(seat_boxes(picture), picture.seats, strict=True):
        left, top, _right, bottom = box
        # a panel with no row of faces: name, role and the count on a card back, nothing more
        assert bottom - top == 62
        assert near(img.getpixel((left + 20, bottom - 6)), PANEL, 12)
        edge = img.getpixel((left + 40, top + 1))
        assert near(edge, GOLD) == seat.acting


def test_the_table_shows_the_kitty_and_the_last_play_once_public() -> None:
    spec, game = played("doudizhu", 40)
    view = game.view(None)
    picture = table_picture(spec.faces, view, "斗地主", ["a", "b", "c"], (), "zh-CN")
    assert picture is not None
    captions = [row.caption for row in picture.centre]
    assert any(c.startswith("底牌") for c in captions)
    k, kitty = next((k, line) for k, line in enumerate(view.lines)
                    if line.key == "ddz.line.kitty")
    row = next(r for r in picture.centre if r.caption.startswith("底牌"))
    plain = card_faces(kitty.args["cards"])
    assert plain is not None and view.shown is not None
    # the kitty's own cards, drawn with their suits: the same ranks as the text says
    assert row.faces == card_faces(view.shown.lines[k] or "")
    assert [f.label for f in row.faces] == [f.label for f in plain]
    assert all(f.suit or f.kind is FaceKind.JOKER for f in row.faces)


def red_pips(img: Image.Image, faces: tuple[Face, ...], size: Size, top: int) -> list[bool]:
    """For each card of a drawn row, whether its small suit pip (under the rank, the part of
    an overlapped card left in sight) is red."""
    y = top + 8 + int(int(size.h * 0.25) * 1.35)
    return [near(img.getpixel((PAD + k * size.step + int(size.w * 0.2), y)), RED, 60)
            for k in range(len(faces))]


def test_a_doudizhu_hand_picture_shows_the_suits_it_was_dealt() -> None:
    spec, game = played("doudizhu", 6)
    seat = game.to_act()[0]
    view = game.view(seat)
    assert view.hand and view.shown is not None and view.shown.hand
    picture = hand_picture(spec.faces, view, seat, ["a", "b", "c"], "zh-CN")
    assert picture is not None
    row = picture.rows[0]
    assert row.faces == card_faces(view.shown.hand)
    # the same cards as the text says, each with its suit (or a joker)
    assert [f.label for f in row.faces] == [f.label for f in card_faces(view.hand) or ()]
    assert all(f.suit or f.kind is FaceKind.JOKER for f in row.faces)
    reds = [f.red and f.kind is FaceKind.CARD for f in row.faces]
    assert any(reds) and not all(reds)  # a deal of 17 has hearts or diamonds, and black cards
    img = image(render(picture).png)
    assert red_pips(img, row.faces, CARD_BIG, PAD)[:-1] == reds[:-1]
    # the play to beat is drawn once, with its suits, though the round and the line of what
    # this seat may answer both name it
    keys = [line.key for line in view.lines]
    assert "ddz.line.can_beat" in keys and view.round
    k = max(k for k, p in enumerate(view.round) if p.cards)
    last = card_faces(view.shown.play(k) or "")
    assert last is not None and last[0].suit
    assert [r.faces for r in picture.rows].count(last) == 1
    assert len({r.faces for r in picture.rows}) == len(picture.rows)
    # a seat not to act sees it too, named by who played it
    top = view.round[k].seat
    other = next(s for s in range(3) if s != seat and s != top)
    theirs = hand_picture(spec.faces, game.view(other), other, ["a", "b", "c"], "zh-CN")
    assert theirs is not None
    row = next(r for r in theirs.rows if r.faces == last)
    assert row.caption.startswith("abc"[top])


def test_the_table_draws_open_hands_and_the_last_play_with_their_suits() -> None:
    spec, game = played("doudizhu", 400)
    assert game.is_over()
    view = game.view(None)
    assert view.hand is None and view.shown is not None and view.shown.hand is None
    picture = table_picture(spec.faces, view, "斗地主", ["a", "b", "c"], (), "zh-CN")
    assert picture is not None
    for i, seat in enumerate(picture.seats):  # every hand is shown once it is over
        if view.seats[i].cards:
            assert seat.rows[0].faces == card_faces(view.shown.seats[i] or "")
            assert all(f.suit or f.kind is FaceKind.JOKER for f in seat.rows[0].faces)
    assert view.round
    k = max(k for k, p in enumerate(view.round) if p.cards)
    last = card_faces(view.shown.play(k) or "")
    # the last play is drawn once, in front of the seat that played it, with its suits
    assert last is not None and picture.seats[view.round[k].seat].play == last
    assert last[0].suit
    assert last not in [row.faces for row in picture.centre]


def suit_pips(img: Image.Image, picture: HandPicture) -> list[tuple[Face, int, int]]:
    """For each card of the hand (the picture's first row, in its lines), the red and the
    dark pixels where its small suit shape is drawn (under the corner rank, in the part of an
    overlapped card left in sight)."""
    _, lines, size = hand_lines(picture)[0]
    out, y = [], PAD
    for line in lines:
        x = PAD
        for k, face in enumerate(line):
            if k and face.gap:
                x += size.w // 2
            cx, cy = x + int(size.w * 0.2), y + 8 + int(int(size.h * 0.27) * 1.3)
            box = [img.getpixel((cx + dx, cy + dy)) for dx in range(-3, 4) for dy in range(-3, 4)]
            out.append((face, sum(near(p, RED, 60) for p in box),
                        sum(sum(p) < 200 for p in box)))
            x += size.step
        y += size.h + 8
    return out


@pytest.mark.parametrize("key", ["gouji_new", "gouji"])
def test_a_gouji_hand_picture_draws_the_suit_of_every_card(key: str) -> None:
    """Issue 26 ("够级 cards with suits"): 够级's notation is rank-only, so its hand was drawn
    as bare ranks; it is drawn with the suits it was dealt, red hearts and diamonds, black
    spades and clubs, and the same cards as the text says."""
    spec, game = played(key, 0)
    view = game.view(2)
    assert view.hand and view.shown is not None
    picture = hand_picture(spec.faces, view, 2, list("abcdef"), "zh-CN")
    assert picture is not None
    faces = picture.rows[0].faces
    assert [f.label for f in faces] == [f.label for f in card_faces(view.hand) or ()]
    assert len(faces) == 36
    pips = suit_pips(image(render(picture).png), picture)
    cards = [(face, red, dark) for face, red, dark in pips if face.kind is FaceKind.CARD]
    assert {face.suit for face, _, _ in cards} == set("shcd")
    for face, red, dark in cards:
        if face.suit in "hd":
            assert red >= 10, (face, red, dark)
        else:
            assert dark >= 10 and red == 0, (face, red, dark)
    # drawn from the ranks alone (a view without the twin), the same place holds no shape
    bare = replace(view, shown=None)
    plain = hand_picture(spec.faces, bare, 2, list("abcdef"), "zh-CN")
    assert plain is not None
    assert all(red + dark == 0 for face, red, dark in suit_pips(image(render(plain).png), plain)
               if face.kind is FaceKind.CARD)


def test_the_gouji_table_draws_the_play_on_the_table_with_its_suits() -> None:
    spec, game = played("gouji_new", 7)  # six answers to 宣点, then the first play
    view = game.view(None)
    assert view.hand is None and view.shown is not None and view.shown.hand is None
    assert view.round, "the first play is in the round"
    k = len(view.round) - 1
    last = view.round[k]
    picture = table_picture(spec.faces, view, "够级", list("abcdef"), (), "zh-CN")
    assert picture is not None
    play = picture.seats[last.seat].play
    assert play == card_faces(view.shown.play(k) or "")
    assert [f.label for f in play] == [f.label for f in card_faces(last.cards or "") or ()]
    assert all(f.suit or f.kind is FaceKind.JOKER for f in play)
    assert all(not seat.rows for seat in picture.seats)  # nobody's hand is drawn


def test_other_games_draw_their_own_notation() -> None:
    """The suited twin is 斗地主's and 够级's (their notation has no suits); every other game's
    views have none, and a 斗地主 view without one (saved before it existed) draws its ranks as
    before."""
    for key, spec in registry.specs().items():
        if spec.faces is no_faces or key.startswith(("doudizhu", "gouji")):
            continue
        _, game = played(key, 4)
        assert all(game.view(s).shown is None for s in (None, *range(game.setup.seats))), key
    spec, game = played("doudizhu", 6)
    seat = game.to_act()[0]
    old = replace(game.view(seat), shown=None)
    picture = hand_picture(spec.faces, old, seat, ["a", "b", "c"], "zh-CN")
    assert picture is not None and picture.rows[0].faces == card_faces(old.hand or "")


def test_a_game_without_faces_draws_no_table() -> None:
    spec, game = played("gomoku", 2)
    assert table_picture(spec.faces, game.view(None), "", ["a", "b"], (), "en-US") is None
    assert spec.faces("A") is None


def test_demo_pictures_are_written(tmp_path: Path) -> None:
    from bot.render.pictures import demo

    written = demo(tmp_path)
    assert [p.name for p in written] == ["hand.png", "table.png", "mahjong.png"]
    assert image(written[1].read_bytes()).width == TABLE_W
    assert digest(HandPicture(())) != digest(HandPicture((Row("", (Face(FaceKind.BACK, ""),)),)))
