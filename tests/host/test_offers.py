"""Offers at a real table: optional actions (明牌) taken from seats not to act, under the same
lock, log and checks as any action; a stale one is refused and changes nothing."""

from __future__ import annotations

import json

import pytest

from bot.host.model import HostError
from bot.host.tables import TableManager
from bot.terminal import TerminalNotifier
from engines.doudizhu.five import REVEAL_AT, FiveGame, power
from engines.errors import IllegalActionError
from storage import tables as table_store

CH = 556
GUILD = 77


async def happy_table(manager: TableManager) -> None:
    await manager.create(GUILD, CH, "doudizhu_happy", "free", 1, "ann")
    await manager.join(CH, 2, "bob")
    await manager.join(CH, 3, "cat")
    await manager.start(CH, 1)


async def saved_log(manager: TableManager) -> list[list[object]]:
    """The hand's log as stored: the snapshot's, then the actions appended since."""
    saved = {tid: state for tid, _g, _c, state in await table_store.load_tables(manager.db)}
    record = json.loads(saved[CH])["record"]
    log = record["log"] if record else []
    appended = (await table_store.load_actions(manager.db)).get(CH, [])
    return log + [[a.seat, a.action] for a in appended if a.seq >= len(log)]


async def test_an_offer_is_taken_from_a_seat_not_to_act(manager: TableManager) -> None:
    await happy_table(manager)
    table = manager.get(CH)
    game = table.game
    assert game is not None and game.phase() == "bid"  # nothing waits on 明牌
    other = next(s for s in range(3) if s not in game.to_act())
    acting = game.to_act()
    uid = table.seats[other].uid
    assert uid is not None
    with pytest.raises(HostError) as exc:
        await manager.act(CH, uid, "call")  # a required decision still needs the turn
    assert exc.value.text.key == "err.not_your_turn"
    assert await manager.act(CH, uid, "明牌") == "show 3"
    assert game.to_act() == acting and game.log[-1] == (other, "show 3")
    assert game.view(None).seats[other].cards == game.view(other).hand
    assert [other, "show 3"] in await saved_log(manager)  # saved like any action
    assert table.seats[other].acted


async def test_a_stale_offer_is_refused_and_changes_nothing(manager: TableManager) -> None:
    await happy_table(manager)
    table = manager.get(CH)
    game = table.game
    assert game is not None
    other = next(s for s in range(3) if s not in game.to_act())
    uid = table.seats[other].uid
    await manager.act(CH, uid, "show 3")
    log = list(game.log)
    with pytest.raises(IllegalActionError) as exc:  # already shown: nothing is open
        await manager.act(CH, uid, "show 3")
    assert exc.value.text is not None and exc.value.text.key == "err.ddz.show_closed"
    with pytest.raises(IllegalActionError):
        await manager.act(CH, uid, "show 5")
    assert game.log == log and await saved_log(manager) == [list(x) for x in log]


async def test_a_taken_offer_is_replayed_after_a_restart(
    manager: TableManager, settings, db, printed: list[str],
) -> None:
    await happy_table(manager)
    table = manager.get(CH)
    game = table.game
    assert game is not None
    other = next(s for s in range(3) if s not in game.to_act())
    await manager.act(CH, table.seats[other].uid, "show")
    view = game.view(None)
    await manager.shutdown()
    notifier = TerminalNotifier(uid=1, locale="en-US", out=printed.append)
    again = TableManager(settings, db, manager.wallet, notifier, clock=manager.clock)
    notifier.manager = again
    assert [(t.id, reason) for t, reason in await again.restore()] == [(CH, None)]
    resumed = again.get(CH).game
    assert resumed is not None and resumed.view(None) == view and resumed.log == game.log
    await again.shutdown()


async def test_actions_typed_in_traditional_chinese_are_read(manager: TableManager) -> None:
    await happy_table(manager)
    table = manager.get(CH)
    game = table.game
    assert game is not None
    first = game.to_act()[0]
    assert await manager.act(CH, table.seats[first].uid, "叫地主") == "call"
    second = game.to_act()[0]
    assert await manager.act(CH, table.seats[second].uid, "搶地主") == "grab"
    assert game.log[-1] == (second, "grab")


async def test_the_trustee_takes_the_offers_its_game_gives_it(manager: TableManager) -> None:
    """托管 of offers (``Game.trustee_offer``): 五人's 暗地主 reveals by its strength rule as
    soon as the trustee plays its seat, though the table waits only for the 明地主."""
    await manager.create(GUILD, CH, "doudizhu_five", "free", 1, "ann")
    for uid, name in ((2, "bob"), (3, "cat"), (4, "dan"), (5, "eve")):
        await manager.join(CH, uid, name)
    await manager.start(CH, 1)
    table = manager.get(CH)
    game = table.game
    assert isinstance(game, FiveGame) and game.partner is not None
    partner = game.partner
    assert power(game.hands[partner]) >= REVEAL_AT["an"]  # this deal's 暗地主 would reveal
    assert not game.known and game.to_act() == (game.landlord,)  # a person is not played for
    uid = table.seats[partner].uid
    assert uid is not None
    await manager.set_trustee(CH, uid, True)
    assert game.known and game.log[-1] == (partner, "reveal")
    assert game.phase() == "reveal" and game.to_act() == (game.landlord,)
    assert [partner, "reveal"] in await saved_log(manager)
