"""Escrow (带入): hold all-or-nothing, held beans locked, abort releases exactly, idempotent."""

from __future__ import annotations

import asyncio

import pytest
from storage_support import GRANT, MOD

from storage.errors import HandStateError, InsufficientBeans, PlayerFrozen
from storage.wallet import Account, SeatResult, Wallet


async def hand(wallet: Wallet, seats: tuple[int | None, ...] = (1, 2, 3)) -> int:
    return await wallet.new_hand("game", "room", 100, 200, seats=seats)


async def test_hold_moves_free_beans_to_held(wallet: Wallet) -> None:
    h = await hand(wallet)
    await wallet.hold(h, [(1, 3_000), (2, 4_000), (3, 0)])
    assert await wallet.held(h) == {1: 3_000, 2: 4_000, 3: 0}
    assert await wallet.account(1) == Account(1, GRANT, 3_000, GRANT - 3_000, False)
    assert (await wallet.totals()).held == 7_000
    # holding writes no ledger row: the balance did not change
    assert [r.reason for r in await wallet.ledger(1)] == ["grant:start"]


async def test_hold_is_all_or_nothing(wallet: Wallet) -> None:
    for uid in (1, 2, 3):
        await wallet.ensure_player(uid)
    await wallet.revoke(2, GRANT - 500, "poor", MOD)
    h = await hand(wallet)
    with pytest.raises(InsufficientBeans) as err:
        await wallet.hold(h, [(1, 1_000), (2, 1_000), (3, 1_000)])
    assert (err.value.uid, err.value.needed, err.value.free) == (2, 1_000, 500)
    assert "player 2" in str(err.value)
    assert await wallet.held(h) == {}
    for uid in (1, 2, 3):
        assert (await wallet.account(uid)).held == 0
    await wallet.hold(h, [(1, 1_000), (2, 500), (3, 1_000)])  # the same hand still works
    assert await wallet.held(h) == {1: 1_000, 2: 500, 3: 1_000}


async def test_held_beans_cannot_be_revoked_or_held_again(wallet: Wallet) -> None:
    h1 = await hand(wallet)
    await wallet.hold(h1, [(1, 8_000)])
    with pytest.raises(InsufficientBeans) as err:
        await wallet.revoke(1, 2_001, "x", MOD)
    assert err.value.free == 2_000
    h2 = await hand(wallet)
    with pytest.raises(InsufficientBeans):
        await wallet.hold(h2, [(1, 2_001)])
    with pytest.raises(HandStateError, match="already carries"):
        await wallet.hold(h1, [(1, 1)])
    await wallet.hold(h2, [(1, 2_000)])  # exactly the free rest
    assert await wallet.account(1) == Account(1, GRANT, GRANT, 0, False)
    with pytest.raises(InsufficientBeans):
        await wallet.revoke(1, 1, "x", MOD)


async def test_concurrent_holds_never_overcommit(wallet: Wallet) -> None:
    await wallet.ensure_player(1)
    hands = [await hand(wallet) for _ in range(10)]
    results = await asyncio.gather(
        *(wallet.hold(h, [(1, 3_000)]) for h in hands), return_exceptions=True
    )
    assert sum(r is None for r in results) == 3
    assert (await wallet.account(1)).held == 9_000


async def test_frozen_player_cannot_be_escrowed(wallet: Wallet) -> None:
    await wallet.set_frozen(2, True, MOD)
    h = await hand(wallet)
    with pytest.raises(PlayerFrozen, match="player 2"):
        await wallet.hold(h, [(1, 100), (2, 100)])
    assert await wallet.held(h) == {}


async def test_bad_holds_are_refused(wallet: Wallet) -> None:
    h = await hand(wallet)
    with pytest.raises(ValueError):
        await wallet.hold(h, [(1, 5), (1, 5)])
    with pytest.raises(ValueError):
        await wallet.hold(h, [(1, -5)])
    with pytest.raises(HandStateError, match="no such hand"):
        await wallet.hold(h + 100, [(1, 5)])


async def test_abort_releases_exactly_what_was_held_and_is_idempotent(wallet: Wallet) -> None:
    h = await hand(wallet)
    await wallet.hold(h, [(1, 1_234), (2, 5_000)])
    other = await hand(wallet)
    await wallet.hold(other, [(1, 1_000)])
    assert await wallet.release(h, record='{"log":[]}') == {1: 1_234, 2: 5_000}
    assert (await wallet.account(1)).held == 1_000  # the other hand's hold stays
    assert (await wallet.account(2)).held == 0
    assert await wallet.held(h) == {}
    assert await wallet.release(h) == {}  # idempotent
    assert (await wallet.account(1)).held == 1_000
    for uid in (1, 2):
        assert (await wallet.account(uid)).balance == GRANT  # an abort moves no bean
    with pytest.raises(HandStateError, match="aborted"):
        await wallet.hold(h, [(3, 1)])


async def test_concurrent_aborts_release_once(wallet: Wallet) -> None:
    h = await hand(wallet)
    await wallet.hold(h, [(1, 5_000)])
    results = await asyncio.gather(*(wallet.release(h) for _ in range(5)))
    assert sorted(map(len, results)) == [0, 0, 0, 0, 1]
    assert (await wallet.account(1)).held == 0


async def test_a_settled_hand_cannot_be_aborted(wallet: Wallet) -> None:
    h = await hand(wallet, (1,))
    await wallet.hold(h, [(1, 100)])
    await wallet.settle(h, "game", [SeatResult(1, 0)], 10, 0)
    with pytest.raises(HandStateError, match="settled"):
        await wallet.release(h)
