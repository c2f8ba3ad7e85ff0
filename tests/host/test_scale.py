"""What keeps the host fast at hall scale: actions appended rather than tables rewritten,
one scheduler for every deadline, seating by index, and nothing left behind by closed tables."""

from __future__ import annotations

import asyncio
import copy
import sqlite3
from dataclasses import replace

from bot.host.model import PLAYING, Table
from bot.host.tables import TableManager
from engines.base import T
from storage import tables as table_store
from tests.host.waiting import until

GUILD = 77


def rows(manager: TableManager, sql: str) -> list[tuple]:
    conn = sqlite3.connect(manager.db.path)
    try:
        return conn.execute(sql).fetchall()
    finally:
        conn.close()


async def test_an_action_appends_one_row_and_leaves_the_table_snapshot_alone(
    manager: TableManager,
) -> None:
    await manager.create(GUILD, 1, "doudizhu", "novice", 1, "ann")
    await manager.join(1, 2, "bob")
    await manager.join(1, 3, "cat")
    table = await manager.start(1, 1)
    assert table.game is not None
    for _ in range(3):  # everyone has acted once: the seats' 'acted' marks are in the snapshot
        uid = table.seats[table.game.to_act()[0]].uid
        await manager.act(1, uid, manager.hint(1, uid))
    snapshot = rows(manager, "SELECT state FROM tables")
    logged = len(table.game.log)
    for _ in range(4):
        uid = table.seats[table.game.to_act()[0]].uid
        await manager.act(1, uid, manager.hint(1, uid))
    assert rows(manager, "SELECT state FROM tables") == snapshot, "no rewrite per action"
    appended = rows(manager, "SELECT seq, seat, action FROM table_actions ORDER BY seq")
    assert [tuple(a) for a in table.game.log[logged:]] == [(s, a) for _, s, a in appended][-4:]
    assert appended[-1][0] == len(table.game.log) - 1


def test_saving_a_table_never_copies_the_live_game() -> None:
    """The bug: Table.to_json deep-copied the game, its Random and the play memo."""
    from engines import registry
    from engines.base import Setup

    game = registry.specs()["doudizhu"].new(Setup(seats=3, seed=5))

    class Uncopyable:
        def __deepcopy__(self, memo: dict) -> object:
            raise AssertionError("the live game was copied")

    game.cache = Uncopyable()  # stands for any live state a game keeps (a memo, a Random)
    table = Table(
        id=1,
        guild_id=1,
        game_key="doudizhu",
        room="novice",
        owner=1,
        status=PLAYING,
        hand_id=9,
        game=game,
    )
    saved = Table.from_json(table.to_json())
    assert saved.record == game.to_record() and copy.deepcopy(saved) == saved


async def test_snapshots_bound_the_replay_and_restore_reads_appended_actions(
    manager: TableManager,
    settings,
    printed,
    monkeypatch,
) -> None:
    from bot.host import saver as host_saver
    from bot.terminal import TerminalNotifier

    monkeypatch.setattr(host_saver, "SNAPSHOT_EVERY", 4)
    await manager.create(GUILD, 1, "doudizhu", "free", 1, "ann")
    await manager.add_bot(1, 1)
    await manager.add_bot(1, 1)
    table = await manager.start(1, 1)
    counts = []
    for _ in range(12):
        if table.status != PLAYING:
            break
        await manager.act(1, 1, manager.hint(1, 1))
        counts.append(rows(manager, "SELECT count(*) FROM table_actions")[0][0])
    assert max(counts) > 0 and max(counts) <= 4 * 3, "a snapshot after every few appends"
    if table.status != PLAYING:
        table = await manager.start(1, 1)
        await manager.act(1, 1, manager.hint(1, 1))
    log = list(table.game.log)
    await manager.shutdown()
    notifier = TerminalNotifier(uid=1, locale="en-US", out=printed.append)
    again = TableManager(settings, manager.db, manager.wallet, notifier, clock=manager.clock)
    notifier.manager = again
    await again.restore()
    assert again.get(1).game.log == log
    await again.shutdown()


async def test_five_thousand_tables_opened_and_closed_leave_no_locks_or_index(
    manager: TableManager,
) -> None:
    async def cycle(channel: int) -> None:
        uid = 10_000 + channel % 50
        await manager.create(GUILD, channel, "doudizhu", "free", uid, "p")
        await manager.add_bot(channel, uid)
        await manager.leave(channel, uid)

    for start in range(0, 5000, 50):
        await asyncio.gather(*(cycle(c) for c in range(start, start + 50)))
    assert manager.tables == {}
    assert manager.lock_count == 0, "a closed table's lock goes with it"
    # a late redraw of a closed table (the platform saving its message id) brings none back
    closed = Table(id=7, guild_id=GUILD, game_key="doudizhu", room="free", owner=1)
    await manager.save_message_id(closed, 123)
    await manager.save_dm(closed, 0, 456)
    assert manager.lock_count == 0
    assert all(manager.table_of(10_000 + i) is None for i in range(50))
    assert await table_store.load_tables(manager.db) == []


