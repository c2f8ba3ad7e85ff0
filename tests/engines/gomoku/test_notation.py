"""记谱: points and actions, canonical forms and forgiving input."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engines.errors import NotationError
from engines.gomoku.notation import CENTER, Action, Kind, parse_point, point_name
from engines.gomoku.rules import BLACK, WHITE, Position


def test_every_point_round_trips() -> None:
    names = [point_name(p) for p in range(225)]
    assert len(set(names)) == 225
    assert names[0] == "A1" and names[14] == "O1" and names[224] == "O15"
    assert point_name(CENTER) == "H8"
    assert all(parse_point(n) == p for p, n in enumerate(names))
    assert all(parse_point(n.lower()) == p for p, n in enumerate(names))


@pytest.mark.parametrize("text", ["h8", "H8", " h 8 ", "H08", "Ｈ８", "h\t8"])
def test_forgiving_points(text: str) -> None:
    assert point_name(parse_point(text)) == "H8"


@pytest.mark.parametrize("text", ["", "8H", "P8", "H0", "H16", "HH", "H8.5", "Z1", "H-1"])
def test_bad_points(text: str) -> None:
    with pytest.raises(NotationError) as err:
        parse_point(text)
    assert str(err.value)  # readable


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("h8", "H8"),
        ("play H8", "H8"),
        ("下 h8", "H8"),
        ("swap", "swap"),
        ("交换", "swap"),
        ("SWAP", "swap"),
        ("keep", "keep"),
        ("不交换", "keep"),
        ("offer J9 H8", "offer H8 J9"),
        ("offer h8,j9", "offer H8 J9"),
        ("H8 J9", "offer H8 J9"),
        ("两打 J9 H8", "offer H8 J9"),
        ("H8J10", "offer H8 J10"),
        ("choose H8", "choose H8"),
        ("选 h8", "choose H8"),
        ("resign", "resign"),
        ("认输", "resign"),
        ("投降", "resign"),
    ],
)
def test_actions(text: str, canonical: str) -> None:
    assert str(Action.parse(text)) == canonical


@pytest.mark.parametrize(
    "text",
    ["", "pass", "offer H8", "offer H8 H8", "choose", "choose H8 J9", "H8 J9 K10", "swap H8"],
)
def test_bad_actions(text: str) -> None:
    with pytest.raises(NotationError):
        Action.parse(text)


points = st.integers(0, 224)
actions = st.one_of(
    st.builds(lambda p: Action(Kind.MOVE, (p,)), points),
    st.builds(lambda p: Action(Kind.CHOOSE, (p,)), points),
    st.builds(
        lambda a, b: Action(Kind.OFFER, tuple(sorted({a, b}, key=lambda q: (q % 15, q)))),
        points,
        points,
    ).filter(lambda a: len(a.points) == 2),
    st.sampled_from([Action(Kind.SWAP), Action(Kind.KEEP), Action(Kind.RESIGN)]),
)


@settings(max_examples=200)
@given(actions)
def test_action_round_trip(action: Action) -> None:
    assert Action.parse(str(action)) == action
    assert Action.parse(str(action).lower()) == action


@settings(max_examples=50)
@given(st.lists(st.tuples(points, st.sampled_from([BLACK, WHITE])), max_size=60))
def test_position_text_round_trip(stones: list[tuple[int, int]]) -> None:
    pos = Position()
    for p, colour in stones:
        pos.cells[p] = colour
    assert Position.from_fen(pos.fen()) == pos


def test_position_from_stones_and_errors() -> None:
    pos = Position.from_stones("H8 i9", "J10")
    assert pos.stones(BLACK) == [parse_point("H8"), parse_point("I9")]
    assert pos.stones(WHITE) == [parse_point("J10")]
    for bad in (
        "15/15",
        "16/" + "/".join(["15"] * 14),
        "/".join(["14"] * 15),
        "/".join(["q14"] * 15),
    ):
        with pytest.raises(NotationError):
            Position.from_fen(bad)
    with pytest.raises(NotationError):
        Position.from_stones("H8", "h8")
