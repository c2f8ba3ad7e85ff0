"""Settlement pair by pair (``settle(..., transfers=...)``): the rake first, then each transfer in
order, capped by what the payer still holds and what the payee carried; itemized in the ledger;
one idempotent transaction like the pot rule."""

from __future__ import annotations

import pytest
from storage_support import GRANT, MOD, snapshot

from storage import history
from storage.errors import AmountError
from storage.wallet import HOUSE, SeatResult, TransferResult, Wallet


async def table(wallet: Wallet, stakes: dict[int, int]) -> int:
    for uid, stake in stakes.items():
        await wallet.ensure_player(uid)
        if stake > GRANT:
            await wallet.grant(uid, stake - GRANT, "top up", MOD)
    hand = await wallet.new_hand("mj", "room", 1, 2, seats=list(stakes))
    await wallet.hold(hand, list(stakes.items()))
    return hand


def seats(uids: list[int | None], points: list[int]) -> list[SeatResult]:
    return [SeatResult(u, p, p) for u, p in zip(uids, points, strict=True)]


async def test_dianpao_then_zimo_with_rake(wallet: Wallet) -> None:
    """点炮: seat 1 pays seat 0 four points; 自摸: every other seat pays seat 2 two points.
    N 200, A 10, everyone carrying plenty: each transfer moves points·N."""
    h = await table(wallet, {1: 20_000, 2: 20_000, 3: 20_000, 4: 20_000})
    transfers = [(1, 0, 4), (0, 2, 2), (1, 2, 2), (3, 2, 2)]
    result = await wallet.settle(
        h, "mj", seats([1, 2, 3, 4], [2, -6, 6, -2]), 200, 10, transfers=transfers
    )
    assert result.transfers == (
        TransferResult(1, 0, 4, 800),
        TransferResult(0, 2, 2, 400),
        TransferResult(1, 2, 2, 400),
        TransferResult(3, 2, 2, 400),
    )
    assert [s.delta for s in result.seats] == [390, -1_210, 1_190, -410]
    assert result.house == 40 and sum(s.delta for s in result.seats) + result.house == 0
    assert [(await wallet.account(u)).held for u in (1, 2, 3, 4)] == [0, 0, 0, 0]
    # the ledger names each counterpart, row by row with the balance after
    rows = list(reversed(await wallet.ledger(2, limit=4)))
    assert [(r.delta, r.reason, r.note, r.hand_id) for r in rows[1:]] == [
        (-10, "hand:rake", "", h),
        (-800, "hand:pay", "to seat 0 (player 1)", h),
        (-400, "hand:pay", "to seat 2 (player 3)", h),
    ]
    assert rows[-1].balance_after == (await wallet.account(2)).balance == 20_000 - 1_210
    receive = [r for r in await wallet.ledger(3) if r.reason == "hand:receive"]
    assert [(r.delta, r.note) for r in reversed(receive)] == [
        (400, "from seat 0 (player 1)"),
        (400, "from seat 1 (player 2)"),
        (400, "from seat 3 (player 4)"),
    ]
    assert (await wallet.ledger(HOUSE))[0].delta == 40
    totals = await wallet.totals()
    assert totals.ledger == totals.players + totals.house


async def test_short_payer_and_capped_payee(wallet: Wallet) -> None:
    """Seat 0 carries 1 000 and owes 500 to each of three (A 50): it pays 500, 450, then 0 —
    debited only down to 0, first transfers first. Seat 3 carried 200: from seat 2 it takes
    at most 200 (以小博大)."""
    h = await table(wallet, {1: 1_000, 2: 9_000, 3: 9_000, 4: 200})
    transfers = [(0, 1, 5), (0, 2, 5), (0, 3, 5), (2, 3, 10)]
    result = await wallet.settle(
        h, "mj", seats([1, 2, 3, 4], [-15, 5, -5, 15]), 100, 50, transfers=transfers
    )
    assert [t.beans for t in result.transfers] == [500, 450, 0, 200]
    assert [s.delta for s in result.seats] == [-1_000, 450, 450 - 200 - 50, 200 - 50]
    assert (await wallet.account(1)).balance == GRANT - 1_000


