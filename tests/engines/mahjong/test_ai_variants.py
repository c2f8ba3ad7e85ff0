"""The hard trustee of 陕西, 武汉, 永州 and 二人麻将 (``engines.mahjong.ai_variants``): the
decisions a player would care about, each against what ``normal`` does on the same table."""

from __future__ import annotations

import random

import pytest
from mj_support import deal_hidden_again

from engines.base import Setup
from engines.mahjong import SPECS
from engines.mahjong.fan import Meld, MeldKind
from engines.mahjong.game import MahjongGame
from engines.mahjong.tiles import parse_hand, parse_tile, parse_tiles

SPEC = {s.key: s for s in SPECS}


def new(key: str, seed: int = 1) -> MahjongGame:
    spec = SPEC[key]
    game = spec.new(Setup(seats=spec.min_seats, seed=seed, options=spec.validate({})))
    assert isinstance(game, MahjongGame)
    return game


def test_erren_swap_gives_away_the_isolated_tile_not_a_pair_or_a_run() -> None:
    game = new("erren")
    seat = 1 - game.dealer  # 13 tiles
    game.hands[seat] = parse_hand("123m55m789p234s6s1z")
    assert game.trustee(seat, "normal") == "swap -"
    assert game.trustee(seat, "hard") == "swap 1z"


def test_erren_swap_keeps_a_hand_that_no_exchange_improves() -> None:
    game = new("erren")
    seat = 1 - game.dealer
    game.hands[seat] = parse_hand("123m456m789p234s5s")
    assert game.trustee(seat, "hard") == "swap -"


def _erren_turn(hand: str, drawn: str) -> tuple[MahjongGame, int]:
    game = new("erren")
    for s in (0, 1):
        game.apply(s, "swap -")
    seat = game.turn
    game.hands[seat] = parse_hand(hand)
    game.drawn = parse_tile(drawn)
    return game, seat


def test_erren_cuo_offer_takes_the_winning_tile() -> None:
    game, seat = _erren_turn("123m456m789p234s5s7z", "7z")
    game.cuo_offer = True  # type: ignore[attr-defined]
    game.unused = [parse_tile("5s"), parse_tile("1z")]  # type: ignore[attr-defined]
    assert game.trustee(seat, "normal") in ("7z", "ting 7z")
    assert game.trustee(seat, "hard") == "cuo 5s"
    game.apply(seat, "cuo 5s")
    assert game.trustee(seat, "hard") == "hu"


def _erren_claim(theirs: str) -> tuple[MahjongGame, int]:
    """The dealer throws 5z to a seat holding ``theirs`` (13 tiles, a pair of 5z)."""
    game = new("erren")
    for s in (0, 1):
        game.apply(s, "swap -")
    dealer = game.turn
    game.hands[dealer] = parse_hand("5z123m456p789s1122s")
    game.hands[1 - dealer] = parse_hand(theirs)
    game.apply(dealer, "5z")
    assert game.legal_actions(1 - dealer) == ["peng", "pass"]
    return game, 1 - dealer


def test_erren_keeps_the_hand_concealed_unless_a_peng_makes_it_ready() -> None:
    # a 碰 that only brings the hand a step closer gives up 门清 and 门清报听 (1番 each)
    game, seat = _erren_claim("55z11s12m46p78s9p1z3z")
    assert game.trustee(seat, "normal") == "peng"
    assert game.trustee(seat, "hard") == "pass"
    game, seat = _erren_claim("55z123m456p78s99s1z")
    assert game.trustee(seat, "hard") == "peng"  # then 1z out: ready on 6s/9s


def test_wuhan_waits_with_a_258_pair_where_the_shanten_player_breaks_it() -> None:
    game = new("wuhan")
    seat = game.turn
    game.laizi = parse_tile("2z")  # type: ignore[attr-defined]
    game.hands[seat] = parse_hand("456m456p789s11s88m7m")
    # 8m leaves 11s as the pair (not 2/5/8: no win); 7m waits on 1s with 88m as the pair
    assert game.trustee(seat, "normal") == "8m"
    assert game.trustee(seat, "hard") == "7m"


def test_wuhan_counts_the_laizi_as_any_tile() -> None:
    game = new("wuhan")
    seat = game.turn
    game.laizi = parse_tile("9p")  # type: ignore[attr-defined]
    # with the 癞子 as the pair's partner: 123m 456m 789s 34s + 5s|9p, ready whatever it drops
    game.hands[seat] = parse_hand("123m456m789s34s5s9p1z")
    action = game.trustee(seat, "hard")
    assert action == "1z" and game.hands[seat][game.laizi] == 1


