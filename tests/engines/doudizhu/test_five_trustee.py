"""五人斗地主's trustee (托管) in the 亮出身份 and 加倍 steps: it reveals and doubles on hands
that win, declines on weak ones, always legally, and decides only on what the seat knows."""

from __future__ import annotations

import itertools

import pytest
from ddz_support import SPEC

from engines.base import Setup
from engines.doudizhu.five import DOUBLE_AT, REVEAL_AT, FiveGame, power, trustee_role
from engines.doudizhu.four import parse
from engines.errors import IllegalActionError

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


def test_a_landlord_reveals_a_strong_hand_and_keeps_a_weak_one_hidden() -> None:
    """The 明地主's trustee answers its step; the 暗地主's takes its offer (``trustee_offer``)
    on a strong hand and leaves it on a weak one, by the same strength rule."""
    for cards, expected in ((STRONG, "reveal"), (WEAK, "noreveal")):
        game = deal(True)
        assert trustee_role(game, game.landlord) == "ming"
        holding(game, game.landlord, cards)
        action = game.trustee(game.landlord)
        assert action == expected and action in game.legal_actions(game.landlord)
        assert game.trustee_offer(game.landlord) is None  # its reveal is a step, not an offer
        game.apply(game.landlord, action)
        assert game.known is (expected == "reveal")


def test_the_hidden_landlords_trustee_reveals_a_strong_hand_only() -> None:
    for cards, expected in ((STRONG, "reveal"), (WEAK, None)):
        game = deal(True)
        seat = game.partner
        assert seat is not None and trustee_role(game, seat) == "an"
        holding(game, seat, cards)
        assert (power(game.hands[seat]) >= REVEAL_AT["an"]) == (expected is not None)
        assert game.trustee_offer(seat) == expected
        assert all(game.trustee_offer(s) is None for s in range(5) if s != seat)
        if expected is not None:
            assert expected in [c.action for c in game.open_offers(seat)]
            game.apply(seat, expected)
            assert game.known and game.multiplier() == 2
            assert game.trustee_offer(seat) is None  # taken: nothing more to take
        assert game.to_act() == (game.landlord,)  # the step still waits for the 明地主


def test_the_hidden_landlords_trustee_may_still_reveal_in_the_doubling() -> None:
    """A seat put on 托管 after the 明地主's answer: its offer is open in the 加倍 step until
    its own 加倍 answer, so the trustee still takes it there; after that answer it is gone."""
    game = deal(True)
    seat = game.partner
    assert seat is not None
    holding(game, seat, STRONG)
    game.apply(game.landlord, "noreveal")
    assert game.phase() == "double" and game.trustee_offer(seat) == "reveal"
    game.apply(seat, "nodouble")
    assert game.trustee_offer(seat) is None and not game.known


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
    game.apply(game.landlord, "noreveal")
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
        game.apply(game.landlord, "noreveal")
        seat = farmers(game)[0]
        assert trustee_role(game, seat) == "farmer"
        holding(game, seat, hand)
        answers[two] = game.trustee(seat)
    assert answers[True] == answers[False]
    assert DOUBLE_AT["farmer1"] <= power(parse(hand)) < DOUBLE_AT["farmer2"]
    for two in (True, False):
        game = deal(two)
        game.apply(game.landlord, "reveal")  # the sides are public now
        assert game.phase() == "double"
        seat = farmers(game)[0]
        holding(game, seat, hand)
        assert trustee_role(game, seat) == ("farmer2" if two else "farmer1")
        assert game.trustee(seat) == ("nodouble" if two else "double")


def test_the_hidden_landlord_is_not_given_away_by_its_role() -> None:
    """A farmer's role never says whether the seat it faces has a partner before that is
    public, and the 暗地主's trustee keeping a weak hand hidden does nothing at all: no step,
    no status, nothing in the log."""
    game = deal(True)
    for seat in farmers(game):
        assert trustee_role(game, seat) == "farmer"
    assert game.partner is not None
    holding(game, game.partner, WEAK)
    before = [game.view(None).to_json(), game.view(farmers(game)[0]).to_json()]
    assert game.trustee_offer(game.partner) is None and game.partner not in game.to_act()
    with pytest.raises(IllegalActionError):
        game.trustee(game.partner)  # never asked for a step
    assert before == [game.view(None).to_json(), game.view(farmers(game)[0]).to_json()]
    assert game.log == []
    view = game.view(farmers(game)[0])
    assert view.seats[game.partner].status is None and view.seats[game.partner].role is None


def test_the_hidden_landlord_doubles_like_a_farmer_until_it_is_known() -> None:
    """加倍 is public: while the 暗地主 is hidden its trustee doubles exactly when a farmer
    with the same hand would, so how often a seat doubles does not point at it; once the
    sides are public it doubles by its own role's step."""
    game = deal(True)
    game.apply(game.landlord, "noreveal")
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


def trustee_move(game: FiveGame) -> tuple[int, str]:
    """The trustee's next action at an all-trustee table, as the host takes it: an offer the
    trustee takes (``trustee_offer``) first, else the step of the first seat to act."""
    for seat in range(5):
        offer = game.trustee_offer(seat)
        if offer is not None:
            assert offer in [c.action for c in game.open_offers(seat)]
            return seat, offer
    seat = game.to_act()[0]
    action = game.trustee(seat)
    assert action in game.legal_actions(seat)
    return seat, action


@pytest.mark.parametrize("seed", range(12))
def test_trustee_steps_are_legal_and_sometimes_yes(seed: int) -> None:
    """Seeded deals played by the trustee alone: every action legal."""
    game = five(seed)
    while not game.is_over():
        game.apply(*trustee_move(game))
    assert game.outcome().points


def test_over_many_deals_the_trustee_reveals_and_doubles_some_hands() -> None:
    said = {"reveal": 0, "noreveal": 0, "double": 0, "nodouble": 0}
    hidden = {"reveal": 0, "kept": 0}  # the 暗地主's offer, taken or left
    for seed in range(60):
        game = five(seed)
        while game.phase() != "play":
            seat, action = trustee_move(game)
            said[action] += 1
            game.apply(seat, action)
        if game.partner is not None:
            hidden["reveal" if game.revealed.get(game.partner) else "kept"] += 1
    assert said["reveal"] and said["noreveal"] > said["reveal"]
    assert said["double"] and said["nodouble"] > said["double"]
    assert hidden["reveal"] and hidden["kept"]
