"""武汉麻将 (000, GAMES.md §9.3): WH-E1 and WH-E2, 红中 and 癞子, 吃, 开口翻, the 2/5/8 pair, 小胡 and
大胡 scoring with the factor tables, 一炮单响, 承包, the caps, 海底 and the escape, on stacked
136-tile walls. In ``wh`` the first of ``draws`` is the dealer's 14th tile and the second is
the tile turned up for the 癞子."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

import pytest
from mj_support import flows

from bot.i18n import render
from engines.base import Setup, T
from engines.errors import IllegalActionError, OptionError
from engines.mahjong import SPECS
from engines.mahjong.fan import Meld, MeldKind
from engines.mahjong.game import stacked_wall
from engines.mahjong.props import PROP_OPTIONS
from engines.mahjong.tiles import parse_hand, parse_tile, parse_tiles, tile_name
from engines.mahjong.wuhan import Hand, WuhanGame, judge, laizi_of

SPEC = {s.key: s for s in SPECS}["wuhan"]
# Fillers: single tiles three apart in each suit (no 吃, no 碰, no win) and four honours, no 红中
# and no 北 (the 癞子 when 西 3z is turned up).
F1 = "147m258p369s1236z"
F2 = "258m369p147s1236z"
F3 = "369m147p258s1236z"
F4 = "147m258p369s1267z"
FLIP = "3z"  # 西 turned up: the 癞子 is 北 (4z)


def wh(hands: Sequence[str], draws: str, *, dealer: int = 0, koukou: bool = False) -> WuhanGame:
    setup = Setup(seats=4, seed=0, options={"koukou": koukou}, carry={"dealer": dealer})
    return WuhanGame(setup, wall=stacked_wall(hands, draws, dealer, kinds=34))


# --- WH-E1, WH-E2 ---------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("flipped", "laizi"),
    [
        ("5m", "6m"),
        ("9m", "1m"),
        ("4z", "6z"),
        ("7z", "1z"),
        ("5z", "6z"),
        ("9p", "1p"),
        ("1z", "2z"),
    ],
)
def test_wh_e2_the_wild_is_the_tile_above_the_one_turned_up(flipped: str, laizi: str) -> None:
    # "翻出五万，六万就是癞子，翻出九万，一万就是癞子…翻出北，跳过红中，发财是癞子，翻出白板，东是癞子"
    assert tile_name(laizi_of(parse_tile(flipped))) == laizi


def test_the_tile_after_the_deal_is_turned_up_and_named_to_everyone() -> None:
    game = wh([F1, F2, F3, F4], "9s" + "9m")
    assert tile_name(game.flipped) == "9m" and tile_name(game.laizi) == "1m"
    line = T("mj.line.wh_laizi", flip=T("mj.tile.9m"), laizi=T("mj.tile.1m"))
    assert all(line in game.view(v).lines for v in (None, 0, 1, 2, 3))
    census = game.census()
    assert sum(census.values()) == 136 and set(census.values()) == {4}


def test_wh_e1_capped_losses_and_the_golden_cap() -> None:
    # WH-E1: B 300, C 350, D 400 at N = 20. FLAG (3): not all three pass 300, so C and D are
    # capped at 300; each pays 300 × 20 = 6000 and the winner takes 18000 (before the rake A).
    game = wh([F1, F2, F3, F4], "9s" + FLIP)
    assert game.capped([300, 350, 400]) == [300, 300, 300]
    assert [x * 20 for x in game.capped([300, 350, 400])] == [6000, 6000, 6000]
    assert game.capped([301, 350, 400]) == [400, 400, 400]  # 金顶
    assert game.capped([64, 8, 300]) == [64, 8, 300]
    koukou = wh([F1, F2, F3, F4], "9s" + FLIP, koukou=True)
    assert koukou.capped([301, 350, 400]) == [500, 500, 500]


# --- 小胡: the worked factors ------------------------------------------------------------------------
def small_win() -> WuhanGame:
    # Seat 1 pengs the dealer's 9s, throws 1z and waits on 5s (the 2/5/8 pair); seat 2 feeds it.
    game = wh([F1, "99s456m345p678p5s1z", F2, F3], "9s" + FLIP + "5s")
    game.apply(0, "9s")
    assert game.legal_actions(1) == ["peng", "pass"]
    game.apply(1, "peng")
    game.apply(1, "1z")
    game.apply(2, "5s")
    return game


def test_a_small_win_on_a_discard_every_loser_pays_by_its_own_factors() -> None:
    game = small_win()
    assert game.legal_actions(1) == ["hu", "pass"]
    game.apply(1, "hu")
    # base 1 × winner (开口 2, 硬胡 2) = 4; the dealer ×2 (闲家胡则庄家输点×2), the discarder ×2.
    assert flows(game.outcome().transfers) == [(2, 1, 8), (3, 1, 4), (0, 1, 8)]
    assert game.outcome().points == (-8, 20, -8, -4)
    assert game.next_carry() == {"dealer": 1}  # a 闲家 won: the dealer's next seat deals


def test_winning_needs_an_opening_and_hongzhong_goes_out_as_a_kong() -> None:
    # Seat 1's hand is complete with the dealer's 9s (999s + 55s) but it never opened.
    game = wh([F1, "456m345p678p55s99s", F2, F3], "5z" + FLIP + "9s")
    assert "gang 5z" in game.legal_actions(0) and "5z" not in game.legal_actions(0)
    assert game.apply(0, "5z") == "gang 5z"  # 红中 out: 红中杠, a replacement (9s) comes
    assert game.rivers[0] == [parse_tile("5z")] and game.special[0] == 1
    assert game.to_act() == (0,) and game.factors(0) == 2
    game.apply(0, "9s")
    assert game.legal_actions(1) == ["peng", "pass"]


def test_the_pair_must_be_258_for_a_small_win() -> None:
    game = wh([F1, "99s456m345p678p3s1z", F2, F3], "9s" + FLIP + "3s")
    game.apply(0, "9s")
    game.apply(1, "peng")
    game.apply(1, "1z")
    game.apply(2, "3s")  # 33s would be the pair: not 2/5/8 and no 大胡, so nobody is asked
    assert game.phase() == "discard" and game.to_act() == (3,)


# --- 大胡 ---------------------------------------------------------------------------------------------
def test_big_wins_add_up_and_a_self_draw_is_worth_half_as_much_again() -> None:
    # 碰碰胡 + 清一色 (any pair) = base 20; 自摸 ×1.5, 开口 ×2, 硬胡 ×2; no dealer factor.
    game = wh([F1, "222s333s777s99s5s1z", F2, F3], "9s" + FLIP + "6z7z2z5s")
    game.apply(0, "9s")
    game.apply(1, "peng")
    game.apply(1, "1z")
    game.apply(2, "6z")
    game.apply(3, "7z")
    game.apply(0, "2z")
    assert game.legal_actions(1)[0] == "hu"
    game.apply(1, "hu")
    out = game.outcome()
    assert flows(out.transfers) == [(2, 1, 120), (3, 1, 120), (0, 1, 120)]
    names = [line.args.get("name") for line in out.lines[1:3]]
    assert names == [T("mj.fan.pengpeng"), T("mj.fan.qingyise")]


NINE_M = parse_tile("9m")  # a 癞子 none of these hands holds


@pytest.mark.parametrize(
    ("hand", "melds", "bigs"),
    [
        ("222s333s777s999s55s", "", ("pengpeng", "qingyise")),
        ("258m258m258p258s22s", "", ("jiangyise",)),  # 乱将: any 2/5/8 tiles
        ("1234z1234z1267z66z", "", ("fengyise",)),  # 乱风: any honours (no 红中)
        ("123m456m789m123m11m", "", ("qingyise",)),  # any pair in 清一色
        ("123m456p789s123s11m", "", None),  # 11m: neither 2/5/8 nor a 大胡
        ("123m456p789s123s22m", "", ()),  # 小胡
        ("22m", "chi:1m peng:9p peng:3s zhigang:7z", ("quanqiuren",)),
        ("11m", "chi:1m peng:9p peng:3s zhigang:7z", None),  # 全求人 needs the 2/5/8 将
        ("123m456p789s123s2m5z", "", None),  # 红中 in hand: never a win
    ],
)
def test_big_win_shapes(hand: str, melds: str, bigs: tuple[str, ...] | None) -> None:
    parsed = []
    for m in melds.split():
        kind, tile = m.split(":")
        parsed.append(Meld(MeldKind(kind), parse_tile(tile), 0))
    found = judge(parse_hand(hand), parsed, NINE_M, on_discard=True)
    assert (found.bigs if found else None) == bigs


def test_wilds_make_a_soft_win_and_two_wilds_no_small_win() -> None:
    laizi = parse_tile("4z")
    assert judge(parse_hand("123m456p789s123s2m4z"), [], laizi) == Hand((), False)  # 软胡
    assert judge(parse_hand("123m456p789s123s22m"), [], laizi) == Hand((), True)  # 硬胡
    assert judge(parse_hand("123m456p789s123s44z"), [], laizi) is None  # two 癞子: no 小胡
    # two 癞子 still make a 大胡
    assert judge(parse_hand("222s333s777s999s44z"), [], laizi) == Hand(
        ("pengpeng", "qingyise"), False
    )
    # a 癞子 that completes the hand as itself is 硬胡 (×2)
    assert judge(parse_hand("123m456p789s345s22m"), [], parse_tile("5s")) == Hand((), True)


# --- claims -------------------------------------------------------------------------------------------
def test_chi_only_from_the_seat_before_and_never_with_a_wild() -> None:
    seat2 = "35m1469p147s1236z"
    game = wh([F1, "46m13579p2468s4z1z", seat2, F3], "5m" + FLIP)
    game.apply(0, "5m")
    # seat 1 (after the dealer) may 吃 456m; seat 2 (35m) may not, it is not next.
    assert game.to_act() == (1,) and game.legal_actions(1) == ["chi 456m", "pass"]
    game.apply(1, "吃 4 5 6m")
    assert game.melds_text(1) == "456m" and game.opens[1] == 1
    status = game.view(None).seats[1].status
    assert status is not None and status.key == "mj.status.chi"
    assert render(status, "zh-CN") == "吃 四五六万" and render(status, "en-US") == "chi 456m"
    # a run through the 癞子 (4z is honours here; use 4m as the wild) is never offered
    wild = wh([F1, "46m13579p2468s7z1z", seat2, F3], "5m" + "3m")
    assert tile_name(wild.laizi) == "4m"
    wild.apply(0, "5m")
    assert wild.phase() == "discard" and wild.to_act() == (1,)


def test_peng_beats_chi() -> None:
    game = wh([F1, "46m13579p2468s4z1z", "55m1469p2578s126z", F3], "5m" + FLIP)
    game.apply(0, "5m")
    assert game.legal_actions(1) == ["chi 456m", "pass"]
    assert game.legal_actions(2) == ["peng", "pass"]
    game.apply(1, "chi 456m")
    game.apply(2, "peng")
    assert game.melds_text(2) == "555m" and game.melds_text(1) == ""
    assert game.to_act() == (2,) and game.phase() == "discard"


def test_a_wild_goes_out_as_a_kong_nobody_claims() -> None:
    game = wh([F1, F2, F3, F4], "4z" + FLIP + "9s")
    assert "gang 4z" in game.legal_actions(0) and "4z" not in game.legal_actions(0)
    game.apply(0, "4z")  # 癞子杠: out to the river, a replacement comes, no claim window
    assert game.phase() == "discard" and game.to_act() == (0,) and game.special[0] == 1
    assert game.status[0] == T("mj.status.wh_laizi", tile=T("mj.tile.4z"))


ONE_SHOT = [F1, F2, "99s456m345p678p5s7z", "77z456m345p678s5s2z"]


@pytest.mark.parametrize(("answers", "winner"), [(("hu", "hu"), 2), (("pass", "hu"), 3)])
def test_one_winner_the_nearest_from_the_discarder(answers: tuple[str, str], winner: int) -> None:
    # Seats 2 and 3 open with 碰 and both wait on 5s; seat 1 throws it.
    game = wh(ONE_SHOT, "9s" + FLIP + "6z5s")
    game.apply(0, "9s")
    game.apply(2, "peng")
    game.apply(2, "7z")
    game.apply(3, "peng")
    game.apply(3, "2z")
    game.apply(0, "6z")
    game.apply(1, "5s")
    assert set(game.to_act()) == {2, 3}
    game.apply(3, answers[1])
    game.apply(2, answers[0])
    assert game.winners() == [winner] and len(game.wins) == 1


def test_passing_a_win_does_not_block_the_next_discard() -> None:
    game = wh(ONE_SHOT, "9s" + FLIP + "6z5s5s")
    game.apply(0, "9s")
    game.apply(2, "peng")
    game.apply(2, "7z")
    game.apply(3, "peng")
    game.apply(3, "2z")
    game.apply(0, "6z")
    game.apply(1, "5s")
    game.apply(2, "pass")
    game.apply(3, "pass")
    game.apply(2, "5s")  # seat 2 drew the last 5s and throws it: seat 3 has not drawn since
    assert game.legal_actions(3) == ["hu", "chi 567s", "pass"]
    game.apply(3, "hu")
    assert game.winners() == [3]


# --- 海底 ----------------------------------------------------------------------------------------------
def haidi_game(last: str) -> WuhanGame:
    """Seat 1 opens (碰 8p) and waits on 7z for 碰碰胡; 68 ordinary draws, then the four 海底
    tiles (seat 1 draws the fourth, ``last``); 红中, 癞子 and two 7z are the 10 never drawn."""
    hands = [F1, "999s222m333p7z1z88p", F2, F3]
    reserve = parse_tiles("4444z5555z77z")
    fixed = Counter(t for h in hands for t in parse_tiles(h))
    fixed.update(parse_tiles("8p" + FLIP + last))
    fixed.update(reserve)
    pool = Counter(t for t in range(34) for _ in range(4))
    pool.subtract(fixed)
    safe = sorted(pool.elements())
    assert len(safe) == 68 + 3
    wall = parse_tiles("8p" + FLIP) + safe + parse_tiles(last) + reserve
    game = wh(hands, "".join(tile_name(t) for t in wall))
    game.apply(0, "8p")
    game.apply(1, "peng")
    game.apply(1, "1z")
    while not game.haidi and not game.is_over():
        if game.phase() == "claim":
            for s in game.to_act():
                game.apply(s, "pass")
        else:
            drawn = game.drawn
            assert drawn is not None
            game.apply(game.to_act()[0], tile_name(drawn))
    return game


def test_haidi_the_last_four_draws_may_only_be_won_on() -> None:
    game = haidi_game("7z")
    assert game.haidi and game.to_act() == (1,) and game.wall_left() == 10
    assert game.legal_actions(1) == ["hu", "pass"] and game.picker(1) is None
    with pytest.raises(IllegalActionError) as info:
        game.apply(1, "7z")
    assert info.value.text.key == "err.mj.haidi"
    game.apply(1, "hu")
    # 碰碰胡 + 海底捞 = base 20; × 开口 2 × 硬胡 2 × 自摸 1.5 = 120 from each.
    assert game.outcome().points == (-120, 360, -120, -120)


def test_haidi_without_a_win_is_a_drawn_hand_nobody_pays() -> None:
    game = haidi_game("7z")
    game.apply(1, "pass")
    assert game.ended == "wall" and game.wall_left() == 10
    assert game.outcome().points == (0, 0, 0, 0) and game.next_carry() == {"dealer": 0}


# --- 承包 ------------------------------------------------------------------------------------------------
def test_chengbao_the_robbed_kong_pays_all_three() -> None:
    game = wh([F1, F2, F3, F4], "9s" + FLIP)
    reading = Hand(("qianggang",), True)
    assert game._liable(2, reading, 1, True) == 1
    reading = Hand(("quanqiuren",), True)
    # (1) the feeder pays for 全求人 only when not ready: F2 is far from ready.
    assert not game.ready(1) and game._liable(2, reading, 1, False) == 1
    # (2) 清一色: whoever gave the third opening.
    game.open_sources[2] = [3, 0, 1, 3]
    assert game._liable(2, Hand(("qingyise",), True), None, False) == 1
    assert game._liable(2, Hand(("pengpeng",), True), 3, False) is None


# --- escape -----------------------------------------------------------------------------------------------
@pytest.mark.parametrize(("koukou", "shares"), [(False, [134, 133, 133]), (True, [167, 167, 166])])
def test_escape_costs_400_or_500_shared_by_the_others(koukou: bool, shares: list[int]) -> None:
    game = wh([F1, F2, F3, F4], "9s" + FLIP, koukou=koukou)
    game.escape(1)
    assert game.ended == "escape"
    expected = [(1, s, x) for s, x in zip((2, 3, 0), shares, strict=True)]
    assert flows(game.outcome().transfers) == expected
    assert game.next_carry() == {}


def test_options_and_max_loss() -> None:
    assert SPEC.validate({"koukou": True}) == {**PROP_OPTIONS, "koukou": True}
    with pytest.raises(OptionError):
        SPEC.validate({"koukou": 1})
    assert SPEC.max_loss(SPEC.validate({}), 4) == 1200
    assert SPEC.max_loss(SPEC.validate({"koukou": True}), 4) == 1500


def test_robbing_an_added_kong_makes_the_robbed_seat_pay_for_all_three() -> None:
    # Seat 2 opens (碰 9s) and waits on 3s/6s with 22m; seat 3 pengs the dealer's 3s (seat 2
    # lets it go), later draws the fourth 3s and adds it to the 碰: seat 2 robs it.
    hands = [F1, F2, "99s456m345p22m45s7z", "33s147m258p8s1267z"]
    game = wh(hands, "9s" + FLIP + "6z2s" + "7z1s6p" + "3s")
    game.apply(0, "9s")
    game.apply(2, "peng")
    game.apply(2, "7z")
    game.apply(3, "6z")
    game.apply(0, "3s")
    assert game.legal_actions(2) == ["hu", "pass"] and game.legal_actions(3) == ["peng", "pass"]
    game.apply(2, "pass")
    game.apply(3, "peng")
    game.apply(3, "1z")
    game.apply(0, "7z")
    game.apply(1, "1s")
    game.apply(2, "6p")
    game.apply(3, "gang 3s")
    assert game.phase() == "claim" and game.legal_actions(2) == ["hu", "pass"]
    game.apply(2, "hu")
    out = game.outcome()
    # 抢杠: base 10 × winner (开口 2, 硬胡 2); the robbed seat (开口 2) ×1.5 as the feeder.
    assert flows(out.transfers) == [(3, 2, 120), (3, 2, 40), (3, 2, 40)]
    assert out.points == (0, 0, 200, -200) and T("mj.out.wh_chengbao", seat=4) in out.lines
    assert game.melds_text(3) == "333s"
