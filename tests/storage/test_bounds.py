"""Bounds: no balance passes the hall's maximum (grants are refused with a message naming it,
settlement pays no one past it), numbers that settlement cannot hold are refused where they
enter, and sums over an economy never overflow."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from storage_support import GRANT, MOD, Clock, snapshot

from storage import levels
from storage.db import Database, Storage
from storage.errors import AmountError, BalanceLimit, WalletError
from storage.wallet import MAX_AMOUNT, MAX_BALANCE, MAX_POINTS, SeatResult, Wallet


def rich(db: Storage, grant: int = MAX_BALANCE) -> Wallet:
    return Wallet(
        db,
        starting_grant=grant,
        relief_amount=0,
        relief_threshold=0,
        relief_cooldown_s=0,
        clock=Clock(),
    )


async def test_a_grant_past_the_limit_is_refused_with_the_limit_named(wallet: Wallet) -> None:
    await wallet.grant(1, MAX_BALANCE - GRANT - 10, "x", MOD)
    before = await wallet.db.read(snapshot)
    with pytest.raises(BalanceLimit) as err:
        await wallet.grant(1, 11, "one too many", MOD)
    message = str(err.value)
    assert "1,000,000,000,000,000" in message and "player 1" in message
    assert (err.value.balance, err.value.amount, err.value.limit) == (
        MAX_BALANCE - 10,
        11,
        MAX_BALANCE,
    )
    assert isinstance(err.value, WalletError)
    assert await wallet.db.read(snapshot) == before  # no balance, ledger or audit change
    assert await wallet.grant(1, 10, "exactly up to it", MOD) == MAX_BALANCE


async def test_many_grants_cannot_pass_the_limit(wallet: Wallet) -> None:
    results = await asyncio.gather(
        *(wallet.grant(1, MAX_AMOUNT // 4, "x", MOD) for _ in range(6)), return_exceptions=True
    )
    assert sum(isinstance(r, int) for r in results) == 3  # GRANT + 3/4 of the max fits
    assert all(isinstance(r, BalanceLimit) for r in results if not isinstance(r, int))
    assert (await wallet.account(1)).balance == GRANT + 3 * (MAX_AMOUNT // 4) <= MAX_BALANCE


@pytest.mark.parametrize(
    "amount",
    [MAX_AMOUNT + 1, 10**19, 10**5_000, -(10**5_000)],
    ids=["max+1", "1e19", "5001 digits", "-5001 digits"],
)
async def test_huge_amounts_are_refused_with_a_readable_message(
    wallet: Wallet, amount: int
) -> None:
    await wallet.ensure_player(1)
    for call in (
        wallet.grant(1, amount, "x", MOD),
        wallet.revoke(1, amount, "x", MOD),
    ):
        with pytest.raises(AmountError) as err:
            await call
        message = str(err.value)
        assert "1,000,000,000,000,000" in message and len(message) < 200
    hand = await wallet.new_hand("g", "r", 1, 1, seats=[1])
    with pytest.raises(AmountError, match="an amount must be a whole number"):
        await wallet.hold(hand, [(1, amount)])
    assert (await wallet.account(1)).balance == GRANT


async def test_settlement_refuses_numbers_it_cannot_hold(wallet: Wallet) -> None:
    hand = await wallet.new_hand("g", "r", 1, 1, seats=[1, 2])
    await wallet.hold(hand, [(1, 100), (2, 100)])
    before = await wallet.db.read(snapshot)
    two = [SeatResult(1, 1), SeatResult(2, -1)]
    with pytest.raises(AmountError, match="the coefficient"):
        await wallet.settle(hand, "g", two, MAX_AMOUNT + 1, 0)
    with pytest.raises(AmountError, match="the rake"):
        await wallet.settle(hand, "g", two, 1, 10**30)
    with pytest.raises(AmountError, match="points"):
        await wallet.settle(hand, "g", [SeatResult(1, 10**4_400), SeatResult(2, -1)], 1, 0)
    with pytest.raises(AmountError, match="score"):
        await wallet.settle(hand, "g", [SeatResult(1, 1, -(10**16)), SeatResult(2, -1)], 1, 0)
    assert await wallet.db.read(snapshot) == before
    # the largest coefficient and points settle, capped by what the seats carried
    result = await wallet.settle(
        hand, "g", [SeatResult(1, MAX_POINTS), SeatResult(2, -MAX_POINTS)], MAX_AMOUNT, 0
    )
    assert [s.delta for s in result.seats] == [100, -100]


def test_wallet_settings_are_bounded(tmp_path: Path) -> None:
    db = object.__new__(Database)
    with pytest.raises(AmountError, match="starting_grant"):
        Wallet(
            db,
            starting_grant=MAX_BALANCE + 1,
            relief_amount=0,
            relief_threshold=0,
            relief_cooldown_s=0,
        )
    with pytest.raises(AmountError, match="relief amount"):
        Wallet(
            db,
            starting_grant=0,
            relief_amount=MAX_BALANCE,
            relief_threshold=10,
            relief_cooldown_s=0,
        )


async def test_settlement_pays_no_one_past_the_limit(db: Storage) -> None:
    """A winner 100 beans under the limit takes only 100 (+ its rake) from the pot; the losers
    get the rest back. By transfers, the same."""
    wallet = rich(db, grant=0)
    await wallet.grant(1, MAX_BALANCE - 100, "nearly full", MOD)
    for uid in (2, 3):
        await wallet.grant(uid, 50_000, "x", MOD)
    hand = await wallet.new_hand("g", "r", 1, 1, seats=[1, 2, 3])
    await wallet.hold(hand, [(1, 10_000), (2, 10_000), (3, 10_000)])
    seats = [SeatResult(1, 12), SeatResult(2, -6), SeatResult(3, -6)]
    result = await wallet.settle(hand, "g", seats, 1000, 10)
    assert [s.delta for s in result.seats] == [
        100,
        -65,
        -65,
    ]  # 110 of 12 000 paid in; 5 945 back each
    assert result.seats[0].balance == MAX_BALANCE == (await wallet.account(1)).balance
    assert sum(s.delta for s in result.seats) + result.house == 0
    hand = await wallet.new_hand("g", "r", 1, 1, seats=[1, 2, 3])
    await wallet.hold(hand, [(1, 10_000), (2, 10_000), (3, 10_000)])
    result = await wallet.settle(hand, "g", seats, 1000, 10, transfers=[(1, 0, 6), (2, 0, 6)])
    assert [t.beans for t in result.transfers] == [10, 0]  # room for the rake it paid, no more
    assert (await wallet.account(1)).balance == MAX_BALANCE
    totals = await wallet.totals()
    assert totals.ledger == totals.players + totals.house


async def test_a_full_house_takes_no_more_rake(db: Storage) -> None:
    wallet = rich(db)
    hand = await wallet.new_hand("g", "r", 1, 1, seats=[1])
    await wallet.hold(hand, [(1, MAX_BALANCE)])
    result = await wallet.settle(hand, "g", [SeatResult(1, 0)], 1, MAX_AMOUNT)
    assert result.house == MAX_BALANCE == await wallet.house_balance()
    hand = await wallet.new_hand("g", "r", 1, 1, seats=[2])
    await wallet.hold(hand, [(2, 100)])
    result = await wallet.settle(hand, "g", [SeatResult(2, 0)], 1, 50)
    assert result.house == 0 and result.seats[0].delta == 0
    assert await wallet.house_balance() == MAX_BALANCE


async def test_scores_stay_within_bounds(wallet: Wallet) -> None:
    for _ in range(3):
        hand = await wallet.new_hand("g", "free", 1, 1)
        result = await wallet.settle(hand, "g", [SeatResult(1, 0, MAX_POINTS)], 0, 0)
    assert result.seats[0].score_after == MAX_POINTS
    assert await levels.score(wallet.db, 1, "g", economy=0) == MAX_POINTS


async def test_totals_are_exact_past_64_bits(db: Storage) -> None:
    """Ten thousand full balances sum past 2^63; the audit totals stay exact."""
    wallet = rich(db)
    players = 10_000
    await asyncio.gather(*(wallet.ensure_player(uid) for uid in range(1, players + 1)))
    totals = await wallet.totals()
    assert totals.players == totals.ledger == players * MAX_BALANCE > 2**63
