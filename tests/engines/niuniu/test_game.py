"""斗牛 / 欢乐斗牛 / 牛牛 games: banker rules, payouts, escape, privacy, replay, trustee."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from engines.base import Choice, Game, GameSpec, Setup, Text, View, net_points
from engines.cards import parse_cards
from engines.errors import GameError, IllegalActionError, NotationError, OptionError
from engines.niuniu import SPECS, DouniuGame, HappyDouniuGame, Kind
from engines.niuniu.game import BullGame
from engines.niuniu.hands import best_hand
from engines.niuniu.texts import TEXTS

SPEC = {s.key: s for s in SPECS}
ROOT = Path(__file__).resolve().parents[3]

# Hands of known kinds (all disjoint).
NO_BULL = "Ks Qd 8h 6c 3d"
BULL_1 = "9d 8c 2s Ah Ac"
BULL_8 = "Qs 6s 5s 4s 3h"
BULL_9 = "Th 9c 4c 3s 3c"
BULL_9B = "Tc 8s 5c 5d As"  # also 牛九, but T♣ on top loses to T♥
BULL_BULL = "Qc Jc Ts 8d 2d"
FOUR_BOMB = "7s 7c 7d 7h 2h"
FIVE_FLOWER = "Kd Qh Jd Js Kc"


def test_fixture_hands() -> None:
    kinds = [
        best_hand(H(h)).kind
        for h in (NO_BULL, BULL_1, BULL_8, BULL_9, BULL_9B, BULL_BULL, FOUR_BOMB, FIVE_FLOWER)
    ]
    assert kinds == [
        Kind.NO_BULL,
        Kind.BULL_1,
        Kind.BULL_8,
        Kind.BULL_9,
        Kind.BULL_9,
        Kind.BULL_BULL,
        Kind.FOUR_BOMB,
        Kind.FIVE_FLOWER,
    ]
    assert best_hand(H(BULL_9)).beats(best_hand(H(BULL_9B)))


def shown(spec: GameSpec, error: GameError, locale: str) -> str:
    """The error's text as a player reads it in ``locale``."""
    assert error.text is not None
    text = error.text
    args = {
        k: shown(spec, GameError("", text=v), locale) if isinstance(v, Text) else v
        for k, v in text.args.items()
    }
    return spec.texts[locale][text.key].format(**args)


def H(text: str) -> tuple[Any, ...]:
    return parse_cards(text)


def make(key: str, hands: list[str], seed: int = 1, **setup: Any) -> BullGame:
    game = SPEC[key].game(Setup(seats=len(hands), seed=seed, **setup), hands=[H(h) for h in hands])
    assert isinstance(game, BullGame)
    return game


def happy_seed(seats: int, banker: int) -> int:
    return next(
        s for s in range(200) if HappyDouniuGame(Setup(seats=seats, seed=s)).banker == banker
    )


def split_all(game: Game) -> None:
    for seat in list(game.to_act()):
        game.apply(seat, "best")


def play_out(game: Game, rng: random.Random | None = None) -> None:
    """Let the trustee finish the hand, optionally acting in a random order."""
    while not game.is_over():
        seats = list(game.to_act())
        seat = rng.choice(seats) if rng else seats[0]
        action = game.trustee(seat)
        assert action in game.legal_actions(seat), (action, game.legal_actions(seat))
        game.apply(seat, action)


def snapshot(game: Game) -> Any:
    return (
        game.to_text(),
        game.to_act(),
        game.phase(),
        [game.view(s) for s in [None, *range(game.setup.seats)]],
    )


# --- specs --------------------------------------------------------------------------------
def test_specs() -> None:
    assert [s.key for s in SPECS] == ["douniu", "douniu_happy", "niuniu"]
    for spec in SPECS:
        assert (spec.min_seats, spec.max_seats, spec.level_table) == (2, 6, "doudizhu")
        assert set(spec.texts) == {"zh-CN", "en-US", "zh-TW"}
    assert SPEC["douniu"].phases == ("split",)
    assert SPEC["niuniu"].phases == ("grab", "bet", "split")
    with pytest.raises(OptionError):
        SPEC["niuniu"].new(Setup(seats=7, seed=1))
    with pytest.raises(OptionError):
        SPEC["douniu"].new(Setup(seats=1, seed=1))


def test_catalogues_have_the_same_keys() -> None:
    assert set(TEXTS["zh-CN"]) == set(TEXTS["en-US"])


@pytest.mark.parametrize(
    ("key", "options"),
    [("douniu", {"base": 0}), ("niuniu", {"stakes": []}), ("niuniu", {"stakes": [0, 5]})],
)
def test_bad_options(key: str, options: dict[str, Any]) -> None:
    with pytest.raises(OptionError):
        SPEC[key].new(Setup(seats=3, seed=1, options=options))


