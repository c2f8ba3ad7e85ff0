"""Settlement: F1 figures (GAMES.md worked examples), caps, bots, idempotence, atomicity."""

from __future__ import annotations

import asyncio
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from storage_support import GRANT, MOD, snapshot

from storage import history, levels
from storage.db import Storage
from storage.errors import HandStateError
from storage.wallet import HOUSE, SeatResult, Settlement, Wallet

RICH = 1_000_000


async def table(wallet: Wallet, stakes: dict[int, int], game: str = "ddz") -> int:
    """A running hand where each uid carries its stake (players topped up to afford it)."""
    for uid, stake in stakes.items():
        await wallet.ensure_player(uid)
        if stake > GRANT:
            await wallet.grant(uid, stake - GRANT, "top up", MOD)
    hand = await wallet.new_hand(game, "room", 1, 2, seats=list(stakes))
    await wallet.hold(hand, list(stakes.items()))
    return hand


def deltas(result: Settlement) -> list[int]:
    return [s.delta for s in result.seats]


async def test_ddz_e1_landlord_wins_f1_with_rake(wallet: Wallet) -> None:
    """DDZ-E1: N=1000, farmer X=6, A=50, landlord wins. Engine points are X per seat: landlord
    +12, farmers −6. F1: farmers pay 6·1000+50, the landlord receives 12·1000−50."""
    h = await table(wallet, {1: 50_000, 2: 50_000, 3: 50_000})
    result = await wallet.settle(
        h, "ddz", [SeatResult(1, 12, 2), SeatResult(2, -6, -1), SeatResult(3, -6, -1)], 1000, 50
    )
    assert deltas(result) == [11_950, -6_050, -6_050]
    assert result.house == 150 and await wallet.house_balance() == 150
    assert [s.balance for s in result.seats] == [50_000 + 11_950, 50_000 - 6_050, 50_000 - 6_050]
    assert [s.rake for s in result.seats] == [50, 50, 50]
    assert sum(deltas(result)) + result.house == 0
    for uid in (1, 2, 3):
        assert (await wallet.account(uid)).held == 0
    assert await wallet.held(h) == {}


async def test_ddz_e1_pre_rake_figures(wallet: Wallet) -> None:
    """The example's own figures (A not applied): 12000 / 6000 / 6000."""
    h = await table(wallet, {1: 50_000, 2: 50_000, 3: 50_000})
    result = await wallet.settle(
        h, "ddz", [SeatResult(1, 12), SeatResult(2, -6), SeatResult(3, -6)], 1000, 0
    )
    assert deltas(result) == [12_000, -6_000, -6_000] and result.house == 0


async def test_ddz_e7_huopin(wallet: Wallet) -> None:
    """DDZ-E7: N=1200, X=6, A=500 → landlord 14400−500, farmers −(7200+500)."""
    h = await table(wallet, {1: 50_000, 2: 50_000, 3: 50_000})
    result = await wallet.settle(
        h, "ddz", [SeatResult(1, 12), SeatResult(2, -6), SeatResult(3, -6)], 1200, 500
    )
    assert deltas(result) == [13_900, -7_700, -7_700] and result.house == 1_500


async def test_sc_e1_sichuan_f2(wallet: Wallet) -> None:
    """SC-E1: N=200, winner X=54, three losers X=18, A=400 → winner 10800−400, losers −4000."""
    h = await table(wallet, {1: 20_000, 2: 20_000, 3: 20_000, 4: 20_000}, game="mj")
    seats = [SeatResult(1, 54), SeatResult(2, -18), SeatResult(3, -18), SeatResult(4, -18)]
    result = await wallet.settle(h, "mj", seats, 200, 400)
    assert deltas(result) == [10_400, -4_000, -4_000, -4_000] and result.house == 1_600


