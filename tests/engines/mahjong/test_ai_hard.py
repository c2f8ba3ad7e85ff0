"""The ``hard`` 四川 / 血战 trustee: 缺 chosen by value, a hand leaning to 清一色 built so,
folding towards the suits a threatening opponent cannot win in, always legal, and blind to
what its seat may not see (other hands, the wall)."""

from __future__ import annotations

import random

import pytest
from mj_support import deal_hidden_again

from engines.base import Setup
from engines.mahjong import SPECS, MahjongGame, XuezhanGame, stacked_wall
from engines.mahjong.ai_plan import reach
from engines.mahjong.fan import Meld, MeldKind
from engines.mahjong.tiles import parse_tiles

SPEC = {s.key: s for s in SPECS}
OTHERS = ["13579m13579s258p", "24568m24568s679p", "13579m13579s789p"]
"""Seats 1-3: singles that claim nothing on the tiles seat 0 throws."""


def dealt(hand: str, draw: str, options: dict[str, object] | None = None,
          kind: type[MahjongGame] = MahjongGame) -> MahjongGame:
    """Seat 0 deals ``hand`` and draws ``draw`` as its 14th tile."""
    setup = Setup(seats=4, seed=0, options=options or {}, carry={"dealer": 0})
    return kind(setup, wall=stacked_wall([hand, *OTHERS], draw, 0))


def test_dingque_drops_the_scattered_suit_not_the_shortest() -> None:
    # 123m is a finished set; 1479p are four loose tiles: fewest tiles is m, least worth is p
    game = dealt("123m1479p234567s", "9s", {"dingque": True})
    assert game.trustee(0, "normal") == "que m"
    assert game.trustee(0, "hard") == "que p"


def test_a_hand_leaning_to_one_suit_throws_the_other_suit_for_qingyise() -> None:
    # eleven 筒 and 45m: the shanten player keeps 45m and throws 1p; a 清一色 (4 倍) is near
    game = dealt("11234567899p45m", "3p")
    assert game.trustee(0, "normal") == "1p"
    assert game.trustee(0, "hard") in ("4m", "5m")


def threatened(hand: str = "3468m234567889p", draw: str = "9m",
               kind: type[MahjongGame] = MahjongGame) -> MahjongGame:
    """Late in the hand, seat 1 has 碰 2m and 7s (so it cannot win in 筒) and has cut middle
    tiles of its suits lately; seats 2 and 3 threw only terminals and 万 (harmless); seat 0
    holds 万 and 筒, too far from ready to win in the few draws left."""
    game = dealt(hand, draw, kind=kind)
    game.pos += 44  # the wall as late as the rivers say
    game.melds[1] = [Meld(MeldKind.PENG, parse_tiles("2m")[0], 2),
                     Meld(MeldKind.PENG, parse_tiles("7s")[0], 3)]
    game.rivers[1] = parse_tiles("1p9p3p7p5p2s4s8s")
    for s in (2, 3):
        game.rivers[s] = parse_tiles("1m9m6p2m1s9s")
    return game


def test_a_far_hand_folds_to_the_suit_a_threatening_opponent_cannot_win_in() -> None:
    game = threatened()
    assert game.trustee(0, "normal") == "9m"
    assert parse_tiles(game.trustee(0, "hard"))[0] // 9 == 1  # a 筒: safe against seat 1


def test_in_xuezhan_the_far_hand_keeps_building_where_sichuan_folds() -> None:
    # 血战: the others' wins do not end the hand, so the same far hand still has time to win
    # after them; it keeps the shanten player's discard instead of the 筒 it folds to in 四川
    assert parse_tiles(threatened().trustee(0, "hard"))[0] // 9 == 1
    assert threatened(kind=XuezhanGame).trustee(0, "hard") == "9m"


def test_a_river_opening_with_one_tile_names_the_suit_that_seat_does_without() -> None:
    # seat 1 opened with a lone 5s, then cut middle 万 and 筒 late (ready-looking); seats 2
    # and 3 opened with 1s 9s and threw only terminals. A shanten hand that ready seat gives
    # up on 条 (a ready shanten player's first tile is of its void suit 99 times in 100):
    # the far hand throws the 1s (现物 against 2 and 3), not the live 1m nor a middle 条
    game = dealt("1568m124688s22s3s", "6m")
    game.pos += 44
    game.rivers[1] = parse_tiles("5s2m8p4m6p3m5p7m4p")
    for s in (2, 3):
        game.rivers[s] = parse_tiles("1s9s1m9m1p9p")
    assert game.trustee(0, "normal") == "1m"
    assert game.trustee(0, "hard") == "1s"


