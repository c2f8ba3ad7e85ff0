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
    from engines.base import Setup

    for spec in registry.specs().values():
        game = spec.new(Setup(seats=spec.min_seats, seed=5, options=spec.validate({})))
        if game.decision() is not None:
            continue  # a hand that opens in a window (定缺, 宣点, 亮主): tests/engines/test_windows
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


def test_a_views_card_counter_round_trips_and_defaults_to_none() -> None:
    view = View(phase=T("p"), seats=(SeatView(),), hand="345", counter="R×1 B×0 3×4")
    assert View.from_json(view.to_json()) == view
    assert View(phase=T("p"), seats=()).counter is None


def test_an_offer_is_taken_out_of_turn_logged_and_replayed_and_lapses() -> None:
    """The offer mechanism on a game of its own: a seat not to act takes an open offer through
    ``apply``; nothing waits for it; once it lapses the same text is refused."""
    import pytest

    from engines.base import Choice, Game, Outcome, Setup
    from engines.errors import IllegalActionError

    class Race(Game):
        """Seats say "go" in turn; until seat 0 has gone, any seat may "cheer" once."""

        def __init__(self, setup: Setup) -> None:
            super().__init__(setup)
            self.turn, self.cheers = 0, [False] * setup.seats

        def to_act(self) -> tuple[int, ...]:
            return () if self.is_over() else (self.turn,)

        def phase(self) -> str:
            return "go"

        def legal_actions(self, seat: int) -> list[str]:
            return ["go"] if seat in self.to_act() else []

        def open_offers(self, seat: int) -> tuple[Choice, ...]:
            open_ = self.turn == 0 and not self.cheers[seat]
            return (Choice("cheer", T("cheer")),) if open_ else ()

        def _take_offer(self, seat: int, action: str) -> str:
            self.cheers[seat] = True
            return action

        def _apply(self, seat: int, text: str) -> str:
            if text != "go":
                raise IllegalActionError("say go", seat=seat, action=text)
            self.turn += 1
            return "go"

        def _trustee(self, seat: int, level: str = "normal") -> str:
            return "go"

        def is_over(self) -> bool:
            return self.turn >= self.setup.seats

        def outcome(self) -> Outcome:
            return Outcome((0,) * self.setup.seats, (0,) * self.setup.seats)

        def view(self, seat: int | None) -> View:
            return View(phase=T("go"), seats=())

    game = Race(Setup(seats=3, seed=1))
    assert game.apply(2, " CHEER ") == "cheer" and game.to_act() == (0,)
    assert "cheer" not in game.legal_actions(0) and game.open_offers(2) == ()
    with pytest.raises(IllegalActionError):
        game.apply(2, "cheer")  # taken already: out of turn and no offer
    game.escape(1)
    with pytest.raises(IllegalActionError):
        game.apply(1, "cheer")  # an escaped seat takes no offer
    game.apply(0, "go")
    with pytest.raises(IllegalActionError):
        game.apply(0, "cheer")  # lapsed once seat 0 went, though it was never declined
    again = Race.from_record(game.to_record())
    assert again.cheers == game.cheers == [False, False, True] and again.log == game.log
