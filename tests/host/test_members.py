"""People and servers: a person who is no longer a member of a table's server (issue 23).

The platform tells the manager a member left a server (``TableManager.member_left``); the
manager hands their seat to the trustee and stands them up when the hand ends, as for anyone
the trustee played for. A join is checked against the table's server.
"""

from __future__ import annotations

import json

import pytest

from bot.host.model import PLAYING, WAITING, HostError
from bot.host.tables import TableManager
from bot.i18n import render
from engines.base import Text
from storage import history

CH = 556
GUILD = 78
OTHER = 79


async def seat_three(manager: TableManager, room: str = "novice") -> None:
    await manager.create(GUILD, CH, "doudizhu", room, 1, "ann")
    await manager.join(CH, 2, "bob")
    await manager.join(CH, 3, "cat")


async def play_out(manager: TableManager) -> None:
    """Every person still seated takes the hint until the hand is settled."""
    for _ in range(500):
        table = manager.tables.get(CH)
        if table is None or table.status != PLAYING:
            return
        assert table.game is not None
        seat = table.game.to_act()[0]
        uid = table.seats[seat].uid
        assert uid is not None and table.seat_of(uid) == seat, "the trustee plays the others"
        await manager.act(CH, uid, manager.hint(CH, uid))
    raise AssertionError("hand did not end")


async def test_a_member_who_left_the_server_mid_hand_is_played_out_and_stood_up(
    manager: TableManager,
) -> None:
    # issue 23: after leaving server A, a person kept playing A's table from server B
    await seat_three(manager)
    table = await manager.start(CH, 1)
    hand_id = table.hand_id
    assert await manager.member_left(GUILD, 2)
    seat = table.seats[1]
    assert seat.automatic, "the trustee plays the seat"
    assert table.seat_of(2) is None and manager.table_of(2) is None
    # the person can no longer act there, whether it is their turn or not
    with pytest.raises(HostError) as refused:
        await manager.act(CH, 2, "pass")
    assert refused.value.text.key == "err.not_seated"
    with pytest.raises(HostError):
        manager.hint(CH, 2)
    with pytest.raises(HostError):
        await manager.set_trustee(CH, 2, False)
    told = [render(Text.from_json(note), "en-US") for note in table.notes]
    assert "bob is no longer a member of this server" in told[-1]
    await play_out(manager)
    hand = await history.get_hand(manager.db, hand_id)
    assert hand is not None and hand.status == "settled", "the hand still settles"
    assert all(action != "escape" for _, action in json.loads(hand.record)["log"])
    assert [s.uid for s in manager.get(CH).seats] == [1, 3], "stood up at the hand's end"
    # no strike: leaving a server is not leaving the table (the server may have removed them)
    record = await manager.referee.conduct.record(2, economy=manager.settings.economy(GUILD))
    assert record.strikes == 0


async def test_a_member_who_left_the_server_stands_up_from_a_waiting_table(
    manager: TableManager,
) -> None:
    await seat_three(manager)
    assert await manager.member_left(GUILD, 3)
    table = manager.get(CH)
    assert table.status == WAITING and [s.uid for s in table.seats] == [1, 2]
    assert manager.table_of(3) is None
    record = await manager.referee.conduct.record(3, economy=manager.settings.economy(GUILD))
    assert record.incidents == 0, "not an abandoned full table"
    # the last person leaving the server closes the table
    await manager.member_left(GUILD, 2)
    await manager.member_left(GUILD, 1)
    assert CH not in manager.tables


async def test_leaving_another_server_changes_nothing_here(manager: TableManager) -> None:
    await seat_three(manager)
    table = await manager.start(CH, 1)
    before = table.to_json()
    assert not await manager.member_left(OTHER, 2)
    assert not await manager.member_left(GUILD, 99), "someone not seated here"
    assert table.to_json() == before and table.seat_of(2) == 1


async def test_join_is_refused_from_another_server(manager: TableManager) -> None:
    await manager.create(GUILD, CH, "doudizhu", "novice", 1, "ann")
    before = manager.get(CH).to_json()
    with pytest.raises(HostError) as refused:
        await manager.join(CH, 2, "bob", server=OTHER)
    assert refused.value.text.key == "err.other_server"
    assert manager.get(CH).to_json() == before and manager.table_of(2) is None
    await manager.join(CH, 2, "bob", server=GUILD)
    assert manager.get(CH).seat_of(2) == 1