async def test_wh_e1_wuhan_example_with_n(wallet: Wallet) -> None:
    """WH-E1: N=20; losers 300, 350, 400; A=500 → 6000/7000/8000 paid, winner 21000 (−A)."""
    h = await table(wallet, {1: 30_000, 2: 30_000, 3: 30_000, 4: 30_000}, game="mj")
    seats = [SeatResult(1, 1_050), SeatResult(2, -300), SeatResult(3, -350), SeatResult(4, -400)]
    result = await wallet.settle(h, "mj", seats, 20, 500)
    assert deltas(result) == [20_500, -6_500, -7_500, -8_500] and result.house == 2_000


async def test_loser_is_debited_only_down_to_what_it_carried(wallet: Wallet) -> None:
    """火拼 rule 2: a loser pays down to 0 (of its stake); winners share only what was paid."""
    h = await table(wallet, {1: 5_000, 2: 50_000, 3: 50_000})
    await wallet.revoke(1, GRANT - 5_000, "carry everything", MOD)  # balance == stake
    result = await wallet.settle(
        h, "ddz", [SeatResult(1, -12), SeatResult(2, 6), SeatResult(3, 6)], 1000, 50
    )
    # landlord owes 12000+50 but carried 5000: rake 50, pays 4950; farmers split 4950
    assert deltas(result) == [-5_000, 2_475 - 50, 2_475 - 50]
    assert result.seats[0].balance == 0
    assert (await wallet.account(1)).balance == 0
    assert sum(deltas(result)) + result.house == 0


async def test_winner_gain_is_capped_by_its_stake(wallet: Wallet) -> None:
    """以小博大 protection: the landlord carried 3000, so wins at most 3000; the rest of what
    the farmers paid goes back to them."""
    h = await table(wallet, {1: 3_000, 2: 50_000, 3: 50_000})
    result = await wallet.settle(
        h, "ddz", [SeatResult(1, 12), SeatResult(2, -6), SeatResult(3, -6)], 1000, 50
    )
    assert deltas(result) == [3_000 - 50, -1_500 - 50, -1_500 - 50]
    assert sum(deltas(result)) + result.house == 0


async def test_pool_shortfall_is_shared_pro_rata_with_largest_remainder(wallet: Wallet) -> None:
    h = await table(wallet, {1: 10_000, 2: 10_000, 3: 10_000, 4: 1_001}, game="g4")
    seats = [SeatResult(1, 2), SeatResult(2, 1), SeatResult(3, 1), SeatResult(4, -4)]
    result = await wallet.settle(h, "g4", seats, 1000, 1)
    # pool = 1001 − 1 = 1000 shared 2:1:1 → 500 / 250 / 250
    assert deltas(result) == [499, 249, 249, -1_001] and result.house == 4
    h = await table(wallet, {5: 10_000, 6: 10_000, 7: 10_000, 8: 100}, game="g4")
    seats = [SeatResult(5, 1), SeatResult(6, 1), SeatResult(7, 1), SeatResult(8, -3)]
    result = await wallet.settle(h, "g4", seats, 1000, 0)
    assert deltas(result) == [34, 33, 33, -100]  # remainder to the lowest seat


async def test_rake_is_capped_by_the_stake(wallet: Wallet) -> None:
    h = await table(wallet, {1: 30, 2: 10_000}, game="g")
    result = await wallet.settle(h, "g", [SeatResult(1, -1), SeatResult(2, 1)], 100, 50)
    assert deltas(result) == [-30, -50] and result.house == 80


