"""五人斗地主's trustee (托管) in the 亮出身份 and 加倍 steps: it reveals and doubles on hands
that win, declines on weak ones, always legally, and decides only on what the seat knows."""

from __future__ import annotations

import itertools

import pytest
from ddz_support import SPEC

from engines.base import Setup
from engines.doudizhu.five import DOUBLE_AT, REVEAL_AT, FiveGame, power, trustee_role
from engines.doudizhu.four import parse

STRONG = "RRBB22223333AKQJ98765"
"""Four jokers, two bombs, a 顺子: a hand that all but wins alone (power 19)."""
WEAK = "334567899TJQQK46789TJ"
"""No joker, no 2, no bomb, many ranks to play out (power −10)."""


def five(seed: int) -> FiveGame:
    game = SPEC["doudizhu_five"].new(Setup(seats=5, seed=seed))
    assert isinstance(game, FiveGame)
    return game


def deal(two: bool, start: int = 0) -> FiveGame:
    """The first seeded deal from ``start`` with (or without) a 暗地主."""
    for seed in itertools.count(start):
        game = five(seed)
        if (game.partner is not None) == two:
            return game
    raise AssertionError


def holding(game: FiveGame, seat: int, cards: str) -> None:
    """Give ``seat`` these cards plus one of the 明牌's rank if it is a landlord (so the
    hand still holds the card that makes it one)."""
    counts = list(parse(cards))
    if seat in game.landlords:
        counts[game.marker[0]] += 1
    game.hands[seat] = counts


def farmers(game: FiveGame) -> list[int]:
    return [s for s in range(5) if s not in game.landlords]


def test_power_orders_hands() -> None:
    assert power(parse(STRONG)) >= 15
    assert power(parse(WEAK)) < 0
    assert power(parse(WEAK)) < min(REVEAL_AT.values())
    assert power(parse(STRONG)) >= max(*REVEAL_AT.values(), *DOUBLE_AT.values())


@pytest.mark.parametrize("seat_kind", ["ming", "an"])
def test_a_landlord_reveals_a_strong_hand_and_keeps_a_weak_one_hidden(seat_kind: str) -> None:
    for cards, expected in ((STRONG, "reveal"), (WEAK, "noreveal")):
        game = deal(True)
        seat = game.landlord if seat_kind == "ming" else game.partner
        assert seat is not None and trustee_role(game, seat) == seat_kind
        holding(game, seat, cards)
        action = game.trustee(seat)
        assert action == expected and action in game.legal_actions(seat)
        game.apply(seat, action)
        assert game.known is (expected == "reveal")


def test_a_lone_landlord_reveals_only_what_wins_alone() -> None:
    """1 against 4: revealing doubles the stakes and tells the farmers they are four."""
    game = deal(False)
    assert game.to_act() == (game.landlord,) and trustee_role(game, game.landlord) == "alone"
    holding(game, game.landlord, "RB22AAAKKKQQQ7775554")  # fair (power 2-3), not enough
    assert game.trustee(game.landlord) == "noreveal"
    holding(game, game.landlord, STRONG)
    assert game.trustee(game.landlord) == "reveal"


def test_doubling_strong_and_weak_hands() -> None:
    game = deal(True)
    for seat in game.landlords:
        game.apply(seat, "noreveal")
    assert game.phase() == "double"
    strong, weak = farmers(game)[:2]
    holding(game, strong, STRONG)
    holding(game, weak, WEAK)
    holding(game, game.landlord, STRONG)
    assert game.partner is not None
    holding(game, game.partner, WEAK)
    expected = {strong: "double", weak: "nodouble", game.landlord: "double"}
    expected[game.partner] = "nodouble"
    for seat, action in expected.items():
        assert game.trustee(seat) == action
        assert action in game.legal_actions(seat)


