"""陕西麻将 (000, GAMES.md §9.2): SX-E1, the win shapes, 炮子, 截胡, 漏胡, kongs, 抢杠, 荒庄 by
kong count, the escape formula and the dealer, on stacked 136-tile walls."""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from mj_support import flows

from engines.base import Setup, T
from engines.errors import IllegalActionError, NotationError
from engines.mahjong import SPECS
from engines.mahjong.game import stacked_wall
from engines.mahjong.rules import HUANGZHUANG_STACKS
from engines.mahjong.shaanxi import ShaanxiGame, deal_break, win_shape
from engines.mahjong.tiles import parse_hand

SPEC = {s.key: s for s in SPECS}["shaanxi"]
# Hands that claim nothing and win nothing: single tiles, no 全不靠 / 组合龙 / 十三幺 near.
FA = "1469m2478p39s135z"
FB = "2358m1369p147s24z"
FC = "1479m2468p258s67z"


def sx(
    hands: Sequence[str],
    draws: str,
    *,
    pao: Sequence[int] = (0, 0, 0, 0),
    dealer: int = 0,
) -> ShaanxiGame:
    """A 陕西 hand from a stacked wall (``dealer``'s 14th tile is the first of ``draws``),
    with the 炮子 staked as ``pao``."""
    setup = Setup(seats=4, seed=0, carry={"dealer": dealer})
    game = ShaanxiGame(setup, wall=stacked_wall(hands, draws, dealer, kinds=34))
    for seat, n in enumerate(pao):
        game.apply(seat, f"pao {n}")
    return game


def totals(game: ShaanxiGame) -> tuple[int, ...]:
    return game.outcome().points


# --- SX-E1 and the wall ------------------------------------------------------------------------
def test_sx_e1_one_and_two_make_the_opposite_seat_roll_and_nine_stacks_are_skipped() -> None:
    # "第一次摇的是1和2，那么第二个摇骰子者就是庄家的对家，对家摇第二次是2和4，那么两次总和为9。"
    assert deal_break(0, (1, 2), (2, 4)) == (2, 9)
    assert deal_break(3, (1, 2), (2, 4)) == (1, 9)  # the dealer's 对家 wherever it sits
    assert deal_break(0, (1, 1), (1, 1)) == (1, 4)  # 2 counts to the next seat
    assert deal_break(0, (2, 2), (6, 6)) == (3, 16)  # 4 is the 上家
    assert deal_break(0, (2, 3), (6, 6)) == (0, 17)  # 5 comes back round to the dealer


def test_sx_e1_the_deal_starts_nine_stacks_into_the_opposite_wall() -> None:
    game = ShaanxiGame(Setup(seats=4, seed=3, carry={"dealer": 0}))
    game.dice, game.dealer = (1, 2), 0
    physical = list(range(136))

    class Dice:
        rolls = iter([2, 4])

        def randint(self, low: int, high: int) -> int:
            return next(self.rolls)

    drawn = game._arrange(physical, Dice())  # type: ignore[arg-type]
    assert (game.roller, game.skip, game.second) == (2, 9, (2, 4))
    # The 对家's wall is stacks 34-50; skipping 9 墩 the dealer starts at stack 43.
    assert drawn[0] == 2 * (17 * 2 + 9) and sorted(drawn) == physical


def test_a_hand_deals_136_tiles_13_each_and_14_to_the_dealer() -> None:
    game = SPEC.new(Setup(seats=4, seed=7, options=SPEC.validate({})))
    assert isinstance(game, ShaanxiGame)
    assert [sum(h) for h in game.hands] == [14 if s == game.dealer else 13 for s in range(4)]
    assert game.wall_left() == 136 - 53
    assert game.roller == deal_break(game.dealer, game.dice, game.second)[0]


