"""PostgreSQL round trips: what a settlement and a saved action cost on the wire.

Counted at the driver: every call the storage makes on the asyncpg connection (``execute``,
``executemany``, ``fetch``, ``fetchmany``, ``fetchrow``, ``fetchval``, ``prepare``; BEGIN and
COMMIT go through ``execute``) waits for the server's answer once, so each call is one round
trip. The connections are the adapter's own, opened by ``PostgresDatabase.open`` on the
session's real server; the test only wraps their methods to count. The statement cache is
warmed by one operation of the same kind first, so what is counted is the steady state of a
busy hall.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import asyncpg
import postgres_server
import pytest

from storage import history, levels, tables
from storage.conduct import Conduct, SeatOutcome
from storage.db import open_database
from storage.errors import InsufficientBeans
from storage.postgres import PostgresDatabase
from storage.wallet import HOUSE, SeatResult, Settlement, Wallet

COUNTED = ("execute", "executemany", "fetch", "fetchmany", "fetchrow", "fetchval", "prepare")


class Counter:
    """Round trips (one per awaited driver call) and statements (executemany: one per row)."""

    def __init__(self) -> None:
        self.round_trips = 0
        self.statements = 0
        self.texts: list[str] = []

    def reset(self) -> None:
        self.round_trips, self.statements, self.texts = 0, 0, []

    def connection_class(self) -> type[asyncpg.Connection]:
        """An ``asyncpg.Connection`` whose driver calls add to this counter."""
        counter = self

        def counting(name: str) -> Any:
            method = getattr(asyncpg.Connection, name)

            async def counted(conn: Any, *args: Any, **kwargs: Any) -> Any:
                counter.round_trips += 1
                rows = args[1] if name in ("executemany", "fetchmany") and len(args) > 1 else None
                counter.statements += len(list(rows)) if rows is not None else 1
                counter.texts.append(str(args[0])[:70] if args else name)
                return await method(conn, *args, **kwargs)

            return counted

        return type(
            "CountedConnection", (asyncpg.Connection,), {name: counting(name) for name in COUNTED}
        )


@pytest.fixture
async def counted(
    pg_server: postgres_server.Server,
) -> AsyncIterator[tuple[PostgresDatabase, Counter]]:
    """A fresh database on the session's server, opened with one counted connection."""
    if pg_server.problem:
        postgres_server.unavailable(pg_server)
    url = await pg_server.new_database()
    counter = Counter()
    db = await PostgresDatabase.open(
        url, min_size=1, max_size=1, connection_class=counter.connection_class()
    )
    try:
        yield db, counter
    finally:
        await db.close()
        await pg_server.drop(url)


async def _hand(wallet: Wallet, seats: list[int], game: str = "ddz") -> int:
    hand = await wallet.new_hand(game, "room", 7, 8, seats=seats)
    await wallet.hold(hand, [(uid, 5_000) for uid in seats])
    return hand


async def test_a_settlement_costs_at_most_two_round_trips(
    counted: tuple[PostgresDatabase, Counter],
) -> None:
    db, counter = counted
    wallet = Wallet(
        db, starting_grant=10_000, relief_amount=0, relief_threshold=0, relief_cooldown_s=0
    )
    seats = [SeatResult(1, 12, 2), SeatResult(2, -6, -1), SeatResult(3, -6, -1)]
    warm = await _hand(wallet, [1, 2, 3])
    await wallet.settle(warm, "ddz", seats, 100, 5)
    hand = await _hand(wallet, [1, 2, 3])

    counter.reset()
    result = await wallet.settle(hand, "ddz", seats, 100, 5, record='{"log": []}')
    trips = counter.round_trips

    assert [s.delta for s in result.seats] == [1_195, -605, -605]
    assert trips <= 2, f"{trips} round trips: {counter.texts}"
    # what the players see afterwards is the settled hand, at every seat
    record = await history.get_hand(db, hand)
    assert record is not None and record.status == "settled"
    assert dict(record.deltas) == {1: 1_195, 2: -605, 3: -605}


