"""比赛 with several processes on one database (every test on SQLite and PostgreSQL): the
process serving an event's server starts and runs it, one process owns a running event (a
lease), a process that lost the event cannot write to it, and after the owner dies another
takes the event over once the lease has lapsed and plays it to the end."""

from __future__ import annotations

import itertools
from dataclasses import replace
from pathlib import Path

import pytest

from bot.host.tables import TableManager
from bot.settings import Settings, load_settings, shard_of
from bot.terminal import TerminalNotifier
from bot.tournament.runner import LEASE_SECONDS, TournamentRunner
from engines import registry
from storage.db import Storage, open_database
from storage.tournaments import EventSpec, Format, Status, TournamentError, Tournaments
from storage.wallet import Wallet

SHARDS = 2
GUILD_A = 1000 << 22  # shard 0
GUILD_B = (1001 << 22) + 12345  # shard 1
MOD = 99


class Clock:
    def __init__(self) -> None:
        self.now = 1_700_000_000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def settings(db_target: Path | str) -> Settings:
    return load_settings(environ={"GAMEHALL_DB": str(db_target)},
                         known_games=registry.specs().keys())


async def process(settings: Settings, shard: int, clock: Clock, seed: int
                  ) -> tuple[TableManager, Storage]:
    mine = replace(settings, shard_count=SHARDS, shard_ids=(shard,))
    db = await open_database(mine.database)
    notifier = TerminalNotifier(uid=1, locale="en-US", out=lambda _: None)
    seeds = itertools.count(seed)
    manager = TableManager(mine, db, Wallet.from_settings(db, mine, clock=clock), notifier,
                           clock=clock,
                           seed_source=lambda: next(seeds), owns=mine.owns)
    notifier.manager = manager
    await manager.restore()
    return manager, db


async def stop(manager: TableManager, db: Storage) -> None:
    await manager.shutdown()
    await db.close()


def test_the_servers_sit_on_different_shards() -> None:
    assert shard_of(GUILD_A, SHARDS) == 0 and shard_of(GUILD_B, SHARDS) == 1


async def test_one_process_runs_an_event_and_another_takes_over_after_its_lease(
        settings: Settings) -> None:
    clock = Clock()
    a, a_db = await process(settings, 0, clock, 2000)
    b, b_db = await process(settings, 1, clock, 3000)
    present = 1  # plays their own seat: the round waits for them
    run_a = TournamentRunner(a, auto=lambda uid: uid != present, owner="process-a")
    run_b = TournamentRunner(b, auto=lambda uid: True, owner="process-b")
    spec = EventSpec("doudizhu", "free", Format.SCHEDULED, 6, 1, fee=100,
                     start_at=clock() + 60)
    eid = await run_a.create(GUILD_A, 10, spec, MOD)
    wallet = a.wallet_for(GUILD_A)
    for uid in (1, 2, 3):
        await wallet.ensure_player(uid)
    totals = await wallet.totals()
    before = totals.players + totals.house
    for uid in (1, 2, 3):
        await run_a.join(GUILD_A, eid, uid, f"P{uid}")
    clock.now += 60
    # the other shard's process ticks first: it does not serve the event's server
    assert await run_b.tick() == []
    assert (await run_b.store(GUILD_A).get(eid)).status is Status.OPEN
    assert await run_a.tick() == [eid]
    await run_a.idle()
    assert a.table_of(present) is not None and b.table_of(present) is None
    # process A dies in the middle of the round (its lease is not given back)
    await stop(a, a_db)
    a2, a2_db = await process(settings, 0, clock, 4000)
    try:
        again = TournamentRunner(a2, auto=lambda uid: uid != present, owner="process-a2")
        assert await again.restore() == []  # A's lease may still be live: hands off
        clock.now += LEASE_SECONDS + 1
        assert await again.restore() == [eid]
        table = a2.table_of(present)
        assert table is not None
        await a2.set_trustee(table.id, present, True)
        await again.idle()
        event = await again.store(GUILD_A).get(eid)
        assert event.status is Status.FINISHED and len(event.state["hands"]) == 1
        totals = await a2.wallet_for(GUILD_A).totals()
        assert totals.players + totals.house == before  # no bean lost or made
        assert totals.held == totals.open_holds == 0
    finally:
        await stop(a2, a2_db)
        await stop(b, b_db)


async def test_a_process_that_lost_the_event_cannot_write_to_it(settings: Settings) -> None:
    clock = Clock()
    db = await open_database(settings.database)
    try:
        events = Tournaments(Wallet.from_settings(db, settings, clock=clock).scoped(7))
        eid = await events.create(7, 70, EventSpec("doudizhu", "free", Format.SIT_AND_GO, 3,
                                                   1), MOD)
        for uid in (1, 2, 3):
            await events.register(eid, uid)
        tables = {"900": {"seats": [1, 2, 3], "done": False}}
        await events.start(eid, {"round": 1, "tables": tables,
                                 "chips": {"1": 1000, "2": 1000, "3": 1000}}, "old", 120)
        assert not await events.claim(eid, "new", 120)  # the lease holds
        clock.now += 121
        assert await events.claim(eid, "new", 120)  # lapsed: taken over
        points = [[1, 2], [2, -1], [3, -1]]
        with pytest.raises(TournamentError) as err:
            await events.record_hand(eid, 0, 1, 900, 5, points, {1: 2, 2: -1, 3: -1},
                                     owner="old", lease=120)
        assert err.value.reason == "not_owner"
        with pytest.raises(TournamentError) as err:
            await events.save_round(eid, {"round": 2}, owner="old", lease=120)
        assert err.value.reason == "not_owner"
        state = (await events.get(eid)).state
        assert state["hands"] == [] and state["round"] == 1 and state["chips"]["1"] == 1000
        assert await events.renew([eid], "old", 120) == [eid]
        assert await events.record_hand(eid, 0, 1, 900, 5, points, {1: 2, 2: -1, 3: -1},
                                        owner="new", lease=120)
        assert (await events.get(eid)).state["chips"]["1"] == 1002
    finally:
        await db.close()


async def test_an_event_cancelled_by_another_process_is_let_go_with_every_fee_back(
        settings: Settings) -> None:
    clock = Clock()
    a, a_db = await process(settings, 0, clock, 2000)
    b, b_db = await process(settings, 1, clock, 3000)
    try:
        present = 1
        run_a = TournamentRunner(a, auto=lambda uid: uid != present, owner="process-a")
        run_b = TournamentRunner(b, owner="process-b")
        spec = EventSpec("doudizhu", "free", Format.SIT_AND_GO, 3, 2, fee=100)
        eid = await run_a.create(GUILD_A, 10, spec, MOD)
        for uid in (1, 2, 3):
            await run_a.join(GUILD_A, eid, uid, f"P{uid}")
        await run_a.idle()
        assert eid in run_a.states
        # a moderator's /tournament cancel answered by the other process
        refunds = await run_b.cancel(GUILD_A, eid, MOD, "rained off")
        assert refunds == {1: 100, 2: 100, 3: 100}
        table = a.table_of(present)
        assert table is not None
        await a.set_trustee(table.id, present, True)  # the hand ends at A's table
        await run_a.idle()  # no error: A lets the event go
        assert eid not in run_a.states
        event = await run_a.store(GUILD_A).get(eid)
        assert event.status is Status.CANCELLED
        totals = await a.wallet_for(GUILD_A).totals()
        assert totals.held == totals.open_holds == 0
    finally:
        await stop(a, a_db)
        await stop(b, b_db)
