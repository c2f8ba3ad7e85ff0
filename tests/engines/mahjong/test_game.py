"""The game interface of a mahjong hand: 定缺, errors that change nothing, the private hand,
picker and buttons, and the trustee's habits."""

from __future__ import annotations

import pytest
from mj_support import play, stacked

from engines.base import Setup, T
from engines.errors import IllegalActionError, NotationError, OptionError
from engines.mahjong import SPECS, MahjongGame, XuezhanGame
from engines.mahjong.ai import best_discard, choose

SPEC = {s.key: s for s in SPECS}


def test_dingque_is_a_simultaneous_private_choice() -> None:
    g = XuezhanGame(Setup(seats=4, seed=11, options={"dingque": True}))
    assert g.phase() == "dingque" and g.to_act() == (0, 1, 2, 3)
    assert g.public_to_act() == g.to_act() and g.window() == 0
    assert g.timeout_action(2).miss and g.timeout_action(2).action == g.trustee(2)
    assert [c.action for c in g.choices(1)] == ["que m", "que p", "que s"]
    g.apply(2, "缺条")
    assert g.to_act() == (0, 1, 3) and g.window() == 0
    # Nobody but seat 3 learns its choice before all four have chosen.
    assert g.view(None).seats[2].status == T("mj.status.que_chosen")
    assert g.view(0).seats[2].role in (None, T("mj.role.dealer"))
    assert g.view(2).seats[2].role is not None
    for s in (0, 1, 3):
        g.apply(s, "que m")
    assert g.phase() == "discard" and g.to_act() == (g.dealer,)
    assert g.view(None).seats[2].role in (
        T("mj.role.que", suit=T("mj.suit.s")),
        T("mj.role.dealer_que", suit=T("mj.suit.s")),
    )


def raises(kind: type[Exception], g: MahjongGame, seat: int, action: str) -> str:
    before = g.to_text(), g.view(seat), g.window()
    with pytest.raises(kind) as info:
        g.apply(seat, action)
    assert (g.to_text(), g.view(seat), g.window()) == before
    text = getattr(info.value, "text", None)
    assert text is not None
    return str(text.key)


def test_bad_input_names_the_problem_and_changes_nothing() -> None:
    g = stacked("234p567p5p234s678s", "9s8m5p", ques="")
    assert raises(IllegalActionError, g, 0, "5m") == "err.mj.que_first"
    assert raises(NotationError, g, 0, "que z") == "err.mj.que_suit"
    for seat, suit in enumerate("pmmp"):
        g.apply(seat, f"que {suit}")
    assert raises(IllegalActionError, g, 0, "que m") == "err.mj.que_done"
    assert raises(IllegalActionError, g, 1, "9s") == "err.base.not_your_turn"
    assert raises(IllegalActionError, g, 0, "2m") == "err.mj.not_held"
    assert raises(IllegalActionError, g, 0, "hu") == "err.mj.no_hu"
    assert raises(IllegalActionError, g, 0, "peng") == "err.mj.your_turn"
    assert raises(IllegalActionError, g, 0, "gang 9s") == "err.mj.no_gang"
    assert raises(NotationError, g, 0, "5x") == "err.mj.tile_char"
    play(g, "0:9s", "1:8m", "2:5p")
    assert raises(IllegalActionError, g, 1, "gang") == "err.mj.claim_options"
    assert raises(IllegalActionError, g, 1, "5p") == "err.mj.claim_options"
    with pytest.raises(IllegalActionError) as info:
        g.trustee(0)
    assert info.value.text == T("err.base.not_seat_turn")
    with pytest.raises(IllegalActionError):
        g.outcome()


def test_options_and_seats_are_checked() -> None:
    with pytest.raises(OptionError):
        SPEC["xuezhan"].validate({"cap": -1})
    with pytest.raises(OptionError):
        SPEC["sichuan"].validate({"base": 0})
    with pytest.raises(OptionError):
        SPEC["sichuan"].new(Setup(seats=3, seed=1))
    with pytest.raises(OptionError) as info:
        XuezhanGame(Setup(seats=3, seed=1))
    assert info.value.text == T("err.mj.seats", seats=3, need=4)
    assert SPEC["sichuan"].max_loss({}, 4) is None
    assert SPEC["xuezhan"].max_loss({"base": 2}, 4) == 144


def test_the_private_hand_picker_and_buttons_on_a_turn() -> None:
    g = stacked("1111p222p333p44p5p", "9s4p5p")
    assert g.view(0).hand == "13579m258p13579s 9s"
    picker = g.picker(0)
    assert picker is not None and picker.tokens[:5] == ("1m", "3m", "5m", "7m", "9m")
    assert picker.menus() == [(0, 5), (5, 8), (8, 13)]  # one menu per suit
    assert g.picker(1) is None
    play(g, "0:9s")
    assert [(c.action, c.label) for c in g.choices(1)] == [
        ("gang 1p", T("mj.choice.gang", tile=T("mj.tile.1p")))
    ]
    assert g.view(None).seats[0].discards == "9s"
    play(g, "1:gang 1p")
    assert g.view(2).seats[1].melds == "[1111p]"
    assert [c.action for c in g.choices(1)] == ["hu"]


def test_the_trustee_wins_throws_its_void_suit_first_and_claims_when_it_helps() -> None:
    g = stacked("111p222p333p444p5p", "9s8m8s6m7s5p")
    assert choose(g, 0) == "8p"  # seat 0 is void in 筒 and holds 258筒: they go first
    play(g, "0:9s", "1:8m", "2:8s", "3:6m", "0:7s")
    assert choose(g, 1) == "hu"
    # Seat 1 holding 8万 (its void suit) throws it before anything else.
    g = stacked("111p222p333p444p5p", "9s8m")
    play(g, "0:9s")
    assert best_discard(g, 1)[1] == "8m" and choose(g, 1) == "8m"


def test_the_trustee_pengs_only_when_it_brings_the_hand_closer() -> None:
    far = ["13579m13579s28p9p", "234p678p5p234s678s", "24568m24568s679p", "13579m13579s55p9p"]
    g = stacked("", "9s8m5p", hands=far, ques="pmms")
    play(g, "0:9s", "1:8m", "2:5p")
    assert choose(g, 1) == "hu"
    assert choose(g, 3) == "peng"  # far from ready: the 碰 is a set gained
    ready = [*far[:3], "123m456m789m55p78p"]
    g = stacked("", "9s8m5p", hands=ready, ques="pmms")
    play(g, "0:9s", "1:8m", "2:5p")
    assert choose(g, 3) == "pass"  # ready already (55筒 the pair): a 碰 only trades the wait
