"""王炸跑胡子 scenarios on stacked deals: the deal, forced actions, claims and their priority,
下火, 臭牌 and 忍碰, 王霸, the win, 省 and 子 (PH-E1), 荒庄 and 黄牌, bad input, views."""

from __future__ import annotations

import json

import pytest
from phz_support import deal, never_claim, offered, pass_claims, play, run_until

from engines import registry
from engines.base import Setup
from engines.errors import IllegalActionError, NotationError, OptionError
from engines.paohuzi import PaohuziGame
from engines.paohuzi.game import CLAIM, DISCARD
from engines.paohuzi.groups import Kind
from engines.paohuzi.tiles import parse_tile


def kinds(game: PaohuziGame, seat: int) -> list[tuple[str, str]]:
    return [(g.kind.value, g.text()) for g in game.groups[seat]]


def test_the_deal_21_20_20_and_21_in_the_stock() -> None:
    game = PaohuziGame(Setup(seats=3, seed=7))
    sizes = sorted(
        sum(h) + sum(len(g.tiles) for g in game.groups[s]) for s, h in enumerate(game.hands)
    )
    assert sizes == [20, 20, 21] and game.stock_left() == 21
    assert sum(game.hands[game.dealer]) + sum(len(g.tiles) for g in game.groups[game.dealer]) == 21
    assert game.to_act() == (game.dealer,) and game.phase() == DISCARD


def test_four_alike_dealt_go_down_as_a_ti_before_the_first_play() -> None:
    game = deal("", "五五五五", "陆陆陆陆 柒柒柒柒")
    assert kinds(game, 1) == [("qing", "五五五五")]
    assert game.hands[1][parse_tile("五")] == 0
    assert "五五五五" in (game.view(None).seats[1].melds or "")
    assert game.open_huxi(1) == 9  # 倾 small
    # a seat dealt two 提 skips one discard (the second is a 重跑)
    assert game.paos[2] == 2 and game.owed[2] == 1


def test_drawing_the_third_of_a_pair_is_a_forced_face_down_xiao() -> None:
    game = deal("十", "壹壹", "", draws="壹")
    play(game, "0:x10")
    pass_claims(game)
    assert kinds(game, 1) == [("wei", "[壹壹壹]")]
    assert game.to_act() == (1,) and game.phase() == DISCARD  # then it discards
    public = game.view(None)
    assert public.seats[1].melds == "[▢▢▢]"
    assert game.view(2).seats[1].melds == "[▢▢▢]"
    assert game.view(1).seats[1].melds == "[壹壹壹]"
    # the table learns nothing of the tile: not in any public text
    assert "壹" not in json.dumps(public.to_json(), ensure_ascii=False)
    assert game.open_huxi(1, viewer=None) == 0 and game.open_huxi(1, viewer=1) == 6


def test_a_xiao_after_a_declined_peng_is_a_shown_chou_xiao() -> None:
    game = deal("壹", "壹壹", "", draws="壹")
    play(game, "0:d1")
    assert "peng" in game.legal_actions(1)
    play(game, "1:pass")  # 忍碰
    pass_claims(game)
    assert kinds(game, 1) == [("chouwei", "[▢▢壹]")]
    assert game.view(None).seats[1].melds == "[▢▢壹]"


def test_drawing_the_fourth_of_a_kan_is_a_forced_qing_then_a_discard() -> None:
    game = deal("十", "叁叁叁", "", draws="叁")
    play(game, "0:x10")
    pass_claims(game)
    assert kinds(game, 1) == [("qing", "叁叁叁叁")]
    assert game.to_act() == (1,) and game.must_discard


def test_a_second_pao_or_qing_is_a_chong_pao_without_a_discard() -> None:
    game = deal("十", "叁叁叁 五五五五", "", draws="叁")
    play(game, "0:x10")
    pass_claims(game)
    assert kinds(game, 1) == [("qing", "五五五五"), ("qing", "叁叁叁叁")]
    # 重跑: seat 1 does not discard (it keeps its 13 tiles); its 下家 draws at once
    assert sum(game.hands[1]) == 13 and 1 not in game.to_act()
    assert game.status[1] is not None and game.status[1].key != "phz.status.discard"


def test_a_pao_after_a_dealt_ti_is_a_chong_pao_too() -> None:
    game = deal("五", "五五五 六六六六", "")
    play(game, "0:x5")
    assert "pao" in game.legal_actions(1)
    pass_claims(game, 1)
    play(game, "1:pao")
    assert kinds(game, 1) == [("qing", "六六六六"), ("pao", "五五五五")]
    assert sum(game.hands[1]) == 13 and 1 not in game.to_act()  # no discard: 八块


