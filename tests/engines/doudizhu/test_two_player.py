"""二人斗地主 / 面对面 for two (004 一, 十; GAMES.md §2.5): the deal, the role factor 1, the
generator on its hands, records and views."""

from __future__ import annotations

import random

import pytest
from ddz_support import SPEC
from test_moves import brute_force

from engines.base import Setup
from engines.doudizhu import DoudizhuGame, TwoPlayerGame
from engines.doudizhu.notation import NRANKS, format_cards, parse_cards
from engines.errors import IllegalActionError, OptionError

FULL = (4,) * 13 + (1, 1)


def two(seed: int = 1, first: int = 0, **options: object) -> DoudizhuGame:
    game = SPEC["doudizhu_2p"].new(
        Setup(seats=2, seed=seed, carry={"first": first}, options=options)
    )
    assert isinstance(game, TwoPlayerGame)
    return game


def rig2(game: DoudizhuGame, hands: list[str], kitty: str) -> None:
    """Chosen cards for the two seats and the kitty; the 11 others are out of play."""
    counts = [list(parse_cards(h)) for h in hands]
    kit = parse_cards(kitty)
    assert all(sum(c) == 20 for c in counts)
    used = [counts[0][r] + counts[1][r] + kit[r] for r in range(NRANKS)]
    assert all(u <= f for u, f in zip(used, FULL)) and sum(kit) == 3
    game.hands = counts
    game.dealt = [[r for r in range(NRANKS) for _ in range(h[r])] for h in counts]
    game.kitty = kit


def test_eleven_cards_out_twenty_each_kitty_three() -> None:
    removed = set()
    for seed in range(30):
        game = two(seed)
        assert [sum(h) for h in game.hands] == [20, 20] and sum(game.kitty) == 3
        total = [game.hands[0][r] + game.hands[1][r] + game.kitty[r] for r in range(NRANKS)]
        assert all(t <= f for t, f in zip(total, FULL)) and sum(total) == 43
        removed.add(tuple(f - t for t, f in zip(total, FULL)))
        # the whole deal is seen at once: 明牌 is an offer, never a step before the calling
        assert [sv.count for sv in game.view(0).seats] == [20, 20] and game.phase() == "bid"
    assert len(removed) == 30  # drawn at random each deal


def test_seats_and_base() -> None:
    with pytest.raises(OptionError):
        SPEC["doudizhu_2p"].new(Setup(seats=3, seed=1))
    assert two().base_score() == 4  # 004 十: "叫牌的分数为 4 分"


def spring_table() -> DoudizhuGame:
    game = two(seed=5, mingpai=False, doubling=False)
    rig2(
        game,
        ["3333456789TJQKAAAA22", "4445556667778889TTTK"],
        kitty="KBR",
    )
    return game


def test_worked_hand_grab_bombs_spring_role_factor_one() -> None:
    game = spring_table()
    assert game.phase() == "bid" and game.to_act() == (0,)
    # The first caller, the other seat grabs, the caller may grab back once (003 三).
    assert game.apply(0, "叫地主") == "call"
    assert game.apply(1, "抢地主") == "grab"
    assert game.legal_actions(0) == ["grab", "nograb"]
    assert game.apply(0, "grab") == "grab"
    assert game.landlord == 0 and game.phase() == "play"
    assert sum(game.hands[0]) == 23
    for play in ("3333", "456789TJQKA", "AAAK", "22", "BR"):
        game.apply(0, play)
        if not game.is_over():
            assert game.legal_actions(1) == ["pass"]
            game.apply(1, "pass")
    assert game.spring() == "spring"
    # 倍数 = 2 grabs ×4, bomb and rocket ×4, 春天 ×2 = 32; 底分 4; role factor 1 in 二人.
    assert game.multiplier() == 32
    out = game.outcome()
    assert out.points == (128, -128)
    assert out.winners == (0,)


def test_farmers_win_anti_spring_with_one_landlord_play() -> None:
    game = two(seed=5, mingpai=False, doubling=False)
    rig2(game, ["3456789TJQ2BKKKKAAA2", "33445566778899TTJJQQ"], kitty="QA2")
    game.apply(0, "nocall")
    game.apply(1, "call")  # the caller is landlord: nobody may grab (0 said 不叫)
    assert game.landlord == 1
    game.apply(1, "33")  # the landlord's only play
    for play in ("KKKK", "3456789TJQ", "AAA2", "2", "B"):  # KKKK: a bomb, ×2
        game.apply(0, play)
        if not game.is_over():
            assert game.legal_actions(1) == ["pass"]
            game.apply(1, "pass")
    assert game.winner == 0 and game.spring() == "anti"
    assert game.multiplier() == 4
    assert game.outcome().points == (16, -16)


def test_generator_agrees_with_the_classic_brute_force_on_two_player_hands() -> None:
    checked = 0
    for seed in range(40):
        game = two(seed)
        while not game.is_over():
            seat = game.to_act()[0]
            if game.phase() == "play" and sum(game.hands[seat]) <= 11:
                hand = format_cards(tuple(game.hands[seat]))
                previous = None if game.last is None else game.last.text
                acts = game.legal_actions(seat)
                assert len(acts) == len(set(acts))
                assert set(acts) - {"pass"} == brute_force(hand, previous)
                checked += 1
            action = game.trustee(seat)
            assert action in game.legal_actions(seat)
            game.apply(seat, action)
        assert sum(game.outcome().points) == 0
    assert checked > 200