@pytest.mark.parametrize(
    ("key", "options", "option", "zh", "en"),
    [
        (
            "douniu",
            {"base": 0},
            "base",
            "房间选项“base”必须是不小于 1 的整数",
            "Option 'base': must be",
        ),
        ("douniu", {"base": 10**13}, "base", "1,000,000,000,000", "1,000,000,000,000"),
        ("niuniu", {"stakes": []}, "stakes", "房间选项“stakes”", "Option 'stakes'"),
        ("niuniu", {"stakes": [0, 5]}, "stakes", "1～20 个", "1 to 20 whole numbers"),
        ("niuniu", {"stakes": [5, True]}, "stakes", "“stakes”", "'stakes'"),
        ("niuniu", {"stakes": [1] * 21}, "stakes", "“stakes”", "'stakes'"),
        ("niuniu", {"stakes": [10**13]}, "stakes", "1,000,000,000,000", "1,000,000,000,000"),
        ("douniu", {"stakes": [1]}, "stakes", "没有“stakes”", "has no option"),
    ],
)
def test_room_options_the_rules_cannot_play_are_refused_at_validation(
    key: str, options: dict[str, Any], option: str, zh: str, en: str
) -> None:
    # The host validates a room's options before it holds any beans (GameSpec.validate calls
    # check_options): a 底分 of 0 or an empty list of stakes never reaches a deal.
    with pytest.raises(OptionError) as info:
        SPEC[key].validate(options)
    assert info.value.key == option
    assert zh in shown(SPEC[key], info.value, "zh-CN")
    assert en in shown(SPEC[key], info.value, "en-US")
    if option in SPEC[key].options:  # a hand built without the spec is refused the same way
        with pytest.raises(OptionError):
            SPEC[key].game.check_options(options)
        with pytest.raises(OptionError):
            SPEC[key].game(Setup(seats=3, seed=1, options=options))


def test_validate_rejects_unknown_option() -> None:
    with pytest.raises(OptionError):
        SPEC["douniu"].validate({"nope": 1})
    assert SPEC["niuniu"].validate({"stakes": [5, 10]}) == {"stakes": [5, 10]}


# --- payouts ----------------------------------------------------------------------------------
def test_douniu_payout_uses_winner_kind_multiplier() -> None:
    game = make("douniu", [BULL_8, BULL_BULL, NO_BULL], carry={"banker": 0, "seats": 3})
    assert game.banker == 0 and game.phase() == "split"
    split_all(game)
    # Seat 1 牛牛 beats 牛八: ×3; seat 2 没牛 loses to 牛八: ×2.
    assert game.outcome().points == (-1, 3, -2)


def test_douniu_base_option_scales() -> None:
    game = make(
        "douniu",
        [BULL_8, BULL_BULL, NO_BULL],
        carry={"banker": 0, "seats": 3},
        options={"base": 10},
    )
    split_all(game)
    assert game.outcome().points == (-10, 30, -20)
    assert game.outcome().scores == (-10, 30, -20)


@pytest.mark.parametrize(
    ("hand", "points"),
    [(BULL_1, 5), (BULL_8, 10), (BULL_9, 10), (BULL_BULL, 15), (FOUR_BOMB, 20), (FIVE_FLOWER, 25)],
)
def test_happy_points_per_winning_kind(hand: str, points: int) -> None:
    seed = happy_seed(2, 0)
    game = make("douniu_happy", [NO_BULL, hand], seed=seed)
    assert game.banker == 0
    split_all(game)
    assert game.outcome().points == (-points, points)


def test_happy_banker_wins_with_its_kind() -> None:
    seed = happy_seed(3, 0)
    game = make("douniu_happy", [FOUR_BOMB, BULL_9, NO_BULL], seed=seed)
    split_all(game)
    assert game.outcome().points == (40, -20, -20)


def test_no_bull_against_no_bull_pays_one_unit() -> None:
    seed = happy_seed(2, 1)
    game = make("douniu_happy", ["Kh Jc 8s 6d 3c", NO_BULL], seed=seed)
    split_all(game)
    # K♠ top beats K♥ top: the banker (seat 1) wins 5.
    assert game.outcome().points == (-5, 5)


def test_players_are_never_compared_with_each_other() -> None:
    game = make("douniu", [BULL_1, FIVE_FLOWER, FOUR_BOMB], carry={"banker": 0, "seats": 3})
    split_all(game)
    assert game.outcome().points == (-9, 5, 4)


def test_declared_split_counts_not_the_best() -> None:
    game = make("douniu", [BULL_8, BULL_BULL, NO_BULL], carry={"banker": 0, "seats": 3})
    game.apply(0, "best")
    assert game.apply(1, "split QJ8") == "nobull"  # 10+10+8 = 28: not a bull
    game.apply(2, "nobull")
    assert game.hand(1).kind == Kind.NO_BULL
    assert game.outcome().points == (4, -2, -2)


def test_special_hand_counts_even_if_declared_no_bull() -> None:
    game = make("douniu", [BULL_8, FOUR_BOMB], carry={"banker": 0, "seats": 2})
    game.apply(1, "nobull")
    game.apply(0, "best")
    assert game.outcome().points == (-4, 4)


