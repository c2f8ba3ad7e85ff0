"""Start choices at a real table (明牌开始 ×5): chosen by people at the waiting table, before any
card exists, passed into the new hand's setup, applied at the deal, saved and restored with it."""

from __future__ import annotations

import json

import pytest

from bot.host.fairness import verify
from bot.host.model import PLAYING, WAITING, HostError
from bot.host.tables import TableManager
from bot.terminal import TerminalNotifier
from engines.base import Choice, Setup, T
from engines.doudizhu import DoudizhuGame
from storage import history
from storage import tables as table_store

CH = 557
GUILD = 77
SHOW5 = "show 5"


async def seated(manager: TableManager, game: str = "doudizhu_happy", room: str = "free",
                 channel: int = CH, uids: tuple[int, ...] = (1, 2, 3)) -> None:
    names = {1: "ann", 2: "bob", 3: "cat", 4: "dan", 5: "eve", 6: "fay"}
    await manager.create(GUILD, channel, game, room, uids[0], names[uids[0]])
    for uid in uids[1:]:
        await manager.join(channel, uid, names[uid])


def ddz(manager: TableManager, channel: int = CH) -> DoudizhuGame:
    game = manager.get(channel).game
    assert isinstance(game, DoudizhuGame)
    return game


async def play_out(manager: TableManager, channel: int = CH) -> None:
    for _ in range(500):
        table = manager.tables[channel]
        if table.status != PLAYING:
            return
        assert table.game is not None
        uid = table.seats[table.game.to_act()[0]].uid
        assert uid is not None
        await manager.act(channel, uid, manager.hint(channel, uid))
    raise AssertionError("hand did not end")


async def test_the_table_knows_what_its_game_offers_at_the_start(manager: TableManager) -> None:
    await seated(manager)
    assert manager.get(CH).start_offers == (Choice(SHOW5, T("ddz.phase.show_start"), "success"),)
    await seated(manager, game="doudizhu", channel=CH + 1, uids=(4, 5, 6))
    assert manager.get(CH + 1).start_offers == ()


async def test_the_starters_choice_is_applied_at_the_deal(manager: TableManager) -> None:
    await seated(manager)
    table = await manager.start(CH, 2, start=SHOW5)
    game = ddz(manager)
    assert game.setup.starts == ((1, SHOW5),) and game.log == []
    assert game.shown == [0, 5, 0] and game.multiplier() == 5 and game.to_act() == (1,)
    # the table sees bob's hand from the deal on, nobody waits for anything
    assert game.view(None).seats[1].cards == game.view(1).hand
    assert table.seats[1].start is None, "taken into this hand: the next one starts afresh"
    saved = {tid: state for tid, _g, _c, state in await table_store.load_tables(manager.db)}
    assert json.loads(saved[CH])["record"]["setup"]["starts"] == [[1, SHOW5]]


async def test_choices_made_before_the_deal_go_in_in_the_order_they_were_made(
    manager: TableManager,
) -> None:
    await seated(manager)
    await manager.choose_start(CH, 3, SHOW5)
    await manager.choose_start(CH, 1, SHOW5)
    table = manager.get(CH)
    assert [s.start for s in table.seats] == [SHOW5, None, SHOW5]
    assert table.status == WAITING, "a choice deals nothing by itself"
    await manager.start(CH, 2)  # a plain Start keeps what the others chose
    game = ddz(manager)
    assert game.setup.starts == ((2, SHOW5), (0, SHOW5))
    assert game.to_act() == (2,), "the first to choose 明牌 calls first (003 二.2)"
    assert game.shown == [5, 0, 5]


async def test_a_choice_can_be_dropped_before_the_deal(manager: TableManager) -> None:
    await seated(manager)
    await manager.choose_start(CH, 1, SHOW5)
    await manager.choose_start(CH, 1, None)
    assert manager.get(CH).seats[0].start is None
    await manager.start(CH, 1)
    assert ddz(manager).setup.starts == () and ddz(manager).multiplier() == 1


async def test_bots_never_choose(manager: TableManager) -> None:
    await seated(manager, uids=(1,))
    await manager.add_bot(CH, 1)
    await manager.add_bot(CH, 1)
    await manager.start(CH, 1)
    game = ddz(manager)
    assert game.setup.starts == () and game.shown == [0, 0, 0]


