"""Group commit: calls waiting together share one transaction, each in its own savepoint, and keep
the guarantees of their own transaction (a failing call changes nothing and the others commit;
a failed or crashed COMMIT applies nothing and every caller sees it; idempotence holds)."""

from __future__ import annotations

import asyncio
import sqlite3
import subprocess
import sys
import textwrap
from collections.abc import Awaitable
from pathlib import Path
from typing import Any

import pytest
from storage_support import GRANT, snapshot

from storage import history, levels
from storage.db import Database
from storage.errors import HandStateError, StorageError
from storage.wallet import SeatResult, Settlement, Wallet

STAKE = 5_000
# landlord +2, farmers −1 each; N = 1000, A = 50: F1 gives +1950, −1050, −1050, house +150
POINTS = (2, -1, -1)
DELTAS = [1_950, -1_050, -1_050]


class Trace:
    """Every SQL statement the connection runs (sqlite3's trace callback, on its thread)."""

    def __init__(self) -> None:
        self.sql: list[str] = []

    async def start(self, db: Storage) -> Trace:
        await db.run(lambda conn: conn.set_trace_callback(self.sql.append))
        self.sql.clear()
        return self

    def count(self, prefix: str) -> int:
        return sum(statement.startswith(prefix) for statement in self.sql)


async def grouped(db: Storage, *calls: Awaitable[Any], trace: Trace | None = None) -> list[Any]:
    """Start ``calls`` while the connection is held, so that they all queue up and run as one
    group once it is free; their results (or exceptions) in order."""
    async with db.transaction():
        tasks = [asyncio.ensure_future(call) for call in calls]
        await asyncio.sleep(0)  # every task runs up to its database call and queues it
    if trace is not None:
        trace.sql.clear()  # forget the holding transaction's own statements
    return await asyncio.gather(*tasks, return_exceptions=True)


async def hands(wallet: Wallet, count: int) -> list[tuple[int, list[int]]]:
    """``count`` running hands, three players each (distinct players per hand), all holding."""
    out = []
    for k in range(count):
        seats = [3 * k + 1, 3 * k + 2, 3 * k + 3]
        hand = await wallet.new_hand("ddz", "room", 1, 2, seats=seats)
        await wallet.hold(hand, [(uid, STAKE) for uid in seats])
        out.append((hand, seats))
    return out


def settle(wallet: Wallet, hand: int, seats: list[int]) -> Awaitable[Settlement]:
    results = [SeatResult(uid, p, p) for uid, p in zip(seats, POINTS, strict=True)]
    return wallet.settle(hand, "ddz", results, 1000, 50, record=f"R{hand}", outcome=f"O{hand}")


async def balance(wallet: Wallet, uid: int) -> int:
    return (await wallet.account(uid)).balance


@pytest.fixture
def backend() -> str:
    """Group commit is the SQLite adapter's: this module runs on SQLite only (the same races on
    PostgreSQL are in test_settle.py and test_invariants.py)."""
    return "sqlite"


async def test_calls_waiting_together_share_one_transaction(db: Storage, wallet: Wallet) -> None:
    started = await hands(wallet, 20)
    trace = await Trace().start(db)
    results = await grouped(db, *(settle(wallet, h, s) for h, s in started), trace=trace)
    # one BEGIN … COMMIT for the twenty settlements, each in its own savepoint
    assert (trace.count("BEGIN"), trace.count("COMMIT"), trace.count("SAVEPOINT")) == (1, 1, 20)
    for (hand, seats), result in zip(started, results, strict=True):
        assert isinstance(result, Settlement) and not result.replayed
        assert result.hand_id == hand and [s.delta for s in result.seats] == DELTAS
        for uid, delta in zip(seats, DELTAS, strict=True):
            assert await balance(wallet, uid) == GRANT + delta
        record = await history.get_hand(db, hand)
        assert record is not None and record.status == "settled"
        assert (record.record, record.outcome) == (f"R{hand}", f"O{hand}")
    assert await wallet.house_balance() == 20 * 150
    totals = await wallet.totals()
    assert totals.ledger == totals.players + totals.house and totals.held == totals.open_holds == 0


