"""托管: never illegal, and the rules of thumb of the issue (go out, don't beat the partner,
bomb an opponent about to go out, lead low, keep bombs, bid from strength)."""

from __future__ import annotations

import random

import pytest
from ddz_support import new, rig

from engines.base import Setup
from engines.doudizhu import SPECS, parse_cards, parse_play
from engines.doudizhu.ai import bid_for, choose_play, hand_value, plays_needed, strength
from engines.doudizhu.patterns import playbook

BOOK = playbook()
NOTHING_OUT = [0] * 15


def decide(
    hand: str,
    previous: str | None = None,
    previous_seat: int | None = None,
    *,
    seat: int = 0,
    landlord: int = 0,
    left: list[int] | None = None,
    out: str = "",
) -> str:
    cards = parse_cards(hand)
    counts = list(left) if left else [17, 17, 17]
    counts[seat] = sum(cards)
    played = list(parse_cards(out)) if out else NOTHING_OUT
    prev = parse_play(previous) if previous else None
    return choose_play(cards, prev, previous_seat, seat, landlord, counts, played, BOOK)


@pytest.mark.parametrize("key", ["doudizhu", "doudizhu_happy"])
def test_trustee_is_never_illegal(key: str) -> None:
    rng = random.Random(11)
    decisions = 0
    for seed in range(60):
        options: dict[str, object] = {"doubling": True} if key == "doudizhu" else {}
        stakes = tuple(rng.choice([None, 5, 5000]) for _ in range(3))
        threshold = {"double_threshold": 100} if key == "doudizhu_happy" and seed % 2 else {}
        game = new(key, seed=seed, options=options | threshold, stakes=stakes)
        while not game.is_over():
            seats = game.to_act()
            for seat in seats:
                action = game.trustee(seat)
                assert action in game.legal_actions(seat), (game.snapshot(), seat, action)
                decisions += 1
            seat = seats[rng.randrange(len(seats))]
            if rng.random() < 0.6:
                game.apply(seat, game.trustee(seat))
            else:
                actions = game.legal_actions(seat)
                game.apply(seat, actions[rng.randrange(len(actions))])
    assert decisions > 2000


@pytest.mark.parametrize("key", [s.key for s in SPECS])
def test_trustee_plays_every_variant_legally_to_the_end(key: str) -> None:
    """Every registered 斗地主: seeded hands where every seat is the trustee, or the trustee
    mixed with random legal actions; each action legal, each hand ends, replays alike."""
    spec = next(s for s in SPECS if s.key == key)
    rng = random.Random(5)
    for seed in range(6):
        game = spec.new(Setup(seats=spec.seats_default, seed=seed))
        mixed = seed % 2 == 1
        steps = 0
        while not game.is_over():
            seats = game.to_act()
            seat = seats[rng.randrange(len(seats))] if mixed else seats[0]
            action = game.trustee(seat)
            legal = game.legal_actions(seat)
            assert action in legal, (key, seed, seat, action)
            if mixed and rng.random() < 0.4:
                action = legal[rng.randrange(len(legal))]
            game.apply(seat, action)
            steps += 1
            assert steps < 2000, (key, seed)
        assert steps >= 20  # a hand played out, not a deal nobody took
        out = game.outcome()
        assert sum(out.points) == 0
        again = spec.from_record(game.to_record())
        assert again.snapshot() == game.snapshot() and again.outcome() == out


def test_trustee_refuses_out_of_turn() -> None:
    game = new(seed=1, carry={"first": 0})
    with pytest.raises(Exception, match="turn"):
        game.trustee(1)


# --- going out ------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("hand", "previous", "expected"),
    [
        ("33", None, "33"),
        ("3456789", None, "3456789"),
        ("333444+58", None, "33344458"),
        ("KK", "QQ", "KK"),
        ("2222", "A", "2222"),  # a bomb that empties the hand
        ("BR", "2222", "BR"),
    ],
)
def test_goes_out_when_it_can(hand: str, previous: str | None, expected: str) -> None:
    prev_seat = 1 if previous else None
    assert decide(hand, previous, prev_seat) == expected


def test_plays_the_unbeatable_card_before_the_last_one() -> None:
    # two plays left: R cannot be beaten (B is already out), so lead it, then go out with 3
    assert decide("3R", out="B") == "R"


# --- partners ---------------------------------------------------------------------------------------
def test_farmer_does_not_beat_partners_winning_play() -> None:
    # seat 1 and seat 2 are farmers; seat 2's 5 stands, the landlord (0) has many cards
    assert decide("66789JQ", "5", 2, seat=1, landlord=0) == "pass"
    assert decide("KKKA5", "333J", 2, seat=1, landlord=0) == "pass"
    assert decide("KKKA", "333J", 2, seat=1, landlord=0) == "KKKA"  # but going out wins


