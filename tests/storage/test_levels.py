"""Levels: titles from the configured tables, per-game scores, leaderboards."""

from __future__ import annotations

import pytest

from bot.settings import load_settings
from storage import levels
from storage.levels import next_title, title
from storage.wallet import SeatResult, Wallet

LEVELS = load_settings(environ={}).levels


@pytest.mark.parametrize(
    ("table", "score", "expected"),
    [
        ("doudizhu", -50, "包身工"),
        ("doudizhu", 0, "包身工"),
        ("doudizhu", 9, "包身工"),
        ("doudizhu", 10, "短工"),
        ("doudizhu", 364, "猎人"),
        ("doudizhu", 365, "中农"),
        ("doudizhu", 69_999, "丞相"),
        ("doudizhu", 70_000, "帝王"),
        ("doudizhu", 10**9, "帝王"),
        ("mianduimian", 99, "短工"),
        ("mianduimian", 100, "长工"),
        ("mianduimian", 10_000, "商人"),
        ("mianduimian", 100_000_000, "帝王"),
        ("sichuan", 0, "初品益都红"),
        ("sichuan", 2_300, "上品大红袍"),
        ("sichuan", 200_000, "上品指天椒"),
        ("shaanxi", 99, "白板"),
        ("shaanxi", 800_000, "中"),
        ("shaanxi", 2_000_000, "雀神"),
        ("wuhan", 999, "鸟蛋"),
        ("wuhan", 200_000_000, "超级九头鸟"),
        ("erren_mahjong", 20, "雀蛋"),
        ("erren_mahjong", 39, "雀蛋"),
        ("erren_mahjong", 40, "雀仔"),
        ("erren_mahjong", 200_000, "自摸王"),
        ("gomoku", -10_000, "9级"),
        ("gomoku", -800, "9级"),
        ("gomoku", -1, "2级"),
        ("gomoku", 0, "1级"),
        ("gomoku", 150, "1段"),
        ("gomoku", 900, "9段"),
        ("gouji", 12_345, "列兵"),
    ],
)
def test_titles_from_the_seed_tables(table: str, score: int, expected: str) -> None:
    assert title(LEVELS[table], score) == expected


def test_next_title() -> None:
    assert next_title(LEVELS["doudizhu"], 0) == (10, "短工")
    assert next_title(LEVELS["doudizhu"], 70_000) is None
    with pytest.raises(ValueError):
        title((), 5)


async def test_scores_and_leaderboards(wallet: Wallet) -> None:
    db = wallet.db
    assert (
        await levels.score(db, 1, "chess", economy=0) == 0
        and await levels.scores(db, 1, economy=0) == {}
    )
    plays = [(1, 30), (2, 50), (3, 50), (4, -5), (1, 5)]
    for uid, delta in plays:
        hand = await wallet.new_hand("chess", "free", 1, 2)
        await wallet.settle(hand, "chess", [SeatResult(uid, 0, delta)], 0, 0)
    hand = await wallet.new_hand("other", "free", 1, 2)
    await wallet.settle(hand, "other", [SeatResult(4, 0, 999)], 0, 0)
    assert await levels.score(db, 1, "chess", economy=0) == 35
    assert await levels.scores(db, 4, economy=0) == {"chess": -5, "other": 999}
    # a table's seats in one read: a player who never played the game scores 0
    assert await levels.scores_in(db, [4, 1, 9], "chess", economy=0) == {1: 35, 4: -5, 9: 0}
    assert await levels.scores_in(db, [4], "chess", economy=5) == {4: 0}
    assert await levels.leaderboard(db, "chess", economy=0) == [(2, 50), (3, 50), (1, 35), (4, -5)]
    assert await levels.leaderboard(db, "chess", limit=2, economy=0) == [(2, 50), (3, 50)]
    assert await levels.leaderboard(db, "chess", uids=[1, 3, 99], economy=0) == [(3, 50), (1, 35)]
    assert await levels.leaderboard(db, "chess", uids=[], economy=0) == []
    assert await levels.leaderboard(db, "nothing", economy=0) == []