# --- 牛牛: grab, bet, split ---------------------------------------------------------------
def test_niuniu_full_hand() -> None:
    game = make("niuniu", [BULL_8, BULL_BULL, NO_BULL], seed=3)
    first = game.offered
    assert game.phase() == "grab" and game.to_act() == (first,)
    assert game.legal_actions(first) == ["bank", "decline"]
    assert game.apply(first, "不抢") == "decline"
    second = (first + 1) % 3
    assert game.to_act() == (second,)
    assert game.apply(second, "抢庄") == "bank"
    assert game.banker == second and game.phase() == "bet"
    players = [s for s in range(3) if s != second]
    assert game.to_act() == tuple(players)
    assert game.legal_actions(players[1]) == ["bet 1", "bet 2", "bet 5", "bet 10"]
    assert game.apply(players[1], "下注 5") == "bet 5"  # any order: simultaneous
    assert game.to_act() == (players[0],)
    assert game.apply(players[0], "bet max") == "bet 10"
    assert game.phase() == "split" and game.to_act() == (0, 1, 2)
    split_all(game)
    stakes = game.units
    expected = [0, 0, 0]
    for p in players:
        ph, bh = best_hand(game.cards[p]), best_hand(game.cards[second])
        winner = ph if ph.beats(bh) else bh
        x = stakes[p] * winner.kind.multiplier
        sign = 1 if ph.beats(bh) else -1
        expected[p] += sign * x
        expected[second] -= sign * x
    assert game.outcome().points == tuple(expected)


def test_niuniu_multipliers_on_stake() -> None:
    game = make("niuniu", [NO_BULL, BULL_8, BULL_BULL, FOUR_BOMB, FIVE_FLOWER], seed=5)
    while game.banker is None:
        seat = game.to_act()[0]
        game.apply(seat, "bank" if seat == 0 else "decline")
    assert game.banker == 0
    for seat in range(1, 5):
        game.apply(seat, "bet 10")
    split_all(game)
    assert game.outcome().points == (-140, 20, 30, 40, 50)


def test_niuniu_regroup_when_nobody_banks() -> None:
    game = make("niuniu", [BULL_8, BULL_BULL, NO_BULL])
    for _ in range(3):
        game.apply(game.to_act()[0], "decline")
    assert game.is_over() and game.regrouped and game.to_act() == ()
    out = game.outcome()
    assert out.points == (0, 0, 0) and out.lines[0].key == "niuniu.line.regroup"
    assert game.next_carry() == {"regroup": True}
    assert all(sv.cards is None for sv in game.view(None).seats)


def test_niuniu_trustee_banks_only_as_last_offer() -> None:
    game = make("niuniu", [BULL_8, BULL_BULL, NO_BULL])
    assert game.trustee(game.to_act()[0]) == "decline"
    game.apply(game.to_act()[0], "decline")
    assert game.trustee(game.to_act()[0]) == "decline"
    game.apply(game.to_act()[0], "decline")
    last = game.to_act()[0]
    assert game.trustee(last) == "bank"
    game.escape(last)
    assert game.trustee(last) == "decline"


def test_niuniu_bad_stake_changes_nothing() -> None:
    game = make("niuniu", [BULL_8, BULL_BULL, NO_BULL])
    while game.banker is None:
        game.apply(game.to_act()[0], "bank")
    seat = game.to_act()[0]
    before = snapshot(game)
    for text, err in [
        ("bet 3", IllegalActionError),
        ("bet -1", NotationError),
        ("bet", NotationError),
        ("split KQT", NotationError),
        ("bank", NotationError),
    ]:
        with pytest.raises(err):
            game.apply(seat, text)
        assert snapshot(game) == before


@pytest.mark.parametrize(
    "text",
    ["bet " + "9" * 5000, "下注 " + "9" * 4301, "bet 1" + "0" * 13, "bet " + "0" * 5000 + "5"],
)
def test_niuniu_huge_stake_is_a_notation_error_with_a_short_text(text: str) -> None:
    # A number of more than 4,300 digits used to escape as int()'s plain ValueError.
    game = make("niuniu", [BULL_8, BULL_BULL, NO_BULL])
    while game.banker is None:
        game.apply(game.to_act()[0], "bank")
    seat = game.to_act()[0]
    before = snapshot(game)
    with pytest.raises(NotationError) as info:
        game.apply(seat, text)
    assert snapshot(game) == before
    assert info.value.text is not None and info.value.text.key == "err.cards.amount"
    for locale in ("zh-CN", "en-US"):
        message = shown(SPEC["niuniu"], info.value, locale)
        assert "1,000,000,000,000" in message and len(message) < 120, message
    assert len(str(info.value)) < 160
    assert game.apply(seat, "bet 1,0") == "bet 10"


def test_niuniu_cards_show_after_the_stakes() -> None:
    # The last stake (another seat's action) reveals every seat's cards: each private hand
    # then shows them (the host redraws what changed), and the card picker opens.
    game = make("niuniu", [BULL_8, BULL_BULL, NO_BULL])
    while game.banker is None:
        game.apply(game.to_act()[0], "bank")
    first, last = game.to_act()
    game.apply(first, "bet 1")
    assert all(game.view(s).hand is None for s in range(3))
    assert game.view(game.banker).hand is None and game.picker(game.banker) is None
    game.apply(last, "bet 2")
    for seat in range(3):
        assert game.view(seat).hand is not None
        picker = game.picker(seat)
        assert picker is not None and picker.menus() == [(0, 5)]
        assert set(picker.tokens) == set(game.view(seat).hand.split())