# --- win shapes -----------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("hand", "melds", "shape"),
    [
        # the seed's five 平胡 forms, 11 + runs and triplets
        ("11m123p234p345p456s", 0, "pinghu"),
        ("11m123p123p123s111z", 0, "pinghu"),
        ("11m123p123s111z222z", 0, "pinghu"),
        ("11m123p111z222z333z", 0, "pinghu"),
        ("11m111z222z333z444z", 0, "pinghu"),
        ("11m111z", 3, "pinghu"),
        ("19m19p19s12345677z", 0, "shisanyao"),  # 十三幺, any one doubled as the pair
        ("119m19p19s1234567z", 0, "shisanyao"),
        ("2244552299m1199p", 0, "qidui"),
        ("1122334455667z", 0, None),  # 13 tiles
        ("11223344556677z", 0, "qidui"),
        ("147m258p369s12345z", 0, "quanbukao"),  # 全不靠: 9 knitted + 5 honours
        ("14m25p369s1234567z", 0, "quanbukao"),  # 7 knitted + 7 honours
        ("47m25p369s1234567z", 0, "quanbukao"),
        ("147m258p9s1234566z", 0, None),  # a pair breaks 全不靠
        ("147m258p3s1234567z", 0, "quanbukao"),
        ("147m258p8s1234567z", 0, None),  # 8s is 错位 (258 went to 筒)
        ("147s258m369p11123z", 0, None),
        ("147s258m369p11z234m", 0, "zuhelong"),  # 组合龙 + a set + a pair
        ("147m258p369s555z11s", 0, "zuhelong"),
        ("147m258p369s11z", 1, "zuhelong"),  # the set may be open
        ("147m258p369s11z", 0, None),
        ("1478m258p369s11z23m", 0, None),
    ],
)
def test_win_shapes(hand: str, melds: int, shape: str | None) -> None:
    assert win_shape(parse_hand(hand), melds) == shape


# --- 炮子 ------------------------------------------------------------------------------------------
def test_paozi_are_staked_privately_at_once_before_the_dealer_discards() -> None:
    game = sx([FA, FB, FC, "2357m1368p147s24z"], "9s", pao=())
    assert game.phase() == "paozi" and game.to_act() == (0, 1, 2, 3)
    assert game.legal_actions(2) == ["pao 0", "pao 1", "pao 2", "pao 3", "pao 4"]
    assert [c.label for c in game.choices(2)][-1] == T("mj.choice.pao", n=4)
    game.apply(2, "下炮 3")
    assert game.to_act() == (0, 1, 3)
    assert game.view(2).seats[2].role == T("mj.role.sx_pao", n=3)
    assert game.view(0).seats[2].role is None  # nobody else sees it yet
    assert game.view(None).seats[2].status == T("mj.status.pao_chosen")
    for seat in (0, 1, 3):
        game.apply(seat, "pao 1")
    assert game.phase() == "discard" and game.to_act() == (0,)
    assert game.view(None).seats[2].role == T("mj.role.sx_pao", n=3)
    assert game.view(None).seats[0].role == T("mj.role.sx_dealer_pao", n=1)


def test_paozi_default_to_last_hands_stakes_and_a_timeout_keeps_them() -> None:
    setup = Setup(seats=4, seed=1, carry={"dealer": 1, "paozi": [4, 0, 2, "x"]})
    game = ShaanxiGame(setup)
    assert [game.timeout_action(s).action for s in range(4)] == [
        "pao 4",
        "pao 0",
        "pao 2",
        "pao 0",  # an unreadable carried stake falls back to 0
    ]
    assert not game.timeout_action(0).miss
    assert game.trustee(2) == "pao 2"


