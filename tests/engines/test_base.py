"""The common interface's plain-data forms round-trip."""

from __future__ import annotations

from engines import registry
from engines.base import Board, SeatView, T, View


def test_view_round_trips_through_plain_data() -> None:
    view = View(
        phase=T("p.play", seat=2),
        seats=(SeatView(T("role.x"), 3, "33", T("s", n=T("inner"))), SeatView(melds="555p 7777s", discards="19m3z")),
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


def test_outcome_with_transfers_round_trips_and_must_net_to_its_points() -> None:
    import pytest

    from engines.base import Outcome, Transfer, net_points

    transfers = (Transfer(0, 1, 8, T("r.zimo")), Transfer(2, 1, 8), Transfer(2, 3, 2))
    outcome = Outcome(net_points(4, transfers), (0, 1, 0, 0), (T("x"),), (1,), transfers)
    assert outcome.points == (-8, 16, -10, 2)
    assert Outcome.from_json(outcome.to_json()) == outcome
    with pytest.raises(ValueError):
        Outcome((-8, 16, -8, 0), (0, 0, 0, 0), transfers=transfers)
    with_fees = Outcome((0, 0), (0, 0), fees=(0, 500))
    assert Outcome.from_json(with_fees.to_json()) == with_fees
    with pytest.raises(ValueError):
        Outcome((0, 0), (0, 0), fees=(-1, 0))
    with pytest.raises(ValueError):
        Transfer(1, 1, 3)
    with pytest.raises(ValueError):
        Transfer(0, 1, 0)


def test_a_picker_is_cut_into_menus_of_at_most_25() -> None:
    import pytest

    from engines.base import Picker

    big = Picker(tuple(f"c{i}" for i in range(33)), tuple(f"c{i}" for i in range(33)))
    assert big.menus() == [(0, 25), (25, 33)]
    by_suit = Picker(tuple("abcdef"), tuple("abcdef"), groups=(3, 1, 2))
    assert by_suit.menus() == [(0, 3), (3, 4), (4, 6)]
    with pytest.raises(ValueError):
        Picker(tuple("abc"), tuple("abc"), groups=(2,)).menus()
    with pytest.raises(ValueError):
        Picker(tuple("x" * 26), tuple("x" * 26), groups=(26,)).menus()


def test_the_new_interface_defaults_keep_every_existing_game_as_it_was() -> None:
    from engines.base import Game, Setup

    for spec in registry.specs().values():
        if spec.game.timeout_action is not Game.timeout_action:
            continue  # a game with its own windows (claims, declarations) is tested in its package
        game = spec.new(Setup(seats=spec.min_seats, seed=5, options=spec.validate({})))
        seat = game.to_act()[0]
        assert game.public_to_act() == game.to_act()
        assert game.window() == len(game.log)
        timeout = game.timeout_action(seat)
        assert timeout.miss and timeout.action == game.trustee(seat)


def test_a_record_with_the_wrong_seat_count_is_refused_like_a_new_hand() -> None:
    import pytest

    from engines.base import Setup
    from engines.errors import OptionError

    spec = registry.specs()["doudizhu"]
    record = spec.new(Setup(seats=3, seed=1, options=spec.validate({}))).to_record()
    record["setup"]["seats"] = 7
    with pytest.raises(OptionError):
        spec.from_record(record)
