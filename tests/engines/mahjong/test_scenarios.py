"""Hands played from stacked walls: the seeds' worked examples (XZ-E1…E5, SC-E1) in points,
claim windows, kongs and their money, 抢杠胡, 一炮多响 with 呼叫转移, 过手胡, the last four
tiles, 流局 (查花猪, 查大叫, refunds), escapes and the next dealer."""

from __future__ import annotations

import pytest
from mj_support import SEAT0, SEAT2, SEAT3, flows, play, stacked

from engines.base import T
from engines.mahjong import MahjongGame, XuezhanGame, stacked_wall
from engines.mahjong.rules import max_loss_xuezhan
from engines.mahjong.tiles import tile_name
from bot.host.model import private_digest

# The first round of the scenarios: seat 0 deals and throws its 14th tile 9条, seat 1 draws and
# throws 8万, seat 2 8条, seat 3 6万, seat 0 7条; seat 1's next draw is the tile under test.
ROUND = ("0:9s", "1:8m", "2:8s", "3:6m", "0:7s")


def beans(points: int, room: int) -> int:
    """Beans for points in a room (the host multiplies by the room coefficient N)."""
    return points * room


def test_xz_e1_self_draw_3_fan_costs_each_loser_8() -> None:
    """XZ-E1: room 10, A 自摸 3番 → each loser 10×8 = 80, A 240."""
    g = stacked("111p222p333p444p5p", "9s8m8s6m7s5p")
    play(g, *ROUND)
    assert g.legal_actions(1)[0] == "hu" and g.view(1).hand == "1112223334445p 5p"
    g.apply(1, "hu")
    assert g.wins[0].fan.items == (("zimo", 0), ("qingdui", 3)) and g.wins[0].fan.multiple == 8
    assert flows(g.settle()) == [(0, 1, 8), (2, 1, 8), (3, 1, 8)]
    assert [beans(t.points, 10) for t in g.settle()] == [80, 80, 80]
    assert beans(sum(t.points for t in g.settle()), 10) == 240
    # 血战: the hand goes on; the seat after the winner draws.
    assert not g.is_over() and g.to_act() == (2,) and g.phase() == "discard"
    assert T("mj.line.won", seat=2, fan=3, how=T("mj.how.zimo")) in g.view(None).lines


def test_xz_e2_self_draw_2_fan_costs_each_loser_4() -> None:
    """XZ-E2: room 10, 自摸 2番 (清一色) → each loser 40, A 120."""
    g = stacked("1122335566799p", "9s8m8s6m7s4p")
    play(g, *ROUND, "1:hu")
    assert g.wins[0].fan.items == (("zimo", 0), ("qingyise", 2))
    assert flows(g.settle()) == [(0, 1, 4), (2, 1, 4), (3, 1, 4)]
    assert sum(beans(t.points, 10) for t in g.settle()) == 120


def test_xz_e3_a_0_fan_discard_costs_only_the_discarder_1() -> None:
    """XZ-E3: B feeds A a 0番 win → B −10, A +10, the others pay nothing."""
    g = stacked("234p567p5p234s678s", "9s8m5p")
    play(g, "0:9s", "1:8m", "2:5p")
    assert g.to_act() == (1,) and g.legal_actions(1) == ["hu", "peng", "pass"]
    g.apply(1, "hu")
    assert g.wins[0].fan.items == (("sufan", 0),) and g.wins[0].fan.multiple == 1
    assert flows(g.settle()) == [(2, 1, 1)]


def test_the_pair_cap_counts_kong_money_and_cuts_a_later_win() -> None:
    """At most 24 points from one payer to one payee (a 1-point room); kong money counts
    towards it. Seat 1 暗杠s 1筒 (2 from each) and wins on the replacement: 清对 3 + 根 1 +
    杠上花 1 = 5, counted as 3番 (8). With the cap lowered to 9 the win is cut to 7."""
    assert max_loss_xuezhan({}, 4) == 72
    for cap, win in ((24, 8), (9, 7)):
        g = stacked("1111p222p333p44p5p", "9s4p5p", options={"pair_cap": cap})
        play(g, "0:9s")
        assert "gang 1p" in g.legal_actions(1)
        play(g, "1:gang 1p", "1:hu")
        fan = g.wins[0].fan
        assert fan.items == (("zimo", 0), ("qingdui", 3), ("gen", 1), ("gangshanghua", 1))
        assert fan.raw == 5 and fan.fan == 3
        assert flows(g.settle()) == [
            (0, 1, 2),
            (2, 1, 2),
            (3, 1, 2),
            (0, 1, win),
            (2, 1, win),
            (3, 1, win),
        ]
    assert max_loss_xuezhan({"pair_cap": 0}, 4) is None


