"""Leaver records at the tables: escapes meet an escalating cool-down on bean rooms that
decays with clean hands; abandoned full tables count; pair statistics follow the hands."""

from __future__ import annotations

import pytest

from bot.host.model import PLAYING, HostError
from bot.host.tables import TableManager
from storage.conduct import CLEAN_PER_STRIKE, cooldown_for

GUILD = 77
CH, OTHER = 557, 558


async def play_out(manager: TableManager, table_id: int = CH) -> None:
    for _ in range(500):
        table = manager.tables.get(table_id)
        if table is None or table.status != PLAYING:
            return
        assert table.game is not None
        seat = table.game.to_act()[0]
        uid = table.seats[seat].uid
        assert uid is not None
        await manager.act(table_id, uid, manager.hint(table_id, uid))
    raise AssertionError("hand did not end")


async def hand(manager: TableManager, escaper: int | None = None, room: str = "novice"
               ) -> list[str]:
    """Players 1, 2, 3 sit at a bean table; ``escaper`` leaves mid-hand; the rest play out.
    Returns the keys of the table's notes right after the escape."""
    seen: list[str] = []
    if CH not in manager.tables:
        await manager.create(GUILD, CH, "doudizhu", room, 1, "ann")
    table = manager.get(CH)
    for uid, name in ((2, "bob"), (3, "cat")):
        if table.seat_of(uid) is None:
            await manager.join(CH, uid, name)
    await manager.start(CH, 1)
    if escaper is not None and manager.get(CH).status == PLAYING:
        await manager.leave(CH, escaper)
        seen = [n["k"] for n in manager.get(CH).notes]
    await play_out(manager)
    return seen


async def test_three_escapes_meet_the_cool_down_and_clean_hands_decay_it(
    manager: TableManager,
) -> None:
    clock = manager.clock
    assert "note.leaver_warned" in await hand(manager, escaper=2), "the first is a warning"
    await hand(manager, escaper=2)  # bob may still sit down: a warning only
    with pytest.raises(HostError) as refused:
        await manager.join(CH, 2, "bob")
    assert refused.value.text.key == "err.cooldown"
    assert refused.value.text.args["minutes"] == cooldown_for(2) // 60
    # a score-only room stays open to him
    await manager.create(GUILD, OTHER, "doudizhu", "free", 2, "bob")
    await manager.leave(OTHER, 2)
    clock.now += cooldown_for(2)  # type: ignore[attr-defined]
    await hand(manager, escaper=2)
    with pytest.raises(HostError) as refused:
        await manager.join(CH, 2, "bob")
    assert refused.value.text.args["minutes"] == cooldown_for(3) // 60, "the third: an hour"
    clock.now += cooldown_for(3)  # type: ignore[attr-defined]
    record = await manager.referee.conduct.record(2, economy=GUILD)
    assert (record.escapes, record.strikes) == (3, 3)
    for _ in range(CLEAN_PER_STRIKE):
        await hand(manager)
    record = await manager.referee.conduct.record(2, economy=GUILD)
    assert (record.escapes, record.strikes) == (3, 2), "ten clean hands take one strike off"
    await hand(manager, escaper=2)
    with pytest.raises(HostError) as refused:
        await manager.join(CH, 2, "bob")
    assert refused.value.text.args["minutes"] == cooldown_for(3) // 60, "not four hours"


async def test_leaving_a_full_bean_table_before_the_deal_is_abandoning(
    manager: TableManager,
) -> None:
    await manager.create(GUILD, CH, "doudizhu", "novice", 1, "ann")
    await manager.join(CH, 2, "bob")
    await manager.leave(CH, 2)  # not full: no incident
    await manager.join(CH, 2, "bob")
    await manager.join(CH, 3, "cat")
    await manager.leave(CH, 3)
    assert (await manager.referee.conduct.record(2, economy=GUILD)).incidents == 0
    record = await manager.referee.conduct.record(3, economy=GUILD)
    assert (record.abandons, record.strikes) == (1, 1)


async def test_pair_statistics_follow_the_settled_hands(manager: TableManager) -> None:
    """Three hands of 斗地主 (one side of one seat against two): a hand settled pair by pair
    counts its payments; by the pot rule, with one winner each loser pays it its loss less its
    share of the rake, with one loser each winner gets its gain from the loser."""
    nets = {(1, 2): 0, (1, 3): 0, (2, 3): 0}
    into = {(1, 2): [0, 0], (1, 3): [0, 0], (2, 3): [0, 0]}
    for escaper in (None, 3, None):
        await hand(manager, escaper=escaper)
        result = manager.get(CH).last_result
        delta = {s["uid"]: s["delta"] for s in result["seats"]}
        uids = [s["uid"] for s in result["seats"]]
        if escaper is not None:
            await manager.join(CH, 3, "cat")
        winners = [u for u, d in delta.items() if d > 0]
        losers = [u for u, d in delta.items() if d < 0]
        assert len(winners) == 1 or len(losers) == 1, delta
        losses = -sum(delta[u] for u in losers)
        paid = min(sum(delta[u] for u in winners), losses)
        flow: dict[tuple[int, int], int] = {}
        for t in result["transfers"]:  # a hand settled pair by pair: its payments
            key = (uids[t["payer"]], uids[t["payee"]])
            flow[key] = flow.get(key, 0) + t["beans"]
        for loser in losers if not result["transfers"] else ():
            for winner in winners:
                flow[loser, winner] = (delta[winner] if len(losers) == 1
                                       else -delta[loser] * paid // losses)
        for a, b in nets:
            nets[a, b] += flow.get((b, a), 0) - flow.get((a, b), 0)
            into[a, b][0] += int(escaper == a and delta[b] > 0)
            into[a, b][1] += int(escaper == b and delta[a] > 0)
    pairs = {(p.a, p.b): p for p in await manager.referee.conduct.pairs(economy=GUILD,
                                                                         guild_id=GUILD)}
    assert {k: (p.hands, p.net, [p.a_into_b, p.b_into_a]) for k, p in pairs.items()} == {
        k: (3, v, into[k]) for k, v in nets.items()}


async def test_standing_up_after_a_finished_hand_is_not_abandoning(manager: TableManager
                                                                   ) -> None:
    """Bug: three people played a hand to settlement, one stood up while the table waited for
    the rematch, and it was recorded as abandoning a full table (a strike, a warning)."""
    await hand(manager)
    await manager.leave(CH, 3)
    record = await manager.referee.conduct.record(3, economy=GUILD)
    assert (record.abandons, record.strikes) == (0, 0), "a rematch declined is no abandon"
    notes = [n["k"] for n in manager.get(CH).notes]
    assert "note.left" in notes and "note.leaver_warned" not in notes


async def test_a_table_filled_again_by_someone_new_is_abandoned_before_its_deal(
    manager: TableManager,
) -> None:
    """The rematch exemption covers the people who played the last hand together; once a
    newcomer fills the table, standing up before its deal is abandoning it again."""
    await hand(manager)
    await manager.leave(CH, 3)
    await manager.join(CH, 4, "dan")
    await manager.leave(CH, 2)
    record = await manager.referee.conduct.record(2, economy=GUILD)
    assert (record.abandons, record.strikes) == (1, 1)