async def test_replaying_a_settlement_costs_one_round_trip(
    counted: tuple[PostgresDatabase, Counter],
) -> None:
    db, counter = counted
    wallet = Wallet(
        db, starting_grant=10_000, relief_amount=0, relief_threshold=0, relief_cooldown_s=0
    )
    seats = [SeatResult(1, 12, 2), SeatResult(2, -6, -1), SeatResult(3, -6, -1)]
    hand = await _hand(wallet, [1, 2, 3])
    first = await wallet.settle(hand, "ddz", seats, 100, 5)

    counter.reset()
    again = await wallet.settle(hand, "ddz", seats, 100, 5)

    assert again.replayed and again == first
    assert counter.round_trips <= 1, counter.texts


@pytest.mark.parametrize("batch", [1, 3])
async def test_saving_actions_costs_one_round_trip(
    counted: tuple[PostgresDatabase, Counter], batch: int
) -> None:
    db, counter = counted
    await tables.save_table(db, 50, 7, 50, '{"table": 50}')
    await tables.append_actions(db, 50, 9, 0, [(0, "3")], 100.0, None)  # warm the cache

    counter.reset()
    actions = [(seat % 3, f"{seat + 4}") for seat in range(batch)]
    await tables.append_actions(db, 50, 9, 1, actions, 130.0, None)

    assert counter.round_trips == 1, counter.texts
    saved = (await tables.load_actions(db))[50]
    assert [(a.seq, a.seat, a.action) for a in saved] == [
        (0, 0, "3"),
        *((1 + i, s, a) for i, (s, a) in enumerate(actions)),
    ]
    assert saved[-1].deadline == 130.0


async def _settlements(wallet: Wallet) -> list[Settlement]:
    """The same hands on any backend: the pot rule with rake and a bot, a capped winner, a
    score-only seat of a new player (starting grant), pairwise transfers with props."""
    out = []
    hand = await _hand(wallet, [1, 2, 3])
    out.append(
        await wallet.settle(
            hand,
            "ddz",
            [SeatResult(1, 12, 2), SeatResult(2, -6, -1), SeatResult(3, -6, -1)],
            1000,
            50,
        )
    )
    hand = await wallet.new_hand("ddz", "room", 7, 8, seats=[1, 2, None])
    await wallet.hold(hand, [(1, 300), (2, 5_000)])
    out.append(
        await wallet.settle(
            hand,
            "ddz",
            [SeatResult(1, 4, 1), SeatResult(2, -2), SeatResult(None, -2)],
            100,
            5,
        )
    )
    hand = await wallet.new_hand("gomoku", "room", 7, 8, seats=[3, 4])
    await wallet.hold(hand, [(3, 0)])
    out.append(
        await wallet.settle(
            hand,
            "gomoku",
            [SeatResult(3, 1, 3), SeatResult(4, -1, -3)],
            0,
            0,
        )
    )
    hand = await _hand(wallet, [1, 2, 3], "mahjong")
    out.append(
        await wallet.settle(
            hand,
            "mahjong",
            [SeatResult(1, 5), SeatResult(2, -2), SeatResult(3, -3)],
            100,
            10,
            transfers=[(1, 0, 2), (2, 0, 3)],
            fees=[0, 20, 0],
        )
    )
    return out


async def test_postgresql_writes_the_ledger_sqlite_writes(
    counted: tuple[PostgresDatabase, Counter], tmp_path: Path
) -> None:
    """The two-round-trip settlement on PostgreSQL leaves the same results, balances, scores
    and ledger rows as SQLite's statement-by-statement one, for the same hands."""
    db, _ = counted
    sqlite = await open_database(tmp_path / "hall.db")
    try:
        ledgers, results = [], []
        for storage in (sqlite, db):
            wallet = Wallet(
                storage,
                starting_grant=10_000,
                relief_amount=0,
                relief_threshold=0,
                relief_cooldown_s=0,
                clock=lambda: 1_000.0,
            )
            results.append(await _settlements(wallet))
            rows = []
            for uid in (HOUSE, 1, 2, 3, 4):
                rows += [
                    (r.uid, r.delta, r.balance_after, r.reason, r.note, r.hand_id)
                    for r in await wallet.ledger(uid, limit=100)
                ]
            ledgers.append(
                (
                    rows,
                    await wallet.totals(),
                    [await levels.scores(storage, u, economy=0) for u in (1, 2, 3, 4)],
                )
            )
        assert results[0] == results[1]
        assert ledgers[0] == ledgers[1]
    finally:
        await sqlite.close()