# XZ-E4, played: the dealer (seat 0, 万 筒 条) throws 1p, 2p, 3p and 4p one after the other into
# seat 1's four triplets (four 直杠, 2 each = 8), then 5p for seat 1's single wait (清对 + 4 根,
# capped at 3番 = 8); the others (万 and 条 only, never ready) and then everyone throw what they
# draw until the wall is empty, and the dealer, still holding three suits, is the 花猪 (8 to each
# other seat). Seat 0 → seat 1: 8 + 8 + 8 = 24, the cap.
XZ_E4_HANDS = ["12345p6p13579m13s", "111p222p333p444p5p", "1245689m124568s", "123579m1345789s"]
XZ_E4_DRAWS = "2m" + "2s4m4s6m" + "6s8m8s7s" + "9s2m2s4m" + "4s6m6s8m"


def play_xz_e4(pair_cap: int) -> XuezhanGame:
    g = stacked("", XZ_E4_DRAWS, hands=XZ_E4_HANDS, ques=None, options={"pair_cap": pair_cap})
    assert isinstance(g, XuezhanGame)
    for tile in ("1p", "2p", "3p", "4p"):
        g.apply(0, tile)
        assert f"gang {tile}" in g.legal_actions(1)
        g.apply(1, f"gang {tile}")
        for seat in (1, 2, 3):  # each throws the tile it drew (a kong's replacement for seat 1)
            assert g.to_act() == (seat,) and g.drawn is not None
            g.apply(seat, tile_name(g.drawn))
    play(g, "0:5p", "1:hu")
    assert g.wins[0].fan.items == (("qingdui", 3), ("gen", 4)) and g.wins[0].fan.fan == 3
    while not g.is_over():
        seat = g.to_act()[0]
        assert g.phase() == "discard" and g.drawn is not None  # nobody can claim anything
        g.apply(seat, tile_name(g.drawn))
    assert g.ended == "wall" and [g.is_huazhu(s) for s in range(4)] == [True, False, False, False]
    return g


def test_xz_e4_four_kongs_a_full_win_and_a_pig_reach_the_cap_of_24() -> None:
    """XZ-E4: "cap 24 = 8 + four 直杠 8 + 花猪/呼叫转移 8" in a 1-point room."""
    g = play_xz_e4(24)
    assert flows(g.outcome().transfers) == [
        (0, 1, 2), (0, 1, 2), (0, 1, 2), (0, 1, 2),  # four 直杠 (刮风), at once
        (0, 1, 8),  # 点炮, 3番
        (0, 1, 8), (0, 2, 8), (0, 3, 8),  # 查花猪
    ]
    paid = sum(t.points for t in g.outcome().transfers if (t.payer, t.payee) == (0, 1))
    assert paid == 24 == max_loss_xuezhan({}, 4) // 3
    # A lower cap cuts what comes last: the 花猪 money to seat 1 (20 − 16 = 4).
    assert flows(play_xz_e4(20).outcome().transfers)[5:] == [(0, 1, 4), (0, 2, 8), (0, 3, 8)]


def test_sc_e1_classic_self_draw_18_from_each_of_three() -> None:
    """SC-E1 (000) as resolved: X = base × 2^(番−1). Its figures (each loser 18, the winner 54,
    N = 200 → 3600 and 10800 before the rake) come from a 对对胡 自摸 with base 9."""
    g = stacked("111p222p444s666s5p", "9s8m8s6m7s5p", key="sichuan", options={"base": 9})
    play(g, *ROUND, "1:hu")
    assert g.is_over()  # the classic hand ends at the first win
    out = g.outcome()
    assert g.wins[0].fan.items == (("duidui", 2),)
    assert out.points == (-18, 54, -18, -18) and out.winners == (1,)
    assert [beans(p, 200) for p in out.points] == [-3600, 10800, -3600, -3600]