async def test_bot_seats_carry_nothing(wallet: Wallet) -> None:
    h = await table(wallet, {1: 20_000})
    # the human landlord loses to two bots: only the rake moves
    result = await wallet.settle(
        h, "ddz", [SeatResult(1, -12, -2), SeatResult(None, 6), SeatResult(None, 6)], 1000, 50
    )
    assert deltas(result) == [-50, 0, 0] and result.house == 50
    assert [s.uid for s in result.seats] == [1, None, None]
    assert result.seats[1].balance is None and result.seats[1].score_after is None
    assert (await levels.score(wallet.db, 1, "ddz", economy=0)) == -2
    # a human beating bots wins no beans either
    h = await table(wallet, {2: 20_000})
    result = await wallet.settle(
        h, "ddz", [SeatResult(2, 12), SeatResult(None, -6), SeatResult(None, -6)], 1000, 50
    )
    assert deltas(result) == [-50, 0, 0]
    # two humans and a bot: the humans settle between themselves
    h = await table(wallet, {3: 20_000, 4: 20_000})
    result = await wallet.settle(
        h, "ddz", [SeatResult(3, 12), SeatResult(4, -6), SeatResult(None, -6)], 1000, 0
    )
    assert deltas(result) == [6_000, -6_000, 0]


async def test_score_only_room_moves_no_beans_but_counts_scores(wallet: Wallet) -> None:
    hand = await wallet.new_hand("gomoku", "free", 1, 2, seats=[1, 2])
    result = await wallet.settle(
        hand, "gomoku", [SeatResult(1, 1, 10), SeatResult(2, -1, -10)], 0, 0
    )
    assert deltas(result) == [0, 0] and result.house == 0
    assert [(s.score_before, s.score_after) for s in result.seats] == [(0, 10), (0, -10)]
    assert (await wallet.account(1)).balance == GRANT  # new players got their grant
    assert await levels.scores(wallet.db, 2, economy=0) == {"gomoku": -10}
    assert [r.reason for r in await wallet.ledger(1)] == ["grant:start"]  # no 0-bean rows


async def test_scores_accumulate_per_game(wallet: Wallet) -> None:
    for points in (3, -1, 5):
        h = await table(wallet, {1: 1_000, 2: 1_000})
        r = await wallet.settle(h, "ddz", [SeatResult(1, 0, points), SeatResult(2, 0, 1)], 1, 0)
    assert (r.seats[0].score_before, r.seats[0].score_after) == (2, 7)
    h = await table(wallet, {1: 1_000}, game="other")
    await wallet.settle(h, "other", [SeatResult(1, 0, 4)], 1, 0)
    assert await levels.scores(wallet.db, 1, economy=0) == {"ddz": 7, "other": 4}


async def test_settling_twice_changes_nothing(wallet: Wallet) -> None:
    h = await table(wallet, {1: 50_000, 2: 50_000, 3: 50_000})
    seats = [SeatResult(1, 12, 2), SeatResult(2, -6, -1), SeatResult(3, -6, -1)]
    first = await wallet.settle(h, "ddz", seats, 1000, 50, record="R", outcome="O")
    before = await wallet.totals(), [await wallet.account(u) for u in (1, 2, 3)]
    again = await wallet.settle(h, "ddz", seats, 1000, 50)
    other = await wallet.settle(h, "ddz", [SeatResult(1, -99)], 5, 5)  # ignored: already settled
    assert again == first == other and again.replayed and not first.replayed
    assert (await wallet.totals(), [await wallet.account(u) for u in (1, 2, 3)]) == before
    assert [r.reason for r in await wallet.ledger(1)].count("hand") == 1


async def test_concurrent_double_settle_applies_once(wallet: Wallet) -> None:
    h = await table(wallet, {1: 50_000, 2: 50_000, 3: 50_000})
    seats = [SeatResult(1, 12, 2), SeatResult(2, -6, -1), SeatResult(3, -6, -1)]
    results = await asyncio.gather(*(wallet.settle(h, "ddz", seats, 1000, 50) for _ in range(5)))
    assert len({r for r in results}) == 1 and sum(not r.replayed for r in results) == 1
    assert (await wallet.account(1)).balance == GRANT + 11_950 + (50_000 - GRANT)
    assert await wallet.house_balance() == 150
    assert await levels.score(wallet.db, 1, "ddz", economy=0) == 2


