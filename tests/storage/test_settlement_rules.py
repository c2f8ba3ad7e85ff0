"""The pure settlement arithmetic (storage.settlement), property-tested with hypothesis."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from storage.settlement import SeatAmounts, settle_amounts, settle_transfers, share

amount = st.integers(min_value=0, max_value=10**7)
seat = st.tuples(st.one_of(st.none(), amount), st.integers(min_value=-300, max_value=300))


def test_f1_exactly_when_nothing_caps() -> None:
    amounts = settle_amounts([(50_000, 12), (50_000, -6), (50_000, -6)], 1000, 50)
    assert amounts == [
        SeatAmounts(rake=50, won=12_000),
        SeatAmounts(rake=50, paid=6_000),
        SeatAmounts(rake=50, paid=6_000),
    ]
    assert [a.delta for a in amounts] == [11_950, -6_050, -6_050]


def test_share_examples() -> None:
    assert share(100, [1, 1, 1], [100, 100, 100]) == [34, 33, 33]
    assert share(100, [1, 1], [10, 1_000]) == [10, 90]  # the capped one's excess goes on
    assert share(100, [0, 1], [100, 100]) == [0, 100]
    assert share(5, [3, 1], [1, 1]) == [1, 1]  # more than all caps: everyone capped
    assert share(0, [1, 2], [5, 5]) == [0, 0]
    with pytest.raises(ValueError):
        share(-1, [1], [1])
    with pytest.raises(ValueError):
        share(1, [1], [1, 2])


@settings(max_examples=300, deadline=None)
@given(
    st.integers(min_value=0, max_value=10**6),
    st.lists(st.tuples(st.integers(0, 1_000), st.integers(0, 10**6)), min_size=1, max_size=6),
)
def test_share_properties(total: int, entries: list[tuple[int, int]]) -> None:
    weights = [w for w, _ in entries]
    caps = [c for _, c in entries]
    got = share(total, weights, caps)
    eligible = [i for i in range(len(entries)) if weights[i] > 0]
    assert sum(got) == min(total, sum(caps[i] for i in eligible))
    for i, g in enumerate(got):
        assert 0 <= g <= caps[i]
        if weights[i] == 0:
            assert g == 0
    # water-filling: an entry below its cap got at least its fair rate, up to rounding
    uncapped = [i for i in eligible if got[i] < caps[i]]
    for i in uncapped:
        for j in eligible:
            # j's rate exceeds i's only by rounding (less than one bean each)
            assert Fraction(got[j] - 1, weights[j]) <= Fraction(got[i] + 1, weights[i])


@settings(max_examples=400, deadline=None)
@given(
    st.lists(seat, min_size=1, max_size=6),
    st.integers(min_value=0, max_value=5_000),
    st.integers(min_value=0, max_value=2_000),
)
def test_settlement_invariants(seats: list[tuple[int | None, int]], n: int, a: int) -> None:
    amounts = settle_amounts(seats, n, a)
    assert len(amounts) == len(seats)
    # beans are never created or lost: the players' deltas pay exactly the house's rake
    assert sum(x.delta for x in amounts) + sum(x.rake for x in amounts) == 0
    for (held, points), x in zip(seats, amounts, strict=True):
        if held is None:  # a bot: nothing at all
            assert x == SeatAmounts()
            continue
        assert x.rake == min(a, held)
        assert x.delta >= -held  # never more than carried (带入)
        if points < 0:
            assert x.won == 0 and x.paid <= -points * n and x.refund <= x.paid
            assert x.delta >= -(-points * n + a)  # never more than X·N + A
        else:
            assert x.paid == 0 and x.refund == 0 and x.delta >= -a
        if points > 0:
            assert x.won <= min(points * n, held)  # 以小博大 cap
            assert x.delta <= points * n - x.rake
        if points == 0:
            assert x.delta == -x.rake


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.integers(min_value=1, max_value=50), min_size=1, max_size=4),
    st.integers(min_value=1, max_value=2_000),
    st.integers(min_value=0, max_value=100),
)
def test_f1_holds_whenever_everyone_carries_enough(losses: list[int], n: int, a: int) -> None:
    """Zero-sum points, everyone carrying more than they could lose or win: F1 exactly."""
    gain = sum(losses)
    stake = (gain * n + a) * 2
    seats = [(stake, gain)] + [(stake, -x) for x in losses]
    amounts = settle_amounts(seats, n, a)
    assert amounts[0].delta == gain * n - a
    assert [x.delta for x in amounts[1:]] == [-(x * n + a) for x in losses]


def test_bad_inputs() -> None:
    with pytest.raises(ValueError):
        settle_amounts([(10, 1)], -1, 0)
    with pytest.raises(ValueError):
        settle_amounts([(-10, 1)], 1, 0)


# --- pairwise transfers ---------------------------------------------------------------------

transfer_seat = st.one_of(st.none(), amount)


@st.composite
def transfer_hands(draw: st.DrawFn) -> tuple[list[int | None], list[tuple[int, int, int]]]:
    held = draw(st.lists(transfer_seat, min_size=2, max_size=5))
    pairs = st.tuples(
        st.integers(0, len(held) - 1), st.integers(0, len(held) - 1), st.integers(1, 300)
    ).filter(lambda t: t[0] != t[1])
    return held, draw(st.lists(pairs, max_size=8))


@settings(max_examples=400, deadline=None)
@given(transfer_hands(), st.integers(0, 5_000), st.integers(0, 2_000))
def test_transfer_invariants(
    hand: tuple[list[int | None], list[tuple[int, int, int]]], n: int, a: int
) -> None:
    held, transfers = hand
    amounts, moved = settle_transfers(held, transfers, n, a)
    assert len(moved) == len(transfers) and len(amounts) == len(held)
    # conservation: the players' deltas pay exactly the house's rake
    assert sum(x.delta for x in amounts) + sum(x.rake for x in amounts) == 0
    pair: dict[tuple[int, int], int] = {}
    for (payer, payee, points), beans in zip(transfers, moved, strict=True):
        assert 0 <= beans <= points * n
        if held[payer] is None or held[payee] is None:
            assert beans == 0  # bots pay and receive nothing
        pair[payer, payee] = pair.get((payer, payee), 0) + beans
    for (payer, payee), total in pair.items():
        payee_held = held[payee]
        assert payee_held is None or total <= payee_held  # 以小博大, per pair
    for h, x in zip(held, amounts, strict=True):
        if h is None:
            assert x == SeatAmounts()
        else:
            assert x.rake == min(a, h) and h + x.delta >= 0  # deduct only down to 0
            assert x.refund == 0


def test_transfers_without_caps_are_points_times_n() -> None:
    """点炮 then 自摸 (N 200, A 10): nobody is short, so each moves points·N after the rake."""
    amounts, moved = settle_transfers(
        [50_000, 50_000, 50_000, 50_000], [(1, 0, 4), (0, 2, 2), (1, 2, 2), (3, 2, 2)], 200, 10
    )
    assert moved == [800, 400, 400, 400]
    assert [x.delta for x in amounts] == [800 - 400 - 10, -1_200 - 10, 1_200 - 10, -400 - 10]


def test_a_payer_is_debited_only_down_to_zero_and_earlier_transfers_go_first() -> None:
    # seat 0 carries 1 000 and owes 3 seats 500 each after a rake of 50
    amounts, moved = settle_transfers(
        [1_000, 9_000, 9_000, 9_000], [(0, 1, 5), (0, 2, 5), (0, 3, 5)], 100, 50
    )
    assert moved == [500, 450, 0]
    assert amounts[0].delta == -1_000
    # the same debts in another order: another seat goes short
    _, moved = settle_transfers(
        [1_000, 9_000, 9_000, 9_000], [(0, 3, 5), (0, 2, 5), (0, 1, 5)], 100, 50
    )
    assert moved == [500, 450, 0]
    # what a seat received earlier in the hand is what it holds: it can pay it on
    _, moved = settle_transfers([100, 0, 5_000], [(2, 1, 1), (1, 0, 1)], 100, 0)
    assert moved == [0, 0]  # seat 1 carried 0: it may win nothing, so it has nothing to pay
    # seat 1 carried 100 and won 100 first: it now holds 200 and pays all of it on
    amounts, moved = settle_transfers([300, 100, 5_000], [(2, 1, 1), (1, 0, 2)], 100, 0)
    assert moved == [100, 200] and amounts[1].delta == -100


def test_the_payee_takes_at_most_its_own_stake_from_each_payer() -> None:
    """§1.3 per pair: carrying 300, seat 0 takes at most 300 from each of the others, over all
    the transfers between the same two seats."""
    _, moved = settle_transfers([300, 5_000, 5_000], [(1, 0, 2), (1, 0, 2), (2, 0, 5)], 100, 0)
    assert moved == [200, 100, 300]


def test_transfers_to_or_from_a_bot_move_nothing() -> None:
    amounts, moved = settle_transfers(
        [None, 5_000, 5_000], [(0, 1, 3), (2, 0, 3), (2, 1, 1)], 100, 20
    )
    assert moved == [0, 0, 100]
    assert amounts[0] == SeatAmounts() and [x.delta for x in amounts[1:]] == [80, -120]


def test_room_limits_what_a_seat_may_gain() -> None:
    # seat 0 may gain only 150 more beans (its rake of 50 paid first frees 50 more)
    amounts, moved = settle_transfers(
        [5_000, 5_000, 5_000], [(1, 0, 1), (2, 0, 1)], 100, 50, room=[150, None, None]
    )
    assert moved == [100, 100] and amounts[0].delta == 150
    amounts, moved = settle_transfers(
        [5_000, 5_000, 5_000], [(1, 0, 1), (2, 0, 1)], 100, 50, room=[100, None, None]
    )
    assert moved == [100, 50] and amounts[0].delta == 100
    # the pot rule: the winner's cap shrinks, the losers get the rest back
    pot = settle_amounts([(5_000, 2), (5_000, -1), (5_000, -1)], 100, 0, room=[60, None, None])
    assert [x.delta for x in pot] == [60, -30, -30]
    # a full house takes the rake from the first seats only
    pot = settle_amounts([(5_000, 0), (5_000, 0)], 100, 50, house_room=70)
    assert [x.rake for x in pot] == [50, 20]


def test_bad_transfers() -> None:
    with pytest.raises(ValueError, match="no such seat"):
        settle_transfers([10, 10], [(0, 2, 1)], 1, 0)
    with pytest.raises(ValueError, match="itself"):
        settle_transfers([10, 10], [(1, 1, 1)], 1, 0)
    with pytest.raises(ValueError, match="at least 1"):
        settle_transfers([10, 10], [(0, 1, 0)], 1, 0)
    with pytest.raises(ValueError):
        settle_transfers([10, 10], [(0, 1, 1)], 1, 0, room=[1])


def test_fees_go_to_the_house_with_the_rake_before_any_payment_between_seats() -> None:
    # props bought during a hand (Outcome.fees, beans): taken after the rake, capped by what the
    # seat still holds, and what is left of the stake pays the hand
    amounts, moved = settle_transfers([1_000, 50_000], [(0, 1, 2)], 500, 50, fees=[400, 0])
    assert [a.fee for a in amounts] == [400, 0]
    assert moved == [550], "the payer had 1000 - 50 rake - 400 fee left"
    assert [a.delta for a in amounts] == [-1_000, 500]
    pot = settle_amounts([(1_000, -2), (50_000, 2)], 500, 50, fees=[2_000, 100])
    assert [a.fee for a in pot] == [950, 100], "a fee is capped by what the seat holds"
    assert [a.delta for a in pot] == [-1_000, -150]
    assert sum(a.delta for a in pot) + sum(a.rake + a.fee for a in pot) == 0
    with pytest.raises(ValueError):
        settle_amounts([(10, 0)], 1, 0, fees=[-1])
