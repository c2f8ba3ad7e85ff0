"""Wallet: starting grant once, moderator grant/revoke, freeze audit, relief, ledger rules."""

from __future__ import annotations

import asyncio

import pytest
from storage_support import COOLDOWN, GRANT, MOD, RELIEF, THRESHOLD, Clock

from storage.db import Storage
from storage.errors import InsufficientBeans, ReliefError, UnknownPlayer
from storage.wallet import HOUSE, Account, Wallet


async def test_new_player_gets_the_starting_grant_exactly_once(wallet: Wallet) -> None:
    assert await wallet.ensure_player(1) is True
    assert await wallet.ensure_player(1) is False
    assert await wallet.account(1) == Account(1, GRANT, 0, GRANT, False)
    rows = await wallet.ledger(1)
    assert [(r.delta, r.balance_after, r.reason) for r in rows] == [(GRANT, GRANT, "grant:start")]


async def test_concurrent_first_contacts_grant_once(wallet: Wallet) -> None:
    created = await asyncio.gather(*(wallet.ensure_player(5) for _ in range(20)))
    assert created.count(True) == 1
    assert (await wallet.account(5)).balance == GRANT
    assert len(await wallet.ledger(5, limit=100)) == 1


async def test_any_first_operation_creates_the_wallet_with_the_grant(wallet: Wallet) -> None:
    await wallet.grant(2, 100, "event", MOD)
    reasons = [r.reason for r in await wallet.ledger(2)]
    assert reasons == ["grant:mod", "grant:start"]
    assert (await wallet.account(2)).balance == GRANT + 100


async def test_unknown_player_has_no_account(wallet: Wallet) -> None:
    with pytest.raises(UnknownPlayer, match="player 77"):
        await wallet.account(77)
    assert await wallet.is_frozen(77) is False


@pytest.mark.parametrize("uid", [0, -1, True, 1.5, "3"])
async def test_player_ids_are_positive_ints(wallet: Wallet, uid: object) -> None:
    with pytest.raises(ValueError):
        await wallet.ensure_player(uid)  # type: ignore[arg-type]


async def test_grant_is_ledgered_and_audited(wallet: Wallet, clock: Clock) -> None:
    await wallet.ensure_player(1)
    clock.now += 10
    assert await wallet.grant(1, 500, "tournament prize", MOD) == GRANT + 500
    row = (await wallet.ledger(1))[0]
    assert (row.delta, row.balance_after, row.reason, row.moderator_id, row.note, row.at) == (
        500,
        GRANT + 500,
        "grant:mod",
        MOD,
        "tournament prize",
        clock.now,
    )
    audit = (await wallet.audit(1))[0]
    assert (audit.moderator_id, audit.action, audit.uid, audit.amount, audit.reason) == (
        MOD,
        "grant",
        1,
        500,
        "tournament prize",
    )


@pytest.mark.parametrize("amount", [0, -5, True, 2.5, 10**16])
async def test_bad_amounts_are_refused(wallet: Wallet, amount: object) -> None:
    await wallet.ensure_player(1)
    with pytest.raises(ValueError):
        await wallet.grant(1, amount, "x", MOD)  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        await wallet.revoke(1, amount, "x", MOD)  # type: ignore[arg-type]
    assert (await wallet.account(1)).balance == GRANT


async def test_revoke_takes_only_free_beans_and_never_goes_negative(wallet: Wallet) -> None:
    await wallet.ensure_player(1)
    assert await wallet.revoke(1, 4_000, "abuse", MOD) == GRANT - 4_000
    with pytest.raises(InsufficientBeans) as err:
        await wallet.revoke(1, GRANT, "abuse", MOD)
    assert (err.value.uid, err.value.needed, err.value.free) == (1, GRANT, GRANT - 4_000)
    assert await wallet.revoke(1, GRANT - 4_000, "abuse", MOD) == 0
    with pytest.raises(InsufficientBeans):
        await wallet.revoke(1, 1, "abuse", MOD)
    account = await wallet.account(1)
    assert account.balance == 0
    assert [r.delta for r in await wallet.ledger(1)] == [-(GRANT - 4_000), -4_000, GRANT]
    assert [a.action for a in await wallet.audit()] == ["revoke", "revoke"]


async def test_concurrent_revokes_never_overdraw(wallet: Wallet) -> None:
    await wallet.ensure_player(1)
    results = await asyncio.gather(
        *(wallet.revoke(1, 3_000, "r", MOD) for _ in range(10)), return_exceptions=True
    )
    ok = [r for r in results if isinstance(r, int)]
    assert len(ok) == GRANT // 3_000
    assert all(isinstance(r, InsufficientBeans) for r in results if not isinstance(r, int))
    assert (await wallet.account(1)).balance == GRANT - 3_000 * len(ok)


async def test_concurrent_grants_lose_no_update(wallet: Wallet) -> None:
    await wallet.ensure_player(1)
    await asyncio.gather(*(wallet.grant(1, 7, "g", MOD) for _ in range(200)))
    assert (await wallet.account(1)).balance == GRANT + 1_400
    assert len(await wallet.ledger(1, limit=1_000)) == 201


async def test_balance_can_never_be_negative_even_by_raw_sql(db: Storage, wallet: Wallet) -> None:
    await wallet.ensure_player(1)
    for sql in (
        "UPDATE players SET balance = -1 WHERE id = 1",
        "UPDATE players SET held = balance + 1 WHERE id = 1",
        "UPDATE players SET held = -1 WHERE id = 1",
    ):
        with pytest.raises(db.integrity_error):
            await db.run(lambda c, sql=sql: c.execute(sql))
    assert (await wallet.account(1)).balance == GRANT