async def test_aborted_hand_cannot_be_settled(wallet: Wallet) -> None:
    h = await table(wallet, {1: 5_000, 2: 5_000})
    await wallet.release(h)
    with pytest.raises(HandStateError, match="aborted"):
        await wallet.settle(h, "ddz", [SeatResult(1, 1), SeatResult(2, -1)], 10, 0)
    assert (await wallet.account(1)).balance == GRANT


async def test_settle_then_abort_race_has_one_winner(wallet: Wallet) -> None:
    h = await table(wallet, {1: 5_000, 2: 5_000})
    results = await asyncio.gather(
        wallet.settle(h, "ddz", [SeatResult(1, 1), SeatResult(2, -1)], 10, 0),
        wallet.release(h),
        return_exceptions=True,
    )
    # either may take the hand first (on PostgreSQL two pooled transactions race for its row
    # lock); the other is refused, and the beans are what the winner's action makes them
    settled, released = results
    if isinstance(settled, Settlement):
        assert isinstance(released, HandStateError)
        assert (await wallet.account(1)).balance > (await wallet.account(2)).balance
    else:
        assert isinstance(settled, HandStateError) and released == {1: 5_000, 2: 5_000}
        assert (await wallet.account(1)).balance == (await wallet.account(2)).balance
    totals = await wallet.totals()
    assert totals.held == totals.open_holds == 0


async def test_bad_settlements_change_nothing(wallet: Wallet) -> None:
    h = await table(wallet, {1: 5_000, 2: 5_000})
    state = await wallet.totals()
    with pytest.raises(ValueError, match="unseated"):
        await wallet.settle(h, "ddz", [SeatResult(1, 1), SeatResult(None, -1)], 10, 0)
    with pytest.raises(ValueError, match="twice"):
        await wallet.settle(h, "ddz", [SeatResult(1, 1), SeatResult(1, -1)], 10, 0)
    with pytest.raises(ValueError, match="not 'other'"):
        await wallet.settle(h, "other", [SeatResult(1, 1), SeatResult(2, -1)], 10, 0)
    with pytest.raises(ValueError):
        await wallet.settle(h, "ddz", [SeatResult(1, 1), SeatResult(2, -1)], -10, 0)
    with pytest.raises(ValueError):
        await wallet.settle(h, "ddz", [SeatResult(1, True), SeatResult(2, -1)], 10, 0)
    with pytest.raises(ValueError):
        await wallet.settle(h, "ddz", [], 10, 0)
    with pytest.raises(HandStateError, match="no such hand"):
        await wallet.settle(h + 1, "ddz", [SeatResult(1, 1)], 10, 0)
    assert await wallet.totals() == state and await wallet.held(h) == {1: 5_000, 2: 5_000}


FAIL_LEDGER = {
    "sqlite": (
        "CREATE TEMP TRIGGER fail_ledger BEFORE INSERT ON main.ledger "
        "WHEN NEW.reason = 'hand' BEGIN SELECT RAISE(ABORT, 'disk on fire'); END",
    ),
    "postgresql": (
        "CREATE FUNCTION fail_ledger() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN "
        "RAISE EXCEPTION 'disk on fire' USING ERRCODE = 'integrity_constraint_violation'; END $$",
        "CREATE TRIGGER fail_ledger BEFORE INSERT ON ledger FOR EACH ROW "
        "WHEN (NEW.reason = 'hand') EXECUTE FUNCTION fail_ledger()",
    ),
}
HEAL_LEDGER = {"sqlite": "DROP TRIGGER temp.fail_ledger", "postgresql": "DROP TRIGGER fail_ledger ON ledger"}