def test_the_choice_ignores_other_hands_and_the_wall() -> None:
    # what seat 0 may not see is dealt again at random: its choice stays the same
    game = threatened()
    choice = game.trustee(0, "hard")
    rng = random.Random(5)
    for _ in range(3):
        deal_hidden_again(game, 0, rng)
        assert game.trustee(0, "hard") == choice


@pytest.mark.parametrize("key", ["sichuan", "xuezhan"])
@pytest.mark.parametrize("options", [{}, {"dingque": True}])
def test_hard_self_play_is_legal_and_settles(key: str, options: dict[str, object]) -> None:
    spec = SPEC[key]
    for seed in range(3):
        game = spec.new(Setup(seats=4, seed=seed, options=spec.validate(options)))
        while not game.is_over():
            seat = game.to_act()[0]
            action = game.trustee(seat, "hard")
            assert action in game.legal_actions(seat), (seed, action)
            game.apply(seat, action)
        assert sum(game.outcome().points) == 0


def test_reach_is_a_probability_that_grows_with_draws_and_falls_with_steps() -> None:
    assert reach(10, 0.2, 0, 0.0) == 1.0
    assert reach(0, 0.2, 1, 0.0) == 0.0
    one = reach(10, 0.2, 1, 0.0)
    assert one == pytest.approx(1 - (1 - 0.2 * 2.0) ** 10)  # the win also on discards
    assert reach(10, 0.2, 3, 0.0) < one < reach(20, 0.2, 1, 0.0)
    assert reach(10, 0.2, 1, 0.1) < one


def test_ten_of_one_suit_keeps_the_suit_and_throws_the_other() -> None:
    # ten 筒 and 3467s: the shanten player throws the 9p (keeping 34s and 67s); hard builds
    # the 清一色 (4 倍 against 1) and throws a 条
    game = dealt("3345566689p467s", "3s")
    assert game.trustee(0, "normal") == "9p"
    assert parse_tiles(game.trustee(0, "hard"))[0] // 9 == 2


def test_two_triplets_and_two_pairs_keep_their_pairs_for_duiduihu() -> None:
    # 555p 666s, 33p 88p: the shanten player breaks the 88p pair; hard keeps every pair for
    # 对对胡 and throws a lone tile
    game = dealt("334555889p2666s", "7p")
    assert game.trustee(0, "normal") == "8p"
    choice = game.trustee(0, "hard")
    assert game.hands[0][parse_tiles(choice)[0]] == 1


def test_five_pairs_pass_a_peng_that_would_end_the_qidui() -> None:
    # seat 1 holds five pairs (22m 88m 44p 66p 11s) and 3p 9p 5s, two draws from 七对; a 碰
    # of the 4p seat 0 throws would end the 七对 (4 倍) for a 平胡: hard passes
    setup = Setup(seats=4, seed=0, options={}, carry={"dealer": 0})
    wall = stacked_wall(["123456789m2345p", "22m88m44p66p11s39p5s", *OTHERS[1:]], "9s", 0)
    game = MahjongGame(setup, wall=wall)
    game.apply(0, "4p")
    assert game.legal_actions(1) == ["peng", "pass"]
    assert game.trustee(1, "hard") == "pass"


def test_the_suit_done_without_goes_middle_tiles_first_while_it_is_early() -> None:
    # 血战, 定缺 万 with 1m and 5m left: early on, the 5m goes first and the 1m is kept for the
    # late turns (血战 always reaches them), when the others are readier and a terminal
    # completes fewer of their waits. 四川's first win ends the hand: the terminal goes first
    for kind, tile in ((XuezhanGame, "5m"), (MahjongGame, "1m")):
        game = dealt("15m123456p23456s", "9s", {"dingque": True}, kind=kind)
        for seat, suit in enumerate("mppp"):
            game.apply(seat, f"que {suit}")
        assert game.trustee(0, "hard") == tile, kind
