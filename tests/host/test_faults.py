"""Faults the host must survive with nobody's beans stuck: failed deals, frozen players, rooms
removed from the config, a crash between settlement and the table save, corrupt saves, and
people who are not there."""

from __future__ import annotations

import asyncio
import json
import logging
from dataclasses import replace

import pytest

from bot.host.model import PLAYING, WAITING, HostError, Table
from bot.host.tables import TableManager
from bot.settings import Settings
from bot.terminal import TerminalNotifier
from engines.base import Text
from storage import history
from storage import tables as table_store
from storage.db import Database
from storage.wallet import Wallet

CH, CH2 = 555, 556
GUILD = 77


async def three_people(
    manager: TableManager,
    table_id: int = CH,
    room: str = "novice",
    uids: tuple[int, int, int] = (1, 2, 3),
) -> None:
    await manager.create(GUILD, table_id, "doudizhu", room, uids[0], f"p{uids[0]}")
    for uid in uids[1:]:
        await manager.join(table_id, uid, f"p{uid}")


async def held(manager: TableManager, uids: tuple[int, ...] = (1, 2, 3)) -> list[int]:
    return [(await manager.wallet_for(GUILD).account(u)).held for u in uids]


def restarted(manager: TableManager, settings: Settings, printed: list[str]) -> TableManager:
    """A new process: a new manager over the same database file."""
    notifier = TerminalNotifier(uid=1, locale="en-US", out=printed.append)
    again = TableManager(
        settings,
        manager.db,
        Wallet.from_settings(manager.db, settings),
        notifier,
        clock=manager.clock,
    )
    notifier.manager = again
    return again


async def play_until_over(manager: TableManager, table_id: int = CH) -> None:
    """Everyone takes the hint until the hand is over (settled or not)."""
    for _ in range(500):
        table = manager.tables.get(table_id)
        if table is None or table.status != PLAYING or table.game is None:
            return
        seat = table.game.to_act()[0]
        uid = table.seats[seat].uid
        assert uid is not None
        await manager.act(table_id, uid, manager.hint(table_id, uid))
    raise AssertionError("hand did not end")


class FailingStart(TerminalNotifier):
    """The platform fails while showing a new hand (e.g. the channel became unpostable)."""

    async def hand_started(self, table: Table) -> None:
        raise RuntimeError("the channel is gone")


async def test_a_deal_that_fails_holds_nothing_however_often_start_is_clicked(
    settings: Settings,
    db: Database,
) -> None:
    notifier = FailingStart(uid=1, locale="en-US", out=lambda _: None)
    manager = TableManager(
        settings, db, Wallet.from_settings(db, settings), notifier, clock=lambda: 1.0
    )
    notifier.manager = manager
    await three_people(manager)
    for _ in range(3):
        results = await asyncio.gather(
            *(manager.start(CH, u) for u in (1, 2, 3)), return_exceptions=True
        )
        assert all(isinstance(r, Exception) for r in results)
        assert await held(manager) == [0, 0, 0], "escrow and the deal are one step"
    table = manager.get(CH)
    assert table.status == WAITING and table.game is None and table.hand_id is None
    assert await history.running_hands(db) == []
    await manager.shutdown()


async def test_a_frozen_player_at_the_table_is_a_clear_refusal(manager: TableManager) -> None:
    await three_people(manager)
    await manager.wallet_for(GUILD).set_frozen(2, True, moderator_id=9)
    with pytest.raises(HostError) as refused:
        await manager.start(CH, 1)
    assert refused.value.text == Text("err.player_frozen", {"name": "p2"})
    assert await held(manager) == [0, 0, 0]
    assert await history.running_hands(manager.db) == []
    assert manager.get(CH).status == WAITING


@pytest.mark.parametrize("change", ["room removed", "game taken out of the room"])
async def test_a_table_whose_room_left_the_config_is_aborted_at_restore(
    manager: TableManager,
    settings: Settings,
    printed: list[str],
    change: str,
) -> None:
    await three_people(manager)
    await three_people(manager, CH2, "free", (4, 5, 6))
    table = await manager.start(CH, 1)
    hand_id = table.hand_id
    assert max(await held(manager)) > 0
    await manager.shutdown()
    novice = settings.rooms["novice"]
    if change == "room removed":
        rooms = {k: v for k, v in settings.rooms.items() if k != "novice"}
    else:
        rooms = {**settings.rooms, "novice": replace(novice, games=("gomoku",))}
    again = restarted(manager, replace(settings, rooms=rooms), printed)
    restored = {t.id: reason for t, reason in await again.restore()}
    assert restored[CH] == Text("note.room_gone", {"room": "novice", "game": "doudizhu"})
    assert restored[CH2] is None and CH2 in again.tables, "the rest of the hall starts"
    assert CH not in again.tables
    assert await held(again) == [0, 0, 0]
    hand = await history.get_hand(again.db, hand_id)
    assert hand is not None and hand.status == "aborted"
    assert [t for t, *_ in await table_store.load_tables(again.db)] == [CH2]
    await again.shutdown()


