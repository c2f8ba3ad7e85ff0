"""Migration 0003 (economies, hand codes): a database written by the schema before it keeps
every bean, ledger row, hold, score and hand, now all in the global economy (0), and every old
hand gets an unguessable code."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from storage_support import Clock

from storage import history, levels
from storage.db import Database, schema_version
from storage.errors import UnknownPlayer
from storage.history import CODE_ALPHABET, CODE_LENGTH
from storage.wallet import HOUSE, SeatResult, Wallet

# What the wallet of schema version 2 wrote for: player 1 (grant 10 000, won hand 1 against
# player 2: +950 after a rake of 50 each), player 2 (−1 050, then a moderator's grant of 300,
# and frozen), and hand 2 still running with 2 000 held by each.
OLD_ROWS = """
INSERT INTO players (id, balance, held, frozen, last_relief_at, created_at) VALUES
    (1, 10950, 2000, 0, 1700000100.5, 1700000000),
    (2, 9250, 2000, 1, NULL, 1700000000);
UPDATE players SET balance = 100 WHERE id = 0;
INSERT INTO hands (id, game, room, guild_id, channel_id, status, seats, coefficient, rake,
                   record, outcome, result, started_at, ended_at) VALUES
    (1, 'ddz', 'novice', 50, 60, 'settled', '[1, 2]', 1000, 50, '{"log":[]}', 'won',
     '[{"seat":0,"uid":1,"points":1,"held":5000,"rake":50,"delta":950,"balance":10950,
        "score_before":0,"score_after":2},
       {"seat":1,"uid":2,"points":-1,"held":5000,"rake":50,"delta":-1050,"balance":8950,
        "score_before":0,"score_after":-1}]', 1700000010, 1700000020),
    (2, 'ddz', 'novice', 50, 60, 'running', '[1, 2]', NULL, NULL, '', '', NULL,
     1700000030, NULL);
INSERT INTO holds (hand_id, uid, amount) VALUES (1, 1, 5000), (1, 2, 5000), (2, 1, 2000),
    (2, 2, 2000);
INSERT INTO ledger (id, uid, delta, balance_after, reason, note, hand_id, moderator_id, at) VALUES
    (1, 1, 10000, 10000, 'grant:start', '', NULL, NULL, 1700000000),
    (2, 2, 10000, 10000, 'grant:start', '', NULL, NULL, 1700000000),
    (3, 1, 950, 10950, 'hand', '', 1, NULL, 1700000020),
    (4, 2, -1050, 8950, 'hand', '', 1, NULL, 1700000020),
    (5, 0, 100, 100, 'rake', '', 1, NULL, 1700000020),
    (6, 2, 300, 9250, 'grant:mod', 'sorry', NULL, 9, 1700000040);
INSERT INTO audit (moderator_id, action, uid, amount, reason, at) VALUES
    (9, 'grant', 2, 300, 'sorry', 1700000040),
    (9, 'freeze', 2, NULL, 'botting', 1700000050);
