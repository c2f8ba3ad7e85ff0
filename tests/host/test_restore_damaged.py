"""A damaged saved table at start-up (issue 23, "faults at start-up"): a crash or a disk fault
flipped a bit in one saved row. That table is aborted (escrow released, seats freed, logged),
the healthy tables are all restored and playable, no other row is touched, and ``restore``
never raises. The damage is written straight into the database, as a disk fault would.

Every test here runs on SQLite and on PostgreSQL (damage PostgreSQL cannot even store, invalid
UTF-8, is SQLite only)."""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from bot.host.model import PLAYING, WAITING, Table
from bot.host.tables import TableManager
from bot.settings import Settings, load_settings
from bot.terminal import TerminalNotifier
from engines import registry
from storage import history
from storage import seats as seat_store
from storage import tables as table_store
from storage.db import Database
from storage.wallet import Wallet

GUILD = 77
DAMAGED, RUNNING, NEIGHBOUR, WAITING_ID = 101, 102, 103, 104
DAMAGED_UIDS = (1, 2, 3)
RUNNING_UIDS = (4, 5, 6)
NEIGHBOUR_UIDS = (7, 8, 9)
WAITING_UIDS = (10, 11)
EVERYONE = DAMAGED_UIDS + RUNNING_UIDS + NEIGHBOUR_UIDS + WAITING_UIDS


@pytest.fixture
def settings(db_target: Path | str) -> Settings:
    """The hall on this test's database: a SQLite file or a PostgreSQL database."""
    return load_settings(environ={"GAMEHALL_DB": str(db_target)},
                         known_games=registry.specs().keys())


def restarted(manager: TableManager, settings: Settings) -> TableManager:
    """A new process: a new manager over the same database."""
    notifier = TerminalNotifier(uid=1, locale="en-US", out=lambda _line: None)
    again = TableManager(settings, manager.db, Wallet.from_settings(manager.db, settings),
                         notifier, clock=manager.clock)
    notifier.manager = again
    return again


async def seat(manager: TableManager, table_id: int, uids: tuple[int, ...]) -> None:
    await manager.create(GUILD, table_id, "doudizhu", "novice", uids[0], f"p{uids[0]}")
    for uid in uids[1:]:
        await manager.join(table_id, uid, f"p{uid}")


async def held(manager: TableManager, uids: tuple[int, ...]) -> list[int]:
    return [(await manager.wallet_for(GUILD).account(u)).held for u in uids]


async def rows(db: Database) -> dict[int, tuple[int, int, Any]]:
    return {t: (g, c, s) for t, g, c, s in await table_store.load_tables(db)}


async def play_until_over(manager: TableManager, table_id: int) -> None:
    for _ in range(500):
        table = manager.tables.get(table_id)
        if table is None or table.status != PLAYING or table.game is None:
            return
        seat_no = table.game.to_act()[0]
        uid = table.seats[seat_no].uid
        assert uid is not None
        await manager.act(table_id, uid, manager.hint(table_id, uid))
    raise AssertionError("hand did not end")


Damage = Callable[[dict[str, Any]], None]


def set_seat_uid(state: dict[str, Any]) -> None:
    state["seats"][1]["uid"] = 2**63 + 2  # bit 63 set: past every 64-bit id


def set_id(value: int) -> Damage:
    def damage(state: dict[str, Any]) -> None:
        state["id"] = value
    return damage


def set_field(name: str, value: Any) -> Damage:
    def damage(state: dict[str, Any]) -> None:
        state[name] = value
    return damage


def doubled_seats(state: dict[str, Any]) -> None:
    state["seats"][1] = dict(state["seats"][0])


def waiting_with_hand(state: dict[str, Any]) -> None:
    state["status"] = WAITING  # the hand id (and record) stay


def string_stakes(state: dict[str, Any]) -> None:
    setup = state["record"]["setup"]
    setup["stakes"] = [str(s) for s in setup["stakes"]]


def setup_field(name: str, value: Any) -> Damage:
    def damage(state: dict[str, Any]) -> None:
        state["record"]["setup"][name] = value
    return damage


def log_seat_as_text(state: dict[str, Any]) -> None:
    state["record"]["log"].append(["0", "pass"])


def dm_of_no_seat(state: dict[str, Any]) -> None:
    state["dms"]["x"] = 123


def hold_of_a_stranger(state: dict[str, Any]) -> None:
    state["holds"]["x"] = 10


