"""The money supply adds up to the ledger to the bean; a season reset is audited and its
leaderboard snapshot readable."""

from __future__ import annotations

import pytest
from storage_support import GRANT, MOD, Clock

from storage import economy, levels
from storage.db import Storage
from storage.economy import DAY, SeasonError
from storage.wallet import SeatResult, Wallet

ECO = 77


async def ledger_sum(db: Storage, where: str, args: tuple[object, ...]) -> int:
    return int(await db.fetchval(f"SELECT COALESCE(SUM(delta), 0) FROM ledger WHERE {where}",
                                 args))


async def play(wallet: Wallet, uids: list[int], points: list[int]) -> None:
    hand = await wallet.new_hand("g", "r", ECO, 1, seats=uids)
    await wallet.hold(hand, [(u, 1000) for u in uids])
    await wallet.settle(hand, "g", [SeatResult(u, p, p) for u, p in zip(uids, points)], 10, 5)


async def test_supply_figures_add_up_to_the_ledger(db: Storage, wallet: Wallet, clock: Clock
                                                   ) -> None:
    w = wallet.scoped(ECO)
    old = clock.now
    for uid in (1, 2, 3):
        await w.ensure_player(uid)  # three starting grants, more than a week ago
    clock.now += 10 * DAY
    await play(w, [1, 2, 3], [2, -1, -1])
    await w.grant(4, 500, "prize", MOD)  # a fourth player: a start grant and a grant
    await w.revoke(2, 300, "cheat", MOD)
    await w.revoke(1, 300, "cheat", MOD)
    for _ in range(2):
        await play(w, [1, 3], [-3, 3])
    clock.now += 1
    await w.scoped(ECO + 1).grant(1, 999, "elsewhere", MOD)  # another economy: not counted
    report = await economy.supply(db, clock.now, economy=ECO, days=30)
    assert report.supply == await ledger_sum(db, "economy = ? AND uid != 0", (ECO,))
    assert report.supply == (await w.totals()).players
    since = report.since
    assert report.supply_since == await ledger_sum(db, "economy = ? AND uid != 0 AND at < ?",
                                                   (ECO, since)) == 3 * GRANT
    assert report.supply - report.supply_since == sum(report.entered.values()) - sum(
        report.left.values())
    assert report.entered == {"start": GRANT, "grant": 500}
    house = await w.house_balance()
    assert report.left == {"revoke": 600, "rake": house} and house == 3 * 5 + 2 * 2 * 5, "rake 5 a seat"
    assert report.players == 4
    # the series: flat at 3 grants until today, today's supply last
    assert report.series[-1][1] == report.supply
    assert report.series[-12][1] == 0, "the day before the grants"
    assert report.series[-11][0] < old < report.series[-10][0]
    assert [s for _, s in report.series[-11:-1]] == [3 * GRANT] * 10
    assert all(a[0] + DAY == b[0] for a, b in zip(report.series, report.series[1:]))


async def test_gini_and_top_share_of_the_balances(db: Storage, wallet: Wallet) -> None:
    w = wallet.scoped(ECO)
    for uid in range(1, 101):
        await w.ensure_player(uid)
    report = await economy.supply(db, 1e10, economy=ECO, days=1)
    assert report.gini == pytest.approx(0.0) and report.top1_share == pytest.approx(0.01)
    await w.grant(100, 99 * GRANT, "all of it", MOD)
    report = await economy.supply(db, 1e10, economy=ECO, days=1)
    assert report.top1_share == pytest.approx(100 * GRANT / (199 * GRANT))
    assert 0.49 < report.gini < 0.5


async def test_a_season_reset_is_audited_and_its_leaderboard_kept(
    db: Storage, wallet: Wallet, clock: Clock
) -> None:
    w = wallet.scoped(ECO)
    await play(w, [1, 2, 3], [2, -1, -1])
    hand = await w.new_hand("g", "r", ECO, 1, seats=[1])
    with pytest.raises(SeasonError):
        await economy.end_season(db, MOD, clock.now, economy=ECO, starting_grant=GRANT,
                                 reset_levels=True)
    await w.release(hand)
    before = (await w.totals()).players
    season = await economy.end_season(db, MOD, clock.now, economy=ECO, starting_grant=GRANT,
                                      reset_levels=True, reason="spring")
    assert season.number == 1 and season.supply == before
    assert [(await w.account(u)).balance for u in (1, 2, 3)] == [GRANT] * 3
    totals = await w.totals()
    assert totals.ledger == totals.players + totals.house, "the reset is ledgered"
    assert await levels.score(db, 1, "g", economy=ECO) == 0
    assert await economy.season_board(db, 1, "g", economy=ECO) == [(1, 2), (2, -1), (3, -1)]
    assert await economy.season_board(db, 2, "g", economy=ECO) is None
    audit = (await w.audit())[0]
    assert (audit.action, audit.moderator_id, audit.amount, audit.reason) == (
        "season_end", MOD, 1, "spring")
    again = await economy.end_season(db, MOD, clock.now, economy=ECO, starting_grant=GRANT,
                                     reset_levels=False)
    assert again.number == 2 and again.supply == 3 * GRANT
    assert [s.number for s in await economy.seasons(db, economy=ECO)] == [2, 1]


async def test_season_ledger_rows_name_the_moderator_who_ended_it(
    db: Storage, wallet: Wallet, clock: Clock
) -> None:
    """Bug: the season's balance resets were ledgered with no moderator, unlike a grant."""
    w = wallet.scoped(ECO)
    await play(w, [1, 2, 3], [2, -1, -1])
    await economy.end_season(db, MOD, clock.now, economy=ECO, starting_grant=GRANT,
                             reset_levels=False)
    for uid in (1, 2, 3):
        row = (await w.ledger(uid, 1))[0]
        assert (row.reason, row.moderator_id, row.balance_after) == ("season", MOD, GRANT)
