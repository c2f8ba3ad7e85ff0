"""五子棋 games: turns, the three room modes, results, bad input, views, records."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from engines.base import BASE_TEXTS, ESCAPE, Setup, Text
from engines.errors import IllegalActionError, NotationError, OptionError
from engines.gomoku import SPEC, SPECS, GomokuGame
from engines.gomoku.notation import parse_point, point_name
from engines.gomoku.rules import BLACK, WHITE, Position

FREE = {"forbidden": False, "opening": "standard"}  # 无禁手
RENJU = {"forbidden": True, "opening": "standard"}
SWAP3 = {"forbidden": True, "opening": "swap3"}  # 三手交换
FIVE2 = {"forbidden": True, "opening": "five2"}  # 五手两打


def new(options: dict[str, Any] | None = None, **setup: Any) -> GomokuGame:
    game = SPEC.new(Setup(seats=2, seed=7, options=options or {}, **setup))
    assert isinstance(game, GomokuGame)
    return game


def play(game: GomokuGame, moves: str) -> None:
    """Play whitespace-separated actions, each by the seat to act; ',' joins two words."""
    for text in moves.split():
        game.apply(game.to_act()[0], text.replace(",", " "))


def state(game: GomokuGame) -> tuple[Any, ...]:
    return (
        game.pos.fen(),
        list(game.moves),
        game.phase(),
        game.to_act(),
        game.black_seat,
        game.offers,
        game.result,
        json.dumps(game.to_record()),
        game.view(None),
        game.view(0),
    )


def test_spec() -> None:
    assert SPECS == (SPEC,)
    assert SPEC.key == "gomoku" and SPEC.level_table == "gomoku"
    assert (SPEC.min_seats, SPEC.max_seats) == (2, 2)
    assert set(SPEC.phases) == {"move", "swap", "offer", "choose"}
    assert SPEC.max_loss(SPEC.options, 2) == 1
    assert SPEC.validate({"opening": "swap3"}) == {"forbidden": True, "opening": "swap3"}
    with pytest.raises(OptionError):
        SPEC.validate({"forbidden": "yes"})
    with pytest.raises(OptionError):
        new({"opening": "six3"})
    with pytest.raises(OptionError):
        SPEC.new(Setup(seats=3, seed=1))


@pytest.mark.parametrize(
    ("options", "option", "en"),
    [
        ({"opening": "bogus"}, "opening", "standard, swap3, five2"),
        ({"opening": ""}, "opening", "standard, swap3, five2"),
        ({"forbidden": 1}, "forbidden", "got 1"),
        ({"renju": True}, "renju", "unknown option"),
    ],
)
def test_room_options_the_rules_cannot_play_are_refused_at_validation(
    options: dict[str, Any], option: str, en: str
) -> None:
    # GameSpec.validate (run by the host before any table starts) calls check_options: an
    # opening the referee does not know is refused there, naming the option.
    with pytest.raises(OptionError) as info:
        SPEC.validate(options)
    assert info.value.key == option and en in str(info.value)
    assert info.value.text is not None
    for locale in ("zh-CN", "en-US"):
        assert info.value.text.key in SPEC.texts[locale]
    with pytest.raises(OptionError):
        GomokuGame.check_options(options)
    with pytest.raises(OptionError):
        GomokuGame(Setup(seats=2, seed=1, options=options))
    with pytest.raises(OptionError):
        GomokuGame.check_options({"opening": ["swap3"]})
    with pytest.raises(OptionError, match="true or false"):
        GomokuGame.check_options({"forbidden": 1})


def test_first_moves_and_turns() -> None:
    game = new()
    assert game.phase() == "move" and game.to_act() == (0,)
    legal = game.legal_actions(0)
    assert len(legal) == 226 and len(set(legal)) == 226 and "H8" in legal and "resign" in legal
    assert game.legal_actions(1) == []
    assert game.apply(0, " h 8 ") == "H8"
    assert game.to_act() == (1,)
    assert game.apply(1, "Ｊ９") == "J9"
    assert game.log == [(0, "H8"), (1, "J9")]
    assert game.pos.cells[parse_point("H8")] == BLACK
    assert game.pos.cells[parse_point("J9")] == WHITE


def test_black_five_wins() -> None:
    game = new(RENJU, ratings=(0, 0))
    play(game, "H8 A1 I8 A2 J8 A3 K8 A4")
    assert not game.is_over()
    play(game, "G8")
    assert game.is_over() and game.to_act() == ()
    out = game.outcome()
    assert out.winners == (0,) and out.points == (1, -1) and out.scores == (10, -10)
    assert out.lines[0].key == "gomoku.result.five"
    assert game.view(None).board is not None and game.view(None).board.last == "G8"


def test_white_overline_wins_in_a_forbidden_room() -> None:
    # 白棋无禁手: white's six in a row is a win.
    game = new(RENJU)
    play(game, "A15 A1 C15 B1 E15 C1 G15 D1 I15 F1 K15 E1")
    assert game.is_over() and game.outcome().winners == (1,)


def test_black_overline_is_forbidden_but_wins_without_forbidden_moves() -> None:
    moves = "A1 A15 B1 C15 C1 E15 D1 G15 F1 I15 E1"
    renju = new(RENJU)
    play(renju, moves)
    assert renju.is_over() and renju.outcome().winners == (1,)
    assert renju.outcome().lines[0] == Text(
        "gomoku.result.forbidden", {"point": "E1", "shape": Text("gomoku.shape.overline")}
    )
    free = new(FREE)
    play(free, moves)
    assert free.is_over() and free.outcome().winners == (0,)
    assert free.outcome().lines[0].key == "gomoku.result.five"


def test_forbidden_move_loses_at_once_and_is_marked() -> None:
    # F8 G8 / H9 H10 then H8: 三三.
    game = new(RENJU, ratings=(50, 50))
    play(game, "F8 A1 G8 A3 H9 A5 H10 A7")
    assert game.apply(0, "H8") == "H8"
    assert game.is_over()
    assert game.pos.cells[parse_point("H8")] == BLACK  # the move is on the board
    out = game.outcome()
    assert out.winners == (1,) and out.points == (-1, 1) and out.scores == (-10, 10)
    assert out.lines == (
        Text(
            "gomoku.result.forbidden", {"point": "H8", "shape": Text("gomoku.shape.double_three")}
        ),
    )
    board = game.view(None).board
    assert board is not None and board.marks == {"H8": "×"} and board.last == "H8"
    assert game.view(0).seats[0].status == Text("gomoku.status.lost")


def test_double_three_allowed_without_forbidden_moves_and_for_white() -> None:
    free = new(FREE)
    play(free, "F8 A1 G8 A3 H9 A5 H10 A7 H8")
    assert not free.is_over()
    # White makes the same shape in a 禁手 room: white has no 禁手.
    renju = new(RENJU)
    play(renju, "A1 F8 A3 G8 A5 H9 A7 H10 A9 H8")
    assert not renju.is_over()


def test_five_with_double_three_wins() -> None:
    # Row E8 F8 G8 . I8 and threes H9 H10, I9 J10: H8 makes five and 三三 at once.
    game = new(RENJU)
    play(game, "E8 A1 F8 A3 G8 A5 I8 A7 H9 A9 H10 A11 I9 A13 J10 O1")
    play(game, "H8")
    assert game.is_over() and game.outcome().winners == (0,)
    assert game.outcome().lines[0].key == "gomoku.result.five"


def test_double_four_in_a_game() -> None:
    game = new(RENJU)
    play(game, "D8 A1 F8 A3 H8 A5 J8 A7 G8")  # X.XXX.X
    assert game.outcome().lines[0].args["shape"] == Text("gomoku.shape.double_four")


def test_swap3_swap() -> None:
    game = new(SWAP3)
    play(game, "H8 H9 J10")
    assert game.phase() == "swap" and game.to_act() == (1,)
    assert game.legal_actions(1) == ["swap", "keep", "resign"]
    choices = game.choices(1)
    assert [c.action for c in choices] == ["swap", "keep"]
    assert game.choices(0) == []
    with pytest.raises(IllegalActionError):
        game.apply(1, "K11")  # decide first
    assert game.apply(1, "交换") == "swap"
    # Seat 1 now holds black; white's 2nd stone (move 4) is seat 0's.
    assert game.black_seat == 1 and game.phase() == "move" and game.to_act() == (0,)
    assert game.view(None).seats[1].role == Text("gomoku.role.black")
    play(game, "G7")
    assert game.to_act() == (1,) and game.colour_to_move() == BLACK
    assert game.next_carry() == {"black": 1}  # alternation follows who started black


def test_swap3_keep() -> None:
    game = new(SWAP3)
    play(game, "H8 H9 J10")
    assert game.apply(1, "不交换") == "keep"
    assert game.black_seat == 0 and game.to_act() == (1,) and game.phase() == "move"
    play(game, "G7")
    assert game.phase() == "move"  # the swap is asked once only


def test_swap3_colours_decide_the_forbidden_rule() -> None:
    # After the swap, seat 1 is black and it is seat 1 whose 三三 is forbidden.
    game = new(SWAP3)
    play(game, "F8 A1 G8 swap A3 H9 A5 H10 A7")
    assert game.to_act() == (1,)
    play(game, "H8")
    assert game.is_over() and game.outcome().winners == (0,)


def test_five2_offer_and_choose() -> None:
    game = new(FIVE2)
    play(game, "H8 H9 I8 G8")
    assert game.phase() == "offer" and game.to_act() == (0,)
    with pytest.raises(IllegalActionError):
        game.apply(0, "J8")  # one stone is not an offer
    with pytest.raises(IllegalActionError):
        game.apply(0, "offer H8 J9")  # H8 is taken
    assert game.apply(0, "j9, f7") == "offer F7 J9"
    assert game.phase() == "choose" and game.to_act() == (1,)
    board = game.view(None).board
    assert board is not None and board.marks == {"F7": "5", "J9": "5"}
    assert game.legal_actions(1) == ["choose F7", "choose J9", "resign"]
    assert [c.action for c in game.choices(1)] == ["choose F7", "choose J9"]
    with pytest.raises(IllegalActionError):
        game.apply(1, "choose K10")
    assert game.apply(1, "J9") == "choose J9"
    assert game.pos.cells[parse_point("J9")] == BLACK
    assert game.pos.cells[parse_point("F7")] == 0
    assert game.phase() == "move" and game.to_act() == (1,) and len(game.moves) == 5
    board = game.view(None).board
    assert board is not None and board.marks == {} and board.last == "J9"


def test_five2_rejects_mirror_image_offers() -> None:
    # All four stones on column H: the position is its own mirror image about column H,
    # so the 105 pairs of mirror points off column H may not be offered together.
    game = new(FIVE2)
    play(game, "H8 H9 H10 H11")
    before = state(game)
    with pytest.raises(IllegalActionError):
        game.apply(0, "offer G8 I8")  # I8 is G8 seen in the mirror
    assert state(game) == before
    legal = game.legal_actions(0)
    assert "offer G8 I8" not in legal and "offer G8 J8" in legal
    assert len(legal) == len(set(legal)) == 221 * 220 // 2 - 105 + 1
    game.apply(0, "offer G8 J8")


def test_resign_and_escape() -> None:
    game = new(RENJU, ratings=(100, 0))
    play(game, "H8")
    assert game.apply(1, "认输") == "resign"
    out = game.outcome()
    assert out.winners == (0,) and out.scores == (1, -1)
    assert out.lines == (Text("gomoku.result.resign", {"colour": Text("gomoku.colour.white")}),)

    game = new(RENJU)
    play(game, "H8")
    game.escape(0)  # black leaves while white is to move
    assert game.is_over() and game.outcome().winners == (1,)
    assert game.log[-1] == (0, ESCAPE)
    assert game.view(None).seats[0].status == Text("gomoku.status.escaped")
    game.escape(1)  # the game is over: nothing changes
    assert game.outcome().winners == (1,)
    with pytest.raises(IllegalActionError):
        game.escape(2)


@pytest.mark.parametrize(
    "text",
    ["H8", "P1", "H16", "h0", "swap", "keep", "choose H9", "offer A1 A2", "", "xyz", "H 8 9"],
)
def test_bad_input_changes_nothing(text: str) -> None:
    game = new(RENJU)
    play(game, "H8")
    before = state(game)
    with pytest.raises((NotationError, IllegalActionError)):
        game.apply(1, text)
    assert state(game) == before
    with pytest.raises(IllegalActionError):
        game.apply(0, "J9")  # not seat 0's turn
    assert state(game) == before


def test_bad_input_in_each_phase_changes_nothing() -> None:
    swap = new(SWAP3)
    play(swap, "H8 H9 J10")
    five = new(FIVE2)
    play(five, "H8 H9 I8 G8")
    choose = new(FIVE2)
    play(choose, "H8 H9 I8 G8 offer,F7,J9")
    for game, texts in (
        (swap, ["K11", "offer A1 A2", "choose A1"]),
        (five, ["A1", "offer A1 A1", "offer H8 A1", "keep"]),
        (choose, ["A1", "choose A1", "swap", "offer A1 A2"]),
    ):
        before = state(game)
        for text in texts:
            with pytest.raises((NotationError, IllegalActionError)):
                game.apply(game.to_act()[0], text)
            assert state(game) == before, text


def test_no_move_after_the_end() -> None:
    game = new(RENJU)
    play(game, "H8 A1 I8 A2 J8 A3 K8 A4 G8")
    before = state(game)
    with pytest.raises(IllegalActionError):
        game.apply(1, "B1")
    with pytest.raises(IllegalActionError):
        game.trustee(1)
    assert state(game) == before
    unfinished = new()
    with pytest.raises(IllegalActionError):
        unfinished.outcome()


def _draw_pattern() -> tuple[list[int], list[int]]:
    # colour = ((c + 2r) // 2) % 2 has no five in any direction: 113 black, 112 white.
    black, white = [], []
    for p in range(225):
        c, r = p % 15, p // 15
        (black if ((c + 2 * r) // 2) % 2 == 0 else white).append(p)
    return black, white


def test_full_board_without_five_is_a_draw() -> None:
    black, white = _draw_pattern()
    assert (len(black), len(white)) == (113, 112)
    full = Position()
    for p in black:
        full.cells[p] = BLACK
    for p in white:
        full.cells[p] = WHITE
    assert full.is_full()
    assert not full.can_still_five(BLACK, True) and not full.can_still_five(WHITE, False)

    game = new(FREE, ratings=(120, 80))
    for i in range(225):
        p = black[i // 2] if i % 2 == 0 else white[i // 2]
        assert game.pos.can_still_five(BLACK, False) or game.pos.can_still_five(WHITE, False)
        game.apply(game.to_act()[0], point_name(p))
        if game.is_over():
            break
    assert game.is_over() and game.result is not None and game.result.winner is None
    # 和棋: neither side can make five any more (the board need not be full yet).
    assert not game.pos.can_still_five(BLACK, False) and not game.pos.can_still_five(WHITE, False)
    out = game.outcome()
    assert out.points == (0, 0) and out.winners == () and out.scores == (-1, 1)
    assert out.lines == (Text("gomoku.result.draw"),)


def test_ratings_in_the_outcome() -> None:
    # The lower-rated winner gains more; the gap is seat 1's 150 vs seat 0's 100.
    game = new(RENJU, ratings=(100, 150))
    play(game, "H8 A1 I8 A2 J8 A3 K8 A4 G8")
    assert game.outcome().scores == (15, -15)
    game = new(RENJU, ratings=(0, 250))
    play(game, "H8 A1 I8 A2 J8 A3 K8 A4 G8")
    assert game.outcome().scores == (0, 0) and game.outcome().points == (1, -1)


def test_carry_decides_who_is_black() -> None:
    game = new(RENJU, carry={"black": 1})
    assert game.to_act() == (1,) and game.colour_of(1) == BLACK
    assert game.next_carry() == {"black": 0}
    assert new().next_carry() == {"black": 1}
    with pytest.raises(OptionError):
        new(carry={"black": 2})


def test_views_and_lines() -> None:
    game = new(SWAP3)
    play(game, "H8 H9 J10")
    view = game.view(0)
    assert view.phase == Text("gomoku.phase.swap")
    assert view.hand is None and view.board is not None
    assert view.board.size == 15 and view.board.stones == {"H8": 0, "H9": 1, "J10": 0}
    assert view.board.last == "J10"
    assert view.seats[0].role == Text("gomoku.role.black")
    assert view.seats[1].status == Text("gomoku.status.thinking")
    keys = [line.key for line in view.lines]
    assert keys[:3] == ["gomoku.line.mode", "gomoku.line.moves", "gomoku.line.last"]
    assert view.lines[1].args == {"n": 3}
    assert view == game.view(1) == game.view(None)  # nothing hidden in 五子棋
    play(game, "keep")
    assert game.view(None).phase == Text(
        "gomoku.phase.move", {"colour": Text("gomoku.colour.white")}
    )


def test_record_replays_every_mode() -> None:
    games = []
    g = new(SWAP3, ratings=(3, 4))
    play(g, "H8 H9 J10 swap G7 K11")
    g.escape(0)
    games.append(g)
    g = new(FIVE2, carry={"black": 1})
    play(g, "H8 H9 I8 G8 offer,F7,J9 F7 J9 A1 resign")
    games.append(g)
    g = new(RENJU)
    play(g, "F8 A1 G8 A3 H9 A5 H10 A7 H8")
    games.append(g)
    for g in games:
        again = SPEC.from_record(json.loads(g.to_text()))
        assert isinstance(again, GomokuGame)
        assert state(again) == state(g)
        assert again.outcome() == g.outcome()


def _texts(value: Any) -> list[Text]:
    if isinstance(value, Text):
        out = [value]
        for arg in value.args.values():
            out += _texts(arg)
        return out
    if isinstance(value, (list, tuple)):
        return [t for v in value for t in _texts(v)]
    return []


def _render(text: Text, locale: str) -> str:
    args = {k: _render(v, locale) if isinstance(v, Text) else v for k, v in text.args.items()}
    return SPEC.texts[locale][text.key].format(**args)


def test_every_emitted_text_is_in_both_catalogues() -> None:
    assert set(SPEC.texts) == {"zh-CN", "en-US", "zh-TW"}
    assert set(SPEC.texts["zh-CN"]) == set(SPEC.texts["en-US"])
    seen: set[str] = set()
    scripts = [
        (SWAP3, "H8 H9 J10 swap G7 K11"),
        (SWAP3, "H8 H9 J10 keep"),
        (FIVE2, "H8 H9 I8 G8 offer,F7,J9"),
        (FIVE2, "H8 H9 I8 G8 offer,F7,J9 F7 resign"),
        (RENJU, "F8 A1 G8 A3 H9 A5 H10 A7 H8"),
        (RENJU, "D8 A1 F8 A3 H8 A5 J8 A7 G8"),
        (RENJU, "D8 A1 E8 A3 F8 A5 G8 A7 I8 A9 H8"),
        (FREE, "H8 A1 I8 A2 J8 A3 K8 A4 G8"),
        (FREE, "A1 H8 A2 I8 A3 J8 A4 K8 O15 G8"),
        (RENJU, "H8 resign"),
    ]
    for options, moves in scripts:
        game = new(options)
        for text in [""] + moves.split():
            if text:
                game.apply(game.to_act()[0], text.replace(",", " "))
            found = []
            for seat in (None, 0, 1):
                v = game.view(seat)
                found += _texts([v.phase, list(v.lines)] + [[s.role, s.status] for s in v.seats])
            for seat in (0, 1):
                found += _texts([c.label for c in game.choices(seat)])
            if game.is_over():
                found += _texts(list(game.outcome().lines))
            for t in found:
                seen.add(t.key)
                for locale in ("zh-CN", "en-US"):
                    assert _render(t, locale)
    g = new(RENJU)
    g.escape(1)
    v = g.view(None)
    seen.update(t.key for t in _texts([list(g.outcome().lines), [s.status for s in v.seats]]))
    # Draws are covered by the full-board test; the other keys must all be reachable.
    # Error texts ("err.*") are checked in tests/engines/test_error_texts.py, base's window
    # text (a game with no windows never shows it) in tests/engines/test_windows.py.
    views = {k for k in SPEC.texts["en-US"] if not k.startswith("err.")}
    views -= set(BASE_TEXTS["en-US"])
    unused = views - seen - {"gomoku.result.draw", "gomoku.status.draw"}
    assert unused == set()


def test_state_is_independent_of_copies() -> None:
    game = new(RENJU)
    play(game, "H8 H9")
    clone = copy.deepcopy(game)
    clone.apply(0, "J10")
    assert len(game.moves) == 2 and len(clone.moves) == 3
