"""道具: the six props of 四川/血战/武汉 — effects, prices in ``Outcome.fees``, refusals that
change nothing, privacy of what a peek shows, replays and tiles conserved."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from engines.base import Outcome, Setup, T, Text
from engines.errors import GameError, IllegalActionError, NotationError, OptionError
from engines.mahjong import SPECS
from engines.mahjong.game import MahjongGame, XuezhanGame, stacked_wall
from engines.mahjong.props import PROP_OPTIONS, parse_prop
from engines.mahjong.tiles import parse_tile, tile_name
from engines.mahjong.wuhan import WuhanGame
from bot.host.model import private_digest

SPEC = {s.key: s for s in SPECS}
ON = {"props": True}
PRICE = {p[6:]: v for p, v in PROP_OPTIONS.items() if p.startswith("price_")}
HANDS = ("1111m234567p899s", "2222333344445m", "1112223334445p", "1112223334445s")
"""Seat 0 holds every 1m; the wall holds one 1p; the dealer (seat 0) draws 5m first."""


def new(
    key: str = "xuezhan",
    seed: int = 5,
    options: dict[str, Any] | None = None,
    stakes: tuple[int | None, ...] = (1000, 1000, 1000, 1000),
    coefficient: int = 10,
) -> MahjongGame:
    spec = SPEC[key]
    que = {"dingque": True} if key in ("sichuan", "xuezhan") else {}  # these tests play 定缺
    setup = Setup(4, seed, spec.validate({**ON, **que, **(options or {})}), stakes, (), {},
                  coefficient)
    game = spec.new(setup)
    assert isinstance(game, MahjongGame)
    return game


def stacked(**setup: Any) -> MahjongGame:
    """Seat 0 deals ``HANDS``; every seat has chosen its 缺 (room option 定缺), seat 0 is to
    discard."""
    opts = {**ON, "dingque": True, **setup.pop("options", {})}
    s = Setup(4, 1, SPEC["xuezhan"].validate(opts), setup.pop("stakes", (1000,) * 4), (),
              {"dealer": 0}, setup.pop("coefficient", 10))
    game = XuezhanGame(s, wall=stacked_wall(HANDS))
    for seat, que in enumerate(("que s", "que p", "que m", "que m")):
        game.apply(seat, que)
    assert game.to_act() == (0,)
    return game


def start(game: MahjongGame) -> None:
    """Every seat chooses its 缺 as the trustee would."""
    while game.phase() == "dingque":
        seat = game.to_act()[0]
        game.apply(seat, game.trustee(seat))


def finish(game: MahjongGame) -> Outcome:
    while not game.is_over():
        seat = game.to_act()[0]
        action = game.trustee(seat)
        assert not action.startswith("prop")
        game.apply(seat, action)
    return game.outcome()


def snapshot(game: Any) -> Any:
    views = [game.view(s) for s in (None, 0, 1, 2, 3)]
    spent = None if game.shop is None else list(game.shop.spent)
    return game.to_text(), views, list(game.wall), game.pos, spent


def key_of(exc: GameError) -> str:
    """The message key of an engine error."""
    return exc.text.key if exc.text is not None else ""


def keys(lines: tuple[Text, ...]) -> list[str]:
    return [t.key for t in lines]


def mentions(text: Any, word: str) -> bool:
    """Does a Text (or any of its arguments, nested) contain ``word``?"""
    if isinstance(text, Text):
        return word in text.key or any(mentions(v, word) for v in text.args.values())
    return word in str(text)


def full_census(game: Any) -> Counter[int]:
    c = game.census()
    if isinstance(game, WuhanGame):
        c[game.flipped] -= 1  # census counts the turned-up tile; the set has it once
    return +c


# --- notation and options --------------------------------------------------------------------
def test_prop_notation_with_chinese_aliases() -> None:
    assert parse_prop("prop toutian 5m 3p") == ("toutian", (4, 11))
    assert parse_prop("道具 移花接木 5万") == ("yihua", (4,))
    assert parse_prop("千里眼 7条") == ("qianliyan", (24,))
    assert parse_prop("顺风耳") == ("shunfeng", ())
    assert parse_prop("prop 金手指") == ("jinshouzhi", ())
    assert parse_prop("乾坤大挪移") == ("qiankun", ())
    assert parse_prop("5m") is None and parse_prop("peng") is None
    with pytest.raises(NotationError) as exc:
        parse_prop("prop toutian 5m")
    assert key_of(exc.value) == "err.mj.prop_args"
    with pytest.raises(NotationError) as exc:
        parse_prop("prop teleport")
    assert key_of(exc.value) == "err.mj.prop_unknown"


@pytest.mark.parametrize("key", ["sichuan", "xuezhan", "wuhan"])
def test_props_are_a_room_option_off_by_default(key: str) -> None:
    spec = SPEC[key]
    assert spec.options["props"] is False
    assert all(spec.options[f"price_{p}"] > 0 for p in PRICE)
    with pytest.raises(OptionError):
        spec.validate({"props": "yes"})
    with pytest.raises(OptionError):
        spec.validate({"price_toutian": -1})
    game = spec.new(Setup(4, 3, spec.validate({}), (1000,) * 4, (), {}, 10))
    assert isinstance(game, MahjongGame) and game.shop is None
    assert not [a for s in game.to_act() for a in game.legal_actions(s) if "prop" in a]
    before = snapshot(game)
    with pytest.raises(IllegalActionError) as exc:
        game.apply(game.to_act()[0], "prop shunfeng")
    assert key_of(exc.value) == "err.mj.prop_off"
    assert snapshot(game) == before


@pytest.mark.parametrize("key", ["shaanxi", "yongzhou", "erren"])
def test_other_mahjong_games_sell_no_props(key: str) -> None:
    with pytest.raises(OptionError):
        SPEC[key].validate({"props": True})


# --- each prop's effect ------------------------------------------------------------------------
def test_qiankun_deals_a_hand_close_to_a_flush_before_the_game() -> None:
    flushes = 0
    for seed in range(6):
        game = new(seed=seed)
        seat = 1
        census, others = full_census(game), [list(game.hands[s]) for s in (0, 2, 3)]
        size = sum(game.hands[seat])
        assert "prop qiankun" in game.legal_actions(seat)
        assert game.apply(seat, "乾坤大挪移") == "prop qiankun"
        hand = game.hands[seat]
        assert sum(hand) == size and full_census(game) == census
        assert [list(game.hands[s]) for s in (0, 2, 3)] == others
        most = max(sum(hand[s * 9 : s * 9 + 9]) for s in range(3))
        assert most >= size - 2
        flushes += most >= size - 2
        assert "mj.line.prop_qiankun" in keys(game.view(seat).lines)
        with pytest.raises(IllegalActionError) as exc:
            game.apply(seat, "prop qiankun")
        assert key_of(exc.value) == "err.mj.prop_used"
    assert flushes == 6


def test_qiankun_on_the_dealers_first_turn_keeps_a_drawn_tile() -> None:
    game = new("wuhan", seed=8)
    dealer = game.to_act()[0]
    assert sum(game.hands[dealer]) == 14
    game.apply(dealer, "prop qiankun")
    assert game.drawn is not None and game.hands[dealer][game.drawn] >= 1
    assert len(str(game.view(dealer).hand).split()) == 2  # the drawn tile stays apart
    finish(game)


def test_qiankun_is_refused_once_the_seat_has_discarded() -> None:
    game = stacked()
    game.apply(0, "9s")
    while 0 not in game.to_act():
        seat = game.to_act()[0]
        game.apply(seat, game.trustee(seat))
    before = snapshot(game)
    with pytest.raises(IllegalActionError) as exc:
        game.apply(0, "prop qiankun")
    assert key_of(exc.value) == "err.mj.prop_not_now"
    assert snapshot(game) == before


def test_toutian_takes_the_named_tile_from_the_wall() -> None:
    game = stacked()
    census = full_census(game)
    wall = Counter(game.wall[game.pos :])
    assert wall[parse_tile("1p")] == 1
    assert game.apply(0, "偷天换日 9s 1p") == "prop toutian 9s 1p"
    hand = game.hands[0]
    assert hand[parse_tile("1p")] == 1 and hand[parse_tile("9s")] == 1
    after = Counter(game.wall[game.pos :])
    assert after[parse_tile("1p")] == 0 and after[parse_tile("9s")] == wall[parse_tile("9s")] + 1
    assert full_census(game) == census
    line = game.view(0).lines[-1]
    assert line.key == "mj.line.prop_swap" and line.args["take"] == T("mj.tile.1p")
    with pytest.raises(IllegalActionError) as exc:
        game.apply(0, "prop toutian 8s 2p")
    assert key_of(exc.value) == "err.mj.prop_used"  # once a turn


def test_toutian_of_a_tile_no_longer_in_the_wall_is_refused_and_costs_nothing() -> None:
    game = stacked()
    before = snapshot(game)
    with pytest.raises(IllegalActionError) as exc:
        game.apply(0, "prop toutian 9s 1m")  # seat 0 holds all four 1m
    assert key_of(exc.value) == "err.mj.prop_not_in_wall"
    assert snapshot(game) == before
    assert game.shop is not None and game.shop.spent == [0, 0, 0, 0]


def test_yihua_swaps_a_tile_for_a_random_wall_tile_and_replays() -> None:
    game = new(seed=11)
    start(game)
    seat = game.to_act()[0]
    give = next(t for t in range(27) if game.hands[seat][t])
    census, wall = full_census(game), Counter(game.wall[game.pos :])
    held = list(game.hands[seat])
    game.apply(seat, f"移花接木 {tile_name(give)}")
    line = game.view(seat).lines[-1]
    take = parse_tile(line.args["take"].key.removeprefix("mj.tile."))
    held[give] -= 1
    held[take] += 1
    assert game.hands[seat] == held and full_census(game) == census
    wall[take] -= 1
    wall[give] += 1
    assert Counter(game.wall[game.pos :]) == +wall
    again = SPEC["xuezhan"].from_record(game.to_record())
    assert snapshot(again) == snapshot(game)


def test_qianliyan_tells_the_quarter_of_the_wall_of_the_next_copy() -> None:
    game = new(seed=2)
    start(game)
    seat = game.to_act()[0]
    wall = game.wall[game.pos :]
    tile = wall[len(wall) * 3 // 4 + 1]  # a kind whose next copy may be anywhere
    game.apply(seat, f"prop qianliyan {tile_name(tile)}")
    line = game.view(seat).lines[-1]
    assert line.key == "mj.line.prop_qianliyan"
    assert line.args == {"tile": T(f"mj.tile.{tile_name(tile)}"), "n": len(wall),
                         "q": wall.index(tile) * 4 // len(wall) + 1}
    assert 1 <= line.args["q"] <= 4


def test_qianliyan_of_a_tile_gone_from_the_wall_says_so() -> None:
    game = stacked()
    game.apply(0, "千里眼 1m")
    assert game.view(0).lines[-1] == Text("mj.line.prop_qianliyan_none", {"tile": T("mj.tile.1m")})


def test_shunfeng_shows_the_next_wall_tile_to_the_buyer_only() -> None:
    game = new(seed=4)
    start(game)
    seat = game.to_act()[0]
    nxt = tile_name(game.wall[game.pos])
    before = [private_digest(game, s) for s in range(4)]
    game.apply(seat, "prop shunfeng")
    line = game.view(seat).lines[-1]
    assert line.key == "mj.line.prop_shunfeng" and line.args["tile"] == T(f"mj.tile.{nxt}")
    # the buyer's DM is redrawn with the tile (the others' too, for the public "prop used"
    # line, but without the tile: below)
    assert private_digest(game, seat) != before[seat]
    for viewer in [None, *(s for s in range(4) if s != seat)]:
        lines = game.view(viewer).lines
        assert not [t for t in lines if t.key.startswith("mj.line.prop_") and
                    t.key not in ("mj.line.prop_used", "mj.line.prop_gold")]
        used = [t for t in lines if t.key == "mj.line.prop_used"]
        assert used and used[0].args["seat"] == seat + 1
        assert not any("tile" in str(t.args) for t in used)


def test_no_other_seat_ever_sees_a_peek_or_a_swap() -> None:
    game = stacked()
    game.apply(0, "prop toutian 9s 1p")
    game.apply(0, "prop shunfeng")
    game.apply(0, "prop qianliyan 5s")
    mine = [t for t in game.view(0).lines if t.key.startswith("mj.line.prop_")]
    assert len(mine) == 4  # the public "used" line and the three private notes
    for viewer in (None, 1, 2, 3):
        private = [t for t in game.view(viewer).lines
                   if t.key in ("mj.line.prop_swap", "mj.line.prop_shunfeng",
                                "mj.line.prop_qianliyan")]
        assert private == []


def test_jinshouzhi_marks_the_seats_discards_for_the_rest_of_the_hand() -> None:
    game = stacked()
    game.apply(0, "金手指")
    public = game.view(None).lines
    assert Text("mj.line.prop_gold", {"seat": 1}) in public
    game.apply(0, "9s")
    assert game.view(None).seats[0].status == Text("mj.status.discard_gold", {"tile": T("mj.tile.9s")})
    with pytest.raises(IllegalActionError) as exc:
        while True:
            seat = game.to_act()[0]
            if seat == 0 and game.phase() == "discard":
                game.apply(0, "prop jinshouzhi")
            game.apply(seat, game.trustee(seat))
    assert key_of(exc.value) == "err.mj.prop_used"


# --- prices and fees -------------------------------------------------------------------------
def test_prices_are_reported_as_fees_and_itemized() -> None:
    game = stacked(options={"price_shunfeng": 70})
    game.apply(0, "prop shunfeng")
    game.apply(0, "prop jinshouzhi")
    out = finish(game)
    assert out.fees == (70 + PRICE["jinshouzhi"], 0, 0, 0)
    items = [t for t in out.lines if t.key == "mj.out.prop"]
    assert [(t.args["seat"], t.args["prop"].key, t.args["beans"]) for t in items] == [
        (1, "mj.prop.shunfeng", 70),
        (1, "mj.prop.jinshouzhi", PRICE["jinshouzhi"]),
    ]
    assert Outcome.from_json(out.to_json()) == out


def test_no_purchase_no_fees() -> None:
    out = finish(new(seed=9))
    assert out.fees == () and "mj.out.prop" not in keys(out.lines)


# --- refusals change nothing -----------------------------------------------------------------
def refused(game: MahjongGame, seat: int, action: str, key: str) -> None:
    before = snapshot(game)
    with pytest.raises(GameError) as exc:
        game.apply(seat, action)
    assert key_of(exc.value) == key
    assert snapshot(game) == before


def test_score_only_rooms_sell_nothing() -> None:
    game = stacked(coefficient=0, stakes=(None,) * 4)
    refused(game, 0, "prop shunfeng", "err.mj.prop_score_only")
    assert not [a for a in game.legal_actions(0) if a.startswith("prop")]
    assert not [c for c in game.choices(0) if c.action.startswith("prop")]


def test_a_price_above_the_stake_is_refused() -> None:
    # 70 points × 10 beans = 700 beans: 顺风耳 (500), then 千里眼 (200) uses up the rest
    game = stacked(stakes=(70, 1000, 1000, None))
    refused(game, 0, "prop qiankun", "err.mj.prop_stake")
    game.apply(0, "prop shunfeng")
    refused(game, 0, "prop toutian 9s 1p", "err.mj.prop_stake")
    game.apply(0, "prop qianliyan 5s")
    assert game.shop is not None and game.shop.spent[0] == 700
    refused(game, 0, "prop jinshouzhi", "err.mj.prop_stake")


def test_a_bot_seat_with_no_stake_buys_nothing() -> None:
    game = stacked(stakes=(None, 1000, 1000, 1000))
    refused(game, 0, "prop shunfeng", "err.mj.prop_stake")


def test_a_price_of_zero_takes_the_prop_off_sale() -> None:
    game = stacked(options={"price_yihua": 0})
    refused(game, 0, "prop yihua 9s", "err.mj.prop_not_sold")
    assert not [a for a in game.legal_actions(0) if a.startswith("prop yihua")]


def test_turn_props_are_refused_out_of_turn_and_in_the_wrong_phase() -> None:
    game = new(seed=6)
    refused(game, 0, "prop toutian 5m 3p", "err.mj.prop_not_now")  # 定缺
    refused(game, 0, "prop shunfeng", "err.mj.prop_not_now")
    start(game)
    other = (game.to_act()[0] + 1) % 4
    refused(game, other, "prop shunfeng", "err.base.not_your_turn")


def test_bad_tiles_are_refused() -> None:
    game = stacked()
    refused(game, 0, "prop yihua 1p", "err.mj.not_held")
    refused(game, 0, "prop toutian 1p 2p", "err.mj.not_held")
    refused(game, 0, "prop toutian 9s 9s", "err.mj.prop_same")
    refused(game, 0, "prop toutian 9s 5z", "err.mj.prop_no_tile")
    refused(game, 0, "prop qianliyan 5z", "err.mj.prop_no_tile")
    refused(game, 0, "prop yihua", "err.mj.prop_args")


# --- buttons, the trustee, replays -----------------------------------------------------------
def test_buttons_offer_the_props_without_tiles_only_when_allowed() -> None:
    game = stacked()

    def offered(seat: int) -> set[str]:
        return {c.action for c in game.choices(seat) if c.action.startswith("prop")}

    assert offered(0) == {"prop qiankun", "prop shunfeng", "prop jinshouzhi"}
    assert "prop toutian 9s 1p" in game.legal_actions(0)
    assert "prop toutian 9s 1m" not in game.legal_actions(0)
    game.apply(0, "prop shunfeng")
    assert offered(0) == {"prop qiankun", "prop jinshouzhi"}
    assert all(game.choices(seat) == [] for seat in (1, 2, 3))
    game.apply(0, "9s")
    while not (game.to_act() == (0,) and game.phase() == "discard"):
        assert all(not offered(s) for s in game.to_act() if game.phase() != "discard")
        seat = game.to_act()[0]
        game.apply(seat, game.trustee(seat))
    assert offered(0) == {"prop shunfeng", "prop jinshouzhi"}  # 乾坤大挪移 only before playing


@pytest.mark.parametrize("key", ["sichuan", "xuezhan", "wuhan"])
def test_trustee_never_buys_and_hands_with_props_replay_exactly(key: str) -> None:
    for seed in range(3):
        game = new(key, seed=seed)
        census = full_census(game)
        bought = 0
        while not game.is_over():
            seat = game.to_act()[0]
            legal = game.legal_actions(seat)
            props = [a for a in legal if a.startswith("prop")]
            if props and bought < 6 and seat == len(game.log) % 4:
                game.apply(seat, props[(len(game.log) * 7) % len(props)])
                bought += 1
                assert full_census(game) == census
                continue
            action = game.trustee(seat)
            assert not action.startswith("prop") and action in legal
            game.apply(seat, action)
        assert full_census(game) == census
        out = game.outcome()
        again = SPEC[key].from_record(game.to_record())
        assert snapshot(again) == snapshot(game)
        assert again.outcome() == out
        assert game.shop is not None
        assert out.fees == (tuple(game.shop.spent) if any(game.shop.spent) else ())