async def test_ledger_and_audit_are_append_only(db: Storage, wallet: Wallet) -> None:
    await wallet.grant(1, 5, "x", MOD)
    for sql in (
        "UPDATE ledger SET delta = 0",
        "DELETE FROM ledger",
        "UPDATE audit SET amount = 0",
        "DELETE FROM audit",
    ):
        with pytest.raises(db.integrity_error, match="append-only"):
            await db.run(lambda c, sql=sql: c.execute(sql))
    assert len(await wallet.ledger(1)) == 2 and len(await wallet.audit()) == 1


async def test_freeze_is_audited_and_reversible(wallet: Wallet) -> None:
    await wallet.ensure_player(3)
    assert await wallet.set_frozen(3, True, MOD, "botting") is True
    assert await wallet.is_frozen(3) is True
    assert await wallet.set_frozen(3, True, MOD) is False  # already frozen
    assert (await wallet.account(3)).frozen is True
    assert await wallet.set_frozen(3, False, MOD + 1) is True
    assert await wallet.is_frozen(3) is False
    audit = await wallet.audit()
    assert [(a.action, a.moderator_id, a.uid) for a in audit] == [
        ("unfreeze", MOD + 1, 3),
        ("freeze", MOD, 3),
        ("freeze", MOD, 3),
    ]
    assert audit[-1].reason == "botting"
    with pytest.raises(ValueError):
        await wallet.set_frozen(3, 1, MOD)  # type: ignore[arg-type]


async def test_moderators_can_still_grant_and_revoke_a_frozen_wallet(wallet: Wallet) -> None:
    await wallet.set_frozen(3, True, MOD)
    await wallet.grant(3, 10, "x", MOD)
    await wallet.revoke(3, 20, "x", MOD)
    assert (await wallet.account(3)).balance == GRANT - 10


async def poor(wallet: Wallet, uid: int, keep: int = 0) -> None:
    await wallet.ensure_player(uid)
    await wallet.revoke(uid, GRANT - keep, "test", MOD)


async def test_relief_needs_a_balance_below_the_threshold(wallet: Wallet) -> None:
    await wallet.ensure_player(1)
    with pytest.raises(ReliefError) as err:
        await wallet.claim_relief(1)
    assert err.value.reason == "above threshold"
    await poor(wallet, 2, keep=THRESHOLD)  # exactly at the threshold: not below it
    with pytest.raises(ReliefError, match="above threshold"):
        await wallet.claim_relief(2)
    await poor(wallet, 3, keep=THRESHOLD - 1)
    assert await wallet.claim_relief(3) == THRESHOLD - 1 + RELIEF
    assert (await wallet.ledger(3))[0].reason == "relief"


async def test_relief_once_per_cooldown(wallet: Wallet, clock: Clock) -> None:
    await poor(wallet, 1)
    start = clock.now
    assert await wallet.claim_relief(1, now=start) == RELIEF
    await wallet.revoke(1, RELIEF, "spent", MOD)
    with pytest.raises(ReliefError) as err:
        await wallet.claim_relief(1, now=start + 100)
    assert err.value.reason == "cooldown"
    assert err.value.seconds_left == COOLDOWN - 100
    with pytest.raises(ReliefError) as err:
        await wallet.claim_relief(1, now=start + COOLDOWN - 0.5)
    assert err.value.seconds_left == 1
    assert await wallet.claim_relief(1, now=start + COOLDOWN) == RELIEF


async def test_concurrent_relief_claims_pay_once(wallet: Wallet) -> None:
    await poor(wallet, 1)
    results = await asyncio.gather(
        *(wallet.claim_relief(1) for _ in range(10)), return_exceptions=True
    )
    assert sum(1 for r in results if r == RELIEF) == 1
    assert (await wallet.account(1)).balance == RELIEF


async def test_frozen_player_cannot_claim_relief(wallet: Wallet) -> None:
    await poor(wallet, 1)
    await wallet.set_frozen(1, True, MOD)
    with pytest.raises(ReliefError, match="frozen"):
        await wallet.claim_relief(1)


async def test_ledger_limit_and_house(wallet: Wallet) -> None:
    for i in range(15):
        await wallet.grant(1, i + 1, "x", MOD)
    rows = await wallet.ledger(1)
    assert len(rows) == 10 and rows[0].delta == 15
    assert [r.id for r in rows] == sorted((r.id for r in rows), reverse=True)
    assert await wallet.house_balance() == 0 and await wallet.ledger(HOUSE) == []


async def test_from_settings(db: Storage) -> None:
    from bot.settings import load_settings

    settings = load_settings(environ={})
    wallet = Wallet.from_settings(db, settings)
    assert wallet.starting_grant == settings.starting_grant
    assert wallet.relief_cooldown_s == settings.relief.cooldown_hours * 3600
    await wallet.ensure_player(1)
    assert (await wallet.account(1)).balance == settings.starting_grant


def test_there_is_no_player_to_player_transfer() -> None:
    """Beans only move by moderator grant/revoke, relief and settlement (no gifting)."""
    public = {name for name in dir(Wallet) if not name.startswith("_")}
    assert not {n for n in public if any(w in n for w in ("transfer", "give", "send", "pay"))}


async def test_accounts_of_many_are_read_at_once_and_created_on_request(
    wallet: Wallet,
) -> None:
    await wallet.ensure_player(1)
    await wallet.grant(1, 500, "test", 999)
    with pytest.raises(UnknownPlayer):
        await wallet.accounts([1, 2])
    found = await wallet.accounts([2, 1, 3], ensure=True)
    assert sorted(found) == [1, 2, 3]
    assert found[1] == await wallet.account(1)
    assert found[1].balance == GRANT + 500
    assert found[2].free == GRANT and not found[2].frozen
    assert await wallet.accounts([]) == {}
