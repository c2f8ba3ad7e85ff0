"""计分: DDZ-E1/E2, bombs, 春天/反春, 加倍 pairwise, escape penalties (GAMES.md §2.1-2.4)."""

from __future__ import annotations

import pytest
from ddz_support import new, play_out, rig

from engines.base import Outcome, net_points
from engines.doudizhu.scoring import escape_penalty, settle

# A deal for scripted hands (seat 0 bids first and becomes landlord with bid 3):
# landlord 3333 4 56789T JJ QQQ A + kitty K A 2; farmers get the rest in rank order.
LANDLORD = "3333456789TJJQQQA"
KITTY = "KA2"
FARMER1 = "44455566677788899"
FARMER2 = ""  # the rest: 9TTTJJQKKKAA222BR


def scripted(actions: list[tuple[int, str]], key: str = "doudizhu", **options: object):
    game = new(key, seed=5, carry={"first": 0}, options=options)
    rig(game, [LANDLORD, FARMER1, FARMER2], KITTY)
    for seat, action in actions:
        game.apply(seat, action)
    return game


def rounds(*plays: str) -> list[tuple[int, str]]:
    """The landlord leads each play, both farmers pass."""
    out: list[tuple[int, str]] = []
    for p in plays:
        out += [(0, p), (1, "pass"), (2, "pass")]
    return out


E1 = (
    [(0, "bid 3"), (0, "4"), (1, "5"), (2, "pass"), (0, "2"), (1, "pass"), (2, "pass")]
    + rounds("56789T", "JJ", "QQQK", "AA")
    + [(0, "3333")]
)


def test_ddz_e1_e2_landlord_wins_x6() -> None:
    """DDZ-E1 (001) = DDZ-E2 (000 角色版): 底分 3 × 倍数 2 (one bomb) = 6, landlord wins.

    N = 1000: landlord 6×2×1000 = 12000, each farmer 6×1000 = 6000 (pre-rake figures; the
    rake A = 50 per player is the storage's job: F1 gives 11950 / −6050 / −6050).
    """
    game = scripted(E1)
    assert game.is_over() and game.winner == 0
    assert game.base_score() == 3 and game.multiplier() == 2
    out = game.outcome()
    assert out.points == (12, -6, -6)
    assert out.scores == out.points
    assert out.winners == (0,)
    n, a = 1000, 50
    assert [x * n for x in out.points] == [12000, -6000, -6000]
    assert out.points[0] * n - a == 11950 and out.points[1] * n - a == -6050  # F1 as written
    keys = [t.key for t in out.lines]
    assert keys[0] == "ddz.out.landlord_wins"
    assert "ddz.out.bombs" in keys and "ddz.out.spring" not in keys


def test_spring_doubles() -> None:
    """春天: the landlord goes out and neither farmer played a card: ×2."""
    game = scripted([(0, "bid 3")] + rounds("4", "2", "56789T", "JJ", "QQQK", "AA") + [(0, "3333")])
    assert game.spring() == "spring"
    assert game.multiplier() == 2 * 2
    assert game.outcome().points == (24, -12, -12)
    assert "ddz.out.spring" in [t.key for t in game.outcome().lines]


def test_anti_spring_doubles() -> None:
    """反春: a farmer goes out and the landlord played only one hand: ×2."""
    game = scripted(
        [(0, "bid 3"), (0, "4"), (1, "5"), (2, "pass"), (0, "pass")]
        + [(1, "44 55 666777888 99"), (2, "pass"), (0, "pass"), (1, "4")]
    )
    assert game.is_over() and game.winner == 1
    assert game.spring() == "anti"
    assert game.outcome().points == (-12, 6, 6)
    assert game.outcome().winners == (1, 2)


def test_bombs_and_rocket_double_each() -> None:
    """Each bomb or rocket played doubles (000 §8); kept in hand they do not count."""
    game = scripted(
        [(0, "bid 3"), (0, "4"), (1, "5"), (2, "pass"), (0, "3333"), (1, "pass"), (2, "BR")]
        + [(0, "pass"), (1, "pass"), (2, "9"), (0, "T"), (1, "pass"), (2, "pass")]
        + rounds("56789", "JJ", "QQQK", "AA")
        + [(0, "2")]
    )
    assert game.bombs == 2 and game.winner == 0
    assert game.multiplier() == 4
    assert game.outcome().points == (24, -12, -12)
    # E1 leaves the farmers' 2222 unplayed: still ×2 only for the landlord's one bomb.
    assert scripted(E1).multiplier() == 2


def test_classic_doubling_step_pairwise() -> None:
    """002's 加倍: after bidding each seat doubles or not; settled landlord vs each farmer."""
    game = scripted([(0, "bid 3")], doubling=True)
    assert game.phase() == "double" and set(game.to_act()) == {0, 1, 2}
    game.apply(1, "double")
    game.apply(0, "加倍")
    game.apply(2, "nodouble")
    assert game.phase() == "play"
    for seat, action in E1[1:]:
        game.apply(seat, action)
    # stake 6: pair (0,1) both doubled ×4 = 24, pair (0,2) landlord doubled ×2 = 12.
    assert game.outcome().points == (36, -24, -12)


def test_settle_examples() -> None:
    assert settle(3, 0, True, 6, (1, 1, 1)) == [12, -6, -6]
    assert settle(3, 1, False, 5, (1, 1, 1)) == [5, -10, 5]
    assert settle(3, 2, True, 1, (2, 1, 2)) == [-4, -2, 6]
    assert settle(3, None, False, 9, (1, 1, 1)) == [0, 0, 0]


