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
    share of the rake (shared to the bean: the shares add up to the winner's gain), with one
    loser each winner gets its gain from the loser."""
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
        if not result["transfers"] and len(losers) == 1:
            for winner in winners:
                flow[losers[0], winner] = delta[winner]
        elif not result["transfers"]:  # one winner: the losers' shares add up to its gain
            shares = {u: -delta[u] * paid for u in losers}
            parts = {u: share // losses for u, share in shares.items()}
            left = paid - sum(parts.values())
            for u in sorted(losers, key=lambda u: (-(shares[u] % losses), delta[u],
                                                   uids.index(u)))[:left]:
                parts[u] += 1
            assert sum(parts.values()) == delta[winners[0]] or paid < delta[winners[0]]
            for u in losers:
                flow[u, winners[0]] = parts[u]
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


async def until_turn_of(manager: TableManager, uid: int, table_id: int = CH) -> None:
    """Play hints for the others until it is ``uid``'s turn."""
    for _ in range(500):
        table = manager.get(table_id)
        assert table.status == PLAYING and table.game is not None
        seat = table.game.to_act()[0]
        if table.seats[seat].uid == uid:
            return
        other = table.seats[seat].uid
        assert other is not None
        await manager.act(table_id, other, manager.hint(table_id, other))
    raise AssertionError(f"it never was {uid}'s turn")


async def test_a_hand_the_trustee_finished_is_not_clean(manager: TableManager) -> None:
    """Bug: with a strike, acting once and then handing the seat to the trustee counted as a
    clean hand (1/10 → 2/10), so strikes wore off without playing. A clean hand is one you
    played yourself to its end."""
    await manager.referee.conduct.incident(2, "escape", manager.clock(), economy=GUILD)
    await hand(manager)  # played himself: clean
    assert (await manager.referee.conduct.record(2, economy=GUILD)).clean == 1
    await manager.start(CH, 1)
    await until_turn_of(manager, 2)
    await manager.act(CH, 2, manager.hint(CH, 2))
    await manager.set_trustee(CH, 2, True)
    await play_out(manager)
    record = await manager.referee.conduct.record(2, economy=GUILD)
    assert (record.strikes, record.clean) == (1, 1), "the trustee's hand is not his clean hand"
    assert record.absences == 0, "he acted: not absent either"


async def test_a_hand_left_to_the_trustee_is_a_strike_the_table_is_told(manager: TableManager
                                                                       ) -> None:
    """Bug: escapes and abandons were announced at the table, an absence (the trustee played
    the whole hand) was recorded silently."""
    await manager.create(GUILD, CH, "doudizhu", "novice", 1, "ann")
    await manager.join(CH, 2, "bob")
    await manager.join(CH, 3, "cat")
    await manager.set_trustee(CH, 2, True)
    await manager.start(CH, 1)
    await play_out(manager)
    record = await manager.referee.conduct.record(2, economy=GUILD)
    assert (record.absences, record.strikes) == (1, 1)
    notes = manager.get(CH).notes
    told = [n for n in notes if n["k"] == "note.leaver_warned"]
    assert [(n["a"]["name"], n["a"]["strikes"]) for n in told] == [("bob", 1)], notes