DAMAGES: dict[str, Damage] = {
    "seat uid past 2^63": set_seat_uid,
    "table id 10^30": set_id(10**30),
    "hand id 10^30": set_field("hand_id", 10**30),
    "own id flipped to the neighbour's": set_id(NEIGHBOUR),
    "message id 10^30": set_field("message_id", 10**30),
    "owner past 2^63": set_field("owner", 2**64),
    "server id not the row's": set_field("guild_id", GUILD + 1),
    "doubled seats": doubled_seats,
    "waiting table with a hand id": waiting_with_hand,
    "string stakes in Setup": string_stakes,
    "seed as text in Setup": setup_field("seed", "1000"),
    "seat count as a float in Setup": setup_field("seats", 3.0),
    "a seat of the log as text": log_seat_as_text,
    "a DM keyed by no seat number": dm_of_no_seat,
    "beans held for no player": hold_of_a_stranger,
    "deadline 10^400": lambda s: s.__setitem__("deadline", 1e308 * 10),
}


async def hall_with_one_damaged_row(manager: TableManager) -> dict[str, Any]:
    """Four tables (three running hands, one waiting), saved at shutdown; returns what each
    looked like."""
    for table_id, uids in ((DAMAGED, DAMAGED_UIDS), (RUNNING, RUNNING_UIDS),
                           (NEIGHBOUR, NEIGHBOUR_UIDS), (WAITING_ID, WAITING_UIDS)):
        await seat(manager, table_id, uids)
    hands = {}
    for table_id, uids in ((DAMAGED, DAMAGED_UIDS), (RUNNING, RUNNING_UIDS),
                           (NEIGHBOUR, NEIGHBOUR_UIDS)):
        table = await manager.start(table_id, uids[0])
        hands[table_id] = table.hand_id
    await manager.act(RUNNING, *first_move(manager, RUNNING))  # one action appended
    before = {
        "hands": hands,
        "logs": {t: list(manager.get(t).game.log) for t in (RUNNING, NEIGHBOUR)},
        "held": await held(manager, RUNNING_UIDS + NEIGHBOUR_UIDS),
    }
    assert min(await held(manager, DAMAGED_UIDS)) > 0
    await manager.shutdown()
    before["rows"] = await rows(manager.db)
    return before


def first_move(manager: TableManager, table_id: int) -> tuple[int, str]:
    """Who acts first at ``table_id`` and the hint's action."""
    table = manager.get(table_id)
    assert table.game is not None
    uid = table.seats[table.game.to_act()[0]].uid
    assert uid is not None
    return uid, manager.hint(table_id, uid)


async def write_raw(db: Database, table_id: int, state: str | bytes) -> None:
    """The row's text replaced in place, as a disk fault leaves it (no host code involved)."""
    if isinstance(state, bytes):  # invalid UTF-8: SQLite keeps the bytes as they are
        await db.execute("UPDATE tables SET state = CAST(? AS TEXT) WHERE id = ?",
                         (state, table_id))
    else:
        await db.execute("UPDATE tables SET state = ? WHERE id = ?", (state, table_id))


async def assert_only_the_damaged_table_closed(
    manager: TableManager,
    settings: Settings,
    before: dict[str, Any],
    caplog: pytest.LogCaptureFixture,
) -> TableManager:
    again = restarted(manager, settings)
    with caplog.at_level(logging.WARNING):
        restored = await again.restore()  # does not raise
    reasons = {t.id: reason for t, reason in restored}
    assert set(reasons) == {DAMAGED, RUNNING, NEIGHBOUR, WAITING_ID}
    assert reasons[DAMAGED] is not None and reasons[DAMAGED].key == "note.cannot_resume"
    for table, reason in restored:
        if reason is not None:
            # what the bot announces goes to the damaged row's own channel and server
            assert (table.id, table.guild_id) == (DAMAGED, GUILD)
    assert any(str(DAMAGED) in r.getMessage() for r in caplog.records), "the abort is logged"
    # the damaged table is aborted: its hand, its escrow, its seats and its row
    assert DAMAGED not in again.tables
    hand = await history.get_hand(again.db, before["hands"][DAMAGED])
    assert hand is not None and hand.status == "aborted"
    assert await held(again, DAMAGED_UIDS) == [0, 0, 0]
    balances = [(await again.wallet_for(GUILD).account(u)).balance for u in DAMAGED_UIDS]
    assert balances == [settings.starting_grant] * 3, "the beans are back"
    for uid in DAMAGED_UIDS:
        assert await seat_store.where(again.db, uid) is None
    now = await rows(again.db)
    assert DAMAGED not in now
    # nothing else is touched: the other rows, hands and escrows are as they were
    for table_id in (RUNNING, NEIGHBOUR, WAITING_ID):
        assert now[table_id] == before["rows"][table_id], f"row {table_id} untouched"
    for table_id in (RUNNING, NEIGHBOUR):
        assert reasons[table_id] is None
        assert again.get(table_id).game.log == before["logs"][table_id]
        hand = await history.get_hand(again.db, before["hands"][table_id])
        assert hand is not None and hand.status == "running"
    assert await held(again, RUNNING_UIDS + NEIGHBOUR_UIDS) == before["held"]
    assert reasons[WAITING_ID] is None and again.get(WAITING_ID).status == WAITING
    totals = await again.wallet_for(GUILD).totals()
    assert totals.ledger == totals.players + totals.house, "the ledger balances"
    assert totals.held == totals.open_holds
    return again