async def test_a_failing_call_changes_nothing_and_the_others_commit(
    db: Storage, wallet: Wallet
) -> None:
    """In one group: an aborted hand (refused before writing), a settlement that fails after
    it has already moved the beans (its ledger insert fails), and a raw call that writes then
    raises. Each gets its own exception and leaves no trace; the other settlements commit."""
    started = await hands(wallet, 6)
    aborted, broken = started[2], started[4]
    await wallet.release(aborted[0])
    await db.run(
        lambda c: c.execute(
            "CREATE TEMP TRIGGER fail_ledger BEFORE INSERT ON main.ledger "
            f"WHEN NEW.hand_id = {broken[0]} BEGIN SELECT RAISE(ABORT, 'disk on fire'); END"
        )
    )
    before = await db.read(snapshot)

    def writes_then_raises(conn: sqlite3.Connection) -> None:
        conn.execute("INSERT INTO guilds (id, mod_role_id) VALUES (7, 8)")
        raise KeyError("changed my mind")

    trace = await Trace().start(db)
    results = await grouped(
        db,
        *(settle(wallet, h, s) for h, s in started),
        db.run(writes_then_raises),
        trace=trace,
    )
    assert (trace.count("BEGIN"), trace.count("COMMIT")) == (1, 1)
    assert isinstance(results[2], HandStateError) and "aborted" in str(results[2])
    assert isinstance(results[4], sqlite3.IntegrityError) and "disk on fire" in str(results[4])
    assert isinstance(results[6], KeyError)
    settled = [started[i] for i in (0, 1, 3, 5)]
    for i in (0, 1, 3, 5):
        assert isinstance(results[i], Settlement) and [s.delta for s in results[i].seats] == DELTAS
    after = await db.read(snapshot)
    players_before = {row[0]: row for row in before[0]}
    for row in after[0]:  # only the settled hands' players and the house changed
        if row[0] in {uid for _, seats in settled for uid in seats} | {0}:
            continue
        assert row == players_before[row[0]]
    for hand, seats in (aborted, broken):
        assert [r for r in after[1] if r[6] == hand] == []  # no ledger row for the hand
        assert [r for r in after[3] if r[0] == hand] == [r for r in before[3] if r[0] == hand]
        for uid in seats:
            assert await levels.scores(db, uid, economy=0) == {}
    assert await wallet.held(broken[0]) == {uid: STAKE for uid in broken[1]}
    assert after[6] == before[6] == []  # the raw call's write is gone
    assert await wallet.house_balance() == 4 * 150
    # the broken hand settles once its cause is gone
    await db.run(lambda c: c.execute("DROP TRIGGER temp.fail_ledger"))
    result = await settle(wallet, *broken)
    assert [s.delta for s in result.seats] == DELTAS and not result.replayed


async def test_a_failed_commit_applies_nothing_and_every_caller_sees_the_error(
    db: Storage, wallet: Wallet
) -> None:
    """A call defers the foreign-key checks and leaves a dangling row: the group's COMMIT
    fails. Nothing of the group is applied and every call in it (the read too) gets the
    error; the connection is usable afterwards and the same settlements then succeed."""
    started = await hands(wallet, 4)
    before = await db.read(snapshot)

    def dangling(conn: sqlite3.Connection) -> str:
        conn.execute("PRAGMA defer_foreign_keys = ON")
        conn.execute("INSERT INTO holds (hand_id, uid, amount, economy) VALUES (999999, 1, 0, 0)")
        return "fine until COMMIT"

    results = await grouped(
        db,
        *(settle(wallet, h, s) for h, s in started),
        db.run(dangling),
        db.read(lambda c: c.execute("SELECT COUNT(*) FROM hands").fetchone()[0]),
    )
    assert all(isinstance(r, sqlite3.IntegrityError) for r in results), results
    assert "FOREIGN KEY" in str(results[0]) and len({id(r) for r in results}) == 1
    assert await db.read(snapshot) == before
    again = await grouped(db, *(settle(wallet, h, s) for h, s in started))
    assert all(isinstance(r, Settlement) and not r.replayed for r in again)


CRASH_AT_COMMIT = textwrap.dedent(
    """
    import asyncio, os, sys
    from storage.db import Database
    from storage.wallet import SeatResult, Wallet

    async def main(path, hands):
        db = await Database.open(path)
        wallet = Wallet(db, starting_grant=10000, relief_amount=0, relief_threshold=0,
                        relief_cooldown_s=0)
        settled = []

        def watch(sql):
            if sql.startswith("UPDATE hands SET status = 'settled'"):
                settled.append(sql)
            elif sql == "COMMIT" and len(settled) == len(hands):
                os._exit(17)  # the process dies as the group's COMMIT starts

        await db.run(lambda conn: conn.set_trace_callback(watch))
        async with db.transaction():  # hold the connection so that the settlements group
            tasks = [
                asyncio.ensure_future(wallet.settle(
                    hand, "ddz", [SeatResult(uid, p, p) for uid, p in zip(seats, (2, -1, -1))],
                    1000, 50))
                for hand, seats in hands
            ]
            await asyncio.sleep(0)
        await asyncio.gather(*tasks)
        print("COMMIT was never reached")

    asyncio.run(main(sys.argv[1], eval(sys.argv[2])))
    """
)