# --- claim windows ---------------------------------------------------------------------------
NO5P = "13579m13579s28p9p"  # seat 0 without its 5筒
KONG_HANDS = ["1111m3579m1378s9p", "111p222p333p444p5p", "24668m2468s9s179p", "234s567s789s4666p"]


def test_two_win_on_the_discard_after_a_kong_and_each_takes_the_kong_money() -> None:
    """一炮多响 on a 杠上炮: both winners are paid by the discarder alone, each gets +1番 and
    a full copy of the kong's income (呼叫转移)."""
    g = stacked("", "5p2m", hands=KONG_HANDS, ques="pmmm")
    assert g.to_act() == (0,) and "gang 1m" in g.legal_actions(0)
    play(g, "0:gang 1m")
    assert flows(g.settle()) == [(1, 0, 2), (2, 0, 2), (3, 0, 2)]  # 下雨 paid at once
    assert g.view(0).hand == "3579m59p1378s 2m"  # the replacement tile apart
    window = g.window()
    before = [private_digest(g, s) for s in range(4)]
    play(g, "0:5p")
    assert g.phase() == "claim" and g.to_act() == (1, 3) and g.public_to_act() == ()
    assert g.view(None).phase == T("base.window.private", phase=T("mj.phase.claims"))
    # the claimants' DMs offer the claim; seat 2, who may not claim, sees nothing new
    assert [private_digest(g, s) != before[s] for s in (1, 2, 3)] == [True, False, True]
    assert g.window() != window
    window = g.window()
    assert g.timeout_action(1).action == "pass" and not g.timeout_action(1).miss
    assert [c.action for c in g.choices(3)] == ["hu", "pass"]
    play(g, "3:hu")
    assert g.window() == window and g.to_act() == (1,)  # one deadline for the whole window
    play(g, "1:hu")
    assert [(w.seat, w.fan.fan) for w in g.wins] == [(1, 3), (3, 1)]
    assert ("gangshangpao", 1) in g.wins[0].fan.items
    assert flows(g.settle())[3:] == [(0, 1, 8), (0, 1, 6), (0, 3, 2), (0, 3, 6)]
    assert g.to_act() == (0,)  # the seat after the last winner draws next


def test_win_beats_peng_and_a_passed_win_blocks_until_the_next_draw() -> None:
    """胡 > 碰; 过手胡 (002): after passing a win, no win on a discard until one's own draw."""
    hands = [NO5P, "234p678p5p234s678s", SEAT2, "13579m13579s55p9p"]
    g = stacked("", "9s8m5p", hands=hands, ques="pmms")
    play(g, "0:9s", "1:8m", "2:5p")
    assert g.to_act() == (1, 3)
    assert g.legal_actions(3) == ["peng", "pass"]
    play(g, "3:peng", "1:pass")  # the only 胡 passed: the 碰 stands
    assert g.to_act() == (3,) and g.melds_text(3) == "555p"
    assert 1 in g.blocked
    play(g, "3:9p")
    assert g.to_act() == (0,)
    g2 = stacked("", "9s8m5p", hands=hands, ques="pmms")
    play(g2, "0:9s", "1:8m", "2:5p", "1:hu", "3:peng")
    assert g2.wins[0].seat == 1 and g2.melds[3] == []  # the 碰 lost to the 胡


@pytest.mark.parametrize(("key", "offered"), [("xuezhan", False), ("sichuan", True)])
def test_guoshou_only_in_blood_battle(key: str, offered: bool) -> None:
    hands = [NO5P, "234p567p5p234s678s", SEAT2, SEAT3]
    g = stacked("", "9s8m5p5p", key=key, hands=hands)
    play(g, "0:9s", "1:8m", "2:5p", "1:pass")
    play(g, "3:5p")
    assert g.to_act() == (1,)  # it may still 碰
    assert ("hu" in g.legal_actions(1)) is offered


def test_robbing_an_added_kong() -> None:
    """抢杠胡: the 补杠 is cancelled (no kong money), the robber is paid by the konger, +1番."""
    hands = [SEAT0, "111p222p333p44s56s", SEAT2, "13579m771389s89p"]
    g = stacked("", "6m5m8m3m7s", hands=hands)
    play(g, "0:7s")
    assert g.to_act() == (1, 3)
    play(g, "1:pass", "3:peng", "3:1m", "0:5m", "1:8m", "2:3m")
    assert g.to_act() == (3,) and "gang 7s" in g.legal_actions(3)
    play(g, "3:gang 7s")
    assert g.phase() == "claim" and g.to_act() == (1,) and g.public_to_act() == ()
    assert T("mj.line.bugang", seat=4, tile=T("mj.tile.7s")) in g.view(None).lines
    play(g, "1:hu")
    assert g.wins[0].fan.items == (("sufan", 0), ("qianggang", 1))
    assert flows(g.settle()) == [(3, 1, 2)]
    assert g.melds_text(3) == "777s"  # still a 碰
    assert sum(g.census().values()) == 108