def test_a_dealer_dealt_two_ti_skips_its_first_discard() -> None:
    game = deal("五五五五 六六六六", "", "")
    assert game.paos[0] == 2 and game.owed[0] == 0
    assert sum(game.hands[0]) == 13 and game.pos >= 1  # seat 1 has drawn already
    assert game.turn != 0 or game.phase() == CLAIM


def test_peng_then_pao_on_another_seat_s_drawn_tile() -> None:
    game = deal("五", "", "五五", draws="十 五")
    play(game, "0:x5")
    assert "peng" in game.legal_actions(2)
    pass_claims(game, 2)
    play(game, "2:peng")
    assert kinds(game, 2) == [("peng", "五五五")] and game.to_act() == (2,)
    play(game, "2:d10")  # seat 0 draws 十, then seat 1 draws 五
    run_until(game, offered("五"))
    assert game.claim is not None and game.claim.tile == parse_tile("五")
    assert game.claim.kind == "draw" and "pao" in game.legal_actions(2)
    pass_claims(game, 2)
    play(game, "2:pao")
    assert kinds(game, 2) == [("pao", "五五五五")]
    assert game.to_act() == (2,) and game.must_discard  # the first 跑: a discard follows


def test_a_pao_is_not_offered_on_a_discard_onto_a_peng() -> None:
    game = deal("五五", "", "五五")
    play(game, "0:x5")
    pass_claims(game, 2)
    play(game, "2:peng", "2:d10")
    chi = next(a for a in game.legal_actions(0) if a.startswith("chi"))  # seat 0 eats 拾
    play(game, f"0:{chi}")
    pass_claims(game)
    play(game, "0:x5")
    # the seed allows 碰 → 跑 only on a tile drawn from the stock, not on a discard
    assert game.claim is None or "pao" not in game.claim.options.get(2, [])


def test_chi_with_xiahuo_ph_e3() -> None:
    # PH-E3: 手中有小1、2、3、4、5，以 4、5 组合吃小3，那么手中的小3，必须以1、2、3的组合同时放到桌面
    game = deal("三 拾拾", "一二三四五 壹壹贰贰叁叁", "")
    play(game, "0:x3")
    chis = [a for a in game.legal_actions(1) if a.startswith("chi")]
    assert "chi x1x2x3 x3x4x5" in chis
    assert len(chis) == len(set(chis))  # 三四五+一二三 and 一二三+三四五 are one way, listed once
    # every way lays the held 三 down too (with 叁叁 a 绞牌 三三叁 may take both at once)
    assert all(" ".join(a.split()[1:]).count("x3") == 2 for a in chis)
    assert "chi x3x4x5" not in chis and "chi x3x3d3" in chis
    before = game.to_text()
    for wrong in ("chi x3x4x5 x3x4x5", "chi x4x5x6", "chi x2x3x4 x1x2x3", "peng", "x1"):
        with pytest.raises(IllegalActionError):
            game.apply(1, wrong)  # tiles it lacks, a group without 三, no pair to 碰
        assert game.to_text() == before
    with pytest.raises(IllegalActionError):
        game.apply(1, "吃 四五")  # two ways to lay the other 三 down: 一二三 or 三叁叁
    assert game.apply(1, "吃 四五 一二三") == "chi x1x2x3 x3x4x5"
    pass_claims(game)
    assert [g.text() for g in game.groups[1]] == ["一二三", "三四五"]
    assert game.hands[1][parse_tile("三")] == 0 and game.to_act() == (1,)


def test_a_tile_declined_for_chi_or_peng_is_chou_for_that_seat() -> None:
    # 臭牌: 玩家可以吃、碰却选择不吃、不碰时 … 第二次牌桌上再出现同张牌时，该玩家不得再吃或者碰
    game = deal("三三 拾拾", "一二四五 壹壹", "", draws="三")
    play(game, "0:x3")
    assert any(a.startswith("chi") for a in game.legal_actions(1))
    play(game, "1:pass")
    pass_claims(game)
    assert parse_tile("三") in game.chou[1]
    # seat 1 turns up the next 三 itself: it may not eat it now, so it goes to its river
    opts = game.claim.options.get(1, []) if game.claim is not None else []
    assert not any(a.startswith("chi") for a in opts)
    assert game.rivers[1][:1] == [parse_tile("三")] or game.claim.tile == parse_tile("三")
    # without the earlier 过 the same draw could be eaten
    fresh = deal("三三 拾拾", "一二四五 壹壹", "", draws="三")
    play(fresh, "0:d10")
    pass_claims(fresh)
    assert fresh.claim is not None and fresh.claim.tile == parse_tile("三")
    assert any(a.startswith("chi") for a in fresh.legal_actions(1))