def test_douniu_cards_are_dealt_visible_and_never_change() -> None:
    game = make("douniu_happy", [BULL_8, BULL_BULL, NO_BULL])
    hands = [game.view(s).hand for s in range(3)]
    assert all(hands)
    for seat in range(2):
        game.apply(seat, "best")
        assert [game.view(s).hand for s in range(3)] == hands


def test_niuniu_presets_follow_what_the_seat_carries() -> None:
    game = make("niuniu", [BULL_8, BULL_BULL, NO_BULL], stakes=(None, 12, 3))
    while game.banker is None:
        seat = game.to_act()[0]
        game.apply(seat, "bank" if seat == 0 else "decline")
    assert game.legal_actions(1) == ["bet 1", "bet 2"]  # 5 × 5 > 12
    assert game.legal_actions(2) == ["bet 1"]  # the smallest is always offered
    with pytest.raises(IllegalActionError):
        game.apply(1, "bet 5")
    assert [c.action for c in game.choices(1)] == ["bet 1", "bet 2"]


def test_niuniu_cards_hidden_until_split_phase() -> None:
    game = make("niuniu", [BULL_8, BULL_BULL, NO_BULL])
    for seat in range(3):
        view = game.view(seat)
        assert view.hand is None and all(sv.cards is None for sv in view.seats)
        assert game.picker(seat) is None
    while game.banker is None:
        game.apply(game.to_act()[0], "bank")
    for seat in game.to_act():
        assert game.view(seat).hand is None
        game.apply(seat, "bet 1")
    assert game.view(0).hand == "Qs 6s 5s 4s 3h"


# --- 斗牛 / 欢乐斗牛 banker rules ------------------------------------------------------------
def test_douniu_first_banker_random_and_deterministic() -> None:
    bankers = {DouniuGame(Setup(seats=4, seed=s)).banker for s in range(40)}
    assert bankers == {0, 1, 2, 3}
    assert DouniuGame(Setup(seats=4, seed=9)).banker == DouniuGame(Setup(seats=4, seed=9)).banker


def test_douniu_banker_stays_without_bull_nine() -> None:
    game = make("douniu", [BULL_8, BULL_BULL, NO_BULL], carry={"banker": 2, "seats": 3})
    split_all(game)
    assert game.next_carry() == {"banker": 2, "seats": 3}
    assert game.outcome().lines[-1].key == "niuniu.line.next_stays"


def test_douniu_bull_nine_holder_banks_next() -> None:
    game = make("douniu", [BULL_8, BULL_9, NO_BULL], carry={"banker": 0, "seats": 3})
    split_all(game)
    assert game.next_carry() == {"banker": 1, "seats": 3}
    assert game.outcome().lines[-1] == Text("niuniu.line.next_nine", {"seat": 2})


def test_douniu_biggest_of_several_bull_nines() -> None:
    game = make("douniu", [BULL_8, BULL_9B, BULL_9], carry={"banker": 0, "seats": 3})
    split_all(game)
    # 牛九 with J♣ on top beats 牛九 with T♦ on top.
    assert game.next_carry()["banker"] == 2


def test_douniu_undeclared_bull_nine_does_not_count() -> None:
    game = make("douniu", [BULL_8, BULL_9, NO_BULL], carry={"banker": 0, "seats": 3})
    game.apply(1, "nobull")
    split_all(game)
    assert game.next_carry()["banker"] == 0


def test_douniu_banker_own_bull_nine_stays() -> None:
    game = make("douniu", [BULL_9, BULL_8, NO_BULL], carry={"banker": 0, "seats": 3})
    split_all(game)
    assert game.next_carry()["banker"] == 0


def test_douniu_escaped_banker_gives_up_the_bank() -> None:
    game = make("douniu", [BULL_8, BULL_BULL, NO_BULL], carry={"banker": 0, "seats": 3})
    game.escape(0)
    play_out(game)
    assert game.next_carry() == {}
    assert game.outcome().lines[-1].key == "niuniu.line.next_random"


def test_douniu_carry_from_another_table_size_is_ignored() -> None:
    carried = {"banker": 3, "seats": 5}
    bankers = {DouniuGame(Setup(seats=4, seed=s, carry=carried)).banker for s in range(30)}
    assert len(bankers) > 1
    bankers = {DouniuGame(Setup(seats=5, seed=s, carry=carried)).banker for s in range(30)}
    assert bankers == {3}


def test_happy_banker_random_every_hand() -> None:
    bankers = {
        HappyDouniuGame(Setup(seats=5, seed=s, carry={"banker": 1, "seats": 5})).banker
        for s in range(40)
    }
    assert bankers == set(range(5))
    assert HappyDouniuGame(Setup(seats=3, seed=1)).next_carry() == {}