INSERT INTO scores (uid, game, score) VALUES (1, 'ddz', 2), (2, 'ddz', -1);
INSERT INTO guild_players (guild_id, uid) VALUES (50, 1), (50, 2);
INSERT INTO tables (id, guild_id, channel_id, state, updated_at) VALUES (3, 50, 60, '{}', 0);
"""


async def old_database(path: Path) -> None:
    db = await Database.open(path, target_version=2)
    assert db.version == 2

    def fill(conn: sqlite3.Connection) -> None:
        for statement in OLD_ROWS.split(";"):
            if statement.strip():
                conn.execute(statement)

    await db.run(fill)
    await db.close()


def wallet_of(db: Storage) -> Wallet:
    return Wallet(
        db,
        starting_grant=10_000,
        relief_amount=0,
        relief_threshold=0,
        relief_cooldown_s=0,
        clock=Clock(1_700_001_000.0),
    )


async def test_old_data_moves_into_the_global_economy(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    await old_database(path)
    db = await Database.open(path)
    try:
        assert db.version == schema_version()
        wallet = wallet_of(db)
        one, two = await wallet.account(1), await wallet.account(2)
        assert (one.balance, one.held, one.frozen) == (10_950, 2_000, False)
        assert (two.balance, two.held, two.frozen) == (9_250, 2_000, True)
        assert await wallet.house_balance() == 100
        assert [(r.id, r.delta, r.reason, r.note) for r in await wallet.ledger(2)] == [
            (6, 300, "grant:mod", "sorry"),
            (4, -1_050, "hand", ""),
            (2, 10_000, "grant:start", ""),
        ]
        assert [(a.action, a.uid, a.reason) for a in await wallet.audit()] == [
            ("freeze", 2, "botting"),
            ("grant", 2, "sorry"),
        ]
        totals = await wallet.totals()
        assert (totals.players, totals.house, totals.ledger) == (20_200, 100, 20_300)
        assert totals.held == totals.open_holds == 4_000
        assert await levels.scores(db, 1, economy=0) == {"ddz": 2}
        assert await levels.leaderboard(db, "ddz", economy=0) == [(1, 2), (2, -1)]
        assert await history.players_in_guild(db, 50) == [1, 2]
        # the relief cooldown came along
        last = await db.read(
            lambda c: c.execute("SELECT last_relief_at FROM players WHERE id = 1").fetchone()[0]
        )
        assert last == 1_700_000_100.5
        # a server's economy starts fresh: the old balances are the global economy's
        with pytest.raises(UnknownPlayer):
            await wallet.scoped(50).account(1)
        # the hand left running settles in the global economy, and the books still balance
        result = await wallet.settle(2, "ddz", [SeatResult(1, -1, -1), SeatResult(2, 1, 1)], 100, 0)
        assert [s.delta for s in result.seats] == [-100, 100]
        assert await levels.score(db, 1, "ddz", economy=0) == 1
        totals = await wallet.totals()
        assert totals.ledger == totals.players + totals.house and totals.held == 0
        old = await history.get_hand(db, 1)
        assert old is not None and old.deltas == {1: 950, 2: -1_050} and old.economy == 0
    finally:
        await db.close()


async def test_old_hands_get_unique_unguessable_codes(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    await old_database(path)
    db = await Database.open(path)
    try:
        codes = [await history.hand_code(db, hand) for hand in (1, 2)]
        assert len(set(codes)) == 2
        for code in codes:
            assert len(code) == CODE_LENGTH and set(code) <= set(CODE_ALPHABET)
        found = await history.hand_by_code(db, codes[0].upper())
        assert found is not None and found.hand_id == 1 and found.guild_id == 50
        # new hands get codes too, different from the old ones
        new = await wallet_of(db).new_hand("ddz", "novice", 50, 60)
        assert await history.hand_code(db, new) not in codes
    finally:
        await db.close()


async def test_the_migrated_schema_keeps_its_safeguards(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    await old_database(path)
    db = await Database.open(path)
    try:
        for sql in ("UPDATE ledger SET delta = 0", "DELETE FROM audit"):
            with pytest.raises(sqlite3.IntegrityError, match="append-only"):
                await db.run(lambda c, sql=sql: c.execute(sql))
        with pytest.raises(sqlite3.IntegrityError):  # a ledger row of a player with no wallet
            await db.run(
                lambda c: c.execute(
                    "INSERT INTO ledger (uid, delta, balance_after, reason, at, economy) "
                    "VALUES (1, 1, 1, 'x', 0, 50)"
                )
            )
        with pytest.raises(sqlite3.IntegrityError):  # two hands with one code
            await db.run(lambda c: c.execute("UPDATE hands SET code = 'x'"))

        def leftovers(conn: sqlite3.Connection) -> list[str]:
            return [
                r[0]
                for r in conn.execute("SELECT name FROM sqlite_master WHERE name LIKE '%_0002'")
            ]

        assert await db.read(leftovers) == []
        assert await db.read(lambda c: c.execute("PRAGMA foreign_key_check").fetchall()) == []
        saved = await db.read(lambda c: c.execute("SELECT id, state FROM tables").fetchall())
        assert saved == [(3, "{}")]
        ledger = await wallet_of(db).ledger(HOUSE)
        assert [(r.delta, r.reason, r.hand_id) for r in ledger] == [(100, "rake", 1)]
        assert json.loads((await history.get_hand(db, 1)).record) == {"log": []}  # type: ignore[union-attr]
    finally:
        await db.close()