async def test_saving_a_table_snapshot_costs_one_round_trip(
    counted: tuple[PostgresDatabase, Counter],
) -> None:
    db, counter = counted
    await tables.save_table(db, 50, 7, 50, '{"table": 50, "v": 0}')  # warm the cache
    await tables.append_actions(db, 50, 9, 0, [(0, "3"), (1, "4")], 100.0, None)

    counter.reset()
    await tables.save_table(db, 50, 7, 50, '{"table": 50, "v": 1}')

    assert counter.round_trips == 1, counter.texts
    assert await tables.load_tables(db) == [(50, 7, 50, '{"table": 50, "v": 1}')]
    assert await tables.load_actions(db) == {}  # the snapshot includes them


async def test_a_one_statement_read_costs_one_round_trip(
    counted: tuple[PostgresDatabase, Counter],
) -> None:
    """A player's wallet is read with one SELECT: no BEGIN/COMMIT around it. A read of
    several statements still sees one snapshot (the totals add up)."""
    db, counter = counted
    wallet = Wallet(
        db, starting_grant=10_000, relief_amount=0, relief_threshold=0, relief_cooldown_s=0
    )
    await wallet.grant(1, 500, "prize", 99)
    await wallet.account(1)  # warm the cache

    counter.reset()
    account = await wallet.account(1)

    assert (account.balance, account.free) == (10_500, 10_500)
    assert counter.round_trips == 1, counter.texts
    for _ in range(2):
        totals = await wallet.totals()
        assert totals.ledger == totals.players + totals.house == 10_500


async def test_holding_a_tables_stakes_costs_one_round_trip(
    counted: tuple[PostgresDatabase, Counter],
) -> None:
    """带入 for three seats, a new player among them: one round trip; a refused hold names
    the short player and holds nothing."""
    db, counter = counted
    wallet = Wallet(
        db, starting_grant=10_000, relief_amount=0, relief_threshold=0, relief_cooldown_s=0
    )
    await _hand(wallet, [1, 2, 3])  # warm the cache
    hand = await wallet.new_hand("ddz", "room", 7, 8, seats=[1, 2, 4])

    counter.reset()
    await wallet.hold(hand, [(1, 4_000), (2, 4_000), (4, 6_000)])

    assert counter.round_trips == 1, counter.texts
    assert await wallet.held(hand) == {1: 4_000, 2: 4_000, 4: 6_000}
    assert (await wallet.account(4)).free == 4_000  # a new player: the grant, then the hold
    other = await wallet.new_hand("ddz", "room", 7, 8, seats=[1, 3])
    with pytest.raises(InsufficientBeans) as refused:
        await wallet.hold(other, [(3, 1_000), (1, 2_000)])
    assert (refused.value.uid, refused.value.free) == (1, 1_000)
    assert await wallet.held(other) == {}


async def test_opening_a_hand_costs_one_round_trip(
    counted: tuple[PostgresDatabase, Counter], monkeypatch: pytest.MonkeyPatch
) -> None:
    """开局: one statement, even when the first code drawn is taken (it is drawn again)."""
    db, counter = counted
    wallet = Wallet(
        db, starting_grant=10_000, relief_amount=0, relief_threshold=0, relief_cooldown_s=0
    )
    first = await wallet.new_hand("ddz", "room", 7, 8, seats=[1, 2, 3])

    counter.reset()
    second = await wallet.new_hand("ddz", "room", 7, 8, seats=[1, 2, 3])
    assert counter.round_trips == 1, counter.texts

    taken = await history.hand_code(db, first)
    codes = iter([taken, "7hq2km0abc"])
    monkeypatch.setattr(history, "new_code", lambda: next(codes))
    third = await wallet.new_hand("ddz", "room", 7, 8, seats=[1, 2, 3])
    assert len({first, second, third}) == 3
    assert await history.hand_code(db, third) == "7hq2km0abc"