def test_a_farmer_decides_on_what_it_knows() -> None:
    """Before the 暗地主 is known a farmer cannot tell a 2-against-3 deal from 1 against 4:
    the same hand gets the same answer in both; once the sides are public it may differ."""
    hand = "RB22AAAKKKQQQ77755543"  # a farmer's fair hand (power 2)
    answers = {}
    for two in (True, False):
        game = deal(two)
        for seat in game.landlords:
            game.apply(seat, "noreveal")
        seat = farmers(game)[0]
        assert trustee_role(game, seat) == "farmer"
        holding(game, seat, hand)
        answers[two] = game.trustee(seat)
    assert answers[True] == answers[False]
    assert DOUBLE_AT["farmer1"] <= power(parse(hand)) < DOUBLE_AT["farmer2"]
    for two in (True, False):
        game = deal(two)
        game.apply(game.landlord, "reveal")  # the sides are public now
        if game.partner is not None:
            game.apply(game.partner, "noreveal")
        seat = farmers(game)[0]
        holding(game, seat, hand)
        assert trustee_role(game, seat) == ("farmer2" if two else "farmer1")
        assert game.trustee(seat) == ("nodouble" if two else "double")


def test_the_hidden_landlord_is_not_given_away_by_its_role() -> None:
    """A farmer's role never says whether the seat it faces has a partner before that is
    public, and the 暗地主's own answer is not shown (its declined reveal has no status)."""
    game = deal(True)
    for seat in farmers(game):
        assert trustee_role(game, seat) == "farmer"
    assert game.partner is not None
    holding(game, game.partner, WEAK)
    game.apply(game.partner, game.trustee(game.partner))
    view = game.view(farmers(game)[0])
    assert view.seats[game.partner].status is None and view.seats[game.partner].role is None


def test_the_hidden_landlord_doubles_like_a_farmer_until_it_is_known() -> None:
    """加倍 is public: while the 暗地主 is hidden its trustee doubles exactly when a farmer
    with the same hand would, so how often a seat doubles does not point at it; once the
    sides are public it doubles by its own role's step."""
    game = deal(True)
    for seat in game.landlords:
        game.apply(seat, "noreveal")
    assert game.phase() == "double" and not game.known and game.partner is not None
    partner, farmer = game.partner, farmers(game)[0]
    for hand in ("RB22AAAKKKQQQ7775554", "B22AAAKKKQQQ7775554", "B22AAAKKKQQQ77755543"):
        holding(game, partner, hand)  # with the 明牌's rank, which a landlord holds
        if DOUBLE_AT["an"] <= power(game.hands[partner]) < DOUBLE_AT["farmer"]:
            break
    assert DOUBLE_AT["an"] <= power(game.hands[partner]) < DOUBLE_AT["farmer"]
    game.hands[farmer] = list(game.hands[partner])
    assert game.trustee(partner) == game.trustee(farmer) == "nodouble"
    hand = list(game.hands[partner])
    game = deal(True)
    game.apply(game.landlord, "noreveal")
    assert game.partner == partner
    game.apply(partner, "reveal")  # the sides are public now
    assert game.phase() == "double" and game.known
    game.hands[partner] = hand
    assert game.trustee(partner) == "double"


@pytest.mark.parametrize("seed", range(12))
def test_trustee_steps_are_legal_and_sometimes_yes(seed: int) -> None:
    """Seeded deals played by the trustee alone: every action legal."""
    game = five(seed)
    while not game.is_over():
        seat = game.to_act()[0]
        action = game.trustee(seat)
        assert action in game.legal_actions(seat)
        game.apply(seat, action)
    assert game.outcome().points


def test_over_many_deals_the_trustee_reveals_and_doubles_some_hands() -> None:
    said = {"reveal": 0, "noreveal": 0, "double": 0, "nodouble": 0}
    for seed in range(60):
        game = five(seed)
        while game.phase() != "play":
            seat = game.to_act()[0]
            action = game.trustee(seat)
            said[action] += 1
            game.apply(seat, action)
    assert said["reveal"] and said["noreveal"] > said["reveal"]
    assert said["double"] and said["nodouble"] > said["double"]