# --- escape --------------------------------------------------------------------------------------
# 欢乐斗牛 (001): "闲家逃跑扣除25分，庄家逃跑扣除100分。有人逃跑后，将逃跑玩家的牌和对家比较，
# 若对家赢则按照正常的输赢给对家加分，若对家输而逃跑玩家赢则不扣除对家分数。"
VERSUS, ESCAPE = "niuniu.reason.versus", "niuniu.reason.escape"


def moves(game: Game) -> list[tuple[int, int, int, str]]:
    """The outcome's transfers as (payer, payee, points, reason key)."""
    out = game.outcome()
    assert out.points == net_points(game.setup.seats, out.transfers)
    return [(t.payer, t.payee, t.points, t.reason.key if t.reason else "") for t in out.transfers]


def test_happy_player_escape_banker_wins() -> None:
    seed = happy_seed(3, 0)
    game = make("douniu_happy", [BULL_8, NO_BULL, BULL_BULL], seed=seed)
    game.escape(1)
    assert 1 in game.escaped and 1 in game.to_act()
    play_out(game)
    # The 闲 escaper pays 25 in all: the banker, who beats it, is paid its normal 10 and
    # gets the other 15 as the escape penalty; seat 2 (牛牛) beats the banker normally: 15.
    assert moves(game) == [(1, 0, 10, VERSUS), (0, 2, 15, VERSUS), (1, 0, 15, ESCAPE)]
    assert game.outcome().points == (10, -25, 15)
    assert Text("niuniu.line.escape", {"seat": 2, "points": 25}) in game.outcome().lines


def test_happy_player_escape_escaper_would_win() -> None:
    seed = happy_seed(2, 0)
    game = make("douniu_happy", [NO_BULL, FIVE_FLOWER], seed=seed)
    game.escape(1)
    play_out(game)
    # The banker loses to the escaper's 五花牛 but is not charged; the escaper pays 25.
    assert moves(game) == [(1, 0, 25, ESCAPE)]
    assert game.outcome().points == (25, -25)
    line = game.outcome().lines[0]
    assert line.key == "niuniu.line.versus" and line.args["amount"] == 0


def test_happy_banker_escape() -> None:
    seed = happy_seed(3, 0)
    game = make("douniu_happy", [BULL_8, NO_BULL, FIVE_FLOWER], seed=seed)
    game.escape(0)
    play_out(game)
    # 庄 pays 100: seat 2 (五花牛) is paid its 25; seat 1 (lost) is not charged; the other 75
    # go to the two players in equal shares, the odd point to seat 1 (the banker's left).
    assert moves(game) == [(0, 2, 25, VERSUS), (0, 1, 38, ESCAPE), (0, 2, 37, ESCAPE)]
    assert game.outcome().points == (-100, 38, 62)
    assert Text("niuniu.line.escape", {"seat": 1, "points": 100}) in game.outcome().lines


def test_happy_banker_escape_pays_more_when_owed_more() -> None:
    hands = [
        "Th 9c 8s 6h 4h",
        FIVE_FLOWER,
        "Jc Jh Qs Qc Kh",
        "As Ah Ac Ad 2d",
        "5s 5h 5c 5d 6s",
        "3s 3h 3c 3d 4s",
    ]
    kinds = [best_hand(H(h)).kind for h in hands]
    assert kinds[0] == Kind.BULL_7 and min(kinds[1:]) == Kind.FOUR_BOMB
    seed = happy_seed(6, 0)
    game = make("douniu_happy", hands, seed=seed)
    game.escape(0)
    play_out(game)
    # Owed 25 + 25 + 20 + 20 + 20 = 110 > the 100-point banker penalty: it pays 110, no more.
    assert game.outcome().points == (-110, 25, 25, 20, 20, 20)
    assert {r for *_, r in moves(game)} == {VERSUS}


def test_escape_penalty_never_pays_the_escaper_s_fellow_escaper() -> None:
    seed = happy_seed(3, 0)
    game = make("douniu_happy", [BULL_8, NO_BULL, BULL_BULL], seed=seed)
    game.escape(0)
    game.escape(1)
    play_out(game)
    # Both escaped: seat 1's 25 goes to seat 2, the only seat still at the table; the banker's
    # 100 pays seat 2's 15 and the other 85 to seat 2 too. Neither escaper gains.
    assert moves(game) == [(0, 2, 15, VERSUS), (1, 2, 25, ESCAPE), (0, 2, 85, ESCAPE)]
    assert game.outcome().points == (-100, -25, 125)


def test_escaper_pays_at_most_what_it_carries_owed_part_first() -> None:
    seed = happy_seed(3, 0)
    game = make("douniu_happy", [BULL_8, NO_BULL, BULL_BULL], seed=seed, stakes=(None, 12, None))
    game.escape(1)
    play_out(game)
    assert moves(game) == [(1, 0, 10, VERSUS), (0, 2, 15, VERSUS), (1, 0, 2, ESCAPE)]