def test_wuhan_plays_a_hand_rich_in_one_suit_for_qingyise() -> None:
    game = new("wuhan")
    seat = game.turn
    game.laizi = parse_tile("2z")  # type: ignore[attr-defined]
    game.hands[seat] = parse_hand("1345567899m157p5s")
    # ten 万: a 清一色 (大胡, ten times a 小胡) is in reach; the shanten player throws a 万
    assert game.trustee(seat, "normal") == "1m"
    assert game.trustee(seat, "hard") == "1p"


def test_shaanxi_stakes_paozi_on_a_strong_hand_only() -> None:
    game = new("shaanxi")
    strong = next(s for s in range(4) if s != game.dealer)
    weak = next(s for s in range(4) if s not in (game.dealer, strong))
    game.hands[strong] = parse_hand("123m456m789p23s55s")
    game.hands[weak] = parse_hand("159m147p369s1357z")
    assert game.trustee(strong, "normal") == "pao 0"
    assert game.trustee(strong, "hard") == "pao 4"
    assert game.trustee(weak, "hard") == "pao 0"


def test_yongzhou_far_hand_throws_the_genbutsu_of_a_ready_looking_opponent() -> None:
    game = new("yongzhou")
    seat = game.turn
    foe = (seat + 1) % 4
    game.hands[seat] = parse_hand("2345m2477p122379s")
    game.rivers[foe] = parse_tiles("9s1s2z3z4z9p1p8s2s6p7m3p")
    game.melds[foe] = [Meld(MeldKind.PENG, parse_tile("6m"), seat),
                       Meld(MeldKind.PENG, parse_tile("4p"), seat)]
    # two 碰 and twelve discards: likely ready; the hand is far from ready
    assert game.trustee(seat, "normal") == "2m"
    assert game.trustee(seat, "hard") == "9s"  # in that opponent's river
    game.melds[foe] = []
    game.rivers[foe] = game.rivers[foe][:3]
    assert game.trustee(seat, "hard") == "2m"  # no threat: as fast as normal


def test_yongzhou_keeps_a_dragon_triplet_the_shanten_player_breaks() -> None:
    game = new("yongzhou")
    seat = game.turn
    game.hands[seat] = parse_hand("258m148p116s25777z")
    # 777z (白, 三元: 1番, x2 the points) is a set as good as any for speed
    assert game.trustee(seat, "normal") == "7z"
    assert game.trustee(seat, "hard") == "2m"


def test_yongzhou_plays_a_hand_rich_in_one_suit_for_the_flush() -> None:
    game = new("yongzhou")
    seat = game.turn
    game.hands[seat] = parse_hand("1122355679m28p18s")
    # ten 万: 清一色 (4番) is near; the shanten player throws a 万
    assert game.trustee(seat, "normal") == "9m"
    assert game.trustee(seat, "hard") == "2p"


@pytest.mark.parametrize("key", ["shaanxi", "wuhan", "yongzhou", "erren"])
@pytest.mark.parametrize("seed", range(6))
def test_hard_self_play_is_always_legal(key: str, seed: int) -> None:
    # the other seats now and then play a random legal action, to reach the odd corners
    # (报听 and 海底, offers, 抢杠, a wall played out)
    game = new(key, seed)
    rng = random.Random(seed)
    for _ in range(3000):
        if game.is_over():
            break
        seat = rng.choice(game.to_act())
        action = game.trustee(seat, "hard")
        legal = game.legal_actions(seat)
        assert action in legal, (action, legal)
        if seat != seed % game.N and rng.random() < 0.3:
            action = rng.choice(legal)
        game.apply(seat, action)
    assert game.is_over()


@pytest.mark.parametrize("key", ["shaanxi", "wuhan", "yongzhou", "erren"])
def test_the_choice_ignores_other_hands_and_the_wall(key: str) -> None:
    # mid-hand, what the seat to act may not see is dealt again at random: same choice
    game = new(key, 4)
    rng = random.Random(5)
    checked = 0
    for step in range(400):
        if game.is_over() or checked >= 4:
            break
        seat = game.to_act()[0]
        if step % 4 == 3 and game.phase() == "discard" and len(game.to_act()) == 1:
            choice = game.trustee(seat, "hard")
            hands = [list(h) for h in game.hands]
            wall = list(game.wall)
            deal_hidden_again(game, seat, rng)
            assert game.trustee(seat, "hard") == choice, step
            game.hands, game.wall = hands, wall
            checked += 1
        game.apply(seat, game.trustee(seat, "hard"))
    assert checked >= 2
