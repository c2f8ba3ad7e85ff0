"""比赛 storage: entry fees in escrow, withdrawal, the prize payout, cancellation, crashes."""

from __future__ import annotations

import asyncio
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from storage_support import GRANT, MOD

from storage.errors import InsufficientBeans
from storage.tournaments import EventSpec, Format, Status, TournamentError, Tournaments
from storage.wallet import HOUSE, Wallet

FEE = 1_000


def spec(size: int = 4, *, fee: int = FEE, rake: int = 10,
         prizes: tuple[int, ...] = (50, 30, 20)) -> EventSpec:
    return EventSpec("doudizhu", "free", Format.SIT_AND_GO, size, 3, fee, rake, prizes)


async def supply(wallet: Wallet) -> int:
    totals = await wallet.totals()
    assert totals.held == totals.open_holds
    assert totals.ledger == totals.players + totals.house
    return totals.players + totals.house


async def test_registration_holds_the_fee_and_withdrawal_releases_it(wallet: Wallet) -> None:
    events = Tournaments(wallet)
    eid = await events.create(7, 70, spec(), created_by=MOD)
    event = await events.register(eid, 1)
    assert event.entrants == (1,)
    account = await wallet.account(1)
    assert (account.balance, account.held) == (GRANT, FEE)
    assert (await wallet.totals()).open_holds == FEE
    assert await events.withdraw(eid, 1) == FEE
    account = await wallet.account(1)
    assert (account.balance, account.held) == (GRANT, 0)
    assert (await events.get(eid)).entrants == ()
    # registering again after withdrawing is a fresh entry
    assert (await events.register(eid, 1)).entrants == (1,)


async def test_refusals_name_the_problem_and_change_nothing(wallet: Wallet) -> None:
    events = Tournaments(wallet)
    eid = await events.create(7, 70, spec(size=2), created_by=MOD)
    await events.register(eid, 1)
    with pytest.raises(TournamentError, match="registered") as err:
        await events.register(eid, 1)
    assert err.value.reason == "registered"
    await events.register(eid, 2)
    with pytest.raises(TournamentError) as err:
        await events.register(eid, 3)
    assert err.value.reason == "full"
    with pytest.raises(TournamentError) as err:
        await events.withdraw(eid, 3)
    assert err.value.reason == "not_registered"
    rich = await events.create(7, 70, spec(fee=GRANT + 1), created_by=MOD)
    await wallet.ensure_player(4)
    with pytest.raises(InsufficientBeans):
        await events.register(rich, 4)
    assert (await wallet.account(4)).held == 0
    with pytest.raises(TournamentError) as err:
        await events.register(999, 1)
    assert err.value.reason == "unknown"
    await events.start(eid, {})
    with pytest.raises(TournamentError) as err:
        await events.withdraw(eid, 1)
    assert err.value.reason == "not_open"
    assert (await wallet.account(1)).held == FEE


async def test_the_payout_conserves_beans_and_splits_ties_exactly(wallet: Wallet) -> None:
    events = Tournaments(wallet)
    eid = await events.create(7, 70, spec(size=4, rake=10), created_by=MOD)
    for uid in (1, 2, 3, 4):
        await wallet.ensure_player(uid)
    before = await supply(wallet)
    for uid in (1, 2, 3, 4):
        await events.register(eid, uid)
    await events.start(eid, {"round": 0})
    # 1st alone, 2nd and 3rd tied, 4th: pool 4000, rake 400, net 3600
    paid = await events.payout(eid, [[3], [1, 4], [2]])
    assert paid.prizes == {3: 1_800, 1: 900, 4: 900, 2: 0}
    assert paid.house == 400
    balances = {u: (await wallet.account(u)).balance for u in (1, 2, 3, 4)}
    assert balances == {1: GRANT - 100, 2: GRANT - FEE, 3: GRANT + 800, 4: GRANT - 100}
    assert await wallet.house_balance() == 400
    assert await supply(wallet) == before
    assert (await wallet.totals()).held == 0
    # again: the stored result, nothing moves
    again = await events.payout(eid, [[1], [2], [3], [4]])
    assert again.replayed and again.prizes == paid.prizes
    assert {u: (await wallet.account(u)).balance for u in (1, 2, 3, 4)} == balances
    assert (await events.get(eid)).status is Status.FINISHED
    reasons = [row.reason for row in await wallet.ledger(3, limit=3)]
    assert reasons[:2] == ["tournament:prize", "tournament:entry"]


