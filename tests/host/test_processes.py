"""Several bot processes, one hall: two table managers on one database, each with its own
connection (SQLite) or connection pool (PostgreSQL) and owning the servers of its own shard, as
two processes of a sharded bot are. Every test here runs on both backends.

A person holds one seat in the whole hall (the database's seat rows decide, not a manager's
memory), a process restarting touches only its own servers' tables and hands, settlements in
both at once conserve beans, and a manager shut down mid-hand is resumed by the next one."""

from __future__ import annotations

import asyncio
import itertools
import json
from collections.abc import AsyncIterator
from dataclasses import dataclass, replace
from pathlib import Path

import pytest

from bot.host.model import PLAYING, WAITING, HostError
from bot.host.tables import TableManager
from bot.render.text import error_text
from bot.settings import Settings, load_settings, shard_of
from bot.terminal import TerminalNotifier
from engines import registry
from engines.base import T
from storage import history
from storage import seats as seat_store
from storage import tables as table_store
from storage.db import Storage, open_database
from storage.wallet import Wallet

SHARDS = 2
# servers on shard 0 (process A) and shard 1 (process B): Discord's (id >> 22) % count
GUILD_A = 1000 << 22
GUILD_B = (1001 << 22) + 12345
TABLE_A, TABLE_A2 = 7100, 7101
TABLE_B, TABLE_B2 = 8100, 8101


class Clock:
    def __init__(self) -> None:
        self.now = 1_700_000_000.0

    def __call__(self) -> float:
        return self.now


@dataclass(eq=False)
class Process:
    """One bot process: its own database connection and table manager."""

    manager: TableManager
    db: Storage
    printed: list[str]


def shard_settings(settings: Settings, shard: int) -> Settings:
    return replace(settings, shard_count=SHARDS, shard_ids=(shard,))


async def start_process(settings: Settings, shard: int, clock: Clock) -> Process:
    """Open a connection and a manager for shard ``shard`` and restore its tables."""
    mine = shard_settings(settings, shard)
    db = await open_database(mine.database)
    printed: list[str] = []
    notifier = TerminalNotifier(uid=1, locale="en-US", out=printed.append)
    seeds = itertools.count(2000 + 1000 * shard)
    manager = TableManager(mine, db, Wallet.from_settings(db, mine), notifier, clock=clock,
                           seed_source=lambda: next(seeds), owns=mine.owns)
    notifier.manager = manager
    await manager.restore()
    return Process(manager, db, printed)


async def stop_process(process: Process) -> None:
    await process.manager.shutdown()
    await process.db.close()


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def settings(db_target: Path | str) -> Settings:
    """The hall's settings on this test's database: a SQLite file or a PostgreSQL URL."""
    return load_settings(environ={"GAMEHALL_DB": str(db_target)},
                         known_games=registry.specs().keys())


@pytest.fixture
async def two(settings: Settings, clock: Clock) -> AsyncIterator[tuple[Process, Process]]:
    a = await start_process(settings, 0, clock)
    b = await start_process(settings, 1, clock)
    yield a, b
    for process in (a, b):
        await stop_process(process)


async def play_out(manager: TableManager, table_id: int) -> None:
    """Every person takes the hint until the hand is settled."""
    for _ in range(500):
        table = manager.tables.get(table_id)
        if table is None or table.status != PLAYING:
            return
        assert table.game is not None
        seat = table.game.to_act()[0]
        uid = table.seats[seat].uid
        assert uid is not None
        await manager.act(table_id, uid, manager.hint(table_id, uid))
        await asyncio.sleep(0)  # let the other process's tables take turns
    raise AssertionError("hand did not end")


async def seat_three(manager: TableManager, guild: int, table_id: int, uids: tuple[int, ...],
                     room: str = "novice") -> None:
    await manager.create(guild, table_id, "doudizhu", room, uids[0], f"p{uids[0]}")
    for uid in uids[1:]:
        await manager.join(table_id, uid, f"p{uid}")


def test_the_two_test_servers_sit_on_different_shards() -> None:
    assert shard_of(GUILD_A, SHARDS) == 0 and shard_of(GUILD_B, SHARDS) == 1