@pytest.mark.parametrize(
    ("landlord", "escapes", "points"),
    [
        # farmer 1 escapes: it alone pays the landlord 18, its partner (2) gains nothing from
        # it; the landlord still loses its pair with farmer 2 (3)
        (0, {1: 18}, [18 - 3, -18, 3]),
        # the landlord escapes: no pair settles, the farmers share the penalty
        (0, {0: 18}, [-18, 9, 9]),
        # a farmer's flat 3 (escaped before any bid) goes to the landlord alone
        (0, {2: 3}, [3 - 3, 3, -3]),
        # no landlord at all: everyone else is an opponent, 2 + 1 from the seat after it
        (None, {2: 3}, [2, 1, -3]),
    ],
)
def test_settle_with_escape_is_zero_sum(
    landlord: int | None, escapes: dict[int, int], points: list[int]
) -> None:
    got = settle(3, landlord, False, 3, (1, 1, 1), escapes)
    assert got == points and sum(got) == 0


def test_escape_penalty_formula() -> None:
    assert escape_penalty(3, 4, 3, 3, before_bid=False) == 36  # 底分×倍数×3
    assert escape_penalty(3, 4, 3, 3, before_bid=True) == 3  # 还没人叫牌时逃跑：扣3分


def penalties(out: Outcome) -> dict[int, dict[int, int]]:
    """Escape penalties as {escaper: {payee: points}}, from the outcome's transfers."""
    paid: dict[int, dict[int, int]] = {}
    for t in out.transfers:
        if t.reason is not None and t.reason.key == "ddz.transfer.escape":
            row = paid.setdefault(t.payer, {})
            row[t.payee] = row.get(t.payee, 0) + t.points
    return paid


def test_escape_pays_at_the_multiplier_of_the_moment() -> None:
    # 000 §8: 底分×倍数×3. Bid 3, the landlord's bomb makes ×2: farmer 1 leaves now and owes
    # 3 × 2 × 3 = 18, whatever bombs the trustee and the others play afterwards.
    game = scripted([(0, "bid 3"), (0, "3333")])
    assert game.multiplier() == 2
    game.escape(1)
    assert game.escaped == {1}
    assert game.log[-1] == (1, "escape")
    play_out(game)
    out = game.outcome()
    assert penalties(out) == {1: {0: 18}}  # to the landlord alone, never to its partner
    assert out.points[1] == -18
    assert sum(out.points) == 0
    assert net_points(3, out.transfers) == out.points
    assert "ddz.out.escape" in [t.key for t in out.lines]
    # the landlord and farmer 2 still settle as the hand actually ended
    sign = 1 if game.winner == 0 else -1
    stake = game.base_score() * game.multiplier()
    assert out.points[2] == -sign * stake
    assert out.points[0] == 18 + sign * stake


def test_an_escaping_landlord_pays_both_farmers() -> None:
    game = scripted([(0, "bid 3"), (0, "4")])
    game.escape(0)  # 3 × 1 × 3 = 9: 5 + 4, the odd point to the seat after it
    play_out(game)
    out = game.outcome()
    assert penalties(out) == {0: {1: 5, 2: 4}}
    assert out.points == (-9, 5, 4)


def test_escape_before_any_bid_pays_three_points() -> None:
    game = new("doudizhu", seed=9, carry={"first": 0})
    game.escape(2)
    assert game.escape_before_bid == {2: True}
    play_out(game)  # the trustee bids and plays for seat 2
    out = game.outcome()
    assert out.points[2] == -3 and sum(out.points) == 0
    assert sum(penalties(out)[2].values()) == 3


def test_escape_before_any_call_in_happy() -> None:
    game = new("doudizhu_happy", seed=4, carry={"first": 0}, options={"mingpai": False})
    game.escape(0)
    assert game.escape_before_bid == {0: True}
    game.apply(0, "call")
    game.escape(1)  # after the call, before any grab: 底分 4 × 倍数 1 × 3
    assert game.escape_before_bid == {0: True, 1: False}
    play_out(game)
    out = game.outcome()
    paid = penalties(out)
    assert sum(paid[0].values()) == 3
    assert sum(paid[1].values()) == 4 * 1 * 3
    assert sum(out.points) == 0
    for escaper, payees in paid.items():  # only opponents are paid
        for payee in payees:
            assert (escaper == game.landlord) != (payee == game.landlord)


@pytest.mark.parametrize("escaper", [0, 1])
def test_three_player_002_escape_is_trustee_without_a_penalty(escaper: int) -> None:
    """三人斗地主 (002, ``doubling`` on): "玩家逃跑后系統自動托管直至此局游戲結束" and no
    penalty is stated, so none is taken: the trustee plays the seat out and the hand settles
    exactly as the same hand played without the escape (issue 23)."""
    script = [(0, "bid 3"), (1, "nodouble"), (2, "nodouble"), (0, "nodouble"), (0, "3333")]
    game = scripted(script, doubling=True)
    twin = scripted(script, doubling=True)
    game.escape(escaper)
    assert game.escaped == {escaper} and game.escape_penalties == {}
    play_out(game)
    play_out(twin)
    out, same = game.outcome(), twin.outcome()
    assert out.points == same.points and sum(out.points) == 0
    assert penalties(out) == {}
    keys = [t.key for t in out.lines]
    assert "ddz.out.escape" not in keys and "ddz.out.escape_trustee" in keys
    # before any bid: no flat 3 points either
    early = new("doudizhu", seed=9, carry={"first": 0}, options={"doubling": True})
    early.escape(2)
    play_out(early)
    assert penalties(early.outcome()) == {}


def test_classic_escape_keeps_its_penalty_without_002s_doubling() -> None:
    # 000/001 (doubling off): 底分×倍数×3 as before.
    game = scripted([(0, "bid 3"), (0, "3333")])
    game.escape(1)
    play_out(game)
    assert penalties(game.outcome()) == {1: {0: 18}}
