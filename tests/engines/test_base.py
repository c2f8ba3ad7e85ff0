"""The common interface's plain-data forms round-trip."""

from __future__ import annotations

from engines import registry
from engines.base import Board, SeatView, T, View


def test_view_round_trips_through_plain_data() -> None:
    view = View(
        phase=T("p.play", seat=2),
        seats=(SeatView(T("role.x"), 3, "33", T("s", n=T("inner"))), SeatView()),
        lines=(T("line", a=1),),
        hand="345",
        board=Board(15, {"H8": 0, "I9": 1}, "I9", {"H8": "×"}),
    )
    assert View.from_json(view.to_json()) == view


def test_every_game_s_final_public_view_round_trips() -> None:
    from engines.base import Setup

    for spec in registry.specs().values():
        game = spec.new(Setup(seats=spec.min_seats, seed=3, options=spec.validate({})))
        for _ in range(3000):
            if game.is_over():
                break
            seat = game.to_act()[0]
            game.apply(seat, game.trustee(seat))
        assert game.is_over(), spec.key
        final = game.view(None)
        assert View.from_json(final.to_json()) == final