async def test_a_person_seated_by_one_process_cannot_sit_in_the_other(
    two: tuple[Process, Process],
) -> None:
    a, b = two
    await a.manager.create(GUILD_A, TABLE_A, "doudizhu", "novice", 1, "ann")
    await b.manager.create(GUILD_B, TABLE_B, "doudizhu", "novice", 2, "bob")
    with pytest.raises(HostError) as exc:
        await b.manager.join(TABLE_B, 1, "ann")
    assert exc.value.text.key == "err.seated_elsewhere"
    assert exc.value.text.args == {"channel": TABLE_A, "guild": GUILD_A}
    # what ann reads links to A's table, which B has never held in memory
    line = error_text(exc.value, "en-US")
    assert f"<#{TABLE_A}>" in line
    assert f"https://discord.com/channels/{GUILD_A}/{TABLE_A}" in line
    zh = error_text(exc.value, "zh-CN")
    assert f"https://discord.com/channels/{GUILD_A}/{TABLE_A}" in zh
    with pytest.raises(HostError) as exc:
        await b.manager.create(GUILD_B, TABLE_B2, "doudizhu", "novice", 1, "ann")
    assert exc.value.text.args["channel"] == TABLE_A
    assert TABLE_B2 not in b.manager.tables
    assert [s.uid for s in b.manager.get(TABLE_B).seats] == [2]
    # once ann stands up at A, B seats her
    await a.manager.leave(TABLE_A, 1)
    assert await seat_store.where(b.db, 1) is None
    await b.manager.join(TABLE_B, 1, "ann")
    assert await seat_store.where(a.db, 1) == seat_store.SeatClaim(1, TABLE_B, GUILD_B)


async def test_joins_of_one_person_at_both_processes_at_once_seat_them_once(
    two: tuple[Process, Process],
) -> None:
    a, b = two
    await a.manager.create(GUILD_A, TABLE_A, "doudizhu", "novice", 1, "ann")
    await b.manager.create(GUILD_B, TABLE_B, "doudizhu", "novice", 2, "bob")
    for uid in range(10, 16):  # each person tries both tables at the same moment
        results = await asyncio.gather(
            a.manager.join(TABLE_A, uid, f"p{uid}"),
            b.manager.join(TABLE_B, uid, f"p{uid}"),
            return_exceptions=True,
        )
        won = [i for i, r in enumerate(results) if not isinstance(r, BaseException)]
        assert len(won) == 1, results
        lost = results[1 - won[0]]
        assert isinstance(lost, HostError) and lost.text.key == "err.seated_elsewhere"
        winner = (TABLE_A, GUILD_A) if won[0] == 0 else (TABLE_B, GUILD_B)
        assert (lost.text.args["channel"], lost.text.args["guild"]) == winner
        claim = await seat_store.where(a.db, uid)
        assert claim is not None and (claim.table_id, claim.guild_id) == winner
        seated = [uid in p.manager.get(t).seated_uids() for p, t in ((a, TABLE_A), (b, TABLE_B))]
        assert sum(seated) == 1
        for process, table_id in ((a, TABLE_A), (b, TABLE_B)):
            table = process.manager.get(table_id)
            if len(table.seats) == 3:
                await process.manager.leave(table_id, table.seats[-1].uid)


async def test_two_new_tables_by_one_person_at_once_open_only_one(
    two: tuple[Process, Process],
) -> None:
    a, b = two
    results = await asyncio.gather(
        a.manager.create(GUILD_A, TABLE_A, "doudizhu", "novice", 5, "eve"),
        b.manager.create(GUILD_B, TABLE_B, "doudizhu", "novice", 5, "eve"),
        return_exceptions=True,
    )
    assert sum(not isinstance(r, BaseException) for r in results) == 1, results
    assert len(a.manager.tables) + len(b.manager.tables) == 1
    held = await seat_store.tables_with_seats(a.db)
    assert held == [(TABLE_A, GUILD_A)] if TABLE_A in a.manager.tables else [(TABLE_B, GUILD_B)]


