"""Economies (wallet scope): every balance, ledger, hold, settlement, relief, freeze, level and
leaderboard belongs to one economy — a server's, or 0, the global one — and never leaks into
another (a moderator of server A cannot mint beans spendable in server B)."""

from __future__ import annotations

from typing import Any

import pytest
from storage_support import GRANT, MOD, RELIEF

from storage import history, levels
from storage.errors import HandStateError, ReliefError, UnknownPlayer
from storage.wallet import HOUSE, SeatResult, Wallet

A, B = 111, 222  # two servers' economies
PLAYER = 7


async def test_a_grant_in_one_economy_is_invisible_in_the_others(wallet: Wallet) -> None:
    a, b, world = wallet.scoped(A), wallet.scoped(B), wallet.scoped(0)
    assert await a.grant(PLAYER, 1_000_000, "my own server", MOD) == GRANT + 1_000_000
    for other in (b, world):
        with pytest.raises(UnknownPlayer):
            await other.account(PLAYER)
        assert await other.ledger(PLAYER) == []
        assert await other.audit() == []
    await b.ensure_player(PLAYER)
    assert (await b.account(PLAYER)).balance == GRANT  # B's own starting grant, nothing more
    assert (await a.account(PLAYER)).balance == GRANT + 1_000_000
    assert [r.reason for r in await a.ledger(PLAYER)] == ["grant:mod", "grant:start"]
    assert {r.economy for r in await a.ledger(PLAYER)} == {A}
    assert [(x.action, x.economy) for x in await a.audit()] == [("grant", A)]


async def test_one_players_balances_in_two_economies_are_independent(wallet: Wallet) -> None:
    a, b = wallet.scoped(A), wallet.scoped(B)
    await a.revoke(PLAYER, 4_000, "fine", MOD)
    await b.grant(PLAYER, 500, "prize", MOD)
    assert (await a.account(PLAYER)).balance == GRANT - 4_000
    assert (await b.account(PLAYER)).balance == GRANT + 500
    # held beans in A do not lock anything in B
    hand = await a.new_hand("g", "r", A, 1, seats=[PLAYER])
    await a.hold(hand, [(PLAYER, GRANT - 4_000)])
    assert (await a.account(PLAYER)).free == 0
    assert (await b.account(PLAYER)).free == GRANT + 500
    assert await b.revoke(PLAYER, GRANT + 500, "all of it", MOD) == 0


async def test_settlement_in_one_economy_never_touches_another(wallet: Wallet) -> None:
    a, b = wallet.scoped(A), wallet.scoped(B)
    for w in (a, b):
        for uid in (1, 2):
            await w.ensure_player(uid)
    before_b = [await b.account(uid) for uid in (1, 2)]
    hand = await a.new_hand("ddz", "r", A, 5, seats=[1, 2])
    await a.hold(hand, [(1, 5_000), (2, 5_000)])
    result = await a.settle(hand, "ddz", [SeatResult(1, 3, 3), SeatResult(2, -3, -3)], 1000, 10)
    assert [s.delta for s in result.seats] == [2_990, -3_010] and result.economy == A
    assert await a.house_balance() == 20
    assert [await b.account(uid) for uid in (1, 2)] == before_b
    assert await b.house_balance() == 0 and await wallet.house_balance() == 0
    assert await b.ledger(HOUSE) == []
    assert await levels.score(wallet.db, 1, "ddz", economy=A) == 3
    assert await levels.score(wallet.db, 1, "ddz", economy=B) == 0
    assert await levels.scores(wallet.db, 1, economy=0) == {}
    record = await history.get_hand(wallet.db, hand)
    assert record is not None and record.economy == A


async def test_a_hand_is_held_and_settled_only_in_its_own_economy(wallet: Wallet) -> None:
    a, b = wallet.scoped(A), wallet.scoped(B)
    hand = await a.new_hand("g", "r", A, 5, seats=[1, 2])
    with pytest.raises(HandStateError, match=f"economy {A}"):
        await b.hold(hand, [(1, 100)])
    await a.hold(hand, [(1, 100), (2, 100)])
    seats = [SeatResult(1, 1), SeatResult(2, -1)]
    with pytest.raises(HandStateError, match=f"belongs to economy {A}"):
        await b.settle(hand, "g", seats, 10, 0)
    with pytest.raises(HandStateError):
        await wallet.settle(hand, "g", seats, 10, 0)  # the global economy is another one
    assert await a.held(hand) == {1: 100, 2: 100}
    assert [(await a.account(uid)).held for uid in (1, 2)] == [100, 100]
    await a.settle(hand, "g", seats, 10, 0)
    with pytest.raises(HandStateError):  # not even the stored result
        await b.settle(hand, "g", seats, 10, 0)