WIN1 = "壹贰叁 壹贰叁 一二三 四五六 七八九 肆伍陆 柒捌"  # waits on 玖 (or 陆), 15 胡息 with 柒捌玖
WIN2 = "壹贰叁 壹贰叁 一二三 二七十 四五六 肆伍陆 柒捌"  # waits on 玖 too, 18 胡息


def test_on_a_discard_the_next_seat_wins_first() -> None:
    game = deal("玖", WIN1, WIN2)
    play(game, "0:d9")
    assert "hu" in game.legal_actions(1) and "hu" in game.legal_actions(2)
    play(game, "2:hu", "1:hu")
    assert game.is_over() and game.win is not None and game.win.seat == 1
    assert game.win.huxi == 15 and game.win.source == 0


def test_on_a_drawn_tile_the_drawer_wins_first() -> None:
    game = deal("十", WIN1, WIN2, draws="拾 玖")
    play(game, "0:x10")
    run_until(game, offered("玖"))
    assert game.claim.source == 2  # seat 2 turned up 玖; seat 1 could win on it too
    assert "hu" in game.legal_actions(1) and "hu" in game.legal_actions(2)
    play(game, "1:hu")
    pass_claims(game, 2)
    play(game, "2:hu")
    assert game.win is not None and game.win.seat == 2 and game.win.self_drawn
    assert ("zimo", 2) in game.win.fan.items


def test_a_win_beats_a_pao_on_the_same_tile() -> None:
    # 撇跑胡: seat 2 holds a 坎 of 玖 and could 跑 the discard; seat 1 wins on it
    game = deal("玖", WIN1, "玖玖玖")
    play(game, "0:d9")
    assert "pao" in game.legal_actions(2)
    play(game, "2:pao", "1:hu")
    assert game.win is not None and game.win.seat == 1
    assert all(g.kind is not Kind.PAO for g in game.groups[2])


def test_ph_e1_21_huxi_and_3_shen_make_6_zi_and_7_with_a_di() -> None:
    # 比如，21胡胡了，翻了三省，那就是6个子。加了个底的话，就是7个子。
    hand = "壹贰叁 壹贰叁 二七十 一二三 五五五 六七八 捌玖"  # wins on 柒: 21 胡息
    for di, zi in ((0, 6), (1, 7)):
        game = deal("柒", hand, "", draws="四", options={"di": di})
        play(game, "0:d7")
        play(game, "1:hu")
        pass_claims(game)
        assert game.win is not None and game.win.huxi == 21
        assert game.shen_tile == parse_tile("五")  # 四 turned up: 省 is 五, held three times
        assert game.shen() == 3 and game.zi() == zi
        assert game.win.fan.total == 1  # 8 red tiles: no 红胡/一点朱/黑胡; not 自摸
        outcome = game.outcome()
        assert [(t.payer, t.payee, t.points) for t in outcome.transfers] == [(0, 1, zi), (2, 1, zi)]
        assert outcome.points == (-zi, 2 * zi, -zi) and outcome.winners == (1,)


def test_fewer_than_15_huxi_is_no_win() -> None:
    hand = "一二三 四五六 七八九 肆伍陆 柒捌玖 壹贰 叁叁"  # complete with 叁, but 3 胡息 only
    game = deal("叁", hand, "")
    play(game, "0:d3")
    assert "hu" not in game.legal_actions(1)


def test_wangba_never_discarded_and_its_holder_wins_only_by_zimo() -> None:
    game = deal("W 玖", "W " + WIN1[:-3] + " 柒", WIN2)
    assert game.hands[0][20] == 1
    before = game.to_text()
    with pytest.raises(IllegalActionError) as err:
        game.apply(0, "W")
    assert err.value.text is not None and err.value.text.key == "err.phz.wild_discard"
    assert game.to_text() == before
    assert "W" not in game.legal_actions(0)
    assert game.view(None).seats[0].cards is None  # a 王霸 dealt stays hidden
    assert "王" not in json.dumps(game.view(2).to_json(), ensure_ascii=False)
    play(game, "0:d9")
    # seat 1 holds a 王霸: a complete hand, but no win on another's tile
    assert "hu" not in game.legal_actions(1)