def test_an_added_kong_nobody_can_rob_is_paid_by_every_other_seat() -> None:
    hands = [SEAT0, "111p222p333p44s59s", SEAT2, "13579m771389s89p"]
    g = stacked("", "6m5m8m3m7s", hands=hands)
    play(g, "0:7s", "3:peng", "3:1m", "0:5m", "1:8m", "2:3m", "3:gang 7s")
    assert flows(g.settle()) == [(0, 3, 1), (1, 3, 1), (2, 3, 1)]
    assert g.melds_text(3) == "7777s" and g.to_act() == (3,)


# --- the end of the wall ----------------------------------------------------------------------
DRAW_HANDS = [SEAT0, "123p456p789p123s5s", "2222m5668m24568s", "1356789m134579s"]


def run_out(g: MahjongGame) -> None:
    """Everyone throws what they draw and passes every claim; seat 2 暗杠s its 2万."""
    while not g.is_over():
        seat = g.to_act()[0]
        if g.phase() == "claim":
            g.apply(seat, "pass")
        elif seat == 2 and "gang 2m" in g.legal_actions(2):
            g.apply(2, "gang 2m")
        else:
            assert g.drawn is not None
            g.apply(seat, tile_name(g.drawn))


def test_the_draw_checks_pigs_and_calls_and_refunds_kong_money_classic() -> None:
    """流局 (000): 花猪 (seat 1, still holding its 缺 suit) pays 16×6 to every other seat; the
    unready seats pay the ready seat its best 番 (平胡, 6) and the unready konger refunds."""
    g = stacked("", "", hands=DRAW_HANDS, key="sichuan", ques="pmpp")
    run_out(g)
    assert g.ended == "wall" and g.wall_left() == 0
    out = g.outcome()
    assert flows(out.transfers) == [
        (0, 2, 12),
        (1, 2, 12),
        (3, 2, 12),  # 暗杠 2万: 下雨 2×6 from each
        (0, 1, 96),
        (0, 2, 96),
        (0, 3, 96),  # 查花猪 16×6
        (2, 1, 6),
        (3, 1, 6),  # 查大叫: seat 1 is ready, 平胡
        (2, 0, 12),
        (2, 1, 12),
        (2, 3, 12),  # seat 2 unready: refunds its kong
    ]
    assert out.points == (-288, 108, 90, 90) and sum(out.points) == 0
    assert T("mj.out.draw") in out.lines


def test_the_draw_in_blood_battle_pays_3_fan_for_a_pig() -> None:
    g = stacked("", "", hands=DRAW_HANDS, ques="pmpp")
    run_out(g)
    assert flows(g.outcome().transfers)[3:6] == [(0, 1, 8), (0, 2, 8), (0, 3, 8)]


def test_the_last_four_tiles_win_by_themselves() -> None:
    """最后四张: a ready seat whose tile appears among the last four must win."""
    hands = [SEAT0, "123p456p789p123s5s", "2222m5668m24568s", "1356789m134279s"]
    wall = stacked_wall(hands, "")
    five = max(i for i, t in enumerate(wall) if t == 22)  # the 5条 left in the wall
    wall.insert(104, wall.pop(five))
    from engines.base import Setup

    g = MahjongGame(
        Setup(seats=4, seed=0, options={"dingque": True}, carry={"dealer": 0}), wall=wall
    )
    for seat, suit in enumerate("pmpp"):
        g.apply(seat, f"que {suit}")
    run_out(g)
    assert g.ended == "win" and g.wins[0].seat == 1 and g.wins[0].tile == 22
    assert (1, "hu") not in g.log  # nobody asked: 自动胡


