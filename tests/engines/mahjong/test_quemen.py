"""缺一门 (issue 23): 四川麻将 and 血战到底 follow the seeds by default — a win may not hold three
suits (000 "胡牌的时候不能有三种花色的牌", 002 "必須缺一門才可以胡牌"), and a 花猪 is a seat "手上拿
着3门牌" — with no suit chosen in advance; 定缺 (the later client's custom) is the room option
``dingque``."""

from __future__ import annotations

import pytest
from mj_support import SEAT0, SEAT2, SEAT3, flows, play, stacked

from engines.base import Setup, T
from engines.errors import IllegalActionError, OptionError
from engines.mahjong import SPECS, MahjongGame, XuezhanGame
from engines.mahjong.ai import choose

SPEC = {s.key: s for s in SPECS}
NO_TIAO = "123456789m1235p"  # the hand: 万 and 筒, no 条; waits on 5p (and 4p)


@pytest.mark.parametrize("key", ["sichuan", "xuezhan"])
def test_by_default_there_is_no_dingque_and_the_dealer_starts(key: str) -> None:
    spec = SPEC[key]
    game = spec.new(Setup(seats=4, seed=11, options=spec.validate({})))
    assert isinstance(game, MahjongGame)
    assert game.phase() == "discard" and game.to_act() == (game.dealer,)
    before = game.to_text(), game.view(None)
    with pytest.raises(IllegalActionError) as info:
        game.apply(game.to_act()[0], "que m")
    assert info.value.text == T("err.mj.que_off")
    assert (game.to_text(), game.view(None)) == before
    with_option = spec.new(Setup(seats=4, seed=11, options=spec.validate({"dingque": True})))
    assert with_option.phase() == "dingque" and with_option.to_act() == (0, 1, 2, 3)


def test_the_option_is_checked() -> None:
    with pytest.raises(OptionError):
        SPEC["xuezhan"].validate({"dingque": "yes"})
    with pytest.raises(OptionError):
        SPEC["wuhan"].validate({"dingque": True})


def no_tiao(ques: str | None) -> XuezhanGame:
    """Seat 0 throws 9s, seat 1 draws and throws 9s, seat 2 throws the 5p it draws."""
    game = stacked(NO_TIAO, "9s9s5p", ques=ques)
    assert isinstance(game, XuezhanGame)
    play(game, "0:9s", "1:9s", "2:5p")
    return game


def test_a_hand_of_two_suits_wins_whichever_suits_they_are() -> None:
    game = no_tiao(None)
    assert game.legal_actions(1) == ["hu", "pass"]
    game.apply(1, "hu")
    assert game.winners() == [1] and flows(game.settle()) == [(2, 1, 1)]
    # Under the room option 定缺 the seat that named 万 cannot: the QQ client's custom.
    assert no_tiao("pmmp").phase() == "discard"


# Seat 1 holds 万, 筒 and 条: 44m 234p 567p 23s 678s. Seat 2 throws its 4m.
THREE_SUITS = "44m234p567p23s678s"


def test_a_claim_of_any_suit_is_allowed() -> None:
    game = stacked(THREE_SUITS, "9s9p1p", ques=None)
    play(game, "0:9s", "1:9p", "2:4m")
    assert game.phase() == "claim" and game.legal_actions(1) == ["peng", "pass"]
    game.apply(1, "peng")
    assert game.melds_text(1) == "444m"
    # With 定缺 万 the 碰 is refused (it is not even offered).
    dingque = stacked(THREE_SUITS, "9s9p1p", ques="pmmp")
    play(dingque, "0:9s", "1:9p", "2:4m")
    assert dingque.phase() == "discard" and dingque.to_act() == (3,)


DRAW_HANDS = [SEAT0, "123p456p789p123s5s", "2222m5668m24568s", "1356789m134579s"]


def run_out(game: XuezhanGame) -> None:
    """Everyone throws what they draw and passes every claim."""
    while not game.is_over():
        seat = game.to_act()[0]
        if game.phase() == "claim":
            game.apply(seat, "pass")
        else:
            assert game.drawn is not None
            game.apply(seat, str(game.view(seat).hand).split()[-1])


def test_only_a_seat_holding_three_suits_is_a_pig() -> None:
    """流局: seat 0 holds all three suits (花猪, 8 to each other seat); seats 2 and 3 hold only
    万 and 条 and pay 查大叫 to the ready seat 1 like any unready seat, not as 花猪."""
    game = stacked("", "", hands=DRAW_HANDS, ques=None)
    assert isinstance(game, XuezhanGame)
    run_out(game)
    assert game.ended == "wall"
    assert [game.is_huazhu(s) for s in range(4)] == [True, False, False, False]
    assert flows(game.outcome().transfers) == [
        (0, 1, 8), (0, 2, 8), (0, 3, 8),  # 查花猪
        (2, 1, 1), (3, 1, 1),  # 查大叫: seat 1 is ready (素番)
    ]
    # Under 定缺 a two-suit hand is a 花猪 when it named a suit it holds (seat 3 names 万).
    dingque = stacked("", "", hands=DRAW_HANDS, ques="pmpm")
    assert isinstance(dingque, XuezhanGame)
    run_out(dingque)
    assert [dingque.is_huazhu(s) for s in range(4)] == [True, False, False, True]


def test_the_trustee_throws_the_suit_it_holds_fewest_of_first() -> None:
    # The dealer holds 13579m 13579s 9s 258p: 筒 is the suit to go, its highest tile first.
    game = stacked("", "9s", hands=[SEAT0, NO_TIAO, SEAT2, SEAT3], ques=None)
    assert game.void_suit(0) == 1 and choose(game, 0) == "8p"
    # A seat of two suits does without the third; one of a single suit may still take any.
    assert game.void_suit(1) == 2
