"""The creator's table settings (/table settings): turn timer, bots, private by invitation."""

from __future__ import annotations

import json

import pytest

from bot.host.model import PLAYING, HostError, Table
from bot.host.tables import TableManager

CH = 556
GUILD = 77


async def test_the_creators_timer_scales_every_phase_of_the_hand(manager: TableManager) -> None:
    await manager.create(GUILD, CH, "doudizhu", "novice", 1, "ann")
    await manager.join(CH, 2, "bob")
    await manager.join(CH, 3, "cat")
    await manager.configure(CH, 1, timer_scale=200)
    table = await manager.start(CH, 1)
    phases = set()
    for _ in range(12):
        assert table.status == PLAYING and table.game is not None and table.deadline is not None
        phase = table.game.phase()
        phases.add(phase)
        # the clock does not move in this test: the deadline is the whole (doubled) time
        assert table.deadline - manager.clock() == 2 * manager.settings.timer(phase)
        uid = table.seats[table.game.to_act()[0]].uid
        assert uid is not None
        await manager.act(CH, uid, manager.hint(CH, uid))
    assert len(phases) >= 2, f"only {phases} was seen"


async def test_only_the_creator_between_hands_within_bounds(manager: TableManager) -> None:
    await manager.create(GUILD, CH, "doudizhu", "novice", 1, "ann")
    await manager.join(CH, 2, "bob")
    with pytest.raises(HostError) as err:
        await manager.configure(CH, 2, timer_scale=150)
    assert err.value.text.key == "err.not_creator"
    low, high = manager.settings.table_scale
    for bad in (low - 1, high + 1):
        with pytest.raises(HostError) as err:
            await manager.configure(CH, 1, timer_scale=bad)
        assert err.value.text.key == "err.timer_scale"
        assert err.value.text.args == {"typed": bad, "low": low, "high": high}
    assert manager.get(CH).timer_scale == 100, "a refused setting changes nothing"
    await manager.add_bot(CH, 1)
    await manager.start(CH, 1)
    with pytest.raises(HostError) as err:
        await manager.configure(CH, 1, bots=False)
    assert err.value.text.key == "err.hand_running"
    assert manager.get(CH).bots


async def test_bots_off_refuses_bots(manager: TableManager) -> None:
    await manager.create(GUILD, CH, "doudizhu", "novice", 1, "ann")
    await manager.add_bot(CH, 1)
    await manager.configure(CH, 1, bots=False)
    with pytest.raises(HostError) as err:
        await manager.add_bot(CH, 1)
    assert err.value.text.key == "err.bots_off"
    assert [s.is_bot for s in manager.get(CH).seats] == [False, True], "seated bots stay"
    await manager.configure(CH, 1, bots=True)
    await manager.add_bot(CH, 1)
    assert len(manager.get(CH).seats) == 3


async def test_a_private_table_seats_only_invited_people(manager: TableManager) -> None:
    await manager.create(GUILD, CH, "doudizhu", "novice", 1, "ann")
    await manager.configure(CH, 1, private=True)
    with pytest.raises(HostError) as err:
        await manager.join(CH, 2, "bob")
    assert err.value.text.key == "err.invite_only"
    assert len(manager.get(CH).seats) == 1
    with pytest.raises(HostError) as err:
        await manager.invite(CH, 3, 2, "bob")  # only the creator invites
    assert err.value.text.key == "err.not_creator"
    await manager.invite(CH, 1, 2, "bob")
    await manager.join(CH, 2, "bob")
    assert manager.get(CH).seated_uids() == {1, 2}
    with pytest.raises(HostError) as err:
        await manager.join(CH, 3, "cat")
    assert err.value.text.key == "err.invite_only"
    await manager.configure(CH, 1, private=False)
    await manager.join(CH, 3, "cat")
    assert manager.get(CH).seated_uids() == {1, 2, 3}


async def test_settings_survive_a_restart(manager: TableManager, settings, db) -> None:
    await manager.create(GUILD, CH, "doudizhu", "novice", 1, "ann")
    await manager.configure(CH, 1, timer_scale=50, bots=False, private=True)
    await manager.invite(CH, 1, 9, "ivy")
    await manager.shutdown()
    again = TableManager(settings, db, manager.wallet, manager.notifier, clock=manager.clock)
    restored = await again.restore()
    assert [reason for _, reason in restored] == [None]
    table = again.get(CH)
    assert (table.timer_scale, table.bots, table.private, table.invited) == (50, False, True, [9])
    with pytest.raises(HostError):
        await again.join(CH, 2, "bob")
    await again.join(CH, 9, "ivy")
    await again.shutdown()


@pytest.mark.parametrize(
    ("name", "value"),
    [("timer_scale", 0), ("timer_scale", "fast"), ("bots", 1), ("private", "yes"),
     ("invited", [1, "two"]), ("invited", 5)],
)
def test_a_corrupt_setting_is_refused_on_load(name: str, value: object) -> None:
    data = json.loads(Table(id=1, guild_id=2, game_key="doudizhu", room="novice",
                            owner=3).to_json())
    data[name] = value
    with pytest.raises(ValueError, match=name):
        Table.from_json(json.dumps(data))


def test_a_save_from_before_the_settings_loads_with_the_defaults() -> None:
    data = json.loads(Table(id=1, guild_id=2, game_key="doudizhu", room="novice",
                            owner=3).to_json())
    for name in ("timer_scale", "bots", "private", "invited"):
        del data[name]
    table = Table.from_json(json.dumps(data))
    assert (table.timer_scale, table.bots, table.private, table.invited) == (100, True, False, [])
