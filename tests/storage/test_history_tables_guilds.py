"""Hand history, saved tables and per-server settings."""

from __future__ import annotations

import json
from typing import Any

from storage import guilds, history, tables
from storage.db import Storage
from storage.wallet import SeatResult, Wallet


async def test_settled_hand_history_is_complete(wallet: Wallet) -> None:
    db = wallet.db
    hand = await wallet.new_hand("ddz", "novice", 11, 22, seats=[1, None, 2])
    await wallet.hold(hand, [(1, 5_000), (2, 5_000)])
    record = json.dumps({"setup": {"seats": 3, "seed": 42}, "log": [[0, "bid 3"], [1, "pass"]]})
    await wallet.settle(
        hand,
        "ddz",
        [SeatResult(1, 2, 2), SeatResult(None, -1), SeatResult(2, -1, -1)],
        100,
        5,
        record=record,
        outcome="landlord wins",
    )
    got = await history.get_hand(db, hand)
    assert got is not None
    assert (got.game, got.room, got.guild_id, got.channel_id, got.status) == (
        "ddz",
        "novice",
        11,
        22,
        "settled",
    )
    assert got.seats == (1, None, 2) and got.points == (2, -1, -1)
    assert json.loads(got.record)["setup"]["seed"] == 42 and got.outcome == "landlord wins"
    assert got.deltas == {1: 95, 2: -105}  # the bot paid nothing: only 100 reaches seat 0
    assert got.held == {1: 5_000, 2: 5_000}
    assert (got.coefficient, got.rake) == (100, 5)
    assert got.ended_at is not None and got.ended_at >= got.started_at
    assert await history.hands_of(db, 2) == [hand]
    assert await history.running_hands(db) == []
    assert await history.get_hand(db, hand + 1) is None


async def test_running_and_aborted_hands_in_history(wallet: Wallet) -> None:
    db = wallet.db
    a = await wallet.new_hand("g", "r", 1, 2, seats=[5, 6])
    b = await wallet.new_hand("g", "r", 1, 3)  # seats not given: taken from the holds
    await wallet.hold(b, [(8, 10), (7, 20)])
    assert await history.running_hands(db) == [a, b]
    await wallet.release(b, record='{"log":[[0,"x"]]}')
    got = await history.get_hand(db, b)
    assert got is not None and got.status == "aborted" and got.seats == (7, 8)
    assert got.record == '{"log":[[0,"x"]]}' and got.deltas == {} and got.held == {7: 20, 8: 10}
    running = await history.get_hand(db, a)
    assert running is not None and running.seats == (5, 6) and running.ended_at is None
    assert await history.running_hands(db) == [a]


async def test_tables_survive_reopening(db: Storage, open_db: Any) -> None:
    await tables.save_table(db, 1, 10, 100, "state-1")
    await tables.save_table(db, 2, 10, 101, "state-2")
    await tables.save_table(db, 1, 10, 100, "state-1b")  # upsert
    assert await tables.load_tables(db) == [(1, 10, 100, "state-1b"), (2, 10, 101, "state-2")]
    assert await tables.delete_table(db, 2) is True
    assert await tables.delete_table(db, 2) is False
    await db.close()
    reopened = await open_db()
    try:
        assert await tables.load_tables(reopened) == [(1, 10, 100, "state-1b")]
    finally:
        await reopened.close()


async def test_guild_mod_role(db: Storage) -> None:
    assert await guilds.get_mod_role(db, 5) is None
    await guilds.set_mod_role(db, 5, 1234)
    assert await guilds.get_guild(db, 5) == guilds.GuildSettings(5, 1234)
    await guilds.set_mod_role(db, 5, None)
    assert await guilds.get_mod_role(db, 5) is None


async def test_players_in_guild_are_those_who_played_there(wallet: Wallet) -> None:
    db = wallet.db
    for guild, uids in ((1, [10, 11]), (1, [11, 12]), (2, [12, 13])):
        hand = await wallet.new_hand("g", "free", guild, 5)
        seats = [SeatResult(u, 0) for u in uids] + [SeatResult(None, 0)]
        await wallet.settle(hand, "g", seats, 0, 0)
    aborted = await wallet.new_hand("g", "r", 3, 5)
    await wallet.hold(aborted, [(14, 10)])
    await wallet.release(aborted)
    assert await history.players_in_guild(db, 1) == [10, 11, 12]
    assert await history.players_in_guild(db, 2) == [12, 13]
    assert await history.players_in_guild(db, 3) == []  # an aborted hand is not a game played