async def test_an_escaper_and_the_closed_table_free_their_seats_for_the_other_process(
    two: tuple[Process, Process],
) -> None:
    a, b = two
    await seat_three(a.manager, GUILD_A, TABLE_A, (1, 2, 3))
    await b.manager.create(GUILD_B, TABLE_B, "doudizhu", "novice", 9, "ivy")
    table = await a.manager.start(TABLE_A, 1)
    hand_id = table.hand_id
    assert table.status == PLAYING and hand_id is not None
    assert await a.manager.leave(TABLE_A, 3) is True  # 逃跑: the trustee plays the seat out
    await b.manager.join(TABLE_B, 3, "cat")  # while A's hand goes on
    with pytest.raises(HostError):
        await b.manager.join(TABLE_B, 2, "bob")
    await a.manager.close(TABLE_A, T("note.closed_by", moderator="mod"))
    assert (await history.get_hand(a.db, hand_id)).status == "aborted"
    assert await seat_store.where(b.db, 2) is None
    await b.manager.join(TABLE_B, 2, "bob")
    assert b.manager.get(TABLE_B).seated_uids() == {9, 3, 2}


async def test_restarting_one_process_leaves_the_others_hands_and_escrow_alone(
    two: tuple[Process, Process], settings: Settings, clock: Clock,
) -> None:
    a, b = two
    await seat_three(a.manager, GUILD_A, TABLE_A, (1, 2, 3))
    table = await a.manager.start(TABLE_A, 1)
    hand_id = table.hand_id
    assert hand_id is not None and table.status == PLAYING
    held = {u: (await a.manager.wallet_for(GUILD_A).account(u)).held for u in (1, 2, 3)}
    assert all(held.values()), "the hand holds each person's carried beans"
    await seat_three(b.manager, GUILD_B, TABLE_B, (4, 5, 6))
    await b.manager.start(TABLE_B, 4)
    # a crash left seats behind: a table of B's server and one of A's that no longer exist
    await seat_store.sync_table(b.db, 9900, GUILD_B, {40})
    await seat_store.sync_table(b.db, 9901, GUILD_A, {41})

    await stop_process(b)
    again = await start_process(settings, 1, clock)
    try:
        assert set(again.manager.tables) == {TABLE_B}, "B restores its own table, not A's"
        assert again.manager.get(TABLE_B).status == PLAYING
        hand = await history.get_hand(a.db, hand_id)
        assert hand is not None and hand.status == "running", "A's hand goes on"
        for uid in (1, 2, 3):
            assert (await a.manager.wallet_for(GUILD_A).account(uid)).held == held[uid]
            claim = await seat_store.where(a.db, uid)
            assert claim is not None and claim.table_id == TABLE_A
        assert await seat_store.where(a.db, 40) is None, "B's server's stale seat is freed"
        assert (await seat_store.where(a.db, 41)) == seat_store.SeatClaim(41, 9901, GUILD_A), (
            "A's server is A's to clean"
        )
        await play_out(a.manager, TABLE_A)
        hand = await history.get_hand(a.db, hand_id)
        assert hand is not None and hand.status == "settled"
        await play_out(again.manager, TABLE_B)
        assert again.manager.get(TABLE_B).status == WAITING
    finally:
        await stop_process(again)


async def test_settlements_in_both_processes_at_once_conserve_beans(
    two: tuple[Process, Process],
) -> None:
    a, b = two
    layout = {
        (a, GUILD_A): {TABLE_A: (1, 2, 3), TABLE_A2: (4, 5, 6)},
        (b, GUILD_B): {TABLE_B: (7, 8, 9), TABLE_B2: (10, 11, 12)},
    }

    async def total(process: Process, guild: int, uids: list[int]) -> int:
        wallet = process.manager.wallet_for(guild)
        return await wallet.house_balance() + sum(
            [(await wallet.account(u)).balance for u in uids]
        )

    before = {}
    for (process, guild), tables in layout.items():
        for table_id, uids in tables.items():
            await seat_three(process.manager, guild, table_id, uids)
        people = [u for uids in tables.values() for u in uids]
        before[guild] = await total(process, guild, people)
    for _ in range(2):  # two hands at every table, all four tables playing at once
        for (process, _guild), tables in layout.items():
            for table_id, uids in tables.items():
                await process.manager.start(table_id, uids[0])
        await asyncio.gather(*(
            play_out(process.manager, table_id)
            for (process, _guild), tables in layout.items() for table_id in tables
        ))
    moved = False
    for (process, guild), tables in layout.items():
        people = [u for uids in tables.values() for u in uids]
        assert await total(process, guild, people) == before[guild]
        for table_id in tables:
            table = process.manager.get(table_id)
            assert table.status == WAITING and table.hand_no == 2
            moved |= any(s["delta"] != 0 for s in table.last_result["seats"])
        for uid in people:
            assert (await process.manager.wallet_for(guild).account(uid)).held == 0
    assert moved, "beans changed hands"


