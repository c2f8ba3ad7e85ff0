"""托管: the trustee makes five, blocks, never plays 禁手, and handles every phase."""

from __future__ import annotations

import random

import pytest

from engines.base import Setup
from engines.gomoku import SPEC, GomokuGame
from engines.gomoku.ai import Rules, choose_move
from engines.gomoku.game import Reason
from engines.gomoku.notation import parse_point, point_name
from engines.gomoku.rules import BLACK, WHITE, Position

RENJU = Rules(forbidden=True)
FREE = Rules(forbidden=False)


def move(black: str, white: str, colour: int, rules: Rules = RENJU) -> str:
    pos = Position.from_stones(black, white)
    before = pos.fen()
    p = point_name(choose_move(pos, colour, rules))
    assert pos.fen() == before
    return p


def test_opening_move_is_the_centre() -> None:
    assert move("", "", BLACK) == "H8"


def test_completes_five() -> None:
    # White threatens a four too, but five comes first.
    assert move("E8 F8 G8 H8", "A1 A2 A3 A4", BLACK) in {"D8", "I8"}
    assert move("A1 A2 A3 B5", "E8 F8 G8 I8", WHITE) == "H8"


def test_black_does_not_take_an_overline_for_five() -> None:
    # D8 . F8 G8 H8 I8: E8 is six in a row (禁手); J8 is the exact five.
    assert move("D8 F8 G8 H8 I8", "A1 A3 A5 A7", BLACK) == "J8"


@pytest.mark.parametrize(
    ("black", "white", "colour", "blocks"),
    [
        ("E5 F6 G7 H8", "A1 B1 C1", WHITE, {"D4", "I9"}),  # black's open four: lost, but block
        ("H8 H9 H10 H12", "A1 B1 C1", WHITE, {"H11"}),  # split four
        ("A15 C15 E15 A13", "H8 H9 H10 H11", BLACK, {"H7", "H12"}),
    ],
)
def test_blocks_the_opponents_four(black: str, white: str, colour: int, blocks: set[str]) -> None:
    assert move(black, white, colour) in blocks


def test_blocks_an_open_three() -> None:
    # Black H8 I8 J8 is an open three; white must stop it becoming a straight four.
    pos = Position.from_stones("H8 I8 J8 A15", "G9 A1 B1")
    p = choose_move(pos, WHITE, RENJU)
    pos.cells[p] = WHITE
    for q in pos.empty_points():
        assert not pos.makes_straight_four(q, BLACK, True), point_name(q)


def test_prefers_its_own_straight_four_to_blocking_a_three() -> None:
    assert move("H8 I8 J8 A1", "C3 D4 E5 O15", WHITE) in {"B2", "F6"}


def test_makes_a_four_three() -> None:
    # White E10 F10 G10 is blocked by black D10; H8 H9 is a two. H10 is four + open three.
    assert move("D10 A1 A3 A5 O15", "E10 F10 G10 H8 H9", WHITE, FREE) == "H10"


def test_black_trustee_avoids_a_forbidden_point() -> None:
    # H8 is 三三 for black (F8 G8 / H9 H10) and the most attractive point on the board.
    pos = Position.from_stones("F8 G8 H9 H10", "A1 A2 B1 O15")
    assert pos.forbidden(parse_point("H8")) is not None
    assert move("F8 G8 H9 H10", "A1 A2 B1 O15", BLACK) != "H8"
    # Without forbidden moves the same point is fine, and strong.
    assert move("F8 G8 H9 H10", "A1 A2 B1 O15", BLACK, FREE) == "H8"


def test_black_does_not_block_with_a_forbidden_move() -> None:
    # White's four E12 F12 G12 . I12 is blocked only at H12, and H12 is 四四 for black
    # (column H9 H10 H11 and diagonal E9 F10 G11): black plays on and loses to the five.
    black = "H9 H10 H11 E9 F10 G11"
    white = "E12 F12 G12 I12 A1 B1"
    pos = Position.from_stones(black, white)
    h12 = parse_point("H12")
    assert pos.forbidden(h12) is not None
    p = choose_move(pos, BLACK, RENJU)
    assert p != h12 and pos.forbidden(p) is None


def _self_play(seed: int, options: dict[str, object]) -> GomokuGame:
    """Both seats on the trustee after a few random opening stones."""
    rng = random.Random(seed)
    game = SPEC.new(Setup(seats=2, seed=seed, options=options, carry={"black": seed % 2}))
    assert isinstance(game, GomokuGame)
    randoms = rng.randint(0, 4)
    while not game.is_over():
        seat = game.to_act()[0]
        if game.phase() == "move" and len(game.moves) < randoms:
            c, r = rng.randint(4, 10), rng.randint(4, 10)
            name = point_name(r * 15 + c)
            if game.pos.cells[r * 15 + c]:
                continue
            game.apply(seat, name)
            continue
        action = game.trustee(seat)
        if game.phase() in ("move", "choose", "swap"):
            assert action in game.legal_actions(seat)
        game.apply(seat, action)
    return game


@pytest.mark.parametrize("seed", range(8))
def test_self_play_is_legal_and_never_forbidden(seed: int) -> None:
    options = [
        {"forbidden": True, "opening": "standard"},
        {"forbidden": True, "opening": "swap3"},
        {"forbidden": True, "opening": "five2"},
        {"forbidden": False, "opening": "standard"},
    ][seed % 4]
    game = _self_play(seed, options)
    assert game.result is not None and game.result.reason is not Reason.FORBIDDEN
    assert game.result.reason in (Reason.FIVE, Reason.DRAW)
    # Deterministic: the same seed replays the same game, and the record rebuilds it.
    again = _self_play(seed, options)
    assert again.log == game.log
    assert SPEC.from_record(game.to_record()).pos == game.pos


def test_trustee_in_the_opening_phases() -> None:
    swap = SPEC.new(Setup(seats=2, seed=1, options={"opening": "swap3"}))
    for text in ("H8", "A1", "I9"):
        swap.apply(swap.to_act()[0], text)
    assert swap.trustee(1) == "swap"  # black H8 I9 share an open line: take black
    keep = SPEC.new(Setup(seats=2, seed=1, options={"opening": "swap3"}))
    for text in ("H8", "H9", "A15"):
        keep.apply(keep.to_act()[0], text)
    assert keep.trustee(1) == "keep"
    five = SPEC.new(Setup(seats=2, seed=1, options={"opening": "five2"}))
    for text in ("H8", "H9", "I8", "G8"):
        five.apply(five.to_act()[0], text)
    offer = five.trustee(0)
    assert offer.startswith("offer ") and offer in five.legal_actions(0)
    five.apply(0, offer)
    pick = five.trustee(1)
    assert pick in five.legal_actions(1) and pick.startswith("choose ")


@pytest.mark.parametrize("trustee_seat", [0, 1])
def test_trustee_beats_a_random_player(trustee_seat: int) -> None:
    rng = random.Random(trustee_seat)
    game = SPEC.new(Setup(seats=2, seed=3, options={"forbidden": False}))  # wins on skill
    assert isinstance(game, GomokuGame)
    while not game.is_over():
        seat = game.to_act()[0]
        if seat == trustee_seat:
            game.apply(seat, game.trustee(seat))
        else:
            empty = [p for p in game.pos.empty_points() if 45 <= p < 180]
            game.apply(seat, point_name(rng.choice(empty)))
    assert game.outcome().winners == (trustee_seat,)