async def test_recording_a_clean_hands_conduct_costs_one_round_trip(
    counted: tuple[PostgresDatabase, Counter],
) -> None:
    """The referee's record of a hand nobody left (clean hands, the pairs' statistics): one
    statement, counted once even when the settlement is replayed."""
    db, counter = counted
    conduct = Conduct(db)
    seats = [SeatOutcome(1, 200), SeatOutcome(2, -100), SeatOutcome(3, -100)]
    args = {"economy": 0, "guild_id": 7, "beans": True}
    await conduct.hand_settled(seats, [(1, 0, 100), (2, 0, 100)], 10.0, hand_id=1, **args)

    counter.reset()
    await conduct.hand_settled(seats, [(1, 0, 100), (2, 0, 100)], 20.0, hand_id=2, **args)
    assert counter.round_trips == 1, counter.texts
    await conduct.hand_settled(seats, [(1, 0, 100), (2, 0, 100)], 30.0, hand_id=2, **args)

    pairs = {(p.a, p.b): (p.hands, p.net) for p in await conduct.pairs(economy=0, guild_id=7)}
    assert pairs == {(1, 2): (2, 200), (1, 3): (2, 200), (2, 3): (2, 0)}


# --- group commit: several calls' statements in one round trip -----------------------------------


async def test_many_tables_saving_actions_at_once_cost_one_round_trip(
    counted: tuple[PostgresDatabase, Counter],
) -> None:
    """The action log of eight tables saved at the same moment: one round trip (one commit)
    for all of them, and every table's actions are there."""
    db, counter = counted
    for table in range(1, 9):
        await tables.save_table(db, table, 7, table, f'{{"table": {table}}}')
    await tables.append_actions(db, 1, 9, 0, [(0, "3")], 100.0, None)  # warm the cache

    counter.reset()
    await asyncio.gather(
        *(
            tables.append_actions(db, table, 9, 1, [(table % 3, f"{table}"), (0, "pass")],
                                  110.0 + table, None)
            for table in range(1, 9)
        )
    )

    assert counter.round_trips == 1, counter.texts
    saved = await tables.load_actions(db)
    for table in range(1, 9):
        assert [(a.seq, a.seat, a.action) for a in saved[table]][-2:] == [
            (1, table % 3, f"{table}"),
            (2, 0, "pass"),
        ]
        assert saved[table][-1].deadline == 110.0 + table


async def test_a_failing_call_in_a_group_fails_alone(
    counted: tuple[PostgresDatabase, Counter],
) -> None:
    """One table's save is refused by the server (a NULL hand id) while three others are
    saved at the same moment: that call gets the error, the others are saved."""
    db, _ = counted
    await tables.append_actions(db, 1, 9, 0, [(0, "3")], 100.0, None)  # warm the cache
    hand_ids: list[Any] = [9, 9, None, 9]  # None: the server refuses that row (NOT NULL)
    calls = [
        tables.append_actions(db, table, hand_id, 0, [(0, "4")], 1.0, None)
        for table, hand_id in enumerate(hand_ids, start=1)
    ]
    outcomes = await asyncio.gather(*calls, return_exceptions=True)

    assert [isinstance(o, db.integrity_error) for o in outcomes] == [False, False, True, False]
    saved = await tables.load_actions(db)
    assert sorted(saved) == [1, 2, 4]
    assert all(a.action == "4" for t in (1, 2, 4) for a in saved[t])


