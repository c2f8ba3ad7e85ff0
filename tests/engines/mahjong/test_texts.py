"""What people read of a mahjong hand (issue 26): tiles by name, claim prompts that name only
what is offered, 定缺 refusals with the form people type, 武汉's factors in the settlement and
二人麻将's swap; rendered through the hall's translator as the table shows them."""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from mj_support import stacked

from bot.i18n import render
from bot.render.text import seat_detail
from engines.base import Setup, Text
from engines.errors import IllegalActionError
from engines.mahjong import SPECS, ErrenGame
from engines.mahjong.game import stacked_wall
from engines.mahjong.names import spell
from engines.mahjong.notation import parse_action
from engines.mahjong.tiles import parse_tile, parse_tiles
from engines.mahjong.wuhan import WuhanGame

SPEC = {s.key: s for s in SPECS}
F1 = "147m258p369s1236z"
F2 = "258m369p147s1236z"
F3 = "369m147p258s1236z"
FLIP = "3z"  # 西 turned up: the 癞子 is 北 (4z)


def wh(hands: Sequence[str], draws: str) -> WuhanGame:
    setup = Setup(seats=4, seed=0, options={}, carry={"dealer": 0})
    return WuhanGame(setup, wall=stacked_wall(hands, draws, 0, kinds=34))


def peng_offered() -> WuhanGame:
    """The dealer throws 9s; seat 1 (99s) may only 碰 it."""
    game = wh([F1, "99s456m345p678p5s1z", F2, F3], "9s" + FLIP + "6z7z2z4z")
    game.apply(0, "9s")
    return game


def shown(text: Text | None, locale: str) -> str:
    assert text is not None
    return render(text, locale)


# --- tiles by name ------------------------------------------------------------------------------
def test_seat_lines_and_the_table_name_the_tiles_in_each_language() -> None:
    game = peng_offered()
    public = game.view(None)
    assert shown(public.seats[0].status, "zh-CN") == "打出 九条"
    assert shown(public.seats[0].status, "zh-TW") == "打出 九條"
    assert shown(public.seats[0].status, "en-US") == "discarded 9s"
    lines = [render(x, "zh-CN") for x in public.lines]
    assert "1 号位打出 九条" in lines and "翻出 西风，癞子是 北风" in lines
    assert "Turned up West wind: the wild (癞子) is North wind" in [
        render(x, "en-US") for x in public.lines
    ]
    game.apply(1, "peng")
    game.apply(1, "1z")
    assert shown(game.view(None).seats[1].status, "zh-CN") == "打出 东风"
    assert shown(game.view(None).seats[1].status, "en-US") == "discarded East wind"


def test_rivers_list_tiles_one_by_one_and_melds_read_by_name() -> None:
    game = peng_offered()
    game.apply(1, "pass")
    for seat, tile in ((1, "6z"), (2, "7z"), (3, "2z"), (0, "1z")):
        game.apply(seat, tile)
    seat0 = game.view(None).seats[0]
    assert seat0.discards == "9s 1z"  # one by one, not the run "9s1z" (nor 984s7m)
    spell_of = SPEC["wuhan"].spell
    assert "牌河 九条 东风" in seat_detail(seat0, "zh-CN", spell_of)
    assert any(part.endswith("9s East wind") for part in seat_detail(seat0, "en-US", spell_of))
    pung = peng_offered()
    pung.apply(1, "peng")
    seat1 = pung.view(None).seats[1]
    assert "副露 九九九条" in seat_detail(seat1, "zh-CN", spell_of)
    assert "副露 999s" in seat_detail(seat1, "zh-CN")  # a game without names: as written


def test_melds_by_name() -> None:
    text = spell("555p [5555z] 345m 111z")
    assert shown(text, "zh-CN") == "五五五筒 [中中中中] 三四五万 东东东"
    assert shown(text, "zh-TW") == "五五五筒 [中中中中] 三四五萬 東東東"
    assert shown(text, "en-US") == "555p [Red dragon ×4] 345m East wind ×3"
    assert spell("bid 2") is None


@pytest.mark.parametrize(
    ("typed", "tile"),
    [("红中", "5z"), ("中", "5z"), ("紅中", "5z"), ("东风", "1z"), ("东", "1z"), ("東", "1z"),
     ("发财", "6z"), ("白板", "7z"), ("八万", "8m"), ("九筒", "9p"), ("三条", "3s"),
     ("Red", "5z"), ("red dragon", "5z"), ("East Wind", "1z"), ("white", "7z")],
)
def test_tile_names_are_read_where_a_tile_is_typed(typed: str, tile: str) -> None:
    assert parse_action(typed) == ("discard", parse_tile(tile))
    assert parse_action(f"打{typed}") == ("discard", parse_tile(tile))
    assert parse_action(f"gang {typed}") == ("gang", parse_tile(tile))


def test_names_run_together_and_a_rank_before_a_name_is_refused() -> None:
    assert parse_tiles("中发白东风") == [31, 32, 33, 27]
    with pytest.raises(ValueError, match="no suit"):
        parse_tiles("5中")


def test_a_typed_name_plays_and_logs_the_compact_notation() -> None:
    game = peng_offered()
    game.apply(1, "peng")
    assert game.apply(1, "东风") == "1z" and game.log[-1] == (1, "1z")
    red = wh([F1, "456m345p678p55s99s", F2, F3], "5z" + FLIP + "9s")
    assert red.apply(0, "红中") == "gang 5z"  # 红中 out is 红中杠, typed by name too


