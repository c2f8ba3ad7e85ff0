"""The 打滚子 trustee's play (issue 25): it remembers what has been played and who showed a
void, gives points only to a partner whose play will stand, takes points with a play that
stands, and keeps its big trumps instead of leading them."""

from __future__ import annotations

from engines.base import Setup
from engines.dagunzi import DAGUNZI
from engines.dagunzi.game import DagunziGame
from engines.trick.cards import Context, counts_of, parse_ids


def _table(hands: list[str], leader: int = 0, trump: int = 1, level: int = 4) -> DagunziGame:
    """A trick about to be led by ``leader``: ``hands`` in notation, the kitty empty (no
    hidden cards), trump ``trump`` (hearts) at ``level``; the cards not in a hand were played."""
    game = DAGUNZI.new(Setup(seats=4, seed=1, options=DAGUNZI.validate({})))
    assert isinstance(game, DagunziGame)
    game.hands = [counts_of(parse_ids(h)) for h in hands]
    game.kitty = []
    game.dealer, game.level, game.trump = 0, level, trump
    game.ctx = Context(level, trump, True)
    game._phase = "play"
    game.turn = leader
    return game


def test_trustee_leads_a_king_pair_once_no_pair_of_aces_can_be_left() -> None:
    # Three decks, and only one A of spades unseen: nobody can answer a 棒 of kings with a 棒
    # of aces. The trustee before issue 25 led an A or else its lowest card.
    game = _table(["Ks Ks 3c 6c", "As Qs 7c 8c", "3s 6s 6d 7d", "7s 8s 9d Jd"])
    assert game.trustee(0) == "Ks Ks"


def test_trustee_does_not_lead_its_ace_into_an_opponent_s_void() -> None:
    # Seat 4 showed in the first trick that it holds no diamonds: the A of diamonds would be
    # ruffed, so the trustee leads a low club.
    game = _table(["3d 6c 7c 8c", "7d 9c Jc Qc", "Kd Ad 3c 6s", "3s 6s 7s 8s"])
    for seat, play in enumerate(["3d", "7d", "Kd", "3s"]):
        game.apply(seat, play)
    assert game.to_act() == (2,)
    assert game.trustee(2) == "3c"


def test_trustee_gives_points_only_to_a_partner_whose_card_will_stand() -> None:
    # The partner's 9 of spades wins so far, but aces are out and an opponent plays last: the
    # trustee keeps its K (10 points) and plays its 3.
    game = _table(["9s 3c", "3s 6c", "Ks 3s", "As 7c"])
    game.apply(0, "9s")
    game.apply(1, "3s")
    assert game.trustee(2) == "3s"


def test_trustee_takes_points_with_a_card_that_stands() -> None:
    # The opponents lead a 10 of spades; a J would win for now, but a K and a Q play after the
    # trustee: it takes the 10 points with its A.
    game = _table(["Ts 3c", "Js As", "Ks 6c", "Qs 7c"])
    game.apply(0, "Ts")
    assert game.trustee(1) == "As"


def test_trustee_keeps_its_big_jokers_instead_of_leading_them() -> None:
    # Long in trumps with two 大王 and one side card left: it leads the side card and keeps the
    # jokers for the last tricks (抠底 and the levels go with the last trick).
    game = _table(["R R 9h 8h 7h 6c", "As Qs 7c 8c 9c Tc", "3s 6s 6d 7d 8d 9d",
                   "7s 8s 9s Jd Qd Kd"])
    assert game.trustee(0) == "6c"


def test_trustee_keeps_its_top_trump_for_the_last_trick_when_no_points_are_at_stake() -> None:
    # 保底 / 抠底: a low trump led with no points in the trick; only the 大王 would win it. The
    # trustee keeps the 大王 (the last trick decides the kitty and the levels) and plays low.
    game = _table(["9h 3c 6c", "R 6h 7h", "7c 8c 9c", "3s 6s 7s"])
    game.apply(0, "9h")
    assert game.trustee(1) == "6h"
    # with 20 points or more at stake, the 大王 takes them
    game = _table(["Kh 3c 6c", "Th 7c 8c", "5h 9c Jc", "R 6h 7h"])
    for seat, play in enumerate(["Kh", "Th", "5h"]):
        game.apply(seat, play)
    assert game.trustee(3) == "R"