async def test_a_choice_from_someone_not_seated_is_refused(manager: TableManager) -> None:
    await seated(manager)
    for call in (manager.choose_start(CH, 9, SHOW5), manager.start(CH, 9, start=SHOW5)):
        with pytest.raises(HostError) as exc:
            await call
        assert exc.value.text.key == "err.not_seated"
    table = manager.get(CH)
    assert table.status == WAITING and all(s.start is None for s in table.seats)


async def test_a_choice_the_game_does_not_offer_is_refused_and_nothing_is_held(
    manager: TableManager,
) -> None:
    await seated(manager, game="doudizhu", room="novice")
    with pytest.raises(HostError) as exc:
        await manager.start(CH, 1, start=SHOW5)  # 叫分 斗地主 has no 明牌
    assert exc.value.text.key == "err.start_choice" and exc.value.text.args == {"choice": SHOW5}
    await seated(manager, room="novice", channel=CH + 1, uids=(4, 5, 6))
    for call in (manager.start(CH + 1, 4, start="show 3"), manager.choose_start(CH + 1, 4, "x")):
        with pytest.raises(HostError) as exc:
            await call
        assert exc.value.text.key == "err.start_choice"
    for channel, uids in ((CH, (1, 2, 3)), (CH + 1, (4, 5, 6))):
        assert manager.get(channel).status == WAITING
        for uid in uids:
            assert (await manager.wallet_for(GUILD).account(uid)).held == 0
    # once a hand runs, the next hand's choices wait for it to end
    await manager.start(CH + 1, 4)
    with pytest.raises(HostError) as exc:
        await manager.choose_start(CH + 1, 5, SHOW5)
    assert exc.value.text.key == "err.hand_running"


async def test_the_bigger_stake_is_held_and_settled_at_five(manager: TableManager) -> None:
    await seated(manager, room="novice")
    wallet = manager.wallet_for(GUILD)
    room = manager.settings.rooms["novice"]
    free = [(await wallet.account(uid)).free for uid in (1, 2, 3)]
    table = await manager.start(CH, 1, start=SHOW5)
    # 欢乐斗地主 bounds no loss by its rules (GameSpec.max_loss is None): each person's whole
    # carry is held, up to the room's maximum, so ×5 needs no larger hold than a plain hand
    assert table.holds == {str(uid): min(f, room.max_beans) for uid, f in zip((1, 2, 3), free)}
    hand_id = table.hand_id
    assert hand_id is not None
    await play_out(manager)
    hand = await history.get_hand(manager.db, hand_id)
    assert hand is not None and hand.status == "settled"
    outcome = json.loads(hand.outcome)
    assert {"k": "ddz.out.show", "a": {"x": 5}} in outcome["lines"]
    # every seat's points carry the ×5 of 底分 4 × 倍数 (×5 at least)
    assert all(p != 0 and p % 20 == 0 for p in outcome["points"])
    assert json.loads(hand.record)["setup"]["starts"] == [[0, SHOW5]]
    assert [(await wallet.account(uid)).held for uid in (1, 2, 3)] == [0, 0, 0]
    # /verify re-deals the hand from its record: the same cards, and every action replays
    checked = verify(manager.spec(manager.get(CH)), hand.record)
    assert checked.replayed and checked.problem is None
    plain = manager.spec(manager.get(CH)).new(Setup.from_json(
        {**json.loads(hand.record)["setup"], "starts": []}))
    assert checked.dealt == tuple(plain.view(s).hand for s in range(3))


async def test_the_choice_survives_a_restart_with_the_hand(
    manager: TableManager, settings, db, printed: list[str],
) -> None:
    await seated(manager)
    await manager.start(CH, 3, start=SHOW5)
    game = ddz(manager)
    await manager.act(CH, 3, "call")
    view = game.view(None)
    await manager.shutdown()
    notifier = TerminalNotifier(uid=1, locale="en-US", out=printed.append)
    again = TableManager(settings, db, manager.wallet, notifier, clock=manager.clock)
    notifier.manager = again
    assert [(t.id, reason) for t, reason in await again.restore()] == [(CH, None)]
    resumed = again.get(CH)
    assert isinstance(resumed.game, DoudizhuGame)
    assert resumed.game.shown == [0, 0, 5] and resumed.game.view(None) == view
    assert resumed.start_offers == again.start_offers(resumed) != ()
    await again.shutdown()
