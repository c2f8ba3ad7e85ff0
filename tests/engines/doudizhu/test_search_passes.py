"""The hard trustee's worlds (engines/doudizhu/search.py, search_passes.py): every seat dealt
as many cards as it holds, none of the cards the deciding seat has seen, far fewer worlds
giving a seat the cards that would have beaten a play it passed, the same worlds for the same
position, and a hard trustee that only ever plays legal actions."""

from __future__ import annotations

import pytest
from ddz_support import FULL, new, rig

from engines.base import HARD
from engines.doudizhu import DoudizhuGame
from engines.doudizhu.notation import ACE, NRANKS, TWO
from engines.doudizhu.search import sample
from engines.doudizhu.search_passes import evidence


def passed_over() -> tuple[DoudizhuGame, int, int, int]:
    """The landlord leads a K; the next farmer passes it, holding nothing above a 9; the other
    farmer tops it with an A, holding the one 2 the landlord cannot see and the other two As.
    (game, landlord, passer, other)"""
    game = new("doudizhu", seed=3)
    landlord = game.to_act()[0]
    passer, other = (landlord + 1) % 3, (landlord + 2) % 3
    hands = [""] * 3
    hands[landlord] = "3456789TJQKA222BR"
    hands[passer] = "33445566677788899"
    rig(game, hands, "345")  # the other farmer: the rest, the last 2 among them
    game.apply(landlord, "bid 3")
    assert game.landlord == landlord and game.phase() == "play"
    game.apply(landlord, "K")
    game.apply(passer, "pass")
    game.apply(other, "A")
    assert game.hands[other][TWO] == 1 and game.turn == landlord
    return game, landlord, passer, other


def test_a_world_deals_each_seat_its_count_from_the_unseen_cards_only() -> None:
    game, landlord, passer, other = passed_over()
    mine = game.hands[landlord]
    unseen = [FULL[r] - mine[r] - game.out[r] for r in range(NRANKS)]
    worlds = sample(game, landlord, 40)
    assert len(worlds) == 40
    for hands in worlds:
        assert [sum(h) for h in hands] == [sum(h) for h in game.hands]
        assert hands[landlord] == mine
        dealt = [hands[passer][r] + hands[other][r] for r in range(NRANKS)]
        assert dealt == unseen  # no card the landlord holds or saw played


def test_a_farmers_pass_over_a_single_mostly_rules_out_the_cards_that_beat_it() -> None:
    game, landlord, passer, other = passed_over()
    (ev,) = evidence(game, landlord)
    assert ev.seat == passer
    worlds = sample(game, landlord, 200)
    passer_two = sum(h[passer][TWO] == 1 for h in worlds)
    other_two = sum(h[other][TWO] == 1 for h in worlds)
    # dealt blind, the passer (17 of the 33 unseen cards) would hold it about half the time;
    # a pass may be a choice, so some worlds still give it the 2, far fewer than the other
    assert 2 * passer_two < other_two
    passer_aces = sum(h[passer][ACE] for h in worlds)
    assert passer_aces < 150  # blind, about one of the two unseen As a world (200 in all)


def test_the_worlds_are_the_same_for_the_same_position() -> None:
    game, landlord, _, _ = passed_over()
    again, _, _, _ = passed_over()
    assert sample(game, landlord) == sample(again, landlord)


@pytest.mark.parametrize("key", ["doudizhu", "doudizhu_happy", "doudizhu_wild"])
def test_the_hard_trustee_plays_only_legal_actions_in_self_play(key: str) -> None:
    for seed in range(2):
        game = new(key, seed=seed)
        while not game.is_over():
            seat = game.to_act()[0]
            action = game.trustee(seat, HARD)
            assert action in game.legal_actions(seat), (game.phase(), action)
            game.apply(seat, action)
        assert game.winner is not None or game.landlord is None
