"""火拼斗地主 (001 《火拼斗地主》; GAMES.md §2.6, §1.3, §1.5): no 加倍, 底分 1, 黄金眼, the escape
table, settlement as landlord–farmer transfers."""

from __future__ import annotations

import random

import pytest
from ddz_support import SPEC, new, rig

from engines.base import Setup
from engines.doudizhu import DoudizhuGame, HotGame
from engines.doudizhu.notation import format_cards, parse_cards
from engines.errors import IllegalActionError

# Seat 2 holds a bomb (KKKK) and no other; the kitty is 9TJ.
HANDS = ["3345567789TJQQA22", "3445667889TJQAA2R", "3456789TJQA2KKKKB"]
KITTY = "9TJ"


def hot(seed: int = 1, **options: object) -> DoudizhuGame:
    game = new("doudizhu_hot", seed=seed, carry={"first": 0}, options=options)
    assert isinstance(game, HotGame)
    return game


def test_no_doubling_base_one_and_no_double_phase() -> None:
    phases = set()
    for seed in range(30):
        game = hot(seed)
        assert game.base_score() == 1  # 001: "叫地主的分数为 1 分"
        while not game.is_over():
            phases.add(game.phase())
            seat = game.to_act()[0]
            action = game.trustee(seat)
            assert action in game.legal_actions(seat)
            game.apply(seat, action)
        assert sum(game.outcome().points) == 0
    assert "double" not in phases and {"bid", "play"} <= phases


def test_worked_example_e7_pairwise_transfers() -> None:
    """DDZ-E7: X = 6 (one grab ×2, 明牌 after the deal ×3, 底分 1), the landlord wins:
    landlord +12, farmers −6 each (×1200 = 14400 / 7200 / 7200 before the rake)."""
    found = 0
    for seed in range(200):
        game = hot(seed)
        assert game.apply(0, "明牌") == "show 3"  # the whole deal seen: ×3, an offer
        game.apply(0, "call")
        game.apply(1, "grab")
        game.apply(2, "nograb")
        game.apply(0, "nograb")
        assert game.landlord == 1 and game.multiplier() == 6
        while not game.is_over():
            seat = game.to_act()[0]
            game.apply(seat, game.trustee(seat))
        if game.winner != 1 or game.bombs or game.spring():
            continue
        out = game.outcome()
        assert out.points == (-6, 12, -6)
        assert [(t.payer, t.payee, t.points) for t in out.transfers] == [(0, 1, 6), (2, 1, 6)]
        assert [p * 1200 for p in out.points] == [-7200, 14400, -7200]
        found += 1
    assert found > 10


def test_golden_eye_two_peeks_private_and_only_while_choosing() -> None:
    game = hot(4)
    assert game.phase() == "bid" and game.to_act() == (0,)
    assert game.apply(0, "黄金眼 31") == "peek 13"
    kitty = game.kitty_cards
    line = [t for t in game.view(0).lines if t.key == "ddz.line.peek"]
    assert line[0].args["cards"] == " ".join(
        f"{p}:{format_cards(parse_cards('3456789TJQKA2BR'[kitty[p - 1]]))}" for p in (1, 3)
    )
    for other in (None, 1, 2):
        assert all(t.key != "ddz.line.peek" for t in game.view(other).lines)
    before = game.snapshot()
    with pytest.raises(IllegalActionError):
        game.apply(0, "peek 13")  # the same two again
    with pytest.raises(IllegalActionError):
        game.apply(0, "peek 11")
    assert game.snapshot() == before
    game.apply(0, "peek 12")
    assert not any(a.startswith("peek") for a in game.legal_actions(0))  # at most twice
    with pytest.raises(IllegalActionError):
        game.apply(0, "peek 23")
    assert game.snapshot() == before | {"peeks": [["13", "12"], [], []]}
    game.apply(0, "call")
    assert game.phase() == "grab" and "peek 12" in game.legal_actions(1)
    off = hot(4, golden_eye=False)
    assert not any(a.startswith("peek") for a in off.legal_actions(0))
    with pytest.raises(IllegalActionError):
        off.apply(0, "peek 12")