def test_happy_escape_before_acting_then_trustee_splits_best() -> None:
    seed = happy_seed(2, 0)
    game = make("douniu_happy", [NO_BULL, BULL_BULL], seed=seed)
    game.escape(1)
    assert game.trustee(1) == "split QcJcTs 8d2d"


@pytest.mark.parametrize("key", ["douniu", "niuniu"])
def test_escape_penalty_is_the_seats_max_loss(key: str) -> None:
    hands = [BULL_8, BULL_BULL, NO_BULL]
    game = make(key, hands, carry={"banker": 0, "seats": 3})
    while game.phase() == "grab":
        seat = game.to_act()[0]
        game.apply(seat, "bank" if seat == 0 else "decline")
    if key == "niuniu":
        game.apply(1, "bet 2")
        game.apply(2, "bet 5")
    unit = dict(game.units)
    game.escape(2)  # 没牛 against 牛八: owes 2 × unit, pays 5 × unit
    play_out(game)
    assert moves(game) == [
        (2, 0, 2 * unit[2], VERSUS),
        (0, 1, 3 * unit[1], VERSUS),
        (2, 0, 3 * unit[2], ESCAPE),
    ]
    points = game.outcome().points
    assert points[2] == -5 * unit[2]
    assert points[0] == 5 * unit[2] - 3 * unit[1]
    assert sum(points) == 0


def test_niuniu_banker_escape_penalty() -> None:
    game = make("niuniu", [BULL_BULL, BULL_8, NO_BULL])
    while game.banker is None:
        seat = game.to_act()[0]
        game.apply(seat, "bank" if seat == 0 else "decline")
    game.apply(1, "bet 10")
    game.apply(2, "bet 1")
    game.escape(0)
    play_out(game)
    # The banker's 牛牛 beats both: nobody is charged; it pays 5 × (10 + 1) = 55 to them.
    assert moves(game) == [(0, 1, 28, ESCAPE), (0, 2, 27, ESCAPE)]
    assert game.outcome().points == (-55, 28, 27)


def test_escape_is_idempotent_and_logged() -> None:
    game = make("douniu", [BULL_8, BULL_BULL, NO_BULL], carry={"banker": 0, "seats": 3})
    game.escape(1)
    game.escape(1)
    assert game.log == [(1, "escape")]
    with pytest.raises(IllegalActionError):
        game.escape(5)


# --- caps (§1.3) ----------------------------------------------------------------------------------
def test_player_pays_at_most_what_it_carries() -> None:
    game = make(
        "douniu",
        [FIVE_FLOWER, NO_BULL, BULL_1],
        carry={"banker": 0, "seats": 3},
        stakes=(None, 3, None),
    )
    split_all(game)
    assert game.outcome().points == (8, -3, -5)


def test_banker_short_pays_winners_pro_rata() -> None:
    game = make(
        "douniu",
        [NO_BULL, BULL_BULL, BULL_1, FOUR_BOMB],
        carry={"banker": 0, "seats": 4},
        stakes=(5, None, None, None),
        options={"base": 2},
    )
    split_all(game)
    # Owed 6 + 2 + 8 = 16 but the banker carries 5.
    points = game.outcome().points
    assert points[0] == -5 and sum(points) == 0
    assert points[1:] == (2, 1, 2)


def test_banker_short_pays_odd_points_from_its_left() -> None:
    game = make(
        "douniu",
        [BULL_1, BULL_BULL, NO_BULL, BULL_8],
        carry={"banker": 2, "seats": 4},
        stakes=(None, None, 2, None),
    )
    split_all(game)
    # Owed 1 (牛丁) + 3 (牛牛) + 2 (牛八) = 6 but the banker carries 2: 1/3, rounded down,
    # gives 0 + 1 + 0; the last point goes to seat 4, the first winner on the banker's left.
    assert game.outcome().points == (0, 1, -2, 1)


def test_banker_winnings_cover_its_losses() -> None:
    game = make(
        "douniu",
        [BULL_8, NO_BULL, FIVE_FLOWER],
        carry={"banker": 0, "seats": 3},
        stakes=(1, None, None),
    )
    split_all(game)
    # Wins 2 from seat 1, owes 5 to seat 2: pays 2 + its 1 carried.
    assert game.outcome().points == (-1, -2, 3)


# --- privacy, views, choices ------------------------------------------------------------------
def _texts(value: Any) -> Iterator[Text]:
    if isinstance(value, Text):
        yield value
        for arg in value.args.values():
            yield from _texts(arg)
    elif isinstance(value, View):
        yield from _texts(value.phase)
        for sv in value.seats:
            yield from _texts(sv.role)
            yield from _texts(sv.status)
        for line in value.lines:
            yield from _texts(line)
    elif isinstance(value, Choice):
        yield from _texts(value.label)
    elif isinstance(value, (list, tuple)):
        for v in value:
            yield from _texts(v)