def test_farmer_beats_the_landlords_play() -> None:
    assert decide("66789JQ", "5", 0, seat=1, landlord=0) != "pass"


def test_farmer_tops_partner_when_the_landlord_next_could_go_out() -> None:
    # seat 2 plays after seat 1... the landlord (0) plays next after seat 2 with 1 card left
    choice = decide("3 9 K 2 B", "5", 1, seat=2, landlord=0, left=[1, 10, 5])
    assert choice == "B"  # the highest single, so the landlord's last card cannot follow


def test_farmer_feeds_partner_on_one_card() -> None:
    # seat 1 leads, partner seat 2 has one card left: lead the lowest single
    assert decide("3 9 QQ KK 2", None, seat=1, landlord=0, left=[12, 7, 1]) == "3"


# --- bombs -----------------------------------------------------------------------------------------
def test_bombs_an_opponent_about_to_go_out() -> None:
    # the landlord (0) has 2 cards left and played an A; the farmer has no single above A
    assert decide("3333 4 5 6", "A", 0, seat=1, landlord=0, left=[2, 7, 17]) == "3333"
    assert decide("4 5 6 BR", "AA", 0, seat=1, landlord=0, left=[2, 5, 17]) == "BR"
    assert decide("4 5 6 BR", "AA", 0, seat=1, landlord=0, left=[12, 5, 17]) == "pass"


def test_keeps_bombs_when_there_is_no_danger() -> None:
    assert decide("3333 4 5 6 8 9 J Q", "A", 0, seat=1, landlord=0, left=[15, 12, 17]) == "pass"
    # and does not lead a bomb, nor break it, while other plays exist
    lead = decide("3333 6 8 J Q K 2", None)
    assert "3" not in lead


def test_smallest_bomb_first_and_rocket_last() -> None:
    assert decide("4444 9999 BR 5", "AA", 1, seat=0, landlord=0, left=[11, 1, 10]) == "4444"
    assert decide("4444 BR 5", "2222", 1, seat=0, landlord=0, left=[7, 1, 10]) == "BR"


# --- leading -----------------------------------------------------------------------------------------
def test_leads_low() -> None:
    assert decide("3 8 K 2 B") == "3"
    assert decide("44 8 K 2 2 B R") in {"44", "8"}
    assert decide("5 6 7 8 9 J Q 2") == "56789"  # a sequence is not split into singles
    assert decide("3 444 J Q K") == "3444"  # a trio carries the lowest single
    assert decide("33 444 J Q") == "33444"  # ... or the lowest pair


def test_avoids_singles_when_an_opponent_has_one_card() -> None:
    # the landlord leads; a farmer has one card: a pair, not a single
    assert decide("3 9 K 77", None, seat=0, landlord=0, left=[5, 1, 9]) == "77"
    # only singles: the highest first
    assert decide("3 9 K", None, seat=0, landlord=0, left=[3, 1, 9]) == "K"


def test_beats_cheaply() -> None:
    # the landlord answers a farmer's 5 with the lowest single that is not part of anything
    assert decide("3 8 TT K 2", "5", 1, seat=0, landlord=0) == "8"


# --- bidding --------------------------------------------------------------------------------------------
def test_bids_from_hand_strength() -> None:
    strong = parse_cards("BR 2222 AA KK 3456789")
    weak = parse_cards("3 4 5 7 8 9 T J Q 33 44 66 88")
    assert bid_for(strong) == 3 and strength(strong) > strength(weak)
    assert bid_for(weak) == 0
    game = new(seed=5, carry={"first": 0})
    rig(game, ["BR 2222 AA KK 3456789", "3 4 5 7 8 9 T J Q 33 44 66 88", ""], "TJQ")
    assert game.trustee(0) == "bid 3"
    game.apply(0, "bid 1")
    assert game.trustee(1) == "nobid"


def test_happy_trustee_calls_grabs_and_never_shows() -> None:
    game = new("doudizhu_happy", seed=5, carry={"first": 0})
    assert game.phase() == "bid" and game.open_offers(0)  # 明牌 is open, but never the trustee's
    strongest = max(range(3), key=lambda s: strength(tuple(game.hands[s])))
    expect = "call" if bid_for(tuple(game.hands[0])) >= 1 else "nocall"
    assert game.trustee(0) == expect
    assert strongest in (0, 1, 2)


def test_hand_value_counts_plays() -> None:
    assert plays_needed(parse_cards("3456789")) == 1
    assert plays_needed(parse_cards("3 5 7 9")) == 4
    assert plays_needed(parse_cards("333 5 777 9")) == 2  # trios carry the singles
    assert plays_needed(parse_cards("334455 6 8")) == 3
    assert hand_value(parse_cards("3333 5")) < hand_value(parse_cards("333 5 4"))  # a bomb helps