async def test_a_crash_at_commit_applies_nothing(tmp_path: Path) -> None:
    path = tmp_path / "crash.db"
    db = await Database.open(path)
    wallet = Wallet(
        db, starting_grant=GRANT, relief_amount=0, relief_threshold=0, relief_cooldown_s=0
    )
    started = await hands(wallet, 3)
    before = await db.read(snapshot)
    await db.close()
    proc = subprocess.run(
        [sys.executable, "-c", CRASH_AT_COMMIT, str(path), repr(started)],
        cwd=Path(__file__).resolve().parents[2],
        capture_output=True,
        timeout=60,
    )
    assert proc.returncode == 17, (proc.stdout + proc.stderr).decode()
    db = await Database.open(path)
    try:
        # untouched: the three settlements shared the COMMIT that never happened (had each
        # had its own transaction, the first two would have been committed)
        assert await db.read(snapshot) == before
        wallet = Wallet(
            db, starting_grant=GRANT, relief_amount=0, relief_threshold=0, relief_cooldown_s=0
        )
        for hand, seats in started:
            assert await wallet.held(hand) == {uid: STAKE for uid in seats}
            result = await settle(wallet, hand, seats)
            assert [s.delta for s in result.seats] == DELTAS
    finally:
        await db.close()


async def test_double_settle_in_one_group_applies_once(db: Storage, wallet: Wallet) -> None:
    ((hand, seats),) = await hands(wallet, 1)
    trace = await Trace().start(db)
    results = await grouped(db, *(settle(wallet, hand, seats) for _ in range(5)), trace=trace)
    assert trace.count("BEGIN") == 1
    assert all(isinstance(r, Settlement) for r in results)
    assert len(set(results)) == 1 and [r.replayed for r in results] == [False] + [True] * 4
    for uid, delta in zip(seats, DELTAS, strict=True):
        assert await balance(wallet, uid) == GRANT + delta
        assert [r.reason for r in await wallet.ledger(uid)].count("hand") == 1
    assert await wallet.house_balance() == 150
    assert await levels.score(db, seats[0], "ddz", economy=0) == 2


async def test_settle_and_abort_of_one_hand_in_one_group_have_one_winner(wallet: Wallet) -> None:
    ((hand, seats),) = await hands(wallet, 1)
    first, second = await grouped(wallet.db, settle(wallet, hand, seats), wallet.release(hand))
    assert isinstance(first, Settlement) and isinstance(second, HandStateError)
    totals = await wallet.totals()
    assert totals.held == totals.open_holds == 0 and totals.house == 150


async def test_sqlite_discarding_the_transaction_reruns_the_calls_before(db: Storage) -> None:
    """An interrupt makes SQLite roll the whole transaction back (as disk-full and I/O errors
    do): the failing call gets its error, the call before it runs again, all others commit."""
    runs: list[str] = []

    def insert(uid: int) -> Any:
        def fn(conn: sqlite3.Connection) -> int:
            runs.append(f"insert {uid}")
            conn.execute("INSERT INTO guilds (id) VALUES (?)", (uid,))
            return uid

        return fn

    def interrupted(conn: sqlite3.Connection) -> None:
        conn.create_function("interrupt_now", 0, lambda: conn.interrupt() or 1)
        conn.execute("INSERT INTO guilds (id) VALUES (2)")
        conn.execute("INSERT INTO guilds (id) SELECT interrupt_now() + 100")

    results = await grouped(db, db.run(insert(1)), db.run(interrupted), db.run(insert(3)))
    assert results[0] == 1 and results[2] == 3
    assert isinstance(results[1], sqlite3.OperationalError) and "interrupt" in str(results[1])
    assert runs == ["insert 1", "insert 1", "insert 3"]
    ids = await db.read(lambda c: [r[0] for r in c.execute("SELECT id FROM guilds ORDER BY id")])
    assert ids == [1, 3]