class Crash(Exception):
    """The process dies here."""


async def test_a_crash_between_settlement_and_the_table_save_does_not_replay_the_hand(
    manager: TableManager,
    settings: Settings,
    printed: list[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    await three_people(manager)
    table = await manager.start(CH, 1)
    hand_id = table.hand_id
    settle = Wallet.settle

    async def settle_then_crash(self: Wallet, *args: object, **kwargs: object) -> object:
        await settle(self, *args, **kwargs)
        raise Crash

    monkeypatch.setattr(Wallet, "settle", settle_then_crash)
    with pytest.raises(Crash):
        await play_until_over(manager)
    monkeypatch.setattr(Wallet, "settle", settle)
    await manager.shutdown()
    balances = [(await manager.wallet_for(GUILD).account(u)).balance for u in (1, 2, 3)]

    again = restarted(manager, settings, printed)
    assert [(t.id, reason) for t, reason in await again.restore()] == [(CH, None)]
    resumed = again.get(CH)
    assert resumed.status == WAITING and resumed.game is None, "the hand is not played again"
    assert resumed.last_result is not None and resumed.last_result["hand_id"] == hand_id
    assert [(await again.wallet_for(GUILD).account(u)).balance for u in (1, 2, 3)] == balances
    assert await held(again) == [0, 0, 0]
    await again.close(CH, Text("note.closed_by", {"moderator": "mod"}))  # closes cleanly
    hand = await history.get_hand(again.db, hand_id)
    assert hand is not None and hand.status == "settled"
    await again.shutdown()


@pytest.mark.parametrize(
    "field,value",
    [
        ("deadline", "x"),
        ("seats", [{"uid": "1"}]),
        ("status", "dancing"),
        ("holds", []),
    ],
)
async def test_a_corrupt_save_aborts_that_table_only(
    manager: TableManager,
    settings: Settings,
    printed: list[str],
    caplog: pytest.LogCaptureFixture,
    field: str,
    value: object,
) -> None:
    await three_people(manager)
    await three_people(manager, CH2, "novice", (4, 5, 6))
    bad = await manager.start(CH, 1)
    good = await manager.start(CH2, 4)
    hand_id, good_log = bad.hand_id, list(good.game.log)
    await manager.shutdown()
    state = json.loads(bad.to_json())
    state[field] = value
    await table_store.save_table(manager.db, CH, GUILD, CH, json.dumps(state))

    again = restarted(manager, settings, printed)
    with caplog.at_level(logging.WARNING):
        restored = {t.id: reason for t, reason in await again.restore()}
    assert restored[CH] is not None and restored[CH].key == "note.cannot_resume"
    assert field in str(restored[CH].args["error"]), "the reason names the bad field"
    assert any(str(CH) in r.getMessage() for r in caplog.records), "the abort is logged"
    assert await held(again) == [0, 0, 0]
    hand = await history.get_hand(again.db, hand_id)
    assert hand is not None and hand.status == "aborted"
    assert restored[CH2] is None and again.get(CH2).game.log == good_log
    assert min(await held(again, (4, 5, 6))) > 0, "the other table's hand still runs"
    await again.shutdown()


async def test_a_person_on_trustee_all_hand_is_stood_up(manager: TableManager) -> None:
    await three_people(manager)
    table = await manager.start(CH, 1)
    await manager.set_trustee(CH, 3, True)  # away before acting at all
    await play_until_over(manager)
    table = manager.get(CH)
    assert table.status == WAITING
    assert [s.uid for s in table.seats] == [1, 2], "the absent person no longer holds a seat"
    assert {"k": "note.stood_up", "a": {"name": "p3"}} in table.notes
    assert manager.table_of(3) is None
    with pytest.raises(HostError) as refused:
        await manager.start(CH, 1)
    assert refused.value.text.key == "err.need_players"
    assert await held(manager) == [0, 0, 0]


async def test_a_person_who_never_acted_is_stood_up_and_one_who_did_stays(
    manager: TableManager,
) -> None:
    manager.settings = replace(manager.settings, timers={"default": 1})
    await three_people(manager)
    await manager.start(CH, 1)
    # 1 and 2 play whenever it is their turn; 3 never answers: two timeouts, then 托管
    for _ in range(2000):
        table = manager.get(CH)
        if table.status != PLAYING:
            break
        assert table.game is not None
        mine = [s for s in table.game.to_act() if table.seats[s].uid in (1, 2)]
        if not mine:
            await asyncio.sleep(0.05)
            continue
        uid = table.seats[mine[0]].uid
        assert uid is not None
        await manager.act(CH, uid, manager.hint(CH, uid))
    table = manager.get(CH)
    assert table.status == WAITING
    assert [s.uid for s in table.seats] == [1, 2]
    assert manager.table_of(3) is None and manager.table_of(1) is table