@pytest.mark.parametrize(
    ("typed", "error", "key"),
    [
        ("pao 5", NotationError, "err.mj.pao"),
        ("炮子 -1", NotationError, "err.mj.pao"),
        ("que m", IllegalActionError, "err.mj.no_que"),
        ("9s", IllegalActionError, "err.mj.pao_first"),
    ],
)
def test_bad_stakes_change_nothing(typed: str, error: type[Exception], key: str) -> None:
    game = sx([FA, FB, FC, "2357m1368p147s24z"], "9s", pao=())
    before = game.to_text()
    with pytest.raises(error) as info:
        game.apply(0, typed)
    assert info.value.text.key == key  # type: ignore[attr-defined]
    assert game.to_text() == before and game.to_act() == (0, 1, 2, 3)


def test_stakes_are_closed_once_play_starts() -> None:
    game = sx([FA, FB, FC, "2357m1368p147s24z"], "9s")
    with pytest.raises(IllegalActionError) as info:
        game.apply(0, "pao 2")
    assert info.value.text.key == "err.mj.pao_done"


# --- 胡 score, 炮子 score, 庄家翻倍 -----------------------------------------------------------------
WAIT_5P = "123m456m789m123p5p"


def test_a_discard_win_takes_one_base_from_everyone_and_the_stakes() -> None:
    # Seat 1 wins on the dealer's 5p. 底分 3; 放胡 A = 1; the dealer pays the 胡 part twice.
    game = sx([FA, WAIT_5P, FC, FB], "5p", pao=(1, 2, 0, 3))
    game.apply(0, "5p")
    assert game.legal_actions(1) == ["hu", "pass"]
    game.apply(1, "hu")
    assert game.is_over() and game.winners() == [1]
    assert flows(game.outcome().transfers) == [
        (0, 1, 6),  # 胡: 1 × 3, doubled for the dealer
        (0, 1, 9),  # 炮子: (1 + 2) × 1 × 3
        (2, 1, 3),
        (2, 1, 6),  # (0 + 2) × 3
        (3, 1, 3),
        (3, 1, 15),  # (3 + 2) × 3
    ]
    # The winner's 炮子 by the seed's own formula: (2 × 3 + 1 + 0 + 3) × 1 × 3 = 30.
    assert totals(game) == (-15, 42, -9, -18)


def test_the_dealer_self_draws_two_base_doubled_and_twice_the_stakes() -> None:
    game = sx([WAIT_5P, FA, FC, FB], "5p", pao=(2, 0, 1, 4))
    assert "hu" in game.legal_actions(0)
    game.apply(0, "hu")
    # 自摸 2 × 3, doubled (dealer) = 12 from each; 炮子 (own + 2) × 2 × 3.
    assert flows(game.outcome().transfers) == [
        (1, 0, 12),
        (1, 0, 12),
        (2, 0, 12),
        (2, 0, 18),
        (3, 0, 12),
        (3, 0, 36),
    ]
    assert game.next_carry() == {"dealer": 0, "paozi": [2, 0, 1, 4]}


def test_jiehu_only_the_nearest_counter_clockwise_wins() -> None:
    # Seats 2 and 3 both wait on 5p; both call 胡 on the dealer's 5p: seat 2 is nearer.
    game = sx([FA, FB, WAIT_5P, "123s456s789s123p5p"], "5p")
    game.apply(0, "5p")
    assert game.phase() == "claim" and set(game.to_act()) == {2, 3}
    game.apply(3, "hu")
    game.apply(2, "hu")
    assert game.winners() == [2] and len(game.wins) == 1
    assert {t.payee for t in game.outcome().transfers} == {2}
    assert game.next_carry()["dealer"] == 1  # a 闲家 won: the next seat deals


def test_jiehu_passes_to_the_next_claimant_when_the_nearest_declines() -> None:
    game = sx([FA, FB, WAIT_5P, "123s456s789s123p5p"], "5p")
    game.apply(0, "5p")
    game.apply(2, "pass")
    game.apply(3, "hu")
    assert game.winners() == [3]