async def test_an_indivisible_tie_leaves_its_remainder_to_the_house(wallet: Wallet) -> None:
    events = Tournaments(wallet)
    eid = await events.create(7, 70, spec(size=3, fee=100, rake=0, prizes=(100,)),
                              created_by=MOD)
    for uid in (1, 2, 3):
        await wallet.ensure_player(uid)
    before = await supply(wallet)
    for uid in (1, 2, 3):
        await events.register(eid, uid)
    await events.start(eid, {})
    paid = await events.payout(eid, [[1, 2, 3]])
    assert paid.prizes == {1: 100, 2: 100, 3: 100} and paid.house == 0
    eid = await events.create(7, 70, spec(size=3, fee=100, rake=0, prizes=(60, 40)),
                              created_by=MOD)
    for uid in (1, 2, 3):
        await events.register(eid, uid)
    await events.start(eid, {})
    paid = await events.payout(eid, [[1, 2, 3]])  # 300 shared by three: 100 each
    assert paid.prizes == {1: 100, 2: 100, 3: 100}
    eid = await events.create(7, 70, spec(size=3, fee=101, rake=0, prizes=(100,)),
                              created_by=MOD)
    for uid in (1, 2, 3):
        await events.register(eid, uid)
    await events.start(eid, {})
    paid = await events.payout(eid, [[1, 2], [3]])  # 303 between two: 151 each, 1 left
    assert paid.prizes == {1: 151, 2: 151, 3: 0} and paid.house == 1
    assert await supply(wallet) == before


async def test_a_payout_must_name_the_field(wallet: Wallet) -> None:
    events = Tournaments(wallet)
    eid = await events.create(7, 70, spec(size=2), created_by=MOD)
    await events.register(eid, 1)
    await events.register(eid, 2)
    with pytest.raises(TournamentError) as err:
        await events.payout(eid, [[1]])
    assert err.value.reason == "not_running"
    await events.start(eid, {})
    with pytest.raises(TournamentError) as err:
        await events.payout(eid, [[1], [3]])
    assert err.value.reason == "placings"
    assert (await wallet.account(1)).held == FEE


async def test_cancelling_refunds_everyone_and_is_audited(wallet: Wallet) -> None:
    events = Tournaments(wallet)
    eid = await events.create(7, 70, spec(size=3), created_by=MOD)
    for uid in (1, 2, 3):
        await events.register(eid, uid)
    await events.start(eid, {"round": 1})
    assert await events.cancel(eid, MOD, "server outage") == {1: FEE, 2: FEE, 3: FEE}
    for uid in (1, 2, 3):
        account = await wallet.account(uid)
        assert (account.balance, account.held) == (GRANT, 0)
    audit = (await wallet.audit(1))[0]
    assert (audit.moderator_id, audit.action, audit.amount) == (MOD, "tournament:cancel", 3 * FEE)
    assert "server outage" in audit.reason and audit.uid == HOUSE
    with pytest.raises(TournamentError):
        await events.cancel(eid, MOD)


async def test_concurrent_registrations_and_withdrawals_take_effect_once(wallet: Wallet) -> None:
    events = Tournaments(wallet)
    eid = await events.create(7, 70, spec(size=150), created_by=MOD)
    uids = list(range(1, 201))
    results = await asyncio.gather(*(events.register(eid, u) for u in uids),
                                   *(events.register(eid, u) for u in uids[:50]),
                                   return_exceptions=True)
    entered = [r for r in results if not isinstance(r, Exception)]
    refused = [r for r in results if isinstance(r, TournamentError)]
    assert len(entered) == 150 and len(refused) == 100
    event = await events.get(eid)
    assert len(event.entrants) == 150
    left = await asyncio.gather(*(events.withdraw(eid, u) for u in event.entrants[:60]),
                                *(events.withdraw(eid, u) for u in event.entrants[:60]),
                                return_exceptions=True)
    assert sum(1 for r in left if r == FEE) == 60
    assert sum(1 for r in left if isinstance(r, TournamentError)) == 60
    totals = await wallet.totals()
    assert totals.held == totals.open_holds == 90 * FEE
    assert len((await events.get(eid)).entrants) == 90