async def test_failure_inside_the_transaction_leaves_no_trace(db: Storage, wallet: Wallet) -> None:
    """Make the ledger insert fail after the balances were already updated in the
    transaction: everything rolls back (balances, holds, scores, hand status, house)."""
    h = await table(wallet, {1: 50_000, 2: 50_000, 3: 50_000})
    seats = [SeatResult(1, 12, 2), SeatResult(2, -6, -1), SeatResult(3, -6, -1)]

    before = await db.read(snapshot)
    for sql in FAIL_LEDGER[db.dialect]:
        await db.execute(sql)
    with pytest.raises(db.integrity_error, match="disk on fire"):
        await wallet.settle(h, "ddz", seats, 1000, 50)
    assert await db.read(snapshot) == before
    await db.execute(HEAL_LEDGER[db.dialect])
    result = await wallet.settle(h, "ddz", seats, 1000, 50)
    assert deltas(result) == [11_950, -6_050, -6_050]


CRASH = textwrap.dedent(
    """
    import asyncio, os, sys
    from storage.db import SqliteConnection, open_database
    from storage.postgres import PgConnection
    from storage.wallet import SeatResult, Wallet

    # SQLite: the process dies right after the settlement's ledger rows are written, before
    # COMMIT. PostgreSQL writes a settlement in one statement (storage.settling), so the last
    # moment before its commit is just before that statement is sent ("before"); "sent": the
    # process dies once the statement is on its way (prepared, bound and sent, a few ms),
    # before the settlement returns: the caller never learns how it ended.
    moment = sys.argv[3]
    sqlite_many, pg_execute = SqliteConnection.executemany, PgConnection.execute

    def sqlite_dying(self, sql, rows):
        cursor = sqlite_many(self, sql, rows)
        if sql.startswith("INSERT INTO ledger"):
            os._exit(17)
        return cursor

    async def pg_dying(self, sql, params=()):
        if not sql.startswith("SELECT gamehall_settle"):
            return await pg_execute(self, sql, params)
        if moment == "sent":
            asyncio.ensure_future(pg_execute(self, sql, params))
            await asyncio.sleep(0.05)  # on its way: prepared (a round trip), then sent
        os._exit(17)

    SqliteConnection.executemany, PgConnection.execute = sqlite_dying, pg_dying

    async def main(target, hand):
        db = await open_database(target)
        wallet = Wallet(db, starting_grant=10000, relief_amount=0, relief_threshold=0,
                        relief_cooldown_s=0)
        seats = [SeatResult(1, 12, 2), SeatResult(2, -6, -1), SeatResult(3, -6, -1)]
        await wallet.settle(hand, "ddz", seats, 1000, 50)

    asyncio.run(main(sys.argv[1], int(sys.argv[2])))
    """
)


async def _crash_settling(open_db, db_target, moment: str) -> tuple[int, object]:
    """A table of three 5 000 stakes, whose settlement a process dies in at ``moment``; the
    hand's id and the totals before."""
    db = await open_db()
    wallet = Wallet(
        db, starting_grant=GRANT, relief_amount=0, relief_threshold=0, relief_cooldown_s=0
    )
    h = await table(wallet, {1: 5_000, 2: 5_000, 3: 5_000})
    before = await wallet.totals()
    await db.close()
    proc = subprocess.run(
        [sys.executable, "-c", CRASH, str(db_target), str(h), moment],
        cwd=Path(__file__).resolve().parents[2],
        capture_output=True,
        timeout=60,
    )
    assert proc.returncode == 17, proc.stderr.decode()
    return h, before


async def test_process_crash_mid_settlement_leaves_no_trace(open_db, db_target) -> None:
    """Kill the process inside the settlement (SQLite: after balances, ledger rows and scores
    were written, before COMMIT; PostgreSQL: before its one writing statement is sent): the
    next start sees the hand untouched."""
    h, before = await _crash_settling(open_db, db_target, "before")
    db = await open_db()
    try:
        wallet = Wallet(
            db, starting_grant=GRANT, relief_amount=0, relief_threshold=0, relief_cooldown_s=0
        )
        assert await wallet.totals() == before
        assert await wallet.held(h) == {1: 5_000, 2: 5_000, 3: 5_000}
        record = await history.get_hand(db, h)
        assert record is not None and record.status == "running"
        assert await levels.scores(db, 1, economy=0) == {}
        result = await wallet.settle(
            h, "ddz", [SeatResult(1, 12), SeatResult(2, -6), SeatResult(3, -6)], 100, 5
        )
        assert deltas(result) == [1_195, -605, -605]
    finally:
        await db.close()