async def test_seating_follows_every_way_a_seat_is_taken_or_given_up(
    manager: TableManager,
) -> None:
    await manager.create(GUILD, 1, "doudizhu", "free", 1, "ann")
    await manager.join(1, 2, "bob")
    await manager.join(1, 3, "cat")
    assert {u: manager.table_of(u).id for u in (1, 2, 3)} == {1: 1, 2: 1, 3: 1}
    await manager.leave(1, 3)
    assert manager.table_of(3) is None
    await manager.join(1, 3, "cat")
    await manager.start(1, 1)
    await manager.leave(1, 2)  # an escape frees the person at once
    await manager.kick(1, 3)
    assert manager.table_of(2) is None and manager.table_of(3) is None
    await manager.create(GUILD, 2, "doudizhu", "free", 2, "bob")
    assert manager.table_of(2).id == 2
    await manager.close(1, T("note.closed_by", moderator="mod"))
    assert manager.table_of(1) is None and manager.table_of(2).id == 2


async def test_many_tables_timing_out_together_all_time_out_once(
    manager: TableManager,
) -> None:
    """Every deadline runs from one scheduler; none is lost or run twice when they bunch up."""
    # 3 s, not 1: on a loaded machine handling 120 timeouts can take over a second, and a
    # table's next window must not come due before the test has seen them all
    manager.settings = replace(manager.settings, timers={"default": 3})
    tables = 120
    for i in range(tables):
        await manager.create(GUILD, 100 + i, "doudizhu", "free", 1000 + i, "p")
        await manager.add_bot(100 + i, 1000 + i)
        await manager.add_bot(100 + i, 1000 + i)
    started = await asyncio.gather(*(manager.start(100 + i, 1000 + i) for i in range(tables)))
    waiting = [t for t in started if t.status == PLAYING]
    logs = {t.id: len(t.game.log) for t in waiting}
    # each table times out once at 3 s; the next window's timer is 3 s after that one
    await until(lambda: all(t.seats[0].misses >= 1 and manager.turns.armed(t.id) for t in waiting))
    for table in waiting:
        seat = table.seats[0]
        assert seat.misses == 1, "one timeout per table, however many expire at once"
        assert len(table.game.log) > logs[table.id]
    assert len(manager.turns) == len(waiting), "each table armed once for its next window"


async def test_a_missed_turn_is_appended_with_the_seat_flags_and_survives_a_restart(
    manager: TableManager, settings, printed,
) -> None:
    """A timeout changes only the log and the seat's flags (a miss, covered): one appended row
    carries them, the snapshot stays, and a restart restores them, so a second miss after it
    still hands the seat to the trustee."""
    from bot.terminal import TerminalNotifier

    assert settings.trustee_after_misses == 2
    await manager.create(GUILD, 1, "doudizhu", "free", 1, "ann")
    await manager.add_bot(1, 1)
    await manager.add_bot(1, 1)
    table = await manager.start(1, 1)
    assert table.game is not None and list(table.game.to_act()) == [0], "ann's turn"
    snapshot = rows(manager, "SELECT state FROM tables")
    await manager._expire(1, table.window)  # ann's time runs out
    ann = table.seats[0]
    assert (ann.misses, ann.covered, ann.trustee) == (1, True, False)
    assert rows(manager, "SELECT state FROM tables") == snapshot, "no snapshot for a miss"
    flags = rows(manager, "SELECT flags FROM table_actions WHERE flags IS NOT NULL")
    assert flags[-1] == (table.seat_flags(),)
    await manager.shutdown()

    notifier = TerminalNotifier(uid=1, locale="en-US", out=printed.append)
    again = TableManager(settings, manager.db, manager.wallet, notifier, clock=manager.clock)
    notifier.manager = again
    await again.restore()
    table = again.get(1)
    ann = table.seats[0]
    assert (ann.misses, ann.covered, ann.trustee) == (1, True, False)
    assert table.game is not None and 0 in table.game.to_act(), "ann's turn again"
    await again._expire(1, table.window)  # ann misses again: the trustee takes over
    assert ann.trustee
    await again.shutdown()


def test_seat_flags_that_do_not_fit_the_table_are_refused_and_change_nothing() -> None:
    from bot.host.model import Seat

    table = Table(1, GUILD, "doudizhu", "free", 1, [Seat(1, "ann"), Seat(2, "bob")])
    for bad in ("0100", "0100,01x0", "0100,2100", "", None, "0100,010"):
        try:
            table.set_seat_flags(bad)
        except ValueError as exc:
            assert "seat flags" in str(exc)
        else:
            raise AssertionError(f"{bad!r} was accepted")
        assert table.seat_flags() == "0000,0000"
    table.set_seat_flags("11200,0011")
    assert [(s.trustee, s.misses, s.acted, s.covered) for s in table.seats] == [
        (True, 12, False, False), (False, 0, True, True)]