async def test_a_call_that_ends_the_group_transaction_is_refused(db: Storage) -> None:
    def insert(uid: int) -> Any:
        return lambda conn: conn.execute("INSERT INTO guilds (id) VALUES (?)", (uid,)) and uid

    def commits(conn: sqlite3.Connection) -> None:
        conn.execute("INSERT INTO guilds (id) VALUES (2)")
        conn.execute("COMMIT")  # a misuse: calls must not end their transaction

    results = await grouped(db, db.run(insert(1)), db.run(commits), db.run(insert(3)))
    assert [type(r) for r in results] == [StorageError, StorageError, int]
    assert "ended its own transaction" in str(results[0]) and results[2] == 3
    assert await db.run(insert(4)) == 4  # the connection is not left inside a transaction


async def test_reads_in_a_group_see_the_calls_before_them(db: Storage) -> None:
    def insert(uid: int) -> Any:
        return lambda conn: conn.execute("INSERT INTO guilds (id) VALUES (?)", (uid,)) and uid

    def count(conn: sqlite3.Connection) -> int:
        return int(conn.execute("SELECT COUNT(*) FROM guilds").fetchone()[0])

    results = await grouped(
        db, db.read(count), db.run(insert(1)), db.read(count), db.run(insert(2)), db.read(count)
    )
    assert results == [0, 1, 1, 2, 2]


async def test_reads_alone_group_without_taking_the_write_lock(db: Storage) -> None:
    trace = await Trace().start(db)
    assert await grouped(db, db.read(lambda c: 1), db.read(lambda c: 2), trace=trace) == [1, 2]
    assert trace.sql[0] == "BEGIN DEFERRED" and trace.count("BEGIN") == 1


async def test_a_call_cancelled_while_queued_never_runs(db: Storage) -> None:
    def insert(uid: int) -> Any:
        return lambda conn: conn.execute("INSERT INTO guilds (id) VALUES (?)", (uid,)) and uid

    async with db.transaction():
        tasks = [asyncio.ensure_future(db.run(insert(uid))) for uid in (1, 2, 3)]
        await asyncio.sleep(0)
        tasks[1].cancel()
    results = await asyncio.gather(*tasks, return_exceptions=True)
    assert results[0] == 1 and results[2] == 3 and isinstance(results[1], asyncio.CancelledError)
    ids = await db.read(lambda c: [r[0] for r in c.execute("SELECT id FROM guilds ORDER BY id")])
    assert ids == [1, 3]


async def test_groups_are_capped(db: Storage) -> None:
    def insert(uid: int) -> Any:
        return lambda conn: conn.execute("INSERT INTO guilds (id) VALUES (?)", (uid,)) and uid

    trace = await Trace().start(db)
    count = Database.GROUP_MAX + 6
    results = await grouped(db, *(db.run(insert(uid)) for uid in range(count)), trace=trace)
    assert results == list(range(count))
    assert trace.count("BEGIN") == 2 and trace.count("SAVEPOINT") == count


async def test_close_lets_queued_calls_finish_and_refuses_later_ones(tmp_path: Path) -> None:
    db = await Database.open(tmp_path / "c.db")

    def insert(uid: int) -> Any:
        return lambda conn: conn.execute("INSERT INTO guilds (id) VALUES (?)", (uid,)) and uid

    async with db.transaction():
        early = [asyncio.ensure_future(db.run(insert(uid))) for uid in (1, 2, 3)]
        await asyncio.sleep(0)
        closing = asyncio.ensure_future(db.close())
        await asyncio.sleep(0)
        late = asyncio.ensure_future(db.run(insert(4)))
        await asyncio.sleep(0)
    assert await asyncio.gather(*early) == [1, 2, 3]
    await closing
    with pytest.raises(StorageError, match="closed"):
        await late
    with sqlite3.connect(tmp_path / "c.db") as conn:
        assert [r[0] for r in conn.execute("SELECT id FROM guilds ORDER BY id")] == [1, 2, 3]


async def test_stop_iteration_in_a_call_becomes_a_runtime_error(db: Storage) -> None:
    def stops(conn: sqlite3.Connection) -> None:
        conn.execute("INSERT INTO guilds (id) VALUES (1)")
        raise StopIteration

    results = await grouped(db, db.run(stops), db.run(lambda c: 5))
    assert isinstance(results[0], RuntimeError) and results[1] == 5
    with pytest.raises(RuntimeError):
        await db.run(stops)
    assert await db.read(lambda c: c.execute("SELECT COUNT(*) FROM guilds").fetchone()[0]) == 0