def test_settlement_is_one_pair_at_factor_one() -> None:
    for seed in range(30):
        game = two(seed)
        while not game.is_over():
            seat = game.to_act()[0]
            game.apply(seat, game.trustee(seat))
        out = game.outcome()
        assert game.landlord is not None
        farmer = 1 - game.landlord
        stake = (
            4 * game.multiplier() * (2 if game.doubled[0] else 1) * (2 if game.doubled[1] else 1)
        )
        sign = 1 if game.winner == game.landlord else -1
        assert out.points[game.landlord] == sign * stake == -out.points[farmer]


def test_records_replay_with_escapes() -> None:
    rng = random.Random(2)
    for seed in range(20):
        game = two(seed)
        while not game.is_over():
            seats = game.to_act()
            seat = seats[rng.randrange(len(seats))]
            if rng.random() < 0.02:
                game.escape(seat)
            acts = game.legal_actions(seat)
            game.apply(seat, game.trustee(seat) if rng.random() < 0.5 else rng.choice(acts))
        again = SPEC["doudizhu_2p"].from_record(game.to_record())
        assert again.snapshot() == game.snapshot()
        assert again.outcome() == game.outcome()
        assert sum(game.outcome().points) == 0


def test_the_other_hand_and_the_kitty_stay_hidden() -> None:
    rng = random.Random(4)
    for seed in range(10):
        game = two(seed)
        while not game.is_over():
            for viewer in (0, 1):
                other = game.view(viewer).seats[1 - viewer]
                if not game.shown[1 - viewer]:
                    assert other.cards is None
                kitty_lines = [t for t in game.view(viewer).lines if t.key == "ddz.line.kitty"]
                assert bool(kitty_lines) == game.kitty_taken
            seats = game.to_act()
            seat = seats[rng.randrange(len(seats))]
            game.apply(seat, rng.choice(game.legal_actions(seat)))


# --- 发牌明牌 ×4 (004 五.3) and the first 明牌 player's first call (004 三.2), issue 23 -------
def offers(game: DoudizhuGame, seat: int) -> list[str]:
    return [c.action for c in game.open_offers(seat)]


def test_open_hand_at_the_deal_is_four_until_the_calling_begins() -> None:
    game = two(seed=3, first=0)
    # the deal has landed and nobody has answered yet: 发牌明牌 ×4 for both seats
    assert offers(game, 0) == ["show 4"] and offers(game, 1) == ["show 4"]
    game.apply(0, "nocall")  # the calling has begun: the deal is over, ×3 from now on
    assert offers(game, 0) == ["show 3"] and offers(game, 1) == ["show 3"]
    before = game.snapshot()
    with pytest.raises(IllegalActionError) as refused:
        game.apply(1, "show 4")
    assert refused.value.text is not None and refused.value.text.key == "err.ddz.show_closed"
    assert game.snapshot() == before
    assert game.apply(1, "明牌") == "show 3" and game.multiplier() == 3


def test_the_first_seat_to_show_at_the_deal_gets_the_first_call() -> None:
    """004 三.2 "如果有玩家在叫牌前选择明牌，则第一个选择明牌的玩家优先获得叫牌权"."""
    game = two(seed=3, first=0)
    assert game.to_act() == (0,)
    assert game.apply(1, "明牌") == "show 4"  # seat 1 shows before anyone has called
    assert game.to_act() == (1,) and game.first == 1
    assert game.multiplier() == 4 and game.shown == [0, 4]
    cards = format_cards(tuple(game.hands[1]))
    assert game.view(None).seats[1].cards == cards and game.view(0).seats[1].cards == cards
    assert offers(game, 0) == ["show 4"]  # the deal is still on: seat 0 may show at ×4 too
    game.apply(0, "show 4")
    assert game.to_act() == (1,)  # the first to show keeps the first call
    assert game.multiplier() == 4  # the largest 明牌 counts, once (004 五.5)
    # both 不叫: the first 明牌 player is landlord (004 三.3), no redeal
    game.apply(1, "nocall")
    game.apply(0, "nocall")
    assert game.landlord == 1 and game.deal_no == 0
    # the next hand's first caller still rotates from the seeded one
    assert game.next_carry() == {"first": 1}
    again = SPEC["doudizhu_2p"].from_record(game.to_record())
    assert again.snapshot() == game.snapshot()


def test_a_start_chooser_stays_first_over_a_show_at_the_deal() -> None:
    game = SPEC["doudizhu_2p"].new(
        Setup(seats=2, seed=3, carry={"first": 0}, starts=((0, "show 5"),))
    )
    assert game.to_act() == (0,) and offers(game, 0) == []
    assert game.apply(1, "show 4") == "show 4"
    assert game.to_act() == (0,)  # seat 0 chose 明牌 first, before the deal
    assert game.multiplier() == 5


def test_the_first_caller_showing_at_the_deal_stays_first() -> None:
    game = two(seed=3, first=0)
    assert game.apply(0, "show") == "show 4" and game.to_act() == (0,)
    assert offers(game, 1) == ["show 4"]
    game.apply(0, "call")
    assert offers(game, 1) == ["show 3"]


def test_mingpai_off_offers_nothing_at_the_deal() -> None:
    game = two(seed=3, first=0, mingpai=False)
    assert offers(game, 0) == [] and offers(game, 1) == []