async def test_process_killed_with_its_settlement_in_flight_finds_it_settled_whole(
    backend: str, open_db, db_target
) -> None:
    """PostgreSQL: the process dies once the settlement's one writing statement is sent; the
    server applies it whole (beans, holds, scores, ledger, result), and settling again returns
    that result."""
    if backend == "sqlite":
        pytest.skip("SQLite commits inside the process: no statement is ever in flight")
    h, before = await _crash_settling(open_db, db_target, "sent")
    db = await open_db()
    try:
        wallet = Wallet(
            db, starting_grant=GRANT, relief_amount=0, relief_threshold=0, relief_cooldown_s=0
        )
        for _ in range(100):  # the server may still be finishing the dead client's statement
            record = await history.get_hand(db, h)
            if record is not None and record.status != "running":
                break
            await asyncio.sleep(0.05)
        assert record is not None and record.status == "settled"
        totals = await wallet.totals()
        assert totals.ledger == before.ledger == totals.players + totals.house
        assert totals.held == before.held - 15_000 and await wallet.held(h) == {}
        # the landlord takes at most its 5 000 stake; the farmers' 4 950 each beyond it come back
        assert dict(record.deltas) == {1: 4_950, 2: -2_550, 3: -2_550}
        assert await levels.scores(db, 1, economy=0) == {"ddz": 2}
        again = await wallet.settle(
            h, "ddz", [SeatResult(1, 12, 2), SeatResult(2, -6, -1), SeatResult(3, -6, -1)],
            1000, 50,
        )
        assert again.replayed and deltas(again) == [4_950, -2_550, -2_550]
    finally:
        await db.close()


async def test_house_ledger_receives_the_rake(wallet: Wallet) -> None:
    h = await table(wallet, {1: 5_000, 2: 5_000}, game="g")
    await wallet.settle(h, "g", [SeatResult(1, 1), SeatResult(2, -1)], 100, 7)
    (row,) = await wallet.ledger(HOUSE)
    assert (row.uid, row.delta, row.balance_after, row.reason, row.hand_id) == (
        HOUSE,
        14,
        14,
        "rake",
        h,
    )
    totals = await wallet.totals()
    assert totals.ledger == totals.players + totals.house


async def test_double_settle_at_once_applies_once_and_abort_loses_the_race(wallet: Wallet) -> None:
    """Five settlements of one hand at the same moment (on PostgreSQL: five pooled connections
    at once) move the beans once; the other four return the stored result. An abort racing a
    settlement either wins or is refused, never both."""
    h = await table(wallet, {1: 50_000, 2: 50_000, 3: 50_000})
    seats = [SeatResult(1, 12, 2), SeatResult(2, -6, -1), SeatResult(3, -6, -1)]
    results = await asyncio.gather(*(wallet.settle(h, "ddz", seats, 1000, 50) for _ in range(5)))
    assert len(set(results)) == 1 and sorted(r.replayed for r in results) == [False] + [True] * 4
    assert deltas(results[0]) == [11_950, -6_050, -6_050]
    assert [r.reason for r in await wallet.ledger(1)].count("hand") == 1
    assert await wallet.house_balance() == 150
    h2 = await table(wallet, {4: 5_000, 5: 5_000})
    two = [SeatResult(4, 1), SeatResult(5, -1)]
    first, second = await asyncio.gather(
        wallet.settle(h2, "ddz", two, 100, 0), wallet.release(h2), return_exceptions=True
    )
    assert isinstance(first, Settlement) != isinstance(second, dict)  # exactly one happened
    totals = await wallet.totals()
    assert totals.held == totals.open_holds == 0
    assert totals.ledger == totals.players + totals.house