def test_play_examples_and_buttons_keep_the_compact_notation() -> None:
    game = peng_offered()
    choices = game.choices(1)
    assert [c.action for c in choices] == ["peng", "pass"]
    assert shown(choices[0].label, "zh-CN") == "碰 九条"
    assert game.legal_actions(1) == ["peng", "pass"]


# --- the claim prompt names only what is offered -----------------------------------------------
def test_the_claim_prompt_names_only_the_claims_offered() -> None:
    game = peng_offered()
    prompt = [render(x, "zh-CN") for x in game.view(1).lines][-1]
    assert prompt == "你可以对 九条 碰，也可以过"
    assert "杠" not in prompt and "胡" not in prompt
    assert render(game.view(1).lines[-1], "en-US") == "You can claim the 9s: peng, or pass"
    assert "你可以对" not in " ".join(render(x, "zh-CN") for x in game.view(2).lines)


def test_the_claim_prompt_for_a_peng_and_a_kong_names_both() -> None:
    game = wh([F1, "333s456m345p678p5s", F2, F3], "9s" + FLIP)
    game.apply(0, "3s")
    assert render(game.view(1).lines[-1], "zh-CN") == "你可以对 三条 碰或杠，也可以过"
    offered = {a.split(" ")[0] for a in game.legal_actions(1)} - {"pass"}
    prompt = render(game.view(1).lines[-1], "zh-CN")
    words = {"peng": "碰", "gang": "杠", "hu": "胡", "chi": "吃"}
    assert offered and all(words[w] in prompt for w in offered)
    assert all(words[w] not in prompt for w in set(words) - offered)


# --- 定缺 refusals name what people type ------------------------------------------------------------
def test_dingque_refusals_name_the_que_form_in_every_language() -> None:
    game = stacked("1111p222p333p44p5p", "9s4p5p", ques="")
    with pytest.raises(IllegalActionError) as info:
        game.apply(0, "9s")
    for locale in ("zh-CN", "zh-TW", "en-US"):
        assert "que m" in shown(info.value.text, locale), locale
    with pytest.raises(ValueError) as bad:
        game.apply(0, "缺红中")
    assert "que m" in shown(getattr(bad.value, "text", None), "zh-CN")


# --- 武汉: each loser's factors, and the 癞子 as the winning tile --------------------------------
def test_wuhan_settlement_shows_each_seats_factors_and_the_wild_winning_tile() -> None:
    game = peng_offered()
    game.apply(1, "peng")
    game.apply(1, "1z")
    game.apply(2, "6z")
    game.apply(3, "7z")
    game.apply(0, "2z")
    assert game.legal_actions(1)[0] == "hu"  # 北 (the 癞子) drawn as the 5s of the pair
    game.apply(1, "hu")
    lines = [render(x, "zh-CN") for x in game.outcome().lines]
    assert "　胡的这张 北风 是癞子" in lines
    assert "　2 号位（胡牌）：开口 ×2" in lines
    losers = [line for line in lines if "输点" in line]
    assert len(losers) == 3 and all("（没有翻倍）" in line for line in losers), lines
    en = [render(x, "en-US") for x in game.outcome().lines]
    assert "  The winning tile, North wind, is the wild (癞子)" in en


def test_wuhan_factors_name_kongs_and_openings() -> None:
    game = wh([F1, "456m345p678p55s99s", F2, F3], "5z" + FLIP + "9s")
    game.apply(0, "5z")  # 红中杠
    names = [render(x, "zh-CN") for x in game.factor_texts(0)]
    assert names == ["红中杠 ×2"]
    assert game.factors(0) == 2


# --- 二人麻将: the swap says 换牌 and how to swap several; the win line has no (×1) --------------
def test_erren_swap_says_how_to_swap_several_tiles() -> None:
    game = ErrenGame(Setup(seats=2, seed=3))
    mine = [render(x, "zh-CN") for x in game.view(0).lines]
    how = [line for line in mine if line.startswith("换牌：")]
    assert how and "swap 19m5z" in how[0] and "几张" in how[0] and "swap -" in how[0]
    assert not any(line.startswith("换牌：") for line in
                   (render(x, "zh-CN") for x in game.view(None).lines))
    assert "swap 19m5z" in " ".join(render(x, "en-US") for x in game.view(0).lines)
    game.apply(0, "swap -")
    assert not any(render(x, "zh-CN").startswith("换牌：") for x in game.view(0).lines)


def test_erren_win_line_has_no_multiplier() -> None:
    for seed in range(60):
        game = ErrenGame(Setup(seats=2, seed=seed))
        while not game.is_over():
            seat = game.to_act()[0]
            game.apply(seat, game.trustee(seat))
        if game.wins:
            first = render(game.outcome().lines[0], "zh-CN")
            assert "×" not in first and "番" in first, first
            assert "×" not in render(game.outcome().lines[0], "en-US")
            return
    raise AssertionError("no seed in 60 ended in a win")


# --- English as a native speaker writes it ------------------------------------------------------
def test_english_texts_read_naturally() -> None:
    en = SPEC["sichuan"].texts["en-US"]
    game = peng_offered()
    assert render(game.view(None).phase, "en-US") == (
        "Waiting to see who claims the discard… (who may answer privately is not shown; no "
        "answer in time lets it pass)")
    assert en["mj.phase.turn"].format(seat=2) == "Seat 2's turn"
    assert en["err.mj.your_turn"] == (
        "It's your turn: discard a tile (or make a kong, or declare a win)."
    )
    # no stilted formulas left: "Cannot read", "dealt in" (riichi jargon), "Void: m"
    stilted = ("Cannot read", "dealt in", "Void: ", "to play\"", "you may only")
    assert not [k for k, v in en.items() if k.startswith(("mj.", "err.mj."))
                and any(s in v for s in stilted)]