async def assert_the_healthy_tables_play_on(again: TableManager) -> None:
    for table_id in (RUNNING, NEIGHBOUR):
        await play_until_over(again, table_id)
        assert again.get(table_id).status == WAITING
        assert again.get(table_id).last_result is not None, "settled"
    await again.join(WAITING_ID, 1, "p1")  # a freed seat can sit down again
    assert again.get(WAITING_ID).status == WAITING
    assert await held(again, EVERYONE) == [0] * len(EVERYONE)
    totals = await again.wallet_for(GUILD).totals()
    assert totals.ledger == totals.players + totals.house


@pytest.mark.parametrize("damage", list(DAMAGES))
async def test_a_damaged_row_aborts_its_table_and_the_hall_starts(
    manager: TableManager,
    settings: Settings,
    caplog: pytest.LogCaptureFixture,
    damage: str,
) -> None:
    before = await hall_with_one_damaged_row(manager)
    state = json.loads(before["rows"][DAMAGED][2])
    DAMAGES[damage](state)
    await write_raw(manager.db, DAMAGED, json.dumps(state))
    again = await assert_only_the_damaged_table_closed(manager, settings, before, caplog)
    await assert_the_healthy_tables_play_on(again)
    await again.shutdown()


async def test_invalid_utf8_in_a_row_aborts_that_table_only(
    manager: TableManager,
    settings: Settings,
    caplog: pytest.LogCaptureFixture,
    backend: str,
) -> None:
    if backend != "sqlite":
        pytest.skip("PostgreSQL refuses invalid UTF-8 in a text column: it cannot be stored")
    before = await hall_with_one_damaged_row(manager)
    raw = before["rows"][DAMAGED][2].encode()
    assert b'"name":"p1"' in raw
    await write_raw(manager.db, DAMAGED, raw.replace(b'"name":"p1"', b'"name":"p\xb1"'))
    again = await assert_only_the_damaged_table_closed(manager, settings, before, caplog)
    await assert_the_healthy_tables_play_on(again)
    await again.shutdown()


async def test_invalid_utf8_in_an_appended_action_aborts_that_table_only(
    manager: TableManager,
    settings: Settings,
    caplog: pytest.LogCaptureFixture,
    backend: str,
) -> None:
    if backend != "sqlite":
        pytest.skip("PostgreSQL refuses invalid UTF-8 in a text column: it cannot be stored")
    before = await hall_with_one_damaged_row(manager)
    hand_id = before["hands"][DAMAGED]
    state = json.loads(before["rows"][DAMAGED][2])
    seq = len(state["record"]["log"])
    await manager.db.execute(
        'INSERT INTO table_actions (table_id, seq, hand_id, seat, action, deadline, "window") '
        "VALUES (?, ?, ?, ?, CAST(? AS TEXT), NULL, NULL)",
        (DAMAGED, seq, hand_id, 0, b"\xff\xfe"),
    )
    again = await assert_only_the_damaged_table_closed(manager, settings, before, caplog)
    await assert_the_healthy_tables_play_on(again)
    await again.shutdown()


def test_a_table_saved_and_loaded_again_is_the_same() -> None:
    """Validation refuses damage, not what the host itself writes."""
    table = Table(id=2**63 - 1, guild_id=2**63 - 1, game_key="doudizhu", room="novice",
                  owner=2**63 - 1)
    assert Table.from_json(table.to_json()) == table