async def test_settlements_of_many_tables_at_once_share_their_round_trips(
    counted: tuple[PostgresDatabase, Counter],
) -> None:
    """Six tables settle at the same moment (each its own players): two round trips for all
    six (their reads together, then their writes together), each hand settled as alone."""
    db, counter = counted
    wallet = Wallet(
        db, starting_grant=10_000, relief_amount=0, relief_threshold=0, relief_cooldown_s=0
    )
    seats = [[3 * t + 1, 3 * t + 2, 3 * t + 3] for t in range(6)]
    warm = await _hand(wallet, seats[0])
    await wallet.settle(warm, "ddz", [SeatResult(u, p) for u, p in zip(seats[0], (2, -1, -1))],
                        100, 5)
    hands = [await _hand(wallet, group) for group in seats]

    counter.reset()
    results = await asyncio.gather(
        *(
            wallet.settle(hand, "ddz", [SeatResult(u, p) for u, p in zip(group, (-2, 1, 1))],
                          100, 5)
            for hand, group in zip(hands, seats)
        )
    )

    assert counter.round_trips <= 2, counter.texts
    assert [[s.delta for s in r.seats] for r in results] == [[-205, 95, 95]] * 6
    totals = await wallet.totals()
    assert totals.ledger == totals.players + totals.house
    for hand in hands:
        record = await history.get_hand(db, hand)
        assert record is not None and record.status == "settled"


async def test_two_hands_of_one_player_settled_at_once_both_count(
    counted: tuple[PostgresDatabase, Counter],
) -> None:
    """Two hands that share a player settle at the same moment (a group of two calls whose
    second finds the balance the first just moved): the group fails whole, each settlement
    runs again alone, and both count exactly once."""
    db, _ = counted
    wallet = Wallet(
        db, starting_grant=10_000, relief_amount=0, relief_threshold=0, relief_cooldown_s=0
    )
    warm = await _hand(wallet, [1, 2, 3])
    await wallet.settle(warm, "ddz", [SeatResult(1, 2), SeatResult(2, -1), SeatResult(3, -1)],
                        100, 5)
    first = await wallet.new_hand("ddz", "room", 7, 8, seats=[1, 2, 3])
    await wallet.hold(first, [(uid, 1_000) for uid in (1, 2, 3)])
    second = await wallet.new_hand("ddz", "room", 7, 8, seats=[1, 4, 5])
    await wallet.hold(second, [(uid, 1_000) for uid in (1, 4, 5)])
    before = (await wallet.account(1)).balance

    results = await asyncio.gather(
        wallet.settle(first, "ddz", [SeatResult(1, 2), SeatResult(2, -1), SeatResult(3, -1)],
                      100, 5),
        wallet.settle(second, "ddz", [SeatResult(1, 2), SeatResult(4, -1), SeatResult(5, -1)],
                      100, 5),
    )

    assert [r.seats[0].delta for r in results] == [195, 195]
    assert (await wallet.account(1)).balance == before + 390
    assert (await wallet.account(1)).held == 0
    totals = await wallet.totals()
    assert totals.ledger == totals.players + totals.house


@pytest.mark.parametrize("count", [3, 60])
async def test_opening_tables_costs_the_same_round_trips_for_three_or_sixty(
    counted: tuple[PostgresDatabase, Counter], count: int
) -> None:
    """A round of an event opens its tables in one transaction: its statements are set-based
    (no round trip per seat or per table), so sixty tables cost what three do."""
    db, counter = counted

    def batch(first: int) -> list[tables.NewTable]:
        return [tables.NewTable(t, 7, t, f'{{"table": {t}}}', frozenset({3 * t, 3 * t + 1}))
                for t in range(first, first + count)]

    await tables.open_tables(db, batch(1000))  # warm the cache

    counter.reset()
    assert await tables.open_tables(db, batch(1)) == {}

    # BEGIN, two reads, the seats' insert and its check, the snapshots, their actions, COMMIT
    assert counter.round_trips == 8, counter.texts
    assert len(await tables.load_tables(db)) == 2 * count