def escape_table(shower: int | None) -> DoudizhuGame:
    """Seat 1 becomes landlord after seat 0 calls; ``shower`` shows (×3) and seat 1 grabs
    (×2) when seat 0 showed."""
    game = hot(9)
    rig(game, HANDS, KITTY)
    if shower is not None:
        game.apply(shower, "show")
    if shower is None:
        game.apply(0, "nocall")
        game.apply(1, "call")
        game.apply(2, "nograb")
    else:
        game.apply(0, "call")
        game.apply(1, "grab")
        game.apply(2, "nograb")
        game.apply(0, "nograb")
    assert game.landlord == 1 and game.phase() == "play"
    return game


@pytest.mark.parametrize(
    ("shower", "escaper", "penalty", "paid"),
    [
        # 行为倍数 1, seat 2's bomb in hand ×2 = 2 < 10: a farmer pays 10 × 底分.
        (None, 2, 10, [(2, 1, 10)]),
        # The landlord below 10: 20 × 底分 × 身份系数 2 = 40, split between the farmers.
        (None, 1, 40, [(1, 2, 20), (1, 0, 20)]),
        # 明牌 ×3, one grab ×2 = 6, and seat 2's KKKK counts for every escaper ("计算当局
        # 所有的炸弹数量"): 12, the actual branch; farmer seat 0 pays 2 × 12 = 24.
        (0, 0, 24, [(0, 1, 24)]),
        # The same, seat 2 holding KKKK escaping itself: 6 × 2 = 12, 2 × 12 = 24.
        (0, 2, 24, [(2, 1, 24)]),
        # The landlord at 6 × 2 (seat 2's bomb) = 12: 4 × 底分 × 12 × 身份系数 2 = 96.
        (0, 1, 96, [(1, 2, 48), (1, 0, 48)]),
    ],
)
def test_escape_table(
    shower: int | None, escaper: int, penalty: int, paid: list[tuple[int, int, int]]
) -> None:
    game = escape_table(shower)
    game.escape(escaper)
    assert game.escape_penalties == {escaper: penalty}
    # The rest of the hand: make the landlord lose or win by the trustee, then check the
    # escaper's transfers come first and nobody on the escaper's side gains from them.
    while not game.is_over():
        seat = game.to_act()[0]
        game.apply(seat, game.trustee(seat))
    out = game.outcome()
    transfers = [(t.payer, t.payee, t.points) for t in out.transfers]
    escape_part = [t for t in transfers if t[0] == escaper]
    assert sorted(escape_part) == sorted(t for t in paid if t[0] == escaper)
    assert sum(out.points) == 0


def test_escape_counts_the_bombs_of_every_hand_not_only_the_escapers() -> None:
    """Bug (issue 23): the 火拼 escape counted only the escaper's own held bombs; 001 counts
    "当局所有的炸弹数量，无论是否炸出" — every bomb of the hand, whoever holds it."""
    game = escape_table(0)  # 明牌 ×3, one grab ×2: 行为倍数 6; only seat 2 holds a bomb
    assert game.hands[0] == list(parse_cards(HANDS[0])) and game.multiplier() == 6
    game.escape(0)  # a farmer with no bomb of its own
    # 6 × 2 (seat 2's KKKK) = 12 ≥ 10: 2 × the actual score 1 × 12 × 1 = 24, not 10.
    assert game.escape_penalties == {0: 24}
    other = escape_table(0)
    other.apply(1, "3")  # the landlord leads; nothing about bombs changes
    other.apply(2, "KKKK")  # the bomb is played: it still counts once (×2), now as played
    other.escape(0)
    assert other.escape_penalties == {0: 24}


def test_every_hand_is_settled_as_pairs() -> None:
    rng = random.Random(5)
    for seed in range(25):
        game = hot(seed)
        while not game.is_over():
            seats = game.to_act()
            seat = seats[rng.randrange(len(seats))]
            acts = game.legal_actions(seat)
            game.apply(seat, game.trustee(seat) if rng.random() < 0.6 else rng.choice(acts))
        out = game.outcome()
        assert game.landlord is not None
        assert len(out.transfers) == 2
        assert {t.payee if t.payer != game.landlord else t.payer for t in out.transfers} == {
            game.landlord
        }
        again = SPEC["doudizhu_hot"].from_record(game.to_record())
        assert again.snapshot() == game.snapshot() and again.outcome() == out


def test_check_options() -> None:
    SPEC["doudizhu_hot"].validate({"golden_eye": False, "base": 2})
    for bad in ({"golden_eye": 2}, {"doubling": True}, {"base": 0}):
        with pytest.raises(ValueError):
            SPEC["doudizhu_hot"].new(Setup(seats=3, seed=1, options=bad))