# --- escapes ------------------------------------------------------------------------------------
def test_classic_escape_ends_the_hand_with_16_times_to_each_other_seat() -> None:
    g = stacked("111p222p333p444p5p", "9s8m8s6m7s5p", key="sichuan")
    play(g, "0:9s")
    g.escape(2)
    assert g.is_over() and g.ended == "escape"
    assert flows(g.outcome().transfers) == [(2, 0, 96), (2, 1, 96), (2, 3, 96)]


def test_blood_escape_is_trustee_play_and_an_escaped_winner_forfeits_its_winnings() -> None:
    g = stacked("111p222p333p444p5p", "9s8m8s6m7s5p")
    play(g, *ROUND, "1:hu")
    g.escape(1)
    assert not g.is_over() and g.settle() == []
    g.escape(3)
    assert not g.is_over() and 3 in g.escaped
    while not g.is_over():
        seat = g.to_act()[0]
        g.apply(seat, g.trustee(seat))
    kong_money = {"mj.pay.angang", "mj.pay.bugang", "mj.pay.zhigang"}
    for t in g.outcome().transfers:
        if t.payee in (1, 3):  # escaped seats collect only kong money
            assert t.reason is not None and t.reason.key in kong_money, t


# --- dealers ---------------------------------------------------------------------------------
E5_HANDS = ["123m456m789m11s23s", "111p222p333p444p5p", "24668m2468s6789p", "234m567m11s56s789s"]


def test_xz_e5_the_first_winner_deals_next() -> None:
    """XZ-E5 (1): D deals, A wins first, then B feeds C and D at once → A deals next."""
    g = stacked("", "9p8m5m9m7p5p4s", hands=E5_HANDS, ques="pmmp")
    play(g, "0:9p", "1:8m", "2:5m", "3:9m", "0:7p", "1:hu")
    play(g, "2:4s")
    assert g.to_act() == (0, 3)
    play(g, "0:hu", "3:hu")
    assert g.is_over() and g.winners() == [1, 3, 0]
    assert g.next_carry() == {"dealer": 1}


def test_a_first_win_on_one_discard_by_two_makes_the_discarder_deal() -> None:
    g = stacked("", "9p8m4s", hands=E5_HANDS, ques="pmmp")
    play(g, "0:9p", "1:8m", "2:4s", "0:hu", "3:hu")
    assert g.next_carry() == {"dealer": 2}


def test_classic_dealer_is_the_discarder_or_the_self_drawer_and_stays_on_a_draw() -> None:
    g = stacked("234p567p5p234s678s", "9s8m5p", key="sichuan")
    play(g, "0:9s", "1:8m", "2:5p", "1:hu")
    assert g.next_carry() == {"dealer": 2}
    g = stacked("111p222p444s666s5p", "9s8m8s6m7s5p", key="sichuan")
    play(g, *ROUND, "1:hu")
    assert g.next_carry() == {"dealer": 1}
    g = stacked("", "", hands=DRAW_HANDS, key="sichuan", ques="pmpp", dealer=0)
    run_out(g)
    assert g.next_carry() == {"dealer": 0}
    assert (
        stacked(
            "", "", hands=DRAW_HANDS, key="sichuan", options={"blood": True}, ques="pmpp"
        ).next_carry()
        == {}
    )


def test_a_carried_dealer_deals_and_bad_carry_falls_back_to_the_dice() -> None:
    from engines.base import Setup

    assert XuezhanGame(Setup(seats=4, seed=3, carry={"dealer": 2})).dealer == 2
    g = XuezhanGame(Setup(seats=4, seed=3, carry={"dealer": 9}))
    assert g.dealer == (sum(g.dice) - 1) % 4


LATE_HANDS = ["13579m13579s789p", "1111222233557p", "2222m5668m2468s7p", "1356789m13479s7p"]


@pytest.mark.parametrize(
    ("escaper", "expected"),
    [
        # Seat 1 is ready on a dead 7筒 with 青龙七对 + 根 (7番 → 6×64 = 384): more than 3 × 96.
        (3, [(3, 1, 384)]),
        # Nobody else is ready: the 16倍 penalty to each other seat still playing.
        (1, [(1, 0, 96), (1, 2, 96), (1, 3, 96)]),
    ],
)
def test_classic_escape_in_the_last_four_tiles_pays_the_higher_of_the_two(
    escaper: int, expected: list[tuple[int, int, int]]
) -> None:
    g = stacked("", "", hands=LATE_HANDS, key="sichuan", ques="pmpp")
    while g.wall_left() > 3:
        seat = g.to_act()[0]
        if g.phase() == "claim":
            g.apply(seat, "pass")
        elif seat == 2 and "gang 2m" in g.legal_actions(2):
            g.apply(2, "gang 2m")
        else:
            assert g.drawn is not None
            g.apply(seat, tile_name(g.drawn))
    g.escape(escaper)
    assert g.ended == "escape"
    assert flows(g.outcome().transfers) == [(0, 2, 12), (1, 2, 12), (3, 2, 12), *expected]