# --- 漏胡 -------------------------------------------------------------------------------------------
def test_louhu_blocks_the_passed_tile_only() -> None:
    # Seat 2 waits on 5p and 8p and passes the dealer's 5p: seat 1's 5p offers only 碰, but
    # seat 1's 8p may be won.
    game = sx([FA, FB, "123m456m789m55p67p", "2357m136p147s246z"], "5p5p8p")
    game.apply(0, "5p")
    assert game.legal_actions(2) == ["hu", "peng", "pass"]
    game.apply(2, "pass")
    game.apply(1, "5p")
    assert game.phase() == "claim" and game.legal_actions(2) == ["peng", "pass"]
    game.apply(2, "pass")
    assert game.to_act() == (2,)  # seat 2 drew: that lifts the block
    game.apply(2, "8p")
    assert game.phase() == "discard" and game.to_act() == (3,)


def test_louhu_lasts_until_the_seat_draws() -> None:
    game = sx([FA, FB, "123m456m789m111z5p", "2357m1368p147s24z"], "5p5p9s5p")
    game.apply(0, "5p")
    game.apply(2, "pass")
    game.apply(1, "5p")  # blocked: nobody may claim, seat 2 draws 9s
    assert game.phase() == "discard" and game.to_act() == (2,)
    game.apply(2, "9s")
    game.apply(3, "5p")
    assert game.legal_actions(2) == ["hu", "pass"]


def test_louhu_blocks_a_tile_on_a_discard_but_not_a_different_wait() -> None:
    game = sx([FA, FB, "123m456m789m55p67p", "2357m136p147s246z"], "5p8p")
    game.apply(0, "5p")
    game.apply(2, "pass")
    game.apply(1, "8p")
    assert game.legal_actions(2) == ["hu", "pass"]
    game.apply(2, "hu")
    assert game.winners() == [2]


# --- kongs ------------------------------------------------------------------------------------------
def test_kong_money_is_paid_at_once_angang_fanggang_minggang() -> None:
    hands = ["1111z2358m1369p2s", "777z1469m2478p39s", "33z1479m2468p258s", "2357m1368p147s24z"]
    game = sx(hands, "9s7z3z8s4z6z3z")
    game.apply(0, "gang 1z")  # 暗杠: 2 底分 from each other seat
    assert flows(game.settle()) == [(1, 0, 6), (2, 0, 6), (3, 0, 6)]
    assert game.melds_text(0) == "[1111z]" and game.reserve() == 2 * 7
    game.apply(0, "7z")
    assert game.legal_actions(1) == ["gang 7z", "peng", "pass"]
    game.apply(1, "gang 7z")  # 放杠: 2 底分 from the discarder
    assert flows(game.settle())[3:] == [(0, 1, 6)] and game.reserve() == 2 * 8
    game.apply(1, "3z")
    game.apply(2, "peng")
    game.apply(2, "9m")
    game.apply(3, "8s")
    game.apply(0, "4z")
    game.apply(1, "6z")
    assert game.legal_actions(2)[0] == "gang 3z"
    game.apply(2, "gang 3z")  # 明杠 (补杠): 1 底分 from each other seat
    assert flows(game.settle())[4:] == [(0, 2, 3), (1, 2, 3), (3, 2, 3)]
    assert game.reserve() == 2 * 13  # three kongs: 13 墩


