"""The pure settlement arithmetic (storage.settlement), property-tested with hypothesis."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from storage.settlement import SeatAmounts, settle_amounts, share

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