async def test_a_manager_shut_down_mid_hand_is_resumed_with_its_timers(
    settings: Settings, clock: Clock,
) -> None:
    first = await start_process(settings, 0, clock)
    await seat_three(first.manager, GUILD_A, TABLE_A, (1, 2, 3))
    table = await first.manager.start(TABLE_A, 1)
    for _ in range(3):
        assert table.game is not None
        uid = table.seats[table.game.to_act()[0]].uid
        assert uid is not None
        await first.manager.act(TABLE_A, uid, first.manager.hint(TABLE_A, uid))
    assert table.game is not None
    log, deadline = list(table.game.log), table.deadline
    assert deadline is not None and first.manager.turns.armed(TABLE_A)
    await stop_process(first)  # SIGTERM: every table saved, every timer stopped
    assert not first.manager.turns.armed(TABLE_A)
    assert table.game is not None and table.game.log == log, "no timer fired after shutdown"

    clock.now = deadline + 1  # the new process starts after the turn's time ran out
    second = await start_process(settings, 0, clock)
    try:
        resumed = second.manager.get(TABLE_A)
        assert resumed.status == PLAYING and resumed.game is not None
        assert resumed.game.log[: len(log)] == log
        for _ in range(100):  # the resumed deadline fires at once: the timeout acts
            if len(resumed.game.log) > len(log):
                break
            await asyncio.sleep(0.01)
        assert len(resumed.game.log) > len(log), "the resumed timer played the overdue turn"
        await play_out(second.manager, TABLE_A)
        assert second.manager.get(TABLE_A).status == WAITING
    finally:
        await stop_process(second)


async def test_a_table_aborted_at_restore_frees_its_seats(
    two: tuple[Process, Process], settings: Settings, clock: Clock,
) -> None:
    a, b = two
    await seat_three(b.manager, GUILD_B, TABLE_B, (4, 5, 6))
    await b.manager.start(TABLE_B, 4)
    await stop_process(b)
    state = json.loads(next(s for t, _g, _c, s in await table_store.load_tables(a.db)
                            if t == TABLE_B))
    state["record"]["log"].append([0, "not a move"])  # a save that no longer replays
    await table_store.save_table(a.db, TABLE_B, GUILD_B, TABLE_B, json.dumps(state))
    again = await start_process(settings, 1, clock)
    try:
        assert TABLE_B not in again.manager.tables
        for uid in (4, 5, 6):
            assert await seat_store.where(a.db, uid) is None
        await a.manager.create(GUILD_A, TABLE_A, "doudizhu", "novice", 4, "dan")
    finally:
        await stop_process(again)


async def test_a_waiting_table_saved_with_someone_now_seated_elsewhere_lets_them_go(
    two: tuple[Process, Process], settings: Settings, clock: Clock,
) -> None:
    a, b = two
    await a.manager.create(GUILD_A, TABLE_A, "doudizhu", "novice", 1, "ann")
    await a.manager.join(TABLE_A, 2, "bob")
    await stop_process(a)
    # the seat rows of A's table are lost (a database from before seats were kept there), and
    # meanwhile bob sat down in the other process
    await seat_store.release_table(b.db, TABLE_A)
    await b.manager.create(GUILD_B, TABLE_B, "doudizhu", "novice", 2, "bob")
    again = await start_process(settings, 0, clock)
    try:
        table = again.manager.get(TABLE_A)
        assert [s.uid for s in table.seats] == [1], "bob stays where the database seats him"
        assert await seat_store.where(b.db, 1) == seat_store.SeatClaim(1, TABLE_A, GUILD_A)
        assert await seat_store.where(b.db, 2) == seat_store.SeatClaim(2, TABLE_B, GUILD_B)
        assert again.manager.table_of(2) is None
    finally:
        await stop_process(again)