def test_privacy_before_reveal() -> None:
    hands = [BULL_8, BULL_BULL, NO_BULL, FIVE_FLOWER]
    game = make("douniu", hands, carry={"banker": 0, "seats": 4})
    game.apply(1, "best")
    game.apply(3, "best")
    for viewer in [None, 0, 1, 2, 3]:
        view = game.view(viewer)
        for seat, sv in enumerate(view.seats):
            assert (sv.cards is not None) == (seat == viewer)
            kinds = [t.key for t in _texts(sv.status) if t.key.startswith("niuniu.kind.")]
            assert not kinds or seat == viewer
        assert view.hand == (None if viewer is None else game.view(viewer).seats[viewer].cards)
        # No other seat's card appears anywhere in the view.
        own = set(hands[viewer].split()) if viewer is not None else set()
        flat = repr(view)
        for seat, hand in enumerate(hands):
            if seat != viewer:
                for card in hand.split():
                    if card not in own:
                        assert f"'{card}" not in flat and f" {card}" not in flat, (viewer, card)
    split_all(game)
    view = game.view(None)
    assert all(sv.cards for sv in view.seats)
    assert view.seats[1].cards == "Qc Jc Ts 8d 2d"
    assert view.seats[0].cards == "Qs 6s 4s 5s 3h"  # the bull three first
    assert view.seats[1].status.args["points"] == 3


def test_choices_and_picker() -> None:
    game = make("douniu", [BULL_8, NO_BULL], carry={"banker": 0, "seats": 2})
    # Split buttons are the same for every seat: they may be shown publicly.
    assert game.choices(0) == game.choices(1)
    assert [c.action for c in game.choices(0)] == ["best", "nobull"]
    assert game.choices(0)[0].label == Text("niuniu.choice.best")
    picker = game.picker(0)
    assert picker is not None and picker.tokens == ("Qs", "6s", "5s", "4s", "3h")
    assert picker.min_values == picker.max_values == 3
    assert game.apply(0, picker.action(["4s", "Qs", "6s"])) == "split Qs6s4s 5s3h"
    assert game.picker(0) is None and game.choices(0) == []
    assert game.legal_actions(0) == []


def test_legal_split_actions() -> None:
    game = make("douniu", [BULL_8, NO_BULL], carry={"banker": 0, "seats": 2})
    assert game.legal_actions(0) == ["split Qs6s4s 5s3h", "nobull"]
    assert game.legal_actions(1) == ["nobull"]


def test_best_is_logged_as_the_explicit_split() -> None:
    game = make("douniu", [BULL_8, NO_BULL], carry={"banker": 0, "seats": 2})
    assert game.apply(0, "最佳") == "split Qs6s4s 5s3h"
    assert game.apply(1, "best") == "nobull"
    assert game.log == [(0, "split Qs6s4s 5s3h"), (1, "nobull")]


def test_bad_input_changes_nothing() -> None:
    game = make("douniu", [BULL_8, NO_BULL, BULL_BULL], carry={"banker": 0, "seats": 3})
    game.apply(1, "best")
    before = snapshot(game)
    cases = [
        (0, "split", NotationError),
        (0, "hello", NotationError),
        (0, "split As2s3s", IllegalActionError),
        (0, "split J7", NotationError),
        (0, "bank", NotationError),
        (1, "best", IllegalActionError),  # already split
        (7, "best", IllegalActionError),
    ]
    for seat, text, err in cases:
        with pytest.raises(err) as info:
            game.apply(seat, text)
        assert isinstance(info.value, GameError) and str(info.value)
        assert snapshot(game) == before
    split_all(game)
    with pytest.raises(IllegalActionError):
        game.apply(0, "best")
    with pytest.raises(IllegalActionError):
        SPEC["douniu"].game(Setup(seats=2, seed=1)).outcome()


# --- whole games: replay, conservation, trustee, texts -------------------------------------
def _random_game(seed: int) -> Game:
    rng = random.Random(seed)
    spec = SPECS[seed % 3]
    seats = rng.randint(2, 6)
    stakes = tuple(rng.choice([None, None, 3, 20, 200]) for _ in range(seats))
    game = spec.new(Setup(seats=seats, seed=seed, stakes=stakes))
    escaper = rng.randrange(seats) if rng.random() < 0.3 else None
    steps = 0
    while not game.is_over():
        if escaper is not None and steps == rng.randint(0, 6):
            game.escape(escaper)
        seats_now = list(game.to_act())
        seat = rng.choice(seats_now)
        legal = game.legal_actions(seat)
        action = game.trustee(seat)
        assert action in legal, (action, legal)
        if seat not in game.escaped and rng.random() < 0.5:
            action = rng.choice(legal)
        game.apply(seat, action)
        steps += 1
    return game


