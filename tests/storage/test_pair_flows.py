"""Pair statistics are exact: however a hand's losses are shared among its winners, each
winner's pair figures add up to the beans they won, and each loser's to the beans they paid
to players (their loss less their part of the rake), never a bean more or less."""

from __future__ import annotations

from hypothesis import example, given
from hypothesis import strategies as st

from storage.conduct import SeatOutcome, _flows


@example([-5, -5, -4, 10, 12, 11, 11, -54])  # rounding cell by cell left a row short
@given(st.lists(st.integers(-10**6, 10**6), min_size=2, max_size=8))
def test_each_seats_flows_add_up_to_what_it_won_or_paid(deltas: list[int]) -> None:
    seats = [SeatOutcome(uid, d) for uid, d in enumerate(deltas, 1)]
    flows = _flows(seats, ())
    gains = sum(d for d in deltas if d > 0)
    losses = -sum(d for d in deltas if d < 0)
    paid = min(gains, losses)
    assert all(beans > 0 for beans in flows.values())
    received = {s.uid: sum(b for (_, to), b in flows.items() if to == s.uid) for s in seats}
    given_ = {s.uid: sum(b for (fr, _), b in flows.items() if fr == s.uid) for s in seats}
    assert sum(flows.values()) == paid
    for s in seats:
        if s.delta > 0 and gains <= losses:
            assert received[s.uid] == s.delta, "a winner's figures are its gain"
        if s.delta < 0 and losses <= gains:
            assert given_[s.uid] == -s.delta, "a loser's figures are its loss"
        if s.delta <= 0:
            assert received[s.uid] == 0
        if s.delta >= 0:
            assert given_[s.uid] == 0
    for (payer, payee), beans in flows.items():  # close to the proportional share
        ideal = -deltas[payer - 1] * paid / losses * deltas[payee - 1] / gains
        assert abs(beans - ideal) < 3


@given(st.lists(st.integers(-10**4, 10**4), min_size=2, max_size=8))
def test_each_pair_gets_its_share_rounded_up_or_down(deltas: list[int]) -> None:
    """Given the exact marginals, every pair's figure is its proportional share of them,
    rounded one way or the other (never pushed further to make the sums agree)."""
    seats = [SeatOutcome(uid, d) for uid, d in enumerate(deltas, 1)]
    flows = _flows(seats, ())
    gains = sum(d for d in deltas if d > 0)
    losses = -sum(d for d in deltas if d < 0)
    if not gains or not losses:
        return
    paid = min(gains, losses)
    pays = {s.uid: sum(b for (fr, _), b in flows.items() if fr == s.uid) for s in seats}
    gets = {s.uid: sum(b for (_, to), b in flows.items() if to == s.uid) for s in seats}
    for loser in (s for s in seats if s.delta < 0):
        for winner in (s for s in seats if s.delta > 0):
            share = pays[loser.uid] * gets[winner.uid]
            assert share // paid <= flows.get((loser.uid, winner.uid), 0) <= -(-share // paid)