def test_classic_blood_mode_goes_on_after_a_win() -> None:
    g = stacked("111p222p444s666s5p", "9s8m8s6m7s5p", key="sichuan", options={"blood": True})
    play(g, *ROUND, "1:hu")
    assert not g.is_over() and g.to_act() == (2,)
    assert flows(g.settle()) == [(0, 1, 12), (2, 1, 12), (3, 1, 12)]


def test_every_private_picture_is_refreshed_when_dingque_ends_and_when_a_claim_window_closes() -> None:
    # A bug found in play: the dealer's DM kept "waiting for 定缺" after the last choice, and a
    # claimant's DM kept its claim buttons after the window closed.
    from engines.base import Setup
    from engines.mahjong import SPECS

    spec = next(s for s in SPECS if s.key == "xuezhan")
    game = spec.new(Setup(seats=4, seed=618, options=spec.validate({"dingque": True})))
    for seat in range(4):
        before = [private_digest(game, s) for s in range(4)]
        game.apply(seat, game.trustee(seat))
    assert game.phase() == "discard"
    dealer = game.to_act()[0]  # its DM no longer waits: it discards
    assert private_digest(game, dealer) != before[dealer]
    for _ in range(2000):  # play on until a claim window closes
        if game.is_over():
            break
        acting = game.to_act()
        claimants = [s for s in acting if game.public_to_act() == ()]
        before = [private_digest(game, s) for s in range(4)]
        for seat in acting:
            if seat in game.to_act():
                game.apply(seat, game.trustee(seat))
        if claimants:
            assert all(private_digest(game, s) != before[s] for s in claimants)
            break
    else:
        raise AssertionError("no claim window in the hand")


# --- 地胡 (issue 23) ---------------------------------------------------------------------------
# 002 "閑家摸第一張牌即胡牌…如果莊家打出一張牌后，就有閑家胡牌了，算地胡": a 闲家's own first draw or
# the 庄's first discard. Seat 2 waits on 5p (234p567p5p234s678s, 平胡) and has not discarded yet.
EARTH = "234p567p5p234s678s"
NO_CLAIM = "24568m24568s679p"


def test_a_win_on_another_idle_seats_first_discard_is_no_earth_hand() -> None:
    """A bug found in play: 四川 scored this 地胡 (6番, 192 points) instead of 平胡's 6."""
    g = stacked("", "9s5p", key="sichuan", hands=[SEAT0, NO_CLAIM, EARTH, SEAT3], ques="pmmp")
    play(g, "0:9s", "1:5p")
    assert g.legal_actions(2) == ["hu", "peng", "pass"]
    g.apply(2, "hu")
    assert g.wins[0].fan.items == (("pinghu", 1),)
    assert g.outcome().points == (0, -6, 6, 0)


@pytest.mark.parametrize(("key", "items"), [
    ("sichuan", (("dihu", 6),)),
    ("xuezhan", (("sufan", 0), ("dihu", 4))),
])
def test_a_win_on_the_dealers_first_discard_is_an_earth_hand(
    key: str, items: tuple[tuple[str, int], ...]
) -> None:
    g = stacked("", "5p", key=key, hands=[SEAT0, NO_CLAIM, EARTH, SEAT3], ques="pmmp")
    play(g, "0:5p", "2:hu")
    assert g.wins[0].fan.items == items


def test_a_self_draw_on_an_idle_seats_first_draw_is_an_earth_hand() -> None:
    g = stacked("", "9s8m5p", key="sichuan", hands=[SEAT0, NO_CLAIM, EARTH, SEAT3], ques="pmmp")
    play(g, "0:9s", "1:8m", "2:hu")
    assert g.wins[0].fan.items == (("dihu", 6),)
    assert g.outcome().points == (-192, -192, 576, -192)