def test_many_games_conserve_points_and_replay() -> None:
    for seed in range(150):
        game = _random_game(seed)
        out = game.outcome()
        spec = SPECS[seed % 3]
        assert len(out.points) == game.setup.seats
        # The whole hand is pairwise transfers: zero-sum, escape penalties included, and a
        # penalty only ever runs from an escaper to a seat still at the table.
        assert sum(out.points) == 0
        assert out.points == net_points(game.setup.seats, out.transfers)
        for t in out.transfers:
            assert t.reason is not None and t.reason.key in (VERSUS, ESCAPE)
            if t.reason.key == ESCAPE:
                assert t.payer in game.escaped and t.payee not in game.escaped
            else:
                assert game.banker in (t.payer, t.payee)
        assert min(out.points) >= -spec.max_loss(spec.options, game.setup.seats)
        for seat, limit in enumerate(game.setup.stakes):
            if limit is not None:
                assert out.points[seat] >= -limit
        again = spec.from_record(game.to_record())
        assert again.to_text() == game.to_text()
        assert again.outcome() == out
        assert [again.view(s) for s in range(game.setup.seats)] == [
            game.view(s) for s in range(game.setup.seats)
        ]
        assert again.next_carry() == game.next_carry()
        assert spec.game.from_text(game.to_text()).outcome() == out


def test_replay_mid_hand() -> None:
    game = SPEC["niuniu"].new(Setup(seats=4, seed=11))
    for _ in range(5):
        seat = game.to_act()[0]
        game.apply(seat, game.trustee(seat))
    game.escape(2)
    again = SPEC["niuniu"].from_record(game.to_record())
    assert snapshot(again) == snapshot(game)
    assert again.escaped == {2}


def test_trustee_finishes_every_variant_and_size() -> None:
    for spec in SPECS:
        for seats in range(2, 7):
            for seed in range(6):
                game = spec.new(Setup(seats=seats, seed=seed))
                play_out(game, random.Random(seed))
                assert game.is_over()
                if spec.key == "niuniu":
                    assert not game.regrouped  # the last offer banks


def test_every_text_key_exists_in_both_locales() -> None:
    seen: set[str] = set()
    for seed in range(60):
        rng = random.Random(seed)
        spec = SPECS[seed % 3]
        seats = rng.randint(2, 6)
        game = spec.new(Setup(seats=seats, seed=seed))
        if seed % 7 == 0:
            game.escape(rng.randrange(seats))
        while True:
            for viewer in [None, *range(seats)]:
                for text in _texts(game.view(viewer)):
                    _check(text, seen)
            if game.is_over():
                break
            for seat in game.to_act():
                for text in _texts(game.choices(seat)):
                    _check(text, seen)
            seat = game.to_act()[0]
            action = (
                game.trustee(seat) if rng.random() < 0.7 else rng.choice(game.legal_actions(seat))
            )
            if game.phase() == "grab" and seed % 5 == 0:
                action = "decline"
            game.apply(seat, action)
        for text in _texts(list(game.outcome().lines)):
            _check(text, seen)
        for text in _texts([t.reason for t in game.outcome().transfers]):
            _check(text, seen)
    assert {
        "niuniu.reason.versus",
        "niuniu.reason.escape",
        "niuniu.line.regroup",
        "niuniu.line.escape",
        "niuniu.phase.grab",
        "niuniu.line.next_nine",
        "niuniu.status.ready",
    } <= seen


def _check(text: Text, seen: set[str]) -> None:
    seen.add(text.key)
    for locale in ("zh-CN", "en-US"):
        template = TEXTS[locale][text.key]
        args = {k: ("x" if isinstance(v, Text) else v) for k, v in text.args.items()}
        template.format_map(args)


def test_max_loss() -> None:
    assert SPEC["douniu"].max_loss({"base": 1}, 5) == 20
    assert SPEC["douniu"].max_loss({"base": 3}, 2) == 15
    assert SPEC["douniu_happy"].max_loss({}, 3) == 100
    assert SPEC["douniu_happy"].max_loss({}, 6) == 125
    assert SPEC["niuniu"].max_loss({"stakes": [1, 2, 5, 10]}, 6) == 250


def test_every_choice_applies() -> None:
    for seed in range(30):
        spec = SPECS[seed % 3]
        game = spec.new(Setup(seats=2 + seed % 5, seed=seed))
        while not game.is_over():
            for seat in game.to_act():
                for choice in game.choices(seat):
                    copy = spec.from_record(game.to_record())
                    assert copy.apply(seat, choice.action) in game.legal_actions(seat)
            seat = game.to_act()[0]
            game.apply(seat, game.trustee(seat))


def test_split_choices_identical_for_all_seats() -> None:
    for seed in range(20):
        game = SPEC["douniu"].new(Setup(seats=5, seed=seed))
        first = game.choices(0)
        assert all(game.choices(s) == first for s in game.to_act())


def test_niuniu_stakes_stay_visible() -> None:
    game = make("niuniu", [BULL_8, BULL_BULL, NO_BULL])
    while game.banker is None:
        seat = game.to_act()[0]
        game.apply(seat, "bank" if seat == 0 else "decline")
    game.apply(1, "bet 5")
    assert game.view(None).seats[1].status == Text("niuniu.status.stake", {"stake": 5})
    game.apply(2, "bet 2")
    status = game.view(None).seats[2].status
    assert status == Text(
        "niuniu.status.with_stake", {"stake": 2, "status": Text("niuniu.status.waiting")}
    )
    split_all(game)
    status = game.view(None).seats[1].status
    assert status is not None and status.key == "niuniu.status.with_stake"
    assert status.args["status"].args["points"] == 15  # 牛牛 ×3 on 5