async def test_any_wallet_may_abort_a_hand_and_the_holds_go_back_where_they_were(
    wallet: Wallet,
) -> None:
    """Aborting returns escrow to its owners in the hand's own economy, so a hall restarted
    with another wallet scope can still free the hands it left running."""
    a = wallet.scoped(A)
    hand = await a.new_hand("g", "r", A, 5, seats=[1])
    await a.hold(hand, [(1, 700)])
    assert await wallet.release(hand) == {1: 700}
    assert (await a.account(1)).held == 0
    with pytest.raises(UnknownPlayer):
        await wallet.account(1)  # nothing was created in the global economy


async def test_relief_cooldown_and_freeze_are_per_economy(wallet: Wallet) -> None:
    a, b = wallet.scoped(A), wallet.scoped(B)
    for w in (a, b):
        await w.revoke(PLAYER, GRANT, "spent", MOD)
    assert await a.claim_relief(PLAYER) == RELIEF
    await a.revoke(PLAYER, RELIEF, "spent again", MOD)
    with pytest.raises(ReliefError, match="cooldown"):
        await a.claim_relief(PLAYER)
    assert await b.claim_relief(PLAYER) == RELIEF  # B's cooldown is its own
    await a.set_frozen(PLAYER, True, MOD, "botting in A")
    assert await a.is_frozen(PLAYER) and not await b.is_frozen(PLAYER)
    hand = await b.new_hand("g", "r", B, 1, seats=[PLAYER])
    await b.hold(hand, [(PLAYER, 100)])  # not frozen in B
    assert [x.action for x in await b.audit()] == ["revoke"]
    assert [x.action for x in await a.audit()] == ["freeze", "revoke", "revoke"]


async def test_levels_and_leaderboards_are_per_economy(wallet: Wallet) -> None:
    db = wallet.db
    for economy, plays in ((A, [(1, 30), (2, 10)]), (B, [(2, 50), (3, 5)])):
        w = wallet.scoped(economy)
        for uid, score in plays:
            hand = await w.new_hand("chess", "free", economy, 1)
            await w.settle(hand, "chess", [SeatResult(uid, 0, score)], 0, 0)
    assert await levels.leaderboard(db, "chess", economy=A) == [(1, 30), (2, 10)]
    assert await levels.leaderboard(db, "chess", economy=B) == [(2, 50), (3, 5)]
    assert await levels.leaderboard(db, "chess", economy=0) == []
    assert await levels.leaderboard(db, "chess", uids=[2], economy=B) == [(2, 50)]
    assert await levels.scores(db, 2, economy=A) == {"chess": 10}
    with pytest.raises(TypeError):
        await levels.score(db, 2, "chess")  # type: ignore[call-arg]  # the economy is required


async def test_totals_are_per_economy(wallet: Wallet) -> None:
    a, b = wallet.scoped(A), wallet.scoped(B)
    await a.grant(1, 5, "x", MOD)
    hand = await b.new_hand("g", "r", B, 1, seats=[1, 2])
    await b.hold(hand, [(1, 300), (2, 300)])
    ta, tb, t0 = await a.totals(), await b.totals(), await wallet.totals()
    assert (ta.players, ta.held, ta.ledger, ta.house) == (GRANT + 5, 0, GRANT + 5, 0)
    assert (tb.players, tb.held, tb.open_holds, tb.ledger) == (2 * GRANT, 600, 600, 2 * GRANT)
    assert (t0.players, t0.ledger, t0.held) == (0, 0, 0)


def test_scoped_checks_the_economy_and_keeps_the_settings(wallet: Wallet) -> None:
    a = wallet.scoped(A)
    assert (a.economy, wallet.economy) == (A, 0)
    assert (a.db, a.starting_grant, a.clock) == (wallet.db, wallet.starting_grant, wallet.clock)
    assert a.scoped(A) is a and a.scoped(0).economy == 0
    for bad in (-1, "1", True, 1.5, None):
        with pytest.raises(ValueError, match="economy"):
            wallet.scoped(bad)  # type: ignore[arg-type]


async def test_the_economy_is_kept_on_every_row(wallet: Wallet) -> None:
    a = wallet.scoped(A)
    hand = await a.new_hand("g", "r", A, 1, seats=[1, 2])
    await a.hold(hand, [(1, 50), (2, 50)])
    await a.settle(hand, "g", [SeatResult(1, 1, 1), SeatResult(2, -1, -1)], 10, 1)
    await a.log_moderation(MOD, "close_table")

    async def economies(conn: Any) -> dict[str, set[int]]:
        return {
            table: {r[0] for r in await conn.execute(f"SELECT DISTINCT economy FROM {table}")}
            for table in ("players", "ledger", "audit", "holds", "scores", "hands")
        }

    assert await wallet.db.read(economies) == {
        "players": {0, A},  # 0: only the global economy's house, from the schema
        "ledger": {A},
        "audit": {A},
        "holds": {A},
        "scores": {A},
        "hands": {A},
    }
