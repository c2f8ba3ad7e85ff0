"""开桌 in a batch: many tables opened at once with the checks of sitting down one by one, over a
real SQLite file; the tables survive a restart and deal like any other."""

from __future__ import annotations

from typing import Any

import pytest

from bot.host.model import PLAYING, HostError
from bot.host.opening import TablePlan
from bot.host.tables import TableManager
from bot.terminal import TerminalNotifier
from storage import seats as seat_store
from storage import tables as table_store

GUILD = 77


def counting(manager: TableManager) -> list[str]:
    """The database calls the manager makes from now on (their storage functions' names)."""
    calls: list[str] = []
    submit = manager.db._submit

    def counted(write: bool, fn: Any, args: tuple[Any, ...]) -> Any:
        calls.append(fn.__qualname__)
        return submit(write, fn, args)

    manager.db._submit = counted  # type: ignore[method-assign]
    return calls


async def test_a_batch_opens_every_table_seated_filled_and_on_the_trustee(
    manager: TableManager,
) -> None:
    plans = [TablePlan(100 + n, ((3 * n + 1, f"p{3 * n + 1}"), (3 * n + 2, f"p{3 * n + 2}")),
                       seats=3, trustee=frozenset({3 * n + 2})) for n in range(20)]
    calls = counting(manager)
    opened = await manager.open_tables(GUILD, "doudizhu", "novice", plans)
    # every wallet, seat claim and leaver record read at once (one group commit), then one
    # transaction for every table
    assert sorted(calls[:3]) == ["Conduct.records.<locals>.read", "Wallet.accounts.<locals>.tx",
                                 "where_many.<locals>.read"]
    assert calls[3:] == ["open_tables.<locals>.tx"]
    for n, result in enumerate(opened):
        table = result.table
        assert table is not None and not result.refused
        assert table.owner == 3 * n + 1 and manager.table_of(3 * n + 2) is table
        assert [(s.uid, s.trustee, s.is_bot) for s in table.seats] == [
            (3 * n + 1, False, False), (3 * n + 2, True, False), (None, False, True)]
    claims = await seat_store.where_many(manager.db, range(1, 61))
    assert {u: c.table_id for u, c in claims.items()} == {
        u: 100 + (u - 1) // 3 for u in range(1, 61) if u % 3}
    assert [t for t, *_ in await table_store.load_tables(manager.db)] == list(range(100, 120))
    # each deals like any table
    await manager.start(105, 16)
    assert manager.get(105).status == PLAYING


async def test_who_cannot_sit_is_left_out_as_when_sitting_down_alone(
    manager: TableManager,
) -> None:
    await manager.create(GUILD, 900, "doudizhu", "novice", 1, "ann")
    await manager.wallet_for(GUILD).ensure_player(2)
    await manager.wallet_for(GUILD).set_frozen(2, True, 99)
    plans = [TablePlan(100, ((1, "ann"), (3, "cat")), seats=3),  # ann sits at table 900
             TablePlan(101, ((2, "bob"),), seats=3),  # bob is frozen: nobody can sit
             TablePlan(102, ((3, "cat"), (4, "dan")), seats=3)]  # cat sits at table 100 now
    opened = await manager.open_tables(GUILD, "doudizhu", "novice", plans)
    assert opened[0].table is not None and opened[0].table.owner == 3
    assert [s.uid for s in opened[0].table.seats] == [3, None, None]
    assert {u: e.text.key for u, e in opened[0].refused.items()} == {1: "err.seated_elsewhere"}
    assert opened[0].refused[1].text.args["channel"] == 900
    assert opened[1].table is None and opened[1].refused[2].text.key == "err.frozen"
    assert [s.uid for s in opened[2].table.seats] == [4, None, None]
    assert opened[2].refused[3].text.args["channel"] == 100
    assert sorted(manager.tables) == [100, 102, 900]
    assert (await seat_store.where(manager.db, 3)).table_id == 100


@pytest.mark.parametrize(("game", "room", "channels", "key"), [
    ("chess", "novice", [100], "err.unknown_game"),
    ("doudizhu", "moon", [100], "err.unknown_room"),
    ("doudizhu", "novice", [100, 100], "err.table_exists"),
    ("doudizhu", "novice", [100, 900], "err.table_exists"),
])
async def test_bad_input_opens_nothing(manager: TableManager, game: str, room: str,
                                       channels: list[int], key: str) -> None:
    await manager.create(GUILD, 900, "doudizhu", "novice", 9, "ivy")
    plans = [TablePlan(c, ((n + 1, "x"),), seats=3) for n, c in enumerate(channels)]
    with pytest.raises(HostError) as refused:
        await manager.open_tables(GUILD, game, room, plans)
    assert refused.value.text.key == key
    assert sorted(manager.tables) == [900]
    assert await seat_store.where_many(manager.db, [1, 2]) == {}


async def test_tables_opened_in_a_batch_survive_a_restart(
    manager: TableManager, settings: Any, db: Any, printed: list[str],
) -> None:
    plans = [TablePlan(100 + n, ((n + 1, f"p{n + 1}"),), seats=3, trustee=frozenset({n + 1}))
             for n in range(3)]
    await manager.open_tables(GUILD, "doudizhu", "novice", plans)
    await manager.shutdown()
    notifier = TerminalNotifier(uid=1, locale="en-US", out=printed.append)
    again = TableManager(settings, db, manager.wallet, notifier, clock=manager.clock)
    notifier.manager = again
    restored = await again.restore()
    assert sorted((t.id, reason) for t, reason in restored) == [(100, None), (101, None),
                                                                (102, None)]
    table = again.get(101)
    assert [(s.uid, s.trustee) for s in table.seats] == [(2, True), (None, False), (None, False)]
    await again.start(101, 2)  # the trustee plays the whole hand
    assert 101 not in again.tables  # nobody played it themselves: they stood up, it closed
    await again.shutdown()


@pytest.mark.parametrize(("room", "expected"), [
    # the stakes and the ratings of every seat, one read each; the hand; nothing to hold
    ("free", ["Wallet.accounts.<locals>.tx", "scores_in.<locals>.read",
              "HandDesk.new_hand.<locals>.tx"]),
    ("novice", ["Wallet.accounts.<locals>.tx", "scores_in.<locals>.read",
                "HandDesk.new_hand.<locals>.tx", "HandDesk.hold.<locals>.tx"]),
])
async def test_a_deal_reads_its_seats_at_once(manager: TableManager, room: str,
                                              expected: list[str]) -> None:
    await manager.open_tables(GUILD, "doudizhu", room,
                              [TablePlan(100, ((1, "ann"), (2, "bob"), (3, "cat")))])
    calls = counting(manager)
    await manager.start(100, 1)
    dealt = calls[: len(expected)]  # then the table's own reads and its save
    assert sorted(dealt[:2]) == expected[:2] and dealt[2:] == expected[2:], calls