def test_a_drawn_wangba_is_shown() -> None:
    game = deal("十", "", "", draws="W")
    play(game, "0:x10")
    pass_claims(game)
    assert game.shown_wilds[1] == 1 and game.hands[1][20] == 1
    lines = [t.to_json() for t in game.view(None).lines]
    assert any(t["k"] == "phz.event.wild" for t in lines)


@pytest.mark.parametrize(
    ("h1", "h2", "pay"), [("W W", "", {(1, 0): 10, (1, 2): 10}), ("W", "W", {(1, 0): 5, (2, 0): 5})]
)
def test_huangzhuang_and_the_wangba_payments(
    h1: str, h2: str, pay: dict[tuple[int, int], int]
) -> None:
    # 如果黄牌了，则手中有王霸的玩家需要赔付给没有王霸的玩家。一张王霸赔付赌注5倍，两张则是10倍
    game = deal("", h1, h2)
    while not game.is_over():
        seat = game.to_act()[0]
        game.apply(seat, never_claim(game, seat))
    assert game.ended == "wall" and game.stock_left() == 0
    outcome = game.outcome()
    assert {(t.payer, t.payee): t.points for t in outcome.transfers} == pay
    assert game.next_carry() == {"dealer": 0}  # 荒庄: the dealer deals again


def test_bad_input_is_refused_and_changes_nothing() -> None:
    game = deal("三三三 十", "", "")
    before = game.to_text()
    cases = [
        (NotationError, 0, "x11"),
        (NotationError, 0, "fly"),
        (IllegalActionError, 1, "x1"),  # not your turn
        (IllegalActionError, 0, "peng"),
        (IllegalActionError, 0, "hu"),
        (IllegalActionError, 0, "x3"),  # a 坎 is never split
    ]
    for kind, seat, action in cases:
        with pytest.raises(kind):
            game.apply(seat, action)
        assert game.to_text() == before
    held = [t for t in range(20) if not game.hands[0][t]]
    if held:
        with pytest.raises(IllegalActionError):
            game.apply(0, f"x{held[0] + 1}" if held[0] < 10 else f"d{held[0] - 9}")
    assert game.to_text() == before


def test_options_are_checked() -> None:
    spec = registry.specs()["paohuzi"]
    assert spec.validate({"di": 2})["di"] == 2
    for bad in (-1, 11):
        with pytest.raises(OptionError) as err:
            spec.validate({"di": bad})
        assert err.value.key == "di"
    with pytest.raises(OptionError):
        spec.new(Setup(seats=4, seed=1))


def test_picker_and_buttons() -> None:
    game = deal("三三三 十", "", "")
    picker = game.picker(0)
    assert picker is not None
    assert list(picker.tokens) == game.legal_actions(0)
    assert "x3" not in picker.tokens and picker.labels[0] == "一"
    assert len(picker.menus()) == 1  # a pick discards at once
    play(game, "0:x10")
    if game.phase() == CLAIM:
        seat = game.to_act()[0]
        assert game.picker(seat) is None
        labels = {c.action for c in game.choices(seat)}
        assert labels == set(game.legal_actions(seat))
        assert game.public_to_act() == ()
        timeout = game.timeout_action(seat)
        assert timeout.action == "pass" and not timeout.miss


def test_every_error_reads_in_both_languages() -> None:
    spec = registry.specs()["paohuzi"]
    game = deal("三三三 十 W", "", "")
    bad = [
        (lambda: game.apply(0, "x11"), "err.phz.tile"),
        (lambda: game.apply(0, "fly"), "err.phz.action"),
        (lambda: game.apply(0, " "), "err.phz.empty"),
        (lambda: game.apply(0, "x1x2"), "err.phz.one_tile"),
        (lambda: game.apply(0, "W"), "err.phz.wild_discard"),
        (lambda: game.apply(0, "x3"), "err.phz.kan"),
        (lambda: game.apply(0, "hu"), "err.phz.no_hu"),
        (lambda: game.apply(0, "peng"), "err.phz.options"),
        (lambda: spec.validate({"di": 99}), "err.phz.option_di"),
        (lambda: spec.game(Setup(seats=3, seed=1), stack=[0] * 82), "err.phz.stack"),
    ]
    before = game.to_text()
    for call, key in bad:
        with pytest.raises((IllegalActionError, NotationError, OptionError)) as err:
            call()
        text = err.value.text
        assert text is not None and text.key == key, (key, text)
        for locale in ("zh-CN", "en-US"):
            shown = spec.texts[locale][key].format(**text.args)
            assert shown and "{" not in shown
        assert game.to_text() == before