def test_robbing_an_added_kong_is_a_discard_win_on_the_robbed_tile() -> None:
    # Seat 0 pengs the dealer's 5p (seat 3 passes the win on it: 漏胡 on 5p), seat 3 draws
    # (which lifts the block), then seat 0 adds the fourth 5p and seat 3 robs it.
    hands = ["55p1469m2478p39s1z", "2358m1369p147s24z", FC, "123m456m789m11z46p"]
    game = sx(hands, "5p" + "9s8s7s" + "5p", dealer=1, pao=(0, 1, 0, 2))
    game.apply(1, "5p")
    assert game.legal_actions(3) == ["hu", "pass"] and game.legal_actions(0) == ["peng", "pass"]
    game.apply(3, "pass")
    game.apply(0, "peng")
    game.apply(0, "9m")
    game.apply(1, "9s")
    game.apply(2, "8s")
    game.apply(3, "7s")
    game.apply(0, "gang 5p")
    assert game.phase() == "claim" and game.legal_actions(3) == ["hu", "pass"]
    game.apply(3, "hu")
    assert game.winners() == [3] and game.melds_text(0) == "555p"
    out = game.outcome()
    assert out.lines[0] == T(
        "mj.out.sx_qianggang", seat=4, source=1, tile=T("mj.tile.5p"), shape=T("mj.fan.pinghu")
    )
    # 放胡 rates (A = 1) from every other seat, the dealer (seat 1) paying the 胡 part twice:
    # 胡 3 / 6 / 3 and 炮子 (own + 2) × 3 = 6 / 9 / 6.
    assert out.points == (-3 - 6, -6 - 9, -3 - 6, 33)


# --- 荒庄 -------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("dealer_hand", "kongs"), [("1234z2358m1369p2s", 0), ("1111z2358m1369p2s", 1)]
)
def test_huangzhuang_at_13_or_7_stacks_and_nobody_wins_or_loses(
    dealer_hand: str, kongs: int
) -> None:
    hands = [dealer_hand, "1469m2478p39s567z", "7z1479m2468p258s3z", "2357m1368p147s24z"]
    game = sx(hands, "9s")
    if kongs:
        game.apply(0, "gang 1z")
    while not game.is_over():
        seat = game.to_act()[0]
        drawn = game.drawn
        assert game.phase() == "discard" and drawn is not None
        game.apply(seat, f"{drawn % 9 + 1}{'mpsz'[drawn // 9]}")  # throw the tile drawn
    assert game.ended == "wall" and game.wall_left() == 2 * HUANGZHUANG_STACKS[kongs]
    out = game.outcome()
    assert out.winners == () and out.lines[-1] == T("mj.out.sx_draw")
    assert out.points == ((18, -6, -6, -6) if kongs else (0, 0, 0, 0))  # kong money stays
    assert game.next_carry()["dealer"] == 0


def test_huangzhuang_table_is_the_seeds_data() -> None:
    assert HUANGZHUANG_STACKS == (13, 7, 8, 13)


# --- escape -----------------------------------------------------------------------------------------
def test_escape_pays_eight_plus_the_stakes_to_the_others() -> None:
    game = sx([FA, FB, FC, "2357m1368p147s24z"], "9s", pao=(1, 2, 0, 3))
    game.apply(0, "9s")
    game.escape(3)
    assert game.is_over() and game.ended == "escape"
    # 底分 × (8 + 3 × 3 + 1 + 2 + 0) = 60: 8 each and (3 + that seat's 炮子) × 3.
    assert flows(game.outcome().transfers) == [(3, 0, 20), (3, 1, 23), (3, 2, 17)]
    assert sum(t.points for t in game.outcome().transfers) == 3 * (8 + 3 * 3 + 1 + 2 + 0)
    assert game.next_carry() == {}  # someone left: a new game, dealer by the dice


def test_max_loss_bounds_the_worst_hand() -> None:
    assert SPEC.max_loss(SPEC.validate({}), 4) == 3 * (4 + 16 + 24)


# --- dealer --------------------------------------------------------------------------------------
def test_a_non_dealer_win_passes_the_deal_to_the_next_seat() -> None:
    game = sx([FA, WAIT_5P, FC, FB], "5p", dealer=3, pao=(0, 0, 0, 4))
    game.apply(3, "5p")
    game.apply(1, "hu")
    assert game.next_carry() == {"dealer": 0, "paozi": [0, 0, 0, 4]}
    nxt = ShaanxiGame(Setup(seats=4, seed=5, carry=game.next_carry()))
    assert nxt.dealer == 0 and nxt.timeout_action(3).action == "pao 4"