CRASH = textwrap.dedent(
    """
    import asyncio, os, sys
    from storage.db import SqliteConnection, open_database
    from storage.postgres import PgConnection
    from storage.tournaments import Tournaments
    from storage.wallet import Wallet

    # the process dies right after the payout's ledger rows are written, before COMMIT
    sqlite_many, pg_many = SqliteConnection.executemany, PgConnection.executemany

    def sqlite_dying(self, sql, rows):
        cursor = sqlite_many(self, sql, rows)
        if sql.startswith("INSERT INTO ledger"):
            os._exit(17)
        return cursor

    async def pg_dying(self, sql, rows):
        result = await pg_many(self, sql, rows)
        if sql.startswith("INSERT INTO ledger"):
            os._exit(17)
        return result

    SqliteConnection.executemany, PgConnection.executemany = sqlite_dying, pg_dying

    async def main(target, event):
        db = await open_database(target)
        wallet = Wallet(db, starting_grant=10000, relief_amount=0, relief_threshold=0,
                        relief_cooldown_s=0)
        await Tournaments(wallet).payout(event, [[1], [2], [3]])

    asyncio.run(main(sys.argv[1], int(sys.argv[2])))
    """
)


async def test_a_crash_mid_payout_loses_and_creates_no_bean(open_db, db_target) -> None:
    db = await open_db()
    wallet = Wallet(db, starting_grant=GRANT, relief_amount=0, relief_threshold=0,
                    relief_cooldown_s=0)
    events = Tournaments(wallet)
    eid = await events.create(7, 70, spec(size=3), created_by=MOD)
    for uid in (1, 2, 3):
        await events.register(eid, uid)
    await events.start(eid, {})
    before = await wallet.totals()
    await db.close()
    proc = subprocess.run(
        [sys.executable, "-c", CRASH, str(db_target), str(eid)],
        cwd=Path(__file__).resolve().parents[2], capture_output=True, timeout=60,
    )
    assert proc.returncode == 17, proc.stderr.decode()
    db = await open_db()
    try:
        wallet = Wallet(db, starting_grant=GRANT, relief_amount=0, relief_threshold=0,
                        relief_cooldown_s=0)
        events = Tournaments(wallet)
        assert await wallet.totals() == before
        assert (await events.get(eid)).status is Status.RUNNING
        paid = await events.payout(eid, [[1], [2], [3]])
        assert sum(paid.prizes.values()) + paid.house == 3 * FEE
        after = await wallet.totals()
        assert after.players + after.house == before.players + before.house
    finally:
        await db.close()


async def test_hands_are_kept_one_row_each_and_read_back_with_the_chips(
        wallet: Wallet) -> None:
    events = Tournaments(wallet)
    eid = await events.create(7, 70, spec(size=3, fee=0), created_by=MOD)
    for uid in (1, 2, 3):
        await events.register(eid, uid)
    tables = {"900": {"seats": [1, 2, 3], "done": False}}
    await events.start(eid, {"round": 1, "tables": tables,
                             "chips": {"1": 1000, "2": 1000, "3": 1000}})
    points = [[1, 40], [2, -20], [3, -20]]
    assert await events.record_hand(eid, 0, 1, 900, 555, points, {1: 40, 2: -20, 3: -20})
    # the same hand again (a restart replaying it) changes nothing
    assert not await events.record_hand(eid, 1, 1, 900, 555, points, {1: 40, 2: -20, 3: -20})
    state = (await events.get(eid)).state
    assert state["chips"] == {"1": 1040, "2": 980, "3": 980}
    assert state["hands"] == [{"round": 1, "table": 900, "hand": 555, "points": points,
                               "code": ""}]
    assert state["applied"] == [555] and state["tables"]["900"]["done"] is True
    # the round's save keeps the round, not the hands; a bye's chips are set with it
    await events.save_round(eid, {**state, "round": 2, "tables": {}}, {3: 982})
    state = (await events.get(eid)).state
    assert state["round"] == 2 and state["chips"]["3"] == 982 and len(state["hands"]) == 1
    await events.cancel(eid, MOD)
    with pytest.raises(TournamentError) as err:
        await events.record_hand(eid, 1, 2, 901, 556, points, {1: 1})
    assert err.value.reason == "not_running"