async def test_transfers_with_bots_move_nothing(wallet: Wallet) -> None:
    h = await table(wallet, {1: 5_000, 2: 5_000})
    transfers = [(1, 0, 3), (2, 1, 3), (2, 0, 1)]
    result = await wallet.settle(
        h, "mj", seats([1, None, 2], [4, 0, -4]), 100, 0, transfers=transfers
    )
    assert [t.beans for t in result.transfers] == [0, 0, 100]
    assert [s.delta for s in result.seats] == [100, 0, -100]


async def test_settling_transfers_twice_returns_the_stored_result(wallet: Wallet) -> None:
    h = await table(wallet, {1: 5_000, 2: 5_000})
    args = ("mj", seats([1, 2], [-3, 3]), 100, 5)
    first = await wallet.settle(h, *args, transfers=[(0, 1, 3)])
    before = await wallet.db.read(snapshot)
    again = await wallet.settle(h, *args, transfers=[(0, 1, 3)])
    assert again == first and again.replayed and again.transfers == (TransferResult(0, 1, 3, 300),)
    assert await wallet.db.read(snapshot) == before
    record = await history.get_hand(wallet.db, h)
    assert record is not None and record.transfers == first.transfers
    assert record.deltas == {1: -305, 2: 295}


async def test_bad_transfers_change_nothing(wallet: Wallet) -> None:
    h = await table(wallet, {1: 5_000, 2: 5_000})
    before = await wallet.db.read(snapshot)
    two = seats([1, 2], [-1, 1])
    for transfers, message in (
        ([(0, 2, 1)], "seat from 0 to 1"),
        ([(0, 0, 1)], "cannot pay itself"),
        ([(0, 1, 0)], "points"),
        ([(0, 1, 2)], "not the net of the transfers"),  # seats say −1/+1
        ([(0, 1)], "must be"),
        ([(0, 1, 10**5000)], "digits"),
    ):
        with pytest.raises(ValueError, match=message):
            await wallet.settle(h, "mj", two, 100, 0, transfers=transfers)  # type: ignore[arg-type]
    with pytest.raises(AmountError):
        await wallet.settle(h, "mj", two, 100, 0, transfers=[(0, 1, -1)])
    assert await wallet.db.read(snapshot) == before


async def test_empty_transfers_keep_the_pot_rule(wallet: Wallet) -> None:
    h = await table(wallet, {1: 3_000, 2: 50_000, 3: 50_000})
    result = await wallet.settle(h, "mj", seats([1, 2, 3], [12, -6, -6]), 1000, 50, transfers=[])
    assert [s.delta for s in result.seats] == [2_950, -1_550, -1_550]
    assert result.transfers == ()
    assert [r.reason for r in await wallet.ledger(1)][0] == "hand"


async def test_props_bought_during_a_hand_are_paid_to_the_house_and_ledgered_apart(
    open_db,
) -> None:
    from storage.wallet import SeatResult, Wallet

    db = await open_db()
    try:
        wallet = Wallet(db, starting_grant=10_000, relief_amount=0, relief_threshold=0,
                        relief_cooldown_s=0).scoped(7)
        for transfers in ([], [(1, 0, 2)]):
            hand = await wallet.new_hand("g", "r", 7, 1)
            await wallet.hold(hand, [(1, 5_000), (2, 5_000)])
            house = await wallet.house_balance()
            result = await wallet.settle(
                hand, "g", [SeatResult(1, 2, 0), SeatResult(2, -2, 0)], 100, 10,
                transfers=transfers, fees=[300, 0],
            )
            assert [s.delta for s in result.seats] == [200 - 10 - 300, -200 - 10]
            assert await wallet.house_balance() == house + 20 + 300
            rows = await wallet.ledger(1, 10)
            assert any(r.reason == "hand:fee" and r.delta == -300 for r in rows)
            totals = await wallet.totals()
            assert totals.ledger == totals.players + totals.house and totals.held == 0
    finally:
        await db.close()
